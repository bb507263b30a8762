#!/usr/bin/env bash
# results/ stays lean (issue 23): the committed results travel to the GPU machine on
# every device call (64 MiB limit with the build), so their files may sum to at most
# 20 MB (RESULTS_LIMIT_BYTES overrides). In a git checkout the tracked files under
# results/ count (apparent sizes, as `git ls-files -z results | xargs -0 du -cb`);
# outside one (a source tarball), every file of the folder. Fails naming the largest
# files; prune superseded runs (git keeps them) or gzip documents (gpumem reads .json.gz).
# The disk counts too: each file takes whole 4 KiB blocks, and the before-stop hook (`du -sm results`) and the
# device tool's copy see blocks and files, not apparent bytes (1626 small files once took 23 MB on disk for
# 18.5 MB of bytes), so the files' sizes rounded up to 4 KiB may sum to at most the same limit; pack small
# text outputs (scripts/results_pack.py) when that fails.
# Usage: results_size.sh [SOURCE_ROOT]
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
limit=${RESULTS_LIMIT_BYTES:-20000000}
cd "$root"
if [ ! -d results ]; then
  echo "no results/ folder under $root: nothing to count"
  exit 0
fi
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# "SIZE<TAB>PATH" per file; a tracked file deleted from the work tree counts 0
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   [ "$(git rev-parse --show-toplevel)" = "$(pwd -P)" ]; then
  how="tracked files (git ls-files)"
  { git ls-files -z results | xargs -0 -r stat -c "$(printf '%%s\t%%n')" -- 2>/dev/null || true; } >"$list"
else
  how="files of the folder (no git checkout)"
  find results -type f -printf '%s\t%p\n' >"$list"
fi
total=$(awk -F'\t' '{s += $1} END {printf "%d", s}' "$list")
blocks=$(awk -F'\t' '{s += int(($1 + 4095) / 4096) * 4096} END {printf "%d", s}' "$list")
files=$(wc -l <"$list")
mb() { awk -v b="$1" 'BEGIN {printf "%.1f MB", b / 1e6}'; }
if [ "$total" -le "$limit" ] && [ "$blocks" -le "$limit" ]; then
  echo "results/: $(mb "$total") in $files $how ($(mb "$blocks") in 4 KiB blocks), limit $(mb "$limit")"
  exit 0
fi
echo "error: results/ holds $(mb "$total") in $files $how, $(mb "$blocks") in 4 KiB blocks: over the limit of $(mb "$limit")." >&2
echo "The largest files (prune superseded runs: git keeps them; gzip run documents: gpumem reads .json.gz;" >&2
echo "many small files: scripts/results_pack.py packs the text outputs nothing names):" >&2
sort -t "$(printf '\t')" -k1,1nr "$list" | head -n 15 |
  awk -F'\t' '{printf "  %9.1f KB  %s\n", $1 / 1e3, $2}' >&2
exit 1
