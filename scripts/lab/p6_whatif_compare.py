#!/usr/bin/env python3
"""Compare launch_dev_score.sh outputs (ratios.tsv) of a baseline and variants: per set within 10 % and mean
error, and every kernel whose ratio moved by more than 0.5 %. usage: p6_whatif_compare.py BASE.tsv VAR.tsv..."""
import sys


def load(p):
    r = {}
    for line in open(p):
        tag, name, x, lim = line.rstrip("\n").split("\t")
        r[(tag, name)] = (float(x), lim)
    return r


def score(r, keep):
    e = [abs(x - 1) * 100 for (t, _), (x, _) in r.items() if keep(t)]
    return sum(v <= 10 for v in e), len(e), sum(e) / len(e)


base, vars_ = load(sys.argv[1]), [load(p) for p in sys.argv[2:]]
tags = list(dict.fromkeys(t for t, _ in base))
noprobe = lambda t: not t.startswith(("c-", "probe"))
print("set\tbase\t" + "\t".join(sys.argv[2:]))
for label, keep in [("all (no probe)", noprobe)] + [(t, (lambda t0: lambda t: t == t0)(t)) for t in tags]:
    b = score(base, keep)
    row = ["%d/%d %.2f%%" % b]
    changed = False
    for v in vars_:
        s = score(v, keep)
        changed |= abs(s[2] - b[2]) > 1e-6
        row.append("%d %.2f%%" % (s[0], s[2]))
    if changed or label == "all (no probe)":
        print(label + "\t" + "\t".join(row))
print("\nkernels moved (measured / predicted): base -> variants")
for k, (x, lim) in base.items():
    xs = [v[k][0] for v in vars_]
    if any(abs(y - x) > 0.005 * x for y in xs):
        flag = "".join("+" if abs(y - 1) <= 0.1 < abs(x - 1) else "-" if abs(x - 1) <= 0.1 < abs(y - 1) else "." for y in xs)
        print("%s %s %s %.3f -> %s %s" % (k[0], k[1], lim, x, " / ".join("%.3f" % y for y in xs), flag))
