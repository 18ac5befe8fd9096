#!/usr/bin/env bash
# The match page's drawing time (docs/performance.md): starts the whole system on free ports
# (tests/web/system.sh), keeps MATCHES matches of GAME live with remote bots thinking THINK per
# move, and reads the page's own update timings in headless Chromium (web_render.mjs).
#
#   tests/bench/web_render.sh [GAME] [SECONDS] [MATCHES] [THINK]    (defaults: mexican_train 20 4 100ms)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
game=${1:-mexican_train}
seconds=${2:-20}
matches=${3:-4}
think=${4:-100ms}
# shellcheck source=tests/web/system.sh
source "$root/tests/web/system.sh"
seats=$("$BONEYARD_CLI" games --json | jq -r --arg g "$game" \
  '.[] | select(.name == $g) | (first(.options[] | select(.name == "players") | .default) // .min_seats)')
"$BONEYARD_CLI" load --matches "$matches" --game "$game" --seats "$seats" \
  --duration "$((seconds + 30))s" --think-time "$think" >/dev/null 2>&1 &
load_pid=$!
sleep 3
node "$root/tests/bench/web_render.mjs" "$game" "$seconds"
kill "$load_pid" 2>/dev/null || true
wait "$load_pid" 2>/dev/null || true
