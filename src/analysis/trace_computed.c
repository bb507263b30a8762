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

/* C(n, d) for d <= 3 (n may be negative), modulo 2^64: the factors divided first, so that the wrap is exact */
static uint64_t choose(int64_t n, int d)
{
	int64_t f[3] = { n, n - 1, n - 2 };
	int two = d < 2, three = d < 3;

	for (int q = 0; q < d; q++)
		if (!two && f[q] % 2 == 0)
			f[q] /= 2, two = 1;
	for (int q = 0; q < d; q++)
		if (!three && f[q] % 3 == 0)
			f[q] /= 3, three = 1;
	uint64_t c = 1;
	for (int q = 0; q < d; q++)
		c *= (uint64_t)f[q];
	return c;
}

/* the d-th forward difference of e at lane j, sum of (-1)^(d-q) C(d, q) e[j + q] */
static int64_t diff_at(const int64_t *e, int j, int d)
{
	int64_t v = 0;

	for (int q = 0; q <= d; q++)
		v += ((d - q) % 2 ? -1 : 1) * (int64_t)choose(d, q) * e[j + q];
	return v;
}

static int64_t gcd_i64(int64_t a, int64_t b)
{
	a = a < 0 ? -a : a, b = b < 0 ? -b : b;
	while (b) {
		int64_t t = a % b;
		a = b, b = t;
	}
	return a;
}

/* the lanes of sample s as elements (addresses / size, from r0) with their global thread ids (on[j]: lane j given);
   -1 when an address lies off the element grid */
static int lane_elems(const struct gm_trace_launch *l, const struct gm_trace_sample *s, int size, int64_t r0,
		      int64_t e[GM_WARP_SIZE], int64_t g[GM_WARP_SIZE], int on[GM_WARP_SIZE])
{
	int n = 0;

	for (int j = 0; j < GM_WARP_SIZE; j++) {
		int64_t v[GM_TV_N];
		if (!(on[j] = (s->have >> j & 1) != 0))
			continue;
		if ((s->addr[j] - r0) % size)
			return -1;
		e[j] = (s->addr[j] - r0) / size;
		tf_vars_of(l, s, j, v);
		g[j] = v[GM_TV_GID];
		n++;
	}
	return n;
}

/* 1 when lanes j .. j + d are given and their thread ids consecutive */
static int window(const int on[GM_WARP_SIZE], const int64_t g[GM_WARP_SIZE], int j, int d)
{
	for (int q = 0; q <= d; q++)
		if (j + q >= GM_WARP_SIZE || !on[j + q] || g[j + q] != g[j] + q)
			return 0;
	return 1;
}

struct poly {
	int d;                        /* degree */
	int64_t wrap;                 /* the modulus (elements), 0: none */
	int64_t x0, c[4];             /* Newton's form: element(x) = sum c[q] C(x - x0, q) */
	int iter;                     /* the iteration whose samples it was made from */
};

/* The d-th differences over consecutive threads of every sampled warp: their wrap (the gcd of their distances from
   the first, 0 when all equal), the first (*v0), and p's Newton form through the first window; the windows counted
   (0 when an address is off the element grid), *warps the warps with one. */
static int differences(const struct gm_trace_launch *l, const struct gm_trace_instr *in, int64_t r0, struct poly *p,
		       int64_t *v0, int *warps)
{
	int64_t e[GM_WARP_SIZE], g[GM_WARP_SIZE];
	int on[GM_WARP_SIZE], nv = 0, d = p->d;

	*warps = 0, p->wrap = 0;
	for (int i = 0; i < in->nsamples; i++) {
		int here = 0;
		if (lane_elems(l, &in->samples[i], in->size, r0, e, g, on) < 0)
			return 0;
		for (int j = 0; j + d < GM_WARP_SIZE; j++) {
			if (!window(on, g, j, d))
				continue;
			int64_t v = diff_at(e, j, d);
			if (!nv++) {
				*v0 = v, p->x0 = g[j], p->iter = in->samples[i].iter;
				for (int q = 0; q <= d; q++)
					p->c[q] = diff_at(e, j, q);
			}
			p->wrap = gcd_i64(p->wrap, v - *v0);
			here = 1;
		}
		*warps += here;
	}
	return nv;
}

/* 1 when every given lane of the samples at p's iteration is where p puts it (modulo its wrap), all inside one
   span of the wrap */
static int on_poly(const struct gm_trace_launch *l, const struct gm_trace_instr *in, int64_t r0, const struct poly *p)
{
	int64_t e[GM_WARP_SIZE], g[GM_WARP_SIZE], lo = INT64_MAX, hi = INT64_MIN;
	int on[GM_WARP_SIZE];
	uint64_t m = p->wrap ? (uint64_t)p->wrap - 1 : ~(uint64_t)0;

	for (int i = 0; i < in->nsamples; i++) {
		if (in->samples[i].iter != p->iter || lane_elems(l, &in->samples[i], in->size, r0, e, g, on) < 0)
			continue;
		for (int j = 0; j < GM_WARP_SIZE; j++) {
			if (!on[j])
				continue;
			uint64_t y = 0;
			for (int q = 0; q <= p->d; q++)
				y += (uint64_t)p->c[q] * choose(g[j] - p->x0, q);
			if ((y - (uint64_t)e[j]) & m)
				return 0;
			lo = e[j] < lo ? e[j] : lo, hi = e[j] > hi ? e[j] : hi;
		}
	}
	return !p->wrap || hi - lo < p->wrap;
}

/*
 * 1 with p set when the sampled lanes' elements are one polynomial of the global thread index of degree 1 to 3
 * modulo a power of two of 256 elements or more (the index's own wrap, a mask `& (2n - 1)`: set 27's chirp table
 * at n^2 mod 2n), or of degree 2 or 3 without a wrap: its d-th differences over consecutive threads are one value
 * modulo the wrap (their gcd), not 0 (not a lower degree; degree 1 only with a wrap: a multiplicative hash, as an
 * affine map without one is fitted before), at least 16 of them over 2 warps or more, and every sampled lane of
 * that iteration lies where the polynomial through the first warp's first lanes puts it, inside one span of the
 * wrap. A gather by data fits no degree (its differences share no large power of two). The thread's index is then
 * the address's only source, whatever the kernel loads before it.
 */
static int index_poly(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct poly *p)
{
	int64_t r0 = -1, v0 = 0;
	int warps;

	memset(p, 0, sizeof(*p));
	if (in->space != GM_TS_GLOBAL || in->size <= 0)
		return 0;
	for (int i = 0; i < in->nsamples && r0 < 0; i++)
		for (int j = 0; j < GM_WARP_SIZE && r0 < 0; j++)
			if (in->samples[i].have >> j & 1)
				r0 = in->samples[i].addr[j];
	for (p->d = 1; p->d <= 3; p->d++) {
		if (differences(l, in, r0, p, &v0, &warps) < 16 || warps < 2)
			return 0;
		if (p->wrap && (p->wrap < 256 || (p->wrap & (p->wrap - 1))))
			continue;   /* no wrap of a power of two: not of this degree */
		if ((p->d == 1 && !p->wrap) || (p->wrap ? v0 % p->wrap : v0) == 0)
			continue;   /* affine without a wrap (a map fits those), or of a lower degree */
		if (on_poly(l, in, r0, p))
			return 1;
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
		struct poly p;
		x->computed = 0;
		if (!unfitted(x))
			continue;
		if (nothing_before(k, i) && fixed_step(x->in, warps > 0 ? x->in->executions / warps : 0)) {
			x->computed = 1, n++;
			words(x, "no load or atomic before it");
		} else if (index_poly(k->l, x->in, &p)) {   /* the lanes a polynomial of the index: its only source */
			static const char *const deg[] = { "", "a multiple", "a quadratic", "a cubic" };
			char how[80];
			int b = 0;
			while (p.wrap >> b > 1)
				b++;
			snprintf(how, sizeof(how), p.wrap ? "its elements %s of the thread index modulo 2^%d" : "its "
				 "elements %s of the thread index", deg[p.d], b);
			x->computed = 3, n++;
			words(x, how);
		}
	}
	for (int i = 0; n && i < k->nins; i++) {   /* the fields of the record a computed probe ends on */
		struct gm_trace_insn *x = &k->ins[i];
		if (x->computed || !unfitted(x))
			continue;
		for (int j = 0; j < k->nins && !x->computed; j++) {
			const struct gm_trace_insn *a = &k->ins[j];
			if ((a->computed == 1 || a->computed == 3) && a->in->pc < x->in->pc && beside(a->in, x->in)) {
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
