#!/usr/bin/env bash
# One device call for the launch model's sealed set (issue 36 item 7; docs/MODEL.md 7.6): a fresh calibrate
# (timed), the sealed set measured with explain --run (its prediction with that profile beside), and the
# model's time for explain --n of a 1 GiB launch with its interval. Scoring (with this profile and with the
# built-in one) and the intervals' coverage are done offline from what it writes (COMMANDS.md of the results
# folder says how).
# usage: scripts/launch_sealed_session.sh BIN OUT [SET]
set -uo pipefail
bin=$(readlink -f "$1") out=$2 set=${3:-tests/fixtures/dev/dev-36a.tsv}
cd "$(dirname "$0")/.."
mkdir -p "$out"
export XDG_CACHE_HOME=$out/cache   # calibrate's cache: this call's, not the machine's
{ nvidia-smi -L; echo; nvidia-smi; } >"$out/env.txt" 2>&1
t0=$(date +%s%N)
"$bin" calibrate -o "$out/profile-calibrate.json" --json "$out/calibrate.json" >"$out/calibrate.txt" 2>&1
echo "calibrate: exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms wall" | tee -a "$out/calibrate.txt"
# run with this unit's cached profile (calibrate stored it), then with an empty cache (the built-in one and its note)
"$bin" run copy.v1_b8 stride.b16_s008 rowcol.w4096_cols --json "$out/run_cached.json" >"$out/run_cached.txt" 2>&1
XDG_CACHE_HOME=$out/nocache "$bin" run copy.v1_b8 stride.b16_s008 rowcol.w4096_cols >"$out/run_builtin.txt" 2>&1
prof=$out/profile-calibrate.json
[ -s "$prof" ] || prof=   # calibrate failed: the run's own choice (named in each document)
# the sealed set, measured (no counters: the call's time), each kernel's prediction with this unit's profile
NO_COUNTERS=1 bash scripts/unseen_set.sh run "$bin" "$set" "$out/sealed_run" $prof >"$out/sealed_times.txt" 2>&1
# explain --n of a 1 GiB launch (2^28 floats an array) with its interval: the model's own time, 5 times
pa=()
[ -n "$prof" ] && pa=(--profile "$prof")
for i in 1 2 3 4 5; do
  for e in 'gid' '(gid%64)*4194304 + gid/64'; do
    echo "explain --n 268435456 '$e'"
    "$bin" explain --n 268435456 "${pa[@]}" -- "$e" 2>&1 | grep -E 'model time|interval|weak'
  done
done >"$out/explain_time.txt"
cat "$out/run_builtin.txt" >>"$out/run_cached.txt" && rm -f "$out/run_builtin.txt"
keep=(sealed_run)
for f in calibrate.json run_cached.json; do [ -f "$out/$f" ] && keep+=("$f"); done
tar czf "$out/sealed_runs.tar.gz" -C "$out" "${keep[@]}" && (cd "$out" && rm -rf "${keep[@]}")
rm -rf "$out/cache" "$out/nocache"
