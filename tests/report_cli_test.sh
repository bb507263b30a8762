#!/usr/bin/env bash
# report_cli_test.sh GPUMEM - `gpumem report` / `gpumem compare` on bad and
# good input, without a GPU: exit codes, error lines naming file and field,
# the planted-regression exit of compare, and a 100 MB run file read in
# bounded time and memory.
set -uo pipefail
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
fx=$here/tests/fixtures/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {   # expect RC PATTERN -- command...
  local want=$1 pat=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$want" ] || ! grep -q -- "$pat" "$tmp/out" "$tmp/err"; then
    echo "FAIL: $* -> exit $rc (want $want), output:"; cat "$tmp/out" "$tmp/err" | head -5; fail=1
  fi
}
echo 'not json' >"$tmp/bad.json"
echo '{"schema":"gpumem-run","schema_version":99,"cases":[]}' >"$tmp/v99.json"
echo '{"schema":"gpumem-run","schema_version":2,"cases":[{"family":"copy"}]}' >"$tmp/noname.json"
echo '{"schema":"gpumem-run","schema_version":2,"cases":[{"name":"copy.x","family":"copy"}]}' >"$tmp/novalue.json"
expect 2 "bad.json" -- "$bin" report "$tmp/bad.json" -o "$tmp/x.html"
expect 2 "unknown schema version 99" -- "$bin" report "$tmp/v99.json" -o "$tmp/x.html"
expect 2 "field 'name'" -- "$bin" report "$tmp/noname.json" -o "$tmp/x.html"
expect 2 "novalue.json.*field 'value'" -- "$bin" report "$tmp/novalue.json" -o "$tmp/x.html"
expect 2 "bad.json" -- "$bin" compare "$tmp/bad.json" "$fx/copy.json"
[ -e "$tmp/x.html" ] && { echo "FAIL: a report was left behind after bad input"; fail=1; }
# an unwritable output is refused before any input is read (the input does not even exist)
expect 5 "" -- "$bin" report "$tmp/missing.json" -o /nonexistent-dir/r.html
# the report: a path on stdout, one file, no network reference outside the page
expect 0 "r.html" -- "$bin" report "$fx/copy.json" "$fx/stride.json" -o "$tmp/r.html"
grep -q "Content-Security-Policy" "$tmp/r.html" || { echo "FAIL: no CSP in the page"; fail=1; }
# compare: the same run passes; a planted 10 % regression fails (exit 1) and is named
expect 0 "0 worse" -- "$bin" compare "$fx/gemm.json" "$fx/gemm.json"
# every gemm headline (median, min, max of "value") 10 % lower
awk '/"value": \{/ { v = 1 } v && /"(median|min|max)":/ { match($0, /-?[0-9.e+]+,?$/); n = substr($0, RSTART);
     c = (n ~ /,$/) ? "," : ""; sub(/,$/, "", n); $0 = substr($0, 1, RSTART - 1) (n * 0.9) c }
     v && /\}/ { v = 0 } { print }' "$fx/gemm.json" >"$tmp/slow.json"
if cmp -s "$fx/gemm.json" "$tmp/slow.json"; then echo "FAIL: could not plant the regression"; fail=1; fi
expect 1 "WORSE" -- "$bin" compare "$fx/gemm.json" "$tmp/slow.json"
expect 1 '"worse": 17' -- "$bin" compare "$fx/gemm.json" "$tmp/slow.json" --json
expect 0 "better" -- "$bin" compare "$tmp/slow.json" "$fx/gemm.json"
expect 0 "only in B" -- "$bin" compare "$fx/copy.json" "$fx/stride.json" --threshold 5
expect 2 "invalid threshold" -- "$bin" compare "$fx/copy.json" "$fx/copy.json" --threshold x
# a 100 MB run file: read in bounded time (60 s) and memory (2 GiB)
awk -v n=25000 'BEGIN {
  printf "{\"schema\":\"gpumem-run\",\"schema_version\":2,\"cases\":[";
  s = "0.1234567891"; for (i = 1; i < 300; i++) s = s ",0.1234567891";
  for (i = 0; i < n; i++) {
    if (i) printf ",";
    printf "{\"name\":\"copy.c%d\",\"family\":\"copy\",\"unit\":\"GB/s\",\"status\":\"ok\",\"samples_ms\":[%s],", i, s;
    printf "\"value\":{\"unit\":\"GB/s\",\"median\":%d,\"min\":1,\"max\":2}}", 1000 + i % 7;
  }
  printf "]}\n" }' >"$tmp/big.json"
size=$(stat -c %s "$tmp/big.json")
start=$(date +%s)
( ulimit -v 2097152; timeout 60 "$bin" compare "$tmp/big.json" "$tmp/big.json" >/dev/null 2>"$tmp/big.err" )
rc=$?
echo "100 MB test: $size bytes, compare exit $rc in $(( $(date +%s) - start )) s"
[ "$rc" = 0 ] || { echo "FAIL: the big file was not read within 60 s and 2 GiB"; head -3 "$tmp/big.err"; fail=1; }
[ "$fail" = 0 ] && echo "report/compare CLI test: ok"
exit "$fail"
