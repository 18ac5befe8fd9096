#!/usr/bin/env bash
# The ratings service under load, on this machine: starts a throw-away PostgreSQL
# (deploy/local/pg.sh) and boneyard-ratings under a temporary folder, records distinct results
# with tests/bench/ratings_load.cc (every call answered only after its batch has committed),
# prints the tool's report, the service's batch metrics and what the database holds, and stops
# everything.
#
#   tests/bench/ratings_load.sh [LOAD FLAGS...]   default: --results 20000 --in_flight 256
#
# BONEYARD_BUILD_DIR picks the build (default: build/). Not a test: figures depend on the
# machine (docs/performance.md has ours).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BONEYARD_BUILD_DIR:-$root/build}
for program in boneyard-ratings ratings_load; do
  [[ -x "$build/bin/$program" ]] || {
    echo "ratings_load.sh: no $build/bin/$program; build it first (ninja -C $build $program)" >&2
    exit 1
  }
done
listen=${BONEYARD_RATINGS_LISTEN:-127.0.0.1:50351}
metrics=${BONEYARD_RATINGS_METRICS_LISTEN:-127.0.0.1:9764}
pg_port=${BONEYARD_PG_PORT:-55534}

tmp=$(mktemp -d /tmp/boneyard-ratings-load.XXXXXX)
chmod 755 "$tmp"  # the postgres user must reach the cluster folder inside
service_pid=
cleanup() {
  if [[ -n "$service_pid" ]]; then kill "$service_pid" 2>/dev/null && wait "$service_pid" || true; fi
  "$root/deploy/local/pg.sh" stop "$tmp/pg" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$root/deploy/local/pg.sh" start "$tmp/pg" "$pg_port" >/dev/null
url=$("$root/deploy/local/pg.sh" url "$tmp/pg" "$pg_port")
head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$tmp/operator_token"
head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$tmp/results_token"

"$build/bin/boneyard-ratings" --database_url="$url" --listen="$listen" \
  --metrics_listen="$metrics" --operator_token_file="$tmp/operator_token" \
  --results_token_file="$tmp/results_token" --log_level=warn 2>"$tmp/service.log" &
service_pid=$!
for _ in $(seq 100); do
  curl -sf "http://$metrics/metrics" >/dev/null 2>&1 && break
  sleep 0.1
done

args=("$@")
((${#args[@]})) || args=(--results 20000 --in_flight 256)
# The load tool shares the machine's cores with the service and PostgreSQL: say what it used.
TIMEFORMAT='load tool:   %U s user + %S s system CPU'
time "$build/bin/ratings_load" --target="$listen" --token_file="$tmp/results_token" "${args[@]}"

echo
echo "service metrics:"
curl -s "http://$metrics/metrics" |
  grep -E '^(boneyard_ratings_(results_total|batch_results_(sum|count)|commit_seconds_(sum|count))|process_cpu_seconds_total)' || true
echo
echo "stored:"
psql=$(printf '%s\n' /usr/lib/postgresql/*/bin/psql | sort -V | tail -n 1)
if [[ -x "$psql" ]]; then
  as=()
  ((EUID == 0)) && as=(runuser -u postgres --)
  "${as[@]}" "$psql" -X -q -At "$url" -c "SELECT 'results ' || (SELECT count(*) FROM ratings.results) || ', history rows ' || (SELECT count(*) FROM ratings.history) || ', rated players ' || (SELECT count(*) FROM ratings.ratings)"
fi
