#!/usr/bin/env bash
# The whole test suite: release build (CLI, CUDA compile checks when nvcc is present, the
# playground page as WebAssembly), the Python package (pip install . and pytest), the host unit
# tests and the CLI under ASan+UBSan, and a bounded libFuzzer run beside the sanitizer's tests.
# Every test runs once: the host unit tests only in the sanitizer build (TESSERA_UNIT_TESTS=OFF in
# the release build; `cmake --preset default -DTESSERA_UNIT_TESTS=ON` brings them back there), and
# so do the tests of the CLI on inputs (label `sanitizer`: the release ctest runs `-LE sanitizer`);
# the CUDA checks, the compile-fail tests and the browser tests only in the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc)

# Each stage's wall seconds and CPU seconds (user + system of everything it ran), printed as it
# ends: the figures of bench/results/ci_time.md (bench/ci_time.py breaks the builds down).
# `times` runs in this shell (not in $(...), whose subshell has no children of its own).
times_file=$(mktemp)
# On exit (a failure included) the builds still running beside the stages stop too: each job
# and the processes under it (its ninja and compilers).
kill_tree() {
  local child
  for child in $(pgrep -P "$1"); do kill_tree "$child"; done
  kill "$1" 2>/dev/null || true
}
trap 'rm -f "$times_file"; for job in $(jobs -p); do kill_tree "$job"; done' EXIT
stage_name="" stage_wall=$SECONDS stage_cpu=0
stage() {
  local cpu
  times >"$times_file"  # line 2: the children's user and system time, e.g. 1m2.5s 0m3.1s
  cpu=$(awk 'NR == 2 {split($1, u, "m"); split($2, s, "m"); print u[1]*60+u[2]+s[1]*60+s[2]}' \
    "$times_file")
  [ -n "$stage_name" ] && awk -v n="$stage_name" -v w=$((SECONDS - stage_wall)) -v c="$cpu" \
    -v c0="$stage_cpu" 'BEGIN { printf "== %s: %d s wall, %.0f s CPU\n", n, w, c - c0 }'
  stage_name=$1 stage_wall=$SECONDS stage_cpu=$cpu
  [ -n "$1" ] && echo "== $1"
  return 0
}

# Work that leaves a core idle (one process; tests that ctest runs alone) goes beside the next
# command: `beside LOG COMMAND...` starts it with its output in LOG; `joined RC` waits for it,
# prints LOG and fails if it or the command beside it (whose exit status is RC) failed.
beside() {
  beside_log=$1
  shift
  "$@" >"$beside_log" 2>&1 &
  beside_pid=$!
}
joined() {
  local rc=0
  wait "$beside_pid" || rc=$?
  cat "$beside_log"
  if [ "$1" -ne 0 ] || [ "$rc" -ne 0 ]; then exit 1; fi
}

# The sanitizer and fuzz builds need nothing of the release build: they run beside it from the
# start, at the lowest priority (nice 19: the release build keeps the cores it asks for, they take
# what it leaves: its configure, a unit compiling alone, its links).
sanitizer_builds() {
  renice -n 19 -p "$BASHPID" >/dev/null
  { cmake --preset fuzz && cmake --build build-fuzz -j "$jobs"; } >build/fuzz-build.log 2>&1 &
  local fuzz_pid=$! rc=0
  { cmake --preset asan && cmake --build build-asan -j "$jobs"; } >build/asan-build.log 2>&1 ||
    rc=$?
  wait "$fuzz_pid" || rc=1
  echo "== ASan + UBSan build"
  cat build/asan-build.log
  echo "== fuzz build"
  cat build/fuzz-build.log
  return "$rc"
}
mkdir -p build
sanitizer_builds >build/sanitizer-builds.log 2>&1 &
sanitizer_builds_pid=$!

stage "release build, and beside it the ASan + UBSan and fuzz builds"
cmake --preset default -DTESSERA_UNIT_TESTS=OFF
# Everything, and the playground page: the library compiled to WebAssembly (em++, from deps.sh's
# emscripten), in one build so that its compiles share the cores with the rest. The CUDA checks
# of ctest read what this build kept of each kernel (cmake/TesseraCudaChecks.cmake).
cmake --build build -j "$jobs" --target all playground

stage "release tests, and beside them the Python package and the rest of the sanitizer builds"
# The browser tests run alone (RUN_SERIAL) and the tests are short single processes, so ctest
# leaves cores idle; the Python package fills them, at the lowest priority: its module links the
# front-end library the release build compiled (same sources, compiler and flags) instead of
# compiling tools/ a second time (a user's `pip install .` compiles it), then pytest.
python_package() {
  renice -n 19 -p "$BASHPID" >/dev/null
  TESSERA_FRONTEND_LIBRARY="$PWD/build/tools/libtessera_ops.a" bash scripts/python.sh
}
beside build/python.log python_package
rc=0
ctest --preset default -j "$jobs" -LE sanitizer || rc=$?
echo "== Python package (pip install ., pytest), beside the release tests:"
joined "$rc"
rc=0
wait "$sanitizer_builds_pid" || rc=$?
cat build/sanitizer-builds.log
[ "$rc" -eq 0 ] || exit 1

stage "ASan + UBSan tests, and the bounded libFuzzer run beside them"
# The fuzzer is one process for 40 s: beside the sanitizer tests instead of after them.
beside build-fuzz/ctest.log ctest --test-dir build-fuzz --output-on-failure
rc=0
ctest --preset asan -j "$jobs" || rc=$?
echo "== libFuzzer (bounded), beside the ASan + UBSan tests:"
joined "$rc"
stage ""
