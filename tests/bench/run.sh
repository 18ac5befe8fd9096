#!/usr/bin/env bash
# Engine speed as decisions/s and as a ratio to the shared block-dominoes yardstick, both
# built with the same flags (the Release build) and run one after the other in this script.
# Usage: tests/bench/run.sh [build-dir]   (builds first with deploy/build.sh when no dir given)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-}
if [[ -z "$build" ]]; then
  "$root/deploy/build.sh" >/dev/null
  build="$root/build"
fi
bin="$build/bin"

ref_line=$("$bin/block_reference" 2 2000000 1)
echo "$ref_line"
ref=$(sed -n 's/.*decisions\/s=\([0-9]*\).*/\1/p' <<<"$ref_line")

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$bin/engine_bench" --benchmark_filter=RandomPlayouts --benchmark_min_time=2 \
  --benchmark_format=json >"$json"

python3 - "$json" "$ref" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
ref = float(sys.argv[2])
print(f"{'benchmark':40s} {'decisions/s':>14s} {'ratio to block_reference':>26s} {'forced':>8s}")
for b in data["benchmarks"]:
    d = b.get("decisions_per_s")
    if d is None:
        continue
    print(f"{b['name']:40s} {d:14,.0f} {d / ref:26.2f} {b['forced_fraction']:8.2f}")
PY
