#!/usr/bin/env python3
"""suite_phases.py RUN.json[.gz] [--top N] [--project] [--cpu FAMILY=FACTOR ...]

Where a run's wall time went, per case and per phase, and what the time-budgeted runner (src/bench/runner.c,
docs/METHODOLOGY.md) would take for the same cases.

A case that records `wall_parts_s` (runs from the budgeted runner on) is read as recorded. For an older run the
phases are estimated from its samples, as the runner of that time spent them (a launch ~ the median sample):
  untimed   2 untimed launches (module load, first touch)
  calib     1 calibration launch
  warmup    launches until 50 ms of work had run
  samples   nsamples x (launches per sample: to 0.5 ms, at most 4096) x the launch
  retries   (attempts - 1) x (untimed + calib + warmup + samples), the CoV retries (note `attempts`)
  other     the rest of the case's wall_s: allocation, random fill, the GPU and CPU checks, release
Self-timed cases (timing `self`) time in their own unit: all of their time is `other` in an estimate.

--project estimates the budgeted runner: warm-up in ~4 ms chunks until two agree within 1 % (assumed: three
chunks and the one in flight, at most 50 ms; a launch over 4 ms is a chunk), samples by the 150 ms budget (20
under 7.5 ms a sample, else as many as fit, at least 10), retries without the untimed launches, `other` scaled
by --cpu FAMILY=FACTOR (the share left after a CPU check runs on every core; 1 = unchanged).
"""
import gzip
import json
import math
import sys
from collections import defaultdict

PHASES = ("untimed", "calib", "warmup", "samples", "retries", "other")
UNTIMED, WARMUP_MS, MIN_SAMPLE_MS, MAX_LAUNCHES = 2, 50.0, 0.5, 4096
BUDGET_MS, MIN_REPS, REPS = 150.0, 10, 20
CHUNK_MS, CHUNKS = 4.0, 4


def load(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        return json.load(f)


def note(c, name, dflt=None):
    for n in c.get("notes") or []:
        if n.get("name") == name:
            return n.get("median", dflt)
    return dflt


def per_sample(one):
    """(launches, ms) of one sample whose launch takes `one` ms (runner.c calibrate())."""
    if one <= 0:
        return 1, 0.0
    k = 1 if one >= MIN_SAMPLE_MS else min(MAX_LAUNCHES, int(MIN_SAMPLE_MS / one + 1))
    return k, k * one


def old_warmup(one):
    n = int(WARMUP_MS / one) + 1 if one > 0 else 1
    return min(n, 20 * MAX_LAUNCHES) * one


def new_warmup(one):
    """Chunks of ~4 ms until two agree: assumed three chunks plus the one in flight; stops at 50 ms."""
    if one <= 0:
        return 0.0
    chunk = max(1, round(CHUNK_MS / one)) * one
    n = min(CHUNKS, math.ceil(WARMUP_MS / chunk)) if chunk < WARMUP_MS else 1
    return n * chunk


def budget_reps(sample_ms, reps):
    if sample_ms <= 0 or reps <= MIN_REPS:
        return reps
    n = math.ceil(BUDGET_MS / sample_ms)
    return max(MIN_REPS, min(reps, n))


def estimate(c):
    """Phases (s) of one case of an older run, as that runner spent them."""
    wall = c.get("wall_s") or 0.0
    parts = dict.fromkeys(PHASES, 0.0)
    st = c.get("stats_ms") or {}
    if c.get("status") != "ok" or c.get("timing") == "self" or not st.get("n"):
        parts["other"] = wall
        return parts
    one = st["median"]
    _, sample = per_sample(one)
    attempt = dict(untimed=UNTIMED * one, calib=one, warmup=old_warmup(one), samples=st["n"] * sample)
    for k, v in attempt.items():
        parts[k] = v * 1e-3
    parts["retries"] = ((note(c, "attempts", 1) or 1) - 1) * sum(attempt.values()) * 1e-3
    parts["other"] = max(0.0, wall - sum(parts[k] for k in PHASES if k != "other"))
    return parts


def phases(c):
    rec = c.get("wall_parts_s")
    if isinstance(rec, dict):
        parts = dict.fromkeys(PHASES, 0.0)
        for k, v in rec.items():
            parts[k if k in parts else "other"] += v
        return parts, True
    return estimate(c), False


def project(c, parts, cpu):
    """Phases (s) of the same case under the budgeted runner."""
    st = c.get("stats_ms") or {}
    fam = c.get("family", "")
    out = dict(parts)
    out["other"] = parts["other"] * cpu.get(fam, 1.0)
    if c.get("status") != "ok" or c.get("timing") == "self" or not st.get("n"):
        return out
    one = st["median"]
    _, sample = per_sample(one)
    n = budget_reps(sample, REPS)
    attempt = dict(untimed=UNTIMED * one, calib=one, warmup=new_warmup(one), samples=n * sample)
    for k, v in attempt.items():
        out[k] = v * 1e-3
    retry = (attempt["calib"] + attempt["warmup"] + attempt["samples"]) * 1e-3
    out["retries"] = ((note(c, "attempts", 1) or 1) - 1) * retry
    return out


def table(title, rows, total_wall):
    print(title)
    print("  %-12s %5s %8s " % ("family", "cases", "wall") + " ".join("%8s" % p for p in PHASES))
    fam = defaultdict(lambda: [0, dict.fromkeys(PHASES, 0.0)])
    for c, parts in rows:
        f = fam[c.get("family", "?")]
        f[0] += 1
        for k in PHASES:
            f[1][k] += parts[k]
    tot = dict.fromkeys(PHASES, 0.0)
    for name, (n, p) in sorted(fam.items(), key=lambda kv: -sum(kv[1][1].values())):
        print("  %-12s %5d %8.2f " % (name, n, sum(p.values())) + " ".join("%8.2f" % p[k] for k in PHASES))
        for k in PHASES:
            tot[k] += p[k]
    cases = sum(tot.values())
    print("  %-12s %5d %8.2f " % ("all", len(rows), cases) + " ".join("%8.2f" % tot[k] for k in PHASES))
    print("  run: %.1f s (the cases %.1f s, start-up, prediction and derived results %.1f s)"
          % (total_wall, cases, total_wall - cases) if total_wall else "")
    return cases


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    top, proj, cpu, path = 15, False, {}, None
    while args:
        a = args.pop(0)
        if a == "--top":
            top = int(args.pop(0))
        elif a == "--project":
            proj = True
        elif a == "--cpu":
            fam, _, fac = args.pop(0).partition("=")
            cpu[fam] = float(fac)
        else:
            path = a
    doc = load(path)
    cases = [c for c in doc.get("cases", []) if c.get("wall_s")]
    if not cases:
        print("suite_phases.py: %s has no per-case wall_s" % path, file=sys.stderr)
        return 1
    rows = [(c,) + phases(c) for c in cases]
    recorded = sum(1 for r in rows if r[2])
    print("%s: %d cases with wall_s, %d with wall_parts_s (the rest estimated)" % (path, len(cases), recorded))
    wall = doc.get("wall_s", 0.0)
    now = table("as run:", [(c, p) for c, p, _ in rows], wall)
    print("slowest cases (s):")
    for c, p, _ in sorted(rows, key=lambda r: -sum(r[1].values()))[:top]:
        print("  %-36s %6.3f " % (c["name"], sum(p.values())) + " ".join("%s %.3f" % (k, p[k]) for k in PHASES
                                                                           if p[k] >= 0.0005))
    if proj:
        new = table("projected, the budgeted runner:", [(c, project(c, p, cpu)) for c, p, _ in rows], 0)
        fixed = wall - now
        print("  projected run: %.1f s (the cases %.1f s + %.1f s outside them as run)" % (new + fixed, new, fixed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
