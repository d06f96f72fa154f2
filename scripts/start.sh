#!/usr/bin/env bash
# Installs what the service needs and is missing, builds when a source changed (scripts/setup.sh),
# and runs API + worker + a local Temporal dev server. The test servers are scripts/test.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .tools/node/bin/node --max-semi-space-size=4 dist/src/main.js
