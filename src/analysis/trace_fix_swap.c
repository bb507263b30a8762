/*
 * trace_fix_swap.c - rule swap_xy of the fix (docs/TRACE.md, "The fix"): a 2D launch whose threadIdx.x runs
 * along the slow dimension (a column walk or a transposed access: `r = blockIdx.x * blockDim.x + threadIdx.x`
 * on the rows, `c = blockIdx.y * blockDim.y + threadIdx.y` on the columns) is launched again with x and y
 * exchanged: the same blocks, threadIdx.x on the columns. That moves every access of the kernel at once (the
 * loads, the stores, a stencil's taps), which a fix of the leader's pattern alone does not: each global load and
 * store whose map is linear in the launch's x and y (tx + bx * bdx, ty + by * bdy) is priced by the launch model
 * with its two strides exchanged; the grid becomes (ceil(Y / bdx), ceil(X / bdy)).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define SWAP_LEN 640
#define MAX_KEPT 0.1       /* the part of the global bytes an exchange may leave as they are (not linear in x, y) */
#define SAME_SECTORS 0.1   /* a gather's measured sectors a request within this of a re-mapped access of its line */

/* the map's strides on the launch's x (tx + bx * bdx) and y (ty + by * bdy); -1 when it is not linear in them */
static int xy_strides(const struct gm_trace_map *m, const int block[3], const int64_t grid[3], int64_t *sx, int64_t *sy)
{
	int64_t s[4] = { 0, 0, 0, 0 };   /* tx, ty, bx, by */
	int seen[4] = { 0, 0, 0, 0 };

	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *d = &m->mode[i];
		int v = d->var == GM_TV_TX ? 0 : d->var == GM_TV_TY ? 1 : d->var == GM_TV_BX ? 2 : d->var == GM_TV_BY ? 3 : -1;
		if (v < 0 || d->stride == 0)
			continue;
		int64_t range = v < 2 ? block[v] : grid[v - 2];
		if (d->div != 1 || (d->size && d->size < range) || seen[v])
			return -1;
		seen[v] = 1;
		s[v] = d->stride;
	}
	if ((grid[0] > 1 && s[2] != s[0] * block[0]) || (grid[1] > 1 && s[3] != s[1] * block[1]))
		return -1;
	*sx = s[0], *sy = s[1];
	return 0;
}

/* the text of one variable of the original launch in the exchanged one's 1D form (block b, grid g2: blockIdx.x
   the linear block number): the old x is the new y, the old y the new x; NULL where it has none */
static const char *var_swapped(int var, const int b[3], const int64_t g2[3], char *buf, size_t n)
{
	char gx[96], gy[96];

	snprintf(gx, sizeof(gx), "((bx %% %lld) * %d + tx)", (long long)g2[0], b[0]);
	snprintf(gy, sizeof(gy), "((bx / %lld %% %lld) * %d + ty)", (long long)g2[0], (long long)g2[1], b[1]);
	switch (var) {
	case GM_TV_TX: snprintf(buf, n, "(%s %% %d)", gy, b[0]); break;
	case GM_TV_BX: snprintf(buf, n, "(%s / %d)", gy, b[0]); break;
	case GM_TV_TY: snprintf(buf, n, "(%s %% %d)", gx, b[1]); break;
	case GM_TV_BY: snprintf(buf, n, "(%s / %d)", gx, b[1]); break;
	case GM_TV_TZ: snprintf(buf, n, "tz"); break;
	case GM_TV_BZ: snprintf(buf, n, "(bx / %lld)", (long long)(g2[0] * g2[1])); break;
	default: return NULL;
	}
	return buf;
}

/* the map with the launch's x and y exchanged, as a 1D expression for the grid g2 (the loop's modes left to the
   repeat, as the fit's expr1d); -1 where a mode's variable has no place in it */
static int swapped_expr(const struct gm_trace_map *m, const int b[3], const int64_t g2[3], char *out, size_t n)
{
	size_t len = 0;
	char v[200];

	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *d = &m->mode[i];
		if (d->var == GM_TV_ITER || d->stride == 0)
			continue;
		if (!var_swapped(d->var, b, g2, v, sizeof(v)))
			return -1;
		int k = snprintf(out + len, n - len, "%s(%s / %lld", len ? (d->stride < 0 ? " - " : " + ") :
				 d->stride < 0 ? "-" : "", v, (long long)d->div);
		if (k > 0 && (size_t)k < n - len && d->size)
			k += snprintf(out + len + k, n - len - k, " %% %lld", (long long)d->size);
		if (k > 0 && (size_t)k < n - len)
			k += snprintf(out + len + k, n - len - k, ")*%lld", (long long)(d->stride < 0 ? -d->stride : d->stride));
		if (k < 0 || (size_t)k >= n - len)
			return -1;
		len += (size_t)k;
	}
	int k = snprintf(out + len, n - len, len ? " %c %lld" : "%c%lld", m->offset < 0 ? '-' : '+',
			 (long long)(m->offset < 0 ? -m->offset : m->offset));
	return k < 0 || (size_t)k >= n - len ? -1 : 0;
}

int tf_swap_xy(const struct gm_trace_kernel *k, int lead, struct tk_swap *sw, int *nsw, int max)
{
	static char text[GM_TRACE_MAX_INSNS][SWAP_LEN];
	const struct gm_trace_launch *l = k->l;
	const struct gm_trace_insn *x = &k->ins[lead];
	int64_t sx, sy, X = (int64_t)l->block[0] * l->grid[0], Y = (int64_t)l->block[1] * l->grid[1];
	int64_t g2[3] = { (Y + l->block[0] - 1) / l->block[0], (X + l->block[1] - 1) / l->block[1], l->grid[2] };
	int64_t threads = g2[0] * g2[1] * g2[2] * l->block[0] * l->block[1] * l->block[2];

	*nsw = 0;
	if (l->block[0] < 2 || l->block[1] < 2 || x->in->space != GM_TS_GLOBAL || !x->fit.map.known ||
	    (x->fit.cls != GM_TC_TRANSPOSED && x->fit.cls != GM_TC_COLUMN) ||
	    xy_strides(&x->fit.map, l->block, l->grid, &sx, &sy) || !sy || (sx && llabs(sy) >= llabs(sx)))
		return -1;   /* not a 2D launch whose leader the exchange makes consecutive in x */
	double glob = 0, kept = 0;
	int scatters = 0;   /* accesses consecutive in x before that the exchange scatters (a true transpose's) */
	for (int i = 0; i < k->nins && i < GM_TRACE_MAX_INSNS && *nsw < max; i++) {
		const struct gm_trace_insn *y = &k->ins[i];
		if (y->in->space != GM_TS_GLOBAL || (y->in->op != GM_TO_LOAD && y->in->op != GM_TO_STORE))
			continue;   /* shared memory and atomics stay as they are */
		glob += y->bytes;
		if (!y->fit.map.known || y->fit.approx)
			continue;   /* the data's gathers: below */
		int moves = 0;
		for (int q = 0; q < y->fit.map.nmodes; q++)
			moves |= y->fit.map.mode[q].stride && y->fit.map.mode[q].var <= GM_TV_BY &&
				  y->fit.map.mode[q].var != GM_TV_TZ;
		if (!moves)
			continue;   /* a broadcast, or a walk of the loop alone: the exchange leaves it as it is */
		scatters += !xy_strides(&y->fit.map, l->block, l->grid, &sx, &sy) && sx && sy && llabs(sx) < llabs(sy);
		if (swapped_expr(&y->fit.map, l->block, g2, text[i], SWAP_LEN)) {
			kept += y->bytes;   /* an access the exchange cannot re-map: as it is */
			continue;
		}
		sw[(*nsw)++] = (struct tk_swap){ i, text[i], y->fit.iters, y->fit.map.iter_step,
						 threads != k->threads ? threads : 0, 0, 1 };
	}
	if (kept > MAX_KEPT * glob)
		return -1;   /* too much of the kernel's traffic the exchange would leave unpriced */
	for (int i = 0, n0 = *nsw; i < k->nins && i < GM_TRACE_MAX_INSNS && *nsw < max; i++) {
		const struct gm_trace_insn *y = &k->ins[i];
		if (y->in->space != GM_TS_GLOBAL || (y->in->op != GM_TO_LOAD && y->in->op != GM_TO_STORE) ||
		    y->fit.map.known || y->fit.meas_per_req <= 0)
			continue;
		for (int q = 0; q < n0; q++) {   /* a tap no map fits (a clamped neighbour) beside a re-mapped one */
			const struct gm_trace_insn *z = &k->ins[sw[q].ins];
			if (z->in->line == y->in->line && z->in->op == y->in->op && z->in->size == y->in->size &&
			    fabs(z->fit.meas_per_req / y->fit.meas_per_req - 1) <= SAME_SECTORS) {
				sw[*nsw] = sw[q];
				sw[(*nsw)++].ins = i;
				break;
			}
		}
	}
	return *nsw ? scatters > 0 : -1;
}
