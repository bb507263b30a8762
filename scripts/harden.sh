#!/usr/bin/env bash
# The hardening stages, after the README's test command (.ci/run runs both; docs/HARDENING.md):
# a bounded fuzz run of every target, the pure-C tier under AddressSanitizer + UBSan with leak checking, fault
# injection of the output files, `run --mpi` with four ranks, the report in headless Chromium, explain
# --suggest's kernels through nvcc, the Debian package, and the CPU benchmarks (printed, never failed on time).
# Needs the build folder scripts/test.sh made (BUILD_DIR, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
stage() { echo "== $1 ($(date +%T))"; }
stage "fuzz: every target for ${GPUMEM_FUZZ_SECONDS:-30} s, one a core (fuzz/run.sh)"
GPUMEM_FUZZ_JOBS=${GPUMEM_FUZZ_JOBS:-$(nproc)} bash fuzz/run.sh "${GPUMEM_FUZZ_SECONDS:-30}" >fuzz-run.log 2>&1 || {
  tail -40 fuzz-run.log
  echo "error: fuzz/run.sh failed: the fuzz target did not build, or the fuzzer found a crash (fuzz-run.log; a reproducer lands in fuzz/out/)" >&2
  exit 1
}
grep -E '^fuzz_[a-z]+: ' fuzz-run.log
# the pure-C tier and the CLI under AddressSanitizer + UBSan with leak checking (issue 22): the unit and CLI
# tests, the fuzz seeds and crashes replayed, every committed run file through every command that reads one
# (tests/harden/runfiles.sh). Not here: launch_golden (~1000 whole-launch predictions, minutes under ASan; the other builds run it).
stage "ASan + UBSan"
CC=clang cmake -S . -B build-asan -DGPUMEM_CUDA=OFF -DGPUMEM_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j"$(nproc)" >asan-build.log 2>&1 || { cat asan-build.log; exit 1; }
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j2 -L unit -E '^launch_golden$' >asan-tests.log 2>&1 ||
  { cat asan-tests.log; exit 1; }
grep -E "tests passed" asan-tests.log | sed 's/^/under ASan+UBSan: /'
stage "fault injection without CUDA: each output file's write and rename fail"
cmake -S . -B build-fault-cpu -DGPUMEM_CUDA=OFF -DGPUMEM_FAULT=ON >/dev/null
cmake --build build-fault-cpu -j"$(nproc)" --target gpumem >fault-build.log 2>&1 || { cat fault-build.log; exit 1; }
ctest --test-dir build-fault-cpu --output-on-failure -R '^fault_fs$'
stage "run --mpi: the pure-C tier with MPI, four ranks on this CPU machine (tests/mpi/mpi4.sh)"
BUILD_DIR=build-mpi GPUMEM_CUDA=OFF GPUMEM_MPI=ON GPUMEM_TARGETS=gpumem bash scripts/build.sh
ctest --test-dir build-mpi --output-on-failure -L mpi
stage "the report in headless Chromium, explain --suggest's kernels through nvcc, the package, a 100 MB run file"
ctest --test-dir "$build" --output-on-failure -j2 -L 'browser|nvcc|package|scale'
stage "CONTRIBUTING.md's recipes, followed in a copy of the tree (tests/recipes/)"
ctest --test-dir "$build" --output-on-failure -L recipe
stage "CPU benchmarks (scripts/bench/cpu.sh)"
bash scripts/bench/cpu.sh "$build/gpumem"
stage "done"
