#!/usr/bin/env bash
# Builds the Temporal server and its SQL schema tool from the Go module proxy into
# .tools/temporal-server/bin, for scripts/scale-cluster.sh (a real multi-service cluster on a
# local PostgreSQL, without Docker). The server's go.mod needs a newer Go than many machines
# have: GOTOOLCHAIN fetches the approved one from the module proxy. Idempotent: nothing happens
# when the pinned version is built. Takes about 25 minutes on two busy cores the first time.
set -euo pipefail
cd "$(dirname "$0")/.."

TEMPORAL_SERVER_VERSION=v1.32.2
# The server's go.mod asks for go >= 1.26.10; this is the toolchain the project uses for it.
export GOTOOLCHAIN="${GOTOOLCHAIN_TEMPORAL:-go1.27.3}"
DEST=.tools/temporal-server
STAMP=.tools/temporal-server.stamp

if [ "$(cat "$STAMP" 2>/dev/null)" = "$TEMPORAL_SERVER_VERSION" ] && [ -x "$DEST/bin/temporal-server" ] && [ -x "$DEST/bin/temporal-sql-tool" ]; then
  exit 0
fi
command -v go >/dev/null || { echo "setup-temporal-cluster: needs Go (apt-get install golang, or any Go >= 1.21 that can switch toolchains)" >&2; exit 1; }
echo "setup-temporal-cluster: building Temporal server $TEMPORAL_SERVER_VERSION (go install, ~25 min on 2 cores)" >&2
mkdir -p "$DEST/bin"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# One binary at a time: the build is CPU- and memory-heavy.
GOBIN="$build" go install -trimpath "go.temporal.io/server/cmd/server@$TEMPORAL_SERVER_VERSION"
GOBIN="$build" go install -trimpath "go.temporal.io/server/cmd/tools/sql@$TEMPORAL_SERVER_VERSION"
mv "$build/server" "$DEST/bin/temporal-server"
mv "$build/sql" "$DEST/bin/temporal-sql-tool"
# The schema files temporal-sql-tool applies ship in the module, not in the binary.
moddir=$(GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' "go.temporal.io/server@$TEMPORAL_SERVER_VERSION" 2>/dev/null || true)
[ -n "$moddir" ] || moddir="$(go env GOMODCACHE)/go.temporal.io/server@$TEMPORAL_SERVER_VERSION"
rm -rf "$DEST/schema"
cp -r "$moddir/schema" "$DEST/schema"
chmod -R u+w "$DEST/schema"
echo "$TEMPORAL_SERVER_VERSION" > "$STAMP"
echo "setup-temporal-cluster: $DEST/bin/temporal-server $("$DEST/bin/temporal-server" --version 2>/dev/null | head -1)" >&2
