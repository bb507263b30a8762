#!/usr/bin/env bash
# Every file path that the source, the docs, the README and CONTRIBUTING name under docs/, src/, include/,
# tests/, scripts/, data/ or fuzz/ exists (patterns with <name>, *, NAME or S are templates, not paths; paths
# under results/ and docs/log/ are history, named as they were).
# usage: docs_paths.sh SOURCE_DIR
set -uo pipefail
cd "${1:?usage: docs_paths.sh SOURCE_DIR}"
command -v git >/dev/null && [ -e .git ] || { echo "skipped: not a git checkout"; exit 77; }
files=$(git ls-files src include docs README.md CONTRIBUTING.md scripts tests fuzz cmake CMakeLists.txt .ci |
  grep -v '^docs/log/' | grep -vE '\.(gz|json|tsv|csv|txt)$')
# not paths of this tree: the Sanitizer API's header (a dependency), the planted family (in the recipe's copy)
external='^(include/sanitizer[a-z_]*\.h|src/families/planted/.*)$'
# templates: a placeholder in capitals where a name goes (data/datasheets/NAME.json, sealed-S.tsv)
template='(^|[/_-])(NAME|SKU|GPU|N|S|X)\.[a-z]'
missing=$(grep -ohE '(^|[^A-Za-z0-9_./$}-])(docs|src|include|tests|scripts|data|fuzz)/[A-Za-z0-9_./-]+\.(md|c|h|cu|cuh|sh|py|json\.gz|json|tsv|def|cmake)([^A-Za-z0-9_]|$)' \
    $files 2>/dev/null | sed -E 's#^[^dsitf]##; s#[^A-Za-z0-9_]$##' | sort -u | grep -vE "$external" | grep -vE "$template" |
    while read -r p; do [ -e "$p" ] || echo "$p"; done)
if [ -n "$missing" ]; then
  echo "paths named in the tree that do not exist:"
  for p in $missing; do echo "  $p  (named in: $(grep -rlF "$p" $files | head -3 | tr '\n' ' '))"; done
  exit 1
fi
# a doc is text a person reads: one over 1 MB is an accident (an edit that once put a paragraph between every
# character of docs/TRACE.md made it 40 MB, and every path in it still existed)
big=$(git ls-files docs README.md CONTRIBUTING.md | while read -r f; do [ "$(stat -c %s "$f")" -gt 1000000 ] && echo "$f"; done)
if [ -n "$big" ]; then
  echo "docs over 1 MB (an accident?): $big"
  exit 1
fi
echo "docs paths: every named path exists"
