#!/usr/bin/env python3
"""Carry a call's newly measured constants into another call's profile of the same SKU, for offline scores.

usage: launch_scale_in.py SRC_PROFILE CALL_PROFILE OUT [FIELD,...]
  wave_l2_ns scaled by the two profiles' wave_ns, l1_lines_gps by their l1_gbs (default: both). A figure scored
  with such a profile says so: the constant was not measured in that call (scripts/launch_dev_score.sh PROFILE_DIR).
"""
import json
import sys

src, base, out = sys.argv[1:4]
fields = sys.argv[4].split(",") if len(sys.argv) > 4 else ["wave_l2_ns", "l1_lines_gps"]
with open(src) as f:
    s = json.load(f)
with open(base) as f:
    b = json.load(f)
if "wave_l2_ns" in fields and b.get("wave_ns"):
    b["wave_l2_ns"] = s["wave_l2_ns"] * b["wave_ns"] / s["wave_ns"]
if "l1_lines_gps" in fields:
    b["l1_lines_gps"] = s["l1_lines_gps"] * b["l1_gbs"] / s["l1_gbs"]
b["unmeasured"] = [u for u in b.get("unmeasured", []) if u not in fields]
with open(out, "w") as f:
    json.dump(b, f, indent=2)
