#!/usr/bin/env bash
# Builds the requested targets: native (library + tests + benchmarks), wasm
# (web/lib/ikpd{,-rig,-batch}.mjs + .wasm, and the threaded module in web/lib/threads/),
# sanitize (native tests under ASan+UBSan, clang, in build/fuzz), variants (in build/native: the native
# test objects linked against the library without SIMD lanes, ikpd_tests_nosimd,
# and on x86-64 for x86-64-v3, ikpd_tests_v3), v3 (a whole x86-64-v3 tree:
# library, tests and benchmarks, AVX2 + FMA, 8-wide lanes, for `npm run bench`),
# fuzz (libFuzzer harnesses under ASan+UBSan, clang, in build/fuzz). Incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
for target in "$@"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/native -j"$jobs" ;;
    sanitize|fuzz)
      # One clang tree for both: the library is compiled once under ASan+UBSan
      # (with coverage for libFuzzer) and linked into the GoogleTest suite
      # (sanitize) and the libFuzzer harnesses (fuzz).
      # No NDEBUG: assertions stay on; -O2 for the library and harnesses (the
      # tests' own code at -O1, CMakeLists.txt); -g1 (line tables) is all a
      # sanitizer's stack trace reads, and builds faster. clang-only warnings
      # must not block fuzzing, so no -Werror here (the native build has it).
      cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1" -DIKPD_FUZZ=ON -DIKPD_BUILD_TESTS=ON >/dev/null
      if [ "$target" = sanitize ]; then
        cmake --build build/fuzz -j"$jobs" --target ikpd_tests
      else
        cmake --build build/fuzz -j"$jobs" --target ikpd_fuzzers
      fi ;;
    variants)
      # The portable one-item batch path other CPUs get (IKPD_NO_SIMD) and the
      # x86-64-v3 lanes, each a library variant under the same test objects.
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON -DIKPD_LANE_VARIANTS=ON >/dev/null
      variant_targets=(ikpd_tests_nosimd)
      case "$(uname -m)" in x86_64|amd64) variant_targets+=(ikpd_tests_v3) ;; esac
      cmake --build build/native -j"$jobs" --target "${variant_targets[@]}" ;;
    v3)
      # The optional x86-64-v3 build (IKPD_X86_64_V3): AVX2 registers hold 8 lanes.
      cmake -S . -B build/v3 -DCMAKE_BUILD_TYPE=Release -DIKPD_X86_64_V3=ON -DIKPD_WERROR=ON >/dev/null
      cmake --build build/v3 -j"$jobs" ;;
    wasm)
      export NODE_PATH=/usr/share/nodejs
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/wasm -j"$jobs" ;;
    *) echo "build.sh: unknown target '$target' (native | sanitize | variants | v3 | fuzz | wasm)" >&2; exit 2 ;;
  esac
done
