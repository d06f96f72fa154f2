#!/usr/bin/env bash
# Installs what is missing, builds, and runs API + worker + a local Temporal dev server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .tools/node/bin/node dist/src/main.js
