/*
 * trace_prior.c - the strides of the ids a kernel's samples never varied
 * (docs/TRACE.md, "The prior"). A collector that samples warp 0 of evenly
 * spaced blocks leaves threadIdx.y at 0, and blockIdx.x at 0 when the spacing
 * is a multiple of gridDim.x: the fit then cannot measure their strides, and
 * a stride of 0 would tell the launch model that every block reads the same
 * elements. The stride is taken instead from, in order:
 *   threadIdx.y (.z): the spacing of the instruction's unrolled siblings (the
 *     same map at offsets d apart: rows of the tile, d = bdy * a_ty), else a
 *     loop over the tile's rows (iter step = bdy * a_ty, blockIdx.y's stride =
 *     step * iterations), else blockIdx.y's stride / bdy (y = by * bdy + ty);
 *   blockIdx.x (.y, .z): the extent of its block's tile along the first
 *     thread id whose extent is no other block id's stride (x = bx * bdx + tx,
 *     or a transposed tile's rows).
 * The offset takes back the ids' constant values, so every sampled lane is
 * still reproduced exactly; the report names the assumed ids.
 */
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

static int64_t stride_of(const struct gm_trace_map *m, int v)
{
	for (int k = 0; k < m->nmodes; k++)
		if (m->mode[k].var == v && m->mode[k].div == 1 && m->mode[k].size == 0)
			return m->mode[k].stride;
	return 0;
}

static void set_stride(struct gm_trace_map *m, int v, int64_t a)
{
	int k = 0;

	while (k < m->nmodes && !(m->mode[k].var == v && m->mode[k].div == 1 && m->mode[k].size == 0))
		k++;
	if (k == m->nmodes) {
		if (k == GM_TRACE_MODES)
			return;
		m->nmodes++;
	}
	m->mode[k] = (struct gm_trace_mode){ v, 1, 0, a };
	m->offset -= a * m->open_v0[v];
	m->assumed |= 1u << v;
}

static int same_modes(const struct gm_trace_map *a, const struct gm_trace_map *b)
{
	if (a->nmodes != b->nmodes || a->open != b->open)
		return 0;
	for (int k = 0; k < a->nmodes; k++)
		if (memcmp(&a->mode[k], &b->mode[k], sizeof(a->mode[k])))
			return 0;
	return 1;
}

#define SIB_MAX_ELEMS ((int64_t)1 << 26)   /* an unrolled tile's rows are closer than this; two arrays rarely */

/* Instructions of the same line with the same map but the offset, the offsets an arithmetic progression
   (an unrolled loop over the tile's rows): how many, and their spacing in elements (0: none). */
static void siblings(const struct gm_trace_kernel *k, int i, int *U, int64_t *d)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int64_t off[64], lo = INT64_MAX, hi = INT64_MIN;
	int n = 0;

	*U = 0;
	*d = 0;
	for (int j = 0; j < k->nins && n < 64; j++) {
		const struct gm_trace_insn *y = &k->ins[j];
		if (y->in->space != x->in->space || y->in->op != x->in->op || !y->fit.map.known ||
		    y->in->line != x->in->line || x->in->line <= 0 || y->in->size != x->in->size ||
		    !same_modes(&x->fit.map, &y->fit.map))
			continue;
		/* each map's offset counts from its own base: compare the addresses of element 0 */
		off[n] = ((y->fit.map.base + y->fit.map.offset * y->in->size) -
			  (x->fit.map.base + x->fit.map.offset * x->in->size)) / x->in->size;
		lo = off[n] < lo ? off[n] : lo;
		hi = off[n] > hi ? off[n] : hi;
		*d = tk_gcd64(*d, off[n++]);
	}
	if (n < 2 || !*d || hi - lo != *d * (n - 1) || hi - lo > SIB_MAX_ELEMS) {
		*d = 0;
		return;
	}
	*U = n;
}

static int taken(const int64_t a[GM_TV_N], int b, int64_t c)
{
	for (int v = GM_TV_BX; v <= GM_TV_BZ; v++)
		if (v != b && a[v] && (a[v] == c || a[v] == -c))
			return 1;
	return 0;
}

/* The open strides of instruction i's map (the others' maps are read as they were fitted). */
static void prior_one(const struct gm_trace_kernel *k, int i, struct gm_trace_map *m)
{
	const int *bd = k->l->block;
	int64_t a[GM_TV_N], it = k->ins[i].fit.iters, step = m->iter_step, d;
	unsigned open = m->open;
	int U;

	for (int v = 0; v < GM_TV_N; v++)
		a[v] = stride_of(m, v);
	siblings(k, i, &U, &d);
	for (int t = GM_TV_TY; t <= GM_TV_TZ; t++) {
		int b = t + 3, n = bd[t - GM_TV_TX];
		if (!(open >> t & 1))
			continue;
		if (U >= 2 && d && d % n == 0)
			a[t] = d / n;
		else if (!(open >> b & 1) && it > 1 && step && step % n == 0 && a[b] == step * it)
			a[t] = step / n;
		else if (!(open >> b & 1) && a[b] % n == 0)
			a[t] = a[b] / n;
		if (a[t])
			set_stride(m, t, a[t]);
	}
	for (int b = GM_TV_BX; b <= GM_TV_BZ; b++) {
		if (!(open >> b & 1))
			continue;
		for (int q = 0; q < 3; q++) {   /* its own thread id first, then the others */
			int t = GM_TV_TX + (b - GM_TV_BX + q) % 3, n = bd[t - GM_TV_TX];
			/* the unrolled siblings: rows of the tile, or pieces side by side along t (d = its extent) */
			int side = U > 1 && (t != GM_TV_TX || (d && (d == a[t] * n || d == -a[t] * n)));
			int64_t rows = (side ? U : 1) * (it > 1 && step && step == a[t] * n ? it : 1);
			int64_t c = a[t] * n * rows;
			if (!c || taken(a, b, c) || (open >> t & 1 && !(m->assumed >> t & 1)))
				continue;
			a[b] = c;
			set_stride(m, b, c);
			break;
		}
	}
}

void tf_priors(struct gm_trace_kernel *k)
{
	const struct gm_trace_launch *l = k->l;
	int64_t range[GM_TV_N];
	struct gm_trace_map *maps = calloc((size_t)(k->nins ? k->nins : 1), sizeof(*maps));

	if (!maps)
		return;
	for (int v = 0; v < 3; v++)
		range[GM_TV_TX + v] = l->block[v], range[GM_TV_BX + v] = l->grid[v];
	range[GM_TV_GID] = k->threads;
	for (int i = 0; i < k->nins; i++) {   /* every map from the fitted ones, then all replaced at once */
		maps[i] = k->ins[i].fit.map;
		if (maps[i].known && maps[i].open)
			prior_one(k, i, &maps[i]);
	}
	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_fit *f = &k->ins[i].fit;
		if (!maps[i].assumed)
			continue;
		range[GM_TV_ITER] = f->iters;
		f->map = maps[i];
		tf_normalise(&f->map, range);
		tf_finish(l, k->ins[i].in, f);
	}
	free(maps);
}
