#!/usr/bin/env bash
# results/INDEX.md is what scripts/results_index.py writes from the committed run documents: a run added or
# pruned without regenerating it fails here (fix: python3 scripts/results_index.py, then commit INDEX.md).
set -euo pipefail
cd "${1:?usage: results_index.sh SOURCE_DIR}"
command -v git >/dev/null && [ -e .git ] || { echo "skipped: not a git checkout"; exit 77; }
[ -d results ] || { echo "skipped: no results/ folder (nothing to index)"; exit 77; }
python3 scripts/results_index.py --check
