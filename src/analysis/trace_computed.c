/*
 * trace_computed.c - rule CS, a computed scatter (docs/TRACE.md, "The patterns"): a gather or scatter that no map
 * of the ids fits whose addresses can only be arithmetic on the thread's own index and the kernel's arguments,
 * because nothing that returns data comes before it: no load or atomic of any space at a lower SASS offset, no
 * lane-indexed __constant__ load in the kernel (a hash of the index, a permutation, a random number seeded by the
 * index). In a loop, each sampled lane's later iterations at one fixed step from its first (a probe sequence: a
 * loop whose next address came from memory would not keep one step). And an unfitted access whose every sampled
 * lane lies at one fixed distance from one of that lane's sampled addresses of such an instruction, at a lower
 * offset (another field of the record its probe ends on). Not the data's choice: the order the threads read in
 * is the program's, so the data can be laid out in that order (a table indexed by the thread's index, built
 * once), or the work sorted or partitioned by destination. Sets the instructions' `computed` and their words.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define CS_OWN 0.75   /* scattered: a request's sectors at least this share of its lanes (each lane its own sector) */
#define CS_WIDE 2.0   /* and at least this many times the sectors its bytes need */

/* returns data to the thread: a load or an atomic (a reduction returns nothing) */
static int returns_data(const struct gm_trace_instr *in)
{
	return in->op == GM_TO_LOAD || in->op == GM_TO_ATOMIC;
}

/* the sample of s's warp at iteration it (the same block and warp), NULL if none */
static const struct gm_trace_sample *at_iter(const struct gm_trace_instr *y, const struct gm_trace_sample *s, int it)
{
	for (int q = 0; q < y->nsamples; q++) {
		const struct gm_trace_sample *t = &y->samples[q];
		if (s->block[0] == t->block[0] && s->block[1] == t->block[1] && s->block[2] == t->block[2] &&
		    s->warp == t->warp && t->iter == it)
			return t;
	}
	return NULL;
}

/* An unfitted global load or store (not an atomic) that no map fits, the kernel's gather class. */
static int unfitted(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && (x->in->op == GM_TO_LOAD || x->in->op == GM_TO_STORE) &&
	       x->fit.cls == GM_TC_GATHER && !x->fit.map.known;
}

/*
 * 1 when every sampled lane of a later iteration is at iter x step from the same lane's first (iteration 0) address,
 * one step for all, over at least one lane; or when the instruction runs once a warp (no later iteration). 0 for a
 * loop without a later sampled iteration (nothing to check).
 */
static int fixed_step(const struct gm_trace_instr *in, double per_warp)
{
	int64_t step = 0;
	int seen = 0;

	for (int p = 0; p < in->nsamples; p++) {
		const struct gm_trace_sample *s = &in->samples[p], *z;
		if (s->iter <= 0)
			continue;
		if (!(z = at_iter(in, s, 0)))
			continue;
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(s->have >> l & 1) || !(z->have >> l & 1))
				continue;
			int64_t d = (int64_t)(s->addr[l] - z->addr[l]);
			if (d % s->iter)
				return 0;
			if (seen && d / s->iter != step)
				return 0;
			step = d / s->iter, seen = 1;
		}
	}
	return seen || per_warp < 1.05;
}

/* 1 when nothing before instruction i returns data to the thread (its address can only be computed). */
static int nothing_before(const struct gm_trace_kernel *k, int i)
{
	if (k->l->const_lane > 0)
		return 0;
	for (int j = 0; j < k->nins; j++)
		if (j != i && k->ins[j].in->pc < k->ins[i].in->pc && returns_data(k->ins[j].in))
			return 0;
	return 1;
}

/* 1 when b's lanes lie at distance d from one of the same lane's sampled addresses of a in the same warp (any of
   a's iterations): every lane b's samples give, but a lane still active in a's last sampled iteration of its warp
   (its probe may go on past the samples: not known), over at least two sampled warps and most of the lanes. */
static int beside_at(const struct gm_trace_instr *a, const struct gm_trace_instr *b, int64_t d)
{
	int warps = 0, lanes = 0, all = 0;

	for (int p = 0; p < b->nsamples; p++) {
		const struct gm_trace_sample *t = &b->samples[p];
		int here = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(t->have >> l & 1))
				continue;
			int found = 0, on = 0;
			for (int it = 0; !found && it < 64; it++) {
				const struct gm_trace_sample *s = at_iter(a, t, it);
				if (!s)
					break;
				on = (s->have >> l & 1) != 0;
				found = on && (int64_t)(t->addr[l] - s->addr[l]) == d;
			}
			if (!found && !on)
				return 0;
			all++, lanes += found, here += found;
		}
		warps += here > 0;
	}
	return warps >= 2 && 2 * lanes > all;
}

/* 1 when b's lanes lie at one distance from a's (beside_at), the candidates the first sampled lane's. */
static int beside(const struct gm_trace_instr *a, const struct gm_trace_instr *b)
{
	for (int p = 0; p < b->nsamples; p++) {
		const struct gm_trace_sample *t = &b->samples[p];
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(t->have >> l & 1))
				continue;
			for (int it = 0; it < 64; it++) {
				const struct gm_trace_sample *s = at_iter(a, t, it);
				if (!s)
					break;
				if ((s->have >> l & 1) && beside_at(a, b, (int64_t)(t->addr[l] - s->addr[l])))
					return 1;
			}
			return 0;
		}
	}
	return 0;
}

static void words(struct gm_trace_insn *x, const char *how)
{
	/* how is at most 79 bytes: the class fits its 160 and the reason its 200 (they were cut before) */
	snprintf(x->fit.cls_text, sizeof(x->fit.cls_text), "computed %s (no map of the ids fits; %s)",
		 x->in->op == GM_TO_LOAD ? "gather" : "scatter", how);
	snprintf(x->fit.why, sizeof(x->fit.why), "no map of the ids fits the sampled lanes, and %s: the address is "
		 "arithmetic on the thread index", how);
}

int tk_computed_scattered(const struct gm_trace_insn *x)
{
	const struct gm_trace_instr *in = x->in;
	double req = in->requests > 0 ? in->requests : in->executions;
	double lanes = req > 0 && in->thread_accesses > 0 ? in->thread_accesses / req : 0;
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;

	return x->computed && lanes > 0 && per >= CS_OWN * lanes && x->fit.ideal_per_req > 0 &&
	       per >= CS_WIDE * x->fit.ideal_per_req;
}

int tk_computed_scatters(struct gm_trace_kernel *k)
{
	double warps = ceil((double)k->threads / GM_WARP_SIZE);
	int n = 0;

	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_insn *x = &k->ins[i];
		x->computed = 0;
		if (!unfitted(x) || !nothing_before(k, i) ||
		    !fixed_step(x->in, warps > 0 ? x->in->executions / warps : 0))
			continue;
		x->computed = 1, n++;
		words(x, "no load or atomic before it");
	}
	for (int i = 0; n && i < k->nins; i++) {   /* the fields of the record a computed probe ends on */
		struct gm_trace_insn *x = &k->ins[i];
		if (x->computed || !unfitted(x))
			continue;
		for (int j = 0; j < k->nins && !x->computed; j++) {
			const struct gm_trace_insn *a = &k->ins[j];
			if (a->computed == 1 && a->in->pc < x->in->pc && beside(a->in, x->in)) {
				char how[80];
				x->computed = 2;
				snprintf(how, sizeof(how), "its lanes at one distance from the computed access at line %d",
					 a->in->line);
				words(x, how);
			}
		}
	}
	return n;
}
