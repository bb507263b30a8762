/*
 * cases.c - the smem family's case table: shared-memory read bandwidth (conflict-free LDS.32/64/128 of
 * a block-local array, 2 blocks of 1024 threads per SM) against 128 B per
 * clock per SM at the clock the kernel measured, and the latency of a
 * dependent chase in shared memory. Kernels: src/families/smem/smem.cu.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"
#include "families/family.h"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

static int smem_enumerate(struct gm_case *out, int max)
{
	static const int widths[] = { 16, 8, 4 };
	struct gm_case scratch, *c;
	int k = 0;

	for (int i = 0; i < 3; i++, k++) {
		c = gm_case_slot(out, max, k, &scratch);
		gm_case_begin(c, &gm_family_smem, i, GM_KIND_MEASURE, widths[i] == 16,
			      "shared-memory read, conflict-free, one LDS per thread per step, 4 in flight",
			      "bw_ld%d", widths[i] * 8);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "mode", 0);
		gm_case_param_add(c, "elem_bytes", widths[i]);
	}
	c = gm_case_slot(out, max, k++, &scratch);
	gm_case_begin(c, &gm_family_smem, -1, GM_KIND_MEASURE, 1,
		      "shared-memory latency: one thread chases a random cycle of 1024 words", "latency");
	gm_case_measure(c, GM_UNIT_CYCLES, GM_TIME_SELF);
	gm_case_extra_add(c, "ns", GM_UNIT_NS);
	gm_case_extra_add(c, "sm_clock_mhz", GM_UNIT_RATIO);
	gm_case_param_add(c, "mode", 1);
	return k;
}

static double note(const struct gm_case_result *c, const char *name)
{
	for (int i = 0; i < c->nnotes; i++)
		if (!strcmp(c->notes[i].name, name))
			return c->notes[i].median;
	return 0;
}

static void smem_derive(struct gm_run_result *r)
{
	const struct gm_case_result *bw = gm_result_find(r, "smem.bw_ld128");
	const struct gm_case_result *lat = gm_result_find(r, "smem.latency");
	char how[160];

	if (bw && bw->status == GM_CASE_OK) {
		double mhz = note(bw, "sm_clock_mhz"), sms = r->dev.sm_count;
		snprintf(how, sizeof(how), "smem.bw_ld128, all SMs; limit 128 B/clk/SM x %d SMs x %.0f MHz (measured in-kernel)",
			 r->dev.sm_count, mhz);
		gm_derive_add(r, "smem", "smem.read_bw", "smem", "read bandwidth", GM_UNIT_GBS, bw->value.median,
			      mhz > 0 ? 128.0 * sms * mhz * 1e6 / 1e9 : 0, "128 B/clk/SM at the measured clock", how);
		if (mhz > 0)
			gm_derive_add(r, "smem", "smem.read_bytes_per_clk_sm", "smem", "read B/clk per SM",
				      GM_UNIT_RATIO, bw->value.median * 1e9 / (sms * mhz * 1e6), 128,
				      "128 B/clk/SM (32 banks x 4 B)", how);
	}
	if (lat && lat->status == GM_CASE_OK) {
		snprintf(how, sizeof(how), "smem.latency: dependent ld.shared.u32 chase, %d samples", lat->nsamples);
		gm_derive_add(r, "smem", "smem.latency_cycles", "smem", "latency", GM_UNIT_CYCLES, lat->value.median, 0,
			      "", how);
		gm_derive_add(r, "smem", "smem.latency_ns", "smem", "latency", GM_UNIT_NS, lat->extras[0].median, 0, "",
			      how);
	}
}

const struct gm_family gm_family_smem = {
	"smem", "shared-memory bandwidth per SM and aggregate vs 128 B/clk/SM, and latency",
	smem_enumerate, gm_smem_ops, smem_derive,
};
