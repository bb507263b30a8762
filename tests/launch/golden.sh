#!/usr/bin/env bash
# golden.sh REPREDICT [--update] - the launch model re-predicts committed runs with their committed profiles
# (the pairs below); every prediction (limiting level, time, GB/s, DRAM bytes read and written, L1 and L2
# sectors, each level's time; C99 hex floats, so exact) must equal tests/launch/golden.txt.
#
# It guards refactoring: a change meant to keep behaviour (moving the model's code, renaming) must leave
# this file identical. A change meant to change predictions (a new or changed rule in src/model/launch_*.c,
# a profile, a family's declared patterns) regenerates it on purpose, in the same commit:
#     cmake --build BUILD --target repredict && tests/launch/golden.sh BUILD/tests/repredict --update
# and the commit message says which cases moved (git diff --stat / the diff of golden.txt shows them).
set -uo pipefail
bin=$(readlink -f "$1")
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
# committed runs kept as fixtures (tests/fixtures/launch/: moved out of results/, so pruning results/ never
# breaks this test) with the built-in profiles (data/profiles/)
fx=tests/fixtures/launch
pairs=(
  $fx/h100-suite.json.gz data/profiles/nvidia-h100-80gb-hbm3.json
  $fx/h200-suite.json.gz data/profiles/nvidia-h200.json
  $fx/h100-launch-suite.json.gz data/profiles/nvidia-h100-80gb-hbm3.json
  $fx/h200-launch-suite.json.gz data/profiles/nvidia-h200.json
)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$bin" "${pairs[@]}" >"$tmp" || { echo "FAIL: repredict exited with an error"; exit 1; }
if [ "$update" = --update ]; then
  cat "$tmp" >"$here/golden.txt"; echo "wrote tests/launch/golden.txt: $(grep -v -c '^##' "$tmp") predictions"; exit 0
fi
if ! diff -u "$here/golden.txt" "$tmp" >"$tmp.diff"; then
  echo "FAIL: the launch model's predictions differ from tests/launch/golden.txt ($(grep -c '^+[^+]' "$tmp.diff") lines);"
  echo "if the change is meant to change predictions, regenerate it (see the top of tests/launch/golden.sh). First lines:"
  head -30 "$tmp.diff"; rm -f "$tmp.diff"; exit 1
fi
rm -f "$tmp.diff"
echo "ok: $(grep -v -c '^##' "$tmp") predictions identical"
