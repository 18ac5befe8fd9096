#!/usr/bin/env bash
# Starts boneyard on this machine: a private PostgreSQL (deploy/local/pg.sh, data in var/pg), the
# ratings service, the execution service and the matchmaking service on loopback, execution
# delivering finished matches' results to ratings, matchmaking creating the matches it forms on
# execution. Builds its programs first (deploy/build.sh --programs). Idempotent: what
# already runs is left alone.
#
#   deploy/local/up.sh          then talk to it:  build/bin/boneyard matches
#   deploy/local/up.sh --replicas 3    three of each gRPC service (docs/scaling.md)
#   deploy/local/down.sh        stops them all
#
# With --replicas N (default 1, at most 9) N ratings, execution, matchmaking and web processes
# share each service's port (--reuse_port: the kernel spreads new connections over them), so
# clients use the same addresses as with one. Replica k (2..N) is named NAME-k (log, pid file),
# its metrics on the first's port + 100*(k-1); execution replica k is also reached on its own
# port, the shared one + 100*k (--replica_listen: where calls about its matches are sent). N web
# processes share the web port too (sessions live in PostgreSQL). Started again with the same N,
# up.sh starts only the replicas that are not running (a rolling restart: stop one, run up.sh).
#
# Everything lives under var/ (git-ignored): var/pg (the cluster), var/operator_token (the
# operator's secret) and var/results_token (what execution presents to ratings and matchmaking
# with results), both made on first start, var/log/{ratings,execution,matchmaking}.log and
# var/run/NAME.pid.
# The web app (dashboard, lobby, play pages) is served on http://127.0.0.1:8080/ with metrics on
# http://127.0.0.1:9467/metrics (BONEYARD_WEB_LISTEN, BONEYARD_WEB_METRICS_LISTEN;
# BONEYARD_WEB_FLAGS adds flags).
# Ports: execution gRPC 127.0.0.1:50051 and metrics http://127.0.0.1:9464/metrics, ratings gRPC
# 127.0.0.1:50061 and metrics http://127.0.0.1:9465/metrics, matchmaking gRPC 127.0.0.1:50071
# and metrics http://127.0.0.1:9466/metrics, PostgreSQL 5433. Override with
# BONEYARD_EXECUTION_LISTEN, BONEYARD_METRICS_LISTEN, BONEYARD_RATINGS_LISTEN,
# BONEYARD_RATINGS_METRICS_LISTEN, BONEYARD_MATCHMAKING_LISTEN,
# BONEYARD_MATCHMAKING_METRICS_LISTEN, BONEYARD_PG_PORT; BONEYARD_VAR_DIR moves var/ (the demo
# runs a throw-away system that way); BONEYARD_EXECUTION_FLAGS, BONEYARD_RATINGS_FLAGS and
# BONEYARD_MATCHMAKING_FLAGS add flags. Matchmaking presents the operator token to execution.
# BONEYARD_BIN_DIR: where the programs are (default build/bin; with it, nothing is built).
#
# Ratings starts first; were it down, execution's outbox keeps the results and retries.
set -euo pipefail

replicas=1
while (($# > 0)); do
  case "$1" in
    --replicas)
      replicas=${2:-}
      shift 2 || true
      ;;
    --replicas=*)
      replicas=${1#--replicas=}
      shift
      ;;
    *)
      echo "up: unknown argument '$1' (usage: deploy/local/up.sh [--replicas N])" >&2
      exit 2
      ;;
  esac
done
if ! [[ "$replicas" =~ ^[1-9]$ ]]; then
  echo "up: --replicas must be 1 to 9, not '$replicas'" >&2
  exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

listen=${BONEYARD_EXECUTION_LISTEN:-127.0.0.1:50051}
metrics=${BONEYARD_METRICS_LISTEN:-127.0.0.1:9464}
ratings_listen=${BONEYARD_RATINGS_LISTEN:-127.0.0.1:50061}
ratings_metrics=${BONEYARD_RATINGS_METRICS_LISTEN:-127.0.0.1:9465}
matchmaking_listen=${BONEYARD_MATCHMAKING_LISTEN:-127.0.0.1:50071}
matchmaking_metrics=${BONEYARD_MATCHMAKING_METRICS_LISTEN:-127.0.0.1:9466}
web_listen=${BONEYARD_WEB_LISTEN:-127.0.0.1:8080}
web_metrics=${BONEYARD_WEB_METRICS_LISTEN:-127.0.0.1:9467}
pg_port=${BONEYARD_PG_PORT:-5433}
var="${BONEYARD_VAR_DIR:-$root/var}"
# BONEYARD_BIN_DIR runs the programs of another build tree (the tests run the sanitized ones).
bin="${BONEYARD_BIN_DIR:-$root/build/bin}"
mkdir -p "$var/log" "$var/run"

if [[ "${BONEYARD_SKIP_BUILD:-0}" != "1" && -z "${BONEYARD_BIN_DIR:-}" ]]; then
  "$root/deploy/build.sh" --programs
fi

"$root/deploy/local/pg.sh" start "$var/pg" "$pg_port"
database_url=$("$root/deploy/local/pg.sh" url "$var/pg" "$pg_port")

# A secret of 64 hex digits in FILE, made once.
make_token() {
  [[ -s "$1" ]] || (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$1")
}
token_file="$var/operator_token"
results_token_file="$var/results_token"
make_token "$token_file"
make_token "$results_token_file"

# alive PID: the process runs. A process killed a moment ago (kill -9) may still be a zombie
# that kill -0 reaches: it is not running, and must not stop a new start.
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ "$state" != "Z" ]]
}

# start NAME BINARY FLAGS...: runs the service in the background (log var/log/NAME.log, pid
# var/run/NAME.pid) unless it already runs; started_now says which.
start() {
  local name=$1 binary=$2
  shift 2
  local pid_file="$var/run/$name.pid"
  started_now=0
  if [[ -f "$pid_file" ]] && alive "$(cat "$pid_file")"; then
    echo "up: $name already running (pid $(cat "$pid_file"))"
    return
  fi
  started_now=1
  nohup "$binary" "$@" >>"$var/log/$name.log" 2>&1 &
  echo $! >"$pid_file"
}

# wait_ready NAME COMMAND...: until COMMAND succeeds (10 s at most), or the service has exited.
wait_ready() {
  local name=$1
  shift
  local pid_file="$var/run/$name.pid"
  for ((i = 0; i < 100; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    if ! alive "$(cat "$pid_file")"; then
      echo "up: $name exited; the end of $var/log/$name.log:" >&2
      tail -n 20 "$var/log/$name.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "up: $name did not answer within 10 s; see $var/log/$name.log" >&2
  exit 1
}

# replica_name NAME K: NAME for the first replica, NAME-K for the others.
replica_name() {
  if (($2 == 1)); then echo "$1"; else echo "$1-$2"; fi
}
# with_port HOST:PORT DELTA: the same host, the port moved by DELTA.
with_port() {
  echo "${1%:*}:$((${1##*:} + $2))"
}
# wait_serving NAME FROM: until the replica's log past byte FROM says it serves (when `start`
# has just started it).
wait_serving() {
  local name=$1 from=$2
  ((started_now)) || return 0
  wait_ready "$name" bash -c "tail -c +$((from + 1)) '$var/log/$name.log' | grep -q 'msg=.serving.'"
}
# log_size NAME: bytes in the replica's log so far (where its new run's lines start).
log_size() {
  stat -c %s "$var/log/$1.log" 2>/dev/null || echo 0
}
shared=()
((replicas > 1)) && shared=(--reuse_port)

for ((k = 1; k <= replicas; k++)); do
  name=$(replica_name ratings "$k")
  from=$(log_size "$name")
  # shellcheck disable=SC2086  # the extra flags are words
  start "$name" "$bin/boneyard-ratings" \
    --listen="$ratings_listen" --metrics_listen="$(with_port "$ratings_metrics" $((100 * (k - 1))))" \
    --database_url="$database_url" --operator_token_file="$token_file" \
    --results_token_file="$results_token_file" "${shared[@]}" \
    ${BONEYARD_RATINGS_FLAGS:-}
  wait_serving "$name" "$from"
done
# Ready when it answers a call; leaderboards need no token.
wait_ready ratings "$bin/boneyard" leaderboard muggins --page-size 1 --ratings-target "$ratings_listen"
echo "up: ratings serving on $ratings_listen ($replicas replica(s); metrics http://$ratings_metrics/metrics, log $var/log/ratings.log)"

for ((k = 1; k <= replicas; k++)); do
  name=$(replica_name execution "$k")
  own=()
  ((replicas > 1)) && own=(--replica_listen="$(with_port "$listen" $((100 * k)))")
  from=$(log_size "$name")
  # shellcheck disable=SC2086
  start "$name" "$bin/boneyard-execution" \
    --listen="$listen" --metrics_listen="$(with_port "$metrics" $((100 * (k - 1))))" \
    --database_url="$database_url" --operator_token_file="$token_file" \
    --ratings_target="$ratings_listen" --matchmaking_target="$matchmaking_listen" \
    --results_token_file="$results_token_file" "${shared[@]}" "${own[@]}" \
    ${BONEYARD_EXECUTION_FLAGS:-}
  wait_serving "$name" "$from"
done
# `boneyard matches` needs no token.
wait_ready execution "$bin/boneyard" matches --page-size 1 --target "$listen"
echo "up: execution serving on $listen ($replicas replica(s); metrics http://$metrics/metrics, log $var/log/execution.log)"

for ((k = 1; k <= replicas; k++)); do
  name=$(replica_name matchmaking "$k")
  from=$(log_size "$name")
  # shellcheck disable=SC2086
  start "$name" "$bin/boneyard-matchmaking" \
    --listen="$matchmaking_listen" \
    --metrics_listen="$(with_port "$matchmaking_metrics" $((100 * (k - 1))))" \
    --database_url="$database_url" --operator_token_file="$token_file" \
    --execution_target="$listen" --execution_token_file="$token_file" \
    --ratings_target="$ratings_listen" --results_token_file="$results_token_file" \
    "${shared[@]}" ${BONEYARD_MATCHMAKING_FLAGS:-}
  wait_serving "$name" "$from"
done
echo "up: matchmaking serving on $matchmaking_listen ($replicas replica(s); metrics http://$matchmaking_metrics/metrics, log $var/log/matchmaking.log)"
for ((k = 1; k <= replicas; k++)); do
  name=$(replica_name web "$k")
  from=$(log_size "$name")
  # shellcheck disable=SC2086
  start "$name" "$bin/boneyard-web" \
    --listen="$web_listen" --metrics_listen="$(with_port "$web_metrics" $((100 * (k - 1))))" \
    --database_url="$database_url" --operator_token_file="$token_file" \
    --execution_target="$listen" --matchmaking_target="$matchmaking_listen" \
    --ratings_target="$ratings_listen" --execution_metrics_url="http://$metrics/metrics" \
    --matchmaking_metrics_url="http://$matchmaking_metrics/metrics" "${shared[@]}" \
    ${BONEYARD_WEB_FLAGS:-}
  wait_serving "$name" "$from"
done
wait_ready web bash -c "exec 3<>/dev/tcp/${web_listen%:*}/${web_listen##*:}"
echo "up: web app on http://$web_listen/ (sign in with the operator token; log $var/log/web.log)"
echo "up: operator token in $token_file; for the CLI:"
echo "      export BONEYARD_TARGET=$listen BONEYARD_RATINGS_TARGET=$ratings_listen BONEYARD_OPERATOR_TOKEN=\$(cat $token_file)"
