#!/usr/bin/env bash
# model_vs_counters.sh BUILD_DIR OUT_DIR
#
# Hold the access-pattern model against Nsight Compute's counters on this
# machine's GPU (issue 3, part 3). Needs a CUDA build (-DGPUMEM_CUDA=ON) with
# BUILD_DIR/tests/gpu/gm_probe, ncu on PATH and permission to read counters.
#
# Writes, all under OUT_DIR:
#   gpu.txt                  nvidia-smi name and driver, ncu --version
#   probe.sass               cuobjdump -sass of gm_probe (when cuobjdump exists)
#   ncu_probe.ncu-rep        the profile, one result per probe kernel
#   ncu_probe.log            gm_probe's and ncu's output while profiling
#   ncu_probe.csv            the profile as ncu --csv --page raw --print-units base
#   model-vs-counters.csv    one row per pattern: model vs measured (see probe.c)
#   model-vs-counters.txt    the summary "N/M patterns agree" and every disagreement
#   model-vs-counters.cmd    the exact command lines run
# The profile is exported and then imported as CSV, rather than printed while
# profiling, so that gm_probe's own output cannot mix into the CSV.
# Exit status: that of `gm_probe compare` (0 all agree, 1 some do not, 2 bad
# input), or 2 when BUILD_DIR has no gm_probe or ncu is missing.
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 BUILD_DIR OUT_DIR" >&2
	exit 2
fi
build=$1
out=$2
probe=$build/tests/gpu/gm_probe
if [ ! -x "$probe" ]; then
	echo "error: '$probe' not found; configure with -DGPUMEM_CUDA=ON and build target gm_probe" >&2
	exit 2
fi
ncu=${NCU:-ncu}
if ! command -v "$ncu" >/dev/null 2>&1; then
	echo "error: '$ncu' not found; put Nsight Compute on PATH or set NCU=/path/to/ncu" >&2
	exit 2
fi
mkdir -p "$out"

metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

cmdfile=$out/model-vs-counters.cmd
: >"$cmdfile"

# run REDIRECT CMD...: record the command line (with its redirection) and run it
# with stdout sent to REDIRECT ("-" keeps the terminal). Returns its status.
run() {
	local to=$1
	shift
	{
		printf '%q ' "$@"
		[ "$to" = - ] || printf '> %q 2>&1' "$to"
		printf '\n'
	} >>"$cmdfile"
	if [ "$to" = - ]; then
		"$@"
	else
		"$@" >"$to" 2>&1
	fi
}

run - nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$out/gpu.txt" ||
	echo "warning: nvidia-smi failed" >&2
run - "$ncu" --version | tee -a "$out/gpu.txt" || echo "warning: ncu --version failed" >&2

if command -v cuobjdump >/dev/null 2>&1; then
	run "$out/probe.sass" cuobjdump -sass "$probe" ||
		echo "warning: cuobjdump failed; see $out/probe.sass" >&2
fi

if ! run "$out/ncu_probe.log" "$ncu" --clock-control none --metrics "$metrics" \
	--kernel-name regex:probe_ --export "$out/ncu_probe" --force-overwrite \
	"$probe" run; then
	echo "error: profiling failed; the end of $out/ncu_probe.log:" >&2
	tail -n 20 "$out/ncu_probe.log" >&2 || true
fi

# The CSV goes to its own file: only stdout is redirected here, so ncu's
# diagnostics on stderr stay out of it.
printf '%q ' "$ncu" --import "$out/ncu_probe.ncu-rep" --csv --page raw \
	--print-units base >>"$cmdfile"
printf '> %q\n' "$out/ncu_probe.csv" >>"$cmdfile"
if ! "$ncu" --import "$out/ncu_probe.ncu-rep" --csv --page raw \
	--print-units base >"$out/ncu_probe.csv"; then
	echo "error: cannot read the profile back as CSV" >&2
fi

printf '%q ' "$probe" compare "$out/ncu_probe.csv" "$out/model-vs-counters.csv" >>"$cmdfile"
printf '| tee %q\n' "$out/model-vs-counters.txt" >>"$cmdfile"
set +e
"$probe" compare "$out/ncu_probe.csv" "$out/model-vs-counters.csv" |
	tee "$out/model-vs-counters.txt"
status=${PIPESTATUS[0]}
set -e
echo "wrote $out/model-vs-counters.csv (exit $status)" >&2
exit "$status"
