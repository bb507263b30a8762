#!/usr/bin/env python3
"""What a line written partly costs, measured, against rule L4's price (m65, issue 36; docs/log/2026-12-01-model-m65.md).

Reads what scripts/launch_dev_score.sh left in OUTDIR (ratios.tsv: tag, kernel, measured / predicted, limit; and
OUTDIR/TAG/pred/KERNEL.json, explain's prediction with that call's profile). For every store kernel whose lines
written partly (l2_merged_lines + l2_part_lines) are 0.3 a thread or more, limited by L2 or by translations (P2
joins them with L2), one row: measured / predicted, the lane's
bytes, lanes a line of its request (1: each lane alone in its line), lines a request, and the measured and predicted
time per line written partly (ps); then the medians by (lanes a line, lane bytes). A kernel scored on two calls is
shown once (the first). probe-36c (tag c-*) is left out, as launch_dev_score.sh's totals leave it.

--screen A B: an offline screen, not the model: each line whose lane is alone in it and wider than 4 B is priced at
A + B x (its bytes - 4) ps when that is more than the model's time a line, the L2 time grows by the difference and
the launch's time with it (limited by L2: in proportion; otherwise the larger of the two); prints within 10 % and
the mean error before -> after over every kernel of ratios.tsv, and each kernel it moves.

usage: scripts/lab/store_line_costs.py OUTDIR [--screen A B]
"""
import collections
import json
import os
import statistics
import sys


def kernels(out):
    seen = set()
    for line in open(os.path.join(out, "ratios.tsv")):
        f = line.rstrip("\n").split("\t")
        if len(f) < 4 or f[0].startswith("c-"):
            continue
        tag, name, ratio = f[0], f[1], float(f[2])
        d = json.load(open(os.path.join(out, tag, "pred", name + ".json")))
        first = (tag.split("-")[0], name) not in seen
        seen.add((tag.split("-")[0], name))
        yield tag, name, ratio, d, first


def partial_lines(d):
    la = d["launch"]
    return la["l2_merged_lines"] + la["l2_part_lines"]


def screened(ratio, d, a_ps, b_ps):
    """measured / predicted with the screen's price, or None when it does not move the kernel"""
    la = d["launch"]
    pl = partial_lines(d)
    if d["op"] != "store" or not pl > 0 or d["lines"] != d["active_lanes"] or d["elem_bytes"] <= 4:
        return None
    want = (a_ps + b_ps * (d["elem_bytes"] - 4)) * 1e-9  # ms a line
    have = la["t_l2_ms"] / pl
    if not want > have:
        return None
    l2 = la["t_l2_ms"] + (want - have) * pl
    if la["limited_by"] == "L2":
        pred = la["predicted_ms"] * l2 / la["t_l2_ms"]
    else:
        pred = max(la["predicted_ms"], l2)
    return ratio * pred / la["predicted_ms"]


def table(out):
    groups = collections.defaultdict(list)
    print("tag\tkernel\tmeas/pred\tlimit\ttype\tlane B\tlanes a line\tlines a request\tmeas ps a line\tpred ps a line")
    for tag, name, ratio, d, first in kernels(out):
        la = d["launch"]
        pl = partial_lines(d)
        if not first or d["op"] != "store" or not pl >= 0.3 * la["n"] or not d["lines"] or \
           la["limited_by"] not in ("L2", "pages"):
            continue
        per = d["active_lanes"] / d["lines"]
        meas, pred = la["predicted_ms"] / ratio / pl * 1e9, la["predicted_ms"] / pl * 1e9
        groups[(round(per, 1), d["elem_bytes"])].append((meas, ratio))
        print("%s\t%s\t%.3f\t%s\t%s\t%d\t%.2f\t%d\t%.1f\t%.1f" % (tag, name, ratio, la["limited_by"], d["type"],
              d["elem_bytes"], per, d["lines"], meas, pred))
    print("\nlanes a line\tlane B\tkernels\tmedian meas ps a line\tmedian meas/pred")
    for k in sorted(groups):
        v = groups[k]
        print("%.1f\t%d\t%d\t%.1f\t%.3f" % (k[0], k[1], len(v), statistics.median(m for m, _ in v),
              statistics.median(r for _, r in v)))


def screen(out, a_ps, b_ps):
    n = before = after = 0
    eb = ea = 0.0
    moved = []
    for tag, name, ratio, d, first in kernels(out):
        nr = screened(ratio, d, a_ps, b_ps)
        if nr is not None:
            moved.append((tag, name, ratio, nr))
        else:
            nr = ratio
        n += 1
        before += abs(ratio - 1) <= 0.1
        after += abs(nr - 1) <= 0.1
        eb += abs(ratio - 1)
        ea += abs(nr - 1)
    print("screen %.1f + %.2f x (bytes - 4) ps: within 10 %% %d -> %d of %d, mean %.2f -> %.2f %%, %d moved" %
          (a_ps, b_ps, before, after, n, 100 * eb / n, 100 * ea / n, len(moved)))
    for m in sorted(moved, key=lambda x: x[3]):
        print("  %s %s %.3f -> %.3f" % m)


if __name__ == "__main__":
    if len(sys.argv) == 2:
        table(sys.argv[1])
    elif len(sys.argv) == 5 and sys.argv[2] == "--screen":
        screen(sys.argv[1], float(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit(__doc__)
