#!/usr/bin/env python3
"""plant.py - planted inputs and output checks for tests/check/check_test.sh (no GPU).

  plant.py scale IN OUT CASE FACTOR      a run document with CASE's headline scaled by FACTOR (one figure)
  plant.py counters IN OUT [NAME=B:A ...]  a run document with a "check_counters" block: every counter
                                         healthy (0, PCIe Gen5 x16 of Gen5 x16), NAME's before/after set
  plant.py device IN OUT NAME            the run document with its device renamed
  plant.py verdicts CHECK.json           one line per check line and counter: "id verdict"
  plant.py prom FILE                     every line of FILE against the Prometheus text format's grammar
"""
import gzip, json, re, sys

COUNTERS = ["xid_events", "ecc_volatile_uncorrected", "ecc_volatile_corrected", "ecc_aggregate_uncorrected",
            "ecc_aggregate_corrected", "row_remap_pending", "row_remap_failed", "row_remap_uncorrectable_rows",
            "retired_pages_sbe", "retired_pages_dbe", "retired_pages_pending", "pcie_replays", "pcie_link_gen",
            "pcie_link_width", "nvlink_crc_errors", "nvlink_replays", "nvlink_recoveries", "throttle_reasons"]


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def save(doc, path):
    with open(path, "w") as f:
        json.dump(doc, f)


def scale(src, out, name, factor):
    doc = load(src)
    hit = [c for c in doc["cases"] if c["name"] == name]
    assert len(hit) == 1, name
    for k in ("median", "min", "max"):
        hit[0]["value"][k] *= float(factor)
    save(doc, out)


def counters(src, out, plants):
    doc = load(src)
    side = {n: {"state": "ok", "value": 0, "detail": 0, "nvml_rc": 0} for n in COUNTERS}
    before = json.loads(json.dumps(side))
    after = json.loads(json.dumps(side))
    for s in (before, after):
        s["pcie_link_gen"].update(value=5, detail=5)
        s["pcie_link_width"].update(value=16, detail=16)
    for p in plants:
        name, v = p.split("=")
        b, a = v.split(":")
        before[name]["value"] = int(b, 0)
        after[name]["value"] = int(a, 0)
    doc["check_counters"] = {"before": before, "after": after}
    save(doc, out)


def device(src, out, name):
    doc = load(src)
    doc["device"]["name"] = name
    save(doc, out)


def verdicts(path):
    doc = load(path)
    assert doc["schema"] == "gpumem-check" and doc["schema_version"] == 1
    for g in doc["gpus"]:
        for k in ("index", "name", "uuid", "verdict", "exit_code", "lines", "counter_verdicts", "failures", "run"):
            assert k in g, k
        for l in g["lines"]:
            print(l["id"], l["verdict"])
        for c in g["counter_verdicts"]:
            print(c["id"], c["verdict"])
        for f in g["failures"]:
            assert f["severity"] in ("none", "inspect", "reset", "drain") and f["next_step"], f
            print("failure", f["code"], f["severity"], f["subject"])
        print("gpu", g["verdict"], g["exit_code"])


# The text exposition format 0.0.4: comments (# HELP name text / # TYPE name type), samples
# name{label="value",...} value [timestamp]; label values escape \\ \" \n; a family's HELP/TYPE once.
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
VALUE = r"(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|NaN|[+-]Inf)"
SAMPLE = re.compile(r"^(%s)(?:\{(?:%s(?:,%s)*,?)?\})? %s(?: -?[0-9]+)?$" % (NAME, LABEL, LABEL, VALUE))
HELP = re.compile(r"^# HELP (%s) .*$" % NAME)
TYPE = re.compile(r"^# TYPE (%s) (counter|gauge|histogram|summary|untyped)$" % NAME)


def prom(path):
    typed, seen_samples, n = set(), set(), 0
    text = open(path).read()
    assert text.endswith("\n"), "the last line must end with a newline"
    for i, line in enumerate(text.split("\n")[:-1], 1):
        m = HELP.match(line) or TYPE.match(line)
        if m:
            if line.startswith("# TYPE"):
                assert m.group(1) not in typed, "line %d: TYPE twice for %s" % (i, m.group(1))
                assert m.group(1) not in seen_samples, "line %d: TYPE after samples of %s" % (i, m.group(1))
                typed.add(m.group(1))
            continue
        m = SAMPLE.match(line)
        assert m, "line %d does not parse: %r" % (i, line)
        assert m.group(1) in typed, "line %d: sample of %s without a TYPE" % (i, m.group(1))
        seen_samples.add(m.group(1))
        n += 1
    print("prometheus: %d samples in %d families, every line parses" % (n, len(typed)))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"scale": lambda: scale(*args), "counters": lambda: counters(args[0], args[1], args[2:]),
     "device": lambda: device(*args), "verdicts": lambda: verdicts(*args), "prom": lambda: prom(*args)}[cmd]()
