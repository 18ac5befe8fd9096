#!/usr/bin/env bash
# The test command (also what CI runs, via .ci/run):
#   1. deploy/setup.sh                      Debian packages
#   2. Release build (build/)               deploy/build.sh --target release_stage: the programs,
#                                           the benchmarks and the engine's tests (gcc, -O2)
#   3. a private PostgreSQL                 deploy/local/pg.sh in a temporary folder, on a free
#                                           loopback port; BONEYARD_TEST_DATABASE_URL points the
#                                           services tests at it; stopped and removed on exit
#   4. engine tests on the Release build    ctest --test-dir build -L engine: the full
#                                           conformance playouts
#   5. sanitize preset (build-sanitize/)    clang, ASan + UBSan, -Wthread-safety as an error:
#                                           every program and every test
#   6. every test under the sanitizers      ctest --test-dir build-sanitize: engine, CLI, the
#                                           four services' unit and process tests, the web app's
#                                           API and browser suites against sanitized services,
#                                           the replicas' fault test
#   7. sanitizer reports                    every sanitized process (the services that tests
#                                           start too, whose output is not the test's) writes
#                                           its reports to one folder: any report fails here
#   8. fuzz preset (build-fuzz/)            the libFuzzer programs (clang, ASan + UBSan)
#   9. a short fuzz run                     tests/fuzz/run.sh: each target for
#                                           BONEYARD_FUZZ_SECONDS (30) from its seed corpus
# Stages after a failure still run where they can, so one run reports everything; the exit
# status is non-zero if any stage failed. The summary gives each stage's time.
#
# BONEYARD_SKIP_SANITIZE=1 skips stages 5-9 for quick local runs, and the Release stage then
# builds and runs every test instead. It is ignored when CI=true.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# Sanitizer reports should say where, and UB should stop the test rather than scroll past.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The sanitizer runtimes' own suppressions (third-party code only; each says why).
sanitizer_dir="$root/tests/sanitizers"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$sanitizer_dir/lsan.supp:print_suppressions=0}"

logdir=$(mktemp -d)
pgdir=""  # the test PostgreSQL's folder, once start_test_database has made it

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [[ -n "$pgdir" ]]; then
    if "$root/deploy/local/pg.sh" stop "$pgdir" >/dev/null; then
      rm -rf "$pgdir"
    else
      echo "tests/run.sh: could not stop the test PostgreSQL; its folder is left in $pgdir" >&2
    fi
  fi
  rm -rf "$logdir"
}
trap cleanup EXIT

summary=()
failed=0
skip_sanitize=0

# run_stage NAME COMMAND...: runs the command with its output left visible, records the result.
run_stage() {
  local name=$1
  shift
  echo
  echo "==== ${name}: $*"
  local started=$SECONDS
  if "$@"; then
    summary+=("PASS  ${name} ($((SECONDS - started)) s)")
    return 0
  fi
  summary+=("FAIL  ${name} ($((SECONDS - started)) s)")
  failed=1
  return 1
}

# run_ctest_stage NAME CTEST-COMMAND CTEST-ARGS...: like run_stage, and adds ctest's test count
# to the summary. CTEST-COMMAND is ctest or run_sanitized_ctest.
# ctest's own output (including its closing "N% tests passed" line) stays on screen via tee.
run_ctest_stage() {
  local name=$1 command=$2
  shift 2
  local log
  log="$logdir/ctest-${#summary[@]}.log"
  echo
  echo "==== ${name}: ctest $*"
  local rc=0 started=$SECONDS
  "$command" "$@" 2>&1 | tee "$log" || rc=$?
  local count
  count=$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
  if ((rc == 0)); then
    summary+=("PASS  ${name}: ${count:-?} tests ($((SECONDS - started)) s)")
    return 0
  fi
  summary+=("FAIL  ${name} ($((SECONDS - started)) s; see ctest output above)")
  failed=1
  return 1
}

# port_is_free PORT: nothing accepts TCP connections on 127.0.0.1:PORT.
# shellcheck disable=SC2317  # called through run_stage
port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# start_test_database: a private PostgreSQL for the services tests (which fail without one),
# exported as BONEYARD_TEST_DATABASE_URL. Called as a stage, so errors are checked by hand (set -e
# does not apply inside a condition). The folder is under /tmp, not $TMPDIR: the server's unix
# socket path must stay under 108 bytes.
# shellcheck disable=SC2317  # called through run_stage
start_test_database() {
  local attempt port
  pgdir=$(mktemp -d /tmp/boneyard-pg.XXXXXX) || return 1
  for ((attempt = 1; attempt <= 3; attempt++)); do
    # Below Linux's ephemeral range (32768 and up), where outgoing connections take their local
    # ports: a port picked there can be held by one, briefly, when the server binds it (it
    # happened here: bind "Address already in use", the port free again a moment later).
    port=$((20000 + RANDOM % 12000))
    port_is_free "$port" || continue
    if "$root/deploy/local/pg.sh" start "$pgdir" "$port"; then
      BONEYARD_TEST_DATABASE_URL=$("$root/deploy/local/pg.sh" url "$pgdir" "$port") || return 1
      export BONEYARD_TEST_DATABASE_URL
      echo "BONEYARD_TEST_DATABASE_URL=$BONEYARD_TEST_DATABASE_URL (data in $pgdir)"
      return 0
    fi
    # Only a port taken between the check and the bind is worth another try.
    grep -q "Address already in use" "$pgdir/postgres.log" 2>/dev/null || return 1
  done
  echo "tests/run.sh: found no free loopback port for PostgreSQL" >&2
  return 1
}

skip_stage() {
  summary+=("SKIP  $1 ($2)")
}

# run_sanitized_ctest CTEST-ARGS...: ctest with every sanitized process's reports written to
# $reports (one file a process), so that a report from a service a test started in the
# background, whose output nobody reads, is seen by check_sanitizer_reports.
reports="$logdir/sanitizer-reports"
# shellcheck disable=SC2317  # called through run_ctest_stage
run_sanitized_ctest() {
  mkdir -p "$reports"
  ASAN_OPTIONS="log_path=$reports/asan:${ASAN_OPTIONS:-detect_leaks=1}" \
    UBSAN_OPTIONS="log_path=$reports/ubsan:$UBSAN_OPTIONS" \
    BONEYARD_CONFORMANCE_PLAYOUTS=${BONEYARD_CONFORMANCE_PLAYOUTS:-150} \
    ctest "$@"
}

# check_sanitizer_reports: fails, printing them, when any sanitized process wrote a report.
# shellcheck disable=SC2317  # called through run_stage
check_sanitizer_reports() {
  shopt -s nullglob
  local files=("$reports"/*)
  shopt -u nullglob
  if ((${#files[@]} == 0)); then
    echo "no sanitizer reports"
    return 0
  fi
  local file
  for file in "${files[@]}"; do
    echo "---- ${file##*/}"
    head -n 120 "$file"
  done
  echo "tests/run.sh: ${#files[@]} sanitizer report(s)" >&2
  return 1
}

print_summary() {
  echo
  echo "==== summary"
  local line
  for line in "${summary[@]}"; do
    echo "  $line"
  done
  if ((skip_sanitize)); then
    echo "!!!! the sanitized (and thread-safety) and fuzz stages were SKIPPED (BONEYARD_SKIP_SANITIZE=1)"
  fi
  if ((failed)); then
    echo "==== tests/run.sh: FAILED"
  elif ((skip_sanitize)); then
    echo "==== tests/run.sh: every stage that ran passed (some were skipped)"
  else
    echo "==== tests/run.sh: all stages passed"
  fi
}

# Without the packages nothing else can run, so a set-up failure stops here.
if ! run_stage "setup" deploy/setup.sh; then
  print_summary
  exit 1
fi

if [[ "${BONEYARD_SKIP_SANITIZE:-0}" == "1" ]]; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "==== BONEYARD_SKIP_SANITIZE=1 ignored: CI=true always runs the sanitizer builds"
  else
    skip_sanitize=1
  fi
fi

# Without the sanitized build the Release build runs everything; with it, the engine's tests
# only (with their full playouts), every other test running once, under the sanitizers.
release_build=(deploy/build.sh --target release_stage)
release_tests=(-L engine)
if ((skip_sanitize)); then
  release_build=(deploy/build.sh)
  release_tests=()
fi

# --no-tests=error: a build that registers no tests must not look like a pass.
if run_stage "build release" "${release_build[@]}"; then
  # A failed start fails this stage (and the services tests, which then find no database).
  run_stage "start postgresql" start_test_database || true
  run_ctest_stage "ctest release (${release_tests[*]:-all})" ctest \
    --test-dir build --output-on-failure -j2 --no-tests=error "${release_tests[@]}" || true
else
  skip_stage "ctest release" "release build failed"
fi

if ((skip_sanitize)); then
  echo
  echo "!!!! ======================================================================== !!!!"
  echo "!!!! BONEYARD_SKIP_SANITIZE=1: sanitizer and fuzz builds SKIPPED               !!!!"
  echo "!!!! This run does NOT prove the code is ASan/UBSan/thread-safety clean.       !!!!"
  echo "!!!! ======================================================================== !!!!"
  skip_stage "build sanitize" "BONEYARD_SKIP_SANITIZE=1"
  skip_stage "ctest sanitize (all)" "BONEYARD_SKIP_SANITIZE=1"
  skip_stage "build fuzz" "BONEYARD_SKIP_SANITIZE=1"
  skip_stage "fuzz (short)" "BONEYARD_SKIP_SANITIZE=1"
else
  if run_stage "build sanitize" deploy/build.sh sanitize; then
    [[ -n "$pgdir" ]] || run_stage "start postgresql" start_test_database || true
    # The Release stage already plays 2,000 conformance playouts per configuration. Under the
    # sanitizers, which run the engine about seven times slower, 150 per configuration
    # (run_sanitized_ctest) reach the same code for memory and UB errors.
    run_ctest_stage "ctest sanitize (all)" run_sanitized_ctest \
      --test-dir build-sanitize --output-on-failure -j2 --no-tests=error || true
    run_stage "sanitizer reports" check_sanitizer_reports || true
  else
    skip_stage "ctest sanitize (all)" "sanitize build failed"
  fi
  if run_stage "build fuzz" deploy/build.sh fuzz; then
    run_stage "fuzz (short)" tests/fuzz/run.sh "$root/build-fuzz" || true
  else
    skip_stage "fuzz (short)" "fuzz build failed"
  fi
fi

echo
echo "==== tests/run.sh took $SECONDS s"
print_summary
exit "$failed"
