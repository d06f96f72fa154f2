#!/usr/bin/env bash
# The scale test on a real multi-service Temporal cluster (scripts/scale-cluster.ts): builds the
# Temporal server once (scripts/setup-temporal-cluster.sh), builds the service and the tools, starts a private
# PostgreSQL for the cluster and the service's metadata, runs the test, removes the PostgreSQL.
# Arguments go to the test (--layouts 1,2,3 --seconds 45 --scans 12 --ocr-nice 10 --ocr-cpus 0.5 --json FILE).
# Not part of .ci/run: it takes about 14 minutes on two busy cores (see docs/benchmarks/scale-cluster.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup-temporal-cluster.sh
export PATH="$PWD/.tools/node/bin:$PATH"
export TEST_PG_DIR="${SCALE_PG_DIR:-/tmp/einvoice-scale-pg}"
npm run --silent build:tools
url=$(bash scripts/test-postgres.sh start)
trap 'bash scripts/test-postgres.sh stop >/dev/null 2>&1 || true' EXIT
node dist-tools/scripts/scale-cluster.js --postgres-url "$url" "$@"
