#!/usr/bin/env bash
# Builds the requested targets: native (library + tests + benchmarks), wasm
# (web/lib/ikpd{,-rig,-batch}.mjs + .wasm, and the threaded module in web/lib/threads/),
# sanitize (native tests under ASan+UBSan), nosimd (native tests without SIMD lanes),
# v3 (library, tests and benchmarks for x86-64-v3: AVX2 + FMA, 8-wide lanes),
# fuzz (libFuzzer harnesses, clang). Incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
for target in "$@"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/native -j"$jobs" ;;
    sanitize)
      # Debug keeps assertions; -O1 keeps the property tests fast under ASan.
      cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
        -DIKPD_WERROR=ON -DIKPD_SANITIZE=ON >/dev/null
      cmake --build build/sanitize -j"$jobs" --target ikpd_tests ;;
    nosimd)
      # The portable one-item batch path other CPUs get (IKPD_NO_SIMD), tests only.
      cmake -S . -B build/nosimd -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-DIKPD_NO_SIMD -DIKPD_WERROR=ON >/dev/null
      cmake --build build/nosimd -j"$jobs" --target ikpd_tests ;;
    v3)
      # The optional x86-64-v3 build (IKPD_X86_64_V3): AVX2 registers hold 8 lanes.
      cmake -S . -B build/v3 -DCMAKE_BUILD_TYPE=Release -DIKPD_X86_64_V3=ON -DIKPD_WERROR=ON >/dev/null
      cmake --build build/v3 -j"$jobs" ;;
    fuzz)
      # clang-only warnings must not block fuzzing, so no -Werror here.
      cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DIKPD_FUZZ=ON -DIKPD_BUILD_TESTS=OFF >/dev/null
      cmake --build build/fuzz -j"$jobs" --target ikpd_fuzzers ;;
    wasm)
      export NODE_PATH=/usr/share/nodejs
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/wasm -j"$jobs" ;;
    *) echo "build.sh: unknown target '$target' (native | sanitize | nosimd | v3 | fuzz | wasm)" >&2; exit 2 ;;
  esac
done
