#!/usr/bin/env bash
# README command 1: build, then run the default suite (results in results-local/),
# then write the HTML report next to the JSON and print its path.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p results-local
rc=0
./build/gpumem run --json results-local/run.json --csv results-local/run.csv "$@" || rc=$?
if [ -f results-local/run.json ]; then
  ./build/gpumem report results-local/run.json -o results-local/report.html >/dev/null &&
    echo "report: $(pwd)/results-local/report.html"
fi
exit $rc
