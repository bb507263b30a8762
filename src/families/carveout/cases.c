/*
 * cases.c - the carveout family's case table: cudaFuncAttributePreferredSharedMemoryCarveout 0, 50 and
 * 100 % on a kernel whose block per SM re-reads a 48 KiB or 160 KiB working
 * set through L1. Unit: GB/s of words read. derive(): how much slower the
 * 160 KiB set is with the largest shared carve-out (smallest L1) than with
 * none. Kernels: src/families/carveout/carveout.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

static const int pcts[] = { 0, 50, 100 };
static const int wss[] = { 48, 160 };   /* KiB per SM */

static int carveout_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int k = 0;

	for (int w = 0; w < 2; w++) {
		for (int p = 0; p < 3; p++, k++) {
			char desc[120];
			struct gm_case *c = gm_case_slot(out, max, k, &scratch);
			snprintf(desc, sizeof(desc), "block per SM re-reads %d KiB 64 times, preferred carve-out %d %%",
				 wss[w], pcts[p]);
			gm_case_begin(c, &gm_family_carveout, p, GM_KIND_MEASURE, w == 1 && p != 1, desc,
				      "ws%03dk_c%03d", wss[w], pcts[p]);
			gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
			gm_case_param_add(c, "carveout_pct", pcts[p]);
			gm_case_param_add(c, "ws_bytes", (int64_t)wss[w] << 10);
		}
	}
	return k;
}

static void carveout_derive(struct gm_run_result *r)
{
	const struct gm_case_result *a = gm_result_find(r, "carveout.ws160k_c000");
	const struct gm_case_result *b = gm_result_find(r, "carveout.ws160k_c100");

	if (!a || !b || a->status != GM_CASE_OK || b->status != GM_CASE_OK || b->value.median <= 0)
		return;
	struct gm_derived *x = gm_result_derive(r, "carveout", "carveout.l1_loss");
	if (!x)
		return;
	snprintf(x->level, sizeof(x->level), "L1");
	snprintf(x->quantity, sizeof(x->quantity), "carve-out slowdown");
	x->unit = GM_UNIT_RATIO;
	x->value = a->value.median / b->value.median;
	snprintf(x->how, sizeof(x->how), "GB/s of carveout.ws160k_c000 / carveout.ws160k_c100 (160 KiB per SM)");
}

const struct gm_family gm_family_carveout = {
	"carveout", "preferred shared-memory carve-out 0/50/100 % and an L1-resident working set",
	carveout_enumerate, gm_carveout_ops, carveout_derive,
};
