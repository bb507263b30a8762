#!/usr/bin/env python3
"""calib_profile_diff.py A.json[,A2.json...] B.json[,B2.json...]: calibrate profiles of two binaries side by side.

Each field: A's values and B's, each set's spread (max - min over |max|, %), and B's mean against A's in %; a field is
flagged 'OUT' when a value of B lies outside A's range widened by A's own spread (both sets' run-to-run noise), and
'DIFF' when any of A and B differ where both sets are one value each (derived fields fed the same measurements must
be bit-identical). Optional fields missing from a profile print as '-'. Exit 0 always (a report, not a test)."""
import json, sys


def load(arg):
    return [(f, json.load(open(f))) for f in arg.split(',') if f]


a, b = load(sys.argv[1]), load(sys.argv[2])
keys = []
for _, p in a + b:
    for k, v in p.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in keys:
            keys.append(k)


def spread(v):
    return 100 * (max(v) - min(v)) / abs(max(v)) if v and max(v) else 0.0


print("A: " + ", ".join(f for f, _ in a))
print("B: " + ", ".join(f for f, _ in b))
print("%-24s %-40s %-40s %8s %8s %9s" % ("field", "A", "B", "A spr%", "B spr%", "B-A %"))
flags = 0
for k in keys:
    va = [p[k] for _, p in a if isinstance(p.get(k), (int, float))]
    vb = [p[k] for _, p in b if isinstance(p.get(k), (int, float))]
    fa = " ".join("%.6g" % x for x in va) or "-"
    fb = " ".join("%.6g" % x for x in vb) or "-"
    d = (100 * (sum(vb) / len(vb) / (sum(va) / len(va)) - 1)) if va and vb and sum(va) else float('nan')
    flag = ""
    if va and vb:
        w = (max(va) - min(va))
        if len(va) == 1 and len(vb) == 1:
            flag = "DIFF" if va[0] != vb[0] else ""
        elif any(x < min(va) - w or x > max(va) + w for x in vb):
            flag = "OUT"
    flags += bool(flag)
    print("%-24s %-40s %-40s %8.3f %8.3f %9.4f %s" % (k, fa[:40], fb[:40], spread(va), spread(vb), d, flag))
print("fields flagged: %d" % flags)
