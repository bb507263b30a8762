#!/usr/bin/env bash
# burn_html_test.sh GPUMEM - a saved burn judged again and drawn, no GPU (docs/CHECK.md "Burn"):
#  - the committed 10 s burn of an H200 (tests/fixtures/runs/h200-burn.json.gz, a copy of
#    results/nvidia-h200/check-27b5f05/burn.json.gz) passes again with `check --from`, and --html draws its
#    telemetry: four panels of polylines, the memory test's phases shaded, no reason marked;
#  - the same burn with a planted clock drop (the SM clock 25 % lower in the second half) warns GM-C301 (exit 8),
#    with a hardware-slowdown reason in a few samples fails GM-C212 (exit 9) and marks them in red, with a
#    validation error fails GM-C302 naming the error;
#  - uneven telemetry columns: exit 2 naming the column; an unwritable --html path: exit 5 before any work.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
BURN=tests/fixtures/runs/h200-burn.json.gz
has() { # has FILE PATTERN what
  if grep -q -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in $1"; fi
}
plant() { # plant OUT KIND: a changed copy of the burn
  python3 - "$BURN" "$1" "$2" <<'PY'
import gzip, json, sys
src, out, kind = sys.argv[1:]
d = json.load(gzip.open(src))
b = d["gpus"][0]["burn"]
t = b["telemetry"]
n = len(t["t_s"])
if kind == "drop":
    for i in range(n // 2, n):
        t["sm_mhz"][i] *= 0.75
elif kind == "hw":
    for i in range(10, 14):
        t["reasons"][i] = 0x8
elif kind == "valid":
    b["validation_errors"] = 1
    b["first_error"] = "memtest.moving_inversions: 3 words wrong in the timed passes"
elif kind == "uneven":
    t["power_w"] = t["power_w"][:-1]
json.dump(d, open(out, "w"))
PY
}

want_rc 0 "the committed burn passes again" -- "$bin" check --from "$BURN" --html "$T/pass.html" --json "$T/pass.json"
has "$T/out" "^burn: .* 81 samples: pass" "its text names the 81 samples and pass"
[ "$(grep -o '<polyline' "$T/pass.html" | wc -l)" = 4 ] && ok "four series drawn" || bad "polylines: $(grep -o '<polyline' "$T/pass.html" | wc -l), want 4"
has "$T/pass.html" 'fill="#e8f0fb"' "the memory test's phases shaded"
grep -q 'stroke="#c33" stroke-opacity' "$T/pass.html" && bad "a reason marked in a clean burn" || ok "no reason marked"
has "$T/pass.html" '<section id="check">' "the check section is on the report page"
python3 -c "
import json, sys; b = json.load(open('$T/pass.json'))['gpus'][0]['burn']
sys.exit(0 if len(b['telemetry']['t_s']) == 81 and b['verdict'] == 'pass' else 1)" && ok "its JSON keeps the 81 samples" ||
  bad "pass.json's burn"

plant "$T/drop.json" drop
want_rc 8 "a 25 % clock drop in the second half warns" -- "$bin" check --from "$T/drop.json" --html "$T/drop.html"
has "$T/out" "GM-C301" "the drop is GM-C301"
plant "$T/hw.json" hw
want_rc 9 "a hardware slowdown reason fails" -- "$bin" check --from "$T/hw.json" --html "$T/hw.html"
has "$T/out" "GM-C212" "the slowdown is GM-C212"
[ "$(grep -o 'stroke="#c33" stroke-opacity' "$T/hw.html" | wc -l)" = 4 ] && ok "its four samples marked in red" ||
  bad "marked: $(grep -o 'stroke="#c33" stroke-opacity' "$T/hw.html" | wc -l), want 4"
plant "$T/valid.json" valid
want_rc 9 "a validation error under load fails" -- "$bin" check --from "$T/valid.json" --json "$T/valid_check.json"
has "$T/out" "GM-C302" "it is GM-C302"
has "$T/out" "3 words wrong" "naming the error"
has "$T/valid_check.json" '"first_error"' "the JSON keeps first_error"
plant "$T/uneven.json" uneven
want_rc 2 "uneven telemetry columns are refused" -- "$bin" check --from "$T/uneven.json"
has "$T/err" "burn.telemetry.power_w" "naming the column"
want_rc 5 "an unwritable --html path" -- "$bin" check --from "$BURN" --html /nonexistent/dir/x.html

echo "burn_html_test: $fail failure(s)"
[ "$fail" = 0 ]
