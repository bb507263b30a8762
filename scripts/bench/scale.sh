#!/usr/bin/env bash
# Scale benchmark (issue 22 item 7): `gpumem fleet` over 4096 generated GPU documents (the committed H100 quick
# run, 63 cases, as each GPU's; 369 MB), target 10 s; `compare` and `report` of two runs of 10,000 cases each,
# target 30 s; 2 GiB of memory for all. A benchmark, not a test: it fails on a wrong exit code, a wrong answer
# or memory over 2 GiB; a time over its target is printed as "over target", never failed (a busy machine is
# not a slow gpumem). Run it alone on an idle machine for figures worth committing. CPU time (user + sys) is
# printed beside: fleet reads its documents on every core (gm_multi_read_each), its CPU time is their sum.
# usage: scripts/bench/scale.sh GPUMEM [SOURCE_DIR]
set -uo pipefail
bin=$1
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
tpl=$src/tests/fixtures/runs/h100/quick.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "skipped: /usr/bin/time is not installed"; exit 77; }
[ -f "$tpl" ] || fail "no template $tpl"
python3 "$src/scripts/bench/gen_runs.py" fleet "$tpl" "$tmp/fleet" 4096 || fail "generating the fleet"
python3 "$src/scripts/bench/gen_runs.py" pair "$tpl" "$tmp/pair" 10000 || fail "generating the pair"
# measure EXPECTED_EXIT TARGET_S NAME -- ARGS...: wall seconds against the target, peak RSS within 2 GiB
measure() {
  local want=$1 lim=$2 name=$3; shift 4
  /usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ $rc -eq "$want" ] || { tail -5 "$tmp/err"; fail "$name: exit $rc, expected $want"; }
  read -r u s e kb < <(tail -1 "$tmp/time")
  local cpu mib
  cpu=$(python3 -c "print(round($u + $s, 2))") mib=$((kb / 1024))
  local over=""
  python3 -c "import sys; sys.exit(0 if $e <= $lim else 1)" || over=" (over target)"
  echo "$name: ${e} s wall (${cpu} s CPU), peak RSS ${mib} MiB (targets: ${lim} s wall, 2048 MiB)$over"
  [ "$mib" -le 2048 ] || fail "$name: peak RSS ${mib} MiB, over 2 GiB"
}
measure 1 10 "fleet of 4096 documents" -- fleet "$tmp"/fleet/gpu_*.json
grep -q "^fleet: 4096 device(s)" "$tmp/out" || fail "fleet: not 4096 devices"
grep -q "outlier(s)" "$tmp/out" || fail "fleet: the GPUs 20 % slower were not flagged"
measure 0 30 "compare 10000 vs 10000 cases" -- compare "$tmp/pair/a.json" "$tmp/pair/b.json"
measure 0 30 "compare --json 10000 vs 10000 cases" -- compare "$tmp/pair/a.json" "$tmp/pair/b.json" --json
measure 0 30 "report of 10000 cases (HTML)" -- report "$tmp/pair/a.json" -o "$tmp/r.html"
measure 0 30 "report of two runs of 10000 cases (HTML)" -- report "$tmp/pair/a.json" "$tmp/pair/b.json" -o "$tmp/r2.html"
echo "scale: done"
