#!/usr/bin/env bash
# README command 2 (at most 5 minutes on 2 cores from a fresh clone): install the build dependencies, build
# gpumem (with its CUDA kernels where nvcc is here: they must compile and link), run the unit, CLI and
# golden tests (ctest label `unit`; GPU tests are not in it: scripts/gpu_session.sh runs them on a GPU), then
# the pure-C tier alone as a machine without nvcc builds it, and its CLI tests. The hardening stages
# (fuzzing, ASan+UBSan, fault injection, MPI, the browser, the package, the benchmarks) are
# scripts/harden.sh, which .ci/run runs after this.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2 -L unit
if [ "$(sed -n 's/^GPUMEM_CUDA:BOOL=//p' "${BUILD_DIR:-build}/CMakeCache.txt")" = ON ]; then
  BUILD_DIR=build-nocuda GPUMEM_CUDA=OFF bash scripts/build.sh
  ctest --test-dir build-nocuda --output-on-failure -j2 -L unit -R '^(test_cli|errors_table|report_cli|fleet_cli|explain_golden)$' \
    >nocuda-tests.log 2>&1 || { cat nocuda-tests.log; exit 1; }
  grep -E "tests passed" nocuda-tests.log | sed 's/^/without CUDA: /'
fi
echo "scripts/test.sh: $(( $(date +%s) - t0 )) s"
