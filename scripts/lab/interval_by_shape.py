"""Leave-one-set-out coverage of the interval's bands by shape (m60): each dev set's bands made without it, as
scripts/launch_interval_bands.py's leave-one-set-out lines, with the per-set and per-shape counts.
usage: scripts/lab/interval_by_shape.py EVIDENCE_LIST (the lines scripts/launch_interval_evidence.sh printed);
FEW_MIN, FEW_WIDEN, FALLBACK, SIG_MIN as launch_interval_bands.py reads them."""
import os, statistics, importlib.util, collections, sys
here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("b", os.path.join(here, "..", "launch_interval_bands.py"))
b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)
args = [l.strip() for l in open(sys.argv[1])]
sources, group = [], []
for a in args:
    sources.append(list(b.set_rows(a) if ":" in a else b.suite_rows(a))); group.append(a.split(":")[0] if ":" in a else "suites")
byshape = collections.defaultdict(list); tot = []; sets90 = sets15 = both = 0
for g in sorted(set(group)):
    if "/dev/dev-" not in g: continue
    rows = next(rr for j, rr in enumerate(sources) if group[j] == g)
    rest = [r for j, rr in enumerate(sources) if group[j] != g for r in rr]
    held = (b.make_bands(rest), b.make_sigs(rest), rest)
    v = []
    for name, r, rules in rows:
        lo, hi = b.interval(held, rules)
        x = (lo <= r <= hi, 100 * (hi - lo)); v.append(x); tot.append(x); byshape[name.split("/")[-1].split("_")[0]].append(x)
    c = sum(a for a, _ in v) / len(v) >= 0.9; w = statistics.median(w for _, w in v) <= 15.0
    sets90 += c; sets15 += w; both += c and w
print("all %d of %d (%.1f %%) width %.1f; sets>=90%% %d, <=15%% %d, both %d | %s" % (sum(a for a, _ in tot), len(tot), 100 * sum(a for a, _ in tot) / len(tot), statistics.median(w for _, w in tot), sets90, sets15, both,
      "  ".join("%s %d/%d %.0f%%" % (sh, sum(a for a, _ in v), len(v), statistics.median(w for _, w in v)) for sh, v in sorted(byshape.items()) if sh in ("stream", "colwalk", "tilet", "perm", "tile", "reuse"))))
