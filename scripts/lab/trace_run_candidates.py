#!/usr/bin/env python3
"""trace_run_candidates.py TRACE... : which trace documents (gpumem-trace/1, plain, .gz or .xz) the run-level rules
(docs/TRACE.md, "The run") can name anything in, without analysing them: a pair rule (clear_acc, copy_back, acc_chain,
reload, dropped_stores's element-for-element half) needs two consecutive launches of one grid and block where a
global store's sampled bytes of the first meet a global load's of the second; clone and domain need sampled values.
Prints one line per such document (the pairs, and "values"); the rest need no re-analysis when only the run rules
change (same_input and dropped_stores compare launches of different grids too: not covered, they are older rules).
"""
import gzip
import json
import lzma
import sys


def load(p):
    op = gzip.open if p.endswith(".gz") else lzma.open if p.endswith(".xz") else open
    with op(p, "rt") as f:
        return json.load(f)


def sampled(ins):
    lo = hi = None
    for s in ins.get("samples") or []:
        for a in s.get("addr") or []:
            if a is not None:
                lo = a if lo is None or a < lo else lo
                hi = a if hi is None or a > hi else hi
    return (lo, hi + ins["size"]) if lo is not None else None


def ranges(launch, op):
    return [r for r in (sampled(i) for i in launch["instructions"] if i["space"] == "global" and i["op"] == op) if r]


def main():
    for p in sys.argv[1:]:
        try:
            doc = load(p)
        except (OSError, ValueError, EOFError) as e:
            print("error: cannot read '%s': %s" % (p, e), file=sys.stderr)
            continue
        ls = doc.get("launches") or []
        pairs = []
        for a, b in zip(ls, ls[1:]):
            if b["index"] != a["index"] + 1 or a["grid"] != b["grid"] or a["block"] != b["block"]:
                continue
            if any(s[0] < l[1] and l[0] < s[1] for s in ranges(a, "store") for l in ranges(b, "load")):
                pairs.append("%d->%d" % (a["index"], b["index"]))
        values = any((i.get("values") or {}).get("lanes") for l in ls for i in l["instructions"])
        if pairs or values:
            print(p, " ".join(pairs), "values" if values else "")


if __name__ == "__main__":
    main()
