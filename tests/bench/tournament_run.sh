#!/usr/bin/env bash
# A whole tournament through the real services, timed: starts a throw-away PostgreSQL
# (deploy/local/pg.sh), boneyard-execution (delivering results to matchmaking) and
# boneyard-matchmaking (passes every 100 ms) under a temporary folder, runs a Swiss of built-in
# Muggins bots with the `boneyard tournament` commands to its end, and prints, per round, how
# long after the previous round's last match ended its pairings were stored (the outbox's
# delivery, the director's pass and the Dutch pairing together), how long its games took, and
# the whole event's time; then stops everything.
#
#   tests/bench/tournament_run.sh [ENTRANTS [ROUNDS [kill]]]   default: 200 entrants, 5 rounds
#
# With `kill`, matchmaking is killed -9 (and restarted) once round 2's games are being created,
# and execution once round 3's are: the end then checks, from both services' tables, that every
# round was paired once, every game created once on execution and every result recorded once.
#
# BONEYARD_BUILD_DIR picks the build (default: build/). Not a test: figures depend on the
# machine (docs/performance.md has ours).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BONEYARD_BUILD_DIR:-$root/build}
entrants=${1:-200}
rounds=${2:-5}
kill_mode=${3:-}
for program in boneyard-execution boneyard-matchmaking boneyard; do
  [[ -x "$build/bin/$program" ]] || {
    echo "tournament_run.sh: no $build/bin/$program; build it first" >&2
    exit 1
  }
done
pg_port=${BONEYARD_PG_PORT:-55536}
execution=127.0.0.1:50452
matchmaking=127.0.0.1:50472

tmp=$(mktemp -d /tmp/boneyard-tournament-run.XXXXXX)
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
head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$tmp/results_token"

start_execution() {
  "$build/bin/boneyard-execution" --database_url="$url" --listen="$execution" \
    --metrics_listen=127.0.0.1:9865 --operator_token_file="$tmp/operator_token" \
    --matchmaking_target="$matchmaking" --results_token_file="$tmp/results_token" \
    --log_level=warn 2>>"$tmp/execution.log" &
  execution_pid=$!
  pids+=($!)
}
start_matchmaking() {
  "$build/bin/boneyard-matchmaking" --database_url="$url" --listen="$matchmaking" \
    --metrics_listen=127.0.0.1:9867 --operator_token_file="$tmp/operator_token" \
    --execution_target="$execution" --execution_token_file="$tmp/operator_token" \
    --results_token_file="$tmp/results_token" --pass_interval=100ms \
    --log_level=warn 2>>"$tmp/matchmaking.log" &
  matchmaking_pid=$!
  pids+=($!)
}
await_metrics() {
  for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$1/metrics" >/dev/null 2>&1 && break
    sleep 0.1
  done
  sleep 1  # the gRPC servers start after the metrics endpoints
}
sql() { psql -X -q -A -t -F '  ' "$url" -c "$1"; }
# Waits until round $1 has a game created on execution.
await_round() {
  until (($(sql "SELECT count(*) FROM matchmaking.tournament_games WHERE round = $1 AND \
      match_name IS NOT NULL") > 0)); do sleep 0.05; done
}
start_execution
start_matchmaking
await_metrics 9865
await_metrics 9867

export BONEYARD_MATCHMAKING_TARGET=$matchmaking BONEYARD_OPERATOR_TOKEN=$(cat "$tmp/operator_token")
boneyard=$build/bin/boneyard
"$boneyard" tournament create --id bench --game muggins --format swiss --rounds "$rounds" \
  --tiebreaks BH,SB >/dev/null
for ((i = 1; i <= entrants; i++)); do
  "$boneyard" tournament register bench --bot "$( ((i % 2)) && echo greedy || echo random)" \
    >/dev/null
done
start=$(date +%s.%N)
"$boneyard" tournament start bench >/dev/null
if [[ $kill_mode == kill ]]; then
  await_round 2
  kill -9 "$matchmaking_pid"
  echo "killed matchmaking -9 in round 2; restarting it"
  start_matchmaking
  await_metrics 9867
  if ((rounds >= 3)); then
    await_round 3
    kill -9 "$execution_pid"
    echo "killed execution -9 in round 3; restarting it"
    start_execution
    await_metrics 9865
  fi
fi
until [[ $("$boneyard" tournament show bench --json | jq -r .state) == FINISHED ]]; do
  sleep 0.2
done
end=$(date +%s.%N)
printf '%d entrants, %d rounds of Muggins (bots): %.1f s from start to the final standings\n' \
  "$entrants" "$rounds" "$(echo "$end - $start" | bc)"
echo "round  games  paired_ms_after_last_result  games_took_s"
psql -X -q -A -t -F '  ' "$url" <<'SQL'
SELECT r.round,
       (SELECT count(*) FROM matchmaking.tournament_games g WHERE g.round = r.round),
       CASE WHEN r.round = 1 THEN NULL ELSE round(extract(epoch FROM r.start_time - (
         SELECT max(end_time) FROM matchmaking.tournament_games g WHERE g.round = r.round - 1))
         * 1000) END,
       round(extract(epoch FROM (SELECT max(end_time) FROM matchmaking.tournament_games g
         WHERE g.round = r.round) - r.start_time)::numeric, 2)
FROM matchmaking.tournament_rounds r ORDER BY r.round;
SQL
# Exactly once: every round paired once (its primary key), a game per played board, each created
# once on execution (by its request id) and each result recorded.
read -r paired games created results < <(sql "SELECT
  (SELECT count(*) FROM matchmaking.tournament_rounds),
  (SELECT count(*) FROM matchmaking.tournament_games),
  (SELECT count(*) FROM exec.matches WHERE request_id LIKE 'tournaments/bench/%'),
  (SELECT count(*) FROM matchmaking.tournament_games WHERE result IS NOT NULL)")
boards=$((rounds * (entrants / 2)))
echo "rounds paired: $paired of $rounds; games: $games of $boards; created on execution: $created; results: $results"
if ((paired != rounds || games != boards || created != games || results != games)); then
  echo "tournament_run.sh: something was paired, created or counted more or less than once" >&2
  exit 1
fi
