#!/usr/bin/env bash
# lead call 1: roofline operands, matvec variants, gemm v9/v10, ncu stall reasons, mixbench
set -uo pipefail
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/env.txt
./gpumem run roofline matvec copy.read_b16_tile4 --json $OUT/rm.json > $OUT/rm.txt 2>&1; echo "rc $?" >> $OUT/rm.txt
./gpumem run gemm.v7 gemm.v8 gemm.v9 gemm.v10 gemm.ref_cublas --json $OUT/gemm.json > $OUT/gemm.txt 2>&1; echo "rc $?" >> $OUT/gemm.txt
../peers/mixbench-cuda > $OUT/mixbench.txt 2>&1
for c in gemm.v8_warptile8x16_s3_4096 gemm.v10_tile256x128_4096 gemm.ref_cublas_4096; do
  timeout 120 ncu --clock-control none --nvtx --nvtx-include "$c/" -c 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section SpeedOfLight --section MemoryWorkloadAnalysis ./gpumem run $c --reps 1 2>&1 | grep -v "^==PROF==" 
done > $OUT/ncu.txt 2>&1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv >> $OUT/env.txt
