#!/usr/bin/env bash
# Runs every libFuzzer program of a fuzz build (deploy/build.sh fuzz → build-fuzz/bin/fuzz_*)
# for a short time, all at once, each starting from its committed seed corpus
# (tests/fuzz/corpus/<name>/). New inputs go to a scratch folder, never into the committed
# corpus. A crash (or a leak, or a broken property: the targets abort) fails the run; its input
# is kept in $BONEYARD_FUZZ_ARTIFACTS and printed in hex: once fixed, add it to the target's
# corpus, where Fuzz.<name>.Corpus replays it in every build.
#
# Usage: tests/fuzz/run.sh [BUILD_DIR]   (default build-fuzz)
#   BONEYARD_FUZZ_SECONDS    time per target (default 30)
#   BONEYARD_FUZZ_ARTIFACTS  where crashing inputs are kept (default /tmp/boneyard-fuzz-artifacts)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${BONEYARD_FUZZ_SECONDS:-30}
artifacts=${BONEYARD_FUZZ_ARTIFACTS:-/tmp/boneyard-fuzz-artifacts}
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

shopt -s nullglob
programs=("$build"/bin/fuzz_*)
if ((${#programs[@]} == 0)); then
  echo "tests/fuzz/run.sh: no fuzz programs in $build/bin (build them: deploy/build.sh fuzz)" >&2
  exit 1
fi

pids=()
names=()
for program in "${programs[@]}"; do
  name=${program##*/fuzz_}
  seeds="$root/tests/fuzz/corpus/$name"
  [[ -d "$seeds" ]] || { echo "tests/fuzz/run.sh: no seed corpus $seeds" >&2; exit 1; }
  mkdir -p "$scratch/$name"
  # -timeout: one input running this long is a hang; -rss_limit_mb: runaway memory is a bug too.
  "$program" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$name-" "$scratch/$name" "$seeds" \
    >"$scratch/$name.log" 2>&1 &
  pids+=($!)
  names+=("$name")
done

failed=0
for i in "${!pids[@]}"; do
  name=${names[$i]}
  if wait "${pids[$i]}"; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$name.log")
    cov=$(grep -o 'cov: [0-9]*' "$scratch/$name.log" | tail -n 1)
    echo "fuzz_$name: ${runs:-?} inputs in ${seconds}s, ${cov:-cov: ?}, no failure"
  else
    failed=1
    echo "fuzz_$name: FAILED; its log:"
    tail -n 60 "$scratch/$name.log"
    for crash in "$artifacts/$name-"*; do
      echo "input $crash:"
      od -A d -t x1z "$crash" | head -n 40
    done
  fi
done
exit "$failed"
