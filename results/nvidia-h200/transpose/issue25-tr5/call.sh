# transpose call (issue 25 item 5, fourth pass: the read neighbours' launch order), prepared 2026-11-26 by helper "transpose2".
# Run from the repository root on the GPU machine, an H200 first, then an H100 (the same command):
#   B=<gpumem built from commit 1746a15 or later> OUT=<dir> bash results/nvidia-h200/transpose/issue25-tr5/call.sh
# Stages (expected wall time on an H200, ~25 s in all; an H100 a little longer):
#   three runs back to back of 15 cases at the default size (~3 s each: one run of 22 such cases took 3.1 s in issue25-tr4);
#   one run of v15, v17, v18 at --size 20M (side 2240: 35 tile columns, so the last group of 4 / 8 is partial: the
#   blocks past the matrix must store nothing; every case validated) (~3 s);
#   SAN=1 (default on): memcheck over v17/v18 ragged and a8 at 20M, racecheck over v17_ragged at 20M (~10 s).
# Every stage has a timeout (15 s a run, 15 + 12 s the sanitizers): at most ~85 s if all of them ran out.
# No Nsight Compute: the three shapes' times decide. Everything lands in $OUT/tr.tgz.
# What it should show, and the prediction: docs/families/transpose.md, "fourth pass" (written before it ran);
# python3 results/nvidia-h200/transpose/issue25-tr4/shares.py DIR/tr[123].txt prints each case over copy_b16 of its shape.
set -u
B=${B:-.carry/tr/gpumem}
W=$(mktemp -d)
pack() { tar czf $OUT/tr.tgz -C $W . ; }
nvidia-smi -L > $W/gpu.txt
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $W/gpu.txt
date -u +%FT%TZ >> $W/gpu.txt; { cat "$(dirname "$B")/COMMIT" 2>/dev/null || echo "COMMIT unknown"; } >> $W/gpu.txt
# the copies (ceilings), v9 (the default suite's ragged case, launched along the tile columns), v15 (the best on the H200
# in issue25-tr4, launched down the tile rows), and the candidates v17/v18 (v15's kernel across groups of 4 / 8 tile columns)
CASES="transpose.copy_b16 transpose.copy_b16_ragged transpose.copy_b16_a8
 transpose.v9_rows transpose.v9_rows_ragged transpose.v9_rows_a8
 transpose.v15_lean5_down transpose.v15_lean5_down_ragged transpose.v15_lean5_down_a8
 transpose.v17_group4 transpose.v17_group4_ragged transpose.v17_group4_a8
 transpose.v18_group8 transpose.v18_group8_ragged transpose.v18_group8_a8"
for n in 1 2 3; do ( time timeout 15 $B run $CASES --json $W/tr$n.json ) > $W/tr$n.txt 2>&1; done; pack
# a grid whose last group of tile columns is partial (35 columns): validated like every case
( time timeout 15 $B run transpose.v15_lean5_down transpose.v15_lean5_down_ragged transpose.v15_lean5_down_a8 \
  transpose.v17_group4 transpose.v17_group4_ragged transpose.v17_group4_a8 \
  transpose.v18_group8 transpose.v18_group8_ragged transpose.v18_group8_a8 --size 20M --reps 3 ) > $W/tr_20M.txt 2>&1; pack
if [ "${SAN:-1}" = 1 ]; then
  { timeout 15 compute-sanitizer --tool memcheck $B run transpose.v17_group4_ragged transpose.v17_group4_a8 transpose.v18_group8_ragged transpose.v18_group8_a8 --reps 1 --size 20M 2>&1 | tail -10
    timeout 12 compute-sanitizer --tool racecheck $B run transpose.v17_group4_ragged --reps 1 --size 20M 2>&1 | tail -5; } > $W/sanitizer.txt
  pack
fi
ls -la $W
