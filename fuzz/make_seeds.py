#!/usr/bin/env python3
"""fuzz/make_seeds.py - the seed corpora of the reader and option fuzz targets,
cut from committed results (run from the source root; rewrites fuzz/seeds/*).
Each seed is small (a few KB): a run keeps a few cases of different kinds, a
fleet document a few devices with two cases each. The dictionaries
(fuzz/*.dict) are written by hand."""
import gzip, json, os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "fuzz", "seeds")


# inputs pruned from results/ since the seeds were made: read from the commit git keeps them at (PRUNED.md)
PRUNED_AT = {"state/sigint_l2persist.json": "7a4d681", "/quick.json": "7a4d681"}


def load(rel):
    p = os.path.join(root, rel)
    if not os.path.exists(p):
        at = next((c for k, c in PRUNED_AT.items() if rel.endswith(k)), None)
        if at:
            raw = subprocess.run(["git", "-C", root, "show", "%s:%s" % (at, rel)], check=True,
                                 capture_output=True).stdout
            return json.loads(gzip.decompress(raw) if rel.endswith(".gz") else raw)
    op = gzip.open if p.endswith(".gz") else open
    with op(p, "rt") as f:
        return json.load(f)


def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def small_run(doc, pick):
    """doc with only the cases pick(cases) returns; derived kept to 4"""
    d = dict(doc)
    d["cases"] = pick(doc.get("cases", []))
    d["derived"] = doc.get("derived", [])[:4]
    for c in d["cases"]:
        if isinstance(c.get("samples_ms"), list):
            c["samples_ms"] = c["samples_ms"][:5]
    return d


def first_by_family(cases, n):
    seen, keep = set(), []
    for c in cases:
        if c.get("family") not in seen:
            seen.add(c.get("family"))
            keep.append(c)
        if len(keep) == n:
            break
    return keep


def dumps(d):
    return json.dumps(d, separators=(",", ":"))


H100 = "results/nvidia-h100-80gb-hbm3"
H200 = "results/nvidia-h200"

# ---- run files ----
suite = load("tests/fixtures/launch/h100-suite.json.gz")
put("runfile", "h100_suite_3fam.json", dumps(small_run(suite, lambda c: first_by_family(c, 3))))
put("runfile", "h100_suite_failed.json",
    dumps(small_run(suite, lambda c: [x for x in c if x.get("status") != "ok"][:2] or c[:1])))
put("runfile", "h200_quick_2.json.gz",
    gzip.compress(dumps(small_run(load(H200 + "/quick.json"), lambda c: c[:2])).encode(), mtime=0))
put("runfile", "h100_counters.json",
    dumps(small_run(load(H100 + "/counters/suite_counters.json.gz"), lambda c: [x for x in c if "counters" in x][:2])))
put("runfile", "h100_launch.json",
    dumps(small_run(load("tests/fixtures/launch/h100-launch-suite.json.gz"), lambda c: [x for x in c if "launch" in x][:2])))
put("runfile", "h100_interrupted.json", dumps(small_run(load(H100 + "/state/sigint_l2persist.json"), lambda c: c[:2])))
put("runfile", "h100_transfer.json", dumps(small_run(load(H100 + "/transfer/xfer.json"), lambda c: c[:2])))
put("runfile", "truncated.json", dumps(small_run(suite, lambda c: c[:1]))[:700])
put("runfile", "empty.json", "")
put("runfile", "not_gzip.json.gz", b"\x1f\x8b\x08\x00garbage")
put("runfile", "wrong_schema.json", '{"schema": "gpumem-profile", "schema_version": 99, "cases": [1, "x", null]}')

# ---- profiles ----
for rel, name in [("data/profiles/nvidia-h100-80gb-hbm3.json", "h100_profile.json"),
                  ("data/profiles/nvidia-h200.json", "h200_profile.json"),
                  (H100 + "/launch/profile-calibrate.json", "h100_profile_calibrate.json")]:
    with open(os.path.join(root, rel), "rb") as f:
        put("profile", name, f.read())
prof = load("data/profiles/nvidia-h100-80gb-hbm3.json")
bad = dict(prof)
bad["sm_count"] = -1
bad["knee"] = 1e308
put("profile", "negative.json", dumps(bad))
bad = dict(prof)
bad.pop("read_gbs", None)
put("profile", "missing.json", dumps(bad))

# ---- fleet documents ----
def small_fleet(doc, ndev, ncases):
    d = dict(doc)
    d["devices"] = []
    for b in doc["devices"][:ndev]:
        b = dict(b)
        b["run"] = small_run(b["run"], lambda c: c[:ncases])
        d["devices"].append(b)
    return d

put("fleet", "mpi4_nogpu.json", dumps(small_fleet(load("results/cpu-mpi4/run.json"), 2, 0)))
put("fleet", "mpi4_hung.json", dumps(small_fleet(load("results/cpu-mpi4/hung.json"), 4, 0)))
put("fleet", "h100_slowed.json", dumps(small_fleet(load(H100 + "/fleet/evening/slowed.json"), 3, 2)))
put("fleet", "h200x2_concurrent.json.gz",
    gzip.compress(dumps(small_fleet(load("results/nvidia-h200-x2/fleet/concurrent.json.gz"), 2, 2)).encode(), mtime=0))
put("fleet", "h200x2_mpi.json", dumps(small_fleet(load("results/nvidia-h200-x2/fleet/mpi.json.gz"), 2, 2)))
put("fleet", "single_run.json", dumps(small_run(suite, lambda c: c[:2])))

# ---- argv vectors: byte 0 picks the command (fuzz_args.c), words split at newlines ----
argvs = [
    (255, ["--quick", "--json", "out.json", "copy", "stride"]),
    (255, ["--size", "16M", "--reps", "3", "--device", "0", "--counters", "transpose.v1"]),
    (255, ["--all-devices", "--timeout", "30", "--full", "--profile", "p.json", "hierarchy"]),
    (255, ["--mpi", "--barrier", "--csv", "x.csv", "--json", "x.csv"]),
    (255, ["--size", "-1", "--reps", "99999999999999999999", "--quick", "--full"]),
    (0, ["--device", "0", "--from", "run.json"]),
    (1, ["copy", "stride", "--help"]),
    (2, ["--type", "double", "--block", "16,2", "--n", "1M", "--run", "--hint", "cg", "ty*1024 + tx"]),
    (3, ["a.json", "b.json", "-o", "r.html", "--csv"]),
    (4, ["a.json", "b.json", "--threshold", "5", "--json"]),
    (5, ["--threshold", "3", "x.json", "y.json"]),
    (6, ["--from", "suite.json", "-o", "cal.json", "--device", "1"]),
    (7, ["run.json", "--profile", "p.json", "--self", "--json", "o.json"]),
    (8, ["--counters", "-v", "--device", "0"]),
    (9, ["--man"]),
]
for i, (cmd, words) in enumerate(argvs):
    put("args", "argv_%02d" % i, bytes([cmd]) + "\n".join(words).encode())

for t in sorted(os.listdir(out)):
    files = os.listdir(os.path.join(out, t))
    size = sum(os.path.getsize(os.path.join(out, t, f)) for f in files)
    print("%-8s %2d seeds, %6d bytes" % (t, len(files), size), file=sys.stderr)
