#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + WASM, runs every suite,
# prints one closing line "ikpd: N passed, N failed". Exits non-zero when any test fails.
#   IKPD_FUZZ_SECONDS  seconds per fuzz harness (default 3; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensure-deps.sh
bash .ci/build.sh native wasm

reports=build/reports
rm -rf "$reports" && mkdir -p "$reports"
status=0

echo "== native tests (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure -j2 --output-junit "$PWD/$reports/ctest.xml" || status=1

echo "== native tests under AddressSanitizer + UndefinedBehaviorSanitizer"
if bash .ci/build.sh sanitize; then
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build/sanitize/ikpd_tests --gtest_brief=1 --gtest_output="xml:$reports/sanitize.xml" || status=1
else
  status=1
fi

echo "== JS and browser tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=1

fuzz_seconds=${IKPD_FUZZ_SECONDS:-3}
fuzz_report=()
if [ "$fuzz_seconds" != 0 ]; then
  echo "== fuzzing (libFuzzer + ASan + UBSan, ${fuzz_seconds}s per harness; npm run fuzz for longer runs)"
  bash .ci/fuzz.sh --seconds "$fuzz_seconds" --junit "$reports/fuzz.xml" || status=1
  fuzz_report=("$reports/fuzz.xml")
fi

node tests/summary.mjs "$reports/ctest.xml" "$reports/sanitize.xml" "$reports/vitest.json" "${fuzz_report[@]}"
exit $status
