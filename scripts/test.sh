#!/usr/bin/env bash
# README command 2 (at most 5 minutes on 2 cores from a fresh clone): install the build dependencies, build
# gpumem (with its CUDA kernels where nvcc is here: they must compile and link), run the unit, CLI and
# golden tests (ctest label `unit`; GPU tests are not in it: scripts/gpu_session.sh runs them on a GPU), and
# the pure-C tier alone as a machine without nvcc builds it (built while the unit tests run) with its CLI
# tests. The hardening stages (fuzzing, ASan+UBSan, fault injection, MPI, the browser, the package, the
# benchmarks) are scripts/harden.sh, which .ci/run runs after this.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
build=${BUILD_DIR:-build}
bash scripts/build.sh
nocuda=
if [ "$(sed -n 's/^GPUMEM_CUDA:BOOL=//p' "$build/CMakeCache.txt")" = ON ]; then
  # the pure-C tier alone, as a machine without nvcc builds it: only what its tests run (gpumem, test_cli, the
  # trace collector's stand-in library), niced in the background while the unit tests run, so that it takes
  # the cores the tests leave idle
  BUILD_DIR=build-nocuda GPUMEM_CUDA=OFF GPUMEM_TARGETS="gpumem test_cli gmt_fake_inject" \
    nice -n 10 bash scripts/build.sh >nocuda-build.log 2>&1 &
  nocuda=$!
  trap 'kill $nocuda 2>/dev/null' EXIT
fi
rc=0
ctest --test-dir "$build" --output-on-failure -j2 -L unit || rc=$?
if [ -n "$nocuda" ]; then
  wait $nocuda || { cat nocuda-build.log; echo "error: the build without CUDA failed (nocuda-build.log)" >&2; exit 1; }
  trap - EXIT
  ctest --test-dir build-nocuda --output-on-failure -j2 -L unit -R '^(test_cli|errors_table|report_cli|fleet_cli|explain_golden)$' \
    >nocuda-tests.log 2>&1 || { cat nocuda-tests.log; exit 1; }
  grep -E "tests passed" nocuda-tests.log | sed 's/^/without CUDA: /'
fi
echo "scripts/test.sh: $(( $(date +%s) - t0 )) s"
exit $rc
