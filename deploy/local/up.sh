#!/usr/bin/env bash
# Starts boneyard on this machine: a private PostgreSQL (deploy/local/pg.sh, data in var/pg) and
# the execution service on loopback. Builds first. Idempotent: what already runs is left alone.
#
#   deploy/local/up.sh          then talk to it:  build/bin/boneyard matches
#   deploy/local/down.sh        stops both
#
# Everything lives under var/ (git-ignored): var/pg (the cluster), var/operator_token (the
# operator's secret, made on first start), var/log/execution.log, var/run/execution.pid.
# Ports: gRPC 127.0.0.1:50051, metrics http://127.0.0.1:9464/metrics, PostgreSQL 5433. Override
# with BONEYARD_EXECUTION_LISTEN, BONEYARD_METRICS_LISTEN, BONEYARD_PG_PORT; BONEYARD_VAR_DIR
# moves var/ (the demo runs a throw-away system that way); BONEYARD_EXECUTION_FLAGS adds flags.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

listen=${BONEYARD_EXECUTION_LISTEN:-127.0.0.1:50051}
metrics=${BONEYARD_METRICS_LISTEN:-127.0.0.1:9464}
pg_port=${BONEYARD_PG_PORT:-5433}
var="${BONEYARD_VAR_DIR:-$root/var}"
mkdir -p "$var/log" "$var/run"

if [[ "${BONEYARD_SKIP_BUILD:-0}" != "1" ]]; then
  "$root/deploy/build.sh"
fi

"$root/deploy/local/pg.sh" start "$var/pg" "$pg_port"
database_url=$("$root/deploy/local/pg.sh" url "$var/pg" "$pg_port")

token_file="$var/operator_token"
if [[ ! -s "$token_file" ]]; then
  (umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$token_file")
fi

pid_file="$var/run/execution.pid"
if [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
  echo "up: execution already running (pid $(cat "$pid_file"))"
else
  nohup "$root/build/bin/boneyard-execution" \
    --listen="$listen" --metrics_listen="$metrics" \
    --database_url="$database_url" --operator_token_file="$token_file" \
    ${BONEYARD_EXECUTION_FLAGS:-} \
    >>"$var/log/execution.log" 2>&1 &
  echo $! >"$pid_file"
fi

# Ready when the service answers a call; `boneyard matches` needs no token.
export BONEYARD_TARGET="$listen"
for ((i = 0; i < 100; i++)); do
  if "$root/build/bin/boneyard" matches --page-size 1 >/dev/null 2>&1; then
    echo "up: execution serving on $listen (metrics http://$metrics/metrics, log $var/log/execution.log)"
    echo "up: operator token in $token_file; for the CLI:"
    echo "      export BONEYARD_TARGET=$listen BONEYARD_OPERATOR_TOKEN=\$(cat $token_file)"
    exit 0
  fi
  if ! kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    echo "up: execution exited; the end of var/log/execution.log:" >&2
    tail -n 20 "$var/log/execution.log" >&2
    exit 1
  fi
  sleep 0.1
done
echo "up: execution did not answer within 10 s; see var/log/execution.log" >&2
exit 1
