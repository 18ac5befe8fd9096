#!/usr/bin/env bash
# Configure and build boneyard with CMake.
# Usage: deploy/build.sh                 everything (programs, tests, benchmarks): Release, build/
#        deploy/build.sh --programs      only the programs: boneyard, boneyard-execution,
#                                        boneyard-ratings, boneyard-matchmaking and boneyard-web
#                                        (what demo.sh and up.sh run), in the
#                                        same build/ tree, so a later full build reuses them
#        deploy/build.sh --target NAME   only NAME (repeatable), e.g. release_stage: what
#                                        tests/run.sh's Release stage needs
#        deploy/build.sh PRESET          a preset from CMakePresets.json: release, sanitize
#                                        (clang, ASan + UBSan, -Wthread-safety), fuzz
# Works from any directory: it always builds the checkout it lives in.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# The programs a user runs; tests and benchmarks are most of a full build's time.
programs=(boneyard boneyard-execution boneyard-ratings boneyard-matchmaking boneyard-web)

preset=""
targets=()
usage="usage: deploy/build.sh [--programs] [--target NAME]... [PRESET]"
while (($# > 0)); do
  case "$1" in
    --programs) targets+=("${programs[@]}") ;;
    --target)
      if (($# < 2)); then
        echo "deploy/build.sh: --target needs a target's name ($usage)" >&2
        exit 2
      fi
      targets+=("$2")
      shift
      ;;
    -*)
      echo "deploy/build.sh: unknown flag '$1' ($usage)" >&2
      exit 2
      ;;
    *) preset=$1 ;;
  esac
  shift
done

"$root/deploy/setup.sh"

# The presets name no generator; prefer Ninja for fresh build trees. CMake ignores this variable
# for a tree that already has a cache, so an existing tree keeps whatever generator it has.
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"

target_args=()
((${#targets[@]} > 0)) && target_args=(--target "${targets[@]}")

if [[ -z "$preset" ]]; then
  if [[ -f build/CMakeCache.txt ]]; then
    # Reuse the existing tree; passing -G would fail if it was made with another generator.
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  else
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -G Ninja
  fi
  cmake --build build -j2 "${target_args[@]}"
else
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j2 "${target_args[@]}"
fi
