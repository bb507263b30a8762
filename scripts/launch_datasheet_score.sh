#!/usr/bin/env bash
# A GPU the model never ran on (docs/MODEL.md 7.7, issue 36 item 4): the committed H200 suite predicted from the
# H100's calibrate profile and the two datasheets (data/datasheets/), and the other way, each scored on its
# memory cases (every case with a launch prediction; scripts/launch_suite_score.py).
# usage: scripts/launch_datasheet_score.sh BIN [OUTDIR]
set -uo pipefail
bin=$(readlink -f "$1")
cd "$(dirname "$0")/.."
out=${2:-$(mktemp -d)}
mkdir -p "$out"
export XDG_CACHE_HOME=$out/cache
h1=results/nvidia-h100-80gb-hbm3/s24-0d0fd8e/launch h2=results/nvidia-h200/s25-0d0fd8e/launch
d1=data/datasheets/nvidia-h100-sxm-80gb.json d2=data/datasheets/nvidia-h200.json
"$bin" predict $h2/suite_profile.json.gz --profile $h1/profile-calibrate.json --base-datasheet $d1 --datasheet $d2 \
  --json "$out/h100_to_h200.json" >"$out/h100_to_h200.txt" 2>&1
"$bin" predict $h1/suite_profile.json.gz --profile $h2/profile-calibrate.json --base-datasheet $d2 --datasheet $d1 \
  --json "$out/h200_to_h100.json" >"$out/h200_to_h100.txt" 2>&1
python3 scripts/launch_suite_score.py "$out/h100_to_h200.json" "$out/h200_to_h100.json" | sed "s#$out/##"
python3 - "$out" <<'PY'
import json, statistics, sys
for t in ("h100_to_h200", "h200_to_h100"):
    d = json.load(open("%s/%s.json" % (sys.argv[1], t)))
    e = [100 * abs(c["value"]["median"] / c["launch"]["predicted_gbs"] - 1) for c in d["cases"]
         if c.get("status") == "ok" and (c.get("launch") or {}).get("predicted_gbs") and c["value"]["median"]]
    print("%s: all %d memory cases: mean error %.1f %%, median %.1f %%, %d within 10 %%" % (
        t, len(e), statistics.mean(e), statistics.median(e), sum(x <= 10 for x in e)))
PY
