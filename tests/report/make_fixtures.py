#!/usr/bin/env python3
"""Writes the report fixtures (tests/report/fixtures/*.json): one small run file
per family, so the report and browser tests need no GPU. Schema-1 families are
slices of the committed H100 suite; families that land later get small schema-2
documents with made-up but plausible shapes (they test drawing, not the GPU)."""
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
out = os.path.join(here, "fixtures")
suite = json.load(open(os.path.join(root, "tests/fixtures/launch/h100-suite.json.gz")))
head = {k: v for k, v in suite.items() if k != "cases"}
for fam, keep in (("copy", 8), ("stride", 24), ("offset", 16), ("transpose", 10), ("banks", 20), ("rowcol", 6)):
    cs = [c for c in suite["cases"] if c["family"] == fam][:keep]
    for c in cs:
        c["samples_ms"] = c["samples_ms"][:5]
    json.dump(dict(head, cases=cs), open(os.path.join(out, fam + ".json"), "w"), indent=1)

def case(fam, label, params, unit, med, timing="events"):
    return {"name": fam + "." + label, "family": fam, "label": label, "kind": "measure", "params": params,
            "status": "ok", "verified": True, "unit": unit, "timing": timing,
            "value": {"median": med, "min": med * 0.98, "max": med * 1.02, "cov_pct": 0.5},
            "samples_ms": [1.0, 1.0, 1.0]}

def doc(cases, derived):
    return dict(head, schema_version=2, cases=cases, derived=derived)

K, M = 1024, 1024 * 1024
fp = [16 * K, 64 * K, 256 * K, 1 * M, 8 * M, 32 * M, 128 * M, 1024 * M]
bw = [14000, 13500, 9000, 8500, 7000, 6500, 3100, 3000]
cyc = [33, 33, 33, 260, 270, 300, 600, 650]
cap = [{"name": "l2_capacity", "family": "hierarchy", "level": "L2", "quantity": "capacity", "unit": "B",
        "value": 48 * M, "reference": 50 * M, "reference_what": "l2_bytes", "how": "fixture"},
       {"name": "hbm_bw", "family": "hierarchy", "level": "HBM", "quantity": "read bandwidth", "unit": "GB/s",
        "value": 3000, "reference": 3352, "reference_what": "peak_gbs", "how": "fixture"}]
json.dump(doc([case("hierarchy", "r%d" % f, {"footprint": f, "op": 0}, "GB/s", b) for f, b in zip(fp, bw)], cap),
          open(os.path.join(out, "hierarchy.json"), "w"), indent=1)
json.dump(doc([case("latency", "f%d" % f, {"footprint": f, "stride": 64}, "cycles", c, "self") for f, c in zip(fp, cyc)],
              [dict(cap[0], family="latency")]), open(os.path.join(out, "latency.json"), "w"), indent=1)
tr = []
for hm in (0, 1):
    for d in (0, 1):
        for i, b in enumerate([4 * K, 64 * K, 1 * M, 16 * M, 256 * M]):
            tr.append(case("transfer", "m%d_d%d_%d" % (hm, d, b), {"bytes": b, "host_mem": hm, "dir": d}, "GB/s",
                           [2, 12, 35, 50, 53][i] * (0.5 if hm == 0 else 1.0)))
json.dump(doc(tr, []), open(os.path.join(out, "transfer.json"), "w"), indent=1)
