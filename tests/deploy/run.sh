#!/usr/bin/env bash
# Offline checks of deploy/k8s (validate_k8s.mjs says what they are): no cluster, no network but
# npm's registry for the first `npm ci`. Where kubectl is installed (not on CI), the overlays are
# also rendered by `kubectl kustomize`, and that output is checked too and compared with the
# script's own rendering.
#
#   tests/deploy/run.sh
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

# The checks' packages, exactly as the lockfile says (once per lockfile change).
if [[ ! -f "$here/node_modules/.boneyard-lock" ]] ||
  ! cmp -s "$here/package-lock.json" "$here/node_modules/.boneyard-lock"; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$here/package-lock.json" "$here/node_modules/.boneyard-lock"
fi

kustomized=()
if command -v kubectl >/dev/null 2>&1; then
  rendered=$(mktemp -d)
  trap 'rm -rf "$rendered"' EXIT
  for overlay in dev production; do
    kubectl kustomize "$root/deploy/k8s/overlays/$overlay" >"$rendered/$overlay.yaml"
    kustomized+=(--kustomized "$overlay=$rendered/$overlay.yaml")
  done
else
  echo "run.sh: no kubectl here: the overlays are rendered by validate_k8s.mjs alone"
fi

node "$here/validate_k8s.mjs" --self-test "${kustomized[@]}"
