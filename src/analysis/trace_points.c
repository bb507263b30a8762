/*
 * trace_points.c - the sampled lanes of an instruction as points of the fit
 * (their ids and element index from a 256 B aligned base), the base moved so
 * no thread's index is negative, a fitted map evaluated, and an instruction's
 * sampled address range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

void tf_vars_of(const struct gm_trace_launch *l, const struct gm_trace_sample *s, int lane, int64_t v[GM_TV_N])
{
	int64_t tid = (int64_t)s->warp * GM_WARP_SIZE + lane, bdx = l->block[0], bdy = l->block[1];
	int64_t tpb = bdx * bdy * l->block[2];
	int64_t B = s->block[0] + l->grid[0] * (s->block[1] + l->grid[1] * (int64_t)s->block[2]);

	v[GM_TV_TX] = tid % bdx;
	v[GM_TV_TY] = tid / bdx % bdy;
	v[GM_TV_TZ] = tid / (bdx * bdy);
	v[GM_TV_BX] = s->block[0];
	v[GM_TV_BY] = s->block[1];
	v[GM_TV_BZ] = s->block[2];
	v[GM_TV_ITER] = s->iter;
	v[GM_TV_GID] = B * tpb + tid;
}

int tf_points(const struct gm_trace_launch *l, const struct gm_trace_instr *in, int iters, struct tf_set *s,
	      char *why, size_t n)
{
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2], lo = INT64_MAX, hi = 0;
	int cap = 0;

	memset(s, 0, sizeof(*s));
	s->elem = in->size;
	s->grid_1d = l->grid[1] == 1 && l->grid[2] == 1;
	s->shared = in->space == GM_TS_SHARED;
	for (int k = 0; k < 3; k++)
		s->range[GM_TV_TX + k] = l->block[k], s->range[GM_TV_BX + k] = l->grid[k];
	s->range[GM_TV_ITER] = iters > 0 ? iters : 1;
	s->range[GM_TV_GID] = tpb * l->grid[0] * l->grid[1] * l->grid[2];
	for (int i = 0; i < in->nsamples; i++)
		cap += __builtin_popcount(in->samples[i].have);
	if (!cap)
		return snprintf(why, n, "no sampled lane"), -1;
	if (!(s->p = calloc((size_t)cap, sizeof(*s->p))))
		return snprintf(why, n, "out of memory"), -1;
	for (int i = 0; i < in->nsamples; i++) {
		const struct gm_trace_sample *sm = &in->samples[i];
		for (int ln = 0; ln < GM_WARP_SIZE; ln++) {
			if (!(sm->have >> ln & 1) || (int64_t)sm->warp * 32 + ln >= tpb)
				continue;
			struct tf_pt *p = &s->p[s->n++];
			tf_vars_of(l, sm, ln, p->v);
			p->idx = sm->addr[ln];
			if (p->v[GM_TV_ITER] >= s->range[GM_TV_ITER])
				s->range[GM_TV_ITER] = p->v[GM_TV_ITER] + 1;
			lo = p->idx < lo ? p->idx : lo;
			hi = p->idx > hi ? p->idx : hi;
		}
	}
	if (!s->n)
		return snprintf(why, n, "no sampled lane inside the block"), -1;
	s->base = lo / 256 * 256;
	if ((hi - s->base) / s->elem > ((int64_t)1 << 50))
		return snprintf(why, n, "the lanes are spread over more than 2^50 elements"), -1;
	for (int i = 0; i < s->n; i++) {
		if ((s->p[i].idx - s->base) % s->elem)
			return snprintf(why, n, "an address is no multiple of the %d B access", s->elem), -1;
		s->p[i].idx = (s->p[i].idx - s->base) / s->elem;
	}
	return 0;
}

void tf_normalise(struct gm_trace_map *m, const int64_t range[GM_TV_N])
{
	int64_t lo = m->offset;

	for (int k = 0; k < m->nmodes; k++) {
		const struct gm_trace_mode *d = &m->mode[k];
		int64_t top = d->size ? d->size - 1 : (range[d->var] - 1) / d->div;
		if (d->stride < 0)
			lo += d->stride * top;
	}
	if (lo >= 0)
		return;
	int64_t bytes = (-lo * m->elem_bytes + 255) / 256 * 256;
	/* the base moves by whole 256 B; the offset takes it back in elements (256 is a multiple of 1, 2, 4,
	   8, 16; other sizes keep their residue in the base) */
	while (bytes % m->elem_bytes)
		bytes += 256;
	m->base -= bytes;
	m->offset += bytes / m->elem_bytes;
}

int64_t gm_trace_map_iter(const struct gm_trace_map *m, int64_t iter)
{
	if (m->niter_tab <= 0)
		return iter * m->iter_step;
	if (iter < m->niter_tab)
		return m->iter_tab[iter];
	return m->iter_tab[m->niter_tab - 1] + (iter - (m->niter_tab - 1)) * m->iter_step;
}

int64_t gm_trace_map_eval(const struct gm_trace_map *m, const int64_t v[GM_TV_N])
{
	int64_t x = m->offset + (m->niter_tab > 0 ? gm_trace_map_iter(m, v[GM_TV_ITER]) : 0);

	for (int k = 0; k < m->nmodes; k++) {
		const struct gm_trace_mode *d = &m->mode[k];
		int64_t q = v[d->var] / d->div;
		x += d->stride * (d->size ? q % d->size : q);
	}
	return x;
}

const char *tf_var_name(int var)
{
	static const char *const n[GM_TV_N] = { "tx", "ty", "tz", "bx", "by", "bz", "iter", "gid" };

	return var >= 0 && var < GM_TV_N ? n[var] : "?";
}

/* The instruction's sampled address range (bytes); 0 without samples. */
int tk_range_of(const struct gm_trace_instr *in, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MAX, *hi = INT64_MIN;
	for (int i = 0; i < in->nsamples; i++)
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (in->samples[i].have >> l & 1) {
				*lo = in->samples[i].addr[l] < *lo ? in->samples[i].addr[l] : *lo;
				*hi = in->samples[i].addr[l] > *hi ? in->samples[i].addr[l] : *hi;
			}
	return *hi >= *lo;
}
