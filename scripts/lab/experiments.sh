#!/usr/bin/env bash
# scripts/lab/: one-off experiments of earlier sessions, kept for the record of how the launch model's rules
# were measured (docs/log/); nothing in the build, the tests or the product's GPU session reads this folder.
# Usage as scripts/gpu_session.sh: experiments.sh STAGE...
# Stages: sanitize_i25 sanitize_all transfer3 racecheck_tall round_trips unseen2_ncu ncu_pairs l2_distance
#         partial_writes strided_lines strip_interval rows_per_request streams streams2 streams3 blocks
#         ncu_l2_hits l2_lines sass ncu_gemm counters_tools
# BUILD_DIR is the build folder or what scripts/carry_gpu.sh packed (the binaries only).
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD_DIR:-build}
OUT=${OUT:-/tmp/gpumem-out}
W=${WORK_DIR:-/tmp/gpumem-work}
mkdir -p "$W"
bin=$B/gpumem
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-')

# The kernels of issue 25 (hierarchy l1 v1-v8, l2sh/l2stag, the TLB chase, transpose v7 and copy_b16, the
# paired FMAs, gemm v11-v14, the transfer family) under memcheck, racecheck (shared memory) and initcheck.
stage_sanitize_i25() {
  local cs="timeout 150 compute-sanitizer --print-limit 20"
  $cs --tool memcheck --leak-check full "$bin" run hierarchy.l1v hierarchy.l1_0128k hierarchy.l2sh_1536k \
    hierarchy.l2stag latency.tlb_0008m latency.tlb_0032m transpose.v7 transpose.copy_b16 roofline.fma_fp16x2 \
    roofline.fma_bf16x2 transfer --reps 1 --size 64M >"$W/memcheck_i25.txt" 2>&1
  tail -4 "$W/memcheck_i25.txt"
  $cs --tool memcheck --leak-check full "$bin" run gemm.v11_lean_1024 gemm.v12_splittail_1024 \
    gemm.v13_lean_rows_1024 gemm.v14_splittail_rows_1024 gemm.v14_splittail_rows_3001 --reps 1 >"$W/memcheck_i25_gemm.txt" 2>&1
  tail -4 "$W/memcheck_i25_gemm.txt"
  $cs --tool racecheck "$bin" run transpose.v7_shift_ragged transpose.copy_b16_ragged gemm.v14_splittail_rows_1024 \
    --reps 1 --size 16M >"$W/racecheck_i25.txt" 2>&1
  tail -4 "$W/racecheck_i25.txt"
  $cs --tool initcheck "$bin" run transpose.v7_shift_ragged transpose.copy_b16_ragged hierarchy.l2sh_1536k \
    --reps 1 --size 16M >"$W/initcheck_i25.txt" 2>&1
  tail -4 "$W/initcheck_i25.txt"
}

# Every case of every family (--full) under memcheck (leaks too), racecheck, initcheck and synccheck, in run's
# sanitizer mode (validation and one timed launch a case, 8 MiB arrays, shorter fixed work: docs/METHODOLOGY.md).
# Each tool is bounded (SAN_LIMITS, seconds); a stopped run still says which case it reached (its stderr lines).
# SAN_ARGS selects (default --full: every case), e.g. SAN_LIMITS=racecheck:400 SAN_ARGS="--full gemm smem matvec atomics"
# for what the 2026-11-25 run did not reach (results/nvidia-h100-80gb-hbm3/sanitize-all/summary.md).
stage_sanitize_all() {
  local t tool lim t0 rc extra
  for t in ${SAN_LIMITS:-memcheck:55 racecheck:55 initcheck:45 synccheck:30}; do
    tool=${t%%:*} lim=${t#*:} extra=""
    [ "$tool" = memcheck ] && extra="--leak-check full"
    t0=$(date +%s.%N)
    GPUMEM_SANITIZER=$tool timeout -k 10 -s INT "$lim" compute-sanitizer --tool "$tool" $extra --print-limit 200 "$bin" run ${SAN_ARGS:---full} --sanitize \
      --json "$W/san_$tool.json" >"$W/san_$tool.txt" 2>&1
    rc=$?
    echo "$tool: exit $rc in $(python3 -c "import time; print(round(time.time() - $t0, 1))") s" | tee -a "$W/san_times.txt"
    grep -E "cases in|SUMMARY" "$W/san_$tool.txt"
  done
  python3 scripts/sanitize_summary.py "$W" | tee "$W/sanitize_summary.md"
}

# The transfer family three times back to back, nvbandwidth's host copies between (stability on this unit).
stage_transfer3() {
  local P=${PEERS:-.carry/peers} k
  for k in 1 2 3; do
    "$bin" run transfer --json "$W/transfer_run$k.json" >"$W/transfer_run$k.txt" 2>&1
    grep -E "^transfer.pinned|^transfer.pageable" "$W/transfer_run$k.txt" | cut -c1-31,96-200
    [ -x "$P/nvbandwidth" ] && "$P/nvbandwidth" -i 5 -t host_to_device_memcpy_ce device_to_host_memcpy_ce \
      host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce >"$W/nvbandwidth_run$k.txt" 2>&1
    grep SUM "$W/nvbandwidth_run$k.txt"
  done
}

stage_racecheck_tall() {
  compute-sanitizer --tool racecheck "$bin" run transpose.v6 --reps 1 --size 16M >"$W/racecheck_tall.txt" 2>&1
  grep -E "cases in|SUMMARY" "$W/racecheck_tall.txt"
}

# Round trips per thread of the kernels the launch model declares them for (rule T2), from their SASS.
stage_round_trips() {
  cuobjdump -sass "$bin" 2>/dev/null | python3 scripts/lab/sass_round_trips.py tr_ copy_ | tee "$W/round_trips.txt"
}

stage_unseen2_ncu() {
  local m="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests.sum,lts__t_sectors.sum"
  m="$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed"
  m="$m,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct"
  m="$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
  m="$m,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum"
  m="$m,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
  for r in long_scoreboard lg_throttle drain wait not_selected short_scoreboard membar; do
    m="$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
  done
  while IFS=$'\t' read -r name n type block op expr; do
    case " ${UNSEEN2_NCU:-ref_gid col_r256_ld tile16x16_ld bcast_16 char_gid} " in *" $name "*) ;; *) continue ;; esac
    echo "===== $name: $op '$expr' --n $n --type $type --block $block"
    timeout 90 ncu --clock-control none -k regex:gm_x_run --launch-count 1 --metrics "$m" "$bin" explain --run \
      --no-counters --reps 1 --n "$n" --type "$type" --block "$block" --op "$op" -- "$expr" 2>&1 |
      grep -E "\.(sum|ratio|pct)"
  done < <(printf 'ref_gid\t268435456\tfloat\t256\tload\tgid\n'; cat tests/gpu/unseen2.tsv) >"$W/unseen2_ncu.txt" 2>&1
  grep -c "=====" "$W/unseen2_ncu.txt"
}

# Where the cases the launch model misses spend their time: Nsight Compute's sections for pairs of cases that
# move the same bytes (aligned vs ragged tiles, grid-stride vs one tile per block, 4 B vs 16 B stores).
stage_ncu_pairs() {
  local m="dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum"
  m="$m,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
  m="$m,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum"
  for r in long_scoreboard lg_throttle barrier membar drain mio_throttle short_scoreboard wait not_selected selected; do
    m="$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
  done
  for c in "transpose.v3_padded_4r ^tr_" "transpose.v3_padded_4r_ragged ^tr_" "transpose.copy_b4 ^copy_tile32" \
           "transpose.copy_b4_ragged ^copy_tile32" "transpose.copy_b16 ^copy_vec16" "transpose.copy_b16_ragged ^copy_vec16" \
           "rowcol.w4096_rows ^rc_rows" "rowcol.w4097_packed_rows ^rc_rows" "copy.v5_b16_ilp4 ^copy_ilp" \
           "copy.v9_b16_tile4 ^copy_tile" "copy.v3_b4_ilp4 ^copy_ilp" "copy.v8_b4_tile4 ^copy_tile" \
           "copy.write_b4_ilp4 ^write_ilp" "copy.write_b16_ilp4 ^write_ilp" "copy.read_b16_ilp4 ^read_ilp" \
           "copy.read_b16_tile4 ^read_tile" "transpose.v2_padded ^tr_" "matvec.v7_block_rows4 ^mv_block"; do
    set -- $c
    echo "===== $1"
    timeout 120 ncu --clock-control none --launch-skip 1 --launch-count 1 -k "regex:$2" --metrics "$m" \
      "$bin" run "$1" --reps 1 2>&1 | grep -vE "^==PROF==|^\s*$" | grep -E "\.(sum|ratio|pct)|Duration|^  [a-z_]" 
  done >"$W/ncu_pairs.txt" 2>&1
  grep -cE "=====" "$W/ncu_pairs.txt"
}

# How far apart two uses of one 64 B piece may be and still meet in L2 (launch model, MODEL.md 7.5): for
# distances of P threads (launch order), kernels whose threads [k 2P, k 2P + P) use one half of each piece
# of a 2P-element chunk and threads [k 2P + P, (k+1) 2P) the other half, or the same elements again:
#   sib_load   loads, the two 32 B sectors of a piece P threads apart (full sectors, half pieces)
#   sib_store  stores, the same (a store's 64 B piece written half by half)
#   half_store stores, the two 16 B halves of a 32 B sector P threads apart (partly written sectors)
#   reread     loads, every element read twice, P threads apart
stage_l2_distance() {
  local prof=() P k e
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json") # this call's calibration
  for P in ${L2_DISTANCES:-256 2048 16384 131072 262144 524288 1048576 2097152 4194304 8388608}; do
    k=$((2 * P))
    for kind in sib_load sib_store half_store reread; do
      case $kind in
        sib_load|sib_store) e="(gid/$k)*$k + ((gid%$P)/8)*16 + ((gid/$P)%2)*8 + gid%8" ;;
        half_store) e="(gid/$k)*$k + ((gid%$P)/4)*8 + ((gid/$P)%2)*4 + gid%4" ;;
        reread) e="(gid/$k)*$P + gid%$P" ;;
      esac
      op=load; [ "${kind#*_}" = store ] && op=store
      echo "=== $kind P=$P: explain --run --n 268435456 --op $op '$e'"
      "$bin" explain --run --n 268435456 --op $op "${prof[@]}" "$e" 2>&1 | grep -E "^launch|DRAM bytes|launch model|launch DRAM|error"
    done
  done
}

# One `explain --run --n 268435456` kernel with counters, named, with this call's calibration when it has one:
# xrun NAME EXPR [explain options]. scripts/lab/launch_l4_table.sh reads what it prints.
xrun() {
  local name=$1 e=$2 prof=()
  shift 2
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json")
  echo "=== $name: explain --run --n 268435456 $* '$e'"
  "$bin" explain --run --n 268435456 "$@" "${prof[@]}" "$e" 2>&1 | grep -E "DRAM bytes|launch model|launch DRAM|error"
}

# Sectors written in pieces (MODEL.md 7.5, the naive transposes): k pieces of 32/k bytes a sector from k warps of
# one block; 8 pieces P threads apart; lines completed by the 32 warps of a block (v0_naive's stores, lines
# contiguous) at offsets 0, 8 and 3 floats.
stage_partial_writes() {
  local k g P o
  for k in 1 2 4 8; do
    g=$((8 / k))
    xrun "pieces k=$k" "(gid/256)*256 + (((gid/32)%8/$k)*$((4 * k)) + (gid%32)/$g)*8 + ((gid/32)%8%$k)*$g + gid%$g" \
      --op store
  done
  for P in 256 2048 16384 131072 1048576; do
    xrun "8 pieces P=$P" "(gid/$((8 * P)))*$((8 * P)) + (gid%$P)*8 + (gid/$P)%8" --op store
  done
  for o in 0 8 3; do
    xrun "lines by 32 warps +$o" "(gid/1024)*1024 + (gid%32)*32 + (gid/32)%32 + $o" --op store --block 1024
  done
}

# v0_naive's stores and matvec.t0's loads as one access a thread, rows R floats apart: does the loss follow the
# row pitch (L2 sets) rather than the sharing? stores: block b = gid/1024 of 512 x 512, lanes on 32 rows, warps
# on 32 columns; loads: warp w of 16384 reads column w of 32 rows a step, steps in launch order.
stage_strided_lines() {
  local R
  for R in 16384 16416 16392 16385 16896 24576; do
    xrun "naive store R=$R" "(((gid/1024)%512)*32 + gid%32)*$R + ((gid/1024)/512)*32 + (gid/32)%32" \
      --op store --block 1024
  done
  for R in 16384 16416 16392; do
    xrun "column load R=$R" "((gid/524288)*32 + gid%32)*$R + (gid/32)%16384" --op load
  done
}

# The naive transpose's stores with X row blocks a strip (the next 128 B of a row comes X blocks later), rows
# R floats apart (R >= the columns): does the loss follow the time between a row's lines?
stage_strip_interval() {
  local X R d
  for X in 32 128 512 2048 8192; do
    for d in 0 8; do
      R=$((262144 / X * 32 + d))
      xrun "strips X=$X R=$R" "(((gid/1024)%$X)*32 + gid%32)*$R + ((gid/1024)/$X)*32 + (gid/32)%32" \
        --op store --block 1024
    done
  done
}

# The naive transpose's stores with a warp's 32 lanes in G rows (32/G lines of each), each line filled by the
# 32 warps of a block, 16384 rows R floats apart: does the loss follow the rows a request spans?
stage_rows_per_request() {
  local G X R d
  for G in 1 2 4 8 16 32; do
    for d in 0 8; do
      X=$((16384 / G)); R=$((16384 + d))
      xrun "rows G=$G R=$R" \
        "(((gid/1024)%$X)*$G + gid%32%$G)*$R + (((gid/1024)/$X)*$((32 / G)) + gid%32/$G)*32 + (gid/32)%32" \
        --op store --block 1024
    done
  done
}

# The stores of "lines by 32 warps" (a block of 1024 fills 32 contiguous lines, 4 B a warp a line) with the
# blocks dealt round-robin to k streams S floats apart (S = the stream's length + d): concurrent blocks write
# k places at once. k = 1 loses nothing, k = 16384 is "rows G=1". Does the loss follow the places written at
# once, and their alignment (d = 0, 8, 1 floats)? Then the blocks in a scattered order, and a coalesced control.
stage_streams() {
  local k d S
  for d in 0 8 1; do
    for k in 1 4 16 64 256 1024 4096 16384; do
      S=$((262144 / k * 1024 + d))
      xrun "streams k=$k S=$S" "((gid/1024)%$k)*$S + ((gid/1024)/$k)*1024 + (gid%32)*32 + (gid/32)%32" \
        --op store --block 1024
    done
  done
  xrun "scattered blocks" "(((gid/1024)*40503)%262144)*1024 + (gid%32)*32 + (gid/32)%32" --op store --block 1024
  xrun "scattered blocks +1" "(((gid/1024)*40503)%262144)*1025 + (gid%32)*32 + (gid/32)%32" --op store --block 1024
  xrun "coalesced k=16384" "((gid/1024)%16384)*16385 + ((gid/1024)/16384)*1024 + gid%1024" --op store --block 1024
}

# After stage streams: two streams; one stream written downwards; blocks of 256 threads (8 warps fill each
# sector of 8 lines) in 1 and 16 streams.
stage_streams2() {
  local k S
  for k in 1 2 4 16; do
    S=$((262144 / k * 1024))
    xrun "streams k=$k S=$S" "((gid/1024)%$k)*$S + ((gid/1024)/$k)*1024 + (gid%32)*32 + (gid/32)%32" \
      --op store --block 1024
  done
  xrun "one stream down" "(262143 - gid/1024)*1024 + (gid%32)*32 + (gid/32)%32" --op store --block 1024
  for k in 1 16; do
    S=$((1048576 / k * 256))
    xrun "streams of 256-thread blocks k=$k" "((gid/256)%$k)*$S + ((gid/256)/$k)*256 + (gid%32)*8 + (gid/32)%8" \
      --op store --block 256
  done
  xrun "streams k=16 S=16777217" "((gid/1024)%16)*16777217 + ((gid/1024)/16)*1024 + (gid%32)*32 + (gid/32)%32" \
    --op store --block 1024
}

# After streams2 (2 streams lose nothing, 4 lose): the number of streams or the address bits between them?
# Two streams 256 MB apart (n = 2^27), three streams, four streams 512 MB apart, eight.
stage_streams3() {
  local prof=() e
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json")
  e="((gid/1024)%2)*67108864 + ((gid/1024)/2)*1024 + (gid%32)*32 + (gid/32)%32"
  echo "=== streams k=2 n=2^27 256 MB apart: explain --run --n 134217728 --op store --block 1024 '$e'"
  "$bin" explain --run --n 134217728 --op store --block 1024 "${prof[@]}" "$e" 2>&1 | grep -E "launch model|launch DRAM|error"
  xrun "streams k=3 S=89479168" "((gid/1024)%3)*89479168 + ((gid/1024)/3)*1024 + (gid%32)*32 + (gid/32)%32" \
    --op store --block 1024
  xrun "streams k=4 S=134217728" "((gid/1024)%4)*134217728 + ((gid/1024)/4)*1024 + (gid%32)*32 + (gid/32)%32" \
    --op store --block 1024
  xrun "streams k=8 S=33554432" "((gid/1024)%8)*33554432 + ((gid/1024)/8)*1024 + (gid%32)*32 + (gid/32)%32" \
    --op store --block 1024
  xrun "streams of 256-thread blocks k=4" "((gid/256)%4)*67108864 + ((gid/256)/4)*256 + (gid%32)*8 + (gid/32)%8" \
    --op store --block 256
}

# Block size and a barrier (MODEL.md 7.5, the tiled transposes): one 4 B element a thread, `gid`, in blocks of
# 64 to 1024 threads; then the same through shared memory with a barrier (`--space shared`, tile = the block).
stage_blocks() {
  local b prof=()
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json")
  for b in 64 128 256 512 1024; do
    xrun "gid block $b" "gid" --block $b
  done
  for b in 256 1024; do
    echo "=== barrier block $b: explain --run --n 268435456 --block $b --space shared 'gid%$b'"
    "$bin" explain --run --n 268435456 --block $b --space shared "gid%$b" 2>&1 | grep -E "measured|error"
  done
  xrun "gid*1 type double block 1024" "gid" --block 1024 --type double
  xrun "gid type double block 256" "gid" --block 256 --type double
}

# L2 lookups that hit and miss for the cases whose DRAM bytes the launch model misses (MODEL.md 7.5).
stage_ncu_l2_hits() {
  local m="dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"
  m="$m,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum"
  m="$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
  m="$m,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active"
  for c in "matvec.t0_warp_col ^mv_t_warp" "transpose.v0_naive_a8 ^tr_" "transpose.v0_naive_ragged ^tr_" \
           "transpose.v0_naive ^tr_" "transpose.v3_padded_4r_ragged ^tr_" "copy.table_b4 ^copy_" \
           "transpose.v6_tall_ragged ^tr_"; do
    set -- $c
    echo "===== $1"
    timeout 120 ncu --clock-control none --launch-skip 1 --launch-count 1 -k "regex:$2" --metrics "$m" \
      "$bin" run "$1" --reps 1 2>&1 | grep -vE "^==PROF==|^\s*$" | grep -E "\.(sum|ratio|pct)|Duration"
  done
}

# How L2 serves loads that touch many lines a request, from tables that stay in L2: strides, powers of two.
stage_l2_lines() {
  local prof=()
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json") # this call's calibration
  for e in "(gid%1024)*1024 + gid/1024" "(gid%1024)*1025 + gid/1024" "(gid%1024)*1040 + gid/1024" \
           "(gid%1024)*1056 + gid/1024" "(gid%1024)*1536 + gid/1024" "(gid * 1031) % 1048583" \
           "(gid * 1024) % 1000003" "(gid * 256) % 1000003" "(gid * 64) % 1000003" "(gid * 32) % 1000003" \
           "(gid * 16) % 1000003" "(gid * 7) % 1000003" "(gid * 2) % 1000003"; do
    echo "=== explain --run --n 268435456 --op load '$e'"
    "$bin" explain --run --n 268435456 --op load "${prof[@]}" "$e" 2>&1 | grep -E "time by|launch model|launch DRAM|global|^  L2|bottleneck"
  done
}

# Which pipe the paired half FMAs use: HFMA2 (FMA pipe) or HFMA2.MMA, in our ceiling kernel and in mixbench's.
stage_sass() {
  P=${PEERS:-.carry/peers}
  cuobjdump -sass "$bin" 2>/dev/null | awk '/Function :/{f=$3} /HFMA2/{n[f]++; if (/HFMA2\.MMA/) m[f]++} END{for (k in n) if (k ~ /roof_fma/) print k, "HFMA2", n[k], "of them .MMA", m[k]+0}'
  [ -x "$P/mixbench-cuda" ] && cuobjdump -sass "$P/mixbench-cuda" 2>/dev/null | awk '/Function :/{f=$3} /HFMA2/{n[f]++; if (/HFMA2\.MMA/) m[f]++} END{for (k in n) if (k ~ /half|6__half2/) print "mixbench", k, "HFMA2", n[k], "of them .MMA", m[k]+0}'
}

# Why the best SGEMM stops short of cuBLAS: issue, pipes and stall reasons of one launch each.
stage_ncu_gemm() {
  st=""
  for r in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle not_selected selected wait \
           dispatch_stall lg_throttle no_instruction; do
    st="$st,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
  done
  for c in "gemm.v9_grouped_4096 ^gemm_warptile" "gemm.v10_tma_4096 ^gemm_tma" "gemm.ref_cublas_4096 sgemm|xmma|cutlass"; do
    set -- $c
    echo "===== $1 (kernels matching $2, second launch)"
    timeout 120 ncu --clock-control none --launch-skip 1 --launch-count 1 -k "regex:$2" --section SpeedOfLight \
      --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats --section InstructionStats \
      --metrics "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active${st}" \
      "$bin" run "$1" --reps 1 2>&1 | grep -vE "^==PROF==|^\s*$"
  done >"$W/ncu_gemm.txt" 2>&1
  grep -E "=====|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|pipe_fma|stalled" "$W/ncu_gemm.txt" | head -60
}

# --counters while another tool holds the profiler: one line, the run goes on without counters.
stage_counters_tools() {
  compute-sanitizer --tool memcheck "$bin" run copy.v0_b4 --counters --reps 1 --size 64M 2>&1 \
    | grep -E "warning|counters|cases in|SUMMARY" | head -8
  echo "exit ${PIPESTATUS[0]} (compute-sanitizer)"
  ncu --clock-control none --metrics gpu__time_duration.sum "$bin" run copy.v0_b4 --counters --reps 1 --size 64M 2>&1 \
    | grep -vE "^==PROF==|^\s*$" | grep -iE "counter|cases in|error" | head -8
  echo "exit ${PIPESTATUS[0]} (ncu)"
}

for s in "$@"; do
  echo "===== $s ($(date -u +%T))"
  "stage_$s" 2>&1 | tee "$W/stage_$s.log"
done
echo "$gpu" >"$W/gpu_name.txt"
tar -C "$W" -czf "$OUT/session.tar.gz" .
cp "$W"/suite.json "$W"/suite.csv "$W"/report.html "$OUT"/ 2>/dev/null || true
