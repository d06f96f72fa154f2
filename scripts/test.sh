#!/usr/bin/env bash
# The whole test suite against real components: Temporal dev server, SQLite and
# PostgreSQL, the official validators. Installs what the service needs (scripts/setup.sh)
# and what only the tests use (scripts/setup-test.sh). Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup-test.sh
export PATH="$PWD/.tools/node/bin:$PATH"
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  TEST_DATABASE_URL=$(bash scripts/test-postgres.sh start)
  export TEST_DATABASE_URL
  trap 'bash scripts/test-postgres.sh stop >/dev/null 2>&1 || true' EXIT
fi
mkdir -p .data
status=0
# The formatter's verdict (npm run format fixes it); the tests run either way.
npx prettier --check . || status=$?
# The layers (.dependency-cruiser.cjs): an import that points up or closes a circle fails the run.
npm run --silent layers || status=$?
# The type check of the tools too, which the product build leaves out (scripts/tsconfig.json).
npm run --silent typecheck || status=$?
npx vitest run --reporter=default --reporter=json --outputFile.json=.data/test-results.json "$@" || status=$?
# A plain closing line that any CI can read, whatever the runner prints.
node -e 'const r = JSON.parse(require("fs").readFileSync(".data/test-results.json", "utf8")); console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`)' || true
exit $status
