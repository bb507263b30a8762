"""values_summary.py - issue 38's value sampling in trace documents: for each traced launch, its measured and traced
times (traced_ms / time_ms: the trace's cost) and each global instruction's "values" (lanes, zero, silent,
float_exact, min..max, int_bits, small, own_x/own_y). Run: python3 values_summary.py TRACE.json..."""
import json
import sys


def main(paths):
    for p in paths:
        try:
            d = json.load(open(p))
        except Exception as e:  # a missing or partial document: say so, go on
            print("%s: unreadable (%s)" % (p, e))
            continue
        print("== %s" % p)
        for l in d.get("launches", []):
            t, tr = l.get("time_ms"), l.get("traced_ms")
            ratio = "%.1fx" % (tr / t) if t and tr else "?"
            print("launch %s %s: time_ms %s traced_ms %s (%s), count_every %s, device_mode %s" % (
                l.get("index"), (l.get("name") or "?")[:40], t, tr, ratio, l.get("count_every"), l.get("device_mode")))
            for i in l.get("instructions", []):
                v = i.get("values")
                where = "%s:%s" % ((i.get("file") or "?").split("/")[-1], i.get("line"))
                print("  %-24s %-5s %-6s %2s B  %s" % (where, i.get("op"), i.get("space"), i.get("size"),
                                                       json.dumps(v) if v is not None else "no values"))


if __name__ == "__main__":
    main(sys.argv[1:])
