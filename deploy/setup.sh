#!/usr/bin/env bash
# The one set-up script: installs every Debian package boneyard needs to build, test and run.
# Idempotent: packages already installed are skipped, and apt-get runs only when something is
# missing, so calling it before every build costs a fraction of a second.
set -euo pipefail

# Every Debian package the project needs, in one place. Add new needs here (gRPC, PostgreSQL...).
packages=(
  build-essential     # gcc/g++, make
  cmake
  ninja-build
  clang               # the sanitized build (with -Wthread-safety) and the fuzz build
  libclang-rt-14-dev  # clang's ASan, UBSan and libFuzzer runtimes
  libabsl-dev
  nlohmann-json3-dev
  libgtest-dev
  libgmock-dev
  libbenchmark-dev    # tests/bench
  python3             # tests/bench/run.sh formats its results with python3
  python3-grpcio      # docs/examples/ladder_bot.py, the Python remote bot (and its test)
  python3-protobuf
  jq                  # deploy/local/demo.sh reads `boneyard games --json`; tests/deploy
  curl                # tests/deploy/local_replicas_test.sh signs in to the web app
  tmux
  pkg-config
  protobuf-compiler   # proto/: protoc
  libprotobuf-dev
  libgrpc++-dev
  protobuf-compiler-grpc
  libpqxx-dev         # services/common: PostgreSQL client
  postgresql          # tests/run.sh and deploy/local start a private cluster
  libspdlog-dev       # services: structured logs
  prometheus-cpp-dev  # services: the /metrics page
  libcpp-httplib-dev  # tests: an HTTP client for /metrics
  libjemalloc-dev     # the programs' allocator (CMakeLists.txt: BONEYARD_JEMALLOC)
  libssl-dev          # services/common: HMAC-SHA256 for tamper-evident page tokens
  libboost-dev        # services/web: HTTP and event streams on Boost.Beast (header-only)
  chromium            # tests/web: the pages tested in a real, headless browser
)
# The web pages are bundled with Node.js and npm at build time. The machine's own Node.js is
# used when there is one (it may come from another repository than Debian's, with npm inside);
# otherwise Debian's.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for pkg in "${packages[@]}"; do
  # dpkg-query fails for packages it has never heard of; treat that as "not installed".
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "setup: all packages present"
  exit 0
fi

# apt-get needs root; fall back to sudo when we are not root and it is available.
as_root=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "setup: missing packages: ${missing[*]}" >&2
    echo "setup: run this script as root (or install sudo) so apt-get can install them" >&2
    exit 1
  fi
fi

# Update the package lists only now that we know we have to install something.
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
echo "setup: installed ${missing[*]}"
