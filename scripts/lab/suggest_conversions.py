#!/usr/bin/env python3
"""suggest_conversions.py - every committed layout row with a measured conversion (results/nvidia-h200/suggest-*/*/json.tar.*):
the conversion's predicted ms (its note) against layout_conversion_ms, worst first. A diagnosis: nothing is run."""
import json,re,glob,tarfile,sys,os
rows=[]
for tb in glob.glob('results/nvidia-h200/suggest-*/*/json.tar.*'):
    try: t=tarfile.open(tb)
    except Exception: continue
    for m in t.getmembers():
        if not m.name.endswith('.json'): continue
        try: d=json.load(t.extractfile(m))
        except Exception: continue
        s=d.get('suggest') or {}
        for r in s.get('rows',[]):
            if r['name']!='layout' or not r.get('applies'): continue
            run=r.get('run') or {}
            note=r.get('note') or ''
            mm=re.search(r'predicted ([\d.]+) ms',note)
            if not mm or 'layout_conversion_ms' not in run: continue
            rows.append((os.path.basename(m.name)[:-5], tb.split('/')[-3], float(mm.group(1)), run['layout_conversion_ms'], (r.get('predicted') or {}).get('limited_by')))
import statistics
rat=[c/p for _,_,p,c,_ in rows if p>0]
print(len(rows), 'conversion measured/predicted: median %.2f'%statistics.median(rat))
for name,tb,p,c,l in sorted(rows,key=lambda x:x[3]/x[2] if x[2] else 0):
    print(f'{name:28s} {tb:14s} pred {p:.3f} meas {c:.4f} m/p {c/p:.2f}')
