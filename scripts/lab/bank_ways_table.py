#!/usr/bin/env python3
"""Latency-limited column-walk loads over 32 rows and 32x32 transposed-tile loads, by the L1 bank ways of a request
(c83, issue 36; docs/log/2026-12-03-c83.md).

Reads what scripts/launch_dev_score.sh left in OUTDIR (ratios.tsv and the sets it names). For every development-set
load (probes and probe-36c left out) limited by latency whose index is `(gid%32)*P + gid/32` in blocks of 256-1024
or `((bx%C)*32 + tx)*P + (bx/C)*32 + ty` in blocks of 32x32, one row: rule T1's bank ways of warp 0's request (the
most distinct 4 B words one of the 32 banks holds; 8 and 16 B lanes: their 32 lines, as l1_wavefronts counts them),
element, block, measured / predicted, pitch. With NO_T13_BIN (a gpumem built with spread_ms returning 0) each kernel
is re-predicted with its call's profile by BIN and by NO_T13_BIN: the measured time, the prediction, the prediction
without rule T13, T13's part, and the part the measurement leaves to it ("needed"), all in ps a thread.

usage: scripts/lab/bank_ways_table.py OUTDIR [BIN NO_T13_BIN]
"""
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SIZE = {"char": 1, "short": 2, "float": 4, "double": 8, "float4": 16}
WALK = re.compile(r"\(gid%32\)\*(\d+) \+ gid/32$")
TILE = re.compile(r"\(\(bx%\d+\)\*32 \+ tx\)\*(\d+) \+ \(bx/\d+\)\*32 \+ ty$")


def sets():
    src = open(os.path.join(ROOT, "scripts", "launch_dev_score.sh")).read()
    return {t: (f, d) for t, f, d in re.findall(r"^\s+(\S+) \$dv/(\S+\.tsv) \$h2/(\S+) ", src, re.M)}


def ways(pitch_bytes, elem):
    if elem > 4:
        return 32
    words = {(i * pitch_bytes) // 4 for i in range(32)}
    return max(collections.Counter(w % 32 for w in words).values())


def predict(binary, row, prof):
    env = dict(os.environ, XDG_CACHE_HOME="/tmp/bank_ways_cache")
    out = subprocess.run([binary, "explain", "--json", "--n", row[1], "--type", row[2], "--block", row[3], "--op",
                          row[4], "--profile", prof, "--", row[5]], capture_output=True, text=True, env=env).stdout
    return json.loads(out)["launch"]


def main():
    outdir = sys.argv[1]
    bins = sys.argv[2:4] if len(sys.argv) >= 4 else None
    known = sets()
    rows = []
    for line in open(os.path.join(outdir, "ratios.tsv")):
        tag, name, ratio, lim = line.split()
        if tag.startswith(("c-", "probe")) or lim != "latency" or tag not in known:
            continue
        setf, call = known[tag]
        row = [x for x in open(os.path.join(ROOT, "tests", "fixtures", "dev", setf))
               if x.startswith(name + "\t")][0].rstrip("\n").split("\t")
        if row[4] != "load" or row[2] not in SIZE:
            continue
        m = WALK.match(row[5]) if row[3] in ("256", "512", "1024") else TILE.match(row[5]) if row[3] == "32,32" else None
        if not m:
            continue
        pb = int(m.group(1)) * SIZE[row[2]]
        rows.append((row[3] == "32,32", -ways(pb, SIZE[row[2]]), float(ratio), tag, name, row, call, pb))
    rows.sort()
    for tile, w, r, tag, name, row, call, pb in rows:
        s = "%-7s ways %2d %-6s blk %-5s %-12s %-11s %.3f pitch %10d B" % (
            "tilet" if tile else "colwalk", -w, row[2], row[3], tag, name, r, pb)
        if bins:
            prof = os.path.join(ROOT, "results", "nvidia-h200", call, "profile-calibrate.json")
            a, z = predict(bins[0], row, prof), predict(bins[1], row, prof)
            n = float(row[1]) / 1e9
            meas = a["predicted_ms"] / r
            s += "  ps/thr: meas %.2f pred %.2f no-T13 %.2f T13 %.2f needed %.2f" % (
                meas / n, a["predicted_ms"] / n, z["predicted_ms"] / n,
                (a["t_latency_ms"] - z["t_latency_ms"]) / n, (meas - z["predicted_ms"]) / n)
        print(s)


if __name__ == "__main__":
    main()
