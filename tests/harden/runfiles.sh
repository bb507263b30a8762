#!/usr/bin/env bash
# tests/harden/runfiles.sh BIN SRC [JOBS] - committed JSON files (plain and .json.gz: the fixtures, the newest
# suites and one of each kind under SRC/results; RUNFILES_ALL=1 every one) through the commands that read files:
#   info --from, report (table, --csv, -o HTML), compare F F (text and --json),
#   fleet, predict (see below), explain --n --profile F
# Registered by tests/CMakeLists.txt in a -DGPUMEM_SANITIZE build (build-asan
# in scripts/test.sh): a file that is not a run document (a profile, an
# explain output) must be refused with a documented exit code, never crash.
# Fails on an exit code outside 0-6 (a signal, a sanitizer's 86) and on any
# sanitizer report on stderr (ASan, LeakSanitizer, UBSan "runtime error").
set -uo pipefail
bin=$1 src=$2 jobs=${3:-2}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:exitcode=86}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one file: every command; prints "FAIL: ..." lines, nothing when clean
one() {
  local f=$1 w
  w=$(mktemp -d "$tmp/f.XXXXXX")
  run1() {  # run1 ARGS...: a documented exit code (0-6) and no sanitizer line
    "$bin" "$@" >"$w/out" 2>"$w/err" </dev/null
    local rc=$?
    if [ $rc -gt 6 ] || grep -qE "AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer" "$w/err"; then
      echo "FAIL: gpumem $* -> exit $rc"
      grep -E "ERROR|SUMMARY|runtime error|#[0-9] " "$w/err" | head -20 | sed 's/^/    /'
    fi
  }
  run1 info --from "$f"
  run1 report "$f"
  run1 report --csv "$f"
  run1 report "$f" -o "$w/r.html"
  run1 compare "$f" "$f"
  run1 compare --json "$f" "$f"
  run1 fleet "$f"
  # predict runs the launch model over every case (about 50 s of CPU under ASan for a 541-case suite):
  # every file of at most 200 cases, and of the larger ones the two suites (the others repeat their
  # cases); RUNFILES_ALL=1 predicts every file
  if [ "${RUNFILES_ALL:-0}" = 1 ] || [ "$f" = tests/fixtures/launch/h100-suite.json.gz ] ||
     [ "$f" = tests/fixtures/launch/h200-suite.json.gz ] || [ "$(zcat -f "$f" | grep -o '"status":' | wc -l)" -le 200 ]; then
    run1 predict "$f"
  fi
  run1 explain --n 100000 --profile "$f" gid
  rm -rf "$w"
}
export -f one
export bin tmp RUNFILES_ALL

cd "$src"
# The fixtures (every document the tests read, of every schema), each GPU's newest suite (results/*/latest/),
# and of the other committed documents one of each kind (schema, schema_version, and for runs whether it has
# counters, a fleet or per-device runs): every kind the readers meet, in minutes. RUNFILES_ALL=1 reads every
# committed document (about 10 minutes under ASan on 2 cores with 370 documents in results/).
all=$(git ls-files 'results/**.json' 'results/**.json.gz' 'tests/fixtures/**.json' 'tests/fixtures/**.json.gz' 2>/dev/null)
[ -n "$all" ] || all=$( (find results tests/fixtures -name '*.json' -o -name '*.json.gz') 2>/dev/null | sort)
if [ "${RUNFILES_ALL:-0}" = 1 ]; then
  files=$all
else
  files=$(printf '%s\n' "$all" | python3 -c '
import gzip, json, sys
seen = set()
for path in sys.stdin.read().split():
    # every fixture but the well-formed trace documents (37, all gpumem-trace/1: each command refuses each of them
    # at the same schema check, so one of them stands for all; the malformed ones under bad/ are kept)
    trace = path.startswith("tests/fixtures/trace/") and "/bad/" not in path
    if (not path.startswith("results/") and not trace) or "/latest/" in path:
        print(path)
        continue
    try:
        d = json.load((gzip.open if path.endswith(".gz") else open)(path, "rt"))
    except (OSError, ValueError):
        d = None
    if not isinstance(d, dict):
        kind = ("not an object",)
    else:
        c = d.get("cases") if isinstance(d.get("cases"), list) else []
        kind = (d.get("schema"), d.get("schema_version"), any(isinstance(x, dict) and "counters" in x for x in c[:50]),
                "devices" in d or "runs" in d, "gpus" in d)
    if kind not in seen:
        seen.add(kind)
        print(path)
')
fi
n=$(printf '%s\n' "$files" | wc -l)
start=$(date +%s)
printf '%s\n' "$files" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {} >"$tmp/log"
# several runs overlaid in one report and one fleet: the two suites
run_all() {
  "$bin" "$@" >/dev/null 2>"$tmp/err" </dev/null
  local rc=$?
  if [ $rc -gt 6 ] || grep -qE "AddressSanitizer|LeakSanitizer|runtime error:" "$tmp/err"; then
    echo "FAIL: gpumem $* -> exit $rc" >>"$tmp/log"
    head -20 "$tmp/err" >>"$tmp/log"
  fi
}
run_all report tests/fixtures/launch/h100-suite.json.gz tests/fixtures/launch/h200-suite.json.gz -o "$tmp/two.html"
run_all compare tests/fixtures/launch/h100-suite.json.gz tests/fixtures/launch/h200-suite.json.gz
run_all fleet $(printf '%s\n' "$files" | grep '/fleet/')
if [ -s "$tmp/log" ]; then
  cat "$tmp/log"
  echo "runfiles: $(grep -c '^FAIL' "$tmp/log") failures over $n files" >&2
  exit 1
fi
echo "runfiles: $n files x 9 commands clean in $(( $(date +%s) - start )) s"
