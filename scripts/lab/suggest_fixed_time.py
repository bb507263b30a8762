#!/usr/bin/env python3
"""suggest_fixed_time.py BIN - every kernel (original and rewrite) that `explain --suggest --run` measured on the
suggest development sets (the sets of scripts/lab/suggest_dev_all.sh, their committed json), re-predicted by BIN with
the H200's built-in profile: measured - predicted time in microseconds and measured / predicted, by the level that
limits the prediction and the predicted time's size. A time the model leaves out shows as a difference that stays
as the kernel grows (a constant), a rate it gets wrong as a ratio that stays. A diagnosis of committed measurements:
nothing is run on a GPU (s83, docs/log/2026-12-03-s83.md)."""
import collections
import json
import os
import shlex
import statistics as st
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from suggest_docs import Committed  # noqa: E402

BIN = sys.argv[1]
PROFILE = 'data/profiles/nvidia-h200.json'


def jobs():
    text = open('scripts/lab/suggest_dev_all.sh').read().split('sets=(')[1].split(')')[0].split()
    for s, d in zip(text[0::2], text[1::2]):
        docs = Committed(d.replace('$h2', 'results/nvidia-h200'))
        for line in open(f'tests/suggest/{s}.tsv'):
            if line.startswith('#') or '|' not in line:
                continue
            name, _, args = line.rstrip('\n').split('|', 2)
            try:
                doc = docs.load(name)['suggest']
            except (OSError, ValueError, KeyError):
                continue
            yield args, {r['name']: (r.get('run') or {}).get('ms_per_launch') for r in doc['rows']}


def predict(job):
    args, measured = job
    out = subprocess.run([BIN, 'explain', '--suggest', '--json', '--profile', PROFILE] + shlex.split(args),
                         capture_output=True, text=True).stdout
    rows = json.loads(out)['suggest']['rows'] if out else []
    return [(r['name'], r['predicted']['ms'], r['predicted']['limited_by'], measured[r['name']]) for r in rows
            if r.get('applies') and r.get('predicted') and measured.get(r['name'])]


def size_bin(ms):
    return next(b for b in (0.08, 0.16, 0.4, 1e9) if ms < b)


with ThreadPoolExecutor(2) as ex:
    rows = [x for y in ex.map(predict, jobs()) for x in y]
groups = collections.defaultdict(list)
for name, p, lim, m in rows:
    groups[lim, size_bin(p)].append((p, m))
print(f'{len(rows)} kernels; by limit and predicted time: kernels, median measured - predicted (us), median m/p')
for (lim, b), v in sorted(groups.items()):
    print(f'- {lim:8s} < {b:g} ms: {len(v):4d}, {st.median((m - p) * 1e3 for p, m in v):+6.1f} us, '
          f'{st.median(m / p for p, m in v):.3f}')
