"""Cross-validated coverage of interval methods (i83): each development set's first measurement scored with bands made
without any call of that set file (leave-one-set-out), for a grid of settings of scripts/launch_interval_bands.py
(its environment knobs). usage: scripts/lab/interval_cv.py EVIDENCE_LIST [SETTING ...]
SETTING: KEY=VALUE,KEY=VALUE (the environment launch_interval_bands.py reads); printed: pooled inside, median width,
sets of the dev sets with 90 % inside, with a median width <= 15 %."""
import importlib.util
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))


KNOBS = ("RULE_Q", "SIG_N", "SIG_LO", "SIG_HI", "SIG_MIN", "FEW_MIN", "FEW_WIDEN", "COUNT", "SHRINK", "FALLBACK")


def load_module(env):
    for k in KNOBS:
        os.environ.pop(k, None)
    os.environ.update(env)
    spec = importlib.util.spec_from_file_location("b", os.path.join(here, "..", "launch_interval_bands.py"))
    b = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(b)
    return b


def cv(b, sources, group, only=None):
    tot, sets90, sets15 = [], 0, 0
    for g in sorted(set(group)):
        if "/dev/dev-" not in g or (only and g not in only):
            continue
        rows = next(rr for j, rr in enumerate(sources) if group[j] == g)
        rest = [r for j, rr in enumerate(sources) if group[j] != g for r in rr]
        held = b.fit(rest)
        v = []
        for name, r, rules in rows:
            lo, hi = b.interval(held, rules)
            v.append((lo <= r <= hi, 100 * (hi - lo)))
        tot += v
        sets90 += sum(a for a, _ in v) >= 0.9 * len(v)
        sets15 += statistics.median(w for _, w in v) <= 15.0
    n = len(tot)
    strong = [a for a, w in tot if w <= 100 * WEAK_WIDTH]
    cv.strong = (sum(strong), len(strong))
    return sum(a for a, _ in tot), n, statistics.median(w for _, w in tot), sets90, sets15


WEAK_WIDTH = 0.20   # launch_interval.c's: an interval wider than this is weak (explain --run offered)


def nested(sources, group, settings):
    """each dev set scored with the setting that leave-one-set-out over the other dev sets picks: the narrowest
    whose pooled coverage there is >= 92 % (else the highest coverage); the selection's own optimism"""
    devs = sorted(g for g in set(group) if "/dev/dev-" in g)
    inside, widths, picks = 0, [], {}
    for g in devs:
        rest = [i for i, gg in enumerate(group) if gg != g]
        best = None
        for st in settings:
            b = load_module(dict(kv.split("=") for kv in st.split(",") if kv))
            i, n, w, _, _ = cv(b, [sources[j] for j in rest], [group[j] for j in rest])
            key = (0, w) if i >= 0.92 * n else (1, -i)
            best = min(best, (key, st)) if best else (key, st)
        picks[best[1]] = picks.get(best[1], 0) + 1
        b = load_module(dict(kv.split("=") for kv in best[1].split(",") if kv))
        i, n, w, _, _ = cv(b, sources, group, only={g})
        rows = next(rr for j, rr in enumerate(sources) if group[j] == g)
        held = b.fit([r for j, rr in enumerate(sources) if group[j] != g for r in rr])
        for _, r, rules in rows:
            lo, hi = b.interval(held, rules)
            inside += lo <= r <= hi
            widths.append(100 * (hi - lo))
        print("nested %-20s %-30s %2d of %2d" % (os.path.basename(g), best[1], i, n), flush=True)
    print("nested: %d of %d (%.1f %%), median width %.1f %%; picks %s" % (
        inside, len(widths), 100.0 * inside / len(widths), statistics.median(widths), picks))


def main():
    args = [a.strip() for a in open(sys.argv[1])]
    b = load_module({})
    sources = [list(b.set_rows(a) if ":" in a else b.suite_rows(a)) for a in args]
    group = [a.split(":")[0] if ":" in a else "suites" for a in args]
    if sys.argv[2:3] == ["--nested"]:
        return nested(sources, group, sys.argv[3:])
    for s in sys.argv[2:] or [""]:
        env = dict(kv.split("=") for kv in s.split(",") if kv)
        b = load_module(env)
        i, n, w, s90, s15 = cv(b, sources, group)
        allrows = [r for rr in sources for r in rr]
        full = b.fit(allrows)
        ii = sum(lo <= r <= hi for (lo, hi), (_, r, _) in ((b.interval(full, ru), x) for x in allrows
                                                           for ru in [x[2]]))
        print("%-50s cv %4d of %4d (%5.1f %%) width %4.1f %%; sets 90 %% %2d, 15 %% %2d; in-sample %5.1f %%; "
              "not weak %d of %d" % (s or "default", i, n, 100.0 * i / n, w, s90, s15, 100.0 * ii / len(allrows),
                                    *cv.strong), flush=True)


if __name__ == "__main__":
    main()
