# Sourced by tests/web/run.sh and tests/bench/web_load.sh: starts the whole system with
# deploy/local/up.sh (its own PostgreSQL and every service) on free loopback ports in a
# temporary folder, stops it on exit, and exports what clients need: BONEYARD_WEB_URL,
# BONEYARD_OPERATOR_TOKEN, BONEYARD_CLI and the targets the CLI reads. Needs $root.
# shellcheck shell=bash

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A free port from a random base (another run may be on the usual ones), not one of $taken.
free_port() {
  local port
  for ((i = 0; i < 50; i++)); do
    # Below Linux's ephemeral range (32768 and up), where outgoing connections take their
    # local ports: a port picked there can be taken by one before the service binds it.
    port=$((20000 + RANDOM % 12000))
    if port_is_free "$port" && [[ " ${taken[*]:-} " != *" $port "* ]]; then
      echo "$port"
      return 0
    fi
  done
  echo "tests/web/system.sh: no free port" >&2
  return 1
}
taken=()
ports=()
for _ in 1 2 3 4 5 6 7 8 9; do
  p=$(free_port)
  taken+=("$p")
  ports+=("$p")
done

var=$(mktemp -d /tmp/boneyard-web.XXXXXX)
# PostgreSQL runs as the postgres user, under this folder.
chmod 755 "$var"
export BONEYARD_VAR_DIR="$var" BONEYARD_SKIP_BUILD=1
export BONEYARD_PG_PORT=${ports[0]}
export BONEYARD_EXECUTION_LISTEN=127.0.0.1:${ports[1]} BONEYARD_METRICS_LISTEN=127.0.0.1:${ports[2]}
export BONEYARD_RATINGS_LISTEN=127.0.0.1:${ports[3]}
export BONEYARD_RATINGS_METRICS_LISTEN=127.0.0.1:${ports[4]}
export BONEYARD_MATCHMAKING_LISTEN=127.0.0.1:${ports[5]}
export BONEYARD_MATCHMAKING_METRICS_LISTEN=127.0.0.1:${ports[6]}
export BONEYARD_WEB_LISTEN=127.0.0.1:${ports[7]} BONEYARD_WEB_METRICS_LISTEN=127.0.0.1:${ports[8]}
# Registration open (the pages register players); passes every 100 ms so matches form quickly.
export BONEYARD_MATCHMAKING_FLAGS="--open_registration --pass_interval=100ms"
export BONEYARD_WEB_FLAGS="--overview_interval=1s"

cleanup() {
  local rc=$?
  if ((rc != 0)); then
    for log in "$var"/log/*.log; do
      echo "---- the end of $log" >&2
      tail -n 30 "$log" >&2
    done
  fi
  "$root/deploy/local/down.sh" >/dev/null 2>&1 || true
  rm -rf "$var"
}
trap cleanup EXIT

"$root/deploy/local/up.sh" >/dev/null

export BONEYARD_WEB_URL="http://$BONEYARD_WEB_LISTEN"
BONEYARD_OPERATOR_TOKEN=$(cat "$var/operator_token")
export BONEYARD_OPERATOR_TOKEN
export BONEYARD_CLI="${BONEYARD_BIN_DIR:-$root/build/bin}/boneyard"
export BONEYARD_TARGET="$BONEYARD_EXECUTION_LISTEN"
export BONEYARD_MATCHMAKING_TARGET="$BONEYARD_MATCHMAKING_LISTEN"
export BONEYARD_RATINGS_TARGET="$BONEYARD_RATINGS_LISTEN"

