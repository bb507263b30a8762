/*
 * check_codes.c - every failure `gpumem check` can report: a stable code, a
 * severity (drain: take the GPU out of service; reset: a GPU reset is
 * expected to clear it; inspect: a person looks before anything else) and the
 * next step in words. docs/CHECK.md "Codes" is this table.
 */
#include <string.h>
#include "gpumem/check.h"

static const struct gm_check_code codes[] = {
	{ "GM-C100", "below_baseline", GM_SEV_INSPECT,
	  "a line is more than 3 tolerances below its SKU's baseline: run the check again on an idle GPU; "
	  "if it stays, compare clocks and power with `nvidia-smi -q -d CLOCK,POWER,PERFORMANCE`" },
	{ "GM-C101", "memory_slow", GM_SEV_DRAIN,
	  "HBM, L2 or L1 bandwidth more than 6 tolerances below the baseline: drain the GPU, run the check "
	  "again idle; if it repeats, look at row remapping and clocks, then RMA" },
	{ "GM-C102", "compute_slow", GM_SEV_DRAIN,
	  "FP32/FP16/GEMM throughput more than 6 tolerances below the baseline: drain, check the clocks, "
	  "power limit and throttle reasons (`nvidia-smi -q -d PERFORMANCE`), run the check again" },
	{ "GM-C103", "host_link_slow", GM_SEV_INSPECT,
	  "pinned PCIe bandwidth more than 6 tolerances below the baseline: check the link generation and "
	  "width (`nvidia-smi -q -d PCIE`), the slot or riser, and the NUMA node of the process" },
	{ "GM-C104", "peer_link_slow", GM_SEV_INSPECT,
	  "peer-to-peer bandwidth more than 6 tolerances below the baseline: check `nvidia-smi nvlink -s` "
	  "and `nvidia-smi topo -m`, and the fabric manager on NVSwitch systems" },
	{ "GM-C105", "alloc_slow", GM_SEV_INSPECT,
	  "device allocation more than 6 tolerances slower than the baseline: look for another process "
	  "holding the GPU, MPS or a driver in a bad state; run the check again" },
	{ "GM-C106", "erratic", GM_SEV_INSPECT,
	  "a line's samples scatter (CoV 5 % or more and 10x the baseline's): another process shares this "
	  "GPU (`nvidia-smi --query-compute-apps=pid,name --format=csv`); run the check on an idle GPU" },
	{ "GM-C107", "validation_failed", GM_SEV_DRAIN,
	  "a kernel produced wrong results: drain the GPU, read the first mismatches in the JSON, run "
	  "`gpumem check --full`; wrong results from a healthy stack mean the hardware" },
	{ "GM-C108", "memtest_failed", GM_SEV_DRAIN,
	  "the memory test found a word that did not hold its value: drain, note the failing addresses (JSON), "
	  "check `nvidia-smi -q -d ROW_REMAPPER`, reset the GPU to remap, run the memory test again; RMA if it repeats" },
	{ "GM-C109", "device_error", GM_SEV_RESET,
	  "a CUDA error during the check: drain the GPU, read `dmesg` for XIDs, reset it when idle "
	  "(`nvidia-smi -r -i N`) and run the check again" },
	{ "GM-C201", "xid", GM_SEV_RESET,
	  "an XID event during the check: look the XID up in NVIDIA's XID catalogue; most critical XIDs need a "
	  "GPU reset (drain first); repeated XIDs mean RMA" },
	{ "GM-C202", "ecc_uncorrected", GM_SEV_RESET,
	  "volatile uncorrected ECC errors: drain, reset the GPU (row remapping happens at reset), run the check again" },
	{ "GM-C203", "ecc_uncorrected_history", GM_SEV_INSPECT,
	  "uncorrected ECC errors in the GPU's lifetime (aggregate): compare with the remapped rows and retired "
	  "pages; a count that grows between checks means RMA" },
	{ "GM-C204", "ecc_corrected_rising", GM_SEV_INSPECT,
	  "corrected ECC errors grew during the check: watch the trend across checks; a fast rise precedes "
	  "uncorrected errors" },
	{ "GM-C205", "row_remap_pending", GM_SEV_RESET,
	  "a row remap is pending: drain and reset the GPU so the remap takes effect, then run the check again" },
	{ "GM-C206", "row_remap_failed", GM_SEV_DRAIN,
	  "a row remap failed (no spare rows left in a bank): drain the GPU and RMA it" },
	{ "GM-C207", "retired_pages_pending", GM_SEV_RESET,
	  "a page retirement is pending: drain and reset the GPU (or reload the driver) so it takes effect" },
	{ "GM-C208", "retired_pages", GM_SEV_INSPECT,
	  "retired pages: a double-bit retirement or 60 pages in all means the memory is wearing out: plan an RMA" },
	{ "GM-C209", "pcie_replays", GM_SEV_INSPECT,
	  "PCIe replays grew during the check: the link retrains on errors; reseat the GPU or riser, check the slot" },
	{ "GM-C210", "pcie_link_degraded", GM_SEV_INSPECT,
	  "the PCIe link ran below its maximum generation or width under load: reseat, check the slot, riser and BIOS" },
	{ "GM-C211", "nvlink_errors", GM_SEV_INSPECT,
	  "NVLink CRC, replay or recovery errors: `nvidia-smi nvlink -e`; reseat or replace the bridge/baseboard link" },
	{ "GM-C212", "hw_throttle", GM_SEV_INSPECT,
	  "hardware slowdown, hardware thermal slowdown or power brake during the check: check cooling, airflow, "
	  "the power supply and the GPU's power cables" },
	{ "GM-C213", "sw_thermal_throttle", GM_SEV_INSPECT,
	  "software thermal slowdown during the check: the GPU ran hot; check cooling and the inlet temperature" },
	{ "GM-C301", "burn_clock_drop", GM_SEV_INSPECT,
	  "under sustained load the SM clock fell more than 10 % below its peak: read the throttle reasons in the "
	  "burn telemetry (power or thermal) and the cooling" },
	{ "GM-C302", "burn_validation", GM_SEV_DRAIN,
	  "a GEMM check or a memory-test pass failed under sustained load: drain, run `gpumem check --burn` again; "
	  "errors that appear only when hot mean the hardware" },
	{ "GM-C901", "no_baseline", GM_SEV_NONE,
	  "no baseline for this SKU: run `gpumem check` on several good units with --save-run, then "
	  "`gpumem baseline make RUN.json... -o data/baselines/<sku>.json`" },
};

const struct gm_check_code *gm_check_codes(int *n)
{
	*n = (int)(sizeof(codes) / sizeof(codes[0]));
	return codes;
}

const struct gm_check_code *gm_check_code_find(const char *code)
{
	int n;
	const struct gm_check_code *c = gm_check_codes(&n);

	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].code, code))
			return &c[i];
	return NULL;
}
