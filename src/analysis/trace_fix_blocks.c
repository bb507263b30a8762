/*
 * trace_fix_blocks.c - rule fuller_blocks of the trace's fixes (docs/TRACE.md, "The fix", rule FB): a kernel the
 * launch model finds limited by block starts (rule T4) whose blocks are small (under FB_THREADS threads, a warp or
 * two) and whose accesses the widening rule cannot widen (already 16 B a thread, or a record): the same threads in
 * blocks of FB_THREADS (the grid FB_THREADS / blockDim times shorter), each thread on the same elements. Only for a
 * 1D launch whose every fitted index is the thread's global id alone (`gid`, plus a constant: the index does not
 * change with the block's shape); in blocks of one thread the fit names that id bx (threadIdx.x is always 0), which
 * is read as gid (f82). Priced by the launch model at the new shape: the measured time over it (at least the issue
 * floor, its warps' instructions fewer where the old blocks left lanes idle: a block of one thread is a warp).
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

/*
 * Blocks of one thread: threadIdx.x is always 0, so the fit names the thread's global id blockIdx.x (`bx`, every
 * warp one live lane, read as a broadcast). The map of bx (and constants) alone is the global id's: written as
 * gid into e[] (the relaunch's index, which the launch model reads at the new shape). 1 where it is.
 */
static int bx_as_gid(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, char *e, size_t n)
{
	struct gm_trace_map m = x->fit.map;
	int nm = 0;

	if (k->l->block[0] != 1 || !m.known || x->fit.approx || x->fit.iters > 1 || m.iter_step || m.niter_tab)
		return 0;
	for (int q = 0; q < m.nmodes; q++) {
		if (m.mode[q].var == GM_TV_TX)   /* always 0 */
			continue;
		if (m.mode[q].var != GM_TV_BX || m.mode[q].div != 1 ||
		    (m.mode[q].size && m.mode[q].size < k->l->grid[0]))
			return 0;
		m.mode[nm] = m.mode[q];
		m.mode[nm++].var = GM_TV_GID;
	}
	m.nmodes = nm;
	return nm == 1 && gm_trace_map_expr(&m, k->l->block, k->l->grid, 1, 0, e, n) >= 0;
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
	static char ex[GM_TRACE_MAX_INSNS][80];
	static struct tk_swap sw[GM_TRACE_MAX_INSNS];
	int nsw = 0;
	for (int i = 0; i < k->nins && i < GM_TRACE_MAX_INSNS; i++) {
		if (k->ins[i].in->executions <= 0 || gid_only(&k->ins[i]))
			continue;
		if (!bx_as_gid(k, &k->ins[i], ex[nsw], sizeof(ex[nsw])))
			return 0;
		sw[nsw] = (struct tk_swap){ i, ex[nsw], 1, 0, 0 };
		nsw++;
	}
	struct gm_trace_launch l2 = *l;
	struct gm_trace_kernel k2 = *k;
	*m = FB_THREADS / l->block[0];
	l2.block[0] = FB_THREADS;
	l2.grid[0] = (l->grid[0] + *m - 1) / *m;
	k2.l = &l2;
	if (tk_predict(&k2, prof, -1, nsw ? sw : NULL, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return *m = 0, 0;
	/* blocks under a warp leave lanes idle: the new blocks' warps are fewer, and so are the instructions issued */
	double w0 = (double)l->grid[0] * ((l->block[0] + 31) / 32), w1 = (double)l2.grid[0] * (FB_THREADS / 32);
	return k->time_ms / fmax(o.time_ms, tk_floor_free_ms(k, prof, w0 / w1));
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
