#!/usr/bin/env python3
"""Each interval rule's measured error on committed evidence, and the intervals' coverage (docs/MODEL.md 7.6).

usage: launch_interval_bands.py [--write src/model/launch_interval.c] EVIDENCE...
EVIDENCE: a `gpumem predict --json` document of a suite (its calibration cases left out: they reproduce their
measurement by construction), or SET:RUNDIR:PREDDIR for a kernel set (scripts/unseen_set.sh: RUNDIR holds the
measured `explain --run --json` documents, PREDDIR the `explain --n --json` predictions of this build).
Every launch prediction names the rules that fired (launch.rules); for each rule the lowest and highest
measured / predicted over the measurements where it fired is its band (a combination of rules the evidence lacks
takes the widest band of its rules: the model is weak there and says so); a combination of rules measured on SIG_N
kernels or more (COUNT: a kernel measured in several calls counts once) has its own band, the SIG_LO-th and
(1 - SIG_HI)-th quantiles of its measurements, one of SIG_MIN to SIG_N - 1 kernels the whole range of its
measurements, one of FEW_MIN to SIG_MIN - 1 that range widened by FEW_WIDEN of itself each side; then each end moved
out toward its rules' widest 5th / 95th percentile by SHRINK / (kernels + SHRINK) of the way. Printed: the
bands (C rows for src/model/launch_interval.c between its BANDS markers, with --write), then the coverage of the resulting
intervals on each evidence source and in all, their median width, and leave-one-set-out over the development sets
(each set's first measurement, bands made without any call of it: the honest estimate for a set never seen).
scripts/launch_interval_make.sh BIN runs this with the evidence re-predicted by BIN (one command).
With --bands-from C_FILE the bands are read from that file instead (coverage of a set the bands were not made
on: the sealed set).
"""
import gzip
import json
import os
import re
import statistics
import sys

CALIBRATION = {"copy.read_b16_tile4", "copy.write_b16_tile4", "copy.v8_b4_tile4", "stride.b16_s008",
               "stride.b16_s032", "copy.v0_b4", "copy.v1_b8", "copy.table_b4", "copy.table_blk1024_b4", "copy.lines_b4",
               "copy.lines_l1_b4", "copy.scatter_b4", "copy.scatter_far_b4", "copy.colstore_b4", "copy.colstore_b16",
               "copy.scatter_blocks_b4", "copy.blk64_b4", "copy.blk1024_b4", "copy.pages_b4",
               "copy.pages_2m_b4", "copy.pages_2m_al_b4", "copy.pages_spread_b4", "copy.pages_16m_b4", "copy.start_b4",
               "copy.floor_b4"}
ORDER = ["DRAM", "DRAM sparse", "L2", "L2 lines", "L1", "pages", "blocks", "latency", "L2 reuse", "fills",
         "partial lines", "barrier", "many lines", "small launch"]
ENUM = ["GM_RF_DRAM", "GM_RF_SPARSE", "GM_RF_L2", "GM_RF_LINES", "GM_RF_L1", "GM_RF_PAGES", "GM_RF_BLOCKS",
        "GM_RF_LATENCY", "GM_RF_REUSE", "GM_RF_FILL", "GM_RF_PARTIAL", "GM_RF_BARRIER", "GM_RF_WALK",
        "GM_RF_SMALL"]
IDS = ["D1 D2 D4", "D3", "L2 L4", "L3", "L1 T1", "P", "T4", "T2 T3 T5", "D6 D7 D8 D9 T7", "D5 D10", "L4", "T6",
       "L1 L3", "S"]
FLOOR = 0.03   # no band narrower than +-3 %: the run-to-run spread of a case between processes
RULE_Q = float(os.environ.get("RULE_Q", "0.0"))   # a rule's band: its whole measured range
SIG_N = int(os.environ.get("SIG_N", "48"))   # a combination measured 48+ times: its SIG_LO..(1 - SIG_HI) quantiles (m56)
SIG_LO, SIG_HI = float(os.environ.get("SIG_LO", "0.05")), float(os.environ.get("SIG_HI", "0.10"))
# a combination measured SIG_MIN to SIG_N - 1 times: its whole measured range (a new launch like them falls inside
# the lowest and highest of n with probability (n - 1) / (n + 1), whatever the distribution) (m58)
SIG_MIN = int(os.environ.get("SIG_MIN", "24"))
# a combination measured FEW_MIN to SIG_MIN - 1 times: its whole range widened by FEW_WIDEN of itself each side (the
# range of n like it holds a new launch with probability (n - 1) / (n + 1), 88-92 % at 16-23) (m60)
FEW_MIN = int(os.environ.get("FEW_MIN", "16"))
FEW_WIDEN = float(os.environ.get("FEW_WIDEN", "0.25"))
# i83: how a combination's measurements are counted and its band taken.
#   COUNT "runs": every measurement counts (before i83); "kernels": a kernel measured in several calls (the seven
#   suites' cases, a set measured twice) counts once, its measurements weighted 1 / calls, and n is the kernels.
#   SHRINK k: a combination of n kernels moves each end of its band out toward its rules' widest 5th / 95th
#   percentile by k / (n + k) of the way (lo = (n lo_c + k lo_r) / (n + k) where that is lower), never in: its own
#   record where it has many kernels, its rules' where it has few. Both picked by leave-one-set-out coverage
#   (scripts/lab/interval_cv.py; docs/log/2026-12-03-i83.md): before i83 "runs" and 0.
COUNT = os.environ.get("COUNT", "kernels")
SHRINK = float(os.environ.get("SHRINK", "4"))


def load(p):
    op = gzip.open if p.endswith(".gz") else open
    try:
        with op(p, "rt") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def suite_rows(path):
    doc = load(path) or {}
    for c in doc.get("cases", []):
        la = c.get("launch") or {}
        m, p = (c.get("value") or {}).get("median"), la.get("predicted_gbs")
        if c.get("status") == "ok" and m and p and c["name"] not in CALIBRATION and "rules" in la:
            yield c["name"], m / p, la["rules"]


def set_rows(spec):
    setf, rund, predd = spec.split(":")
    for line in open(setf):
        if not line.strip() or line.startswith("#"):
            continue
        name = line.split("\t")[0]
        run, pr = load(os.path.join(rund, name + ".json")), load(os.path.join(predd, name + ".json"))
        r = (run or {}).get("run", {})
        la = (pr or {}).get("launch", {})
        m, p = (r.get("gbs") or {}).get("median") if r.get("validated") else None, la.get("predicted_gbs")
        if m and p and "rules" in la:   # the kernel: its set file's name and its own
            yield os.path.basename(setf).rsplit(".", 1)[0] + "/" + name, m / p, la["rules"]


def pct(xs, q):
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, int(round(q * (len(xs) - 1)))))
    return xs[k]


def make_bands(rows):
    bands = {}
    for rule in ORDER:
        xs = [r for _, r, rules in rows if rule in rules]
        if xs:
            lo, hi = min(pct(xs, RULE_Q), 1 - FLOOR), max(pct(xs, 1 - RULE_Q), 1 + FLOOR)
        else:
            lo, hi = 1 - FLOOR, 1 + FLOOR
        q = (min(pct(xs, 0.05), 1 - FLOOR), max(pct(xs, 0.95), 1 + FLOOR)) if xs else (lo, hi)
        bands[rule] = (lo, hi, len(xs)) + q
    return bands


def fit(rows):
    """the tables made from rows: (bands, sigs, rows)"""
    bands = make_bands(rows)
    return bands, make_sigs(rows, bands), rows


def read_bands(cfile):
    bands, sigs, text = {}, {}, open(cfile).read()
    for m in re.finditer(r'\[(GM_RF_\w+)\] = \{ "([^"]+)", "[^"]*", ([0-9.]+), ([0-9.]+), (\d+) \}', text):
        bands[m.group(2)] = (float(m.group(3)), float(m.group(4)), int(m.group(5)), float(m.group(3)),
                             float(m.group(4)))
    for m in re.finditer(r'\{ (0x[0-9a-f]+), ([0-9.]+), ([0-9.]+), (\d+) \}, /\* (.*) \*/', text):
        sigs[tuple(m.group(5).split(" + "))] = (float(m.group(2)), float(m.group(3)), int(m.group(4)))
    return bands, sigs


def weighted(v):
    """v: (ratio, kernel) pairs -> sorted (ratio, weight) and n: each measurement weight 1, or with COUNT=kernels
    1 / (the kernel's measurements), n the kernels"""
    if COUNT != "kernels":
        return sorted((r, 1.0) for r, _ in v), len(v)
    calls = {}
    for _, k in v:
        calls[k] = calls.get(k, 0) + 1
    return sorted((r, 1.0 / calls[k]) for r, k in v), len(calls)


def wq(xw, q):
    """the q-quantile of sorted (x, w): the first x whose cumulative weight reaches q of the whole"""
    tot, c = sum(w for _, w in xw), 0.0
    for x, w in xw:
        c += w
        if c >= q * tot - 1e-9:
            return x
    return xw[-1][0]


def sig_band(v, ref=None):
    xw, n = weighted(v)
    xs = [x for x, _ in xw]
    lo, hi = xs[0], xs[-1]
    if n >= SIG_N and COUNT != "kernels":   # before i83
        lo, hi = pct(xs, SIG_LO), pct(xs, 1 - SIG_HI)
    elif n >= SIG_N:
        lo, hi = wq(xw, SIG_LO), wq(xw, 1 - SIG_HI)
    elif n < SIG_MIN:   # fewer: the range widened by FEW_WIDEN of itself each side
        lo, hi = lo - FEW_WIDEN * (hi - lo), hi + FEW_WIDEN * (hi - lo)
    if SHRINK > 0 and ref:
        lo, hi = min(lo, (n * lo + SHRINK * ref[0]) / (n + SHRINK)), max(hi, (n * hi + SHRINK * ref[1]) / (n + SHRINK))
    return min(lo, 1 - FLOOR), max(hi, 1 + FLOOR), len(v), n


def make_sigs(rows, bands=None):
    by = {}
    for name, r, rules in rows:
        by.setdefault(tuple(sorted(rules, key=ORDER.index)), []).append((r, name))
    out = {}
    for k, v in by.items():
        if weighted(v)[1] < FEW_MIN:
            continue
        ref = None
        if bands:   # the combination's rules' widest 5th-95th percentiles
            ref = (min(bands[r][3] for r in k), max(bands[r][4] for r in k))
        out[k] = sig_band(v, ref)
    return out


# a combination without its own band: "widest" (the widest band of its rules: the tables), or for comparison
# "nearest" (the banded combination of the most of its rules), "union" (of the nearest ones), "nearest+" (the
# nearest widened by the dropped rules' 5th-95th percentiles), "p595" (its rules' widest 5th-95th percentiles),
# "poolD[:LO:HI]" (the launches whose rules differ from it by at most D rules, pooled, from SIG_MIN of them; m60)
FALLBACK = os.environ.get("FALLBACK", "widest")


def nearest(sigs, k):
    """The banded combinations nearest to k: those made of k's rules only (k less the fewest rules), the most
    measured first; none when no banded combination is made of k's rules only."""
    subs = [c for c in sigs if set(c) <= set(k)]
    if not subs:
        return []
    most = max(len(c) for c in subs)
    return sorted((c for c in subs if len(c) == most), key=lambda c: -sigs[c][2])


def pooled(rows, k, dist):
    """measured / predicted of the launches whose rules differ from k by at most dist rules"""
    ks = set(k)
    return [r for _, r, rules in rows if len(ks ^ set(rules)) <= dist]


def interval(both, rules):
    bands, sigs = both[:2]
    k = tuple(sorted(rules, key=ORDER.index))
    if k in sigs:
        return sigs[k][0], sigs[k][1]
    if FALLBACK.startswith("pool") and len(both) > 2:
        f = FALLBACK[4:].split(":")
        xs = pooled(both[2], k, int(f[0] or 1))
        qlo, qhi = (float(f[1]), float(f[2])) if len(f) > 2 else (SIG_LO, SIG_HI)
        if len(xs) >= SIG_MIN:
            return (min(pct(xs, qlo if len(xs) >= SIG_N else 0), 1 - FLOOR),
                    max(pct(xs, 1 - qhi if len(xs) >= SIG_N else 1), 1 + FLOOR))
    near = nearest(sigs, k) if FALLBACK != "widest" else []
    if near and FALLBACK == "nearest":
        return sigs[near[0]][0], sigs[near[0]][1]
    if near and FALLBACK == "nearest+":
        drop = [r for r in k if r not in near[0] and r in bands]
        return (min([sigs[near[0]][0]] + [bands[r][3] for r in drop]),
                max([sigs[near[0]][1]] + [bands[r][4] for r in drop]))
    if FALLBACK == "p595":
        return (min([1 - FLOOR] + [bands[r][3] for r in rules if r in bands]),
                max([1 + FLOOR] + [bands[r][4] for r in rules if r in bands]))
    if near and FALLBACK == "union":
        return min(sigs[c][0] for c in near), max(sigs[c][1] for c in near)
    lo = min([1.0] + [bands[r][0] for r in rules if r in bands])
    hi = max([1.0] + [bands[r][1] for r in rules if r in bands])
    return lo, hi


def coverage(bands, rows):
    inside, widths = 0, []
    for _, r, rules in rows:
        lo, hi = interval(bands, rules)
        inside += lo <= r <= hi
        widths.append(100 * (hi - lo))
    return inside, len(rows), statistics.median(widths) if widths else 0


def c_sigs(sigs):
    out = ["\t/* SIGNATURES: scripts/launch_interval_bands.py */"]
    for k in sorted(sigs, key=lambda k: -sigs[k][2]):
        lo, hi, n = sigs[k][:3]
        bits = sum(1 << ORDER.index(r) for r in k)
        out.append("\t{ 0x%x, %.3f, %.3f, %d }, /* %s */" % (bits, lo, hi, n, " + ".join(k)))
    out.append("\t/* END SIGNATURES */")
    return "\n".join(out)


def c_rows(bands):
    out = ["\t/* BANDS: scripts/launch_interval_bands.py */"]
    for e, rule, ids in zip(ENUM, ORDER, IDS):
        lo, hi, n = bands[rule][:3]
        out.append('\t[%s] = { "%s", "%s", %.3f, %.3f, %d },' % (e, rule, ids, lo, hi, n))
    out.append("\t/* END BANDS */")
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    write = bands_from = None
    if args and args[0] == "--write":
        write, args = args[1], args[2:]
    if args and args[0] == "--bands-from":
        bands_from, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    sources, group = [], []
    for a in args:
        rows = list(set_rows(a) if ":" in a else suite_rows(a))
        sources.append((a if ":" not in a else a.split(":")[1], rows))
        group.append(a.split(":")[0] if ":" in a else "suites")   # held out together: a set's every measurement
    allrows = [r for _, rows in sources for r in rows]
    both = read_bands(bands_from) if bands_from else fit(allrows)
    bands, sigs = both[:2]
    print("%-14s %-16s %7s %7s %5s %7s %7s" % ("rule", "ids", "lo", "hi", "n", "p5", "p95"))
    for rule, ids in zip(ORDER, IDS):
        lo, hi, n = bands[rule][:3]
        xs = [r for _, r, rules in allrows if rule in rules] or [1.0]
        print("%-14s %-16s %+6.1f%% %+6.1f%% %5d %+6.1f%% %+6.1f%%" % (rule, ids, 100 * (lo - 1), 100 * (hi - 1), n,
              100 * (pct(xs, 0.05) - 1), 100 * (pct(xs, 0.95) - 1)))
    print("\ncombinations of %d kernels or more (%s; %d or more: %g-%g percentile; %d or more: whole range; fewer: whole "
          "range widened by %g each side; then toward the rules' p5..p95 by %g / (kernels + %g)); measurements, "
          "kernels:" % (FEW_MIN, "a kernel measured in several calls once" if COUNT == "kernels" else "each "
                        "measurement", SIG_N, 100 * SIG_LO, 100 * (1 - SIG_HI), SIG_MIN, FEW_WIDEN, SHRINK, SHRINK))
    for k in sorted(sigs, key=lambda k: -sigs[k][2]):
        print("  %-60s %+6.1f%% %+6.1f%% %5d %5s" % (" + ".join(k), 100 * (sigs[k][0] - 1), 100 * (sigs[k][1] - 1),
                                                    sigs[k][2], sigs[k][3] if len(sigs[k]) > 3 else ""))
    print()
    print("coverage: the bands above; held out: bands made without this source (a fairer figure)")
    for k, (name, rows) in enumerate(sources):
        i, n, w = coverage(both, rows)
        if not n:
            continue
        line = "%-60s %3d of %3d inside (%5.1f %%), median width %4.1f %%" % (name[-60:], i, n, 100.0 * i / n, w)
        if not bands_from and len(sources) > 1:
            rest = [r for j, (_, rr) in enumerate(sources) if group[j] != group[k] for r in rr]
            held = fit(rest)
            hi_, hn, hw = coverage(held, rows)
            line += "; held out %3d (%5.1f %%), width %4.1f %%" % (hi_, 100.0 * hi_ / hn, hw)
        print(line)
    i, n, w = coverage(both, allrows)
    print("%-60s %3d of %3d inside (%5.1f %%), median width %4.1f %%" % ("all", i, n, 100.0 * i / max(n, 1), w))
    if not bands_from and len(set(group)) > 1:   # each generated set's first measurement, bands made without it
        tot, inside, widths = 0, 0, []
        for g in sorted(set(group)):
            if "/dev/dev-" not in g:
                continue
            rows = next(rr for j, (_, rr) in enumerate(sources) if group[j] == g)
            rest = [r for j, (_, rr) in enumerate(sources) if group[j] != g for r in rr]
            held = fit(rest)
            for _, r, rules in rows:
                lo, hi = interval(held, rules)
                inside += lo <= r <= hi
                widths.append(100 * (hi - lo))
            hi_, hn, hw = coverage(held, rows)
            print("leave-one-set-out %-40s %3d of %3d inside (%5.1f %%), median width %4.1f %%" % (
                os.path.basename(g), hi_, hn, 100.0 * hi_ / max(hn, 1), hw))
        print("leave-one-set-out %-40s %3d of %3d inside (%5.1f %%), median width %4.1f %%" % (
            "the dev sets", inside, len(widths), 100.0 * inside / max(len(widths), 1),
            statistics.median(widths) if widths else 0))
    if write:
        s = open(write).read()
        a, b = s.index("\t/* BANDS:"), s.index("\t/* END BANDS */") + len("\t/* END BANDS */")
        s = s[:a] + c_rows(bands) + s[b:]
        a, b = s.index("\t/* SIGNATURES:"), s.index("\t/* END SIGNATURES */") + len("\t/* END SIGNATURES */")
        open(write, "w").write(s[:a] + c_sigs(sigs) + s[b:])


if __name__ == "__main__":
    main()
