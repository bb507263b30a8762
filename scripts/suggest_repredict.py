#!/usr/bin/env python3
"""suggest_repredict.py BIN DIR [PATTERNS] - the rewrites of a committed `explain --suggest --run` call
(DIR: what scripts/suggest_gpu.sh wrote) predicted again by BIN's launch model, no GPU: for each pattern of
suggest_gpu.sh (or of the file PATTERNS, as suggest_gpu.sh reads it with PATTERNS=FILE), `BIN explain --suggest
--json --profile P ARGS`, P the built-in profile of the GPU the call ran on (DIR/gpu.txt, DIR/../gpu.txt or DIR/../env.txt: the
H200's for an H200, else the H100's), joined by rewrite name with the committed measurement. Prints, per rewrite
run, the predicted speedup then (in the documents) and now against the measured one; then and now, the share
within 15 % (issue 24's target), the mean and median |predicted / measured - 1| and the share within 10 % (issue
38's). The measurements are the committed ones: nothing is measured here, so a rule change shows what it does to
the predictions. Each row also gives the rewrite's and its original's measured / predicted time now (where a speedup's
error comes from)."""
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
from suggest_docs import Committed

binary, d = sys.argv[1], sys.argv[2]
docs = Committed(d)
here = os.path.dirname(os.path.abspath(__file__))
if len(sys.argv) > 3:
    block = '\n'.join(ln for ln in open(sys.argv[3]).read().splitlines() if ln.strip() and not ln.startswith('#'))
else:
    text = open(os.path.join(here, 'suggest_gpu.sh')).read()
    block = re.search(r"patterns\(\) \{\ncat <<'EOF'\n(.*?)\nEOF", text, re.S).group(1)
gpu = ''.join(open(f).read() for f in (os.path.join(d, 'gpu.txt'), os.path.join(d, '..', 'gpu.txt'),
                                         os.path.join(d, '..', 'env.txt'))
              if os.path.exists(f))  # a call of several sets keeps gpu.txt one level up; suggest-93d0b55 only env.txt
profile = os.path.join(here, '..', 'data', 'profiles', 'nvidia-h200.json' if 'H200' in gpu else 'nvidia-h100-80gb-hbm3.json')
rows, ranks, then_in, now_in, n = [], [], 0, 0, 0
for line in block.splitlines():
    name, cls, args = line.split('|', 2)
    try:
        old = docs.load(name)['suggest']
    except (OSError, ValueError, KeyError):  # not run, or refused (no document)
        continue
    out = subprocess.run([binary, 'explain', '--suggest', '--json', '--profile', profile] + shlex.split(args),
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)['suggest']
    new = {r['name']: r for r in doc['rows']}
    o_run, o_new = old['rows'][0].get('run') or {}, new.get('original', {}).get('predicted') or {}
    o_tm = o_run.get('ms_per_launch', 0) / o_new['ms'] if o_new.get('ms') else 0
    if doc['ranking'] != old['ranking']:
        ranks.append(f"{name}: {', '.join(old['ranking'])} -> {', '.join(doc['ranking'])}")
    for r in old['rows']:
        run = r.get('run', {})
        if r['name'] == 'original' or not r['applies'] or run.get('status') != 'ok':
            continue
        m, p0 = run['speedup'], r['predicted_speedup']
        p1 = new[r['name']]['predicted_speedup'] if r['name'] in new and new[r['name']]['applies'] else None
        rp = (new.get(r['name']) or {}).get('predicted') or {}
        r_tm = run.get('ms_per_launch', 0) / rp['ms'] if rp.get('ms') else 0
        n += 1
        then_in += abs(m / p0 - 1) <= 0.15
        now_in += p1 is not None and abs(m / p1 - 1) <= 0.15
        rows.append((name, cls, r['name'], m, p0, p1, r_tm, o_tm))
print('| pattern | class | rewrite | measured x | predicted x then | m/p then | predicted x now | m/p now '
      '| rewrite time m/p now | original\'s |')
print('|---|---|---|---|---|---|---|---|---|---|')
for name, cls, rw, m, p0, p1, r_tm, o_tm in rows:
    print(f'| {name} | {cls} | {rw} | {m:.2f} | {p0:.2f} | {m / p0:.2f} | '
          + (f'{p1:.2f} | {m / p1:.2f} |' if p1 else '- | - |') + f' {r_tm:.2f} | {o_tm:.2f} |')
print(f'\nPredicted speedup within 15 % of measured: then {then_in} of {n}, now {now_in} of {n}')
e0 = [abs(p0 / m - 1) for _, _, _, m, p0, *_ in rows]
e1 = [abs(p1 / m - 1) if p1 else 1.0 for _, _, _, m, _, p1, *_ in rows]
for label, es in (('then', e0), ('now', e1)):
    if es:
        print(f'{label}: mean |predicted / measured - 1| {100 * sum(es) / len(es):.1f} %, median '
              f'{100 * statistics.median(es):.1f} %, within 10 %: {sum(e <= 0.10 for e in es)} of {len(es)}')
print('Rankings that changed: ' + ('; '.join(ranks) if ranks else 'none'))
