#!/usr/bin/env bash
# run --all-devices / --concurrent / --mpi / fleet from the shell: bad input
# gives one line and a documented exit code; a plain run is unaffected.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {  # expect CODE PATTERN -- ARGS...
  local code=$1 pat=$2; shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq "$code" ] || { cat "$tmp/err"; fail "gpumem $* exit $rc, expected $code"; }
  [ -z "$pat" ] || grep -q -- "$pat" "$tmp/err" || { cat "$tmp/err"; fail "gpumem $*: no '$pat'"; }
}
expect 2 "--barrier needs --mpi" -- run --barrier copy
expect 2 "--csv is for one device" -- run --all-devices --csv x.csv copy
expect 2 "--timeout" -- run --all-devices --timeout 0 copy
expect 2 "no benchmark matches 'nosuch'" -- run --all-devices nosuch
expect 2 "fleet needs a JSON file" -- fleet
expect 2 "unknown option '--bogus'" -- fleet --bogus x.json
echo '{"schema": "other"}' >"$tmp/bad.json"
expect 2 "not a gpumem run document" -- fleet "$tmp/bad.json"
"$bin" run --mpi nosuch >"$tmp/mpi.txt" 2>&1   # to a file: under pipefail a pipe into grep would take gpumem's exit 2
if grep -q "built without MPI" "$tmp/mpi.txt"; then
  # a build without MPI: one clear line, exit 2, before anything else
  expect 2 "built without MPI support" -- run --mpi copy
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "--mpi without MPI: more than one line"
fi
if ! "$bin" info >/dev/null 2>&1; then
  expect 3 "" -- run --all-devices copy   # no GPU: exit 3 as a plain run
fi
echo "fleet cli: ok"
