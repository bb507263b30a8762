#!/usr/bin/env python3
"""suggest_score.py DIR - score `explain --suggest --run` documents (DIR/json/NAME.json or DIR/json.tar.gz, as
scripts/suggest_gpu.sh writes them): for every rewrite that applied, was validated and timed, its predicted
speedup against the measured one (the headline of each: a layout rewrite with its conversion once, unless
--layout-free was given). Prints a row per rewrite, then the mean and median |predicted / measured - 1|, the
share within 10 % and 15 %, by class (DIR/rc.txt) and over all, by rewrite (mean, signed mean and spread of the
error: which rewrites carry it), and each pattern's closing sentence.
Where the error comes from: each row's measured / predicted time of the rewrite and of the original (their ratio
is measured / predicted speedup) and their mean errors, a diagnosis, not the target. Reads only what the runs
wrote."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suggest_docs import Committed  # noqa: E402

d = sys.argv[1]
docs = Committed(d)
order = []
for line in open(os.path.join(d, "rc.txt")):
    f = line.split()
    if len(f) >= 3 and f[0] != "families" and "rc=0" in f[2]:
        order.append((f[0], f[1]))
rows, sentences = [], []
for name, cls in order:
    s = docs.load(name)
    s = s.get("suggest", s)
    sentences.append((name, s.get("sentence", "")))
    o = s["rows"][0]
    o_tm = ((o.get("run") or {}).get("ms_per_launch") or 0) / o["predicted"]["ms"] if o.get("predicted") else 0
    for r in s["rows"][1:]:
        run = r.get("run") or {}
        if not r.get("applies") or run.get("status") != "ok" or not run.get("validated"):
            continue
        pred, meas = r.get("predicted_speedup"), run.get("speedup")
        if pred and meas:
            r_tm = run.get("ms_per_launch", 0) / r["predicted"]["ms"] if r.get("predicted") else 0
            rows.append((name, cls, r["name"], pred, meas, abs(pred / meas - 1), r_tm, o_tm))
print("| pattern | class | rewrite | predicted | measured | pred/meas - 1 | rewrite time meas/pred | original's |")
print("|---|---|---|---|---|---|---|---|")
for name, cls, rw, p, m, e, rt, ot in rows:
    print("| %s | %s | %s | %.2fx | %.2fx | %+.1f %% | %.2f | %.2f |" % (name, cls, rw, p, m, 100 * (p / m - 1), rt, ot))
print()
for cls in sorted({r[1] for r in rows}) + ["all"]:
    es = [r[5] for r in rows if cls == "all" or r[1] == cls]
    if es:
        print("%s: %d measured rewrites, mean error %.1f %%, median %.1f %%, within 10 %%: %d (%.0f %%), within 15 %%: %d"
              % (cls, len(es), 100 * statistics.mean(es), 100 * statistics.median(es),
                 sum(e <= 0.10 for e in es), 100 * sum(e <= 0.10 for e in es) / len(es), sum(e <= 0.15 for e in es)))
print()
print("By rewrite (a diagnosis): rows, mean |error|, mean signed error (predicted / measured - 1), its spread, within 10 %")
kinds = {}
for r in rows:
    kinds.setdefault(r[2], []).append(r[3] / r[4] - 1)
for k, es in sorted(kinds.items(), key=lambda kv: -sum(abs(e) for e in kv[1])):
    print("- %s: %d, %.1f %%, %+.1f %%, %.1f %%, %d" % (k, len(es), 100 * statistics.mean(abs(e) for e in es),
                                                   100 * statistics.mean(es), 100 * statistics.pstdev(es),
                                                   sum(abs(e) <= 0.10 for e in es)))
print()
print("Diagnosis, not the target: the times alone, mean |measured / predicted ms - 1| (a speedup divides the two, so")
print("errors the original and its rewrite share cancel; a rewrite's speedup predicted from the original's measured")
print("time would carry the rewrite's time error whole)")
for cls in sorted({r[1] for r in rows}) + ["all"]:
    sel = [r for r in rows if cls == "all" or r[1] == cls]
    rt, ot = [abs(r[6] - 1) for r in sel if r[6]], [abs(r[7] - 1) for r in sel if r[7]]
    if rt and ot:
        print("%s: the rewrites' time %.1f %%, their originals' %.1f %%" % (cls, 100 * statistics.mean(rt),
                                                                          100 * statistics.mean(ot)))
print()
for name, sent in sentences:
    print("- %s: %s" % (name, sent))
