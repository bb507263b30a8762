#!/usr/bin/env python3
"""Generated inputs for the scale tests (issue 22 item 7), from a committed run document as template.

gen_runs.py fleet TEMPLATE DIR N [CASES]  N single-GPU run documents gpu_0000.json ... (CASES cases each, default
                                           all of the template's), each GPU its own UUID, PCI id and figures
                                           (a spread of about 1 %, every 97th GPU 20 % slower: outliers to flag)
gen_runs.py pair TEMPLATE DIR N            a.json and b.json of N cases each (the template's cases repeated under
                                           new names), b's figures 2 % apart from a's
"""
import copy
import json
import os
import random
import sys


def scale_case(c, f):
    """Every figure of a case in its unit scaled by f (times by 1/f)."""
    for k in ("value", "gbs"):
        if isinstance(c.get(k), dict):
            for m in ("median", "min", "max"):
                if m in c[k]:
                    c[k][m] *= f
    if isinstance(c.get("stats_ms"), dict):
        for m in ("median", "min", "max", "mean"):
            if m in c["stats_ms"]:
                c["stats_ms"][m] /= f
    if "samples_ms" in c:
        c["samples_ms"] = [x / f for x in c["samples_ms"]]


def fleet(tpl, out, n, ncases):
    """Each GPU's cases are one of 16 jittered copies of the template's (serialised once: 4096 documents in
    seconds), every 97th GPU's a copy 20 % slower."""
    rnd = random.Random(1)
    base = copy.deepcopy(tpl)
    cases = base.pop("cases")[:ncases] if ncases else base.pop("cases")
    variants = []
    for v in range(17):
        cs = copy.deepcopy(cases)
        for c in cs:
            scale_case(c, (0.8 if v == 16 else 1.0) * (1 + rnd.gauss(0, 0.01)))
        variants.append(json.dumps(cs, separators=(",", ":")))
    for g in range(n):
        dev = base["device"]
        dev["uuid"] = "GPU-%08x-0000-0000-0000-%012x" % (g, g)
        dev["pci_bus_id"] = "%08X:%02X:00.0" % (g // 8, g % 256)
        dev["index"] = g % 8
        head = json.dumps(base, separators=(",", ":"))
        cases_text = variants[16] if g % 97 == 13 else variants[g % 16]
        with open(os.path.join(out, "gpu_%04d.json" % g), "w") as fh:
            fh.write(head[:-1] + ',"cases":' + cases_text + "}")


def pair(tpl, out, n):
    src = tpl["cases"]
    for tag, f in (("a", 1.0), ("b", 1.02)):
        doc = copy.deepcopy(tpl)
        cases = []
        for i in range(n):
            c = copy.deepcopy(src[i % len(src)])
            c["name"] = "%s_%05d" % (c["name"], i // len(src))
            c["label"] = "%s_%05d" % (c.get("label", ""), i // len(src))
            scale_case(c, f)
            cases.append(c)
        doc["cases"] = cases
        doc["derived"] = []
        with open(os.path.join(out, tag + ".json"), "w") as fh:
            json.dump(doc, fh, separators=(",", ":"))


def main():
    what, tpl_path, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    tpl = json.load(open(tpl_path))
    os.makedirs(out, exist_ok=True)
    if what == "fleet":
        fleet(tpl, out, n, int(sys.argv[5]) if len(sys.argv) > 5 else 0)
    else:
        pair(tpl, out, n)


if __name__ == "__main__":
    main()
