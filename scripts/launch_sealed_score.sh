#!/usr/bin/env bash
# Score a measured set (scripts/launch_sealed_session.sh's folder) offline: the predictions with the call's own
# calibrate profile and with the SKU's built-in profile, per shape (the name's prefix), and the intervals'
# coverage with the bands committed in src/model/launch_interval.c.
# usage: scripts/launch_sealed_score.sh BIN RESULTS_DIR BUILTIN_PROFILE [TAG=SET.tsv]
#   TAG: the set's folder in RESULTS_DIR/runs.tar.gz (TAG_run/); default dev36a=tests/fixtures/dev/dev-36a.tsv.
#   An older folder with sealed_runs.tar.gz (model-048524d) holds one set in sealed_run/ (TAG "sealed").
set -uo pipefail
bin=$(readlink -f "$1") dir=$(readlink -f "$2") builtin=$3 spec=${4:-dev36a=tests/fixtures/dev/dev-36a.tsv}
tag=${spec%%=*} set=${spec#*=}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tarf in "$dir"/{runs,sealed_runs}.tar.{xz,gz}; do [ -f "$tarf" ] && break; done
tar xf "$tarf" -C "$tmp"
run=$tmp/${tag}_run
export XDG_CACHE_HOME=$tmp/cache
bash scripts/unseen_set.sh predict "$bin" "$set" "$tmp/builtin" "$builtin" >/dev/null
bash scripts/unseen_set.sh predict "$bin" "$set" "$tmp/unit" "$dir/profile-calibrate.json" >/dev/null
echo "== $tag ($set) with this unit's fresh calibrate (profile-calibrate.json)"
python3 scripts/unseen_score.py "$set" "$run" "$tmp/unit" | tee "$tmp/unit.txt"
echo
echo "== per shape (the name's prefix), this unit's profile"
python3 - "$tmp/unit.txt" <<'PY'
import re, statistics, sys
by = {}
for line in open(sys.argv[1]):
    m = re.match(r"([a-z0-9]+?)_.*?\s(\d+)%\s", line)
    if m:
        by.setdefault(m.group(1), []).append(abs(int(m.group(2)) - 100))
for k, e in sorted(by.items()):
    print("%-8s %2d of %2d within 10 %%, mean error %.1f %%, worst %d %%" % (k, sum(x <= 10 for x in e), len(e),
          statistics.mean(e), max(e)))
PY
echo
echo "== the intervals per shape (each prediction's low_gbs..high_gbs, this unit's profile)"
python3 - "$set" "$run" "$tmp/unit" <<'PY'
import re, statistics, sys
sys.path.insert(0, "scripts")
from launch_set_rows import rows
by = {}
for name, m, la in rows(*sys.argv[1:4]):
    if "low_gbs" not in la:
        continue
    lo, hi, p = la["low_gbs"], la["high_gbs"], la["predicted_gbs"]
    for k in (re.match(r"([a-z0-9]+?)_", name).group(1), "all"):
        by.setdefault(k, []).append((lo <= m <= hi, 100 * (hi - lo) / p))
for k in sorted(by, key=lambda k: (k == "all", k)):
    v = by[k]
    print("%-8s %2d of %2d inside, median width %.1f %%" % (k, sum(x for x, _ in v), len(v),
          statistics.median(w for _, w in v)))
PY
echo
echo "== with the built-in profile ($builtin)"
python3 scripts/unseen_score.py "$set" "$run" "$tmp/builtin" | sed -n '/^all\|^$/,$p' | tail -12
echo
echo "== the intervals' coverage (bands of src/model/launch_interval.c), this unit's profile, then the built-in"
python3 scripts/launch_interval_bands.py --bands-from src/model/launch_interval.c "$set:$run:$tmp/unit" |
  sed -n '/^all/p'
python3 scripts/launch_interval_bands.py --bands-from src/model/launch_interval.c "$set:$run:$tmp/builtin" |
  sed -n '/^all/p'
