#!/usr/bin/env bash
# `npm test`: installs what is missing, builds native + WASM, runs every suite.
# Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensure-deps.sh
bash .ci/build.sh native wasm

echo "== native tests (GoogleTest via CTest)"
ctest --test-dir build/native --output-on-failure -j2

echo "== JS and browser tests (Vitest)"
npx vitest run
