#!/usr/bin/env bash
# report_test.sh GPUMEM [SHOTS_DIR] - the HTML report in a real browser.
#
# Builds a report from the per-family fixtures (tests/fixtures/report, cut
# from measured H100 runs), opens it in headless Chromium and checks that
#   - every chart drew (the page counts charts and blank canvases),
#   - no script error and no console message,
#   - the page requested nothing outside the file (network log; the page's
#     Content-Security-Policy also reports blocked requests),
#   - a two-run report (overlay) draws as well.
# With SHOTS_DIR: screenshots of each section there (of REPORT_PAGE when set,
# which is then checked the same way). Exit 77 (skipped) only
# when there is no Chromium to run.
set -euo pipefail
bin=$(readlink -f "$1")
shots=${2:-}
here=$(cd "$(dirname "$0")/../.." && pwd)
browser=""
for b in chromium chromium-browser google-chrome; do
  command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ]; then
  echo "skipped: no chromium to open the report (install the Debian package chromium)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --disable-default-apps --disable-extensions
       --hide-scrollbars --user-data-dir="$tmp/profile")
fail=0

# open PAGE NAME MIN_CHARTS: load, dump the DOM, read the page's own counts and the logs
open_page() {
  local page=$1 name=$2 min=$3 dom body charts blank
  timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --log-net-log="$tmp/$name.net.json" \
    --virtual-time-budget=15000 --dump-dom "file://$page" >"$tmp/$name.dom" 2>"$tmp/$name.log" || true
  dom="$tmp/$name.dom"
  body=$(grep -o '<body[^>]*>' "$dom" | head -1 || true)
  charts=$(sed -n 's/.*data-charts="\([0-9]*\)".*/\1/p' <<<"$body")
  blank=$(sed -n 's/.*data-blank-charts="\([0-9]*\)".*/\1/p' <<<"$body")
  if [ -z "$charts" ]; then
    echo "FAIL $name: the page script did not finish (no data-charts on <body>)"; fail=1; return
  fi
  [ "$charts" -ge "$min" ] || { echo "FAIL $name: $charts charts drawn, expected at least $min"; fail=1; }
  [ "$blank" = 0 ] || { echo "FAIL $name: $blank canvases stayed blank"; fail=1; }
  if grep -q 'data-errors=' "$dom"; then echo "FAIL $name: script errors on the page"; fail=1; fi
  if grep -q 'data-blocked=' "$dom"; then echo "FAIL $name: the page tried to load something (blocked by its CSP)"; fail=1; fi
  if grep -q ':CONSOLE' "$tmp/$name.log"; then
    echo "FAIL $name: console output:"; grep ':CONSOLE' "$tmp/$name.log" | head -5; fail=1
  fi
  # every URL the browser fetched, less the browser's own update / account services
  grep -o '"url":"[^"]*"' "$tmp/$name.net.json" 2>/dev/null | sed 's/"url":"//; s/"$//' | sort -u |
    grep -v -E '^(file://|data:|about:|chrome:)' |
    grep -v -E '^https?://([a-z0-9.-]*\.)?(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)/' >"$tmp/$name.urls" || true
  if [ -s "$tmp/$name.urls" ]; then
    echo "FAIL $name: the page requested:"; head -5 "$tmp/$name.urls"; fail=1
  fi
  echo "$name: $charts charts drawn, ${blank:-?} blank"
}

fx=$here/tests/fixtures/report
"$bin" report "$fx"/*.json -o "$tmp/all.html" >/dev/null
open_page "$tmp/all.html" all 15
"$bin" report "$fx/stride.json" "$fx/stride.json" -o "$tmp/two.html" >/dev/null
open_page "$tmp/two.html" overlay 1

if [ -n "$shots" ]; then
  page=$tmp/all.html
  mkdir -p "$shots"
  if [ -n "${REPORT_PAGE:-}" ]; then
    page=$(readlink -f "$REPORT_PAGE")
    open_page "$page" page 1
  fi
  for id in $(grep -o 'id="\(spec\|fam-[a-z0-9_]*\|roofline\|cases\|meta\)"' "$tmp/$( [ -n "${REPORT_PAGE:-}" ] && echo page || echo all).dom" |
              sed 's/.*id="//; s/"//' | awk '!seen[$0]++'); do
    timeout 120 "$browser" "${flags[@]}" --window-size=1400,1700 --virtual-time-budget=15000 \
      --screenshot="$shots/$id.png" "file://$page#only=$id" >/dev/null 2>&1 || echo "no screenshot of $id"
  done
  echo "screenshots in $shots"
fi
[ "$fail" = 0 ] && echo "report browser test: ok"
exit "$fail"
