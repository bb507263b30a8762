#!/usr/bin/env bash
# The kernels of a set file (tests/gpu/unseen2.tsv and tests/fixtures/dev/dev-36a.tsv, dev-36b.tsv, dev-36d.tsv, dev-36e.tsv, dev-36f.tsv, dev-36g.tsv, dev-36h.tsv, probe-43.tsv, probe-45.tsv, probe-46.tsv, dev-36i.tsv, probe-47.tsv, dev-36j.tsv, dev-36k.tsv, probe-49.tsv and dev-36l.tsv, development sets; tests/fixtures/sealed/sealed-36c.tsv, the
# sealed sets; name, --n, --type, --block, --op, EXPR a line) through
# `gpumem explain`, one JSON document a kernel in OUTDIR/NAME.json:
#   predict: the launch model alone (explain --n; no GPU), with PROFILE (or the built-in profile)
#   run:     explain --run (validated, timed, counters unless NO_COUNTERS=1) with PROFILE's prediction beside
# usage: scripts/unseen_set.sh predict|run BIN SET OUTDIR [PROFILE]
# then: python3 scripts/unseen_score.py SET OUTDIR (a table and the score).
set -uo pipefail
mode=$1 bin=$2 set=$3 out=$4 prof=${5:-}
mkdir -p "$out"
pa=()
[ -n "$prof" ] && pa=(--profile "$prof")
ca=()
[ "${NO_COUNTERS:-0}" = 1 ] && ca=(--no-counters)
while IFS=$'\t' read -r name n type block op expr; do
  case $name in '#'*|'') continue ;; esac
  case $mode in
    predict) "$bin" explain --json --n "$n" --type "$type" --block "$block" --op "$op" "${pa[@]}" -- "$expr" \
               >"$out/$name.json" 2>"$out/$name.err" ;;
    run) t0=$(date +%s%N)
         timeout 60 "$bin" explain --json --run --n "$n" --type "$type" --block "$block" --op "$op" "${pa[@]}" \
           "${ca[@]}" -- "$expr" >"$out/$name.json" 2>"$out/$name.err"; rc=$?
         echo "$name: exit $rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms" ;;
    *) echo "mode: predict or run" >&2; exit 2 ;;
  esac
  [ -s "$out/$name.err" ] || rm -f "$out/$name.err"
done <"$set"
