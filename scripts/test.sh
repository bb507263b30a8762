#!/usr/bin/env bash
# README command 2: build, a bounded fuzz run of the expression parser and
# model, then every test (GPU tests report "skipped" without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
bash fuzz/run.sh "${GPUMEM_FUZZ_SECONDS:-60}" >fuzz-run.log 2>&1 || {
  tail -40 fuzz-run.log
  echo "error: fuzz/run.sh failed: the fuzz target did not build, or the fuzzer found a crash (fuzz-run.log; a reproducer lands in fuzz/out/)" >&2
  exit 1
}
tail -3 fuzz-run.log
# the pure-C tier alone, as a machine without nvcc builds it
BUILD_DIR=build-nocuda GPUMEM_CUDA=OFF bash scripts/build.sh
ctest --test-dir build-nocuda --output-on-failure -j2 >nocuda-tests.log 2>&1 || { cat nocuda-tests.log; exit 1; }
grep -E "tests passed" nocuda-tests.log | sed 's/^/without CUDA: /'
# run --mpi: the pure-C tier with MPI, four ranks on this CPU machine (tests/mpi/mpi4.sh)
BUILD_DIR=build-mpi GPUMEM_CUDA=OFF GPUMEM_MPI=ON bash scripts/build.sh
ctest --test-dir build-mpi --output-on-failure -L mpi
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
