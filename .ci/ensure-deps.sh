#!/usr/bin/env bash
# Installs what the build, tests and demo need when it is missing:
# Debian packages (toolchains, GLM, GoogleTest, Emscripten, Chromium) and npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libglm-dev libgtest-dev libbenchmark-dev emscripten chromium clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "ikpd: installing Debian packages: ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "ikpd: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi
