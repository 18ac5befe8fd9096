#!/usr/bin/env bash
# Three replicas of every service (deploy/local/up.sh --replicas 3, a throw-away system on free
# ports) under `boneyard load`: one execution replica is killed with SIGKILL and started again,
# then every service is restarted one replica at a time (SIGTERM, up.sh starts it again) while
# the load plays on. Passes when the load saw no error beyond the reconnections its players make
# themselves, every match was played out or aborted at the end, every finished match's record
# holds every event its players were shown at its place (boneyard load --verify: nothing
# acknowledged lost, nothing applied twice or forked), every finished match's result
# reached ratings exactly once (ratings' results and each seat's game count equal the finished
# matches), and an operator signed in to the web app before the restarts is still signed in
# after every web replica has restarted. Prints the load's report and each restart's time.
#
#   tests/deploy/local_replicas_test.sh            (after a build: build/bin, or BONEYARD_BIN_DIR)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin="${BONEYARD_BIN_DIR:-$root/build/bin}"
export BONEYARD_BIN_DIR="$bin"
load_seconds=${BONEYARD_REPLICAS_LOAD_SECONDS:-45}

var=$(mktemp -d /tmp/boneyard-replicas.XXXXXX)
chmod 755 "$var"  # the postgres user makes its cluster in $var/pg
export BONEYARD_VAR_DIR="$var" BONEYARD_SKIP_BUILD=1
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  "$root/deploy/local/down.sh" >/dev/null 2>&1 || true
  rm -rf "$var"
}
trap cleanup EXIT

port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}
# A block of ports below Linux's ephemeral range, each one the system uses free.
for ((attempt = 0; attempt < 20; attempt++)); do
  base=$((20000 + (RANDOM % 110) * 100))
  ok=1
  for offset in 0 1 2 3 4 5 6 7 8 101 102 104 106 108 201 202 204 206 208 301; do
    port_is_free $((base + offset)) || ok=0
  done
  ((ok)) && break
done
export BONEYARD_PG_PORT=$base
export BONEYARD_EXECUTION_LISTEN=127.0.0.1:$((base + 1))
export BONEYARD_METRICS_LISTEN=127.0.0.1:$((base + 2))
export BONEYARD_RATINGS_LISTEN=127.0.0.1:$((base + 3))
export BONEYARD_RATINGS_METRICS_LISTEN=127.0.0.1:$((base + 4))
export BONEYARD_MATCHMAKING_LISTEN=127.0.0.1:$((base + 5))
export BONEYARD_MATCHMAKING_METRICS_LISTEN=127.0.0.1:$((base + 6))
export BONEYARD_WEB_LISTEN=127.0.0.1:$((base + 7))
export BONEYARD_WEB_METRICS_LISTEN=127.0.0.1:$((base + 8))

up() {
  "$root/deploy/local/up.sh" --replicas 3 | grep -v "already running" || true
}
up
BONEYARD_OPERATOR_TOKEN=$(cat "$var/operator_token")
export BONEYARD_OPERATOR_TOKEN
database_url=$("$root/deploy/local/pg.sh" url "$var/pg" "$base")

"$bin/boneyard" load --target "$BONEYARD_EXECUTION_LISTEN" --matches 100 --game muggins \
  --rules target=61 --lean-views --think-time 40ms --duration "${load_seconds}s" \
  --reconnect-for 30s --verify --metrics-url "http://$BONEYARD_METRICS_LISTEN/metrics" --json \
  >"$var/load.json" &
load_pid=$!
sleep 3

# stop_and_restart NAME SIGNAL: the replica ends (SIGTERM: it drains; SIGKILL: a crash) and
# up.sh starts it again.
stop_and_restart() {
  local name=$1 signal=$2 pid started
  pid=$(cat "$var/run/$name.pid")
  started=$(date +%s%N)
  kill "-$signal" "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
  up
  echo "restarted $name after SIG$signal in $((($(date +%s%N) - started) / 1000000)) ms"
}

# An operator signs in to the web app (whichever replica the connection reaches).
web="http://$BONEYARD_WEB_LISTEN"
curl -sf -c "$var/cookies" -H 'Content-Type: application/json' \
  -d "{\"role\":\"operator\",\"token\":\"$BONEYARD_OPERATOR_TOKEN\"}" "$web/api/session" >/dev/null

stop_and_restart execution-2 KILL
for service in ratings execution matchmaking web; do
  for name in "$service" "$service-2" "$service-3"; do
    stop_and_restart "$name" TERM
  done
done
wait "$load_pid"
jq -c '{matches_created, matches_finished, matches_aborted_at_end, abort_failures,
        actions_acknowledged, errors, reconnects, creations_resent, verified_matches,
        verify_mismatches, verify_unreadable, mismatches, longest_wait_ms, error_examples}' \
  "$var/load.json"

failed=0
# check DESCRIPTION COMMAND...: one line, ok or FAIL.
check() {
  local description=$1
  shift
  if "$@"; then echo "ok   $description"; else echo "FAIL $description"; failed=1; fi
}
# shellcheck disable=SC2317  # called through check
holds() { jq -e "$1" "$var/load.json" >/dev/null; }
check "the load saw no error (its players reconnected on their own)" holds '.errors == 0'
check "matches finished, and every match still playing at the end was aborted" \
  holds '.abort_failures == 0 and .matches_finished > 0'
check "every finished match's record holds every event its players were shown, at its place" \
  holds '.verified_matches > 0 and .verify_mismatches == 0'
# A record the checker could not read (after retrying transient answers for 30 s) is no loss,
# but a system that cannot show a finished match's record for that long is not right either.
check "every finished match's record could be read" holds '.verify_unreadable == 0'

sql() { psql "$database_url" -Atq -c "$1"; }
# The outbox delivers each finished match's result; wait for it to drain.
for ((i = 0; i < 300; i++)); do
  [[ "$(sql "SELECT count(*) FROM exec.outbox WHERE delivered_time IS NULL")" == 0 ]] && break
  sleep 0.1
done
finished=$(sql "SELECT count(*) FROM exec.matches WHERE state = 2")
results=$(sql "SELECT count(*) FROM ratings.results")
games=$(sql "SELECT string_agg(games_played::text, ',' ORDER BY player_id) FROM ratings.ratings")
echo "finished matches $finished, results at ratings $results, games per seat $games"
check "every finished match's result was applied exactly once" \
  test "$finished" -gt 0 -a "$results" = "$finished" -a "$games" = "$finished,$finished"
check "the operator is still signed in after every web replica restarted" \
  curl -sf -b "$var/cookies" -o /dev/null "$web/api/session"
check "no match was left active" test "$(sql "SELECT count(*) FROM exec.matches WHERE state = 1")" = 0
exit "$failed"
