#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + WASM, runs every suite,
# prints one closing line "ikpd: N passed, N failed". Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensure-deps.sh
bash .ci/build.sh native wasm

reports=build/reports
rm -rf "$reports" && mkdir -p "$reports"
status=0

echo "== native tests (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure -j2 --output-junit "$PWD/$reports/ctest.xml" || status=1

echo "== JS and browser tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json" || status=1

node tests/summary.mjs "$reports/ctest.xml" "$reports/vitest.json"
exit $status
