/*
 * cases.c - the local family's case table: a per-thread 32-word array indexed by data: in local memory
 * (v0) vs the same work kept in registers by full unrolling (v1). Unit: us
 * per launch (2^20 threads x 64 steps). Notes: the compiler's local bytes
 * and registers per thread. derive(): the local-memory slowdown.
 * Kernels: src/families/local/local.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

static int local_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;

	for (int k = 0; k < 2; k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		gm_case_begin(c, &gm_family_local, k, GM_KIND_MEASURE, 1,
			      k ? "same steps, array unrolled into registers (select over 32 registers)"
				: "32-word per-thread array indexed by data (local memory), 64 read-modify-writes",
			      "%s", k ? "v1_regs" : "v0_local");
		gm_case_measure(c, GM_UNIT_US, GM_TIME_EVENTS);
		gm_case_param_add(c, "regs", k);
		gm_case_param_add(c, "threads", LM_THREADS);
		gm_case_param_add(c, "elems", LM_ELEMS);
		gm_case_param_add(c, "iters", LM_ITERS);
	}
	return 2;
}

static void local_derive(struct gm_run_result *r)
{
	const struct gm_case_result *l = gm_result_find(r, "local.v0_local");
	const struct gm_case_result *g = gm_result_find(r, "local.v1_regs");

	if (!l || !g || l->status != GM_CASE_OK || g->status != GM_CASE_OK || g->value.median <= 0)
		return;
	struct gm_derived *x = gm_result_derive(r, "local", "local.slowdown");
	if (!x)
		return;
	snprintf(x->level, sizeof(x->level), "local");
	snprintf(x->quantity, sizeof(x->quantity), "slowdown");
	x->unit = GM_UNIT_RATIO;
	x->value = l->value.median / g->value.median;
	snprintf(x->how, sizeof(x->how), "time of local.v0_local / local.v1_regs, same 2^20 x 64 steps");
}

const struct gm_family gm_family_local = {
	"local", "a dynamically indexed per-thread array in local memory vs the same work in registers",
	local_enumerate, gm_local_ops, local_derive,
};
