#!/usr/bin/env bash
# Every suggest development set's committed `explain --suggest --run` call re-predicted by BIN
# (scripts/suggest_repredict.py, no GPU); dev-s38: its ten patterns measured again at 3a25276 (devh/), as h51s scored it, one table a set under OUTDIR, then suggest_sides.py over them all.
# usage: scripts/lab/suggest_dev_all.sh BIN OUTDIR
set -uo pipefail
bin=$(readlink -f "$1") out=$(mkdir -p "$2" && readlink -f "$2")
cd "$(dirname "$0")/../.."
h2=results/nvidia-h200 ts=tests/suggest
sets=(
  dev-s38 $h2/suggest-3a25276/devh
  dev-s38b $h2/suggest-3a25276/devk
  dev-s39 $h2/suggest-3a25276/heldout
  patterns-2026-11-29 $h2/suggest-3a25276/dev
  dev-s40 $h2/suggest-1ff77a7/heldout
  dev-s41 $h2/suggest-2fc4302/heldout
  dev-s42 $h2/suggest-61339a3/heldout
  dev-s43 $h2/suggest-8b1a6bd/heldout
  dev-s44 $h2/suggest-5fef697/heldout
  dev-s45 $h2/suggest-e1ee178/heldout
  dev-s46 $h2/suggest-800c3ed/heldout
  dev-s47 $h2/suggest-93d0b55/heldout
  dev-s48 $h2/suggest-20ef76f/heldout
  dev-s49 $h2/suggest-f048626/heldout
  dev-s50 $h2/suggest-3e03402/heldout
  dev-s51 $h2/suggest-a4fa7e2/heldout
  dev-s52 $h2/suggest-d7da685/heldout
  dev-s53 $h2/suggest-fac3346/heldout
  dev-s54 $h2/suggest-cdb1b27/heldout
  dev-s55 $h2/suggest-1b54c47/heldout
  dev-s56 $h2/suggest-e233f7f/heldout
  dev-s57 $h2/suggest-3272f77/heldout
  dev-s58 $h2/suggest-bee4e4c/heldout
  dev-s59 $h2/suggest-427bb0d/heldout
  dev-s60 $h2/suggest-5e8cd5e/heldout
  dev-s61 $h2/suggest-51cc4d1/heldout
  dev-s62 $h2/suggest-d16eeaa/heldout
  dev-s63 $h2/suggest-af9a8ea/heldout
  dev-s64 $h2/suggest-7c8e392/heldout-s64
  dev-s65 $h2/suggest-7c8e392/heldout-s65
  dev-s66 $h2/suggest-09db49d/heldout
  dev-s67 $h2/suggest-7918ee4/heldout-s67
  dev-s68 $h2/suggest-7918ee4/heldout-s68
  dev-s69 $h2/suggest-d25f2b9/heldout
  dev-s70 $h2/suggest-d25f2b9/heldout-s70
  dev-s71 $h2/suggest-d25f2b9/heldout-s71
  dev-s72 $h2/suggest-d25f2b9/heldout-s72
  dev-s73 $h2/suggest-3a7451b/heldout-s73
  dev-s74 $h2/suggest-3a7451b/heldout-s74
  dev-s75 $h2/suggest-3a7451b/heldout-s75
)
for ((i = 0; i < ${#sets[@]}; i += 2)); do
  s=${sets[i]} d=${sets[i+1]}
  python3 scripts/suggest_repredict.py "$bin" "$d" "$ts/$s.tsv" >"$out/$s.md" 2>"$out/$s.err" &
  (( (i / 2) % 2 == 1 )) && wait
done
wait
for ((i = 0; i < ${#sets[@]}; i += 2)); do
  echo "${sets[i]}: $(grep -i 'now' "$out/${sets[i]}.md" | tail -2 | tr '\n' ' ')"
done
python3 scripts/suggest_sides.py "$out"/*.md >"$out/sides.txt"
