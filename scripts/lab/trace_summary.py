#!/usr/bin/env python3
"""trace_summary.py TRACES_DIR REPORTS_DIR: one markdown row per traced launch of a call's trace documents.

TRACES_DIR holds NAME.trace.json[.gz|.xz] (what `gpumem trace --keep-trace` wrote on the GPU: measured time, traced
time, counts); REPORTS_DIR holds NAME.json[.gz], `gpumem trace --from` of each (the analysis of the commit that
reads it). Columns: the run, launch, kernel, measured ms, traced ms and its ratio, the predicted ms with its error
and limit, the largest memory instruction's place and class, its sectors a request (measured / ideal).
"""
import gzip
import json
import lzma
import os
import sys


def load(path):
    for p in (path, path + ".gz", path + ".xz"):
        if os.path.exists(p):
            return json.load((gzip.open if p.endswith(".gz") else lzma.open if p.endswith(".xz") else open)(p, "rt"))
    return None


def main():
    tdir, rdir = sys.argv[1:3]
    print("| run | launch | kernel | time ms | traced ms | x | predicted ms (err), limited by | largest instruction "
          "| class | per request (ideal) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in sorted(f.split(".")[0] for f in os.listdir(tdir) if ".trace.json" in f):
        t, r = load(os.path.join(tdir, name + ".trace.json")), load(os.path.join(rdir, name + ".json"))
        if not t or not r:
            continue
        traced = {l["index"]: l.get("traced_ms") for l in t["launches"]}
        for k in r["kernels"]:
            tm, tr, p = k.get("time_ms"), traced.get(k["launch_index"]), k.get("predicted") or {}
            x = "%.0f" % (tr / tm) if tm and tr else "-"
            err = " (%+.0f %%)" % p["error_pct"] if p.get("error_pct") is not None else ""
            ins = max(k["instructions"], key=lambda i: i.get("share") or 0) if k["instructions"] else {}
            pr = ins.get("per_request") or {}
            where = "%s:%s %s %s" % (os.path.basename(ins.get("file") or "?"), ins.get("line"), ins.get("op"),
                                     ins.get("space"))
            print("| %s | %s | %s | %s | %s | %s | %s%s, %s | %s | %s | %s |" % (
                name, k["launch_index"], (k.get("name") or k["kernel"])[:48], "%.4f" % tm if tm else "-",
                "%.2f" % tr if tr else "-", x, "%.4f" % p["time_ms"] if p.get("time_ms") else "-", err,
                p.get("limited_by", "-"), where, ins.get("class", "-"),
                "%.2f (%.2f)" % (pr["measured"], pr["ideal"]) if pr.get("measured") is not None else "-"))


if __name__ == "__main__":
    main()
