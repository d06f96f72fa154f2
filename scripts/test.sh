#!/usr/bin/env bash
# The whole test suite against real components: Temporal dev server, SQLite and
# PostgreSQL, the official validators. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/.tools/node/bin:$PATH"
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  TEST_DATABASE_URL=$(bash scripts/test-postgres.sh start)
  export TEST_DATABASE_URL
  trap 'bash scripts/test-postgres.sh stop >/dev/null 2>&1 || true' EXIT
fi
npx vitest run "$@"
