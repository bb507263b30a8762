#!/usr/bin/env bash
# README command 1: build, then run the default suite (results in results-local/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p results-local
exec ./build/gpumem run --json results-local/run.json --csv results-local/run.csv "$@"
