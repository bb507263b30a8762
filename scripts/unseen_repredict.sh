#!/usr/bin/env bash
# Re-predict every committed measurement of the launch model's judged sets with BIN (a gpumem built from this
# tree), each with the profile `calibrate` measured in the same call, and score them (docs/MODEL.md 7.4,
# "re-predictions of committed measurements"): unseen2, its page test and unseen3 on the H100 (gpu-4136874,
# gpu-46d856e) and the H200 (gpu-71a472f), then the default suites of the last H100 and H200 calls with the
# profile derived from each suite run itself (predict --self: the calibration cases are in the suite); and the
# final-c9f98b0 calls of both GPUs (the three sets in unseen_runs.tar.gz, the suite with its calibrate profile), and
# the 2026-11-26 morning calls (s2-ecc59bd, s3-ecc59bd: the sets; s4-dbe10c0, s5-dbe10c0: the suites) and the afternoon's
# suites with v25_big128 (s17-728f933 on an H100, s14-d613076 on an H200), and the calls with rules D9 and T7
# (s24-0d0fd8e on an H100, s25-0d0fd8e on an H200: the sets and the suites).
# usage: scripts/unseen_repredict.sh BIN [OUTDIR]   (OUTDIR keeps every table; default a temporary folder)
set -uo pipefail
bin=$(readlink -f "$1")
cd "$(dirname "$0")/.."
out=${2:-$(mktemp -d)}
mkdir -p "$out"
h1=results/nvidia-h100-80gb-hbm3/launch h2=results/nvidia-h200/launch
f1=results/nvidia-h100-80gb-hbm3/final-c9f98b0/launch f2=results/nvidia-h200/final-c9f98b0/launch
s2=results/nvidia-h100-80gb-hbm3/s2-ecc59bd/launch s3=results/nvidia-h200/s3-ecc59bd/launch
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
  h100-c9f98b0-unseen2 unseen2 $f1 unseen2
  h100-c9f98b0-pages unseen2_pages $f1 unseen2_pages
  h100-c9f98b0-unseen3 unseen3 $f1 unseen3
  h200-c9f98b0-unseen2 unseen2 $f2 unseen2
  h200-c9f98b0-pages unseen2_pages $f2 unseen2_pages
  h200-c9f98b0-unseen3 unseen3 $f2 unseen3
  h100-s2-unseen2 unseen2 $s2 unseen2
  h100-s2-pages unseen2_pages $s2 unseen2_pages
  h100-s2-unseen3 unseen3 $s2 unseen3
  h200-s3-unseen2 unseen2 $s3 unseen2
  h200-s3-pages unseen2_pages $s3 unseen2_pages
  h200-s3-unseen3 unseen3 $s3 unseen3
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
  tarf=$dir/runs.tar.gz
  [ -f "$tarf" ] || tarf=$dir/unseen_runs.tar.gz   # final-c9f98b0: the three sets in one tar
  tar xzf "$tarf" -C "$out/$tag/runs" 2>/dev/null
  bash scripts/unseen_set.sh predict "$bin" "tests/gpu/$set.tsv" "$out/$tag/pred" "$dir/profile-calibrate.json" >/dev/null
  python3 scripts/unseen_score.py "tests/gpu/$set.tsv" "$out/$tag/runs/$sub" "$out/$tag/pred" >"$out/$tag.txt"
  printf '%-22s %s\n' "$tag" "$(grep '^all' "$out/$tag.txt" | sed 's/^all *//')"
done
for s in results/nvidia-h100-80gb-hbm3/final-4136874/suite.json.gz results/nvidia-h200/final-b8a3211/suite.json.gz; do
  tag=$(basename "$(dirname "$(dirname "$s")")")-$(basename "$(dirname "$s")")
  "$bin" predict "$s" --self >"$out/$tag.txt" 2>&1
  printf '%-22s %s\n' "${tag#nvidia-}" "$(grep '^model within' "$out/$tag.txt")"
done
# the final-c9f98b0 and 2026-11-26 morning suites with the calibrate profile measured in the same call (the issue's check)
for d in $f1 $f2 results/nvidia-h100-80gb-hbm3/s5-dbe10c0/launch results/nvidia-h200/s4-dbe10c0/launch \
         results/nvidia-h100-80gb-hbm3/s17-728f933/launch results/nvidia-h200/s14-d613076/launch $s24 $s25; do
  tag=$(basename "$(dirname "$(dirname "$d")")")-$(basename "$(dirname "$d")" | sed 's/^final-//')-suite
  "$bin" predict "$d/suite_profile.json.gz" --profile "$d/profile-calibrate.json" >"$out/$tag.txt" 2>&1
  printf '%-22s %s\n' "${tag#nvidia-}" "$(grep '^model within' "$out/$tag.txt")"
done
echo "tables in $out"
