#!/usr/bin/env bash
# README command 2: build, a bounded fuzz run of the expression parser and
# model, then every test (GPU tests report "skipped" without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# every fuzz target (fuzz/run.sh: expr, runfile, profile, fleet, args) for GPUMEM_FUZZ_SECONDS each
bash fuzz/run.sh "${GPUMEM_FUZZ_SECONDS:-30}" >fuzz-run.log 2>&1 || {
  tail -40 fuzz-run.log
  echo "error: fuzz/run.sh failed: the fuzz target did not build, or the fuzzer found a crash (fuzz-run.log; a reproducer lands in fuzz/out/)" >&2
  exit 1
}
grep -E '^fuzz_[a-z]+: ' fuzz-run.log
# the pure-C tier alone, as a machine without nvcc builds it
BUILD_DIR=build-nocuda GPUMEM_CUDA=OFF bash scripts/build.sh
ctest --test-dir build-nocuda --output-on-failure -j2 -LE scale >nocuda-tests.log 2>&1 || { cat nocuda-tests.log; exit 1; }
grep -E "tests passed" nocuda-tests.log | sed 's/^/without CUDA: /'
# the pure-C tier and the CLI under AddressSanitizer + UBSan with leak checking (issue 22): the unit and
# CLI tests, the fuzz seeds and crashes replayed, every committed run file through every command that
# reads one (tests/harden/runfiles.sh). Not here: test_big_file (its time and memory bounds are for
# an uninstrumented binary), launch_golden (~1000 whole-launch predictions, minutes under ASan; the other
# builds run it) and the browser test (the page, not the C).
CC=clang cmake -S . -B build-asan -DGPUMEM_CUDA=OFF -DGPUMEM_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j"$(nproc)" >asan-build.log 2>&1 || { cat asan-build.log; exit 1; }
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j2 -LE 'browser|gpu|scale' -E '^(test_big_file|launch_golden)$' >asan-tests.log 2>&1 ||
  { cat asan-tests.log; exit 1; }
grep -E "tests passed" asan-tests.log | sed 's/^/under ASan+UBSan: /'
# fault injection without CUDA (issue 22; docs/HARDENING.md): each output file's write and rename fail
cmake -S . -B build-fault-cpu -DGPUMEM_CUDA=OFF -DGPUMEM_FAULT=ON >/dev/null
cmake --build build-fault-cpu -j"$(nproc)" --target gpumem >fault-build.log 2>&1 || { cat fault-build.log; exit 1; }
ctest --test-dir build-fault-cpu --output-on-failure -R '^fault_fs$'
# run --mpi: the pure-C tier with MPI, four ranks on this CPU machine (tests/mpi/mpi4.sh)
BUILD_DIR=build-mpi GPUMEM_CUDA=OFF GPUMEM_MPI=ON bash scripts/build.sh
ctest --test-dir build-mpi --output-on-failure -L mpi
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
