#!/usr/bin/env bash
# Re-predict every committed measurement of the launch model's development sets (unseen2, its page test and
# unseen3: named "unseen" when written, but rules L3, P, S, D9 and T7 were shaped on them; the judged set is
# tests/fixtures/sealed/, scripts/launch_sealed_session.sh) with BIN (a gpumem built from this
# tree), each with the profile `calibrate` measured in the same call, and score them (docs/MODEL.md 7.4,
# "re-predictions of committed measurements"): unseen2, its page test and unseen3 on the H100 (gpu-4136874,
# gpu-46d856e) and the H200 (gpu-71a472f); the suites with v25_big128 (s17-728f933 on an H100, s14-d613076 on an
# H200), each with the calibrate profile of its call; and the calls with rules D9 and T7 (s24-0d0fd8e on an H100,
# s25-0d0fd8e on an H200: the three sets in unseen_runs.tar.gz and the suites). The calls these superseded
# (final-c9f98b0, s2-ecc59bd, s3-ecc59bd, s4/s5-dbe10c0, the final-4136874 / final-b8a3211 suites) are pruned from
# the tree; each folder's PRUNED.md says where git keeps them.
# usage: scripts/unseen_repredict.sh BIN [OUTDIR]   (OUTDIR keeps every table; default a temporary folder)
set -uo pipefail
bin=$(readlink -f "$1")
cd "$(dirname "$0")/.."
out=${2:-$(mktemp -d)}
mkdir -p "$out"
h1=results/nvidia-h100-80gb-hbm3/launch h2=results/nvidia-h200/launch
s24=results/nvidia-h100-80gb-hbm3/s24-0d0fd8e/launch s25=results/nvidia-h200/s25-0d0fd8e/launch
# tag  set  directory with runs.tar.gz and profile-calibrate.json  subfolder of the tar
sets=(
  h100-46d856e-unseen2 unseen2 $h1/unseen2/gpu-46d856e unseen2
  h100-46d856e-pages unseen2_pages $h1/unseen2/gpu-46d856e unseen2_pages
  h100-46d856e-unseen3 unseen3 $h1/unseen3/gpu-46d856e unseen3
  h100-4136874-unseen2 unseen2 $h1/unseen2/gpu-4136874 unseen2
  h100-4136874-pages unseen2_pages $h1/unseen2/gpu-4136874 unseen2_pages
  h200-71a472f-unseen2 unseen2 $h2/unseen2/gpu-71a472f unseen2
  h200-71a472f-pages unseen2_pages $h2/unseen2/gpu-71a472f unseen2_pages
  h200-71a472f-unseen3 unseen3 $h2/unseen3/gpu-71a472f unseen3
  h100-s24-unseen2 unseen2 $s24 unseen2
  h100-s24-pages unseen2_pages $s24 unseen2_pages
  h100-s24-unseen3 unseen3 $s24 unseen3
  h200-s25-unseen2 unseen2 $s25 unseen2
  h200-s25-pages unseen2_pages $s25 unseen2_pages
  h200-s25-unseen3 unseen3 $s25 unseen3
)
for ((i = 0; i < ${#sets[@]}; i += 4)); do
  tag=${sets[i]} set=${sets[i+1]} dir=${sets[i+2]} sub=${sets[i+3]}
  mkdir -p "$out/$tag/runs"
  for tarf in "$dir"/{runs,unseen_runs}.tar.{xz,gz}; do [ -f "$tarf" ] && break; done   # s24 / s25: unseen_runs
  tar xf "$tarf" -C "$out/$tag/runs" 2>/dev/null
  bash scripts/unseen_set.sh predict "$bin" "tests/gpu/$set.tsv" "$out/$tag/pred" "$dir/profile-calibrate.json" >/dev/null
  python3 scripts/unseen_score.py "tests/gpu/$set.tsv" "$out/$tag/runs/$sub" "$out/$tag/pred" >"$out/$tag.txt"
  printf 'dev %-22s %s\n' "$tag" "$(grep '^all' "$out/$tag.txt" | sed 's/^all *//')"
done
# the suites with the calibrate profile measured in the same call (the issue's check)
for d in results/nvidia-h100-80gb-hbm3/s17-728f933/launch results/nvidia-h200/s14-d613076/launch $s24 $s25; do
  tag=$(basename "$(dirname "$(dirname "$d")")")-$(basename "$(dirname "$d")" | sed 's/^final-//')-suite
  "$bin" predict "$d/suite_profile.json.gz" --profile "$d/profile-calibrate.json" >"$out/$tag.txt" 2>&1
  printf '%-22s %s\n' "${tag#nvidia-}" "$(grep '^model within' "$out/$tag.txt")"
done
echo "tables in $out"
