#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + WASM, runs every suite.
# Exits non-zero when any test fails.
#   IKPD_FUZZ_SECONDS  seconds per fuzz harness (default 3; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensure-deps.sh
bash .ci/build.sh native wasm

echo "== native tests (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure -j2

echo "== native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
bash .ci/build.sh sanitize
ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/sanitize/ikpd_tests --gtest_brief=1

echo "== JS and browser tests (Vitest)"
npx vitest run

fuzz_seconds=${IKPD_FUZZ_SECONDS:-3}
if [ "$fuzz_seconds" != 0 ]; then
  echo "== fuzzing (libFuzzer + ASan + UBSan, ${fuzz_seconds}s per harness; npm run fuzz for longer runs)"
  bash .ci/fuzz.sh --seconds "$fuzz_seconds"
fi
