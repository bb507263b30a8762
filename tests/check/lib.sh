# lib.sh - what the check tests share (sourced after `set -uo pipefail` with the gpumem binary as $1): bin, here
# (tests/check), root (the source tree, the working directory from here on), T (a temporary folder removed on
# exit), the failure count and its helpers ok, bad and want_rc CODE what -- command... (stdout in $T/out, stderr
# in $T/err).
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
want_rc() { # want_rc CODE what -- command...
  local code=$1 what=$2; shift 3
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if [ "$rc" = "$code" ]; then ok "$what (exit $rc)"; else bad "$what: exit $rc, want $code"; head -5 "$T/err"; fi
}
