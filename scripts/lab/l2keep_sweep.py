"""The m60 sweep: measured / predicted against the launch's footprint in 128 B lines (scripts as run: COMMANDS.md)."""
import json, os, sys, tarfile
d = sys.argv[1]
l2 = json.load(open(os.path.join(d, "profile-calibrate.json")))["l2_bytes"]
tf = tarfile.open(os.path.join(d, "runs.tar.xz"))
rows = []
for m in tf.getmembers():
    if not m.name.endswith(".json"):
        continue
    doc = json.load(tf.extractfile(m))
    a, n = os.path.basename(m.name)[:-5].rsplit("_", 1)
    n = int(n)
    lines = 2 * n * 4 if a == "copyf" else n * 128 + n * 16   # every lane its own line, plus the dense side
    r, la = doc["run"], doc["launch"]
    rows.append((a, n, lines, r["gbs"]["median"], la["predicted_gbs"], la["predicted_ms"] * 1e3, la["t_dram_ms"] * 1e3,
                 la["t_l2_ms"] * 1e3, la["t_latency_ms"] * 1e3, la["limited_by"]))
print("# l2_bytes (this unit's calibrate) %.2f MB; lines = the launch's footprint in 128 B lines" % (l2 / 1e6))
print("kernel\tn\tline_MB\tx_l2\tmeasured_gbs\tpredicted_gbs\tratio\tpred_us\tt_dram_us\tt_l2_us\tt_latency_us\tlimited_by")
for a, n, li, m, p, pm, td, tl, tt, lim in sorted(rows):
    print("%s\t%d\t%.1f\t%.2f\t%.0f\t%.0f\t%.3f\t%.1f\t%.1f\t%.1f\t%.1f\t%s" % (a, n, li / 1e6, li / l2, m, p, m / p, pm, td, tl, tt, lim))
