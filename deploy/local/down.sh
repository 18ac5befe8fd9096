#!/usr/bin/env bash
# Stops what deploy/local/up.sh started: the web app (its event streams end), the matchmaking service (SIGTERM: the pass under way
# ends; a match formed but not yet created is created by the next start), the execution service (SIGTERM: it finishes in-flight
# calls and flushes its event log; results not yet delivered stay in its outbox), then the
# ratings service (SIGTERM: it commits the results it has accepted), each killed after 30 s,
# then the private PostgreSQL. Data stays in var/ for the next up.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
var="${BONEYARD_VAR_DIR:-$root/var}"

# stop NAME: the service whose pid is in var/run/NAME.pid.
stop() {
  local name=$1
  local pid_file="$var/run/$name.pid"
  [[ -f "$pid_file" ]] || return 0
  local pid
  pid=$(cat "$pid_file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for ((i = 0; i < 300; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "down: $name did not stop within 30 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "down: $name stopped"
  fi
  rm -f "$pid_file"
}

# Every replica (NAME-K) after the first of its service, then the first.
stop_all() {
  local pid_file
  for pid_file in "$var/run/$1"-[0-9].pid; do
    [[ -e "$pid_file" ]] && stop "$(basename "$pid_file" .pid)"
  done
  stop "$1"
}

stop_all web
stop_all matchmaking
stop_all execution
stop_all ratings

if [[ -d "$var/pg/data" ]]; then
  "$root/deploy/local/pg.sh" stop "$var/pg"
fi
