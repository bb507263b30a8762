#!/usr/bin/env python3
"""Rule L4's spaced near rate, what-if (branch s75): each development call's profile-calibrate.json (the tags of
scripts/launch_dev_score.sh) copied to OUTDIR/TAG.json with l2_merge_far_lines_gps = RATIO x its l2_merge_lines_gps
(RATIO 1.1689: probe-66's 12.6 ps a line at 1 KiB + 128 B against the built-in H200 profile's 14.72 ps, 79.4 / 67.93).
No call measured copy.scatter_far_b4: the figures say what a measured rate would do, not what it is.
usage: scripts/lab/l4_spaced_whatif.py RATIO OUTDIR   (then PROFILE_DIR=OUTDIR scripts/launch_dev_score.sh BIN OUT)"""
import json, os, re, sys


def main():
    ratio, out = float(sys.argv[1]), sys.argv[2]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    script = open(os.path.join(root, "scripts", "launch_dev_score.sh")).read()
    os.makedirs(out, exist_ok=True)
    for tag, d in re.findall(r"^\s+(\S+) \$dv/\S+ \$h2/(\S+) \S+$", script, re.M):
        prof = json.load(open(os.path.join(root, "results", "nvidia-h200", d, "profile-calibrate.json")))
        if prof.get("l2_merge_lines_gps"):
            prof["l2_merge_far_lines_gps"] = ratio * prof["l2_merge_lines_gps"]
            prof["unmeasured"] = [u for u in prof.get("unmeasured", []) if u != "l2_merge_far_lines_gps"]
        with open(os.path.join(out, tag + ".json"), "w") as f:
            json.dump(prof, f, indent=2)
        print("%s l2_merge_lines_gps %s l2_merge_far_lines_gps %s" % (tag, prof.get("l2_merge_lines_gps"),
                                                                      prof.get("l2_merge_far_lines_gps")))


if __name__ == "__main__":
    main()
