#!/usr/bin/env bash
# A quick look at boneyard on one machine: set up and build, run a short bot tournament for every
# game the CLI knows, replay one recorded match through the referee, then start the execution
# and ratings services (a throw-away PostgreSQL and services under a temporary folder,
# deploy/local/up.sh), play a batch of matches of every game through it with remote-bot clients
# (rated players) and built-in bots, print the results, replay a record fetched from the
# service, wait until ratings has recorded every finished match, print each game's leaderboard;
# then matchmaking: create a Forty-Two, an Eighty-Four and a Mexican Train queue, register
# players and two parties, queue them all (remote bots play the seats they are given), print the
# teams formed with each side's predicted chance and the results; run seven tournaments of
# built-in bots (a Muggins Swiss, a round robin of Forty-Two teams, a Forty-Two knockout of
# best-of-3 series, a partner-rotation Forty-Two night of eight, a duplicate Mexican Train round,
# a one-minute Muggins arena and a Muggins league season in two divisions) and print their final
# standings (the night's with who partnered and opposed whom, the arena's leaderboard with every
# game's points, the league's by division, then its next season's divisions after promotion and
# relegation); a Muggins ladder where a person plays house bots and a bot account (`boneyard bot
# --ladder`) and the standings of people and bots on one scale; print the address of the web
# dashboard that shows all of it (matches, replays, leaderboards, queues); and stop everything,
# or, with --keep, keep the system up for a look in the browser until Ctrl-C.
# Usage: deploy/local/demo.sh [--keep]        (from any directory)
set -euo pipefail

keep=0
case "${1:-}" in
  "") ;;
  --keep) keep=1 ;;
  *)
    echo "usage: deploy/local/demo.sh [--keep]" >&2
    exit 2
    ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"

"$root/deploy/build.sh" --programs

boneyard="$root/build/bin/boneyard"
matches=200
seed=1

# Runs per game: each entry is the extra arguments of one `boneyard simulate` run. A game missing
# from this table gets one run with its default number of seats, its first bot against random in
# turn.
declare -A runs=(
  [muggins]="--seats greedy,random;--rules players=4,teams=true --seats greedy,random,greedy,random"
  [castle_rock]="--seats greedy;--seats random"
)

tmp=$(mktemp -d /tmp/boneyard-demo.XXXXXX)
chmod 755 "$tmp"  # the postgres user must reach the service cluster folder inside
trap 'rm -rf "$tmp"' EXIT
records="$tmp/records"

# The CLI prints a JSON array of objects with a "name" field.
games_json=$("$boneyard" games --json)
mapfile -t games < <(jq -r '.[].name' <<<"$games_json")
# game_field GAME FIELD: seats (the default `players`, else the fewest seats), or default_bot
# (the bot the game names to stand in for a seat: its strongest built-in one).
game_field() {
  jq -r --arg g "$1" --arg f "$2" '.[] | select(.name == $g) |
    {seats: (first(.options[] | select(.name == "players") | .default) // .min_seats),
     default_bot}[$f]' <<<"$games_json"
}
if ((${#games[@]} == 0)); then
  echo "demo: '$boneyard games --json' listed no games" >&2
  exit 1
fi

first=1
for game in "${games[@]}"; do
  default_bot=$(game_field "$game" default_bot)
  default_run="--seats $(for ((s = 0; s < $(game_field "$game" seats); s++)); do
    ((s % 2)) && echo random || echo "$default_bot"; done | paste -sd,)"
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
export BONEYARD_RATINGS_LISTEN=127.0.0.1:50161
export BONEYARD_RATINGS_METRICS_LISTEN=127.0.0.1:9565
export BONEYARD_MATCHMAKING_LISTEN=127.0.0.1:50171
export BONEYARD_MATCHMAKING_METRICS_LISTEN=127.0.0.1:9566
export BONEYARD_WEB_LISTEN=127.0.0.1:8180
export BONEYARD_WEB_METRICS_LISTEN=127.0.0.1:9567
export BONEYARD_PG_PORT=55433
export BONEYARD_SKIP_BUILD=1
trap '"$root/deploy/local/down.sh" >/dev/null || true; rm -rf "$tmp"' EXIT
echo
echo "==== deploy/local/up.sh (a throw-away system under $service_var)"
"$root/deploy/local/up.sh"
export BONEYARD_TARGET=$BONEYARD_EXECUTION_LISTEN
export BONEYARD_RATINGS_TARGET=$BONEYARD_RATINGS_LISTEN
BONEYARD_OPERATOR_TOKEN=$(cat "$service_var/operator_token")
export BONEYARD_OPERATOR_TOKEN

service_matches=8
players=(ann bob cat dan eve fay)
declare -A solitaire expected
for game in "${games[@]}"; do
  # Seats 0 and 1 are players (remote bots: clients of the Play stream, `boneyard bot`), two
  # different ones from `players` match by match so that ratings has something to rate; any
  # further seats are the game's default bot, played inside the service.
  seat_count=$(game_field "$game" seats)
  default_bot=$(game_field "$game" default_bot)
  solitaire[$game]=$((seat_count == 1))
  echo
  echo "==== $game through the service: $service_matches matches of $seat_count seats (players: remote bots; others: bot:$default_bot)"
  pids=()
  for ((i = 0; i < service_matches; i++)); do
    seats=()
    for ((s = 0; s < seat_count; s++)); do
      if ((s < 2)); then
        seats+=("player:${players[(i + s * (1 + i % 5)) % ${#players[@]}]}")
      else
        seats+=("bot:$default_bot")
      fi
    done
    created=$("$boneyard" create --game "$game" --seats "$(IFS=,; echo "${seats[*]}")" --json)
    name=$(jq -r .match.name <<<"$created")
    while read -r seat token; do
      "$boneyard" bot "$name" --token="$token" --seed "$((i * 8 + seat))" >"$tmp/bot-$game-$i-$seat.log" 2>&1 &
      pids+=($!)
    done < <(jq -r '.seat_tokens[] | "\(.seat) \(.token)"' <<<"$created")
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  finished=$("$boneyard" matches --game "$game" --state finished --page-size 1000 --json)
  jq -r '.matches[] | "  \(.name)  \(.seats | map(.player // ("bot:" + .bot)) | join(","))  ranks \(.result.ranks | map(tostring) | join("/"))  scores \(.result.scores | map(tostring) | join("/"))"' <<<"$finished"
  # What ratings must record: one rating change per player seat (Castle Rock: one result).
  expected[$game]=$(jq '[.matches[].seats[] | select(.player)] | length' <<<"$finished")
  last=$name
done

echo
echo "==== boneyard record $last, then boneyard replay"
"$boneyard" record "$last" --out "$tmp/service-record.json"
"$boneyard" replay "$tmp/service-record.json" | tail -n 3

# Execution delivers each finished match's result to ratings from its outbox. Rated games count
# them in games_played; Castle Rock lists every result with --all-results.
rated() {
  local flags=(--page-size 1000 --json)
  ((${solitaire[$1]})) && flags+=(--all-results)
  "$boneyard" leaderboard "$1" "${flags[@]}" | jq '[.entries[] | .rating.games_played // 1] | add // 0'
}
echo
echo "==== waiting until ratings has recorded every finished match"
for ((try = 0; ; try++)); do
  missing=()
  for game in "${games[@]}"; do
    got=$(rated "$game" 2>/dev/null || echo "?")
    [[ "$got" == "${expected[$game]}" ]] || missing+=("$game: $got of ${expected[$game]}")
  done
  ((${#missing[@]} == 0)) && break
  if ((try == 60)); then
    echo "demo: ratings did not record every result within 30 s (${missing[*]}); see $service_var/log" >&2
    exit 1
  fi
  sleep 0.5
done
for game in "${games[@]}"; do echo "  $game: ${expected[$game]} player results recorded"; done
for game in "${games[@]}"; do
  echo
  echo "==== boneyard leaderboard $game"
  "$boneyard" leaderboard "$game"
done
# The first game that is not solitaire. (Not `... | head -n 1`: under pipefail the loop's later
# echoes can die of SIGPIPE once head has exited, and `set -e` then ends the demo with 141.)
rated_game=""
for game in "${games[@]}"; do
  if ! ((${solitaire[$game]})); then
    rated_game=$game
    break
  fi
done
if [[ -n "$rated_game" ]]; then
  echo
  echo "==== boneyard ratings ann --game $rated_game --page-size 3"
  "$boneyard" ratings ann --game "$rated_game" --page-size 3
fi

# Matchmaking: queues, accounts, two parties; every player joins with `queue join --no-play`
# and a remote bot plays the seat it is given. The teams formed are printed with each side's
# predicted chance (from the players' ratings, read from the ratings service), then the results.
export BONEYARD_MATCHMAKING_TARGET=$BONEYARD_MATCHMAKING_LISTEN
echo
echo "==== matchmaking: three queues"
"$boneyard" queue create forty-two --game forty_two --name "Forty-Two, rated" \
  --format teams:2x2 --window 25,0,25
"$boneyard" queue create eighty-four --game eighty_four --name "Eighty-Four, 4 against 4" \
  --format teams:2x4 --window 25,0,25
"$boneyard" queue create mexican-train --game mexican_train --name "Mexican Train, 4 to 8" \
  --format table:4-8 --short-table-after 2s --window 25,0,25
# player ID: an account (its token in $tmp/ID.token).
register() {
  "$boneyard" player create "$1" --name "${1^}" --json | jq -r .token >"$tmp/$1.token"
}
mm_players=(gus hal ida jon kim lea max ned oli pam quin rae sam tia uma vic val)
for p in "${mm_players[@]}"; do register "$p"; done
# gus leads hal (Forty-Two); jon leads kim (Eighty-Four).
party_of() {
  local leader=$1 member=$2 made
  made=$("$boneyard" party create --player-token-file "$tmp/$leader.token" --json)
  "$boneyard" party join "$(jq -r .invite_code <<<"$made")" \
    --player-token-file "$tmp/$member.token" >/dev/null
  jq -r .name <<<"$made"
}
forty_two_party=$(party_of gus hal)
eighty_four_party=$(party_of jon kim)
echo "parties: $forty_two_party (gus, hal) for Forty-Two, $eighty_four_party (jon, kim) for Eighty-Four"
# join PLAYER QUEUE [PARTY MEMBER...]: queues PLAYER (with the party they lead), waits for the
# match, and starts a remote bot on every seat of the ticket, each with its own player's token
# (a member reads theirs with `ticket show`: a seat token reaches only its player).
join() {
  local player=$1 queue=$2 party=${3:-} out ticket match target token
  shift 3 2>/dev/null || shift $#
  local flags=(--player-token-file "$tmp/$player.token" --no-play)
  [[ -n "$party" ]] && flags+=(--party "$party")
  out=$("$boneyard" queue join "$queue" "${flags[@]}")
  echo "$out" >"$tmp/join-$player.log"
  ticket=$(sed -n 's/^queued: \(tickets\/[^ ]*\) .*/\1/p' <<<"$out")
  read -r match target < <(sed -n 's/^play it with: boneyard connect \([^ ]*\) --target \([^ ]*\).*/\1 \2/p' <<<"$out")
  local bots=()
  "$boneyard" bot "$match" --target "$target" --token "$(sed -n 's/^seat token: //p' <<<"$out")" \
    >"$tmp/mm-bot-$player.log" 2>&1 &
  bots+=($!)
  for member in "$@"; do
    token=$("$boneyard" ticket show "$ticket" --player-token-file "$tmp/$member.token" --json |
      jq -r '.assignments[] | select(.seat_token) | .seat_token')
    "$boneyard" bot "$match" --target "$target" --token "$token" >"$tmp/mm-bot-$member.log" 2>&1 &
    bots+=($!)
  done
  for pid in "${bots[@]}"; do wait "$pid"; done
}
join_pids=()
join gus forty-two "$forty_two_party" hal & join_pids+=($!)
for p in ida lea; do join "$p" forty-two & join_pids+=($!); done
join jon eighty-four "$eighty_four_party" kim & join_pids+=($!)
for p in max ned oli pam quin rae; do join "$p" eighty-four & join_pids+=($!); done
for p in sam tia uma vic val; do join "$p" mexican-train & join_pids+=($!); done
for pid in "${join_pids[@]}"; do wait "$pid"; done
echo
echo "==== the matches formed: every player's seat, team and the predicted chance of their side"
cat "$tmp"/join-*.log | grep "^  players/" | sort -t' ' -k4,4 -k8,8 | uniq
echo
echo "==== the results, from the players' matchmaking histories"
for p in gus jon sam; do
  for ((try = 0; try < 60; try++)); do
    history=$("$boneyard" player matches "$p")
    grep -q "result:" <<<"$history" && break
    sleep 0.5
  done
  echo "$p: $history"
done

# Tournaments (issues 21, 22): seven events of built-in bots at once, run by matchmaking's director
# round after round through execution, each result back from execution's outbox.
echo
echo "==== tournaments: a Muggins Swiss, a round robin of Forty-Two teams, a Forty-Two knockout,"
echo "     a partner-rotation Forty-Two night of eight (partners change every round) and a"
echo "     duplicate Mexican Train round (both tables dealt the same, each hand compared) and a"
echo "     one-minute Muggins arena (every bot that finishes is paired again at once) and a"
echo "     Muggins league season in two divisions (then its next season, with promotion)"
"$boneyard" tournament create --id muggins-swiss --name "Muggins Swiss" --game muggins \
  --format swiss --rounds 3 --tiebreaks BH/C1,BH,SB
"$boneyard" tournament create --id forty-two-league --name "Forty-Two round robin" \
  --game forty_two --team-size 2 --format round-robin --tiebreaks SB,WIN
"$boneyard" tournament create --id forty-two-cup --name "Forty-Two Cup, best of 3" \
  --game forty_two --team-size 2 --format knockout --best-of 3
"$boneyard" tournament create --id forty-two-night --name "Forty-Two night, partners rotate" \
  --game forty_two --format partner-rotation --tiebreaks WIN
for kind in greedy random greedy random greedy random greedy random; do
  "$boneyard" tournament register muggins-swiss --bot "$kind" >/dev/null
done
for event in forty-two-league forty-two-cup; do
  for kind in heuristic random heuristic random; do
    "$boneyard" tournament register-team "$event" --bot "$kind" >/dev/null
  done
done
for kind in heuristic random heuristic random heuristic random heuristic random; do
  "$boneyard" tournament register forty-two-night --bot "$kind" >/dev/null
done
# Double-9 keeps the round short; the three tables of four are dealt the same.
"$boneyard" tournament create --id mexican-train-duplicate --name "Duplicate Mexican Train" \
  --game mexican_train --rules set=9 --format round-robin --table-size 4 --rounds 1 --duplicate
for kind in greedy random greedy random greedy random greedy random greedy random greedy random; do
  "$boneyard" tournament register mexican-train-duplicate --bot "$kind" >/dev/null
done
# The arena pairs for a minute from its start, then its last games finish.
"$boneyard" tournament create --id muggins-arena --name "Muggins arena, one minute" \
  --game muggins --rules target=50 --format arena --duration 1m
for kind in greedy random greedy random greedy random greedy random; do
  "$boneyard" tournament register muggins-arena --bot "$kind" >/dev/null
done
# A league season of one round (two divisions of two), after which the next season is made.
"$boneyard" tournament create --id muggins-league --name "Muggins league, winter" \
  --game muggins --rules target=50 --format league --round-interval 7d --division-size 2 \
  --promotion 1
for kind in greedy random greedy random; do
  "$boneyard" tournament register muggins-league --bot "$kind" >/dev/null
done
events=(muggins-arena muggins-swiss forty-two-league forty-two-cup forty-two-night
  mexican-train-duplicate muggins-league)
for event in "${events[@]}"; do
  "$boneyard" tournament start "$event"
done
for event in "${events[@]}"; do
  for ((try = 0; try < 600; try++)); do
    [[ $("$boneyard" tournament show "$event" --json | jq -r .state) == FINISHED ]] && break
    sleep 0.5
  done
  echo
  echo "==== boneyard tournament standings $event"
  "$boneyard" tournament standings "$event"
done
echo
echo "==== boneyard tournament pairings forty-two-cup 2 (the final)"
"$boneyard" tournament pairings forty-two-cup 2
echo
echo "==== boneyard tournament pairings forty-two-night 1 (seats alternate between the teams)"
"$boneyard" tournament pairings forty-two-night 1
echo
echo "==== boneyard tournament pairings mexican-train-duplicate 1 (the seed, shown now the round"
echo "     is over, and each hand's holders by matchpoints)"
"$boneyard" tournament pairings mexican-train-duplicate 1
echo
echo "==== the league's next season: division 2's winner goes up, division 1's last goes down"
"$boneyard" tournament create --id muggins-league-2 --name "Muggins league, spring" \
  --game muggins --rules target=50 --format league --round-interval 7d --division-size 2 \
  --promotion 1 --previous-season muggins-league
"$boneyard" tournament start muggins-league-2 >/dev/null
"$boneyard" tournament standings muggins-league-2
echo
echo "==== boneyard tournament export muggins-swiss | boneyard tournament check -"
"$boneyard" tournament export muggins-swiss | "$boneyard" tournament check -
# Ladders: a Muggins ladder of people and bots on one rating scale, with house bots at three
# levels; a bot account answers its own challenges (`boneyard bot --ladder`); a person who opted
# in to rated games against bots challenges two house bots and the bot account, and a remote
# bot plays each of the person's seats; then the standings, every bot labelled.
echo
echo "==== ladders: a Muggins ladder with house bots, a bot account and a person"
"$boneyard" ladder create muggins-ladder --game muggins --name "Muggins ladder" --rules target=61 \
  --house-bots search-1=search:1,search-3=search:3,greedy=greedy --weight 0.5
"$boneyard" player create robo --bot --name "Robo" --json | jq -r .token >"$tmp/robo.token"
"$boneyard" bot --ladder muggins-ladder --player-token-file "$tmp/robo.token" --matches 1 \
  >"$tmp/robo.log" 2>&1 &
robo_pid=$!
register wes
"$boneyard" ladder join muggins-ladder --rated-vs-bots --player-token-file "$tmp/wes.token"
# ladder_game OPPONENT [--rated]: wes challenges OPPONENT; once the match is created (a bot
# account answers first), a remote bot plays wes's seat to the end.
ladder_game() {
  local made name game
  for ((try = 0; try < 100; try++)); do  # robo may not have joined yet
    made=$("$boneyard" ladder challenge muggins-ladder "$@" --player-token-file "$tmp/wes.token" \
      --json 2>/dev/null) && break
    sleep 0.2
  done
  name=$(jq -r .name <<<"$made")
  game=$made
  for ((try = 0; try < 100; try++)); do
    [[ $(jq -r .match <<<"$game") == matches/* ]] && break
    sleep 0.2
    game=$("$boneyard" ladder challenge-show "$name" --player-token-file "$tmp/wes.token" --json)
  done
  echo "$name: wes -> $1, $(jq -r .state <<<"$game"), $(jq -r .match <<<"$game")"
  "$boneyard" bot "$(jq -r .match <<<"$game")" --target "$(jq -r .execution_target <<<"$game")" \
    --token "$(jq -r '.seats[] | select((.seat_token // "") != "") | .seat_token' <<<"$game")" |
    sed -n 1p
}
ladder_game bots/search-3 --rated
ladder_game bots/greedy --rated
ladder_game robo
wait "$robo_pid"
echo "robo (boneyard bot --ladder):"
sed 's/^/  /' "$tmp/robo.log"
for ((try = 0; try < 100; try++)); do  # the rated games reach the ratings service
  played=$("$boneyard" ladder show muggins-ladder --json |
    jq '[.standings[] | select(.player == "players/wes") | .games_played] | first // 0')
  ((played >= 2)) && break
  sleep 0.2
done
echo
echo "==== boneyard ladder show muggins-ladder (wes counts half against bots: --weight 0.5)"
"$boneyard" ladder show muggins-ladder
echo
echo "==== the web dashboard"
echo "http://$BONEYARD_WEB_LISTEN/ (sign in as operator with the token in $service_var/operator_token)"
echo "shows these matches (Matches, state FINISHED), their replays, the leaderboards (Ratings) and"
echo "the queues; players sign in with the tokens 'boneyard player create' printed."
if ((keep)); then
  echo "operator token: $BONEYARD_OPERATOR_TOKEN"
  echo "the system stays up until Ctrl-C (--keep)"
  trap 'echo; "$root/deploy/local/down.sh" || true; rm -rf "$tmp"; exit 0' INT TERM
  while true; do sleep 3600; done
fi
echo
echo "==== deploy/local/down.sh"
"$root/deploy/local/down.sh"
