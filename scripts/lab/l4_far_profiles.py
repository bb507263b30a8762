#!/usr/bin/env python3
"""Profiles with rule L4's far rates for the development sets' calls, a screen (m66).

usage: scripts/lab/l4_far_profiles.py FAR_PROFILE OUTDIR [TAG DIR ...]

Every call that launch_dev_score.sh scores (its sets array, and the TAG DIR pairs given, e.g. probe66
results/nvidia-h200/probe66-967251a) measured its profile before calibrate had copy.colstore_b4 / _b16: OUTDIR/TAG.json
is that call's profile-calibrate.json with l2_far_lines_gps and l2_far_lines16_gps taken from FAR_PROFILE (a profile
that measured them) and taken out of its unmeasured list. Then PROFILE_DIR=OUTDIR bash scripts/launch_dev_score.sh
scores the rule with them. The H200 calls' l2_merge_lines_gps agree within 1 % (67.4-68.0), so the far rates are
copied, not scaled. A screen: say so wherever its figures are used.
"""
import json
import os
import re
import sys

FIELDS = ("l2_far_lines_gps", "l2_far_lines16_gps")


def calls(extra):
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(here, "..", "launch_dev_score.sh")).read()
    for m in re.finditer(r"^  (\S+) \S+ \$h2/(\S+) \S+$", text, flags=re.M):
        yield m.group(1), os.path.join("results", "nvidia-h200", m.group(2))
    for i in range(0, len(extra) - 1, 2):
        yield extra[i], extra[i + 1]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    far = json.load(open(sys.argv[1]))
    if not all(far.get(k, 0) > 0 for k in FIELDS):
        sys.exit("%s has no far rates (%s)" % (sys.argv[1], ", ".join(FIELDS)))
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    for tag, d in calls(sys.argv[3:]):
        p = json.load(open(os.path.join(d, "profile-calibrate.json")))
        for k in FIELDS:
            p[k] = far[k]
        p["unmeasured"] = [u for u in p.get("unmeasured", []) if u not in FIELDS]
        json.dump(p, open(os.path.join(out, tag + ".json"), "w"), indent=2)
        print("%s <- %s with the far rates of %s" % (tag, d, sys.argv[1]))


if __name__ == "__main__":
    main()
