/*
 * trace_fix_swap.c - rule swap_xy of the fix (docs/TRACE.md, "The fix"): a launch whose threadIdx.x runs along a
 * slow dimension (a column walk or a transposed access: `r = blockIdx.x * blockDim.x + threadIdx.x` on the rows,
 * `c = blockIdx.y * blockDim.y + threadIdx.y` on the columns; or, in a 3D launch, x on the planes and z on the
 * columns) is launched again with x and that dimension d (y or z: the one whose index moves the leader by the
 * fewest bytes) exchanged: the same blocks, threadIdx.x on the contiguous dimension. That moves every access of
 * the kernel at once (the loads, the stores, a stencil's taps), which a fix of the leader's pattern alone does
 * not: each global load and store whose map is linear in the launch's x and d (tx + bx * bdx, td + bd * bdd) is
 * priced by the launch model with its two strides exchanged; the grid's x becomes ceil(D / bdx) and its d
 * ceil(X / bdd).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define SWAP_LEN 640
#define MAX_KEPT 0.1       /* the part of the global bytes an exchange may leave as they are (not linear in x, y) */
#define SAME_SECTORS 0.1   /* a gather's measured sectors a request within this of a re-mapped access of its line */

/* the map's strides on the launch's x (tx + bx * bdx) and dimension d (1: y, 2: z; td + bd * bdd); -1 when it is
   not linear in them */
static int xd_strides(const struct gm_trace_map *m, int d, const int block[3], const int64_t grid[3], int64_t *sx,
		      int64_t *sd)
{
	int64_t s[4] = { 0, 0, 0, 0 };   /* tx, td, bx, bd */
	int seen[4] = { 0, 0, 0, 0 };

	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *e = &m->mode[i];
		int v = e->var == GM_TV_TX ? 0 : e->var == GM_TV_TX + d ? 1 : e->var == GM_TV_BX ? 2 :
			e->var == GM_TV_BX + d ? 3 : -1;
		if (v < 0 || e->stride == 0)
			continue;
		int64_t range = v == 0 ? block[0] : v == 1 ? block[d] : v == 2 ? grid[0] : grid[d];
		if (e->div != 1 || (e->size && e->size < range) || seen[v])
			return -1;
		seen[v] = 1;
		s[v] = e->stride;
	}
	if (block[0] == 1 && !seen[0])
		s[0] = s[2];   /* a block one thread wide: x is blockIdx.x alone */
	if ((grid[0] > 1 && s[2] != s[0] * block[0]) || (grid[d] > 1 && s[3] != s[1] * block[d]))
		return -1;
	*sx = s[0], *sd = s[1];
	return 0;
}

/* the text of one variable of the original launch in the exchanged one's 1D form (block b, grid g2: blockIdx.x
   the linear block number; x exchanged with dimension d): the old x is the new d, the old d the new x, the third
   dimension as it was; NULL where it has none */
static const char *var_swapped(int var, int d, const int b[3], const int64_t g2[3], char *buf, size_t n)
{
	char c[3][96];   /* the new launch's global coordinate of each dimension */

	snprintf(c[0], sizeof(c[0]), "((bx %% %lld) * %d + tx)", (long long)g2[0], b[0]);
	snprintf(c[1], sizeof(c[1]), "((bx / %lld %% %lld) * %d + ty)", (long long)g2[0], (long long)g2[1], b[1]);
	snprintf(c[2], sizeof(c[2]), "((bx / %lld) * %d + tz)", (long long)(g2[0] * g2[1]), b[2]);
	if (var < GM_TV_TX || var > GM_TV_BZ)
		return NULL;
	int dim = var % 3, blk = var >= GM_TV_BX, from = dim == 0 ? d : dim == d ? 0 : dim;
	if (from == dim) {   /* the dimension the exchange leaves: its own thread and block index */
		static const char *const t[3] = { "tx", "ty", "tz" };
		if (!blk)
			snprintf(buf, n, "%s", t[dim]);
		else if (dim == 1)
			snprintf(buf, n, "(bx / %lld %% %lld)", (long long)g2[0], (long long)g2[1]);
		else
			snprintf(buf, n, "(bx / %lld)", (long long)(g2[0] * g2[1]));
		return buf;
	}
	snprintf(buf, n, blk ? "(%s / %d)" : "(%s %% %d)", c[from], b[dim]);
	return buf;
}

/* the text of one variable of the original launch (blocks b) in the reshaped one's 1D form (blocks b2, grid g2:
   the same global coordinates, the block's x and d exchanged; `tid` the thread in its block, which both shapes
   number alike): the variable taken from its dimension's global coordinate */
static const char *var_reshaped(int var, const int b[3], const int b2[3], const int64_t g2[3], char *buf, size_t n)
{
	char c[96];
	int dim = var % 3;

	if (var < GM_TV_TX || var > GM_TV_BZ)
		return NULL;
	if (dim == 0)
		snprintf(c, sizeof(c), "((bx %% %lld) * %d + tid %% %d)", (long long)g2[0], b2[0], b2[0]);
	else if (dim == 1)
		snprintf(c, sizeof(c), "((bx / %lld %% %lld) * %d + tid / %d %% %d)", (long long)g2[0], (long long)g2[1],
			 b2[1], b2[0], b2[1]);
	else
		snprintf(c, sizeof(c), "((bx / %lld) * %d + tid / %d)", (long long)(g2[0] * g2[1]), b2[2], b2[0] * b2[1]);
	snprintf(buf, n, var >= GM_TV_BX ? "(%s / %d)" : "(%s %% %d)", c, b[dim]);
	return buf;
}

/* the map with the launch's x and dimension d exchanged, as a 1D expression for the grid g2 (the loop's modes left to the
   repeat, as the fit's expr1d); -1 where a mode's variable has no place in it */
static int swapped_expr(const struct gm_trace_map *m, int d, const int b[3], const int b2[3], const int64_t g2[3],
			char *out, size_t n)
{
	size_t len = 0;
	char v[200];

	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *e = &m->mode[i];
		if (e->var == GM_TV_ITER || e->stride == 0)
			continue;
		if (!(b2 ? var_reshaped(e->var, b, b2, g2, v, sizeof(v)) : var_swapped(e->var, d, b, g2, v, sizeof(v))))
			return -1;
		int k = snprintf(out + len, n - len, "%s(%s / %lld", len ? (e->stride < 0 ? " - " : " + ") :
				 e->stride < 0 ? "-" : "", v, (long long)e->div);
		if (k > 0 && (size_t)k < n - len && e->size)
			k += snprintf(out + len + k, n - len - k, " %% %lld", (long long)e->size);
		if (k > 0 && (size_t)k < n - len)
			k += snprintf(out + len + k, n - len - k, ")*%lld", (long long)(e->stride < 0 ? -e->stride : e->stride));
		if (k < 0 || (size_t)k >= n - len)
			return -1;
		len += (size_t)k;
	}
	int k = snprintf(out + len, n - len, len ? " %c %lld" : "%c%lld", m->offset < 0 ? '-' : '+',
			 (long long)(m->offset < 0 ? -m->offset : m->offset));
	return k < 0 || (size_t)k >= n - len ? -1 : 0;
}

/* the dimension (1: y, 2: z) whose exchange with x makes the leader's map consecutive in x: a block of two
   threads or more on it, the map linear in x and in it, its stride on it below its stride on x (the smallest such,
   the contiguous one; y on a tie); 0 where none */
static int swap_dim(const struct gm_trace_launch *l, const struct gm_trace_map *m)
{
	int best = 0;
	int64_t sx, sd, bs = 0;

	for (int d = 1; d <= 2 && l->block[0] > 1; d++)
		if (l->block[d] > 1 && !xd_strides(m, d, l->block, l->grid, &sx, &sd) && sd &&
		    (!sx || llabs(sd) < llabs(sx)) && (!best || llabs(sd) < bs))
			best = d, bs = llabs(sd);
	return best;
}

/* a block one thread wide in x (dim3(1, 256)): the dimension d (y, or z where y is 1) whose threads make the
   warps, the leader's map linear in x and d with x the contiguous one (a stride on x, below the one on d): its
   warps' lanes walk d while x is consecutive; 0 where not */
static int reshape_dim(const struct gm_trace_launch *l, const struct gm_trace_map *m)
{
	int64_t sx, sd;
	int d = l->block[1] > 1 ? 1 : 2;

	if (l->block[0] != 1 || l->block[d] < 2 || xd_strides(m, d, l->block, l->grid, &sx, &sd) || !sx || !sd ||
	    llabs(sx) >= llabs(sd))
		return 0;
	return d;
}

int tf_swap_xy(const struct gm_trace_kernel *k, int lead, struct tk_swap *sw, int *nsw, int max, int *dim, int *reshape)
{
	static char text[GM_TRACE_MAX_INSNS][SWAP_LEN];
	const struct gm_trace_launch *l = k->l;
	const struct gm_trace_insn *x = &k->ins[lead];
	int cand = x->in->space == GM_TS_GLOBAL && x->fit.map.known &&
		   (x->fit.cls == GM_TC_TRANSPOSED || x->fit.cls == GM_TC_COLUMN);
	int d = cand ? swap_dim(l, &x->fit.map) : 0, rs = !d && cand ? reshape_dim(l, &x->fit.map) : 0, b2[3];
	int64_t sx, sd, g2[3];

	*nsw = 0;
	*reshape = rs > 0;
	d = rs ? rs : d;
	*dim = d;
	if (!d)
		return -1;   /* not a launch whose leader the exchange makes consecutive in x */
	int64_t X = (int64_t)l->block[0] * l->grid[0], D = (int64_t)l->block[d] * l->grid[d];
	memcpy(b2, l->block, sizeof(b2));
	if (rs)   /* the block's x and d exchanged, the same coordinates: the new x covers X in blocks of bdd, d
		     one thread wide */
		b2[0] = l->block[d], b2[d] = 1;
	for (int j = 0; j < 3; j++)   /* the same blocks: the new x covers the old d's extent, the new d the old x's */
		g2[j] = rs ? (j == 0 ? (X + b2[0] - 1) / b2[0] : j == d ? D : l->grid[j]) :
			j == 0 ? (D + l->block[0] - 1) / l->block[0] : j == d ? (X + l->block[d] - 1) / l->block[d] : l->grid[j];
	int64_t threads = g2[0] * g2[1] * g2[2] * l->block[0] * l->block[1] * l->block[2];
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
		for (int q = 0; q < y->fit.map.nmodes; q++) {
			int v = y->fit.map.mode[q].var;
			moves |= y->fit.map.mode[q].stride && (v == GM_TV_TX || v == GM_TV_BX || v == GM_TV_TX + d ||
							       v == GM_TV_BX + d);
		}
		if (!moves)
			continue;   /* a broadcast, or a walk of the loop alone: the exchange leaves it as it is */
		/* an access whose lanes were consecutive that the change scatters (a transpose's other side) */
		scatters += !xd_strides(&y->fit.map, d, l->block, l->grid, &sx, &sd) && sx && sd &&
			    (rs ? llabs(sd) < llabs(sx) : llabs(sx) < llabs(sd));
		if (swapped_expr(&y->fit.map, d, l->block, rs ? b2 : NULL, g2, text[i], SWAP_LEN)) {
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
