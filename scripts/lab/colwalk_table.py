#!/usr/bin/env python3
"""Every committed H200 column-walk measurement of the development, probe and scored sets, with the model's view.

A column walk is `(gid%R)*P + gid/R` (lane = row, R rows P elements apart). For each committed call's runs
(results/nvidia-h200/: the model-* calls, the unseen2 / unseen3 calls) the kernel is re-predicted with BIN and that
call's own calibrate profile (`explain --json --n`), and printed with: rows, pitch (bytes, and the largest power of
two dividing it), rows a 2 MiB page, element bytes, block, load/store, the limiting level, measured / predicted,
predicted and measured ms, DRAM fills (64 B pieces read), the share of lanes alone in their page, each level's time
and the rules that fired. Then the groups that separate the slow walks (docs/log/2026-11-launch-model.md, 2026-11-29
h44c).

usage: scripts/lab/colwalk_table.py BIN [--tsv OUT.tsv] [--raw]
A call's profile measured before rule P4 (no pages_2m_gps / pages_16m_gps) gets the two rates of model-6727113's
calibrate scaled by the call's own pages_gps (column p4 "scaled"), as a calibrate of that unit today would measure
them and launch_dev_score.sh's PROFILE_DIR did (h43m); with --raw it is used as committed (P4 off).
dev-36m was sealed-36m (scored once at 800c3ed, development since h51m; not in this table yet); dev-36l was sealed-36l (scored once at d72a308, development since h50m). dev-36i..k were sealed-36i..k, each read here after its one scoring (h49m).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
H2 = "results/nvidia-h200"
DV = "tests/fixtures/dev"
# (call folder under results/nvidia-h200, run subfolder, set file); dev-36g and dev-36h were sealed-36g and
# sealed-36h, read here after their scoring (development since h45m shaped the interval's bands on them); unseen2 / its page test / unseen3 hold the suites' col_* walks (development sets)
UN = "tests/gpu"
CALLS = [
    ("launch/unseen2/gpu-0a7bf8d", "unseen2", UN + "/unseen2.tsv"),
    ("launch/unseen2/gpu-0a7bf8d", "unseen2_pages", UN + "/unseen2_pages.tsv"),
    ("launch/unseen3/gpu-0a7bf8d", "unseen3", UN + "/unseen3.tsv"),
    ("launch/unseen2/gpu-71a472f", "unseen2", UN + "/unseen2.tsv"),
    ("launch/unseen2/gpu-71a472f", "unseen2_pages", UN + "/unseen2_pages.tsv"),
    ("launch/unseen3/gpu-71a472f", "unseen3", UN + "/unseen3.tsv"),
    ("s25-0d0fd8e/launch", "unseen2", UN + "/unseen2.tsv"),
    ("s25-0d0fd8e/launch", "unseen2_pages", UN + "/unseen2_pages.tsv"),
    ("s25-0d0fd8e/launch", "unseen3", UN + "/unseen3.tsv"),
    ("model-048524d", "sealed_run", DV + "/dev-36a.tsv"),
    ("model-8d12c4d", "dev36a_run", DV + "/dev-36a.tsv"),
    ("model-8d12c4d", "sealed36b_run", DV + "/dev-36b.tsv"),
    ("model-8d12c4d", "probe36c_run", DV + "/probe-36c.tsv"),
    ("model-f136fe1", "dev36b_run", DV + "/dev-36b.tsv"),
    ("model-f136fe1", "probe36c_run", DV + "/probe-36c.tsv"),
    ("model-f136fe1", "sealed36d_run", DV + "/dev-36d.tsv"),
    ("model-86d7d21", "dev36d_run", DV + "/dev-36d.tsv"),
    ("model-86d7d21", "sealed36e_run", DV + "/dev-36e.tsv"),
    ("model-bda781d", "dev36e_run", DV + "/dev-36e.tsv"),
    ("model-bda781d", "sealed36f_run", DV + "/dev-36f.tsv"),
    ("model-7346610", "dev36e_run", DV + "/dev-36e.tsv"),
    ("model-7346610", "dev36f_run", DV + "/dev-36f.tsv"),
    ("model-7346610", "probe43_run", DV + "/probe-43.tsv"),
    ("model-6727113", "dev36e_run", DV + "/dev-36e.tsv"),
    ("model-6727113", "probe43_run", DV + "/probe-43.tsv"),
    ("model-6727113", "sealed36g_run", DV + "/dev-36g.tsv"),
    ("model-df7f3fb", "sealed36h_run", DV + "/dev-36h.tsv"),
    ("p5-36d2dc3", "dev36g_run", DV + "/dev-36g.tsv"),
    ("p5-36d2dc3", "dev36h_run", DV + "/dev-36h.tsv"),
    ("p5-36d2dc3", "probe45_run", DV + "/probe-45.tsv"),
    ("p5-36d2dc3", "probe46_run", DV + "/probe-46.tsv"),
    ("model-1e50f90", "sealed36i_run", DV + "/dev-36i.tsv"),
    ("lines-9e550d1", "dev36i_run", DV + "/dev-36i.tsv"),
    ("lines-9e550d1", "probe47_run", DV + "/probe-47.tsv"),
    ("model-d0741e0", "sealed36j_run", DV + "/dev-36j.tsv"),
    ("model-10a753a", "sealed36k_run", DV + "/dev-36k.tsv"),
]
WALK = re.compile(r"^\(gid%(\d+)\)\*(\d+) \+ gid/(\d+)$")
EB = {"char": 1, "short": 2, "half": 2, "float": 4, "int": 4, "double": 8, "float2": 8, "float4": 16}
PAGE = 2 << 20


def pow2(x):
    return x & -x


def profile(d, tmpd, raw):
    """The call's calibrate profile, and how rule P4's rates came: measured, scaled (6727113's ratios) or off."""
    path = os.path.join(d, "profile-calibrate.json")
    p = json.load(open(path))
    if "pages_2m_gps" in p:
        return path, "measured"
    if raw or "pages_gps" not in p:
        return path, "off"
    ref = json.load(open(os.path.join(ROOT, H2, "model-6727113", "profile-calibrate.json")))
    for k in ("pages_2m_gps", "pages_16m_gps"):
        p[k] = p["pages_gps"] * ref[k] / ref["pages_gps"]
    p["unmeasured"] = [u for u in p.get("unmeasured", []) if u not in ("pages_2m_gps", "pages_16m_gps")]
    out = os.path.join(tmpd, d.replace("/", "_") + ".json")
    json.dump(p, open(out, "w"))
    return out, "scaled"


def walks(setf):
    for line in open(os.path.join(ROOT, setf)):
        if line.startswith("#") or not line.strip():
            continue
        name, n, typ, block, op, expr = line.rstrip("\n").split("\t")
        m = WALK.match(expr)
        if m and m.group(1) == m.group(3):
            yield name, n, typ, block, op, expr, int(m.group(1)), int(m.group(2))


def main():
    binp = os.path.abspath(sys.argv[1])
    tsv = sys.argv[sys.argv.index("--tsv") + 1] if "--tsv" in sys.argv else None
    raw = "--raw" in sys.argv
    tmp = tempfile.TemporaryDirectory()
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp.name, "cache"))  # never a cached profile
    rows = []
    for call, sub, setf in CALLS:
        d = os.path.join(ROOT, H2, call)
        prof, p4 = profile(d, tmp.name, raw)
        tarf = os.path.join(d, "runs.tar.xz")
        for alt in ("runs.tar.gz", "sealed_runs.tar.xz", "sealed_runs.tar.gz", "unseen_runs.tar.xz", "unseen_runs.tar.gz"):
            if not os.path.exists(tarf):
                tarf = os.path.join(d, alt)
        with tarfile.open(tarf) as t:
            for name, n, typ, block, op, expr, r, p in walks(setf):
                try:
                    run = json.load(t.extractfile("%s/%s.json" % (sub, name)))["run"]
                except KeyError:
                    continue
                if not run.get("validated"):
                    continue
                out = subprocess.run([binp, "explain", "--json", "--n", n, "--type", typ, "--block", block, "--op",
                                      op, "--profile", prof, "--", expr],
                                     capture_output=True, text=True, env=env)
                la = json.loads(out.stdout)["launch"]
                eb = EB[typ]
                pb = p * eb
                rows.append(dict(
                    set=os.path.basename(setf)[:-4], call=re.sub(r"^.*?([0-9a-f]{7}).*$", r"\1", call),
                    name=name, p4=p4, rows=r, pitch=pb, p2=pow2(pb),
                    rpp=max(1, PAGE // pb) if pb < PAGE else 1, eb=eb, block=block, op=op,
                    lim=la.get("limited_by", ""), rules=",".join(la.get("rules", [])),
                    page_lanes=la.get("page_lanes", 0.0), n=int(n),
                    t=dict((k[2:-3], la[k]) for k in la if k.startswith("t_") and k.endswith("_ms")),
                    pred_ms=la["predicted_ms"], fills=la.get("dram_bytes_read", 0.0) / 64,
                    ratio=run["gbs"]["median"] / la["predicted_gbs"]))
    hdr = "\t".join(("set call p4 kernel op eb rows pitch_B pow2_B rows/page block limit m/p pred_ms meas_ms fills_M "
                     "lone_lanes t_ms(level) rules").split())
    lines = [hdr]
    for x in sorted(rows, key=lambda x: (x["op"], x["ratio"])):
        ts = " ".join("%s=%.3f" % (k, v) for k, v in sorted(x["t"].items()) if v > 0.01)
        lines.append("%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%.2f\t%.3f\t%.3f\t%.1f\t%.2f\t%s\t%s" % (
            x["set"], x["call"], x["p4"], x["name"], x["op"], x["eb"], x["rows"], x["pitch"], x["p2"], x["rpp"],
            x["block"],
            x["lim"], x["ratio"], x["pred_ms"], x["pred_ms"] / x["ratio"], x["fills"] / 1e6,
            x["page_lanes"] / x["n"], ts, x["rules"]))
    if tsv:
        open(tsv, "w").write("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))

    def grp(title, key):
        print("\n== by %s: n, within 10 %%, median m/p, [min, max]" % title)
        by = {}
        for x in rows:
            by.setdefault(key(x), []).append(x["ratio"])
        for k in sorted(by, key=str):
            v = by[k]
            print("  %-34s %3d %3d %5.2f [%.2f, %.2f]" % (k, len(v), sum(abs(a - 1) <= 0.1 for a in v),
                                                        statistics.median(v), min(v), max(v)))
    print("%d measurements of %d column walks" % (len(rows), len({(x["set"], x["name"]) for x in rows})))
    grp("op, element bytes", lambda x: "%s %2d B" % (x["op"], x["eb"]))
    grp("limiting level (loads)", lambda x: x["lim"] if x["op"] == "load" else "(store)")
    grp("rows (loads)", lambda x: ("<=32", "33-64", "65-128", "129-256", "257-1024", ">1024")[
        sum(x["rows"] > b for b in (32, 64, 128, 256, 1024))] if x["op"] == "load" else "(store)")
    grp("level and the pitch's alignment, its largest power-of-two divisor (loads)", lambda x: "%-8s %s" % (
        x["lim"], ">= 128 KiB" if x["p2"] >= 1 << 17 else "128 B-64 KiB" if x["p2"] >= 128 else "32-64 B"
        if x["p2"] >= 32 else "<= 16 B") if x["op"] == "load" else "(store)")
    grp("lanes alone in their page", lambda x: "%s %s" % (x["op"], "alone" if x["page_lanes"] > 0 else "share"))
    grp("stores by eb and rows/page", lambda x: "eb %2d, %s" % (x["eb"], "alone" if x["rpp"] == 1 else
                                                             "rows share pages") if x["op"] == "store" else "(load)")


if __name__ == "__main__":
    main()
