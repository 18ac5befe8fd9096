#!/usr/bin/env bash
# Stops what deploy/local/up.sh started: the execution service (SIGTERM: it finishes in-flight
# calls and flushes its event log; SIGKILL after 30 s) and the private PostgreSQL. Data stays in
# var/ for the next up.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
var="${BONEYARD_VAR_DIR:-$root/var}"
pid_file="$var/run/execution.pid"

if [[ -f "$pid_file" ]]; then
  pid=$(cat "$pid_file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for ((i = 0; i < 300; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      echo "down: execution did not stop within 30 s; killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "down: execution stopped"
  fi
  rm -f "$pid_file"
fi

if [[ -d "$var/pg/data" ]]; then
  "$root/deploy/local/pg.sh" stop "$var/pg"
fi
