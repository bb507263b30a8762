#!/usr/bin/env python3
"""The strided kernels `gid*K (+ c)` of every development set launch_dev_score.sh scored into OUTDIR, 96 B apart or more:
op, stride, lane bytes, the time a lane measured and predicted (ps, with its dense other side), measured / predicted.
usage: stride_lanes.py OUTDIR [TAG SET.tsv RESULTS_DIR SUBFOLDER ...] (the EXTRA_SETS the score had)"""
import json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from launch_set_rows import rows
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
out = sys.argv[1]
txt = open(os.path.join(ROOT, "scripts/launch_dev_score.sh")).read()
quads = re.findall(r"^  (\S+) (\$dv/\S+) (\$h2/\S+) (\S+)$", txt, re.M)
quads = [(t, s.replace("$dv", "tests/fixtures/dev"), d, sub) for t, s, d, sub in quads]
ex = sys.argv[2:]
quads += [tuple(ex[i:i+4]) for i in range(0, len(ex), 4)]
EB = dict(char=1, short=2, half=2, int=4, float=4, double=8, float2=8, float4=16, int4=16, double2=16)
res = []
for tag, setf, d, sub in quads:
    if tag.startswith("c-"): continue
    meta = {}
    for line in open(os.path.join(ROOT, setf)):
        if line.startswith("#") or not line.strip(): continue
        name, n, ty, blk, op, expr = line.rstrip("\n").split("\t")
        meta[name] = (int(n), ty, blk, op, expr)
    for name, m, la in rows(os.path.join(ROOT, setf), f"{out}/{tag}/runs/{sub}", f"{out}/{tag}/pred"):
        n, ty, blk, op, expr = meta[name]
        mm = re.fullmatch(r"gid\*(\d+)( \+ \d+)?", expr)
        if not mm: continue
        eb = EB[ty]; S = int(mm.group(1)) * eb
        if S < 96: continue
        tm = 2 * n * eb / m / 1e6  # ms
        tp = 2 * n * eb / la["predicted_gbs"] / 1e6
        res.append((op, S, eb, tag, name, n, blk, tm / n * 1e9, tp / n * 1e9, m / la["predicted_gbs"], la.get("limited_by")))
res.sort(key=lambda r: (r[0], r[1], r[2]))
for r in res:
    print("%-5s %5d B %2d B %-10s %-10s n=%9d b%-5s  meas %6.1f ps  pred %6.1f ps  ratio %.3f %s" % r)
