#!/usr/bin/env bash
# One device call for the launch model's sets (issue 36; docs/MODEL.md 7.8): a fresh calibrate (timed), each
# set measured with explain --run (its prediction with that profile beside), the model's time for explain --n of
# a 1 GiB launch with its interval, and (while the call's time allows) the quick suite with that profile.
# Scoring (with this profile and with the built-in one) and the intervals' coverage are done offline from what
# it writes (scripts/launch_sealed_score.sh; COMMANDS.md of the results folder says how).
# usage: scripts/launch_sealed_session.sh BIN OUT [TAG=SET.tsv ...]
#   default sets: sealed36ao (tests/fixtures/sealed/sealed-36ao.tsv), dev36f (tests/fixtures/dev/dev-36f.tsv) and dev36e (tests/fixtures/dev/dev-36e.tsv)
#   QUICK_BUDGET_S: run the quick suite only if the call has used fewer seconds than this (default 170)
# Writes 8 files: env.txt calibrate.txt profile-calibrate.json run_cached.txt set_times.txt (with the model
# time of explain --n) runs.tar.gz (TAG_run/ of each set, calibrate.json, run_cached.json, made before the quick
# suite), quick.txt and quick.json.gz.
#   LIMIT_S: the call's time limit (default 280 s); the quick suite is cut 20 s before it
set -uo pipefail
bin=$(readlink -f "$1") out=$2
shift 2
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(sealed36ao=tests/fixtures/sealed/sealed-36ao.tsv dev36f=tests/fixtures/dev/dev-36f.tsv dev36e=tests/fixtures/dev/dev-36e.tsv)
cd "$(dirname "$0")/.."
mkdir -p "$out"
start=$(date +%s)
export XDG_CACHE_HOME=$out/cache   # calibrate's cache: this call's, not the machine's
{ nvidia-smi -L; echo; nvidia-smi; } >"$out/env.txt" 2>&1
t0=$(date +%s%N)
"$bin" calibrate -o "$out/profile-calibrate.json" --json "$out/calibrate.json" >"$out/calibrate.txt" 2>&1
echo "calibrate: exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms wall" | tee -a "$out/calibrate.txt"
# run with this unit's cached profile (calibrate stored it), then with an empty cache (the built-in one and its note)
"$bin" run copy.v1_b8 stride.b16_s008 rowcol.w4096_cols --json "$out/run_cached.json" >"$out/run_cached.txt" 2>&1
XDG_CACHE_HOME=$out/nocache "$bin" run copy.v1_b8 stride.b16_s008 rowcol.w4096_cols >>"$out/run_cached.txt" 2>&1
prof=$out/profile-calibrate.json
[ -s "$prof" ] || prof=   # calibrate failed: the run's own choice (named in each document)
keep=()
# each set, measured (no counters: the call's time), each kernel's prediction with this unit's profile
for s in "${sets[@]}"; do
  tag=${s%%=*} file=${s#*=}
  echo "== $tag ($file), from $(( $(date +%s) - start )) s"
  NO_COUNTERS=1 bash scripts/unseen_set.sh run "$bin" "$file" "$out/${tag}_run" $prof
  keep+=("${tag}_run")
done >"$out/set_times.txt" 2>&1
# explain --n of a 1 GiB launch (2^28 floats an array) with its interval: the model's own time, 5 times
pa=()
[ -n "$prof" ] && pa=(--profile "$prof")
for i in 1 2 3 4 5; do
  for e in 'gid' '(gid%64)*4194304 + gid/64'; do
    echo "explain --n 268435456 '$e'"
    "$bin" explain --n 268435456 "${pa[@]}" -- "$e" 2>&1 | grep -E 'model time|interval|weak'
  done
done >>"$out/set_times.txt"
for f in calibrate.json run_cached.json; do [ -f "$out/$f" ] && keep+=("$f"); done
tar czf "$out/runs.tar.gz" -C "$out" "${keep[@]}" && (cd "$out" && rm -rf "${keep[@]}")
rm -rf "$out/nocache"
# the quick suite with this unit's profile, in what is left of the call (LIMIT_S, default 280 s, less a margin)
used=$(( $(date +%s) - start )) left=$(( ${LIMIT_S:-280} - 20 ))
if [ "$used" -lt "${QUICK_BUDGET_S:-170}" ]; then
  t0=$(date +%s%N)
  timeout $(( left - used )) "$bin" run --quick "${pa[@]}" --json "$out/quick.json" >"$out/quick.txt" 2>&1
  echo "run --quick: exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms wall" >>"$out/quick.txt"
  [ -f "$out/quick.json" ] && gzip -f "$out/quick.json"
else
  echo "run --quick skipped: the call had used $used s" >"$out/quick.txt"
fi
rm -rf "$out/cache"
echo "session: $(( $(date +%s) - start )) s" >>"$out/set_times.txt"
