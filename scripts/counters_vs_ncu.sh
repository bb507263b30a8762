#!/usr/bin/env bash
# counters_vs_ncu.sh GPUMEM OUT_DIR [CASE...]
# The counters of `gpumem run --counters` against Nsight Compute on the same
# kernels: each case once under `ncu --clock-control none` (its second kernel
# launch inside the case's NVTX range), then all cases once with
# `gpumem run --counters`; scripts/counters_vs_ncu.py joins both into
# OUT_DIR/ncu_vs_counters.md. Both sides use --size 1G (4 GiB arrays would
# only make ncu slower). Exit 0 when every compared counter agrees.
set -uo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 GPUMEM OUT_DIR [CASE...]" >&2
	exit 2
fi
bin=$1
out=$2
shift 2
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
	cases=(copy.v0_b4 copy.v2_b16 copy.v5_b16_ilp4 stride.b04_s002 stride.b04_s008 stride.b04_s032
	       stride.b16_s002 offset.rd_o01 transpose.v0_naive transpose.v1_tiled transpose.v2_padded
	       banks.b04_s02 banks.b04_s32)
fi
ncu=${NCU:-ncu}
# NCU_CACHE_CONTROL=none keeps ncu from flushing the caches before each pass, as gpumem's profiled launch
# (right after the timed ones) does not: the check of why DRAM writes of small outputs differ.
cache=${NCU_CACHE_CONTROL:-all}
command -v "$ncu" >/dev/null || { echo "error: '$ncu' not found (set NCU=)" >&2; exit 2; }
mkdir -p "$out"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
: >"$out/ncu.csv"
{
	echo "# $(date -u +%FT%TZ)"
	for c in "${cases[@]}"; do
		cmd=("$ncu" --clock-control none --cache-control "$cache" --csv --page raw --print-units base --metrics "$metrics"
		     --nvtx --nvtx-include "$c/" --launch-skip 1 --launch-count 1 "$bin" run "$c" --reps 1 --size 1G)
		printf '%q ' "${cmd[@]}"; echo
		"${cmd[@]}" 2>/dev/null | grep -E '^"(ID|[0-9])' | sed "s/^/\"$c\",/" >>"$out/ncu.csv"
	done
	cmd=("$bin" run "${cases[@]}" --counters --reps 3 --size 1G --json "$out/counters.json")
	printf '%q ' "${cmd[@]}"; echo
} >"$out/ncu_commands.txt"
"$bin" run "${cases[@]}" --counters --reps 3 --size 1G --json "$out/counters.json" >"$out/counters.txt" 2>&1
python3 "$(dirname "$0")/counters_vs_ncu.py" "$out/ncu.csv" "$out/counters.json" >"$out/ncu_vs_counters.md"
