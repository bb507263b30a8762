#!/usr/bin/env python3
"""Rule P6's what-if (branch m74): each development call's profile-calibrate.json (the tags of
scripts/launch_dev_score.sh) copied to OUTDIR/TAG.json with pages_spread_gps set so that P6's factor,
1 / (pages_spread_gps x page_ns(GM_PAGES_DIST_SPREAD)), equals FACTOR; page_ns as rule P4's (launch_time.c).
Written before any call measured copy.pages_spread_b4 (probe-b86c490 did first): what a measured rate would do.
usage: scripts/lab/p6_whatif.py FACTOR OUTDIR   (then PROFILE_DIR=OUTDIR scripts/launch_dev_score.sh BIN OUT)"""
import math, sys
from dev_profiles import dev_profiles, write

D2, D4, D16, DS = 2.0 * 2**20 + 128, 4.0 * 2**20 + 128, 16.0 * 2**20 + 128, 4026528.0


def page_ns(p, dist):
    g = p.get("pages_gps") or 65.6  # GM_PAGES_GPS_DEFAULT when not measured
    d = [math.log2(D2), math.log2(D4), math.log2(D16)]
    ns = [1 / (p.get("pages_2m_gps") or g), 1 / g, 1 / (p.get("pages_16m_gps") or g)]
    x = math.log2(dist)
    if x <= d[0]:
        return ns[0]
    if x >= d[2]:
        return ns[2]
    if x <= d[1]:
        return ns[0] + (ns[1] - ns[0]) * (x - d[0]) / (d[1] - d[0])
    return ns[1] + (ns[2] - ns[1]) * (x - d[1]) / (d[2] - d[1])


def main():
    factor, out = float(sys.argv[1]), sys.argv[2]
    for tag, prof in dev_profiles():
        prof["pages_spread_gps"] = 1.0 / (factor * page_ns(prof, DS))
        write(out, tag, prof, "pages_spread_gps")
        print("%s pages_gps %.2f pages_spread_gps %.2f" % (tag, prof.get("pages_gps") or 65.6, prof["pages_spread_gps"]))

if __name__ == "__main__":
    main()
