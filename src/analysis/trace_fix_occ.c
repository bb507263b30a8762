/*
 * trace_fix_occ.c - rule OC's fix (docs/TRACE.md, "Occupancy"): a launch whose shared memory a block caps the
 * blocks an SM below what its threads and registers allow (trace_occupancy.c) reserves only what its shared
 * accesses use: a static array declared to the size the block indexes, no dynamic shared memory where the kernel
 * has no shared access. Priced by the launch model at the blocks an SM that size allows (k->occ.free_ms, the
 * kernel's prediction with that cap; trace_kernel.c), the saving off the measured time. The fix is put on the
 * shared instruction with the most wavefronts (the array's), else on the instruction with the most traffic: the
 * change itself is at the declaration or at the launch, which the trace does not see.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

int tf_occupancy(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	const struct gm_trace_occ *o = &k->occ;
	const struct gm_trace_launch *l = k->l;
	int lead = -1;

	(void)prof;
	if (k->occ_cap <= 0 || !k->pred_ok || !(o->free_ms > 0) || !k->norder)
		return -1;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->space == GM_TS_SHARED && (lead < 0 || k->ins[i].bytes > k->ins[lead].bytes))
			lead = i;
	lead = lead >= 0 ? lead : k->order[0];
	double tp = k->pred.time_ms, tm = k->time_ms, saved = tp - o->free_ms;
	double s = tm > 0 ? tm / fmax(tm - saved, o->free_ms) : tp / o->free_ms;
	if (s < GM_TRACE_WORTH)
		return -1;
	long long st = l->shared_static > 0 ? l->shared_static : 0, dyn = l->shared_dynamic > 0 ? l->shared_dynamic : 0;
	struct gm_trace_fix *fx = &k->ins[lead].fix;
	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = 1;
	fx->share = fmin(1, saved / tp);
	fx->pattern_speedup = fx->kernel_speedup = s;
	snprintf(fx->rewrite, sizeof(fx->rewrite), "shared_size");
	snprintf(fx->change, sizeof(fx->change), "a block reserves the %lld B of shared memory its accesses use, not "
		 "%lld B: %d blocks an SM instead of %d", (long long)o->smem_used, st + dyn, o->need_blocks, k->occ_cap);
	if (o->smem_used > 0)
		snprintf(fx->words, sizeof(fx->words), "the block reserves %lld B of shared memory (%lld static, %lld "
			 "dynamic) but its shared accesses reach only %lld B: size the array to what the block indexes "
			 "(and launch with no more dynamic shared memory than it reads) so that %d blocks an SM fit, not %d",
			 st + dyn, st, dyn, (long long)o->smem_used, o->need_blocks, k->occ_cap);
	else
		snprintf(fx->words, sizeof(fx->words), "the launch reserves %lld B of shared memory a block (%lld static, "
			 "%lld dynamic) that the kernel never accesses: drop it (the third launch argument, the unused "
			 "__shared__ array) so that %d blocks an SM fit, not %d", st + dyn, st, dyn, o->need_blocks, k->occ_cap);
	if (o->smem_used > 0)
		snprintf(fx->sketch, sizeof(fx->sketch), "__shared__ char tile[%lld];   // was %lld B: what the block's "
			 "accesses reach\nkernel<<<grid, block>>>(...);   // no dynamic shared memory it does not read",
			 (long long)o->smem_used, st + dyn);
	else
		snprintf(fx->sketch, sizeof(fx->sketch), "kernel<<<grid, block>>>(...);   // was <<<grid, block, %lld>>>: "
			 "the kernel reads no shared memory", dyn);
	return lead;
}
