#!/usr/bin/env bash
# One device call (issue 25, items 1, 3 and 6): FMA ceilings, the gemm ladder's last steps with cuBLAS,
# memcheck on the new versions, mixbench. Run from the repository root on the GPU machine with the
# binary carried in .carry/fp16 (scripts/carry_gpu.sh) and mixbench in .carry/peers.
set -u
G=.carry/fp16/gpumem
O=${OUT:-/tmp/out}
mkdir -p "$O"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit --format=csv;
  cat .carry/fp16/COMMIT; } >"$O/env.txt" 2>&1
$G run roofline.fma_fp32 roofline.fma_fp64 roofline.fma_fp16x2 roofline.fma_bf16x2 --json "$O/roof.json" >"$O/roof.txt" 2>&1
c=""
for sh in 4096 8192 3001 32768x128x1024; do
  for v in v9_grouped v11_lean v12_splittail v13_lean_rows v14_splittail_rows ref_cublas; do c="$c gemm.${v}_$sh"; done
done
$G run $c gemm.v13_lean_rows_1024 gemm.v14_splittail_rows_1024 gemm.ref_cublas_1024 --json "$O/gemm.json" >"$O/gemm.txt" 2>&1
timeout 40 compute-sanitizer --tool memcheck $G run gemm.v13_lean_rows_1024 gemm.v14_splittail_rows_1024 \
  gemm.v14_splittail_rows_3001 --reps 1 >"$O/memcheck.txt" 2>&1; echo "exit $?" >>"$O/memcheck.txt"
timeout 120 .carry/peers/mixbench-cuda >"$O/mixbench.txt" 2>&1; echo "exit $?" >>"$O/mixbench.txt"
