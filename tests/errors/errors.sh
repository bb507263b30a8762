#!/usr/bin/env bash
# errors.sh GPUMEM - every row of tests/errors/cases.tsv (docs/ERRORS.md as a test): the command's exit code
# and its stderr against the row's. Rows marked gpu run only where a GPU answers `gpumem info` (the GPU test
# stage); rows marked nogpu only where none does. Also checks that docs/ERRORS.md lists exactly these rows
# with the same exit codes. Exit 0 when every row that ran passed. ERRORS_SHOW=FILE: each row's id, exit code
# and matching stderr line appended to FILE (to write the table).
set -uo pipefail
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
D=$(mktemp -d)
T=$(mktemp -d)
trap 'rm -rf "$D" "$T"' EXIT
Q=$root/tests/fixtures/runs/h100/quick.json
P=$root/data/profiles/nvidia-h100-80gb-hbm3.json
CAL=$root/tests/fixtures/runs/h100/calibrate.json
gm() { "$bin" "$@"; }

# ---- the bad inputs (deterministic: cut from committed files) ----
: >"$D/empty.json"
head -c 300 "$Q" >"$D/trunc.json"
gzip -n -c <"$Q" | tail -c 2000 >"$D/binary.json"         # compressed bytes without their gzip header
gzip -n -c <"$Q" | head -c 5000 >"$D/cut.json.gz"          # a gzip stream cut short
gzip -n -c <"$Q" >"$D/flipped.json.gz"                     # 64 bytes in the middle changed (+1)
size=$(stat -c %s "$D/flipped.json.gz")
head -c $((size / 2 + 64)) "$D/flipped.json.gz" | tail -c 64 | tr '\000-\377' '\001-\377\000' |
  dd of="$D/flipped.json.gz" bs=1 seek=$((size / 2)) conv=notrunc status=none
printf '\3757zXZ\000\000\004' >"$D/doc.trace.json.xz"                # xz's magic bytes (a committed trace is .xz)
echo '{"schema":"other","cases":[]}' >"$D/schema.json"
echo '{"schema":"gpumem-run","schema_version":99,"cases":[]}' >"$D/v99.json"
echo '{"schema":"gpumem-run","schema_version":2,"cases":[{"family":"copy"}]}' >"$D/noname.json"
truncate -s 1G "$D/huge.json"                               # 1 GiB (sparse: no disk, no memory)
mkfifo "$D/fifo.json"                                       # an input nobody writes: the reader waits
zcat "$root/tests/fixtures/runs/h200-burn.json.gz" |          # a check document whose burn lost a power sample
  python3 -c 'import json,sys; d=json.load(sys.stdin); t=d["gpus"][0]["burn"]["telemetry"]; t["power_w"].pop(); json.dump(d,sys.stdout)' >"$D/burn_uneven.json"
prof() { sed -E "$2" "$P" >"$D/$1.json"; }
prof prof_missing '/"read_gbs"/d'
prof prof_negative 's/"write_gbs": [^,]*/"write_gbs": -5/'
prof prof_nan 's/"l1_gbs": [^,]*/"l1_gbs": NaN/'
prof prof_absurd 's/"read_gbs": [^,]*/"read_gbs": 1e12/'
prof prof_huge_wave 's/"wave_ns": [^,]*/"wave_ns": 1e300/'
prof prof_smcount 's/"sm_count": [^,]*/"sm_count": -3/'
prof prof_atom 's/"dram_atom_bytes": [^,]*/"dram_atom_bytes": 48/'
prof prof_schema 's/"schema": "gpumem-profile"/"schema": "gpumem-run"/'
prof prof_version 's/"schema_version": [^,]*/"schema_version": 9/'
prof prof_other 's/"device": "[^"]*"/"device": "NVIDIA A100-SXM4-80GB"/'
# the profile cache (src/io/profile_cache.c): never the user's; a calibration run with its unit's UUID, and
# caches holding that unit's file measured on another unit, of the old schema, and corrupt
export XDG_CACHE_HOME=$D/cache
U=GPU-6b03b5eb-7b6f-d07c-5b40-2dc3bfbe1fa8
sed "s/^ \"device\": {/ \"device\": { \"uuid\": \"$U\",/" "$CAL" >"$D/cal_uuid.json"
for c in c_other c_stale c_corrupt; do mkdir -p "$D/$c/gpumem/profiles"; done
sed -E 's/"schema_version": 1/"schema_version": 2, "uuid": "GPU-00000000-0000-0000-0000-000000000000"/' "$P" \
  >"$D/c_other/gpumem/profiles/$U.json"
cp "$P" "$D/c_stale/gpumem/profiles/$U.json"
head -c 200 "$P" >"$D/c_corrupt/gpumem/profiles/$U.json"
sed '/"l2_bytes"/d' "$root/data/datasheets/nvidia-h200.json" >"$D/ds_missing.json"   # predict --datasheet

# trace: the collector's stand-in library (tests/trace/fake_inject.c) hands over a part in which the Compute
# Sanitizer API refused, as it does for an old driver or where profiling is not permitted
FAKE=$(dirname "$bin")/tests/libgmt_fake_inject.so
echo '{"schema": "gpumem-trace-part/1", "mode": "trace", "complete": true, "launches_seen": 0, "launches_matched": 0,
 "notes": ["sanitizer: subscribe failed (SANITIZER_ERROR_NOT_SUPPORTED)"], "launches": []}' >"$D/refused.json"
sed 's/NOT_SUPPORTED/NOT_INITIALIZED/' "$D/refused.json" >"$D/old_driver.json"   # the API's answer to an old driver

has_gpu=0
"$bin" info >/dev/null 2>&1 && has_gpu=1
# trace's GPU rows run real programs: tests/errors/trace_ends.cu (with and without -lineinfo) and two of
# tests/trace/, built here with nvcc
if [ $has_gpu = 1 ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc" -O3 -arch=sm_90 -lineinfo "$here/trace_ends.cu" -o "$D/trace_ends" &
  "$nvcc" -O3 -arch=sm_90 "$here/trace_ends.cu" -o "$D/trace_ends_nolines" &
  for p in graph_streams many_launches; do "$nvcc" -O3 -arch=sm_90 -lineinfo "$root/tests/trace/$p.cu" -o "$D/$p" & done
  wait
fi
pass=0 fail=0 skip=0
while IFS=$'\t' read -r id where want re cmd; do
  case $id in ''|'#'*) continue ;; esac
  sig=${where#*+}; [ "$sig" = "$where" ] && sig=
  where=${where%%+*}
  if { [ "$where" = gpu ] && [ $has_gpu = 0 ]; } || { [ "$where" = nogpu ] && [ $has_gpu = 1 ]; }; then
    skip=$((skip + 1)); continue
  fi
  if [ -n "$sig" ]; then
    ( gm() { exec "$bin" "$@"; }; eval "$cmd" ) >"$T/out" 2>"$T/err" &   # the subshell becomes gpumem
    pid=$!
    sleep "${sig#*@}"
    kill -s "${sig%@*}" "$pid" 2>/dev/null
    wait "$pid"; rc=$?
  else
    ( eval "$cmd" ) >"$T/out" 2>"$T/err"; rc=$?
  fi
  [ -n "${ERRORS_SHOW:-}" ] && printf '%s\t%s\t%s\n' "$id" "$rc" "$(grep -E -m1 -- "$re" "$T/err")" >>"$ERRORS_SHOW"
  if [ "$rc" = "$want" ] && { grep -qE -- "$re" "$T/err" || { [ "$re" = "(nothing)" ] && [ ! -s "$T/err" ]; }; }; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $id: $cmd -> exit $rc (want $want), stderr:"; head -3 "$T/err"; echo "  (want /$re/)"
  fi
done <"$here/cases.tsv"
# docs/ERRORS.md lists exactly these rows, with these exit codes
awk -F'\t' '/^[A-Z][0-9]/ { print $1, $3 }' "$here/cases.tsv" | sort >"$T/tsv"
awk -F'|' '/^\| [A-Z][0-9][0-9] \|/ { gsub(/ /, "", $2); gsub(/ /, "", $5); print $2, $5 }' "$root/docs/ERRORS.md" |
  sort >"$T/doc"
if ! diff "$T/tsv" "$T/doc" >"$T/diff"; then
  echo "FAIL: docs/ERRORS.md and tests/errors/cases.tsv differ (id, exit code; < only in the TSV, > only in the doc):"
  cat "$T/diff"; fail=$((fail + 1))
fi
echo "errors table: $pass passed, $fail failed, $skip skipped ($([ $has_gpu = 1 ] && echo GPU || echo no GPU) here)"
[ $fail = 0 ]
