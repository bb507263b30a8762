/*
 * cases.c - the atomics family's case table: summing 2^24 values with atomics: one global atomicAdd per
 * element on one address, the same spread over 4096 addresses, and a warp
 * shuffle reduction + one shared-memory atomic per warp + one global atomic
 * per block; 32-bit integer and float; and the float on one address over 2^20 elements, calibrate's
 * (the trace's rule X); r lanes of a warp on each address (r = 1 .. 32, every warp on its own addresses, and
 * all warps on few: the atomic unit's turns, the trace's atomics rule). Unit: GB/s of input consumed (4 B per
 * element), so the cases compare with each other and with HBM bandwidth.
 * derive(): the speed-up of the block reduction over one address.
 * Kernels: src/families/atomics/atomics.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

static const struct {
	int mode, quick;
	const char *label, *desc;
} modes[] = {
	{ AT_ONE, 0, "one", "atomicAdd per element, all on one global address" },
	{ AT_SPREAD, 0, "spread", "atomicAdd per element over 4096 global addresses (i mod 4096)" },
	{ AT_BLOCK, 1, "block", "warp shuffle reduction, shared atomic per warp, one global atomic per block" },
};

/* v3 lanes: atomicAdd(&bins[(i / r) % bins], x); bins 2^20 (each warp its own addresses) for r = 1 .. 32, then
   all warps on few addresses (2^20 elements: a launch of 1-30 ms) */
static const struct {
	int is_float, r, bins;
} lanes[] = {
	{ 0, 1, AT_LANES_BINS }, { 0, 2, AT_LANES_BINS }, { 0, 4, AT_LANES_BINS }, { 0, 8, AT_LANES_BINS },
	{ 0, 16, AT_LANES_BINS }, { 0, 32, AT_LANES_BINS }, { 1, 1, AT_LANES_BINS }, { 1, 2, AT_LANES_BINS },
	{ 1, 4, AT_LANES_BINS }, { 1, 8, AT_LANES_BINS }, { 1, 16, AT_LANES_BINS }, { 1, 32, AT_LANES_BINS },
	{ 0, 32, 1 }, { 0, 32, 64 }, { 0, 1, 32 }, { 0, 4, 256 }, { 1, 1, 32 },
};

static int lanes_enumerate(struct gm_case *out, int max, int k)
{
	struct gm_case scratch;

	for (size_t j = 0; j < sizeof(lanes) / sizeof(lanes[0]); j++, k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		int few = lanes[j].bins != AT_LANES_BINS;
		char desc[160];
		snprintf(desc, sizeof(desc), "atomicAdd(&bins[(i / %d) %% %d], x): %d lanes of a warp an address, %s, %s",
			 lanes[j].r, lanes[j].bins, lanes[j].r, few ? "all warps on these bins, 2^20 elements" :
			 "every warp on its own bins", lanes[j].is_float ? "float" : "uint32");
		if (few)
			gm_case_begin(c, &gm_family_atomics, AT_LANES, GM_KIND_MEASURE, 0, desc, "%s_few%d_lanes%02d",
				      lanes[j].is_float ? "f32" : "u32", lanes[j].bins, lanes[j].r);
		else
			gm_case_begin(c, &gm_family_atomics, AT_LANES, GM_KIND_MEASURE, 0, desc, "%s_lanes%02d",
				      lanes[j].is_float ? "f32" : "u32", lanes[j].r);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "mode", AT_LANES);
		gm_case_param_add(c, "float", lanes[j].is_float);
		gm_case_param_add(c, "elems", few ? AT_ELEMS_CAL : AT_ELEMS);
		gm_case_param_add(c, "r", lanes[j].r);
		gm_case_param_add(c, "bins", lanes[j].bins);
	}
	return k;
}

static int atomics_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int k = 0;

	for (int f = 0; f < 2; f++) {
		for (int m = 0; m < 3; m++, k++) {
			struct gm_case *c = gm_case_slot(out, max, k, &scratch);
			char desc[120];
			snprintf(desc, sizeof(desc), "%s, %s", modes[m].desc, f ? "float" : "uint32");
			gm_case_begin(c, &gm_family_atomics, m, GM_KIND_MEASURE, modes[m].quick && !f, desc, "%s_%s",
				      f ? "f32" : "u32", modes[m].label);
			gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
			gm_case_param_add(c, "mode", modes[m].mode);
			gm_case_param_add(c, "float", f);
			gm_case_param_add(c, "elems", AT_ELEMS);
		}
	}
	/* f32_one on 2^20 elements (1.8 ms a launch, not 29): the float rate as calibrate measures it (the trace's
	   rule X), in a twentieth of the time */
	struct gm_case *c = gm_case_slot(out, max, k++, &scratch);
	gm_case_begin(c, &gm_family_atomics, AT_ONE, GM_KIND_MEASURE, 0,
		      "atomicAdd per element, all on one global address, float, 2^20 elements (calibrate's)", "f32_one_1m");
	gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
	gm_case_param_add(c, "mode", AT_ONE);
	gm_case_param_add(c, "float", 1);
	gm_case_param_add(c, "elems", AT_ELEMS_CAL);
	return lanes_enumerate(out, max, k);
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void atomics_derive(struct gm_run_result *r)
{
	static const char *types[] = { "u32", "f32" };

	for (int f = 0; f < 2; f++) {
		for (int base = 0; base < 2; base++) {
			char bname[64], oname[64], dname[64];
			snprintf(bname, sizeof(bname), "atomics.%s_%s", types[f], base ? "spread" : "one");
			snprintf(oname, sizeof(oname), "atomics.%s_block", types[f]);
			double b = ok_value(r, bname), o = ok_value(r, oname);
			if (b <= 0 || o <= 0)
				continue;
			snprintf(dname, sizeof(dname), "atomics.speedup_%s_vs_%s", types[f], base ? "spread" : "one");
			struct gm_derived *x = gm_result_derive(r, "atomics", dname);
			if (!x)
				return;
			snprintf(x->quantity, sizeof(x->quantity), "speed-up");
			x->unit = GM_UNIT_RATIO;
			x->value = o / b;
			snprintf(x->how, sizeof(x->how), "time of %.48s / time of %.48s, same 2^24 elements", bname, oname);
		}
	}
}

const struct gm_family gm_family_atomics = {
	"atomics", "global atomicAdd on one or spread addresses vs warp + shared + one global atomic per block",
	atomics_enumerate, gm_atomics_ops, atomics_derive,
};
