#!/usr/bin/env bash
# Search bots' think time in the execution service under load (issue 23: p99 within the level's
# budget + 10 ms): starts a throw-away system (deploy/local/up.sh), keeps MATCHES matches of
# search bots at each LEVEL playing GAME at once (bot against bot, so every move is a bot's
# and the bot pool is as busy as it gets), waits until they are over and reads the service's
# boneyard_bot_think_seconds histogram: from a bot's turn to its move chosen, queueing for the
# pool (one thread per core) included. Prints each level's count, mean and the bucket its p50,
# p99 and worst fall in.
#
#   [RULES=k=v,...] tests/bench/bot_think_load.sh [GAME] [MATCHES] [LEVELS...]
#                                            default: forty_two 8 1 2 3 4 5, one hand a match
#
# Not a test: figures depend on the machine (docs/performance.md has ours).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
game=${1:-forty_two}
matches=${2:-8}
shift $(($# > 2 ? 2 : $#)) || true
levels=("$@")
[[ $game == forty_two ]] && RULES=${RULES-scoring=marks,marks_target=1}
((${#levels[@]})) || levels=(1 2 3 4 5)

tmp=$(mktemp -d /tmp/boneyard-think.XXXXXX)
chmod 755 "$tmp"
export BONEYARD_VAR_DIR="$tmp/var"
export BONEYARD_EXECUTION_LISTEN=${BONEYARD_EXECUTION_LISTEN:-127.0.0.1:50351}
export BONEYARD_METRICS_LISTEN=${BONEYARD_METRICS_LISTEN:-127.0.0.1:9764}
export BONEYARD_RATINGS_LISTEN=${BONEYARD_RATINGS_LISTEN:-127.0.0.1:50361}
export BONEYARD_RATINGS_METRICS_LISTEN=${BONEYARD_RATINGS_METRICS_LISTEN:-127.0.0.1:9765}
export BONEYARD_MATCHMAKING_LISTEN=${BONEYARD_MATCHMAKING_LISTEN:-127.0.0.1:50371}
export BONEYARD_MATCHMAKING_METRICS_LISTEN=${BONEYARD_MATCHMAKING_METRICS_LISTEN:-127.0.0.1:9766}
export BONEYARD_PG_PORT=${BONEYARD_PG_PORT:-55633}
trap '"$root/deploy/local/down.sh" >/dev/null || true; rm -rf "$tmp"' EXIT

"$root/deploy/local/up.sh" >/dev/null
export BONEYARD_TARGET=$BONEYARD_EXECUTION_LISTEN
BONEYARD_OPERATOR_TOKEN=$(cat "$BONEYARD_VAR_DIR/operator_token")
export BONEYARD_OPERATOR_TOKEN
cli="$root/build/bin/boneyard"

seats_for() {  # every seat of the game a search bot at level $1
  local n
  n=$("$cli" games --json | jq -r --arg g "$game" '.[] | select(.name == $g) | .min_seats')
  local seats=()
  for ((i = 0; i < n; i++)); do seats+=("bot:search:$1"); done
  (IFS=,; echo "${seats[*]}")
}
start=$(date +%s)
for level in "${levels[@]}"; do
  seats=$(seats_for "$level")
  for ((m = 0; m < matches; m++)); do
    "$cli" create --game "$game" --seats "$seats" ${RULES:+--rules "$RULES"} >/dev/null
  done
done
# Until none is being played.
while "$cli" matches --state active --json | jq -e '.matches | length > 0' >/dev/null; do
  sleep 2
done
echo "$game: ${#levels[@]} levels x $matches matches at once, over in $(($(date +%s) - start)) s"
curl -s "http://$BONEYARD_METRICS_LISTEN/metrics" | python3 -c '
import re, sys
series = {}
for line in sys.stdin:
    m = re.match(r"boneyard_bot_think_seconds_(bucket|sum|count)\{(.*)\} (\S+)", line)
    if not m:
        continue
    kind, labels, value = m.groups()
    level = re.search(r"level=\"(\d+)\"", labels).group(1)
    s = series.setdefault(level, {"buckets": []})
    if kind == "bucket":
        s["buckets"].append((float(re.search(r"le=\"([^\"]+)\"", labels).group(1).replace("+Inf", "inf")), float(value)))
    else:
        s[kind] = float(value)
def bound(buckets, count, q):
    for le, c in sorted(buckets):
        if c >= q * count:
            return "<= %g ms" % (le * 1000) if le != float("inf") else "> 2000 ms"
print("%-6s %7s %9s %12s %12s %12s" % ("level", "moves", "mean ms", "p50", "p99", "max"))
for level in sorted(series, key=int):
    s = series[level]
    if not s.get("count"):
        continue
    print("%-6s %7d %9.1f %12s %12s %12s" % (level, s["count"], 1000 * s["sum"] / s["count"],
          bound(s["buckets"], s["count"], 0.5), bound(s["buckets"], s["count"], 0.99),
          bound(s["buckets"], s["count"], 1.0)))
'
curl -s "http://$BONEYARD_METRICS_LISTEN/metrics" | grep -E "^boneyard_bot_(over_budget|moves)_total" || true
