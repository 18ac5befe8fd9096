#!/usr/bin/env bash
# A private PostgreSQL cluster for local runs and tests.
# Usage: deploy/local/pg.sh start [DIR [PORT]]   initdb DIR if needed, start it, create `boneyard`
#        deploy/local/pg.sh stop  [DIR]          stop it (fast shutdown); nothing to do if stopped
#        deploy/local/pg.sh url   [DIR [PORT]]   print the database URL for clients
# DIR defaults to var/pg in this checkout (git-ignored), PORT to 5433 (5432 is left to any
# system cluster). A relative DIR is taken from the caller's directory; the script itself works
# from any directory. `start` on a running cluster only checks its port and the database.
#
# Layout: DIR/data (the cluster), DIR/postgres.log, and the unix socket DIR/.s.PGSQL.PORT.
# The server runs as the `postgres` OS user (PostgreSQL refuses to run as root): when called as
# root the script chowns DIR to postgres and uses runuser; any other user runs it as themselves.
# BONEYARD_PG_BIN overrides the folder holding initdb/pg_ctl (default: newest
# /usr/lib/postgresql/*/bin).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
default_dir="$root/var/pg"
default_port=5433
database=boneyard

usage() {
  echo "usage: $0 start [DIR [PORT]] | stop [DIR] | url [DIR [PORT]]" >&2
  exit 2
}

die() {
  echo "pg.sh: $*" >&2
  exit 1
}

find_bin() {
  if [[ -n "${BONEYARD_PG_BIN:-}" ]]; then
    [[ -x "$BONEYARD_PG_BIN/pg_ctl" ]] || die "BONEYARD_PG_BIN=$BONEYARD_PG_BIN has no pg_ctl"
    echo "$BONEYARD_PG_BIN"
    return
  fi
  local candidate
  candidate=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  [[ -n "$candidate" && -x "$candidate/pg_ctl" ]] ||
    die "no PostgreSQL server binaries under /usr/lib/postgresql (run deploy/setup.sh)"
  echo "$candidate"
}

# as_server CMD...: runs a server command as the cluster's owner.
as_server() {
  if ((EUID == 0)); then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

check_port() {
  if ! [[ "$1" =~ ^[0-9]+$ ]] || (($1 < 1 || $1 > 65535)); then
    die "bad port '$1'"
  fi
}

# The port a running cluster listens on: line 4 of postmaster.pid.
running_port() {
  sed -n 4p "$data/postmaster.pid" 2>/dev/null || true
}

is_running() {
  as_server "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1
}

init_cluster() {
  if ((EUID == 0)); then
    getent passwd postgres >/dev/null || die "there is no 'postgres' OS user (install postgresql)"
    chown postgres: "$dir"
    # Every folder above DIR must let postgres through, or initdb fails with a vaguer message.
    runuser -u postgres -- test -w "$dir" ||
      die "the postgres user cannot write $dir (check the permissions of its parent folders)"
  fi
  echo "pg.sh: creating a cluster in $data"
  as_server "$bin/initdb" -D "$data" -U postgres --encoding=UTF8 --locale=C.UTF-8 \
    --auth=trust >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    die "initdb failed"
  }
  # Trust authentication, and nothing else: this is a private cluster for local runs and tests
  # that accepts connections only over its own unix socket and on 127.0.0.1 (listen_addresses
  # below), so there is no password to manage. Never point it at a non-loopback address.
  cat >"$data/pg_hba.conf" <<'EOF'
# boneyard private cluster (deploy/local/pg.sh): loopback and unix socket only, trust auth.
# TYPE  DATABASE  USER  ADDRESS        METHOD
local   all       all                  trust
host    all       all   127.0.0.1/32   trust
EOF
  echo "include_if_exists = 'boneyard.conf'" >>"$data/postgresql.conf"
}

# Rewritten on every start so the port given this time is the one used.
write_settings() {
  local socket_dir=${dir//\'/\'\'}
  as_server tee "$data/boneyard.conf" >/dev/null <<EOF
# Written by deploy/local/pg.sh start; rewritten on every start.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$socket_dir'
# Commits stay durable (fsync and synchronous_commit are on); only the WAL flush call differs.
# pg_test_fsync on these machines: fdatasync (Linux's default) 3.8 ms per 8 kB write, fsync
# 0.5 ms. BONEYARD_PG_WAL_SYNC_METHOD picks another where that is not so.
wal_sync_method = ${BONEYARD_PG_WAL_SYNC_METHOD:-fsync}
max_connections = 200
EOF
}

cmd=${1:-}
[[ -n "$cmd" ]] || usage
shift

dir_arg=${1:-$default_dir}
port=${2:-}
case "$cmd" in
  start | url) (($# <= 2)) || usage ;;
  stop) (($# <= 1)) || usage ;;
  *) usage ;;
esac

# An absolute path, relative to the caller's directory (the cd into $root above was in a
# subshell).
if [[ "$cmd" == start ]]; then
  mkdir -p "$dir_arg"
fi
if [[ -d "$dir_arg" ]]; then
  dir=$(cd "$dir_arg" && pwd)
else
  dir=$dir_arg
  [[ "$dir" == /* ]] || dir="$PWD/$dir"
fi
data="$dir/data"

case "$cmd" in
  url)
    if [[ -z "$port" ]]; then
      port=$(running_port)
      port=${port:-$default_port}
    fi
    check_port "$port"
    echo "postgresql://postgres@127.0.0.1:$port/$database"
    ;;

  stop)
    if [[ ! -f "$data/PG_VERSION" ]]; then
      echo "pg.sh: no cluster in $dir; nothing to stop"
      exit 0
    fi
    bin=$(find_bin)
    if ! is_running; then
      echo "pg.sh: the cluster in $dir is not running"
      exit 0
    fi
    as_server "$bin/pg_ctl" stop -D "$data" -w -m fast
    ;;

  start)
    port=${port:-$default_port}
    check_port "$port"
    bin=$(find_bin)
    # The socket path must fit in sockaddr_un (107 bytes), or the server cannot start.
    socket="$dir/.s.PGSQL.$port"
    ((${#socket} <= 107)) || die "socket path too long (${#socket} > 107 bytes): $socket"
    if [[ ! -f "$data/PG_VERSION" ]]; then
      init_cluster
    fi
    if is_running; then
      current=$(running_port)
      [[ "$current" == "$port" ]] ||
        die "the cluster in $dir is already running on port $current; stop it first"
      echo "pg.sh: the cluster in $dir is already running on port $port"
    else
      write_settings
      as_server "$bin/pg_ctl" start -D "$data" -w -t 60 -l "$dir/postgres.log" >/dev/null || {
        tail -n 20 "$dir/postgres.log" >&2 || true
        die "the server did not start (log: $dir/postgres.log)"
      }
      echo "pg.sh: started the cluster in $dir on 127.0.0.1:$port"
    fi
    # Create the database once. Over the unix socket in DIR, as the postgres role.
    exists=$("$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -XtAq \
      -c "SELECT 1 FROM pg_database WHERE datname = '$database'")
    if [[ "$exists" != 1 ]]; then
      "$bin/createdb" -h "$dir" -p "$port" -U postgres "$database"
      echo "pg.sh: created database $database"
    fi
    ;;
esac
