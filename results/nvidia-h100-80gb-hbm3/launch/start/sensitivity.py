#!/usr/bin/env python3
"""Rule S before it is measured: the committed runs of the last calls (unseen2, unseen3, the suites with their own
profiles) re-scored with a start-up of 0-2 us added to each recorded prediction (rule S adds it after everything
else, so this is exactly what the model would predict with that launch_us). A sensitivity, not a measurement.
usage: python3 results/nvidia-h100-80gb-hbm3/launch/start/sensitivity.py (from the repository root)"""
import json, os, sys, statistics, tarfile, io
def rows(tarpath, setf):
    t = tarfile.open(tarpath)
    docs = {}
    for m in t.getmembers():
        if m.name.endswith('.json'):
            docs[os.path.basename(m.name)[:-5]] = json.load(t.extractfile(m))
    out = []
    for line in open(setf):
        if not line.strip() or line.startswith('#'): continue
        name = line.split('\t')[0]
        d = docs.get(name)
        if not d: continue
        r = d.get('run', {}); la = d.get('launch', {})
        if not r.get('validated'): continue
        out.append((name, la['predicted_ms'], la['predicted_gbs'], r['gbs']['median']))
    return out
def score(rs, L):
    errs = []; small = []
    for name, pms, pg, mg in rs:
        pg2 = pg * pms / (pms + L * 1e-3)
        e = abs(mg / pg2 - 1); errs.append(e)
        if name.startswith('small_'): small.append((name, round(100 * mg / pg2, 1)))
    w = sum(e <= 0.10 for e in errs)
    return "%d/%d within 10%%, median %.1f%%, mean %.1f%%  %s" % (w, len(errs), 100 * statistics.median(errs), 100 * statistics.mean(errs), small)
R = '/work/main/results'
sets = [('H100 unseen2 7337b7c', R + '/nvidia-h100-80gb-hbm3/launch/unseen2/gpu-7337b7c/runs.tar.gz', 'unseen2'),
        ('H100 unseen3 7337b7c', R + '/nvidia-h100-80gb-hbm3/launch/unseen3/gpu-7337b7c/runs.tar.gz', 'unseen3'),
        ('H200 unseen2 0a7bf8d', R + '/nvidia-h200/launch/unseen2/gpu-0a7bf8d/runs.tar.gz', 'unseen2'),
        ('H200 unseen3 0a7bf8d', R + '/nvidia-h200/launch/unseen3/gpu-0a7bf8d/runs.tar.gz', 'unseen3')]
for label, tp, s in sets:
    if not os.path.exists(tp): print(label, 'missing', tp); continue
    rs = rows(tp, '/work/main/tests/gpu/%s.tsv' % s)
    for L in (0, 0.5, 1.0, 1.5, 2.0):
        print(label, 'launch_us=%.1f' % L, score(rs, L))
import gzip
for label, p in [('H100 suite 7337b7c (own profile)', R + '/nvidia-h100-80gb-hbm3/launch/suite-7337b7c/suite_profile.json.gz'),
                 ('H200 suite 0a7bf8d (own profile)', R + '/nvidia-h200/launch/suite-0a7bf8d/suite_profile.json.gz')]:
    d = json.load(gzip.open(p))
    rs = [(c['name'], c['launch']['predicted_ms'], c['launch']['predicted_gbs'], c['value']['median'])
          for c in d['cases'] if c.get('launch') and c['launch'].get('predicted_ms') and (c.get('value') or {}).get('median')]
    for L in (0, 0.5, 1.0, 1.5, 2.0):
        print(label, 'launch_us=%.1f' % L, score(rs, L))
