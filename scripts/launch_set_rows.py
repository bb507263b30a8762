#!/usr/bin/env python3
"""A kernel set's measurements joined with its predictions (scripts/unseen_set.sh's folders), by kernel name.

usage: launch_set_rows.py TAG SET.tsv RUNDIR PREDDIR   prints TAG, kernel, measured / predicted, limiting level
As a module: rows(SET.tsv, RUNDIR, PREDDIR) yields (kernel, measured GB/s, the prediction's `launch` object) for
every kernel validated and predicted.
"""
import json
import os
import sys


def rows(setf, rund, predd):
    for line in open(setf):
        if line.startswith("#") or not line.strip():
            continue
        name = line.split("\t")[0]
        try:
            r = json.load(open(os.path.join(rund, name + ".json")))["run"]
            la = json.load(open(os.path.join(predd, name + ".json")))["launch"]
        except (OSError, ValueError, KeyError):
            continue
        m = (r.get("gbs") or {}).get("median") if r.get("validated") else None
        if m and la.get("predicted_gbs"):
            yield name, m, la


if __name__ == "__main__":
    tag = sys.argv[1]
    for name, m, la in rows(*sys.argv[2:5]):
        print("%s\t%s\t%.4f\t%s" % (tag, name, m / la["predicted_gbs"], la.get("limited_by", "")))
