/*
 * trace_gfold.c - rule G, unfitted instructions whose lanes hit the same sectors (docs/TRACE.md, "The kernel's
 * prediction"): the fields of one record loaded one by one (a packed, misaligned struct's 4-byte or 1-byte
 * loads) that no map of the ids fits stay gathers, each with its own stand-in. They are one access of the
 * record: the same warps' lanes within a sector of each other. And an unfitted load at one fixed distance from
 * an earlier load (or there but for lanes clamped at an edge) computes its address: it does not end rule R2's
 * run as a data gather does.
 */
#include <stdint.h>
#include <stdlib.h>
#include "analysis/trace_internal.h"

/* y's sample of s's warp: the same block, warp and loop iteration; NULL when y has none. */
static const struct gm_trace_sample *twin(const struct gm_trace_instr *y, const struct gm_trace_sample *s)
{
	for (int q = 0; q < y->nsamples; q++) {
		const struct gm_trace_sample *t = &y->samples[q];
		if (s->block[0] == t->block[0] && s->block[1] == t->block[1] && s->block[2] == t->block[2] &&
		    s->warp == t->warp && s->iter == t->iter)
			return t;
	}
	return NULL;
}

/*
 * 1 when b reads (writes) what a does, a sector apart at most: both unfitted global accesses of the same
 * operation, size and executions, and in every warp sampled by both (the same block, warp and loop iteration),
 * every lane active in both within 32 B of its address in a; at least one such warp.
 */
int tk_same_sectors(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_instr *x = a->in, *y = b->in;
	int matched = 0;

	if (!a->fit.approx || !b->fit.approx || x->space != GM_TS_GLOBAL || y->space != GM_TS_GLOBAL ||
	    x->op != y->op || x->size != y->size || x->executions != y->executions)
		return 0;
	for (int p = 0; p < x->nsamples; p++) {
		const struct gm_trace_sample *s = &x->samples[p], *t = twin(y, s);
		if (!t)
			continue;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if ((s->have >> l & 1) && (t->have >> l & 1) && llabs((long long)(t->addr[l] - s->addr[l])) >= 32)
				return 0;
		matched++;
	}
	return matched > 0;
}

/* qsort's order of distances */
static int cmp_i64(const void *p, const void *q)
{
	int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
	return (a > b) - (a < b);
}

/* The distance most of the lanes sampled by both x and y lie at (y's address less x's); 0 lanes: 0, *n 0. */
static int64_t common_distance(const struct gm_trace_instr *x, const struct gm_trace_instr *y, int *n)
{
	int64_t *d = malloc(sizeof(*d) * (size_t)(x->nsamples > 0 ? x->nsamples : 1) * GM_WARP_SIZE), best = 0;
	int m = 0, most = 0;

	for (int p = 0; d && p < x->nsamples; p++) {
		const struct gm_trace_sample *s = &x->samples[p], *t = twin(y, s);
		for (int l = 0; t && l < GM_WARP_SIZE; l++)
			if ((s->have >> l & 1) && (t->have >> l & 1))
				d[m++] = (int64_t)(t->addr[l] - s->addr[l]);
	}
	if (d && m)
		qsort(d, (size_t)m, sizeof(*d), cmp_i64);
	for (int i = 0, j; i < m; i = j) {
		for (j = i; j < m && d[j] == d[i]; j++)
			;
		if (j - i > most)
			most = j - i, best = d[i];
	}
	free(d);
	*n = m;
	return most * 2 > m ? best : 0;
}

/*
 * Rule G's second part, an unfitted load whose address is computed (docs/TRACE.md, "The kernel's prediction"):
 * 1 when b, an unfitted global load, reads at one fixed distance from a's lanes (a: any global load): in every
 * warp sampled by both (the same block, warp and loop iteration), every lane active in both at the same
 * distance, one distance for them all, over at least two such warps. A data gather's address is what an
 * earlier load returned and differs from lane to lane; b's is a's plus a constant, known when a's was (a
 * bilinear sample's neighbours, a loop's unrolled pieces that no map of the ids fits), so b waits for nothing
 * a did not. A neighbour clamped at an edge (a stencil's `v[min(x + 1, NX - 1)]`, `v[max(z - 1, 0) * sz + ..]`,
 * which no map fits for its border lanes) is one too: the distance most lanes lie at, d, and every other lane
 * clamped, at a distance between 0 and d (toward a's lane, the same sign, shorter) and within a sector of the
 * bytes a's lanes of that warp read.
 */
int tk_fixed_offset(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_instr *x = a->in, *y = b->in;
	int matched = 0, all = 0, at_d = 0;

	if (!b->fit.approx || x->space != GM_TS_GLOBAL || y->space != GM_TS_GLOBAL || x->op != GM_TO_LOAD ||
	    y->op != GM_TO_LOAD)
		return 0;
	int64_t d = common_distance(x, y, &all);
	if (!all)
		return 0;
	for (int p = 0; p < x->nsamples; p++) {
		const struct gm_trace_sample *s = &x->samples[p], *t = twin(y, s);
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		int lanes = 0;
		for (int l = 0; t && l < GM_WARP_SIZE; l++)
			if (s->have >> l & 1) {
				lo = (int64_t)s->addr[l] < lo ? (int64_t)s->addr[l] : lo;
				hi = (int64_t)s->addr[l] > hi ? (int64_t)s->addr[l] : hi;
			}
		for (int l = 0; t && l < GM_WARP_SIZE; l++) {
			if (!(s->have >> l & 1) || !(t->have >> l & 1))
				continue;
			int64_t e = (int64_t)(t->addr[l] - s->addr[l]), at = (int64_t)t->addr[l];
			int clamped = (d > 0 ? e >= 0 && e < d : e <= 0 && e > d) && at >= lo - 32 && at < hi + x->size + 32;
			if (e != d && !clamped)
				return 0;
			at_d += e == d;
			lanes++;
		}
		matched += lanes > 0;
	}
	return matched >= 2 && at_d * 2 > all;
}

/*
 * Folds each group of such accesses into its first one's pattern as readings of the same bytes (it2 = their
 * number, step2 = 0; the others -1), as rule M folds fitted walks read again: the record's sectors come from
 * DRAM once and its other fields hit in L1 (stores: the L2 merges the writes into the same lines).
 */
void tk_fold_gathers(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2)
{
	for (int i = 0; i < k->nins && i < GM_TRACE_MAX_INSNS; i++) {
		int m = 1, skip = 0;
		for (int q = 0; q < nsw; q++)
			skip |= sw[q].ins == i;
		if (it2[i] || skip || !k->ins[i].fit.approx)
			continue;
		for (int j = i + 1; j < k->nins && j < GM_TRACE_MAX_INSNS; j++) {
			int out = 0;
			for (int q = 0; q < nsw; q++)
				out |= sw[q].ins == j;
			if (!it2[j] && !out && tk_same_sectors(&k->ins[i], &k->ins[j]))
				it2[j] = -1, m++;
		}
		if (m > 1)
			it2[i] = m, step2[i] = 0;
	}
}
