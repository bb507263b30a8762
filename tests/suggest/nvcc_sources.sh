#!/usr/bin/env bash
# nvcc_sources.sh GPUMEM - every kernel `explain --suggest --source` generates for a transpose (load
# and store; one with a pitch and an offset; one past 32-bit indices: tile_wide's long long path), a
# strided gather and a strided scattered store (their layouts), 1-byte elements, a block-local interleave
# and a bank-conflicted shared tile compiles with nvcc -arch=sm_90 -c (what NVRTC compiles on the GPU).
# 77 (skip) without nvcc or without a CUDA build.
set -uo pipefail
bin=$(readlink -f "$1")
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "skip: no nvcc"; exit 77; }
"$bin" explain --source 0 >/dev/null 2>&1 || { echo "skip: built without CUDA"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while IFS= read -r args; do
  eval "\"$bin\" explain --suggest --source $args" >"$tmp/all_$i.txt" || { echo "FAIL: --source $args"; exit 1; }
  # one file a rewrite: each defines gm_x_run
  awk -v dir="$tmp" -v i="$i" '/^\/\/ ---- /{k++; f=sprintf("%s/s%d_%d.cu", dir, i, k);
       print "#include <cuda_runtime.h>\n#include <vector_types.h>\n#include <vector_functions.h>" > f; next}
       k {print > f}' "$tmp/all_$i.txt"
  i=$((i + 1))
done <<'ROWS'
--n 16777216 '(gid%4096)*4096 + gid/4096'
--n 16777216 --op store '(gid%4096)*4096 + gid/4096'
--n 20000 --op store '(gid%100)*204 + gid/100 + 12'
--n 4294967296 --op store '(gid%65536)*65536 + gid/65536'
--n 16777216 'gid*8'
--n 16777216 --op store 'gid*8'
--bytes 1 gid
--bytes 2 --n 16777216 'n - 1 - gid'
--n 16777216 --op store 'n - 1 - gid'
--n 16777216 '(gid%1024)*4097 + gid/1024'
--block 32,8 --n 67108864 '(bx % 256 * 32 + tx) * 8192 + bx / 256 * 8 + ty'
--block 16,16 --n 67108864 --op store '(bx % 512 * 16 + tx) * 8192 + bx / 512 * 16 + ty'
'bx*256 + (tid%32)*8 + tid/32'
--space shared --block 1024 '(tid%32)*32 + tid/32'
ROWS
n=$(ls "$tmp"/s*.cu | wc -l)
# the tiles are among them (a transpose whose n is no whole number of rows lists none)
for t in tile_padded tile_xor tile_wide; do
  for f in "$tmp"/all_[0-3].txt; do
    grep -q "^// ---- $t:" "$f" || { echo "FAIL: no $t source in $(basename "$f")"; exit 1; }
  done
done
cd "$tmp" && "$nvcc" -arch=sm_90 -std=c++17 -c s*.cu || { echo "FAIL: nvcc"; exit 1; }
echo "ok: $n generated kernels compile"
