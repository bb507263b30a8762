# transpose call (issue 25 item 5, third pass: the launch order), prepared 2026-11-26 by helper "transpose".
# Run from the repository root on the GPU machine (H200 first; an H100 after it if time allows):
#   B=<gpumem built from this commit or later> OUT=<dir> bash results/nvidia-h200/transpose/issue25-tr4/call.sh
# Stages (expected wall time on an H200): three runs back to back of 22 cases (~15 s); FULL=1 adds Nsight Compute on
# one launch each of v9 and v13 on the ragged and a8 shapes and of v9 on the square (~40 s); SAN=1 adds memcheck and
# racecheck on v13-v16 (~20 s). FULL=1 SAN=1 together: ~75 s. Everything lands in $OUT/tr.tgz.
# What it should show, and the prediction: docs/families/transpose.md, "Issue 25 item 5, third pass" (written before it ran).
set -u
B=${B:-.carry/tr/gpumem}
W=$(mktemp -d)
pack() { tar czf $OUT/tr.tgz -C $W . ; }
nvidia-smi -L > $W/gpu.txt
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $W/gpu.txt
date -u +%FT%TZ >> $W/gpu.txt; { cat "$(dirname "$B")/COMMIT" 2>/dev/null || echo "COMMIT unknown"; } >> $W/gpu.txt
# the copies (ceilings), v9 and v11 (launched along the tile columns), v13-v15 (the same tiles launched down the tile
# rows), v16 (down panels of 8 tile rows), and the controls already launched down the tile rows: v7_shift (ragged, a8) and v5_vec16 (a8)
CASES="transpose.copy_b16 transpose.copy_b16_ragged transpose.copy_b16_a8
 transpose.v9_rows transpose.v9_rows_ragged transpose.v9_rows_a8 transpose.v11_lean_ragged
 transpose.v13_down transpose.v13_down_ragged transpose.v13_down_a8
 transpose.v14_lean_down transpose.v14_lean_down_ragged transpose.v14_lean_down_a8
 transpose.v15_lean5_down transpose.v15_lean5_down_ragged transpose.v15_lean5_down_a8
 transpose.v16_panel transpose.v16_panel_ragged transpose.v16_panel_a8
 transpose.v7_shift_ragged transpose.v7_shift_a8 transpose.v5_vec16_a8"
for n in 1 2 3; do ( time timeout 40 $B run $CASES --json $W/tr$n.json ) > $W/tr$n.txt 2>&1; done; pack
if [ "${FULL:-0}" = 1 ]; then
  # the diagnosis: v9 and v13 move the same DRAM bytes and L2 sectors and issue the same instructions; only the time
  # (and the DRAM throughput) should differ, on the ragged and a8 shapes; v9 on the square is the same code without split lines
  M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  for c in "transpose.v9_rows_ragged tr_rows" "transpose.v13_down_ragged tr_rows" "transpose.v9_rows_a8 tr_rows" \
           "transpose.v13_down_a8 tr_rows" "transpose.v9_rows tr_rows"; do
    set -- $c
    timeout 25 ncu --clock-control none --csv --page raw --print-units base --metrics $M --kernel-name "regex:$2" \
      --launch-skip 1 --launch-count 1 $B run "$1" --reps 1 --size 1G 2>/dev/null | grep -E '^"(ID|[0-9])' | sed "s/^/\"$1\",/" >> $W/ncu_tr.csv
  done
  # for a later pass: which DRAM / frame-buffer counters this ncu knows (row activations, if any)
  timeout 10 ncu --query-metrics 2>/dev/null | grep -iE '^(dram|fbpa|fbp)__' > $W/dram_metric_names.txt
  pack
fi
if [ "${SAN:-0}" = 1 ]; then
  { timeout 30 compute-sanitizer --tool memcheck $B run transpose.v13_down_ragged transpose.v13_down_a8 transpose.v14_lean_down_ragged transpose.v15_lean5_down_ragged transpose.v15_lean5_down transpose.v16_panel_ragged transpose.v16_panel_a8 --reps 1 --size 16M 2>&1 | tail -10
    timeout 20 compute-sanitizer --tool racecheck $B run transpose.v13_down_ragged transpose.v16_panel_ragged --reps 1 --size 16M 2>&1 | tail -5; } > $W/sanitizer.txt
  pack
fi
ls -la $W
