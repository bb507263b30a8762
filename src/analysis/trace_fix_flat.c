/*
 * trace_fix_flat.c - rule flat_grid of the trace's fixes (docs/TRACE.md, "The launch's shape"): a 1D block of more
 * threads than the row it works on (trace_shape.c's idle lanes: a block a row of R elements, R under the block's
 * threads) relaunched as a flat grid, a thread an element of the rows laid end to end: the same block size, R x
 * blocks threads, each access's index a_tx * (gid % R) + a_bx * (gid / R) + c in place of a_tx * tx + a_bx * bx + c.
 * Only where every global access's fitted map is affine in tx and bx alone (no loop, no other id) and the kernel
 * has no shared access (a row's reduction through shared memory and barriers is warp_rows', not a flat grid's).
 * Priced by the launch model at the new shape: the measured time over it (at least the issue floor of the fewer
 * warps). Shaped on set 22's rowscale_block (development).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define FLAT_MAXG 64

/* the map's tx and bx strides and constant into a, 0 where it is not affine in tx and bx alone */
static int tx_bx_only(const struct gm_trace_map *m, int64_t row, int64_t a[3])
{
	int64_t v[GM_TV_N] = { 0 };

	a[2] = gm_trace_map_eval(m, v);
	for (int q = 0; q < GM_TV_N; q++) {
		memset(v, 0, sizeof(v));
		v[q] = 1;
		int64_t d = gm_trace_map_eval(m, v) - a[2];
		if (q == GM_TV_TX)
			a[0] = d;
		else if (q == GM_TV_BX)
			a[1] = d;
		else if (d)
			return 0;
	}
	memset(v, 0, sizeof(v));
	v[GM_TV_TX] = row - 1, v[GM_TV_BX] = 7;   /* affine, not modes that agree at 1 */
	return gm_trace_map_eval(m, v) == a[2] + a[0] * (row - 1) + a[1] * 7;
}

double tk_flat_grid(const struct gm_trace_kernel *k, const struct gm_profile *prof, int64_t *rowp, int *lead)
{
	static struct tk_swap sw[FLAT_MAXG];
	static char ex[FLAT_MAXG][96];
	const struct gm_trace_launch *l = k->l;
	struct gm_launch_out o;
	char text[400], why[200];
	int nsw = 0, at;
	int64_t v[GM_TV_N] = { 0 }, a[3];

	*rowp = 0, *lead = -1;
	if (!prof || !k->pred_ok || !(k->time_ms > 0) || l->grid[1] != 1 || l->grid[2] != 1 ||
	    !(tk_idle_lanes(k, text, sizeof(text), &at) > 0) || at < 0)
		return 0;
	const struct gm_trace_map *m0 = &k->ins[at].fit.map;
	int64_t i0 = gm_trace_map_eval(m0, v);
	v[GM_TV_BX] = 1;
	int64_t row = gm_trace_map_eval(m0, v) - i0, threads = row * l->grid[0];
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space == GM_TS_SHARED)
			return 0;
		if (!(x->in->executions > 0))
			continue;
		if (x->in->space != GM_TS_GLOBAL || !x->fit.map.known || x->fit.approx || x->fit.iters > 1 ||
		    nsw == FLAT_MAXG || !tx_bx_only(&x->fit.map, row, a))
			return 0;
		snprintf(ex[nsw], sizeof(ex[0]), "%lld*(gid %% %lld) + %lld*(gid / %lld) + %lld", (long long)a[0],
			 (long long)row, (long long)a[1], (long long)row, (long long)a[2]);
		sw[nsw] = (struct tk_swap){ .ins = i, .expr = ex[nsw], .iters = 1, .threads = threads };
		nsw++;
	}
	if (!nsw || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return 0;
	*rowp = row, *lead = at;
	return k->time_ms / fmax(o.time_ms, tk_floor_free_ms(k, prof, (double)k->threads / (double)threads));
}

int tf_flat_grid(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int64_t row;
	int at;
	double s = tk_flat_grid(k, prof, &row, &at);

	if (s < GM_TRACE_WORTH || at < 0)
		return 0;
	const struct gm_trace_launch *l = k->l;
	int tpb = l->block[0];
	long long n = (long long)row * l->grid[0];
	struct gm_trace_fix *fx = tf_whole_fix(k, at, k->nins, s);
	snprintf(fx->rewrite, sizeof(fx->rewrite), "flat_grid");
	snprintf(fx->change, sizeof(fx->change), "a thread an element of the rows laid end to end: %lld blocks of %d "
		 "threads (%lld of each idle) -> %lld", (long long)l->grid[0], tpb, (long long)(tpb - row),
		 (n + tpb - 1) / tpb);
	snprintf(fx->words, sizeof(fx->words), "each block of %d threads works on a row of %lld elements, so %lld of "
		 "its threads only wait: launch one thread an element of all the rows (r = i / %lld, c = i %% %lld), or "
		 "a warp a row with several rows a block", tpb, (long long)row, (long long)(tpb - row), (long long)row,
		 (long long)row);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: kernel<<<rows, %d>>>: r = blockIdx.x, c = threadIdx.x (c < %lld)\n"
		 "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		 "if (i < rows * %lld) { int r = i / %lld, c = i %% %lld; ... }   // kernel<<<(rows * %lld + %d) / %d, %d>>>",
		 tpb, (long long)row, (long long)row, (long long)row, (long long)row, (long long)row, tpb - 1, tpb, tpb);
	for (int i = 0; i < k->nins; i++)
		if (i != at)
			k->ins[i].fix.same_as = at + 1;
	return 1;
}
