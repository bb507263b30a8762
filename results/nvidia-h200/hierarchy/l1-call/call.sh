#!/usr/bin/env bash
# Issue 25 item 2 (L1 read at the limit, >= 1.0x gpu-cache in the same call): one bounded device call.
# Run from the repository root on the GPU machine (H200, then the same on an H100):
#   bash results/nvidia-h200/hierarchy/l1-call/call.sh
# Needs .carry/l1/gpumem (built from git archive 89e3435 in a clean tree; the commit in
# .carry/l1/COMMIT) and .carry/peers2/cuda-cache-sel (gpu-benches' gpu-cache main at chosen data sets:
# results/nvidia-h100-80gb-hbm3/hierarchy/COMMANDS.md). Writes everything under $OUT (default /tmp/l1-call).
# Expected wall time about 37 s (3 x ~7 s of gpumem, 2 x 8 s of cuda-cache-sel); bounded at 3 x 12 + 2 x 8 s.
set -u
B=${B:-.carry/l1}
P=${PEERS:-.carry/peers2}
W=${OUT:-/tmp/l1-call}
mkdir -p "$W"
# gpu-benches links CUPTI / nvperf from the GPU machine's toolkit (as scripts/gpu_session.sh's stage_peers)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/extras/CUPTI/lib64:/usr/local/cuda/lib64
t0=$(date +%s%N)
st() { echo "[$(( ($(date +%s%N) - t0) / 1000000 )) ms] $*" >>"$W/log.txt"; }
{ nvidia-smi -L
  nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv
  echo "gpumem commit $(cat "$B/COMMIT" 2>/dev/null)"; } >"$W/gpu.txt" 2>&1
# The SM clock every 100 ms through the whole call (ours and the peer's): gpu-cache does not measure its clock
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 >"$W/clocks.csv" 2>&1 &
smi=$!
st start
# the l1 cases of the default suite (l1_*, l1v1..v8), the candidate v9 (full-only: by name) and v6 / v9 in
# launches 16 x longer (~31 ms, as gpu-cache times one launch), three runs back to back
cases="hierarchy.l1 hierarchy.l1v9_0128k hierarchy.l1v9_0192k hierarchy.l1v6x16_0128k hierarchy.l1v9x16_0128k"
for i in 1 2 3; do
  st "gpumem run $i"
  timeout -s INT 12 "$B/gpumem" run $cases --json "$W/l1_run$i.json" >"$W/l1_run$i.txt" 2>&1
  st "gpumem run $i rc=$?"
done
# gpu-cache's rows 1 kB..236 kB come first (~5 s); the L2 rows after them are cut by the timeout
for i in 1 2; do
  timeout 8 "$P/cuda-cache-sel" >"$W/gpu-cache-sel$i.txt" 2>&1
  st "cuda-cache-sel $i rc=$? (124: cut after its L1 rows, as meant)"
done
kill "$smi" 2>/dev/null
nvidia-smi --query-gpu=clocks_event_reasons.active,clocks.sm,temperature.gpu --format=csv >>"$W/gpu.txt" 2>&1 || true
st done
# one table: per case GB/s, clock, B/clk/SM (event time) and block 0's in-kernel B/clk, per run
python3 - "$W" <<'PY' >"$W/summary.txt" 2>&1 || true
import json, sys, glob, os
w = sys.argv[1]
for f in sorted(glob.glob(os.path.join(w, 'l1_run*.json'))):
    r = json.load(open(f)); sm = r['device'].get('sm_count', 132)
    print('==', os.path.basename(f), r['device'].get('uuid', ''))
    for c in r['cases']:
        if c['status'] != 'ok':
            print('%-24s %s' % (c['label'], c['status'])); continue
        n = {x['name']: x['median'] for x in c.get('notes', [])}
        mhz, g = n.get('sm_clock_mhz', 0), c['value']['median']
        bpc = g * 1e9 / (sm * mhz * 1e6) if mhz else 0
        print('%-24s %8.0f GB/s (max %8.0f)  %7.1f MHz  %6.2f B/clk/SM = %6.2f %%  block0 %6.2f B/clk' %
              (c['label'], g, c['value']['max'], mhz, bpc, bpc / 1.28, n.get('block0_bytes_per_clk', 0)))
    for d in r['derived']:
        if d['name'] == 'hierarchy.l1_read_bw':
            print('spec line: %.0f GB/s, limit %.0f (%.2f %%): %s' % (d['value'], d['reference'], 100 * d['value'] / d['reference'], d['how']))
for f in sorted(glob.glob(os.path.join(w, 'gpu-cache-sel*.txt'))):
    print('==', os.path.basename(f))
    for l in open(f):
        if ' kB ' in l and int(l.split()[0]) < 300:
            t = l.split(); print('%8s kB  %s GB/s  spread %s' % (t[0], t[4], t[3]))
PY
cat "$W/summary.txt" "$W/log.txt"
