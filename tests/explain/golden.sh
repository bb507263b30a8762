#!/usr/bin/env bash
# golden.sh GPUMEM [--update] - every `gpumem explain` row of cases.txt run from the repository root;
# its stdout, stderr and exit code compared byte for byte with golden.txt (rows tagged "cuda" with
# golden_cuda.txt, only when GPUMEM was built with CUDA). The model's own time ("model time" line,
# "model_ms" key) is masked: it is a wall-clock figure. Protects explain's text and JSON from
# unintended change; after an intended change, regenerate with --update (both builds for both files)
# and commit the new golden file with the change.
set -uo pipefail
bin=$(readlink -f "$1")
update=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
has_cuda=1
"$bin" explain --source 0 >/dev/null 2>&1 || has_cuda=0
render() {   # render cuda|plain: every row of that kind
  local want=$1 line tag
  while IFS= read -r line; do
    case $line in ''|'#'*) continue ;; esac
    tag=plain
    if [ "${line%% *}" = cuda ]; then tag=cuda; line=${line#cuda }; fi
    [ "$tag" = "$want" ] || continue
    eval "set -- $line"
    printf '### explain %s\n' "$line"
    "$bin" explain "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    sed -E 's/^(  model time +)[0-9.]+ ms$/\1(masked) ms/; s/^( *"model_ms": ).*[0-9]( *,?)$/\1(masked)\2/' "$tmp/out"
    printf -- '--- stderr\n'
    cat "$tmp/err"
    printf -- '--- exit %d\n' "$rc"
  done <"$here/cases.txt"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache   # no unit's cached profile (src/io/profile_cache.c): the built-in ones
fail=0
for kind in plain cuda; do
  golden=$here/golden.txt
  [ $kind = cuda ] && golden=$here/golden_cuda.txt
  if [ $kind = cuda ] && [ $has_cuda = 0 ]; then echo "skip: cuda rows (built without CUDA)"; continue; fi
  render $kind >"$tmp/$kind.txt"
  if [ "$update" = --update ]; then
    cp "$tmp/$kind.txt" "$golden"; echo "wrote $golden"
  elif ! diff -u "$golden" "$tmp/$kind.txt" >"$tmp/diff"; then
    echo "FAIL: explain output differs from ${golden#"$PWD"/} (first lines of the diff):"; head -40 "$tmp/diff"; fail=1
  else
    echo "ok: $(grep -c '^### ' "$golden") $kind rows identical"
  fi
done
exit $fail
