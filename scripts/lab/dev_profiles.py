"""The development calls' profiles for a what-if (scripts/lab/p6_whatif.py, l4_spaced_whatif.py): each tag of
scripts/launch_dev_score.sh with its call's profile-calibrate.json; write() puts a changed one at OUTDIR/TAG.json,
the field taken off its unmeasured list, for PROFILE_DIR=OUTDIR scripts/launch_dev_score.sh BIN OUT."""
import json, os, re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def dev_profiles():
    script = open(os.path.join(ROOT, "scripts", "launch_dev_score.sh")).read()
    for tag, d in re.findall(r"^\s+(\S+) \$dv/\S+ \$h2/(\S+) \S+$", script, re.M):
        yield tag, json.load(open(os.path.join(ROOT, "results", "nvidia-h200", d, "profile-calibrate.json")))


def write(out, tag, prof, field):
    prof["unmeasured"] = [u for u in prof.get("unmeasured", []) if u != field]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, tag + ".json"), "w") as f:
        json.dump(prof, f, indent=2)
