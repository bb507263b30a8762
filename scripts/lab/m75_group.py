#!/usr/bin/env python3
"""Development misses (|measured/predicted - 1| > 10 %) grouped by shape, element size, op and limiting level.
usage: m75_group.py RATIOS.tsv [KEY...]   KEY among shape, elem, op, limit, block (default: each alone)
Reads the dev sets' rows (tests/fixtures/dev/*.tsv) for element type, op and block size; never a sealed set."""
import collections, glob, os, sys
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SETS = {}
for f in glob.glob(os.path.join(root, "tests/fixtures/dev/*.tsv")):
    b = os.path.basename(f)[:-4]
    rows = {}
    for line in open(f):
        if line.startswith("#") or not line.strip():
            continue
        p = line.rstrip("\n").split("\t")
        rows[p[0]] = dict(n=p[1], elem=p[2], block=p[3], op=p[4], expr=p[5])
    SETS[b] = rows
def setof(tag):
    t = tag.split("-")[0]
    if t.startswith("probe"):
        return "probe-" + t[5:]
    return "probe-36c" if t == "c" else "dev-36" + t
recs = []
for line in open(sys.argv[1]):
    tag, name, r, lim = line.rstrip("\n").split("\t")
    if tag.startswith(("c-", "probe")):
        continue
    row = SETS[setof(tag)][name]
    recs.append(dict(tag=tag, name=name, r=float(r), limit=lim, shape=name.rsplit("_", 1)[0], **row))
keys = sys.argv[2:] or ["shape", "elem", "op", "limit"]
for k in keys:
    ks = k.split("+")
    g = collections.defaultdict(list)
    for x in recs:
        g[tuple(x[q] for q in ks)].append(x)
    print("\n%-28s %5s %5s %5s %5s %7s" % (k, "n", "miss", "over", "under", "mean%"))
    for key, xs in sorted(g.items(), key=lambda kv: -sum(abs(x["r"] - 1) > .1 for x in kv[1])):
        over = sum(x["r"] > 1.1 for x in xs); under = sum(x["r"] < .9 for x in xs)
        print("%-28s %5d %5d %5d %5d %7.2f" % ("/".join(key), len(xs), over + under, over, under,
              100 * sum(abs(x["r"] - 1) for x in xs) / len(xs)))
