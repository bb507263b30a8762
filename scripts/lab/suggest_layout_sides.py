#!/usr/bin/env python3
"""suggest_layout_sides.py BIN [OUT] - every layout rewrite that `explain --suggest --run` measured on the suggest
development sets (the sets of scripts/lab/suggest_dev_all.sh, their committed json.tar.*), re-predicted by BIN with
the H200's built-in profile, split into its three sides: the original, the kernel (the copy) and the conversion,
each measured / predicted, with the headline speedup's error, grouped by the original's form. With OUT, the rows
(set|pattern|args|measured original, kernel, conversion ms, speedup|predicted the same) go to OUT; with a second
file of such rows (OLD=FILE), before -> after by form. A diagnosis of committed measurements: nothing is run on a GPU."""
import json, os, re, shlex, statistics as st, subprocess, sys, tarfile
from concurrent.futures import ThreadPoolExecutor


def jobs():
    text = open('scripts/lab/suggest_dev_all.sh').read().split('sets=(')[1].split(')')[0].split()
    for s, d in zip(text[0::2], text[1::2]):
        d = d.replace('$h2', 'results/nvidia-h200')
        args = {}
        for ln in open(f'tests/suggest/{s}.tsv'):
            if ln.strip() and not ln.startswith('#'):
                n, _, a = ln.rstrip('\n').split('|', 2)
                args[n] = a
        tars = [os.path.join(d, f) for f in os.listdir(d) if f.startswith('json.tar')]
        if not tars:
            continue
        with tarfile.open(tars[0]) as t:
            for m in t.getmembers():
                n = os.path.basename(m.name)[:-5]
                if not m.name.endswith('.json') or n not in args:
                    continue
                try:
                    rows = {r['name']: r for r in json.load(t.extractfile(m))['suggest']['rows']}
                except (ValueError, KeyError):
                    continue
                lay = rows.get('layout') or {}
                run = lay.get('run') or {}
                if lay.get('applies') and run.get('status') == 'ok' and run.get('layout_conversion_ms'):
                    yield (s, n, args[n], rows['original']['run']['ms_per_launch'], run['ms_per_launch'],
                           run['layout_conversion_ms'], run['speedup'])


def predict(j):
    out = subprocess.run([sys.argv[1], 'explain', '--suggest', '--json', '--profile', 'data/profiles/nvidia-h200.json']
                         + shlex.split(j[2]), capture_output=True, text=True, check=True).stdout
    r = {x['name']: x for x in json.loads(out)['suggest']['rows']}
    lay = r['layout']
    return j + (r['original']['predicted']['ms'], lay['predicted']['ms'], lay['predicted_conversion_ms'],
                lay['predicted_speedup'])


def form(n):
    return re.sub(r'_b\d+$', '', re.sub(r'^[a-z]\d\d_', '', n))


def groups(rows):
    g = {}
    for s, n, a, mo, mk, mc, ms, po, pk, pc, ps in rows:
        g.setdefault(form(n), {})[(s, n)] = (mo / po, mk / pk, mc / pc, abs(ps / ms - 1))
    return g


with ThreadPoolExecutor(2) as ex:
    rows = list(ex.map(predict, jobs()))
if len(sys.argv) > 2:
    with open(sys.argv[2], 'w') as f:
        for r in rows:
            f.write('|'.join(str(x) for x in r) + '\n')
old = None
if os.environ.get('OLD'):
    old = groups([tuple(x if i < 3 else float(x) for i, x in enumerate(ln.rstrip('\n').split('|')))
                  for ln in open(os.environ['OLD'])])
print('form: rows, measured / predicted time of the original, kernel, conversion; speedup error; within 10 %'
      + (' (before -> now)' if old else ''))
g, tot = groups(rows), []
for f, d in sorted(g.items(), key=lambda kv: -len(kv[1])):
    v = list(d.values())
    line = (f'- {f}: {len(v)}, {st.mean(x[0] for x in v):.2f}, {st.mean(x[1] for x in v):.2f}, '
            f'{st.mean(x[2] for x in v):.2f}; {100 * st.mean(x[3] for x in v):.1f} %; {sum(x[3] <= 0.1 for x in v)}')
    if old and f in old:
        o = [old[f][k] for k in d if k in old[f]]
        line += f' (conversion {st.mean(x[2] for x in o):.2f}, {100 * st.mean(x[3] for x in o):.1f} %, {sum(x[3] <= 0.1 for x in o)})'
    print(line)
    tot += v
print(f'all: {len(tot)} layout rows, speedup error {100 * st.mean(x[3] for x in tot):.2f} %, '
      f'{sum(x[3] <= 0.1 for x in tot)} within 10 %')
