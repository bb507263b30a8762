# gemm call (issue 25 item 6, helper "gemm"): v16..v18 (FFMA order) beside v9, v14 and cuBLAS, twice; ncu on v9, v16..v18; sanitizers
set -u
B=.carry/gemm/gpumem
W=$(mktemp -d)
pack() { tar czf $OUT/gemm2.tgz -C $W . ; }
nvidia-smi -L > $W/gpu.txt
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >> $W/gpu.txt
date -u +%FT%TZ >> $W/gpu.txt; cat .carry/gemm/COMMIT >> $W/gpu.txt
C="gemm.v9_grouped_4096 gemm.v16_serp_4096 gemm.v17_cols_4096 gemm.v18_pairs_4096 gemm.ref_cublas_4096 gemm.v9_grouped_8192 gemm.v16_serp_8192 gemm.v17_cols_8192 gemm.v18_pairs_8192 gemm.ref_cublas_8192 gemm.v9_grouped_3001 gemm.v14_splittail_rows_3001 gemm.v16_serp_3001 gemm.v17_cols_3001 gemm.v18_pairs_3001 gemm.ref_cublas_3001"
for n in 1 2; do ( time timeout 40 $B run $C --full --json $W/gemm$n.json ) > $W/gemm$n.txt 2>&1; pack; done
G=smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,gpu__time_duration.sum,launch__registers_per_thread
for c in v9_grouped v16_serp v17_cols v18_pairs; do
  timeout 20 ncu --clock-control none --csv --page raw --print-units base --metrics $G --kernel-name "regex:gemm_warptile" \
    --launch-skip 1 --launch-count 1 $B run gemm.${c}_4096 --full --reps 2 2>&1 | grep -E '^"(ID|[0-9])' | sed "s/^/\"$c\",/" >> $W/ncu_gemm.csv
done; pack
{ timeout 25 compute-sanitizer --tool memcheck $B run gemm.v16_serp_1024 gemm.v17_cols_1024 gemm.v18_pairs_1024 --full --reps 1 2>&1 | tail -8
  timeout 25 compute-sanitizer --tool racecheck $B run gemm.v16_serp_1024 gemm.v17_cols_1024 gemm.v18_pairs_1024 --full --reps 1 2>&1 | tail -5; } > $W/sanitizer.txt; pack
ls -la $W
