#!/usr/bin/env python3
"""ragged_shares.py RUN.json... - issue 25 item 5's ratios from gpumem run documents (scripts/lab/probes/ragged_h200.sh).

Per run (a column each): every case of a shape as a share of the best copy of that shape (the fastest of
copy_b16 and copy_b16_line measured in the same run) and of copy_b16 of that shape, and the ragged
copy against the square copy (copy_b16 and the best of the two). A case that failed its check has no number
(printed as 'failed'); a case missing from a run prints '-'. Exit status 1 when a document has no case at all.
"""
import json
import sys

SHAPES = ("", "_ragged", "_a8")
COPIES = ("copy_b16", "copy_b16_line")


def load(path):
    with open(path) as f:
        doc = json.load(f)
    dev = doc.get("device") or {}
    gbs = {}
    for c in doc.get("cases", []):
        if c.get("family") != "transpose":
            continue
        ok = c.get("status") == "ok" and c.get("verified")
        gbs[c["label"]] = c["gbs"]["median"] if ok else None
    return dev, gbs


def share(a, b):
    if a is None or b is None:
        return "failed"
    return "%.1f %%" % (100.0 * a / b)


def best_copy(gbs, shape):
    got = [(gbs[c + shape], c) for c in COPIES if gbs.get(c + shape) is not None]
    return max(got) if got else (None, "-")


def main(paths):
    runs = [load(p) for p in paths]
    for p, (dev, gbs) in zip(paths, runs):
        print("%s: %s %s (%d transpose cases)" % (p, dev.get("name", "?"), dev.get("uuid", "uuid ?"), len(gbs)))
        if not gbs:
            return 1
    labels = sorted({l for _, g in runs for l in g}, key=lambda l: (l.startswith("v"), l))
    w = max(len(l) for l in labels) + 2
    for shape in SHAPES:
        names = [l for l in labels if (l.endswith(shape) if shape else not l.endswith(("_ragged", "_a8")))]
        print()
        print("%-*s %s" % (w, "shape '%s'" % (shape or "square"),
                           "  ".join("%-44s" % ("run %d: GB/s, share of the best copy" % (i + 1)) for i in range(len(runs)))))
        for l in names:
            cells = []
            for _, g in runs:
                if l not in g:
                    cells.append("%-44s" % "-")
                    continue
                b, which = best_copy(g, shape)
                v = g[l]
                cells.append("%-44s" % ("%8s  %7s of %s, %7s of copy_b16" % (
                    "failed" if v is None else "%.1f" % v, share(v, b), which, share(v, g.get("copy_b16" + shape)))))
            print("%-*s %s" % (w, l, "  ".join(cells)))
    print()
    for i, (_, g) in enumerate(runs):
        sq, rg = g.get("copy_b16"), g.get("copy_b16_ragged")
        bsq, wsq = best_copy(g, "")
        brg, wrg = best_copy(g, "_ragged")
        print("run %d: copy_b16_ragged / copy_b16 %s (goal 97 %%); best ragged copy %s / best square copy %s: %s"
              % (i + 1, share(rg, sq), wrg, wsq, share(brg, bsq)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: ragged_shares.py RUN.json...\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
