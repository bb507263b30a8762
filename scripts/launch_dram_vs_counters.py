#!/usr/bin/env python3
"""Predicted DRAM bytes (launch model) beside the counted ones, per case, from one
`gpumem run --counters` JSON (its cases carry both `launch` and `counters`).
usage: launch_dram_vs_counters.py RUN.json [PREDICTED.json]   (5 % tolerance; a direction below 1e6 bytes or
0.1 % of the case's counted DRAM bytes is not judged)
PREDICTED.json: the same run re-predicted (`gpumem predict RUN.json --json PREDICTED.json`), whose
`launch` objects replace RUN.json's (the reader drops `counters`, so they come from RUN.json)."""
import json,sys
import gzip


def gmopen(path):
    """A run document, plain or gzip-compressed (gpumem reads both)."""
    with open(path, 'rb') as f:
        gz = f.read(2) == b'\x1f\x8b'
    return gzip.open(path, 'rt') if gz else open(path)

d=json.load(gmopen(sys.argv[1]))
if len(sys.argv) > 2:
    pred={c['name']: c.get('launch') for c in json.load(gmopen(sys.argv[2]))['cases']}
    for c in d['cases']:
        c['launch']=pred.get(c['name'])
n=0; okr=0; okw=0; rows=[]
for c in d['cases']:
    L=c.get('launch'); k=c.get('counters') or {}
    if not L or k.get('state')!='ok': continue
    pr=L.get('dram_bytes_read',0); pw=L.get('dram_bytes_written',0)
    cr=k['dram']['read_bytes']; cw=k['dram']['write_bytes']
    total=cr+cw
    def err(p,m):
        # a direction below 1e6 bytes or 0.1 % of the case's counted traffic is not judged
        if max(p,m)<max(1e6,1e-3*total): return 0.0
        return 100*(p/m-1) if m>0 else 100.0
    er=err(pr,cr); ew=err(pw,cw); n+=1
    okr+=abs(er)<=5; okw+=abs(ew)<=5
    rows.append((c['name'],pr,cr,er,pw,cw,ew))
print(f"{n} cases: reads within 5%: {okr}, writes within 5%: {okw}, both: {sum(1 for r in rows if abs(r[3])<=5 and abs(r[6])<=5)}")
for r in rows:
    if abs(r[3])>5 or abs(r[6])>5: print("%-34s read %.3e/%.3e %+6.1f%%  write %.3e/%.3e %+6.1f%%"%r)
