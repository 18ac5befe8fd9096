#!/usr/bin/env bash
# The web service's relay benchmark (docs/performance.md): starts the whole system on free
# ports (tests/web/system.sh), keeps MATCHES Muggins matches live with remote bots that think
# THINK per move (`boneyard load`), then opens CONNECTIONS browser event streams watching them
# through boneyard-web and compares every view's arrival with a direct gRPC watcher's
# (tests/bench/web_load.mjs). Prints its JSON. Not a test: run it by hand after a build.
#
#   tests/bench/web_load.sh [--connections 2000] [--players 0] [--matches 20] [--duration 30]
#                           [--think-time 250ms]
# --players P: P of the connections are people playing through the web (a seat's stream each,
# moves by POST after the think time, against a bot), the rest watch.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
connections=2000
players=0
matches=20
duration=30
think=250ms
while (($#)); do
  case "$1" in
    --connections) connections=$2 ;;
    --players) players=$2 ;;
    --matches) matches=$2 ;;
    --duration) duration=$2 ;;
    --think-time) think=$2 ;;
    *) echo "web_load.sh: unknown flag $1" >&2; exit 2 ;;
  esac
  shift 2
done

# Each open stream is a file descriptor here (boneyard-web raises its own limit).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# shellcheck source=tests/web/system.sh
source "$root/tests/web/system.sh"
"$BONEYARD_CLI" load --matches "$matches" --game muggins --seats 2 \
  --duration "$((duration + 30))s" --think-time "$think" >/dev/null 2>&1 &
load_pid=$!
sleep 3
node "$root/tests/bench/web_load.mjs" --connections "$connections" --players "$players" \
  --duration "$duration" --think-ms "${think%ms}"
kill "$load_pid" 2>/dev/null || true
wait "$load_pid" 2>/dev/null || true
