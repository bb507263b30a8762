/*
 * trace_fix_blocks.c - rule fuller_blocks of the trace's fixes (docs/TRACE.md, "The fix", rule FB): a kernel the
 * launch model finds limited by block starts (rule T4) whose blocks are small (under FB_THREADS threads, a warp or
 * two) and whose accesses the widening rule cannot widen (already 16 B a thread, or a record): the same threads in
 * blocks of FB_THREADS (the grid FB_THREADS / blockDim times shorter), each thread on the same elements. Only for a
 * 1D launch whose every fitted index is the thread's global id alone (`gid`, plus a constant: the index does not
 * change with the block's shape). Priced by the launch model at the new shape: the measured time over it (at least
 * the issue floor).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define FB_THREADS 256

/* 1 where the index is gid and constants only (no thread, block or block-size id of its own) */
static int gid_only(const struct gm_trace_insn *x)
{
	static const char *const ids[] = { "tx", "ty", "tz", "bx", "by", "bz", "bd", "lane", "warp", "tid" };
	const char *e = x->fit.expr1d;

	if (!x->fit.map.known || x->fit.approx || !e[0] || !strstr(e, "gid") || x->fit.iters > 1)
		return 0;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (strstr(e, ids[i]))
			return 0;
	return 1;
}

/* the speedup of the launch in blocks of FB_THREADS (0: not priced); *m the blocks merged into one */
double tk_fuller_blocks(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *m)
{
	const struct gm_trace_launch *l = k->l;
	struct gm_launch_out o;
	char why[200];

	*m = 0;
	if (!prof || !k->pred_ok || !k->pred.limited_by || strcmp(k->pred.limited_by, "blocks") || !(k->time_ms > 0) ||
	    l->grid[1] != 1 || l->grid[2] != 1 || l->block[1] != 1 || l->block[2] != 1 || l->block[0] <= 0 ||
	    l->block[0] >= FB_THREADS || FB_THREADS % l->block[0] || k->nins < 1)
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->executions > 0 && !gid_only(&k->ins[i]))
			return 0;
	struct gm_trace_launch l2 = *l;
	struct gm_trace_kernel k2 = *k;
	*m = FB_THREADS / l->block[0];
	l2.block[0] = FB_THREADS;
	l2.grid[0] = (l->grid[0] + *m - 1) / *m;
	k2.l = &l2;
	if (tk_predict(&k2, prof, -1, NULL, 0, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return *m = 0, 0;
	return k->time_ms / fmax(o.time_ms, tk_floor_free_ms(k, prof, 1));
}

int tf_fuller_blocks(struct gm_trace_kernel *k, const struct gm_profile *prof, int lead)
{
	int m;
	double s = tk_fuller_blocks(k, prof, &m);

	if (s < GM_TRACE_WORTH || lead < 0 || lead >= k->nins)
		return 0;
	const struct gm_trace_launch *l = k->l;
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, k->nins, s);
	snprintf(fx->rewrite, sizeof(fx->rewrite), "fuller_blocks");
	snprintf(fx->change, sizeof(fx->change), "the same threads in blocks of %d: %lld blocks of %d threads -> %lld",
		 FB_THREADS, (long long)l->grid[0], l->block[0], (long long)((l->grid[0] + m - 1) / m));
	snprintf(fx->words, sizeof(fx->words), "the launch is limited by how fast the SMs start its %lld blocks of %d "
		 "threads (rule T4; an SM holds few blocks at once, so small blocks leave it half empty), and its "
		 "accesses are already wide: launch blocks of %d threads (the index is the thread's global id, so "
		 "the work of each thread stays the same)", (long long)l->grid[0], l->block[0], FB_THREADS);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: kernel<<<(n + %d) / %d, %d>>>(...)\n"
		 "kernel<<<(n + %d) / %d, %d>>>(...);   // the same i = blockIdx.x * blockDim.x + threadIdx.x",
		 l->block[0] - 1, l->block[0], l->block[0], FB_THREADS - 1, FB_THREADS, FB_THREADS);
	for (int i = 0; i < k->nins; i++)
		if (i != lead)
			k->ins[i].fix.same_as = lead + 1;
	return 1;
}
