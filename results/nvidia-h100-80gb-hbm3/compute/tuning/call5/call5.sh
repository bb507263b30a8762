#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")"
for x in 0 1 0; do echo "== GM_PF_EXP=$x"; GM_PF_EXP=$x ./gpumem run gemm.v10_prefetch --reps 10 2>&1 | grep -E "^gemm|fail|FAIL"; done > $OUT/pf.txt
./gpumem run gemm.v9_grouped gemm.ref_cublas_4096 gemm.ref_cublas_8192 --reps 10 2>&1 | grep -E "^gemm" >> $OUT/pf.txt
