#!/usr/bin/env bash
# Configure and build boneyard with CMake.
# Usage: deploy/build.sh            Release build in build/ (Ninja)
#        deploy/build.sh PRESET     a preset from CMakePresets.json: release, sanitize,
#                                   clang-thread-safety
# Works from any directory: it always builds the checkout it lives in.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/deploy/setup.sh"

# The presets name no generator; prefer Ninja for fresh build trees. CMake ignores this variable
# for a tree that already has a cache, so an existing tree keeps whatever generator it has.
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Ninja}"

preset=${1:-}
if [[ -z "$preset" ]]; then
  if [[ -f build/CMakeCache.txt ]]; then
    # Reuse the existing tree; passing -G would fail if it was made with another generator.
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  else
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -G Ninja
  fi
  cmake --build build -j2
else
  cmake --preset "$preset"
  cmake --build --preset "$preset" -j2
fi
