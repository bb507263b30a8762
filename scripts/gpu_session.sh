#!/usr/bin/env bash
# The product's GPU session: one lease does everything here; all output lands under $OUT/ (packed as
# $OUT/session.tar.gz plus the main log). Usage: gpu_session.sh STAGE...
# Stages: env tests quick suite full cli state spec report sanitize (memcheck, racecheck, initcheck) initcheck
#         soak probe peers unseen unseen2 unseen3 explain counters selftest calibrate suite_profile
#         counters_dram ncu_counters nvtx ncu trace
# One-off experiments of earlier sessions (the launch model's probes) are scripts/lab/experiments.sh.
# BUILD_DIR is the build folder or what scripts/carry_gpu.sh packed (the binaries only).
set -uo pipefail
cd "$(dirname "$0")/.."
B=${BUILD_DIR:-build}
OUT=${OUT:-/tmp/gpumem-out}
W=${WORK_DIR:-/tmp/gpumem-work}
mkdir -p "$W"
bin=$B/gpumem
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-')

stage_env() {
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv
  ldd "$bin"
  "$bin" --version
  "$bin" info
}

stage_tests() {
  # the big-file and browser tests need no GPU and run in CI
  if [ -f "$B/CTestTestfile.cmake" ]; then
    ctest --test-dir "$B" --output-on-failure -j1 -E "test_big_file|report_browser" 2>&1 | tail -40
    return
  fi
  # a carried folder (scripts/carry_gpu.sh): the same tests, run directly
  local pass=0 fail=0 t rc
  for t in "$B"/tests/test_*; do
    case $t in *test_big_file) continue ;; esac
    GPUMEM_BIN=$(readlink -f "$bin") GPUMEM_SRC=$PWD "$t" >"$W/test_$(basename "$t").log" 2>&1
    rc=$?; [ $rc -eq 0 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); tail -20 "$W/test_$(basename "$t").log"; }
    echo "$(basename "$t"): exit $rc"
  done
  for t in "tests/report/cli_test.sh $bin" "tests/fleet/cli_test.sh $bin" "$B/tests/gpu/gm_probe run" \
           "tests/gpu_validate.sh $bin" "tests/errors/errors.sh $bin"; do
    $t >"$W/test_$(basename "${t%% *}").log" 2>&1
    rc=$?; [ $rc -eq 0 ] && pass=$((pass + 1)) || [ $rc -eq 77 ] || { fail=$((fail + 1)); tail -20 "$W/test_$(basename "${t%% *}").log"; }
    echo "$t: exit $rc"
  done
  tail -3 "$W/test_gpu_validate.sh.log"
  echo "tests: $pass passed, $fail failed"
}

stage_quick() {
  /usr/bin/time -v "$bin" run --quick --json "$W/quick.json" --csv "$W/quick.csv" 2>"$W/quick.time" | tee "$W/quick.txt"
  grep -E "Elapsed|Maximum resident" "$W/quick.time"
}

stage_suite() {
  /usr/bin/time -v "$bin" run --json "$W/suite.json" --csv "$W/suite.csv" 2>"$W/suite.time" | tee "$W/suite.txt"
  grep -E "Elapsed|Maximum resident" "$W/suite.time"
}

# Bad input and interrupts on a real device: exit codes, messages, files.
stage_cli() {
  "$bin" run copy --size 100G --json "$W/too_large.json"; echo "exit $? (want 4)"
  ls "$W"/too_large.json* 2>/dev/null || echo "no output file left (as wanted)"
  "$bin" run copy --device 7; echo "exit $? (want 2)"
  "$bin" run stride --json "$W/interrupted.json" >/dev/null &
  pid=$!; sleep 4; kill -INT $pid; wait $pid; echo "exit $? after SIGINT (want 130)"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('interrupted', d['interrupted'], 'cases', len(d['cases']), 'all ok', all(c['status']=='ok' for c in d['cases']))" "$W/interrupted.json"
  nvidia-smi --query-compute-apps=pid,used_memory --format=csv
}

stage_full() {
  /usr/bin/time -v "$bin" run --full latency --json "$W/full.json" --csv "$W/full.csv" 2>"$W/full.time" | tee "$W/full.txt"
  grep -E "Elapsed|Maximum resident" "$W/full.time"
}

# Cases that change device state or pin host memory, interrupted mid-run: the
# run document must show the persisting-L2 limit as it was, and no process may
# keep device memory afterwards.
stage_state() {
  for fam in l2persist transfer; do
    "$bin" list "$fam" >/dev/null 2>&1 || { echo "no family $fam"; continue; }
    "$bin" run "$fam" --json "$W/sigint_$fam.json" >"$W/sigint_$fam.txt" 2>&1 &
    pid=$!; sleep 3; kill -INT $pid; wait $pid; echo "$fam: exit $? after SIGINT (want 130)"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d.get('device_state',{}); print(sys.argv[2], 'interrupted', d['interrupted'], 'cases', len(d['cases']), 'state before', s.get('before'), 'after', s.get('after'), 'restored', s.get('before')==s.get('after'))" "$W/sigint_$fam.json" "$fam"
    nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader | sed "s/^/$fam leftover: /"
    echo "$fam: $(nvidia-smi --query-compute-apps=pid --format=csv,noheader | wc -l) compute processes left"
  done
}

# The measured spec sheet from the default suite's file, as a user would ask for it.
stage_spec() {
  "$bin" info --from "$W/suite.json"
}

stage_report() {
  "$bin" report "$W/suite.json" -o "$W/report.html" && ls -l "$W/report.html"
}

stage_sanitize() {
  # the quick suite of every family; gemm's quick cases (4096^3) are too slow under memcheck: its 1024^3 ladder instead
  fams=$("$bin" list | awk '/^# /{print $2}' | grep -vx gemm)
  compute-sanitizer --tool memcheck --leak-check full "$bin" run --quick $fams --reps 1 --size 64M >"$W/memcheck.txt" 2>&1
  tail -5 "$W/memcheck.txt"
  compute-sanitizer --tool memcheck --leak-check full "$bin" run $("$bin" list gemm | awk '/_1024 /{print $1}') \
    --reps 1 >"$W/memcheck_gemm.txt" 2>&1
  tail -3 "$W/memcheck_gemm.txt"
  compute-sanitizer --tool racecheck "$bin" run transpose.v1 transpose.v2 transpose.v3 transpose.v4 transpose.v5 --reps 1 --size 16M >"$W/racecheck.txt" 2>&1
  tail -5 "$W/racecheck.txt"
  stage_initcheck
}

# A suite SOAK_N times back to back (SOAK_ARGS: run's arguments, default --quick; SOAK_ARGS= is the default suite):
# device memory used (nvidia-smi -i SOAK_GPU, the physical index of the GPU that CUDA_VISIBLE_DEVICES selects) and host
# memory available before and after each run, its peak RSS, and each case's spread across the runs.
stage_soak() {
  local k n=${SOAK_N:-4} args=${SOAK_ARGS---quick} g=${SOAK_GPU:-0}
  state() { echo "$1 used_mib=$(nvidia-smi -i "$g" --query-gpu=memory.used --format=csv,noheader,nounits | head -1)" \
    "avail_kib=$(awk '/MemAvailable/{print $2}' /proc/meminfo)"; }
  for k in $(seq 1 "$n"); do
    state before >"$W/soak_state_$k.txt"
    /usr/bin/time -v "$bin" run $args --json "$W/soak_$k.json" >"$W/soak_$k.txt" 2>"$W/soak_time_$k.txt"
    state after >>"$W/soak_state_$k.txt"
    echo "soak run $k: $(grep -h 'cases in' "$W/soak_$k.txt") $(tr '\n' ' ' <"$W/soak_state_$k.txt")"
  done
  python3 scripts/soak_summary.py "$W" "$n" | tee "$W/soak_summary.md"
}

stage_initcheck() {
  compute-sanitizer --tool initcheck "$bin" run copy.v0 copy.read_b16_tile4 stride.b04_s002 offset.rd_o01 \
    offset.wr_o01 rowcol.w4097_pitch_rows banks.b04_s02 transpose.v5_vec16_ragged --reps 1 --size 16M \
    >"$W/initcheck.txt" 2>&1
  tail -5 "$W/initcheck.txt"
}

stage_probe() {
  bash tests/gpu/model_vs_counters.sh "$B" "$W/probe" 2>&1 | tail -40
}

# The peer tools, built outside the repository (docs/METHODOLOGY.md, "Peers") and carried in $PEERS.
# CUPTI/nvperf for gpu-benches come from the GPU machine's toolkit.
stage_peers() {
  P=${PEERS:-.carry/peers}
  export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64
  [ -x "$P/mixbench-cuda" ] && { echo "== mixbench-cuda"; timeout 150 "$P/mixbench-cuda"; echo "rc $?"; } >"$W/peer_mixbench.txt" 2>&1
  [ -x "$P/nvbandwidth" ] && { echo "== nvbandwidth -b 512 -i 5 -t device_local_copy host_to_device_memcpy_ce device_to_host_memcpy_ce host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce"
    timeout 150 "$P/nvbandwidth" -b 512 -i 5 -t device_local_copy host_to_device_memcpy_ce device_to_host_memcpy_ce \
      host_to_device_bidirectional_memcpy_ce device_to_host_bidirectional_memcpy_ce; echo "rc $?"; } >"$W/peer_nvbandwidth.txt" 2>&1
  # gpu-benches in full runs past 100 s: the -sel builds (results/nvidia-h100-80gb-hbm3/hierarchy/COMMANDS.md) run
  # the same kernels and timing at the data sets the spec sheet compares
  local l2=cuda-l2-cache l1=cuda-cache l2t=100 l1t=100
  [ -x "$P/cuda-l2-cache-sel" ] && { l2=cuda-l2-cache-sel; l2t=20; }
  [ -x "$P/cuda-cache-sel" ] && { l1=cuda-cache-sel; l1t=40; }
  [ -x "$P/$l2" ] && { echo "== gpu-benches $l2"; timeout $l2t "$P/$l2"; echo "rc $?"; } >"$W/peer_gpu-l2-cache.txt" 2>&1
  [ -x "$P/$l1" ] && { echo "== gpu-benches $l1"; timeout $l1t "$P/$l1"; echo "rc $?"; } >"$W/peer_gpu-cache.txt" 2>&1
  [ -x "$P/babelstream-cuda" ] && { echo "== BabelStream (CUDA) --arraysize 536870912 --numtimes 100"
    timeout 120 "$P/babelstream-cuda" --arraysize 536870912 --numtimes 100; echo "rc $?"; } >"$W/peer_babelstream.txt" 2>&1
  tail -n 4 "$W"/peer_*.txt
}

# explain --run --n on kernels the launch model was not built on: measured, predicted, counted DRAM bytes.
stage_unseen() {
  local prof=()
  [ -f "$W/profile-calibrate.json" ] && prof=(--profile "$W/profile-calibrate.json") # this call's calibration
  for e in "gid" "gid*2" "gid/2" "gid + (gid/4096)*64" "(gid*5)%n" "(gid%1024)*1024 + gid/1024" \
           "(gid%2048)*2048 + gid/2048" "gid ^ 1" "(gid/32)*64 + gid%32" \
           "gid % 1000000" "(gid * 7) % 1000003" "gid % 4096" "gid % 20000000" "(gid * 13) % 2000003"; do
    echo "=== explain --run --n 268435456 --op load '$e'"
    "$bin" explain --run --n 268435456 --op load "${prof[@]}" "$e" 2>&1 | grep -E "^launch|sampled|DRAM bytes|time by|predicted|measured|launch model|launch DRAM"
  done
  for t in double float4; do
    echo "=== explain --run --n 134217728 --type $t --op load 'gid'"
    "$bin" explain --run --n 134217728 --type $t --op load "${prof[@]}" gid 2>&1 | grep -E "^launch|time by|predicted|measured|launch model|launch DRAM"
  done
  echo "=== explain --run --n 268435456 --op store '(gid%1024)*1024 + gid/1024'"
  "$bin" explain --run --n 268435456 --op store "${prof[@]}" "(gid%1024)*1024 + gid/1024" 2>&1 | grep -E "^launch|time by|predicted|measured|launch model|launch DRAM"
}

# Issue 23: the kernels of tests/gpu/unseen2.tsv (written before the rules they judge), each with this call's
# calibration (stage calibrate first) and its counters (NO_COUNTERS=1: none); unseen2_ncu: Nsight Compute on a few.
stage_unseen2() {
  local prof=""
  [ -f "$W/profile-calibrate.json" ] && prof="$W/profile-calibrate.json"
  bash scripts/unseen_set.sh run "$bin" tests/gpu/unseen2.tsv "$W/unseen2" $prof >"$W/unseen2_times.txt"
  python3 scripts/unseen_score.py tests/gpu/unseen2.tsv "$W/unseen2" | tee "$W/unseen2_table.txt" | tail -8
  bash scripts/unseen_set.sh run "$bin" tests/gpu/unseen2_pages.tsv "$W/unseen2_pages" $prof >>"$W/unseen2_times.txt"
  python3 scripts/unseen_score.py tests/gpu/unseen2_pages.tsv "$W/unseen2_pages" >"$W/unseen2_pages_table.txt"
}

# Issue 23, the third set: tests/gpu/unseen3.tsv (27 kernels, committed before the rules of that session changed),
# with this call's calibration (run stage calibrate first; NO_COUNTERS=1 for about 35 s). The documents, tarred.
stage_unseen3() {
  local prof=""
  [ -f "$W/profile-calibrate.json" ] && prof="$W/profile-calibrate.json"
  bash scripts/unseen_set.sh run "$bin" tests/gpu/unseen3.tsv "$W/unseen3" $prof >"$W/unseen3_times.txt"
  python3 scripts/unseen_score.py tests/gpu/unseen3.tsv "$W/unseen3" | tee "$W/unseen3_table.txt" | tail -12
  tar -czf "$W/unseen3_runs.tar.gz" -C "$W" unseen3
}

# gpumem trace on the test programs (tests/trace/): reports, notes, streams, graphs, bounded runs
stage_trace() {
  bash tests/trace/gpu_trace.sh "$bin" "$W/trace"
  echo "trace checks: exit $?"
}

# explain --run: the user's expression as a kernel, validated and timed, beside the model (each under 5 s?).
stage_explain() {
  for e in "gid" "gid * 2" "(gid * 33) % n" "(gid % 16384) * 16384 + gid / 16384" "gid / 32 * 32"; do
    /usr/bin/time -f "wall %e s" "$bin" explain --run "$e" | sed -n '/^run on/,$p'
  done
  /usr/bin/time -f "wall %e s" "$bin" explain --run --type float4 gid | sed -n '/^run on/,$p'
  /usr/bin/time -f "wall %e s" "$bin" explain --run --op store "n - 1 - gid" | sed -n '/^run on/,$p'
  /usr/bin/time -f "wall %e s" "$bin" explain --run --op store --type double "(gid % 2) * (n / 2) + gid / 2" | sed -n '/^run on/,$p'
  /usr/bin/time -f "wall %e s" "$bin" explain --run --hint cs gid | sed -n '/^run on/,$p'
  "$bin" explain --run --json --type float2 "(gid % 4096) * 4096 + gid / 4096" >"$W/explain_run.json"; echo "json exit $?"
  "$bin" explain --run "gid - 1"; echo "exit $? (a negative index: want 2)"
  "$bin" explain --run "1000 - gid"; echo "exit $? (negative past warp 0: want 2)"
  "$bin" explain --run --n 1099511627776 gid; echo "exit $? (too large: want 4)"
  # the launch model alone (no GPU work; under 100 ms for a 1 GiB launch) and beside a run
  for e in "gid * 2" "(gid % 16384) * 16384 + gid / 16384" "gid * 8"; do
    /usr/bin/time -f "wall %e s" "$bin" explain --n 268435456 "$e" | sed -n '/^launch/,$p'
  done
  /usr/bin/time -f "wall %e s" "$bin" explain --run --n 268435456 "(gid % 16384) * 16384 + gid / 16384" | sed -n '/^run on/,$p'
  /usr/bin/time -f "wall %e s" "$bin" explain --run --n 268435456 "gid * 2" | sed -n '/^run on/,$p'
  # shared memory: staged through a tile, counted wavefronts against the model
  /usr/bin/time -f "wall %e s" "$bin" explain --run --space shared --block 32,32 "tx * 32 + ty" | sed -n '/^run on/,$p'
  /usr/bin/time -f "wall %e s" "$bin" explain --run --space shared "lane * 2" | sed -n '/^run on/,$p'
}

# run --counters over the default suite (timing runs and counter runs apart): the per-case counters and bottleneck.
stage_counters() {
  /usr/bin/time -v "$bin" run --counters --json "$W/suite_counters.json" --csv "$W/suite_counters.csv" \
    2>"$W/suite_counters.time" | tee "$W/suite_counters.txt" | tail -15
  grep -E "Elapsed|Maximum resident" "$W/suite_counters.time"
  grep -iE "counter|cupti" "$W/suite_counters.time" | head -5
  python3 - "$W/suite_counters.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cs = d["cases"]
ok = [c for c in cs if c.get("status") == "ok"]
withc = [c for c in ok if c.get("counters")]
bott = [c for c in ok if (c.get("counters") or {}).get("bottleneck") or c.get("bottleneck")]
print(f"cases {len(cs)}, ok {len(ok)}, with counters {len(withc)}, with a bottleneck {len(bott)}")
print("ok cases without a bottleneck:", [c["name"] for c in ok if c not in bott][:20])
PY
}

# The model against this GPU's counters (every probe pattern).
stage_selftest() {
  /usr/bin/time -f "wall %e s" "$bin" selftest --counters 2>&1 | tail -25
}

# The launch model's device profile of this GPU, then the default suite predicted with it.
stage_calibrate() {
  /usr/bin/time -f "wall %e s" "$bin" calibrate -o "$W/profile-calibrate.json" --json "$W/calibrate.json" 2>&1 | tee "$W/calibrate.txt" | tail -30
}

stage_suite_profile() {
  /usr/bin/time -v "$bin" run --profile "$W/profile-calibrate.json" --json "$W/suite_profile.json" \
    --csv "$W/suite_profile.csv" 2>"$W/suite_profile.time" | tee "$W/suite_profile.txt" | tail -20
  grep -E "Elapsed|Maximum resident" "$W/suite_profile.time"
}

# The launch model's DRAM bytes against the counters, the bandwidth families only (faster than the suite).
stage_counters_dram() {
  /usr/bin/time -f "wall %e s" "$bin" run copy stride offset transpose rowcol matvec --counters \
    --json "$W/dram_counters.json" >"$W/dram_counters.txt" 2>&1
  tail -12 "$W/dram_counters.txt"
  python3 scripts/launch_dram_vs_counters.py "$W/dram_counters.json" | head -20
}

# gpumem's counters against ncu --clock-control none on the same kernels.
stage_ncu_counters() {
  bash scripts/counters_vs_ncu.sh "$bin" "$W/ncu_counters" 2>&1 | tail -25
  tail -8 "$W/ncu_counters/ncu_vs_counters.md"
  # the DRAM writes of small outputs: ncu without its cache flush, as gpumem profiles
  NCU_CACHE_CONTROL=none bash scripts/counters_vs_ncu.sh "$bin" "$W/ncu_counters_nocache" stride.b04_s008 \
    stride.b04_s032 copy.v0_b4 2>&1 | tail -5
  grep -E "DRAM|agree" "$W/ncu_counters_nocache/ncu_vs_counters.md"
}

# NVTX: ncu told to profile only the range of one case sees only that case's kernels.
stage_nvtx() {
  ncu --clock-control none --nvtx --nvtx-include "roofline.fma_fp32/" --metrics gpu__time_duration.sum --csv \
    "$bin" run copy.v5_b16_ilp4 roofline.fma_fp32 --reps 2 --size 256M >"$W/nvtx.csv" 2>"$W/nvtx.err"
  echo "kernels profiled inside roofline.fma_fp32/: $(grep -c roof_fma "$W/nvtx.csv"); others: $(grep -v roof_fma "$W/nvtx.csv" | grep -c gpu__time_duration)"
}

# Counters of one kernel of chosen cases: sectors the L1 saw vs bytes DRAM moved.
ncu_case() { # case kernel-regex
  ncu --clock-control none --csv --page raw --print-units base \
    --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,gpu__time_duration.sum \
    --kernel-name "regex:$2" --launch-skip 1 --launch-count 1 \
    "$bin" run "$1" --reps 1 --size 1G 2>/dev/null | grep -E '^"(ID|[0-9])' | sed "s/^/\"$1\",/"
}

stage_ncu() {
  for c in stride.b04_s001 stride.b04_s002 stride.b04_s004 stride.b04_s008 stride.b04_s016 stride.b04_s032 \
           stride.b16_s002 stride.b16_s008; do
    ncu_case "$c" '^stride_gather' >>"$W/ncu_cases.csv"
  done
  for c in offset.rd_o01 offset.wr_o01; do ncu_case "$c" '^offset_copy' >>"$W/ncu_cases.csv"; done
  for c in rowcol.w4096_cols rowcol.w4097_packed_cols rowcol.w4097_packed_rows rowcol.w4097_pitch_rows; do
    ncu_case "$c" '^rc_' >>"$W/ncu_cases.csv"
  done
  for c in transpose.copy_b4_a8 transpose.copy_b4_ragged; do ncu_case "$c" '^copy_tile32' >>"$W/ncu_cases.csv"; done
  for c in transpose.copy_b16_a8 transpose.copy_b16_ragged; do ncu_case "$c" '^copy_vec16' >>"$W/ncu_cases.csv"; done
  for c in transpose.v0_naive_a8 transpose.v1_tiled_a8 transpose.v2_padded_a8 transpose.v3_padded_4r_a8 \
           transpose.v3_padded_4r_ragged transpose.v5_vec16_a8 transpose.v5_vec16_ragged transpose.v6_tall_a8 \
           transpose.v6_tall_ragged transpose.v7_shift_a8 transpose.v7_shift_ragged; do
    ncu_case "$c" '^tr_' >>"$W/ncu_cases.csv"
  done
  wc -l "$W/ncu_cases.csv"
}

for s in "$@"; do
  echo "===== $s ($(date -u +%T))"
  "stage_$s" 2>&1 | tee "$W/stage_$s.log"
done
echo "$gpu" >"$W/gpu_name.txt"
mkdir -p "$OUT"   # a caller may name a folder that does not exist yet (the final calls' $F/trace)
tar -C "$W" -czf "$OUT/session.tar.gz" .
cp "$W"/suite.json "$W"/suite.csv "$W"/report.html "$OUT"/ 2>/dev/null || true
