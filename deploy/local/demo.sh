#!/usr/bin/env bash
# A quick look at boneyard on one machine: set up and build, run a short bot tournament for every
# game the CLI knows, replay one recorded match through the referee, then start the execution
# service (a throw-away PostgreSQL and service under a temporary folder, deploy/local/up.sh),
# play a batch of matches of every game through it with remote-bot clients against built-in
# bots, print the results, replay a record fetched from the service, and stop everything.
# Usage: deploy/local/demo.sh        (from any directory)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

"$root/deploy/build.sh"

boneyard="$root/build/bin/boneyard"
matches=200
seed=1

# Runs per game: each entry is the extra arguments of one `boneyard simulate` run. A game missing
# from this table gets one run with the default seats.
declare -A runs=(
  [muggins]="--seats greedy,random;--rules players=4,teams=true --seats greedy,random,greedy,random"
  [castle_rock]="--seats greedy;--seats random"
)
default_run="--seats greedy,random"

tmp=$(mktemp -d /tmp/boneyard-demo.XXXXXX)
chmod 755 "$tmp"  # the postgres user must reach the service cluster folder inside
trap 'rm -rf "$tmp"' EXIT
records="$tmp/records"

# The CLI prints a JSON array of objects with a "name" field.
mapfile -t games < <("$boneyard" games --json | jq -r '.[].name')
if ((${#games[@]} == 0)); then
  echo "demo: '$boneyard games --json' listed no games" >&2
  exit 1
fi

first=1
for game in "${games[@]}"; do
  IFS=';' read -ra game_runs <<<"${runs[$game]:-$default_run}"
  for run in "${game_runs[@]}"; do
    read -ra extra <<<"$run"
    args=(simulate --game "$game" "${extra[@]}" --matches "$matches" --seed "$seed" --jobs 2)
    # Keep the records of the very first run so one of them can be replayed below.
    if ((first)); then
      args+=(--records "$records")
      first=0
    fi
    echo
    echo "==== boneyard ${args[*]}"
    "$boneyard" "${args[@]}"
  done
done

# Replay one recorded match: the referee re-applies every action and checks the result.
shopt -s nullglob
recorded=("$records"/match-*.json)
if ((${#recorded[@]} == 0)); then
  echo "demo: the first run wrote no records under $records" >&2
  exit 1
fi
record=${recorded[0]}
echo
echo "==== boneyard replay $(basename "$record")"
"$boneyard" replay "$record"

# ----- Through the execution service -------------------------------------------------------------
# A throw-away system: its own data folder and ports, stopped and removed on exit.
service_var="$tmp/var"
export BONEYARD_VAR_DIR="$service_var"
export BONEYARD_EXECUTION_LISTEN=127.0.0.1:50151
export BONEYARD_METRICS_LISTEN=127.0.0.1:9564
export BONEYARD_PG_PORT=55433
export BONEYARD_SKIP_BUILD=1
trap '"$root/deploy/local/down.sh" >/dev/null || true; rm -rf "$tmp"' EXIT
echo
echo "==== deploy/local/up.sh (a throw-away system under $service_var)"
"$root/deploy/local/up.sh"
export BONEYARD_TARGET=$BONEYARD_EXECUTION_LISTEN
BONEYARD_OPERATOR_TOKEN=$(cat "$service_var/operator_token")
export BONEYARD_OPERATOR_TOKEN

service_matches=8
for game in "${games[@]}"; do
  # Seat 0 is a remote bot (a client of the Play stream, `boneyard bot`); the others are the
  # game's built-in greedy bot, played inside the service.
  seats=$("$boneyard" games --json | jq -r --arg g "$game" \
    '.[] | select(.name == $g) | [range(.min_seats)] | map(if . == 0 then "player:remote-bot" else "bot:greedy" end) | join(",")')
  [[ "$seats" == *,* ]] || seats="player:remote-bot"
  seats=${seats/#player:remote-bot,bot:greedy/player:remote-bot,bot:greedy}
  echo
  echo "==== $game through the service: $service_matches matches, seats $seats"
  pids=()
  for ((i = 0; i < service_matches; i++)); do
    created=$("$boneyard" create --game "$game" --seats "$seats" --json)
    name=$(jq -r .match.name <<<"$created")
    token=$(jq -r '.seat_tokens[0].token' <<<"$created")
    "$boneyard" bot "$name" --token "$token" --seed "$i" >"$tmp/bot-$game-$i.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  "$boneyard" matches --game "$game" --state finished --page-size 100 --json |
    jq -r '.matches[] | "  \(.name)  ranks \(.result.ranks | map(tostring) | join("/"))  scores \(.result.scores | map(tostring) | join("/"))"'
  last=$name
done

echo
echo "==== boneyard record $last, then boneyard replay"
"$boneyard" record "$last" --out "$tmp/service-record.json"
"$boneyard" replay "$tmp/service-record.json" | tail -n 3
echo
echo "==== deploy/local/down.sh"
"$root/deploy/local/down.sh"
