#!/usr/bin/env python3
"""trace_without_s2.py REPORTS OUT: the same `gpumem trace --json` reports with rule S2 taken back out (docs/TRACE.md,
"Rule S2"), for a before -> after from one analysis: each kernel's predicted time less the start and drain its note
names ("rule S2: X ms ..."), its error recomputed. A prediction a floor raised (limited by issue, launch or atomics)
keeps its time: the model's time with S2 was under that floor, so it was without. Then
    python3 scripts/lab/trace_score.py OUT REPORTS
"""
import json
import os
import re
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json"):
            continue
        r = json.load(open(os.path.join(src, f)))
        for k in r.get("kernels", []):
            p = k.get("predicted") or {}
            m = re.search(r"rule S2: ([0-9.]+) ms", p.get("note") or "")
            if not m or p.get("limited_by") in ("issue", "launch", "atomics") or p.get("time_ms") is None:
                continue
            p["time_ms"] -= float(m.group(1))
            if k.get("time_ms"):
                p["error_pct"] = 100 * (p["time_ms"] / k["time_ms"] - 1)
        json.dump(r, open(os.path.join(out, f), "w"))


if __name__ == "__main__":
    main()
