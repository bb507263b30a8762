#!/usr/bin/env python3
"""summarize.py - one table of a folder of `gpumem trace` runs (NAME.trace.json, NAME.report.json, NAME.txt).

  summarize.py DIR > SUMMARY.md

Per traced launch: the kernel, its uninstrumented time (time pass), the instrumented host time of the traced
launch (traced_ms) and their ratio (the trace cost), the launch model's prediction and error, the report's
largest instruction with its class and sectors per request (measured / ideal), and the whole-kernel speedup of its
fix. Runs without a document show gpumem's last line (the refusal). Figures are copied, never computed anew,
except the ratio.
"""
import glob
import json
import os
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def last_lines(path, n=2):
    try:
        with open(path) as f:
            lines = [l.rstrip() for l in f if l.strip()]
        return " / ".join(lines[-n:])
    except OSError:
        return ""


def fmt(x, spec="{:.4f}"):
    return "-" if x is None else spec.format(x)


def main(d):
    names = sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(d, "*.txt"))})
    print("| run | launch | kernel | time ms | traced ms | x | predicted ms (err %) | largest instruction | "
          "class | per request (ideal) | fix: kernel speedup |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        doc = load(os.path.join(d, name + ".trace.json"))
        rep = load(os.path.join(d, name + ".report.json"))
        if not doc:
            tail = last_lines(os.path.join(d, name + ".txt")).replace("|", "/")
            if name in ("env", "analysis") or not tail or tail.startswith("skipped"):
                continue   # not a run, or a run the script did not make
            print(f"| {name} | - | - | - | - | - | - | {tail} | | | |")
            continue
        kernels = {k.get("launch_index"): k for k in (rep or {}).get("kernels", [])}
        for l in doc.get("launches", []):
            t, tr = l.get("time_ms"), l.get("traced_ms")
            ratio = tr / t if t and tr else None
            k = kernels.get(l.get("index"), {})
            pred = k.get("predicted") or {}
            ins = (k.get("instructions") or [{}])[0]
            pr = ins.get("per_request") or {}
            fix = ins.get("fix") or {}
            where = f"{os.path.basename(ins.get('file') or '?')}:{ins.get('line')}" if ins else "-"
            if ins:
                where += f" {ins.get('op', '')} {ins.get('space', '')}"
            print(f"| {name} | {l.get('index')} | {l.get('name', '')[:60]} | {fmt(t)} | {fmt(tr, '{:.2f}')} | "
                  f"{fmt(ratio, '{:.0f}')} | {fmt(pred.get('time_ms'))} ({fmt(pred.get('error_pct'), '{:+.0f}')}) | "
                  f"{where} | {ins.get('class', '-')} | {fmt(pr.get('measured'), '{:.2f}')} "
                  f"({fmt(pr.get('ideal'), '{:.2f}')}) | {fmt(fix.get('kernel_speedup'), '{:.2f}x')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
