#!/usr/bin/env python3
"""Summarise scripts/gpu_session.sh stage soak: N runs of one suite back to back.

usage: soak_summary.py DIR N [--csv FILE] [--classes TABLE]
DIR holds, for run k = 1..N: soak_k.json (the run), soak_time_k.txt (/usr/bin/time -v), soak_state_k.txt (lines
'before|after used_mib=... avail_kib=...': nvidia-smi's memory.used and /proc/meminfo's MemAvailable).
Prints per run: exit, wall, peak host RSS, device memory used and host memory available before and after, the
device's free memory the run saw at its start (cudaMemGetInfo); then per case the spread of its median across the
runs against its own CoV within a run. --csv FILE writes each case's median and CoV per run (one row a case), the
figures the spread comes from, small enough to commit beside one whole run.
Each case's between-processes class (docs/METHODOLOGY.md "Between processes": host, link, power, placement) comes
from the documents ("between_processes") or, for documents written before it existed, from --classes TABLE: the
text table `gpumem report soak_1.json` prints with this build's rules (a row ending in "~CLASS"). The verdict:
every figure without a class within max(its CoV within a run, 1 %); the classed ones listed with their spread.
"""
import json
import os
import re
import statistics
import sys


def read_state(path):
    st = {}
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"(before|after) used_mib=(\d+) avail_kib=(\d+)", line)
            if m:
                st[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return st


def read_time(path):
    rss = wall = rc = None
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            if "Maximum resident set size" in line:
                rss = int(line.split(":")[-1])
            elif "Elapsed (wall clock)" in line:
                t = line.rsplit(": ", 1)[-1].strip().split(":")
                wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(t)))
            elif "Exit status" in line:
                rc = int(line.split(":")[-1])
    return rc, wall, rss


def main():
    d, n = sys.argv[1], int(sys.argv[2])
    runs = []
    print("| run | exit | wall s | peak host RSS MiB | device used MiB before -> after | host available MiB before -> "
          "after | device free at start GiB | cases ok |")
    print("|---|---|---|---|---|---|---|---|")
    for k in range(1, n + 1):
        rc, wall, rss = read_time(os.path.join(d, f"soak_time_{k}.txt"))
        st = read_state(os.path.join(d, f"soak_state_{k}.txt"))
        doc = None
        try:
            doc = json.load(open(os.path.join(d, f"soak_{k}.json")))
        except (OSError, ValueError):
            pass
        runs.append(doc)
        b, a = st.get("before", (None, None)), st.get("after", (None, None))
        free = doc["device"].get("free_mem") if doc else None
        ok = sum(c["status"] == "ok" for c in doc["cases"]) if doc else None
        fmt = lambda x, s=1: "?" if x is None else f"{x / s:.0f}"
        print(f"| {k} | {rc} | {wall} | {fmt(rss, 1024)} | {fmt(b[0])} -> {fmt(a[0])} | {fmt(b[1], 1024)} -> "
              f"{fmt(a[1], 1024)} | {'?' if free is None else f'{free / 2**30:.2f}'} | {ok} |")
    docs = [r for r in runs if r]
    if "--csv" in sys.argv:
        with open(sys.argv[sys.argv.index("--csv") + 1], "w") as f:
            f.write("case,unit," + ",".join(f"median_{k},cov_pct_{k}" for k in range(1, len(docs) + 1)) + "\n")
            for c0 in docs[0]["cases"]:
                cells = []
                for r in docs:
                    c = next((x for x in r["cases"] if x["name"] == c0["name"]), None)
                    ok = c is not None and c["status"] == "ok"
                    cells += [repr(c["value"]["median"]) if ok else "", repr(c["stats_ms"]["cov_pct"]) if ok else ""]
                f.write(f"{c0['name']},{c0['value'].get('unit', '')}," + ",".join(cells) + "\n")
    if len(docs) < 2:
        print("\nfewer than two runs finished: no spread")
        return
    by = {}
    for r in docs:
        for c in r["cases"]:
            if c["status"] == "ok" and c.get("value", {}).get("median"):
                by.setdefault(c["name"], []).append((c["value"]["median"], c.get("stats_ms", {}).get("cov_pct", 0)))
    rows = []
    for name, v in by.items():
        if len(v) < len(docs):
            continue
        meds = [x[0] for x in v]
        mean = statistics.mean(meds)
        across = 100 * statistics.stdev(meds) / mean if mean else 0
        spread = 100 * (max(meds) - min(meds)) / mean if mean else 0
        within = statistics.median(x[1] for x in v)
        rows.append((name, across, spread, within))
    cls = {}
    for c in docs[0]["cases"]:
        if c.get("between_processes"):
            cls[c["name"]] = c["between_processes"]["class"]
    if "--classes" in sys.argv:
        for line in open(sys.argv[sys.argv.index("--classes") + 1]):
            m = re.match(r"(\S+)\s.*\s~(host|link|power|placement)\s*$", line)
            if m:
                cls[m.group(1)] = m.group(2)
    inside = [r for r in rows if r[1] <= max(r[3], 0.0)]
    inside1 = [r for r in rows if r[1] <= max(r[3], 1.0)]
    print(f"\n{len(rows)} cases ok in all {len(docs)} runs. The CoV of a case's median across the runs is at most its "
          f"median CoV within a run for {len(inside)} of them; at most that or 1 % for {len(inside1)}. Median "
          f"across-run CoV {statistics.median(r[1] for r in rows):.2f} %, median within-run CoV "
          f"{statistics.median(r[3] for r in rows):.2f} %.\n")
    plain = [r for r in rows if r[0] not in cls]
    out = [r for r in plain if r[1] > max(r[3], 1.0)]
    moved = [r for r in rows if r[0] in cls and r[1] > max(r[3], 1.0)]
    print(f"**Verdict**: {len(plain) - len(out)} of the {len(plain)} figures without a between-processes class moved "
          f"across the runs by at most max(their CoV within a run, 1 %); {len(rows) - len(plain)} figures carry a class "
          f"(host, link, power, placement), {len(moved)} of them moved more.\n")
    if out:
        print("Figures without a class that moved more than max(CoV, 1 %):\n")
        print("| case | across-run CoV % | max-min % | within-run CoV % |")
        print("|---|---|---|---|")
        for name, across, spread, within in sorted(out, key=lambda r: -r[1]):
            print(f"| {name} | {across:.2f} | {spread:.2f} | {within:.2f} |")
        print()
    if moved:
        print("Figures with a class that moved more than max(CoV, 1 %) (the class says why):\n")
        print("| case | class | across-run CoV % | max-min % | within-run CoV % |")
        print("|---|---|---|---|---|")
        for name, across, spread, within in sorted(moved, key=lambda r: (cls[r[0]], -r[1])):
            print(f"| {name} | {cls[name]} | {across:.2f} | {spread:.2f} | {within:.2f} |")
        print()
    print("The 15 cases whose medians moved most across the runs (CoV of the medians over the within-run CoV):\n")
    print("| case | across-run CoV % | max-min % | within-run CoV % (median of runs) |")
    print("|---|---|---|---|")
    for name, across, spread, within in sorted(rows, key=lambda r: -(r[1] / max(r[3], 0.05)))[:15]:
        print(f"| {name} | {across:.2f} | {spread:.2f} | {within:.2f} |")


if __name__ == "__main__":
    main()
