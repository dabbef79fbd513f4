#!/usr/bin/env bash
# `npm run demo`: installs what is missing, builds the WASM module, serves the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/ensure-deps.sh
bash .ci/build.sh wasm
exec npx vite demo --host 127.0.0.1 --port "${PORT:-5173}" --strictPort "$@"
