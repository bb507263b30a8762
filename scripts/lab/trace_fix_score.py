#!/usr/bin/env python3
"""trace_fix_score.py REPORTS_DIR PAIRS: the fix's predicted whole-kernel speedup against the program's own
faster version (issue 38: within 20 % for at least 80 % of the naive kernels).

REPORTS_DIR holds NAME.json[.gz] or NAME.report.json[.gz], `gpumem trace --json` (or `--from`) of each run.
PAIRS has one line per naive kernel: `NAIVE FAST [FAST...]`, each a run name with an optional `:LAUNCH` (the
launch_index; without it every traced launch of the run, their times summed). The measured speedup is the naive
time over the fastest of all (the naive one included: then 1.0); the predicted one is the naive launch's best fix that is worth changing
(its `kernel_speedup`), or 1.0 when the report says nothing is worth changing; for a whole run (no launch index),
the run's predicted speedup from its run-level findings (`across_launches.speedup`) where it is larger; for one launch, a
run-level finding about that launch alone (clone, domain: first_launch = second_launch) as the launch's time over it
less the finding's saved_ms, where that is larger. A row is right when
|predicted / measured - 1| <= 20 %. Lines starting with '#' are comments.
"""
import gzip
import json
import lzma
import os
import sys


def load(rdir, name):
    for n in (name + ".json", name + ".report.json"):
        for p in (os.path.join(rdir, n), os.path.join(rdir, n + ".gz"), os.path.join(rdir, n + ".xz")):
            if os.path.exists(p):
                return json.load((gzip.open if p.endswith(".gz") else lzma.open if p.endswith(".xz") else open)(p, "rt"))
    return None


def kernels(rdir, token):
    run, _, launch = token.partition(":")
    doc = load(rdir, run)
    if not doc:
        return None
    ks = [k for k in doc.get("kernels", []) if not launch or k.get("launch_index") == int(launch)]
    return ks or None


def time_ms(ks):
    ts = [k.get("time_ms") for k in ks]
    return None if any(t is None for t in ts) else sum(ts)


def best_fix(ks):
    best, where = 1.0, "nothing worth changing"
    for k in ks:
        for ins in k.get("instructions", []):
            f = ins.get("fix") or {}
            if f.get("worth_changing") and (f.get("kernel_speedup") or 0) > best:
                best = f["kernel_speedup"]
                where = "%s:%s %s" % (ins.get("file"), ins.get("line"), f.get("rewrite"))
    return best, where


def main():
    rdir, pairs = sys.argv[1:3]
    rows, right = 0, 0
    print("| naive | fast | naive ms | fastest ms | measured x | predicted x (fix) | error | within 20 % |")
    print("|---|---|---|---|---|---|---|---|")
    for line in open(pairs):
        line = line.split("#")[0].split()
        if len(line) < 2:
            continue
        naive = kernels(rdir, line[0])
        fast = [(t, kernels(rdir, t)) for t in line[1:]]
        fast = [(t, time_ms(k)) for t, k in fast if k and time_ms(k)]
        if not naive or time_ms(naive) is None or not fast:
            print("| %s | %s | (missing) | | | | | |" % (line[0], " ".join(line[1:])))
            continue
        tn = time_ms(naive)
        tf_name, tf = min(fast + [(line[0], tn)], key=lambda x: x[1])   # the naive one may be the fastest
        meas = tn / tf
        pred, where = best_fix(naive)
        if ":" not in line[0]:   # the whole run: its run-level fixes (across_launches) when they predict more
            doc = load(rdir, line[0])
            run = (doc or {}).get("across_launches") or {}
            if (run.get("speedup") or 0) > pred and run.get("findings"):
                pred = run["speedup"]
                where = "run: " + ", ".join("%s %s->%s" % (f["rule"], f["first_launch"], f["second_launch"])
                                            for f in run["findings"])
        else:   # one launch: a run-level finding about that launch alone (clone, domain), as that launch's speedup
            doc = load(rdir, line[0].partition(":")[0])
            for f in ((doc or {}).get("across_launches") or {}).get("findings") or []:
                if f["first_launch"] == f["second_launch"] == naive[0].get("launch_index") and 0 < f["saved_ms"] < tn \
                        and tn / (tn - f["saved_ms"]) > pred:
                    pred, where = tn / (tn - f["saved_ms"]), "run: %s %s" % (f["rule"], f["first_launch"])
        err = pred / meas - 1
        ok = abs(err) <= 0.20
        rows += 1
        right += ok
        print("| %s | %s | %.4f | %.4f | %.2f | %.2f (%s) | %+.0f %% | %s |"
              % (line[0], tf_name, tn, tf, meas, pred, where, 100 * err, "yes" if ok else "no"))
    print("\n%d of %d naive kernels: the fix's predicted speedup within 20 %% of the measured one" % (right, rows))


if __name__ == "__main__":
    main()
