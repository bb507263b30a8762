#!/usr/bin/env python3
"""trace_score.py REPORTS_DIR [REPORTS_DIR2]: issue 38's kernel-time score over `gpumem trace --json` reports.

One row per traced kernel with a measured time: the measured and predicted ms, the error, whether it is
memory-bound (the report's "memory_bound": the busiest memory level at its measured roof needs 60 % of the
measured time or more; docs/TRACE.md, "Memory-bound") and the share; then the score: within 15 % over all
kernels with a prediction and over the memory-bound ones. With a second directory (the same names), its error
beside the first's (before -> after). Repeated control runs (control_*) are left out.
"""
import gzip
import json
import os
import sys


def load(path):
    for p in (path, path + ".gz"):
        if os.path.exists(p):
            return json.load((gzip.open if p.endswith(".gz") else open)(p, "rt"))
    return None


def rows(d):
    out = {}
    for f in sorted(os.listdir(d)):
        if not f.endswith((".json", ".json.gz")) or f.startswith("control_"):
            continue
        r = load(os.path.join(d, f))
        if not r or "kernels" not in r:
            continue
        name = f.split(".")[0]
        for k in r["kernels"]:
            p = k.get("predicted") or {}
            if not k.get("time_ms") or p.get("error_pct") is None:
                continue
            mb = k.get("memory_bound") or {}
            out["%s:%s" % (name, k["launch_index"])] = (
                (k.get("name") or k["kernel"])[:40], k["time_ms"], p["time_ms"], p["error_pct"], mb.get("bound"),
                mb.get("share"), mb.get("level"), p.get("limited_by"))
    return out


def score(rs, keys, bound_of):
    n = sum(1 for x in keys)
    w = sum(1 for x in keys if abs(rs[x][3]) <= 15)
    mb = [x for x in keys if bound_of(x)]
    wm = sum(1 for x in mb if abs(rs[x][3]) <= 15)
    return "within 15 %%: %d of %d kernels; memory-bound %d of %d" % (w, n, wm, len(mb))


def main():
    a = rows(sys.argv[1])
    b = rows(sys.argv[2]) if len(sys.argv) > 2 else None
    print("| run:launch | kernel | time ms | bound (share, level) | predicted ms | error %s|" %
          ("| after ms | after error " if b else ""))
    print("|---|---|---|---|---|---|" + ("---|---|" if b else ""))
    for key, (nm, t, p, e, bd, sh, lv, lim) in a.items():
        row = "| %s | %s | %.4f | %s (%s, %s) | %.4f | %+.0f %% |" % (
            key, nm, t, "yes" if bd else "no" if bd is not None else "?", "%.2f" % sh if sh is not None else "-",
            lv, p, e)
        if b and key in b:
            row += " %.4f | %+.0f %% |" % (b[key][2], b[key][3])
        print(row)
    bound = lambda x: a[x][4]
    print("\n" + ("before: " if b else "") + score(a, list(a), bound))
    if b:
        keys = [x for x in a if x in b]
        print("after:  " + score(b, keys, lambda x: b[x][4]))


if __name__ == "__main__":
    main()
