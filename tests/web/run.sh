#!/usr/bin/env bash
# The web app end to end: starts the whole system with deploy/local/up.sh (its own PostgreSQL
# and every service, on free loopback ports, in a temporary folder), then runs the tests in
# this folder with Node's test runner: the JSON API's hostile-input suite (api.test.mjs) and the
# pages in Debian's headless Chromium driven by playwright-core (*.browser.test.mjs).
# Screenshots go to ARTIFACTS (default build/web-artifacts). Stops everything on exit.
#
#   tests/web/run.sh [ARTIFACTS]        (after deploy/build.sh; ctest runs it as web_browser_tests)
#
# BONEYARD_BIN_DIR: the programs to test (default build/bin; ctest passes its own tree's).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
artifacts=${1:-$root/build/web-artifacts}
mkdir -p "$artifacts"

# The test tooling, exactly as the lockfile says (once per lockfile change).
if [[ ! -f "$here/node_modules/.boneyard-lock" ]] ||
  ! cmp -s "$here/package-lock.json" "$here/node_modules/.boneyard-lock"; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$here/package-lock.json" "$here/node_modules/.boneyard-lock"
fi

# shellcheck source=tests/web/system.sh
source "$here/system.sh"

export BONEYARD_ARTIFACTS="$artifacts"
cd "$here"
node --test --test-concurrency=1 ./*.test.mjs
