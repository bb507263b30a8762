#!/usr/bin/env python3
"""Rule L4's spaced near rate, what-if (branch s75): each development call's profile-calibrate.json (the tags of
scripts/launch_dev_score.sh) copied to OUTDIR/TAG.json with l2_merge_far_lines_gps = RATIO x its l2_merge_lines_gps
(RATIO 1.1689: probe-66's 12.6 ps a line at 1 KiB + 128 B against the built-in H200 profile's 14.72 ps, 79.4 / 67.93).
Written before any call measured copy.scatter_far_b4 (model-5e8cd5e did first): what a measured rate would do.
usage: scripts/lab/l4_spaced_whatif.py RATIO OUTDIR   (then PROFILE_DIR=OUTDIR scripts/launch_dev_score.sh BIN OUT)"""
import sys
from dev_profiles import dev_profiles, write


def main():
    ratio, out = float(sys.argv[1]), sys.argv[2]
    for tag, prof in dev_profiles():
        if prof.get("l2_merge_lines_gps"):
            prof["l2_merge_far_lines_gps"] = ratio * prof["l2_merge_lines_gps"]
        write(out, tag, prof, "l2_merge_far_lines_gps")
        print("%s l2_merge_lines_gps %s l2_merge_far_lines_gps %s" % (tag, prof.get("l2_merge_lines_gps"),
                                                                      prof.get("l2_merge_far_lines_gps")))

if __name__ == "__main__":
    main()
