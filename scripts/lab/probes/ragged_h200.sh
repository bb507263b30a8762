#!/usr/bin/env bash
# ragged_h200.sh - issue 25 item 5 on one GPU (src/families/transpose/README.md, "fifth pass"): the ragged and a8
# transposes against the best copy of the same matrix (goal >= 95 %), and the ragged copy against the square one
# (goal >= 97 %), three runs back to back in one process each, on the unit named in $OUT/gpu.txt.
#
#   GPUMEM=build/gpumem OUT=results/<gpu>/transpose/<call> scripts/lab/probes/ragged_h200.sh
#
# Cases (exact names: the --full ones run by name, nothing else is selected): copy_b16 and copy_b16_line on the
# three shapes (the line copy is a candidate ceiling: when it is faster it is the best copy, and the shares below
# are taken against it), copy_b4_ragged, and v15_lean5_down / v19_whole5 / v21_lean4_down and the larger tiles v25_big128 /
# v26_tall128 / v27_wide128 (eleventh pass) on the three shapes (v9, v20, v22-v24 measured in the sixth to ninth passes). Writes $OUT/gpu.txt (nvidia-smi -L, the UUID), $OUT/ragged{1,2,3}.json and .txt, $OUT/shares.txt.
# About 2-3 s a run on an H100 (15 cases took 1.5 s), each run stopped at 20 s; SAN=1 (default) adds memcheck and
# racecheck over the new kernels at 20M (25 s each at most): under 120 s in all, ~30 s expected. Without a GPU it stops
# at the first run with gpumem's own error and exit status 2.
set -euo pipefail

die() { echo "ragged_h200.sh: error: $*" >&2; exit 2; }
[ -n "${GPUMEM:-}" ] || die "GPUMEM is not set (path to the gpumem binary)"
[ -n "${OUT:-}" ] || die "OUT is not set (folder for the results)"
[ -x "$GPUMEM" ] || die "'$GPUMEM' is not an executable"
command -v python3 >/dev/null || die "python3 not found (it reads the runs' JSON)"
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"

CASES=()
for s in "" _ragged _a8; do CASES+=("transpose.copy_b16$s" "transpose.copy_b16_line$s"); done
CASES+=(transpose.copy_b4_ragged)
for v in v15_lean5_down v19_whole5 v21_lean4_down v25_big128 v26_tall128 v27_wide128; do CASES+=("transpose.$v" "transpose.${v}_ragged" "transpose.${v}_a8"); done

# every selector must name one case of this binary (a missing one means an older build: say so before the GPU)
"$GPUMEM" list > "$OUT/list.txt" || die "'$GPUMEM list' failed"
for c in "${CASES[@]}"; do
	grep -q "^$c " "$OUT/list.txt" || die "case '$c' is not in '$GPUMEM list' (build from this commit?)"
done

{
	date -u +%FT%TZ
	git -C "$HERE" rev-parse HEAD 2>/dev/null || true
	if command -v nvidia-smi >/dev/null; then
		nvidia-smi -L 2>&1 || true
		nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
	else
		echo "nvidia-smi: not found"
	fi
} > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"

# exit 1 = a case failed its check: its JSON is written (the case prints 'failed'), the next run goes on;
# any other failure (no GPU: 3, device error: 6, ...) stops here
for k in 1 2 3; do
	echo "run $k: $GPUMEM run <${#CASES[@]} cases> --reps 15 --json $OUT/ragged$k.json"
	rc=0
	timeout 20 "$GPUMEM" run "${CASES[@]}" --reps 15 --json "$OUT/ragged$k.json" > "$OUT/ragged$k.txt" || rc=$?
	if [ "$rc" = 1 ]; then
		echo "ragged_h200.sh: warning: run $k: a case failed its check (see $OUT/ragged$k.txt)" >&2
	elif [ "$rc" != 0 ]; then
		tail -5 "$OUT/ragged$k.txt" >&2
		die "run $k of '$GPUMEM run' failed (exit $rc; 3 = no GPU, 124 = past 20 s)"
	fi
done
# SAN=1 (default): memcheck and racecheck over the new kernels at --size 20M (side 2240: 35 tile columns, every edge
# kind), validated, one timed launch each (gpumem run --sanitize); 25 s each at most
if [ "${SAN:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
	NEW=()
	for v in v25_big128 v26_tall128 v27_wide128; do NEW+=("transpose.$v" "transpose.${v}_ragged" "transpose.${v}_a8"); done
	for tool in memcheck racecheck; do
		timeout 25 compute-sanitizer --tool $tool --error-exitcode 9 "$GPUMEM" run "${NEW[@]}" --sanitize --size 20M \
			> "$OUT/san_$tool.txt" 2>&1 && echo "$tool: 0 errors" || echo "$tool: exit $? (see $OUT/san_$tool.txt)"
	done
fi
python3 "$HERE/ragged_shares.py" "$OUT"/ragged[123].json | tee "$OUT/shares.txt"
