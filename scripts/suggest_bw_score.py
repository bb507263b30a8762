#!/usr/bin/env python3
"""suggest_bw_score.py DIR V1 V2 - the block_work rows of an A/B call (DIR/bw.tar.gz: bw/V/NAME.json, explain --suggest --run --json):
each pattern's block_work time under both kernels, their ratio, and predicted against measured speedup."""
import json, statistics, sys, tarfile
d, v1, v2 = sys.argv[1:4]
t = tarfile.open(d + '/bw.tar.gz')
names = sorted({m.name.split('/')[-1][:-5] for m in t.getmembers() if m.name.endswith('.json')})
err = {v1: [], v2: []}
print(f'| pattern | {v1} ms | {v2} ms | {v2}/{v1} | {v1} predicted / measured speedup | {v2} predicted / measured speedup |')
print('|---|---|---|---|---|---|')
for n in names:
    r = {}
    for v in (v1, v2):
        s = json.load(t.extractfile(f'bw/{v}/{n}.json'))['suggest']
        b = {x['name']: x for x in s['rows']}['block_work']
        assert b['run']['validated']
        r[v] = (b['run']['ms_per_launch'], b['predicted_speedup'], b['run']['speedup'])
        err[v].append(abs(r[v][1] / r[v][2] - 1))
    a, b = r[v1], r[v2]
    print(f'| {n} | {a[0]:.4f} | {b[0]:.4f} | {b[0] / a[0]:.3f} | {a[1]:.2f} / {a[2]:.2f} ({100 * (a[1] / a[2] - 1):+.1f} %) '
          f'| {b[1]:.2f} / {b[2]:.2f} ({100 * (b[1] / b[2] - 1):+.1f} %) |')
for v in (v1, v2):
    e = err[v]
    print(f'\n{v}: {len(e)} rows, mean |predicted / measured - 1| {100 * statistics.mean(e):.1f} %, within 10 %: '
          f'{sum(x <= 0.10 for x in e)}', end='')
print()
