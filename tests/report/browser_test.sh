#!/usr/bin/env bash
# Browser test of `gpumem report`: headless Chromium (a 1280 px window)
# opens reports built from the fixtures (one per family), from the committed
# H100 suite and from two runs overlaid. From the page's self-check (body
# data-* attributes written by report.js, see selfCheck there) it checks that
# every chart drew (no empty canvas), every dataset has a label without
# "undefined"/"NaN", no dataset mixes units or sits on another unit's axis,
# every family with two or more measured cases has a chart, the suite's
# roofline has its ceilings and placed cases, the page is no wider than the
# window (no horizontal scroll); and that the console shows no error and the
# page requests nothing outside the file. Planted pages (the suite page with
# a fault injected) prove that each check fails when it should.
# usage: browser_test.sh GPUMEM [SHOT_DIR]   (screenshots go to SHOT_DIR)
# Installs chromium with apt when it can; skips (exit 77) only if it cannot.
set -uo pipefail
gm=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shots=${2:-}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1
  browser=$(command -v chromium || true)
fi
if [ -z "$browser" ]; then
  echo "SKIP: chromium cannot be installed here; the browser test did not run"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --hide-scrollbars
       --user-data-dir="$work/profile" --virtual-time-budget=10000
       --disable-background-networking --disable-component-update --disable-sync --disable-default-apps
       --no-default-browser-check --metrics-recording-only)

attr() { # dom-file name: the value of the body's data-NAME attribute
  grep -o "<body[^>]*>" "$1" | head -1 | grep -o " data-$2=\"[^\"]*\"" | sed 's/^[^"]*"//; s/"$//'
}

check() { # name html [screenshot height] [roofline: 1 = must have one] [1 = a page with no chart is right]
  local name=$1 html=$2 dom="$work/$1.dom" log="$work/$1.log" net="$work/$1.net"
  timeout 120 "$browser" "${flags[@]}" --window-size=1280,900 --enable-logging=stderr --v=0 --log-net-log="$net" \
    --dump-dom "file://$html" >"$dom" 2>"$log"
  local charts empty v
  charts=$(attr "$dom" charts)
  empty=$(attr "$dom" empty-charts)
  if [ -z "$charts" ] || { [ "$charts" -eq 0 ] && [ "${5:-0}" != 1 ]; }; then
    echo "FAIL $name: no chart drew (data-charts='$charts')"; fail=1
  elif [ "$empty" != "0" ]; then
    echo "FAIL $name: $empty empty chart canvas(es) of $charts"; fail=1
  fi
  v=$(attr "$dom" bad-labels)
  [ "${v:-x}" = 0 ] || { echo "FAIL $name: $v dataset label(s) empty or with undefined/NaN: $(attr "$dom" bad-label-list)"; fail=1; }
  v=$(attr "$dom" mixed-units)
  [ "${v:-x}" = 0 ] || { echo "FAIL $name: $v dataset(s) mix units: $(attr "$dom" mixed-unit-list)"; fail=1; }
  v=$(attr "$dom" families-without-chart)
  [ -z "$v" ] || { echo "FAIL $name: families with two or more measured cases and no chart: $v"; fail=1; }
  v=$(attr "$dom" page-width)
  if [ -z "$v" ] || [ "$v" -gt 1280 ]; then echo "FAIL $name: the page is ${v:-?} px wide in a 1280 px window (horizontal scroll)"; fail=1; fi
  if [ "${4:-0}" = 1 ]; then
    local ceil pts
    ceil=$(attr "$dom" roofline-ceilings); pts=$(attr "$dom" roofline-points)
    if [ "${ceil:--1}" -lt 2 ] || [ "${pts:-0}" -lt 1 ]; then
      echo "FAIL $name: the roofline chart is missing or lacks ceilings / placed cases (ceilings '$ceil', points '$pts')"; fail=1
    fi
  fi
  if grep -E 'CONSOLE|Uncaught' "$log" | grep -Eiv 'level=0|"\[?info' | grep -Ei 'error|uncaught' >/dev/null; then
    echo "FAIL $name: console error:"; grep -E 'CONSOLE|Uncaught' "$log" | head -5; fail=1
  fi
  # every URL a request was made for (net-log "url" params), minus the file itself
  local ext
  ext=$(grep -oE '"url":"[a-z]+://[^"]*"' "$net" 2>/dev/null | grep -v '"url":"file://' |
        grep -Ev '://(clients2\.google\.com/time/|update\.googleapis\.com/service/update2|accounts\.google\.com/ListAccounts)' |
        sort -u | head -5)  # the browser's own clock/updater/account pings, not the page's
  if [ -n "$ext" ]; then
    echo "FAIL $name: the page requested outside the file: $ext"; fail=1
  fi
  if grep -Eo '(src|href)="(https?:)?//[^"]*"' "$html" | head -1 | grep -q .; then
    echo "FAIL $name: the HTML links an external resource"; fail=1
  fi
  [ "$fail" -eq 0 ] && echo "ok   $name: $charts charts drew, console clean, nothing requested outside the file"
  if [ -n "$shots" ]; then
    timeout 120 "$browser" "${flags[@]}" --window-size=1280,${3:-9000} --screenshot="$shots/$name.png" \
      "file://$html" >/dev/null 2>&1 || { echo "FAIL $name: screenshot"; fail=1; }
  fi
}

[ -n "$shots" ] && mkdir -p "$shots"
# the check itself must see a page that reaches out: a planted remote image is caught
printf '<html><body data-charts="1" data-empty-charts="0"><img src="http://gpumem-test.invalid/x.png"></body></html>' >"$work/planted.html"
saved=$fail
planted=$(shots="" check planted "$work/planted.html" 2>&1)
if grep -q 'requested outside' <<<"$planted"; then fail=$saved
else echo "FAIL: the network check does not see a planted remote request"; fail=1; fi
# and a page whose script fails is caught by the console check
printf '<html><body data-charts="1" data-empty-charts="0"><script>console.error("planted error"); undefined_fn();</script></body></html>' >"$work/planted_err.html"
saved=$fail
planted=$(shots="" check planted_err "$work/planted_err.html" 2>&1)
if grep -q 'console error' <<<"$planted"; then fail=$saved
else echo "FAIL: the console check does not see a planted error"; fail=1; fi
for f in "$here"/fixtures/*.json; do
  n=$(basename "$f" .json)
  "$gm" report "$f" -o "$work/$n.html" >/dev/null || { echo "FAIL $n: gpumem report"; fail=1; continue; }
  check "$n" "$work/$n.html" 3000
done
suite="$root/tests/fixtures/launch/h100-suite.json.gz"
if [ -f "$suite" ]; then
  "$gm" report "$suite" -o "$work/suite.html" >/dev/null && check suite "$work/suite.html" 16000 1 || fail=1
  # planted faults: the suite page with one fault injected after the report's script; each check must see its fault
  # the quick suite (few cases a family) and a two-GPU fleet document, where committed
  for extra in "$root/tests/fixtures/runs/h100/quick.json" "$root/tests/fixtures/runs/h200x2-all-devices.json.gz"; do
    [ -f "$extra" ] || continue
    n=$(basename "$extra" | sed 's/\..*//')
    "$gm" report "$extra" -o "$work/$n.html" >/dev/null && check "$n" "$work/$n.html" 9000 || fail=1
  done
  plant() { # name expected-failure-text js
    sed "s#</body></html>#<script>$3; gmSelfCheck();</script></body></html>#" "$work/suite.html" >"$work/planted_$1.html"
    local saved=$fail out
    out=$(shots="" check "planted_$1" "$work/planted_$1.html" 0 1 2>&1)
    if grep -q -- "$2" <<<"$out"; then fail=$saved
    else echo "FAIL: the check does not see a planted fault ($1); it said: $out"; fail=1; fi
  }
  plant label 'undefined/NaN' "gmCharts[0].chart.data.datasets.push({label: 'op=undefined', data: [], gmUnit: gmCharts[0].unit})"
  plant unit 'mix units' "gmCharts[0].chart.data.datasets.push({label: 'latency', data: [], gmUnit: 'cycles'})"
  plant family 'no chart: copy' "gmCharts.filter(function (m) { return m.family === 'copy'; }).forEach(function (m) { m.chart.canvas.remove(); })"
  plant roofline 'roofline chart is missing' "gmCharts.filter(function (m) { return m.kind === 'roofline'; }).forEach(function (m) { m.chart.canvas.remove(); })"
  plant scroll 'horizontal scroll' "document.body.appendChild(Object.assign(document.createElement('div'), { style: 'width: 3000px; height: 2px' }))"
fi
# bad input: each page passes the checks above (no broken chart) and says in words what it lacks
badin() { # name expected-text allow-no-chart run.json...
  local name=$1 want=$2 none=$3; shift 3
  "$gm" report "$@" -o "$work/$name.html" >/dev/null 2>&1 || { echo "FAIL $name: gpumem report"; fail=1; return; }
  shots="" check "$name" "$work/$name.html" 0 0 "$none"
  grep -q -- "$want" "$work/$name.dom" || { echo "FAIL $name: the page does not say '$want'"; fail=1; }
}
if command -v python3 >/dev/null; then
  python3 - "$here/fixtures/copy.json" "$work" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for i, c in enumerate(d["cases"]):   # some failed, some skipped: the rest still draw
    if i < 2: c["status"], c["message"] = "failed", "planted: 3 of 1048576 elements differ"
    elif i < 4: c["status"], c["message"] = "skipped", "planted: needs a second GPU"
json.dump(d, open(sys.argv[2] + "/some_bad.json", "w"))
for c in d["cases"]: c["status"], c["message"] = "skipped", "planted: needs a second GPU"
json.dump(d, open(sys.argv[2] + "/all_bad.json", "w"))
PY
  badin bad_some "without a number" 0 "$work/some_bad.json"
  badin bad_all "No case of this family measured" 1 "$work/all_bad.json"
fi
badin bad_nobw "no bandwidth (GB/s) case" 0 "$here/fixtures/alloc.json"
if [ -f "$suite" ]; then
  badin overlay "different schema versions" 0 "$suite" "$here/fixtures/copy.json"   # two runs overlaid, schema 2 and 1
  h200="$root/tests/fixtures/launch/h200-suite.json.gz"
  [ -f "$h200" ] && badin bad_gpus "different devices" 0 "$suite" "$h200"
  # compare -o: the comparison page of the two GPUs passes the same checks and colours its verdicts
  if [ -f "$h200" ]; then
    "$gm" compare "$suite" "$h200" -o "$work/compare.html" >/dev/null 2>&1
    [ -s "$work/compare.html" ] && check compare "$work/compare.html" 6000 1 || { echo "FAIL compare: no page"; fail=1; }
    grep -q 'class="v-' "$work/compare.dom" || { echo "FAIL compare: no coloured comparison rows"; fail=1; }
  fi
fi
exit $fail
