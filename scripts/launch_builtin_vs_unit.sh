#!/usr/bin/env bash
# What a calibrate buys (docs/MODEL.md 7.3, `run`'s note when it predicts with a built-in profile): every
# committed suite that has the profile `calibrate` measured in the same call, re-predicted with the SKU's
# built-in profile and with that call's own, scored by scripts/launch_suite_score.py (calibration cases apart).
# usage: scripts/launch_builtin_vs_unit.sh BIN [OUTDIR]
set -uo pipefail
bin=$(readlink -f "$1")
cd "$(dirname "$0")/.."
out=${2:-$(mktemp -d)}
mkdir -p "$out"
export XDG_CACHE_HOME=$out/cache   # never a cached profile: the built-in one is what is scored
for f in $(git ls-files 'results/*/suite_profile.json.gz'); do
  d=$(dirname "$f")
  [ -f "$d/profile-calibrate.json" ] || continue
  t=$(echo "$d" | sed 's#^results/##; s#/launch$##; s#/#_#g')
  "$bin" predict "$f" --json "$out/$t.builtin.json" >/dev/null 2>&1
  "$bin" predict "$f" --profile "$d/profile-calibrate.json" --json "$out/$t.unit.json" >/dev/null 2>&1
  python3 scripts/launch_suite_score.py "$out/$t.builtin.json" "$out/$t.unit.json" | sed "s#$out/##"
done
