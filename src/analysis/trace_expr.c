/*
 * trace_expr.c - a fitted map (include/gpumem/trace.h) as index-expression
 * text in the variables `gpumem explain` parses: tx ty tz bx by bz gid, and
 * iter for the loop. The "1D" form is what the 1D launch model and `explain
 * --suggest` evaluate: blockIdx.y and .z come from the linear block number
 * (bx of a 1D grid of all the blocks).
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

static void var_text(int var, const int64_t grid[3], int one_d, char *buf, size_t n)
{
	int multi = grid[1] > 1 || grid[2] > 1;

	if (one_d && multi && var == GM_TV_BX)
		snprintf(buf, n, "(bx %% %lld)", (long long)grid[0]);
	else if (one_d && multi && var == GM_TV_BY)
		snprintf(buf, n, "(bx / %lld %% %lld)", (long long)grid[0], (long long)grid[1]);
	else if (one_d && multi && var == GM_TV_BZ)
		snprintf(buf, n, "(bx / %lld)", (long long)(grid[0] * grid[1]));
	else
		snprintf(buf, n, "%s", tf_var_name(var));
}

/* One mode as text without its sign: "(gid / 32 % 8)*768". */
static void mode_text(const struct gm_trace_mode *d, const int64_t grid[3], int one_d, char *buf, size_t n)
{
	char v[64], t[128];
	long long s = (long long)(d->stride < 0 ? -d->stride : d->stride);

	var_text(d->var, grid, one_d, v, sizeof(v));
	if (d->div == 1 && d->size == 0)
		snprintf(t, sizeof(t), "%s", v);
	else if (d->div == 1)
		snprintf(t, sizeof(t), "(%s %% %lld)", v, (long long)d->size);
	else if (d->size == 0)
		snprintf(t, sizeof(t), "(%s / %lld)", v, (long long)d->div);
	else
		snprintf(t, sizeof(t), "(%s / %lld %% %lld)", v, (long long)d->div, (long long)d->size);
	if (s == 1)
		snprintf(buf, n, "%s", t);
	else
		snprintf(buf, n, "%s*%lld", t, s);
}

/* 1D block and grid: tx*s + bx*(s*bdx) is gid*s. Returns the mode index of bx folded into tx's, or -1. */
static int gid_fold(const struct gm_trace_map *m, const int block[3], const int64_t grid[3], int *txm)
{
	if (block[1] != 1 || block[2] != 1 || grid[1] != 1 || grid[2] != 1)
		return -1;
	for (int i = 0; i < m->nmodes; i++) {
		const struct gm_trace_mode *a = &m->mode[i];
		if (a->var != GM_TV_TX || a->div != 1 || (a->size && a->size != block[0]))
			continue;
		for (int j = 0; j < m->nmodes; j++) {
			const struct gm_trace_mode *b = &m->mode[j];
			if (b->var == GM_TV_BX && b->div == 1 && b->size == 0 && b->stride == a->stride * block[0]) {
				*txm = i;
				return j;
			}
		}
	}
	return -1;
}

int gm_trace_map_expr(const struct gm_trace_map *m, const int block[3], const int64_t grid[3], int one_d,
		      int with_iter, char *out, size_t n)
{
	size_t len = 0;
	int txm = -1, bxm = gid_fold(m, block, grid, &txm), terms = 0;
	char t[160];

	out[0] = '\0';
	for (int i = 0; i < m->nmodes; i++) {
		struct gm_trace_mode d = m->mode[i];
		if (i == bxm || (d.var == GM_TV_ITER && !with_iter) || d.stride == 0)
			continue;
		if (i == txm)
			d.var = GM_TV_GID, d.size = 0;
		mode_text(&d, grid, one_d, t, sizeof(t));
		int k = snprintf(out + len, n - len, "%s%s", terms ? (d.stride < 0 ? " - " : " + ") :
				 d.stride < 0 ? "-" : "", t);
		if (k < 0 || (size_t)k >= n - len)
			return -1;
		len += (size_t)k;
		terms++;
	}
	if (m->offset || !terms) {
		int k = terms ? snprintf(out + len, n - len, " %c %lld", m->offset < 0 ? '-' : '+',
					 (long long)(m->offset < 0 ? -m->offset : m->offset)) :
				snprintf(out + len, n - len, "%lld", (long long)m->offset);
		if (k < 0 || (size_t)k >= n - len)
			return -1;
	}
	return 0;
}
