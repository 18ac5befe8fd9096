#!/usr/bin/env bash
# The matchmaking service under load, on this machine: starts a throw-away PostgreSQL
# (deploy/local/pg.sh), boneyard-execution and boneyard-matchmaking (passes every 100 ms) under a
# temporary folder, creates one ticket per player with tests/bench/matchmaking_load.cc and waits
# until every pair's match is created on execution, prints the tool's report and the services'
# CPU, and stops everything.
#
#   tests/bench/matchmaking_load.sh [LOAD FLAGS...]   default: --players 10000 --in_flight 256
#
# BONEYARD_BUILD_DIR picks the build (default: build/). Not a test: figures depend on the
# machine (docs/performance.md has ours).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BONEYARD_BUILD_DIR:-$root/build}
for program in boneyard-execution boneyard-matchmaking matchmaking_load; do
  [[ -x "$build/bin/$program" ]] || {
    echo "matchmaking_load.sh: no $build/bin/$program; build it first" >&2
    exit 1
  }
done
pg_port=${BONEYARD_PG_PORT:-55535}
execution=127.0.0.1:50451
matchmaking=127.0.0.1:50471

tmp=$(mktemp -d /tmp/boneyard-matchmaking-load.XXXXXX)
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
head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$tmp/operator_token"

"$build/bin/boneyard-execution" --database_url="$url" --listen="$execution" \
  --metrics_listen=127.0.0.1:9864 --operator_token_file="$tmp/operator_token" \
  --log_level=warn 2>"$tmp/execution.log" &
pids+=($!)
"$build/bin/boneyard-matchmaking" --database_url="$url" --listen="$matchmaking" \
  --metrics_listen=127.0.0.1:9866 --operator_token_file="$tmp/operator_token" \
  --execution_target="$execution" --execution_token_file="$tmp/operator_token" \
  --pass_interval=100ms --log_level=warn 2>"$tmp/matchmaking.log" &
pids+=($!)
for port in 9864 9866; do
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && break
    sleep 0.1
  done
done
sleep 1  # the gRPC servers start after the metrics endpoints

args=("$@")
((${#args[@]})) || args=(--players 10000 --in_flight 256)
TIMEFORMAT='load tool:   %U s user + %S s system CPU'
time "$build/bin/matchmaking_load" --target="$matchmaking" \
  --operator_token_file="$tmp/operator_token" --database_url="$url" "${args[@]}"
echo
# User and system CPU apart: a service waiting on sockets and locks spends much in the kernel.
ticks=$(getconf CLK_TCK)
names=(execution matchmaking)
for i in 0 1; do
  read -r user system < <(awk '{print $14, $15}' "/proc/${pids[$i]}/stat")
  echo "${names[$i]} CPU: $(echo "scale=2; $user / $ticks" | bc) s user +" \
    "$(echo "scale=2; $system / $ticks" | bc) s system"
done
