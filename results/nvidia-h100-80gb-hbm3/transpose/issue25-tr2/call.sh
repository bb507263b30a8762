# transpose call (issue 25 item 5), prepared 2026-11-25 23:20 UTC and NOT run (see COMMANDS.md): candidates v10-v12
# beside v9 and the copies of the same matrices, three runs back to back (~20 s), then (FULL=1) Nsight Compute and
# the sanitizers (~50 s more). Run from the repository root on the GPU machine: B=<gpumem> OUT=<dir> bash call.sh
set -u
B=${B:-.carry/tr/gpumem}  # any build of 946c5a1 or later
W=$(mktemp -d)
pack() { tar czf $OUT/tr.tgz -C $W . ; }
nvidia-smi -L > $W/gpu.txt
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $W/gpu.txt
date -u +%FT%TZ >> $W/gpu.txt; { cat "$(dirname "$B")/COMMIT" 2>/dev/null || echo "COMMIT unknown"; } >> $W/gpu.txt
CASES="transpose.copy_b16 transpose.copy_b16_ragged transpose.copy_b16_a8 transpose.copy_b4_ragged transpose.copy_b4_a8
 transpose.v9_rows transpose.v9_rows_ragged transpose.v9_rows_a8 transpose.v10_rows8_ragged transpose.v10_rows8_a8
 transpose.v11_lean transpose.v11_lean_ragged transpose.v11_lean_a8 transpose.v12_async transpose.v12_async_ragged transpose.v12_async_a8
 transpose.v5_vec16_a8 transpose.v3_padded_4r_a8"
for n in 1 2 3; do ( time timeout 40 $B run $CASES --json $W/tr$n.json ) > $W/tr$n.txt 2>&1; done; pack
[ "${FULL:-0}" = 1 ] || exit 0
M=smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for c in "transpose.v12_async_ragged tr_rows_async" "transpose.v9_rows_ragged tr_rows" "transpose.v11_lean_ragged tr_rows_lean"; do
  set -- $c
  timeout 25 ncu --clock-control none --csv --page raw --print-units base --metrics $M --kernel-name "regex:$2" \
    --launch-skip 1 --launch-count 1 $B run "$1" --reps 1 --size 1G 2>/dev/null | grep -E '^"(ID|[0-9])' | sed "s/^/\"$1\",/" >> $W/ncu_tr.csv
done; pack
{ timeout 30 compute-sanitizer --tool memcheck $B run transpose.v12_async_ragged transpose.v12_async_a8 transpose.v12_async transpose.v11_lean_ragged --reps 1 --size 64M 2>&1 | tail -10
  timeout 20 compute-sanitizer --tool racecheck $B run transpose.v12_async_ragged --reps 1 --size 16M 2>&1 | tail -5; } > $W/sanitizer.txt; pack
ls -la $W
