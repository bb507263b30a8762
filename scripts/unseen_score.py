#!/usr/bin/env python3
"""Score the launch model on a kernel set (scripts/unseen_set.sh): a development set (tests/gpu/unseen*.tsv,
tests/fixtures/dev/, which rules were shaped on) or the sealed set (tests/fixtures/sealed/, which none is).

usage: unseen_score.py SET RUNDIR [PREDDIR]
RUNDIR holds `explain --run --json` documents (measured; the prediction of the call's profile beside), PREDDIR
(optional) `explain --n --json` documents of the same kernels: their prediction replaces the run's (a model
re-predicting measured kernels offline). With RUNDIR '-' it lists PREDDIR's predictions alone.
Error = |measured / predicted - 1|, as `gpumem run` scores its cases.
"""
import json
import os
import statistics
import sys


def load(d, name):
    p = os.path.join(d, name + ".json")
    try:
        with open(p) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    setf, rund = sys.argv[1], sys.argv[2]
    predd = sys.argv[3] if len(sys.argv) > 3 else None
    group, rows = "", []
    for line in open(setf):
        line = line.rstrip("\n")
        if line.startswith("# ---"):
            group = line[6:].split(" (")[0].split(":")[0]
            continue
        if not line or line.startswith("#"):
            continue
        name, n, typ, block, op, expr = line.split("\t")
        run = load(rund, name) if rund != "-" else None
        pr = load(predd, name) if predd else run
        la = (pr or {}).get("launch", {})
        r = (run or {}).get("run", {})
        meas = r.get("gbs", {}).get("median") if r.get("validated") else None
        c = r.get("counters", {}) or {}
        rows.append(dict(name=name, group=group, pred=la.get("predicted_gbs"), lim=la.get("limited_by", "-"),
                         meas=meas, prd=la.get("dram_bytes_read"), pwr=la.get("dram_bytes_written"),
                         crd=c.get("dram", {}).get("read_bytes"), cwr=c.get("dram", {}).get("write_bytes"),
                         pl2=la.get("l2_sectors"), cl2=c.get("l2", {}).get("sectors"), hit=c.get("l2", {}).get("hit_pct"),
                         status=r.get("status", "-") if run else "-"))
    print("%-20s %-12s %9s %9s %6s %-8s %13s %13s %15s %5s" % ("kernel", "shape", "pred GB/s", "meas GB/s", "m/p",
          "limit", "DRAM rd p/c", "DRAM wr p/c", "L2 sect p/c M", "L2hit"))
    for x in rows:
        mp = "%5.0f%%" % (100 * x["meas"] / x["pred"]) if x["meas"] and x["pred"] else "   -"
        dr = "%.3f/%s" % ((x["prd"] or 0) / 1e9, "%.3f" % (x["crd"] / 1e9) if x["crd"] is not None else "-")
        dw = "%.3f/%s" % ((x["pwr"] or 0) / 1e9, "%.3f" % (x["cwr"] / 1e9) if x["cwr"] is not None else "-")
        l2 = "%.0f/%s" % ((x["pl2"] or 0) / 1e6, "%.0f" % (x["cl2"] / 1e6) if x["cl2"] is not None else "-")
        hit = "%.0f" % x["hit"] if x["hit"] is not None else "-"
        print("%-20s %-12s %9.1f %9s %6s %-8s %13s %13s %15s %5s" % (x["name"], x["group"][:12], x["pred"] or 0,
              "%.1f" % x["meas"] if x["meas"] else x["status"], mp, x["lim"], dr, dw, l2, hit))

    def score(sel, label):
        e = [100 * abs(x["meas"] / x["pred"] - 1) for x in sel if x["meas"] and x["pred"]]
        if not e:
            return
        print("%-44s %2d of %2d within 10 %%, median error %.1f %%, mean abs error %.1f %%" % (
            label, sum(v <= 10 for v in e), len(e), statistics.median(e), statistics.mean(e)))
    if rund != "-":
        print()
        for g in dict.fromkeys(x["group"] for x in rows):
            score([x for x in rows if x["group"] == g], g[:44])
        score(rows, "all")


if __name__ == "__main__":
    main()
