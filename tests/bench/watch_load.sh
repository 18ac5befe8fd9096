#!/usr/bin/env bash
# Unread watch streams against boneyard-matchmaking, on this machine (docs/performance.md,
# "Watching at scale"): starts a throw-away PostgreSQL (deploy/local/pg.sh) and
# boneyard-matchmaking under a temporary folder, runs tests/bench/watch_load.cc (2,000 unread
# WatchTournament and 2,000 unread WatchEvents streams by default), which prints both processes'
# CPU over its window and a normal call's p50/p99, and stops everything.
#
#   tests/bench/watch_load.sh [WATCH_LOAD FLAGS...]   e.g. --tournament_streams=500
#
# BONEYARD_BUILD_DIR picks the build (default: build/). Not a test: figures depend on the
# machine.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BONEYARD_BUILD_DIR:-$root/build}
for program in boneyard-matchmaking watch_load; do
  [[ -x "$build/bin/$program" ]] || {
    echo "watch_load.sh: no $build/bin/$program; build it first" >&2
    exit 1
  }
done
pg_port=${BONEYARD_PG_PORT:-55536}
matchmaking=127.0.0.1:50472

tmp=$(mktemp -d /tmp/boneyard-watch-load.XXXXXX)
chmod 755 "$tmp"  # the postgres user must reach the cluster folder inside
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null && wait "$pid" || true; done
  "$root/deploy/local/pg.sh" stop "$tmp/pg" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$root/deploy/local/pg.sh" start "$tmp/pg" "$pg_port" >/dev/null
url=$("$root/deploy/local/pg.sh" url "$tmp/pg" "$pg_port")
postmaster=$(head -1 "$tmp/pg/data/postmaster.pid")
head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$tmp/operator_token"

# No --execution_target: no matchmaking passes, so the process's CPU is the streams'.
"$build/bin/boneyard-matchmaking" --database_url="$url" --listen="$matchmaking" \
  --metrics_listen=127.0.0.1:9867 --operator_token_file="$tmp/operator_token" \
  --log_level=warn 2>"$tmp/matchmaking.log" &
pids+=($!)
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:9867/metrics" >/dev/null 2>&1 && break
  sleep 0.1
done
sleep 1  # the gRPC server starts after the metrics endpoint

"$build/bin/watch_load" --target="$matchmaking" --operator_token_file="$tmp/operator_token" \
  --matchmaking_pid="${pids[0]}" --postgres_pid="$postmaster" "$@"
