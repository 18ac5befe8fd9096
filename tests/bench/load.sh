#!/usr/bin/env bash
# The execution service under load, on this machine: starts a throw-away system (a private
# PostgreSQL and the service under a temporary folder, deploy/local/up.sh), runs
# `boneyard load` against it, prints its report, and stops everything.
#
#   tests/bench/load.sh [LOAD FLAGS...]     default: --matches 2000 --game muggins --duration 30s
#
# Not a test: figures depend on the machine (docs/performance.md has ours).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d /tmp/boneyard-load.XXXXXX)
chmod 755 "$tmp"  # the postgres user must reach the cluster folder inside
export BONEYARD_VAR_DIR="$tmp/var"
export BONEYARD_EXECUTION_LISTEN=${BONEYARD_EXECUTION_LISTEN:-127.0.0.1:50251}
export BONEYARD_METRICS_LISTEN=${BONEYARD_METRICS_LISTEN:-127.0.0.1:9664}
export BONEYARD_RATINGS_LISTEN=${BONEYARD_RATINGS_LISTEN:-127.0.0.1:50261}
export BONEYARD_RATINGS_METRICS_LISTEN=${BONEYARD_RATINGS_METRICS_LISTEN:-127.0.0.1:9665}
export BONEYARD_MATCHMAKING_LISTEN=${BONEYARD_MATCHMAKING_LISTEN:-127.0.0.1:50271}
export BONEYARD_MATCHMAKING_METRICS_LISTEN=${BONEYARD_MATCHMAKING_METRICS_LISTEN:-127.0.0.1:9666}
export BONEYARD_PG_PORT=${BONEYARD_PG_PORT:-55533}
trap '"$root/deploy/local/down.sh" >/dev/null || true; rm -rf "$tmp"' EXIT

"$root/deploy/local/up.sh" >/dev/null
export BONEYARD_TARGET=$BONEYARD_EXECUTION_LISTEN
BONEYARD_OPERATOR_TOKEN=$(cat "$BONEYARD_VAR_DIR/operator_token")
export BONEYARD_OPERATOR_TOKEN

args=("$@")
((${#args[@]})) || args=(--matches 2000 --game muggins --duration 30s)
# The load tool shares the machine's cores with the service and PostgreSQL: say what it used.
TIMEFORMAT='load tool:   %U s user + %S s system CPU'
time "$root/build/bin/boneyard" load "${args[@]}" \
  --metrics-url "http://$BONEYARD_METRICS_LISTEN/metrics"
echo
echo "service metrics:"
curl -s "http://$BONEYARD_METRICS_LISTEN/metrics" |
  grep -E "^(boneyard_commit_(seconds|batch_events)_(sum|count|bucket)|boneyard_commits_total|process_cpu_seconds_total|boneyard_action_seconds_(sum|count|bucket))" || true
