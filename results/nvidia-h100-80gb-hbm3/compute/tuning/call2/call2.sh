#!/usr/bin/env bash
set -uo pipefail
cd "$(dirname "$0")"
./fma_exp > $OUT/fma_exp.txt 2>&1
for x in 0 1 2 3 4 5 6 7 8 0; do
  echo "== GM_GEMM_EXP=$x"
  GM_GEMM_EXP=$x ./gpumem run gemm.v9_grouped_4096 gemm.v9_grouped_8192 --reps 10 2>&1 | grep -E "^gemm|fail|error"
done > $OUT/gemm_exp.txt 2>&1
./gpumem run gemm.ref_cublas_4096 gemm.ref_cublas_8192 --reps 10 2>&1 | grep -E "^gemm" >> $OUT/gemm_exp.txt
