#!/usr/bin/env bash
# README command 2: build, run every test (GPU tests skip without a GPU), then
# a bounded fuzz run of the expression parser and model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
bash fuzz/run.sh "${GPUMEM_FUZZ_SECONDS:-60}"
