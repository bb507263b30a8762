#!/usr/bin/env bash
# cli_test.sh GPUMEM - `gpumem report` / `gpumem compare` on bad and good
# input, without a GPU: exit codes, error lines naming file and field, an
# unwritable output refused first, the planted-regression exit of compare
# (the 100 MiB file is test_big_file).
set -uo pipefail
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
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
# compare -o: the page is written beside the text and the exit code is the same; an unwritable page is exit 5 first
expect 1 "WORSE" -- "$bin" compare "$fx/gemm.json" "$tmp/slow.json" -o "$tmp/diff.html"
grep -q '"comparison":{' "$tmp/diff.html" && grep -q '"verdict":"WORSE"' "$tmp/diff.html" ||
  { echo "FAIL: compare -o wrote no comparison with the planted regression"; fail=1; }
expect 5 "" -- "$bin" compare "$tmp/missing.json" "$fx/gemm.json" -o /nonexistent-dir/diff.html
expect 0 "only in B" -- "$bin" compare "$fx/copy.json" "$fx/stride.json" --threshold 5
expect 2 "invalid threshold" -- "$bin" compare "$fx/copy.json" "$fx/copy.json" --threshold x
# info --from --derive: a saved run's spec sheet as this build derives it from the cases
suite=$here/../../tests/fixtures/launch/h100-suite.json.gz
expect 0 "L1 .*capacity per SM" -- "$bin" info --from "$suite" --derive
expect 2 "needs --from" -- "$bin" info --derive
expect 0 "capacity per SM" -- "$bin" report "$suite" --derive
# a run with counters read back: its roofline places cases by L2 bytes too
expect 0 "cnt.html" -- "$bin" report "$here/../fixtures/runs/h100/counters.json.gz" -o "$tmp/cnt.html"
grep -q '"ai_l2":' "$tmp/cnt.html" || { echo "FAIL: no L2 intensity in the page of a run with counters"; fail=1; }
# an output path that is no regular file is written in place, never replaced by a rename
mkfifo "$tmp/fifo" && { cat "$tmp/fifo" >/dev/null & expect 0 "fifo" -- "$bin" report "$fx/copy.json" -o "$tmp/fifo"; wait; }
[ -p "$tmp/fifo" ] || { echo "FAIL: the FIFO output was replaced"; fail=1; }
if [ -c /dev/full ]; then
  expect 5 "No space left" -- "$bin" report "$fx/copy.json" -o /dev/full
  [ -c /dev/full ] || { echo "FAIL: /dev/full was replaced by a file"; fail=1; }
fi
# an input that is no run document is bad input (exit 2) for every command that reads one
expect 2 "bad.json" -- "$bin" predict "$tmp/bad.json"
expect 2 "bad.json" -- "$bin" calibrate --from "$tmp/bad.json"
[ "$fail" = 0 ] && echo "report/compare CLI test: ok"
exit "$fail"
