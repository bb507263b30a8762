#!/usr/bin/env python3
"""Summarise scripts/gpu_session.sh stage sanitize_all: for each compute-sanitizer tool, the cases reached and
finished, their statuses, the findings (with the case that was running), and the time per tool and per family.

usage: sanitize_summary.py DIR   (DIR holds san_<tool>.txt, san_<tool>.json when the run ended, san_times.txt)
The per-case times come from `gpumem run --sanitize`'s lines on stderr ("sanitize: T s: case i/n NAME").
"""
import json
import os
import re
import sys
from collections import OrderedDict, defaultdict

TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")
PROGRESS = re.compile(r"^sanitize: ([0-9.]+) s: case (\d+)/(\d+) (\S+)")
ENDLINE = re.compile(r"^(\d+) cases in ([0-9.]+) s on ")
# a finding's first line; summaries and the banner are not findings
FINDING = re.compile(r"^========= (?!COMPUTE-SANITIZER|ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|    |\s*$)(\S.*)")
SUMMARY = re.compile(r"^========= (ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY): (.*)")
HEAD = re.compile(r"^(Invalid|Race|Uninitialized|Barrier|Program hit|Leaked|Error|Warning|Unused|Divergent|"
                  r"Cuda|CUDA|Out-of-range|Misaligned|Malloc|Free|Host API|Potential|Hazard|Target application)")


def read_times(d):
    times = {}
    path = os.path.join(d, "san_times.txt")
    if os.path.exists(path):
        for line in open(path):
            m = re.match(r"^(\w+): exit (\d+) in ([0-9.]+) s", line)
            if m:
                times[m.group(1)] = (int(m.group(2)), float(m.group(3)))
    return times


def parse_log(path):
    starts = OrderedDict()      # case -> start time (s since the run began)
    total = None
    findings = []               # (case, first line)
    summaries = []
    current = "(before the first case)"
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = PROGRESS.match(line)
        if m:
            current = m.group(4)
            starts[current] = float(m.group(1))
            total_cases = int(m.group(3))
            continue
        m = ENDLINE.match(line)
        if m:
            total = float(m.group(2))
            continue
        m = SUMMARY.match(line)
        if m:
            summaries.append(f"{m.group(1)}: {m.group(2)}")
            continue
        m = FINDING.match(line)
        if m and HEAD.match(m.group(1)):
            findings.append((current, m.group(1)))
    n_total = total_cases if starts else 0
    return starts, total, findings, summaries, n_total


def case_seconds(starts, total):
    names = list(starts)
    out = {}
    for i, name in enumerate(names):
        end = starts[names[i + 1]] if i + 1 < len(names) else total
        out[name] = None if end is None else end - starts[name]
    return out


def statuses(path):
    if not os.path.exists(path):
        return None
    try:
        doc = json.load(open(path))
    except ValueError:
        return None
    st = defaultdict(list)
    for c in doc.get("cases", []):
        st[c["status"]].append((c["name"], c.get("message", "")))
    return st


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    times = read_times(d)
    fam_rows = defaultdict(dict)
    print("| tool | exit | wall s | cases reached / selected | finished (JSON) | ok | failed | error | skipped | "
          "findings | sanitizer's summary |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    details = []
    for tool in TOOLS:
        log = os.path.join(d, f"san_{tool}.txt")
        if not os.path.exists(log):
            print(f"| {tool} | not run | | | | | | | | | |")
            continue
        starts, total, findings, summaries, n_total = parse_log(log)
        st = statuses(os.path.join(d, f"san_{tool}.json"))
        rc, wall = times.get(tool, (None, None))
        secs = case_seconds(starts, total)
        for name, s in secs.items():
            fam = name.split(".")[0]
            fam_rows[fam].setdefault(tool, [0, 0.0, False])
            fam_rows[fam][tool][0] += 1
            if s is None:
                fam_rows[fam][tool][2] = True   # the case that was running when the tool was stopped
            else:
                fam_rows[fam][tool][1] += s
        cnt = lambda k: len(st.get(k, [])) if st is not None else "-"
        print(f"| {tool} | {rc if rc is not None else '?'} | {wall if wall is not None else '?'} | "
              f"{len(starts)} / {n_total} | {'yes' if st is not None else 'no (stopped)'} | {cnt('ok')} | "
              f"{cnt('failed')} | {cnt('error')} | {cnt('skipped')} | {len(findings)} | {'; '.join(summaries)} |")
        for case, first in findings[:40]:
            details.append(f"- {tool}, during {case}: {first}")
        if st is not None:
            for k in ("failed", "error"):
                for name, msg in st.get(k, []):
                    details.append(f"- {tool}: {name} {k}: {msg[:200]}")
        slow = sorted(((v, k) for k, v in secs.items() if v is not None), reverse=True)[:8]
        if slow:
            details.append(f"- {tool}, slowest cases: " + ", ".join(f"{k} {v:.1f} s" for v, k in slow))
        if total is None and starts:
            last = list(starts)[-1]
            details.append(f"- {tool}: stopped during {last} (case {len(starts)} of {n_total})")
    print()
    print("Seconds per family and tool (cases reached; + = the tool was stopped during that family):\n")
    print("| family | " + " | ".join(TOOLS) + " |")
    print("|---|" + "---|" * len(TOOLS))
    for fam in sorted(fam_rows):
        cells = []
        for tool in TOOLS:
            r = fam_rows[fam].get(tool)
            cells.append("" if r is None else f"{r[1]:.1f} ({r[0]}){'+' if r[2] else ''}")
        print(f"| {fam} | " + " | ".join(cells) + " |")
    print()
    print("Findings, failed cases, stops:\n")
    print("\n".join(details) if details else "- none")


if __name__ == "__main__":
    main()
