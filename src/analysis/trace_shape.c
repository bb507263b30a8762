/*
 * trace_shape.c - the launch's shape in the verdict (docs/TRACE.md, "The launch's shape"): a 1D block of more
 * threads than the row it works on has elements. The global instruction with the most traffic whose fitted map
 * moves one element a thread in x and a row of R elements a block, R under the block's threads, while the lanes
 * it measured active (thread accesses over its warp executions x 32) leave a tenth or more idle: the block's
 * threads past R wait at each of its steps. The score is the idle lanes' share; the words name the row, the
 * idle threads and, where the kernel has shared accesses (a block reduction), the barriers a warp a row avoids.
 * Not priced: the warp-a-row rewrite changes the reduction, which the launch model sees only as its barriers.
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define IDLE_MIN 0.1

double tk_idle_lanes(const struct gm_trace_kernel *k, char *text, size_t n, int *ins)
{
	const struct gm_trace_launch *l = k->l;
	int tpb = l->block[0], best = -1, shared = 0;
	int64_t row = 0;
	double idle = 0;
	char w[128];

	*ins = -1;
	if (l->block[1] != 1 || l->block[2] != 1 || tpb < 64)
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		const struct gm_trace_map *m = &x->fit.map;
		int64_t v[GM_TV_N] = { 0 };
		shared |= x->in->space == GM_TS_SHARED;
		if (x->in->space != GM_TS_GLOBAL || !m->known || x->fit.approx || !(x->in->executions > 0) ||
		    !(x->in->thread_accesses > 0) || (best >= 0 && x->bytes <= k->ins[best].bytes))
			continue;
		int64_t i0 = gm_trace_map_eval(m, v);
		v[GM_TV_TX] = 1;
		int64_t sx = gm_trace_map_eval(m, v) - i0;
		v[GM_TV_TX] = 0, v[GM_TV_BX] = 1;
		int64_t sb = gm_trace_map_eval(m, v) - i0;
		double used = x->in->thread_accesses / (x->in->executions * GM_WARP_SIZE);
		if (sx != 1 || sb <= 0 || sb >= tpb || 1 - used < IDLE_MIN)
			continue;
		best = i, row = sb, idle = 1 - used;
	}
	if (best < 0)
		return 0;
	*ins = best;
	gm_trace_where(k->ins[best].in, 40, w, sizeof(w));
	snprintf(text, n, "idle lanes: blocks of %d threads on rows of %lld elements (the %s at %s): %lld threads "
		 "a block idle (%.0f %% of the lanes)%s: a warp a row (lanes on l, l + 32, ...), several rows a block",
		 tpb, (long long)row, gm_trace_op_name(k->ins[best].in->op), w, (long long)(tpb - row), 100 * idle,
		 shared ? ", the row's reductions through shared memory and barriers" : "");
	return idle;
}
