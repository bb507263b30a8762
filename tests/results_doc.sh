#!/usr/bin/env bash
# docs/RESULTS.md is what scripts/results_doc.py writes from the newest committed suites (never by hand).
# usage: results_doc.sh GPUMEM SOURCE_DIR
set -euo pipefail
bin=$(readlink -f "${1:?usage: results_doc.sh GPUMEM SOURCE_DIR}")
cd "${2:?usage: results_doc.sh GPUMEM SOURCE_DIR}"
command -v git >/dev/null && [ -e .git ] || { echo "skipped: not a git checkout"; exit 77; }
[ -d results ] || { echo "skipped: no results/ folder (nothing to index)"; exit 77; }
python3 scripts/results_doc.py "$bin" --check
