#!/usr/bin/env python3
"""calib_budget_sim.py RUN.json OUT.json [BUDGET_MS=150]: what calibrate's samples budget (src/bench/runner.c,
gm_runner_reps) would have measured, from a calibrate run taken with 20 samples a case: each timed case's median
over its first n samples, n = max(10, ceil(budget / sample)) capped at the run's count (a sample: the case's median
launch, launches of under 0.5 ms repeated to 0.5 ms as the runner does), its headline (GB/s) scaled alike, and the
L1 plateau (hierarchy.l1_read_bw, the best L1 case's rate) with its case. Then `gpumem calibrate --from OUT.json`
and scripts/lab/calib_profile_diff.py against the run's own profile (docs/log/2026-12-02-c80.md)."""
import json, math, statistics, sys
src, dst = sys.argv[1], sys.argv[2]
budget = float(sys.argv[3]) if len(sys.argv) > 3 else 100.0
d = json.load(open(src))
ratio = {}
for c in d['cases']:
    s = c.get('samples_ms') or []
    if c.get('timing') == 'self' or not s:
        continue
    m = c['stats_ms']['median']
    sample = m if m >= 0.5 else m * (int(0.5 / m) + 1)
    n = max(10, math.ceil(budget / sample))
    if n >= len(s):
        continue
    new = statistics.median(s[:n])
    r = m / new
    ratio[c['name']] = r
    c['stats_ms']['median'] = new
    for k in ('value', 'gbs'):
        if isinstance(c.get(k), dict) and 'median' in c[k] and c.get('unit', 'GB/s') == 'GB/s':
            c[k]['median'] *= r
    print("%-28s %2d of %d samples: median %+.4f %%" % (c['name'], n, len(s), (new / m - 1) * 100), file=sys.stderr)
# the L1 plateau is the best L1 case's rate (hierarchy derive_l1): scale it with that case
l1 = [c for c in d['cases'] if c['name'].startswith('hierarchy.l1')]
for x in d['derived']:
    if x['name'] == 'hierarchy.l1_read_bw':
        best = min(l1, key=lambda c: abs(c['value']['median'] / ratio.get(c['name'], 1) - x['value']))
        x['value'] *= ratio.get(best['name'], 1)
json.dump(d, open(dst, 'w'))
