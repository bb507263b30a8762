#!/usr/bin/env python3
"""suite_time.py RUN.json[.gz] [N] - where a run's wall time goes: each family's cases' own wall time (the JSON's
per-case wall_s: allocation, fill, check, warm-up, samples, counters, release), the run's wall_s beside their sum
(the rest is start-up, device queries and the derived results), and the N slowest cases (default 15).
The default suite must stay at 90 s or less on an H100 and --quick at 15 s (the brief); this says what to trim."""
import gzip
import json
import sys
from collections import defaultdict


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = argv[1]
    top = int(argv[2]) if len(argv) > 2 else 15
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        doc = json.load(f)
    cases = doc.get("cases", [])
    timed = [c for c in cases if c.get("wall_s")]
    if not timed:
        print("suite_time.py: %s has no per-case wall_s (a run from before the field)" % path, file=sys.stderr)
        return 1
    fam = defaultdict(lambda: [0.0, 0])
    for c in timed:
        fam[c["family"]][0] += c["wall_s"]
        fam[c["family"]][1] += 1
    total = sum(v[0] for v in fam.values())
    print("%s: %d cases, run wall %.1f s, cases' own %.1f s" % (path, len(cases), doc.get("wall_s", 0), total))
    for name, (s, n) in sorted(fam.items(), key=lambda kv: -kv[1][0]):
        print("  %-12s %7.2f s  %4d cases  %6.3f s a case" % (name, s, n, s / n))
    print("slowest cases:")
    for c in sorted(timed, key=lambda c: -c["wall_s"])[:top]:
        print("  %-40s %7.3f s  %s" % (c["name"], c["wall_s"], c.get("status", "")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
