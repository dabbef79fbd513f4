#!/usr/bin/env bash
# Builds the requested targets: native (library + tests + benchmarks), wasm
# (web/lib/ikpd.mjs), sanitize (native tests under ASan+UBSan). Incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
for target in "$@"; do
  case "$target" in
    native)
      cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/native -j"$jobs" ;;
    sanitize)
      cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Debug -DIKPD_WERROR=ON -DIKPD_SANITIZE=ON >/dev/null
      cmake --build build/sanitize -j"$jobs" --target ikpd_tests ;;
    wasm)
      export NODE_PATH=/usr/share/nodejs
      emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DIKPD_WERROR=ON >/dev/null
      cmake --build build/wasm -j"$jobs" ;;
    *) echo "build.sh: unknown target '$target' (native | sanitize | wasm)" >&2; exit 2 ;;
  esac
done
