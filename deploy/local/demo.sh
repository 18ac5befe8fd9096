#!/usr/bin/env bash
# A quick look at boneyard on one machine: set up and build, run a short bot tournament for every
# game the CLI knows, then replay one recorded match through the referee.
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

tmp=$(mktemp -d)
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
