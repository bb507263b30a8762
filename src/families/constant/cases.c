/*
 * cases.c - the constant family's case table: __constant__ reads with 1, 2, 4 ... 32 distinct addresses
 * per warp, against the same reads from global memory. Unit: ns per
 * warp-level load on one SM (launch time / warp loads per SM, 64 warps per
 * SM). derive(): the constant cache's cost per extra distinct address (least
 * squares slope over d) and how many times slower d = 32 is than d = 1.
 * Kernels: src/families/constant/constant.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

#define CN_ND 6

static int constant_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int k = 0;

	for (int g = 0; g < 2; g++) {
		for (int i = 0; i < CN_ND; i++, k++) {
			int d = 1 << i;
			char desc[120];
			struct gm_case *c = gm_case_slot(out, max, k, &scratch);
			snprintf(desc, sizeof(desc), "%s reads, %d distinct word%s (128 B apart) per warp",
				 g ? "global (default load)" : "__constant__", d, d > 1 ? "s" : "");
			gm_case_begin(c, &gm_family_constant, i, GM_KIND_MEASURE, (d == 1 || d == 32) && !g, desc,
				      "%s%02d", g ? "g" : "c", d);
			gm_case_measure(c, GM_UNIT_NS, GM_TIME_EVENTS);
			gm_case_param_add(c, "global", g);
			gm_case_param_add(c, "distinct", d);
			gm_case_param_add(c, "iters", CN_ITERS);
		}
	}
	return k;
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void constant_derive(struct gm_run_result *r)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, t1 = 0, t32 = 0;
	int m = 0;

	for (int i = 0; i < CN_ND; i++) {
		char name[32];
		int d = 1 << i;
		snprintf(name, sizeof(name), "constant.c%02d", d);
		double v = ok_value(r, name);
		if (v <= 0)
			continue;
		t1 = d == 1 ? v : t1;
		t32 = d == 32 ? v : t32;
		sx += d, sy += v, sxx += (double)d * d, sxy += d * v, m++;
	}
	if (m >= 2 && m * sxx - sx * sx > 0) {
		struct gm_derived *x = gm_result_derive(r, "constant", "constant.per_address");
		if (!x)
			return;
		snprintf(x->level, sizeof(x->level), "constant");
		snprintf(x->quantity, sizeof(x->quantity), "serialisation");
		x->unit = GM_UNIT_NS;
		x->value = (m * sxy - sx * sy) / (m * sxx - sx * sx);
		snprintf(x->how, sizeof(x->how),
			 "least-squares slope of constant.cDD (ns per warp load per SM) over d distinct addresses");
	}
	if (t1 > 0 && t32 > 0) {
		struct gm_derived *x = gm_result_derive(r, "constant", "constant.divergent_slowdown");
		if (!x)
			return;
		snprintf(x->level, sizeof(x->level), "constant");
		snprintf(x->quantity, sizeof(x->quantity), "slowdown");
		x->unit = GM_UNIT_RATIO;
		x->value = t32 / t1;
		snprintf(x->how, sizeof(x->how), "constant.c32 / constant.c01: 32 distinct addresses per warp vs one");
	}
}

const struct gm_family gm_family_constant = {
	"constant", "__constant__ reads with 1..32 distinct addresses per warp vs the same reads from global",
	constant_enumerate, gm_constant_ops, constant_derive,
};
