#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")"
./gpumem run roofline.fma --json $OUT/roof.json > $OUT/roof.txt 2>&1
./gpumem run gemm.v9 gemm.v10 gemm.ref_cublas --json $OUT/gemm.json > $OUT/gemm.txt 2>&1; echo "rc $?" >> $OUT/gemm.txt
timeout 120 compute-sanitizer --tool memcheck ./gpumem run gemm.v10_tma_3001 --reps 1 > $OUT/memcheck.txt 2>&1; echo "rc $?" >> $OUT/memcheck.txt
timeout 90 ncu --clock-control none --nvtx --nvtx-include "gemm.v10_tma_4096/" -c 1 --section WarpStateStats --section SchedulerStats --section SpeedOfLight --section LaunchStats ./gpumem run gemm.v10_tma_4096 --reps 1 > $OUT/ncu.txt 2>&1
