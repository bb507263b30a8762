#!/usr/bin/env bash
# Score a measured sealed set (scripts/launch_sealed_session.sh's folder) offline: the predictions with the
# call's own calibrate profile (as measured: each document's launch object) and with the SKU's built-in profile,
# and the intervals' coverage (the bands committed in src/model/launch_interval.c; the sealed set made none).
# usage: scripts/launch_sealed_score.sh BIN RESULTS_DIR BUILTIN_PROFILE [SET]
set -uo pipefail
bin=$(readlink -f "$1") dir=$(readlink -f "$2") builtin=$3 set=${4:-tests/fixtures/dev/dev-36a.tsv}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar xzf "$dir/sealed_runs.tar.gz" -C "$tmp"
export XDG_CACHE_HOME=$tmp/cache
bash scripts/unseen_set.sh predict "$bin" "$set" "$tmp/builtin" "$builtin" >/dev/null
bash scripts/unseen_set.sh predict "$bin" "$set" "$tmp/unit" "$dir/profile-calibrate.json" >/dev/null
echo "== with this unit's fresh calibrate (profile-calibrate.json)"
python3 scripts/unseen_score.py "$set" "$tmp/sealed_run" "$tmp/unit" | tee "$tmp/unit.txt"
echo
echo "== per shape (the grammar's production, the name's prefix), this unit's profile"
python3 - "$tmp/unit.txt" <<'PY'
import re, statistics, sys
by = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+?)_\d+\s.*?\s(\d+)%\s", line)
    if m:
        by.setdefault(m.group(1), []).append(abs(int(m.group(2)) - 100))
for k, e in sorted(by.items()):
    print("%-8s %2d of %2d within 10 %%, mean error %.1f %%, worst %d %%" % (k, sum(x <= 10 for x in e), len(e),
          statistics.mean(e), max(e)))
PY
echo
echo "== with the built-in profile ($builtin)"
python3 scripts/unseen_score.py "$set" "$tmp/sealed_run" "$tmp/builtin" | sed -n '/^all\|^$/,$p' | tail -12
echo
echo "== the intervals' coverage (bands of src/model/launch_interval.c), this unit's profile, then the built-in"
python3 scripts/launch_interval_bands.py --bands-from src/model/launch_interval.c "$set:$tmp/sealed_run:$tmp/unit" |
  sed -n '/^coverage/,$p'
python3 scripts/launch_interval_bands.py --bands-from src/model/launch_interval.c "$set:$tmp/sealed_run:$tmp/builtin" |
  sed -n '/^all/p'
