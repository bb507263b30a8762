#!/usr/bin/env bash
# trace_redo.sh GPUMEM OUTDIR RESULTDIR...: analyse every committed trace document of each results directory again
# (those pruned from results/ for its size too: PRUNED.md names them in git, read with git show),
# offline (`gpumem trace --from`), into OUTDIR/<results dir name>/NAME.json, two at a time; then score each with
#   python3 scripts/lab/trace_score.py OUTDIR/DIR [OUTDIR2/DIR]
set -u
G=$(readlink -f "$1") O=$2; shift 2
tmp=$(mktemp -d)
for d in "$@"; do
  n=$(basename "$d"); mkdir -p "$O/$n" "$tmp/$n" "$tmp/$n.tar"
  for a in $(find "$d" -name 'traces.tar*'); do tar -xf "$a" -C "$tmp/$n.tar"; done   # traces packed in one tar (PRUNED.md)
  # traces pruned from results/ for its size: git keeps them, at the commit:path the folder's PRUNED.md row names
  for cp in $(grep -o "\`[0-9a-f]*:results/[^\`]*/$n/traces\.tar[^\`]*\`" "$(dirname "$d")/PRUNED.md" 2>/dev/null | tr -d '\`'); do
    git -C "$(dirname "$0")" show "$cp" > "$tmp/$n.pruned" && tar -xf "$tmp/$n.pruned" -C "$tmp/$n.tar" && rm -f "$tmp/$n.pruned"
  done
  for t in $(find "$d" "$tmp/$n.tar" -name '*.trace.json.xz' -o -name '*.trace.json.gz' -o -name '*.trace.json' | sort); do
    b=$(basename "$t"); b=${b%.trace.json*}
    case $t in *.xz) xz -dc "$t" ;; *.gz) gzip -dc "$t" ;; *) cat "$t" ;; esac > "$tmp/$n/$b.trace.json"
    echo "$tmp/$n/$b.trace.json $O/$n/$b.json"
  done
done | xargs -P 2 -n 2 sh -c '"$0" trace --from "$1" --json "$2" >/dev/null 2>&1 || echo "rc=$? $1" >&2' "$G"
rm -rf "$tmp"
