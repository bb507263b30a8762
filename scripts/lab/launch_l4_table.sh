#!/usr/bin/env bash
# Rule L4 before and after, on one call's measurements: every `explain --run` kernel of the logs re-predicted
# with the call's profile (after) and with it less l2_merge_lines_gps / l2_part_sectors_gps (rule L2, before),
# then the suite run re-predicted both ways. Usage: launch_l4_table.sh BIN PROFILE SUITE_RUN LOG...
set -euo pipefail
bin=$1 prof=$2 run=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$prof" "$tmp/before.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p.pop("l2_merge_lines_gps", None); p.pop("l2_part_sectors_gps", None)
json.dump(p, open(sys.argv[2], "w"), indent=1)
PY
pred() { # PROFILE ARGS... -> predicted GB/s
  local p=$1; shift
  "$bin" explain "$@" --profile "$p" | sed -n 's/^  predicted  *[0-9.]* ms, \([0-9.]*\) GB\/s.*/\1/p'
}
printf '%-28s %9s %9s %6s %9s %6s\n' kernel measured "before" "m/p" "after" "m/p"
for log in "$@"; do
  while IFS= read -r line; do
    case $line in
      "=== "*": explain --run "*)
        name=${line#=== }; name=${name%%: explain*}
        rest=${line#*explain --run }; expr=${rest#*\'}; expr=${expr%\'}; args=${rest%% \'*} ;;
      *"launch model  predicted"*)
        meas=$(sed -n 's/.*measured \([0-9.]*\) GB\/s.*/\1/p' <<<"$line")
        # shellcheck disable=SC2086
        b=$(pred "$tmp/before.json" $args "$expr"); a=$(pred "$prof" $args "$expr")
        awk -v n="$name" -v m="$meas" -v b="$b" -v a="$a" 'BEGIN{printf "%-28s %9.1f %9.1f %5.0f%% %9.1f %5.0f%%\n", n, m, b, 100*m/b, a, 100*m/a}' ;;
    esac
  done <"$log"
done
echo
echo "suite, rule L2 (before):"
"$bin" predict "$run" --profile "$tmp/before.json" | grep -E "within 10%"
echo "suite, rule L4 (after):"
"$bin" predict "$run" --profile "$prof" | grep -E "within 10%"
