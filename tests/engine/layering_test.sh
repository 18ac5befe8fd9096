#!/bin/sh
# Dependencies point down only (deploy -> services -> engine): no engine file includes anything
# from a folder above it. Usage: layering_test.sh ENGINE_DIR
set -eu
engine=$1
[ -d "$engine" ] || { echo "no such folder: $engine" >&2; exit 2; }
if grep -rnE '^#[[:space:]]*include[[:space:]]*[<"](services|proto|deploy|tests)/' "$engine"; then
  echo "the engine must not include the files above (docs/architecture.md)" >&2
  exit 1
fi
