#!/usr/bin/env bash
# Browser test of `gpumem report`: headless Chromium opens reports built from
# the fixtures (one per family), from the committed H100 suite and from two
# runs overlaid; it checks that every chart drew (no empty canvas), that the
# console shows no error and that the page requests nothing outside the file.
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

check() { # name html
  local name=$1 html=$2 dom="$work/$1.dom" log="$work/$1.log" net="$work/$1.net"
  timeout 120 "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --log-net-log="$net" \
    --dump-dom "file://$html" >"$dom" 2>"$log"
  local charts empty
  charts=$(grep -o 'data-charts="[0-9]*"' "$dom" | grep -o '[0-9]*')
  empty=$(grep -o 'data-empty-charts="[0-9]*"' "$dom" | grep -o '[0-9]*')
  if [ -z "$charts" ] || [ "$charts" -eq 0 ]; then
    echo "FAIL $name: no chart drew (data-charts='$charts')"; fail=1
  elif [ "$empty" != "0" ]; then
    echo "FAIL $name: $empty empty chart canvas(es) of $charts"; fail=1
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
    timeout 120 "$browser" "${flags[@]}" --window-size=1400,${3:-9000} --screenshot="$shots/$name.png" \
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
suite="$root/results/nvidia-h100-80gb-hbm3/suite.json"
if [ -f "$suite" ]; then
  "$gm" report "$suite" -o "$work/suite.html" >/dev/null && check suite "$work/suite.html" 9000 || fail=1
  "$gm" report "$suite" "$here/fixtures/copy.json" -o "$work/overlay.html" >/dev/null &&
    check overlay "$work/overlay.html" 9000 || fail=1
fi
exit $fail
