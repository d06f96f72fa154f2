#!/usr/bin/env bash
# Private, throwaway PostgreSQL cluster for tests.
#
#   scripts/test-postgres.sh start   # idempotent; prints a postgres:// URL
#   scripts/test-postgres.sh url     # prints the URL of the running cluster (exit 1 if none)
#   scripts/test-postgres.sh stop    # stops the cluster and deletes its files
#
# The cluster lives in $TEST_PG_DIR (default /tmp/einvoice-test-pg), listens only on
# 127.0.0.1 on a free port and trusts local connections: it holds nothing but test data.
# fsync is off because a crash only ever loses throwaway data.
set -euo pipefail

BASE="${TEST_PG_DIR:-/tmp/einvoice-test-pg}"
DATA="$BASE/data"
PORT_FILE="$BASE/port"
LOCK_FILE="$BASE.lock"
PG_USER=postgres

log() { echo "test-postgres: $*" >&2; }

pg_bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [[ -z "$dir" || ! -x "$dir/initdb" ]]; then
    log "installing the Debian package postgresql"
    # Debian's package would otherwise create and start its own cluster on 5432.
    mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    dir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  echo "$dir"
}

# initdb and postgres refuse to run as root, so root delegates to the postgres OS user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u "$PG_USER" -- "$@"
  else
    "$@"
  fi
}

url() { echo "postgres://$PG_USER@127.0.0.1:$(cat "$PORT_FILE")/postgres"; }

is_running() { [[ -f "$PORT_FILE" && -d "$DATA" ]] && as_owner "$BIN/pg_ctl" status -D "$DATA" >/dev/null 2>&1; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % 40000))
    if ! port_in_use "$port"; then echo "$port"; return 0; fi
  done
  log "no free port found"
  return 1
}

init_cluster() {
  mkdir -p "$BASE"
  [[ $(id -u) -eq 0 ]] && chown "$PG_USER": "$BASE"
  if [[ ! -f "$DATA/PG_VERSION" ]]; then
    rm -rf "$DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U "$PG_USER" -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$BASE/initdb.log" 2>&1 \
      || { cat "$BASE/initdb.log" >&2; return 1; }
  fi
}

start_server() {
  local port attempt
  # A free port can be taken by someone else before postgres binds it: try a few.
  for attempt in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$BIN/pg_ctl" start -w -t 60 -D "$DATA" -l "$BASE/server.log" -o \
      "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$BASE -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      >/dev/null 2>&1 9>&-; then
      echo "$port" >"$PORT_FILE"
      return 0
    fi
    log "start on port $port failed (attempt $attempt)"
  done
  tail -n 20 "$BASE/server.log" >&2 || true
  return 1
}

cmd_start() {
  BIN=$(pg_bindir)
  if ! is_running; then
    init_cluster
    start_server
  fi
  url
}

cmd_url() {
  BIN=$(pg_bindir)
  is_running || { log "not running"; exit 1; }
  url
}

cmd_stop() {
  if [[ -d "$DATA" ]]; then
    BIN=$(pg_bindir)
    as_owner "$BIN/pg_ctl" stop -D "$DATA" -m immediate >/dev/null 2>&1 || true
  fi
  rm -rf "$BASE"
}

main() {
  local command="${1:-}"
  case "$command" in
    start | url | stop) ;;
    *)
      echo "usage: $0 start|stop|url" >&2
      exit 2
      ;;
  esac
  # Test files start in parallel and each may call `start`: serialise them.
  # The server must not inherit fd 9 (see start_server), or it would hold the lock forever.
  exec 9>"$LOCK_FILE"
  flock 9
  "cmd_$command"
}

main "$@"
