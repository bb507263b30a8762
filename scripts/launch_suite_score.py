#!/usr/bin/env python3
"""Score `gpumem predict --json` documents of suites: calibration cases apart from the others.

usage: launch_suite_score.py PRED.json[.gz] [...]   (one line a document)
Error = |measured / predicted - 1| (as `gpumem run` scores). The calibration cases are the ones
`gpumem calibrate` runs (gm_calibrate_selectors, src/bench/calibrate.c): their prediction reproduces their
measurement by construction, so they are scored apart. With --cases, every case's name, error and
interval flag (launch.low_gbs..high_gbs) on one line each, for the interval's coverage.
"""
import gzip
import json
import statistics
import sys

CALIBRATION = {"copy.read_b16_tile4", "copy.write_b16_tile4", "copy.v8_b4_tile4", "stride.b16_s008",
               "stride.b16_s032", "copy.v0_b4", "copy.v1_b8", "copy.table_b4", "copy.table_blk1024_b4", "copy.lines_b4",
               "copy.lines_l1_b4", "copy.scatter_b4", "copy.scatter_far_b4", "copy.colstore_b4", "copy.colstore_b16",
               "copy.scatter_blocks_b4", "copy.blk64_b4", "copy.blk1024_b4", "copy.pages_b4",
               "copy.pages_2m_b4", "copy.pages_2m_al_b4", "copy.pages_spread_b4", "copy.pages_16m_b4", "copy.start_b4",
               "copy.sparse_st_b16", "copy.floor_b4"}


def load(p):
    op = gzip.open if p.endswith(".gz") else open
    with op(p, "rt") as f:
        return json.load(f)


def rows(doc):
    for c in doc.get("cases", []):
        la = c.get("launch") or {}
        pred, meas = la.get("predicted_gbs"), (c.get("value") or {}).get("median")
        if c.get("status") != "ok" or not pred or not meas or la.get("bound"):
            continue
        yield c["name"], meas, pred, la


def score(errs):
    if not errs:
        return "none"
    return "%3d of %3d within 10 %%, median %.1f %%, mean %.1f %%" % (
        sum(e <= 10 for e in errs), len(errs), statistics.median(errs), statistics.mean(errs))


def main():
    args = [a for a in sys.argv[1:] if a != "--cases"]
    if not args:
        sys.exit(__doc__)
    for p in args:
        doc = load(p)
        cal, other = [], []
        for name, meas, pred, la in rows(doc):
            e = 100 * abs(meas / pred - 1)
            (cal if name in CALIBRATION else other).append(e)
            if "--cases" in sys.argv:
                lo, hi = la.get("low_gbs"), la.get("high_gbs")
                inside = "-" if lo is None else ("in" if lo <= meas <= hi else "out")
                print("%-40s %7.1f %%  %s" % (name, 100 * (meas / pred - 1), inside))
        print("%s: non-calibration %s; calibration cases apart: %s" % (p, score(other), score(cal)))


if __name__ == "__main__":
    main()
