#!/usr/bin/env bash
# One device call (issue 25, items 3 and 6): FMA ceilings, gemm ladder tail with cuBLAS, memcheck, mixbench.
# Run from the repository root on the GPU machine with the binary carried in .carry/fp16 and mixbench in .carry/peers.
set -u
G=.carry/fp16/gpumem
O=${OUT:-/tmp/out}
mkdir -p "$O"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit --format=csv;
  cat .carry/fp16/COMMIT; } >"$O/env.txt" 2>&1
$G run roofline.fma_fp32 roofline.fma_fp64 roofline.fma_fp16x2 roofline.fma_bf16x2 --json "$O/roof.json" >"$O/roof.txt" 2>&1
$G run gemm.v9_grouped_4096 gemm.v11_lean_4096 gemm.v12_splittail_4096 gemm.ref_cublas_4096 \
  gemm.v9_grouped_8192 gemm.v11_lean_8192 gemm.v12_splittail_8192 gemm.ref_cublas_8192 \
  gemm.v9_grouped_3001 gemm.v11_lean_3001 gemm.v12_splittail_3001 gemm.ref_cublas_3001 \
  gemm.v9_grouped_32768x128x1024 gemm.v11_lean_32768x128x1024 gemm.v12_splittail_32768x128x1024 \
  gemm.ref_cublas_32768x128x1024 gemm.v11_lean_1024 gemm.v12_splittail_1024 gemm.ref_cublas_1024 \
  --json "$O/gemm.json" >"$O/gemm.txt" 2>&1
timeout 40 compute-sanitizer --tool memcheck $G run gemm.v11_lean_1024 gemm.v12_splittail_1024 \
  gemm.v12_splittail_3001 --reps 1 >"$O/memcheck.txt" 2>&1; echo "exit $?" >>"$O/memcheck.txt"
timeout 120 .carry/peers/mixbench-cuda >"$O/mixbench.txt" 2>&1; echo "exit $?" >>"$O/mixbench.txt"
$G run roofline.fma_fp16x2 roofline.fma_bf16x2 --json "$O/roof2.json" >"$O/roof2.txt" 2>&1
