#!/usr/bin/env python3
"""profile_drift.py [PROFILE] [CALIBRATES...] - each number of a built-in profile (default data/profiles/nvidia-h200.json)
against the same field of the committed calibrates (default results/nvidia-h200/model-*/profile-calibrate.json):
their median, range and count, marked where the built-in value is more than 2 % off the median. A built-in
constant measured by an older method (s74: l1_gbs 30758 against every calibrate's 33.3-33.4 TB/s, wave_l2_ns 224
against 366-370 since calibrate measures it in blocks of 1024) shows here. Reads committed files only."""
import glob
import json
import statistics
import sys

prof = sys.argv[1] if len(sys.argv) > 1 else 'data/profiles/nvidia-h200.json'
files = sys.argv[2:] or sorted(glob.glob('results/nvidia-h200/model-*/profile-calibrate.json'))
builtin = json.load(open(prof))
cals = [json.load(open(f)) for f in files]
print(f'{prof} against {len(cals)} calibrates')
for k, v in builtin.items():
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        continue
    vals = [c[k] for c in cals if isinstance(c.get(k), (int, float)) and c.get(k)]
    if not vals:
        print(f'{k:22s} {v:<12.6g} (no calibrate measures it)')
        continue
    m = statistics.median(vals)
    mark = '  <- off by %+.1f %%' % (100 * (m / v - 1)) if v and abs(m / v - 1) > 0.02 else ''
    print(f'{k:22s} {v:<12.6g} median {m:<12.6g} range {min(vals):.6g} - {max(vals):.6g} ({len(vals)}){mark}')
