#!/usr/bin/env bash
# Rule S (docs/MODEL.md 7.2, issue 23): a launch's fixed start-up, measured by copy.start_b4 in `calibrate`.
# This call checks it on the copy it is measured with and on sizes around it: `out[gid] = in[gid]` (4 B, blocks of
# 256) over 1 block, 1/8, 1, 2, 4, 8, 16, 64 and 256 waves of resident threads, each with the profile calibrate
# measured in the same call (launch_us in it), counters off. Expected wall time: calibrate ~16 s + 9 kernels x
# ~0.3 s = ~25 s. Run from the repository root on the GPU machine:
#   bash results/nvidia-h100-80gb-hbm3/launch/start/call.sh BUILD/gpumem OUTDIR
# What it should show (written before it runs, 2026-11-26 ~02:10 UTC): launch_us 0.9-1.5 us on an H100 (the
# committed small grids exceed the model by 1.1-1.3 us at 4 waves); every size from 1 to 256 waves within 10 % of
# the prediction with it (measured minus predicted within +-0.3 us up to 16 waves); 1 block and 1/8 wave: the
# measured time per launch may sit on a floor (the host's launch rate, ~2-3 us), above the prediction: that says
# the floor, not the GPU, and is why copy.start_b4 is 8 waves (~8 us a launch), not one block.
set -uo pipefail
bin=${1:?gpumem binary} out=${2:?output folder}
mkdir -p "$out"
"$bin" calibrate -o "$out/profile-calibrate.json" --json "$out/calibrate.json" >"$out/calibrate.txt" 2>&1 || exit 1
read -r sm tps lus < <(python3 -c "import json;p=json.load(open('$out/profile-calibrate.json'));print(p['sm_count'],p.get('threads_per_sm',2048),p.get('launch_us',0))")
echo "sm_count $sm threads_per_sm $tps launch_us $lus" | tee "$out/start_sweep.txt"
for w in b 0.125 1 2 4 8 16 64 256; do
  if [ "$w" = b ]; then n=256; else n=$(python3 -c "print(int($w*$sm*$tps))"); fi
  "$bin" explain --json --run --no-counters --n "$n" --profile "$out/profile-calibrate.json" -- gid \
    >"$out/start_w$w.json" 2>"$out/start_w$w.err"
  python3 - "$out/start_w$w.json" "$w" "$n" "$lus" <<'PY' | tee -a "$out/start_sweep.txt"
import json, sys
d = json.load(open(sys.argv[1])); r = d["run"]; la = d["launch"]
m = r["ms_per_launch"] * 1e3; p = la["predicted_ms"] * 1e3; s = float(sys.argv[4])
print("waves %-6s n %-10s measured %8.3f us  predicted %8.3f us (start-up %.3f)  m/p %5.1f %%  m-p %+7.3f us  cov %.2f %%"
      % (sys.argv[2], sys.argv[3], m, p, s, 100 * m / p, m - p, r.get("cov_pct", 0)))
PY
  [ -s "$out/start_w$w.err" ] || rm -f "$out/start_w$w.err"
done
