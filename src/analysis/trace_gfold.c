/*
 * trace_gfold.c - rule G, unfitted instructions whose lanes hit the same sectors (docs/TRACE.md, "The kernel's
 * prediction"): the fields of one record loaded one by one (a packed, misaligned struct's 4-byte or 1-byte
 * loads) that no map of the ids fits stay gathers, each with its own stand-in. They are one access of the
 * record: the same warps' lanes within a sector of each other. And an unfitted load at one fixed distance from
 * an earlier load computes its address: it does not end rule R2's run as a data gather does.
 */
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

/*
 * Rule G's second part, an unfitted load whose address is computed (docs/TRACE.md, "The kernel's prediction"):
 * 1 when b, an unfitted global load, reads at one fixed distance from a's lanes (a: any global load): in every
 * warp sampled by both (the same block, warp and loop iteration), every lane active in both at the same
 * distance, one distance for them all, over at least two such warps. A data gather's address is what an
 * earlier load returned and differs from lane to lane; b's is a's plus a constant, known when a's was (a
 * bilinear sample's neighbours, a loop's unrolled pieces that no map of the ids fits), so b waits for nothing
 * a did not.
 */
int tk_fixed_offset(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_instr *x = a->in, *y = b->in;
	int64_t d = 0;
	int matched = 0;

	if (!b->fit.approx || x->space != GM_TS_GLOBAL || y->space != GM_TS_GLOBAL || x->op != GM_TO_LOAD ||
	    y->op != GM_TO_LOAD)
		return 0;
	for (int p = 0; p < x->nsamples; p++) {
		const struct gm_trace_sample *s = &x->samples[p], *t = twin(y, s);
		int lanes = 0;
		for (int l = 0; t && l < GM_WARP_SIZE; l++) {
			if (!(s->have >> l & 1) || !(t->have >> l & 1))
				continue;
			d = matched || lanes ? d : t->addr[l] - s->addr[l];
			if (t->addr[l] - s->addr[l] != d)
				return 0;
			lanes++;
		}
		matched += lanes > 0;
	}
	return matched >= 2;
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
