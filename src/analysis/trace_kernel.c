/*
 * trace_kernel.c - one traced launch as a kernel: every instruction fitted
 * (trace_class.c), its share of the traffic, the launch model's time from all
 * the fitted patterns (each with its loop as a repeat), DRAM bytes measured or
 * predicted, the achieved bandwidth against the profile's roof; the verdicts
 * (memory-bound, the primary and secondary bottleneck) are trace_verdict.c's
 * (docs/TRACE.md, "The kernel").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/parallel.h"
#include "analysis/trace_internal.h"

#define MAX_PATS 256

static int model_size(int b)
{
	return b == 1 || b == 2 || b == 4 || b == 8 || b == 16;
}

/* Bytes each instruction moves at its level, and the shares. */
static void traffic(struct gm_trace_kernel *k)
{
	double glob = 0, wf = 0;

	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_insn *x = &k->ins[i];
		const struct gm_trace_instr *in = x->in;
		double req = in->requests > 0 ? in->requests : in->executions;
		if (in->space == GM_TS_SHARED) {
			double w = in->wavefronts >= 0 ? in->wavefronts : req > 0 ? req * x->fit.sample_per_req : 0;
			x->bytes = w * 128;
			x->excess_bytes = req > 0 && x->fit.ideal_per_req > 0 ? fmax(0, w - req * x->fit.ideal_per_req) * 128 : 0;
			wf += x->bytes;
		} else {
			double s = in->sectors >= 0 ? in->sectors : req > 0 ? req * x->fit.sample_per_req : 0;
			double ideal = in->ideal_sectors >= 0 ? in->ideal_sectors : req * x->fit.ideal_per_req;
			x->bytes = s * 32;
			x->excess_bytes = ideal >= 0 ? fmax(0, s - ideal) * 32 : 0;
			glob += x->bytes;
		}
	}
	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_insn *x = &k->ins[i];
		double tot = x->in->space == GM_TS_SHARED ? wf : glob;
		x->share = tot > 0 ? x->bytes / tot : 0;
	}
	/* instructions by bytes moved, global first */
	k->norder = 0;
	for (int i = 0; i < k->nins && k->norder < GM_TRACE_MAX_INSNS; i++)
		k->order[k->norder++] = i;
	for (int i = 1; i < k->norder; i++)
		for (int j = i; j > 0; j--) {
			const struct gm_trace_insn *a = &k->ins[k->order[j]], *b = &k->ins[k->order[j - 1]];
			int sa = a->in->space == GM_TS_SHARED, sb = b->in->space == GM_TS_SHARED;
			if (sa > sb || (sa == sb && a->bytes <= b->bytes))
				break;
			int t = k->order[j];
			k->order[j] = k->order[j - 1];
			k->order[j - 1] = t;
		}
}

/* One instruction's pattern for the launch model: its fitted 1D expression and loop, or the replacement;
   it2 / step2: the pieces or re-reads of the same bytes folded into it (below). */
static void pattern_of(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, const struct tk_swap *sw,
		       int it2, int64_t step2, int it1, int64_t step1, struct gm_access *a, struct gm_repeat *r)
{
	memset(a, 0, sizeof(*a));
	a->space = x->in->space == GM_TS_SHARED ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	a->op = x->in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE;
	a->elem_bytes = x->in->size;
	memcpy(a->block, k->l->block, sizeof(a->block));
	a->index = sw ? sw->expr : x->fit.expr1d;
	a->n_threads = k->threads;
	*r = (struct gm_repeat){ sw ? sw->iters : x->fit.iters, (sw ? sw->step : x->fit.map.iter_step) * x->in->size,
				 it2 > 1 ? it2 : 1, it2 > 1 ? step2 : 0 };
	if (!sw && it1 > 0)   /* a flattened walk (rule M): its loop in one direction */
		r->iters = it1, r->step_bytes = step1;
}

static const struct tk_swap *swap_of(const struct tk_swap *sw, int nsw, int i)
{
	for (int j = 0; j < nsw; j++)
		if (sw[j].ins == i)
			return &sw[j];
	return NULL;
}

/* The same per-thread walk of the same array: the modes of the ids equal, offsets aside. */
static int same_walk(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *x = &a->fit.map, *y = &b->fit.map;
	int64_t alo, ahi, blo, bhi;

	if (a->in->space != GM_TS_GLOBAL || b->in->space != GM_TS_GLOBAL || a->in->op != b->in->op ||
	    a->in->size != b->in->size || !x->known || !y->known || a->fit.approx || b->fit.approx ||
	    a->fit.iters != b->fit.iters || x->iter_step != y->iter_step || x->niter_tab || y->niter_tab ||
	    x->nmodes != y->nmodes)
		return 0;
	for (int q = 0; q < x->nmodes; q++)
		if (memcmp(&x->mode[q], &y->mode[q], sizeof(x->mode[q])))
			return 0;
	return tk_range_of(a->in, &alo, &ahi) && tk_range_of(b->in, &blo, &bhi) && alo <= bhi && blo <= ahi;
}

/*
 * Instructions that walk the same bytes (rule M, the trace's; docs/TRACE.md): the launch model keeps each
 * pattern's bytes apart, so a loop unrolled into pieces at offsets 0, d, 2d ... of one row, or a row read again
 * by a later loop, would each be read from DRAM again. They are folded into one pattern's inner repeat
 * (gm_repeat's iters2, evaluated together: a piece they share is read once): pieces as iters2 = their number,
 * step2 = d; loads read again as iters2 = the readings, step2 = 0; m readings of the same pieces as m patterns.
 * it2[i] > 0: instruction i carries it2[i] of them (step2[i]); it2[i] < 0: folded into another.
 */
static void fold(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2)
{
	int n = k->nins;

	for (int i = 0; i < n; i++)
		it2[i] = 0, step2[i] = 0;
	for (int i = 0; i < n; i++) {
		int g[64], m = 0, nd = 0, mult = -1, ok = 1;
		int64_t A[64], D[64], d = 0;
		if (it2[i] || swap_of(sw, nsw, i))
			continue;
		for (int j = i; j < n && m < 64; j++)
			if (!it2[j] && !swap_of(sw, nsw, j) && same_walk(&k->ins[i], &k->ins[j]))
				g[m++] = j;
		if (m < 2)
			continue;
		for (int q = 0; q < m; q++) {
			const struct gm_trace_insn *y = &k->ins[g[q]];
			int r = 0;
			A[q] = y->fit.map.base + y->fit.map.offset * y->in->size;
			while (r < nd && D[r] != A[q])
				r++;
			if (r == nd)
				D[nd++] = A[q];
		}
		for (int a = 1; a < nd; a++)   /* sorted */
			for (int b = a; b > 0 && D[b] < D[b - 1]; b--) {
				int64_t t = D[b]; D[b] = D[b - 1]; D[b - 1] = t;
			}
		for (int r = 1; r < nd && ok; r++)
			ok = r == 1 ? (d = D[1] - D[0]) > 0 : D[r] - D[r - 1] == d;
		for (int r = 0; r < nd && ok; r++) {   /* every piece read equally often */
			int c = 0;
			for (int q = 0; q < m; q++)
				c += A[q] == D[r];
			ok = mult < 0 || c == mult;
			mult = c;
		}
		if (!ok || (k->ins[i].in->op != GM_TO_LOAD && mult > 1))
			continue;   /* stores are folded as pieces only: a second write is not a hit */
		if (nd == 1) {
			it2[g[0]] = m, step2[g[0]] = 0;
			for (int q = 1; q < m; q++)
				it2[g[q]] = -1;
			continue;
		}
		for (int q = 0, lead = 0; q < m; q++)   /* one pattern per reading, from its first piece */
			if (A[q] == D[0] && lead < mult) {
				it2[g[q]] = nd, step2[g[q]] = d;
				lead++;
			} else
				it2[g[q]] = -1;
	}
}

/* The same modes of the ids, the loop's aside. */
static int same_ids(const struct gm_trace_map *x, const struct gm_trace_map *y)
{
	int i = 0, j = 0;

	for (;;) {
		while (i < x->nmodes && x->mode[i].var == GM_TV_ITER)
			i++;
		while (j < y->nmodes && y->mode[j].var == GM_TV_ITER)
			j++;
		if (i == x->nmodes || j == y->nmodes)
			return i == x->nmodes && j == y->nmodes;
		if (memcmp(&x->mode[i++], &y->mode[j++], sizeof(x->mode[0])))
			return 0;
	}
}

/*
 * The second half of rule M: a walk whose pieces tile each step (the loop's step = pieces x their spacing) is
 * the same walk as a loop over the pieces' spacing; walks of the same bytes from the same start, however they
 * were unrolled, are readings of one walk: one pattern, its loop flattened (it1, step1 in bytes) and
 * iters2 = the readings, step2 = 0. Loads only.
 */
static void fold_readings(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2,
			  int64_t *step2, int *it1, int64_t *step1)
{
	int n = k->nins;
	int64_t fi[GM_TRACE_MAX_INSNS], fs[GM_TRACE_MAX_INSNS];
	int rd[GM_TRACE_MAX_INSNS];

	for (int i = 0; i < n; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int64_t sB = x->fit.map.iter_step * x->in->size;
		it1[i] = 0, step1[i] = 0, fi[i] = 0, fs[i] = 0, rd[i] = 0;
		if (it2[i] < 0 || swap_of(sw, nsw, i) || x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD ||
		    !x->fit.map.known || x->fit.approx || x->fit.map.niter_tab)
			continue;
		if (it2[i] > 1 && step2[i] > 0 && sB == it2[i] * step2[i])   /* pieces tiling the step */
			fi[i] = (int64_t)x->fit.iters * it2[i], fs[i] = step2[i], rd[i] = 1;
		else if (it2[i] <= 1 || step2[i] == 0)
			fi[i] = x->fit.iters, fs[i] = sB, rd[i] = it2[i] > 1 ? it2[i] : 1;
	}
	for (int i = 0; i < n; i++) {
		int reads = rd[i], any = 0;
		int64_t lo, hi, lo2, hi2;
		const struct gm_trace_insn *x = &k->ins[i];
		if (!rd[i] || !tk_range_of(x->in, &lo, &hi))
			continue;
		int64_t A = x->fit.map.base + x->fit.map.offset * x->in->size;
		for (int j = i + 1; j < n; j++) {
			const struct gm_trace_insn *y = &k->ins[j];
			if (!rd[j] || fi[j] != fi[i] || fs[j] != fs[i] || y->in->size != x->in->size ||
			    y->fit.map.base + y->fit.map.offset * y->in->size != A || !same_ids(&x->fit.map, &y->fit.map) ||
			    !tk_range_of(y->in, &lo2, &hi2) || lo2 > hi || lo > hi2)
				continue;
			reads += rd[j];
			rd[j] = 0;
			it2[j] = -1;
			any = 1;
		}
		if (!any)
			continue;
		it1[i] = (int)fi[i], step1[i] = fs[i];
		it2[i] = reads, step2[i] = 0;
		rd[i] = 0;
	}
}

/*
 * Rule R2, the round trips a thread waits for (docs/TRACE.md, "The kernel's prediction"): the launch model's
 * rule T2 charges each wave of resident threads one loaded round trip per time a thread waits for its loads
 * (gm_launch_in.round_trips). A traced kernel's global loads, in pc order, are issued together until a global
 * store or atomic (which the loads after it may alias, so the compiler keeps them behind it) or a gap of more
 * than TK_TRIP_GAP bytes of SASS without a memory instruction (the end of a loop, a dependent computation),
 * or a gather by data (its address is what an earlier load returned);
 * each such run waits once per iteration of its loop, its iterations being the most warp-level executions
 * of its loads per warp of the launch (a load that only some warps run, rounded up). A run whose every load
 * its SM's L1 serves waits no trip of its own (tens of cycles, hidden among the other warps' trips): a load
 * that every block reads alike (no block id in its map: a weight vector), or one that reads again what an
 * earlier run read (the same warp's sampled lanes at the same addresses) when the bytes the SM's resident
 * threads read first fit in its L1. The trips are the sum over the runs, rounded. A replaced instruction (a fix)
 * counts with its replacement's iterations. The gap is TK_TRIP_GAP (trace_internal.h; rule I uses it too).
 */

/* No block id moves the map's addresses: every block reads the same elements. */
static int alike(const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
{
	const struct gm_trace_map *m = &x->fit.map;
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];

	if (!m->known || x->fit.approx)   /* a gather's stand-in says nothing of the blocks */
		return 0;
	for (int q = 0; q < m->nmodes; q++) {
		const struct gm_trace_mode *d = &m->mode[q];
		if (d->var == GM_TV_BX || d->var == GM_TV_BY || d->var == GM_TV_BZ)
			return 0;
		if (d->var == GM_TV_GID && (d->size == 0 || d->div * d->size > tpb))
			return 0;
	}
	return 1;
}

/* The same warp at the same iteration read the same address in lane l of x's and y's samples: for at least
   half of x's sampled lanes at iteration 0. */
static int same_bytes(const struct gm_trace_instr *x, const struct gm_trace_instr *y)
{
	int lanes = 0, same = 0;

	for (int i = 0; i < x->nsamples; i++) {
		const struct gm_trace_sample *a = &x->samples[i];
		if (a->iter)
			continue;
		for (int j = 0; j < y->nsamples; j++) {
			const struct gm_trace_sample *b = &y->samples[j];
			if (b->iter || b->warp != a->warp || memcmp(b->block, a->block, sizeof(a->block)))
				continue;
			for (int l = 0; l < GM_WARP_SIZE; l++)
				if (a->have >> l & 1) {
					lanes++;
					same += (b->have >> l & 1) && b->addr[l] == a->addr[l];
				}
			break;
		}
	}
	return lanes > 0 && 2 * same >= lanes;
}

/* An earlier load (before `from` in the pc-sorted ix) of the same thread read the bytes x reads. */
static int read_before(const struct gm_trace_kernel *k, const int *ix, int from, const struct gm_trace_insn *x)
{
	for (int j = 0; j < from; j++) {
		const struct gm_trace_insn *y = &k->ins[ix[j]];
		if (y->in->op == GM_TO_LOAD && y->in->size == x->in->size && same_bytes(x->in, y->in))
			return 1;
	}
	return 0;
}

/* One run of rule R2 (loads issued together): its trips, the bytes a thread loads in it, the 128 B lines a block
   reads in it (rule Q). */
struct tk_run {
	int trips, nloads;
	double bytes, lines;
};
#define TK_MAX_RUNS 256

/* The distinct 128 B lines a sampled warp's request touches, the mean over the samples; without samples a
   sector a line. */
static double lines_per_request(const struct gm_trace_insn *x)
{
	double tot = 0;
	int n = 0;

	for (int i = 0; i < x->in->nsamples; i++) {
		const struct gm_trace_sample *a = &x->in->samples[i];
		int64_t seen[GM_WARP_SIZE];
		int m = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1) {
				int64_t line = a->addr[l] >> 7, q = 0;
				while (q < m && seen[q] != line)
					q++;
				if (q == m)
					seen[m++] = line;
			}
		if (m)
			tot += m, n++;
	}
	if (n)
		return tot / n;
	return x->fit.meas_per_req > 0 ? x->fit.meas_per_req : 1;
}

static int tk_round_trips(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw,
			  int nsw, struct tk_run *runs, int *nruns)
{
	double rb = 0, rl = 0;
	int nl = 0;
	int n = 0, run = 0, near = 1, lead = 0;
	int64_t last = -1, tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double warps = 0, trips = 0, fresh = 0;
	static int ix[GM_TRACE_MAX_INSNS], it[GM_TRACE_MAX_INSNS];
	static char again[GM_TRACE_MAX_INSNS], same[GM_TRACE_MAX_INSNS];

	for (int d = 0; d < 3; d++)
		warps = d ? warps * (double)k->l->grid[d] : (double)k->l->grid[0];
	double blocks = warps;
	warps *= ceil((double)tpb / GM_WARP_SIZE);
	if (!(warps > 0) || tpb <= 0)
		return 0;
	for (int i = 0; i < k->nins && n < GM_TRACE_MAX_INSNS; i++)
		if (k->ins[i].in->space != GM_TS_SHARED && k->ins[i].in->executions > 0)
			ix[n++] = i;
	for (int a = 1; a < n; a++)   /* by pc (few instructions) */
		for (int b = a; b > 0 && k->ins[ix[b - 1]].in->pc > k->ins[ix[b]].in->pc; b--) {
			int t = ix[b]; ix[b] = ix[b - 1]; ix[b - 1] = t;
		}
	/* each load's iterations; read again (by the same thread) or alike (by every block); the bytes a thread
	   reads first (the footprint its SM must hold for a re-read to hit there) */
	for (int j = 0; j < n; j++) {
		const struct gm_trace_insn *x = &k->ins[ix[j]];
		const struct tk_swap *w = swap_of(sw, nsw, ix[j]);
		double per = x->in->executions / warps;
		it[j] = per > 1 ? (int)ceil(per - 1e-6) : 1;
		if (w && x->fit.iters > 0 && w->iters > 0)
			it[j] = (int)ceil((double)it[j] * w->iters / x->fit.iters);
		same[j] = x->in->op == GM_TO_LOAD && alike(k, x);
		again[j] = x->in->op == GM_TO_LOAD && !same[j] && read_before(k, ix, j, x);
		if (x->in->op == GM_TO_LOAD && !same[j] && !again[j])
			fresh += (double)it[j] * x->in->size;
	}
	/* resident threads of an SM: whole blocks, the launch spread over the SMs */
	double per_sm = prof && prof->threads_per_sm > 0 ? (double)(prof->threads_per_sm / tpb) * tpb : 2048;
	if (prof && prof->sm_count > 0 && ceil(blocks / prof->sm_count) * tpb < per_sm)
		per_sm = ceil(blocks / prof->sm_count) * tpb;
	int fits = prof && prof->l1_bytes > 0 && fresh * per_sm <= prof->l1_bytes;
	for (int j = 0; j < n; j++) {
		const struct gm_trace_insn *x = &k->ins[ix[j]];
		const struct tk_swap *w = swap_of(sw, nsw, ix[j]);
		if (x->in->op != GM_TO_LOAD || (last >= 0 && (x->in->pc - last > TK_TRIP_GAP ||
							      (x->fit.approx && !tk_same_sectors(&k->ins[lead], x))))) {
			/* a store or atomic, the gap, or a gather (its address is an earlier load's data; not a field
			   of the record the run's gather reads, rule G) ends the run */
			trips += near ? 0 : run;
			if (runs && !near && run > 0 && *nruns < TK_MAX_RUNS)
				runs[(*nruns)++] = (struct tk_run){ run, nl, rb, rl };
			run = 0, near = 1, last = -1, rb = 0, rl = 0, nl = 0;
			if (x->in->op != GM_TO_LOAD)
				continue;
		}
		if (w && !w->expr)
			continue;
		near &= same[j] || (again[j] && fits);
		run = it[j] > run ? it[j] : run;
		lead = last < 0 ? ix[j] : lead;
		last = x->in->pc;
		rb += x->in->size;
		nl++;
		rl += x->in->executions / (blocks * it[j]) * lines_per_request(x);
	}
	trips += near ? 0 : run;
	if (runs && !near && run > 0 && *nruns < TK_MAX_RUNS)
		runs[(*nruns)++] = (struct tk_run){ run, nl, rb, rl };
	return (int)lround(trips);
}

/*
 * Rule A, what every block reads alike stays in L1 (docs/TRACE.md, "The kernel's prediction"): a global load
 * with no block id in its map (a weight or bias vector every block reads: `lane + iter*32`) whose footprint
 * (its sampled range over the whole loop) fits in the SM's L1 is read from DRAM once and then served by each
 * SM's L1: it leaves the patterns the launch model reads from DRAM and L2 (whose rule W would read it again for
 * every warp). Its round trips are rule R2's (near: none).
 */
static int in_l1(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x)
{
	int64_t lo, hi;
	int seen = 0;

	if (!prof || !(prof->l1_bytes > 0) || x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD ||
	    !alike(k, x) || !tk_range_of(x->in, &lo, &hi))
		return 0;
	for (int q = 0; q < x->in->nsamples; q++)
		seen = x->in->samples[q].iter > seen ? x->in->samples[q].iter : seen;
	double span = (double)(hi - lo + x->in->size);
	if (x->fit.iters > seen + 1)
		span += (double)(x->fit.iters - seen - 1) * fabs((double)x->fit.map.iter_step) * x->in->size;
	return span <= prof->l1_bytes;
}

/*
 * Rule B, the barrier steps of a shared-memory loop (docs/TRACE.md, "The kernel's prediction"): a shared
 * instruction that a block's warps run more often than once each is a step of a loop over shared memory (a
 * tree reduction), and in a block of more than one warp each step ends at a barrier. Every resident block of
 * the wave is at the same step then, with no load in flight to hide it behind: the SM issues the step's
 * instructions for all its resident warps, four a cycle (one per scheduler, sm_70 and later), and serves the
 * step's shared wavefronts above the ideal (bank conflicts) one a cycle. The instructions of a step are the
 * SASS between the instruction and the memory instruction before it (16 B an instruction), run as often as the
 * instruction: the loop's body and its control. Summed over the launch, on the SMs it uses, at the profile's SM
 * clock, and added to the model's time: the model's round trips and barrier (T2, T6) do not hold them.
 */
static double steps_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	const struct gm_trace_launch *l = k->l;
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2];
	double blocks = (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2];
	double warps = blocks * (double)((tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE), issued = 0, extra = 0;
	static int ix[GM_TRACE_MAX_INSNS];
	int n = 0;

	if (!prof || !(prof->sm_clock_mhz > 0) || prof->sm_count <= 0 || tpb <= GM_WARP_SIZE || !(warps > 0) ||
	    k->warp_private)   /* rule P: no barrier, each warp's tile its own */
		return 0;
	n = tk_by_pc(k, ix);
	for (int j = 0; j < n; j++) {
		const struct gm_trace_instr *in = k->ins[ix[j]].in;
		int64_t from = j ? k->ins[ix[j - 1]].in->pc + 16 : 0;
		if (in->space != GM_TS_SHARED || !(in->executions > warps * 1.0001))
			continue;
		issued += in->executions * (double)(in->pc + 16 - from) / 16;
		double ideal = in->ideal_wavefronts >= 0 ? in->ideal_wavefronts : in->requests * k->ins[ix[j]].fit.ideal_per_req;
		if (in->wavefronts > 0 && ideal > 0)
			extra += fmax(0, in->wavefronts - ideal);
	}
	double sms = blocks < prof->sm_count ? blocks : prof->sm_count;
	return (issued / 4 + extra) / (sms * prof->sm_clock_mhz * 1e3);
}

int tk_predict(const struct gm_trace_kernel *k, const struct gm_profile *prof, int only, const struct tk_swap *sw,
	       int nsw, struct gm_launch_out *out, char *why, size_t n)
{
	struct gm_access pats[MAX_PATS];
	struct gm_repeat rep[MAX_PATS];
	struct gm_launch_in li;
	struct gm_expr_error err;
	int np = 0, left = 0, all_once = 1;
	static int it2[GM_TRACE_MAX_INSNS + 1], it1[GM_TRACE_MAX_INSNS + 1];
	static int64_t step2[GM_TRACE_MAX_INSNS + 1], step1[GM_TRACE_MAX_INSNS + 1];

	memset(&li, 0, sizeof(li));
	memset(it1, 0, sizeof(it1));
	if (only < 0 && k->nins <= GM_TRACE_MAX_INSNS) {
		fold(k, sw, nsw, it2, step2);
		fold_readings(k, sw, nsw, it2, step2, it1, step1);
		tk_fold_gathers(k, sw, nsw, it2, step2);   /* rule G */
	} else
		memset(it2, 0, sizeof(it2));
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if ((only >= 0 && i != only) || (i < GM_TRACE_MAX_INSNS && it2[i] < 0))
			continue;
		if (!x->fit.expr1d[0] || !model_size(x->in->size) || np == MAX_PATS) {
			left++;
			continue;
		}
		const struct tk_swap *w = swap_of(sw, nsw, i);
		if (w && !w->expr)
			continue;   /* left out on purpose: the kernel without this instruction */
		if (only < 0 && !w && in_l1(k, prof, x))
			continue;   /* rule A: every block reads it from its SM's L1 */
		int in_tab = i < GM_TRACE_MAX_INSNS;
		pattern_of(k, x, w, in_tab ? it2[i] : 0, in_tab ? step2[i] : 0, in_tab ? it1[i] : 0, in_tab ? step1[i] : 0,
			   &pats[np], &rep[np]);
		all_once &= rep[np].iters <= 1;
		np++;
	}
	if (!np) {
		snprintf(why, n, "no instruction has a fitted pattern the model can take");
		return -1;
	}
	li.pats = pats;
	li.npats = np;
	li.repeat = rep;
	memcpy(li.block, k->l->block, sizeof(li.block));
	li.n_threads = k->threads;
	li.one_element_per_thread = all_once;
	li.round_trips = only < 0 && nsw == 0 && k->trips > 0 ? k->trips : 0;
	if (only == TK_WITH_TRIPS) {   /* the replacements' own trips (rule R2): a fix that keeps the loop keeps them */
		static struct tk_run runs[TK_MAX_RUNS];
		int nruns = 0;
		li.round_trips = tk_round_trips(k, prof, sw, nsw, runs, &nruns);
	}
	li.threads = gm_cores();   /* the windows on every core; the result does not depend on it */
	if (gm_launch_predict(&li, prof, out, &err) != GM_OK) {
		snprintf(why, n, "the launch model cannot evaluate it: %.150s", err.msg);
		return -1;
	}
	tk_smem_as_measured(prof, k->smem_scale, out);   /* rule V */
	if (k->warp_private)
		tk_no_barrier(prof, out);   /* rule P */
	tk_sms_in_use(k, prof, out);
	int approx = 0;
	for (int i = 0; i < k->nins; i++)
		approx += (only < 0 || i == only) && k->ins[i].fit.approx;
	if (left || approx)
		snprintf(why, n, "%d instruction%s without a pattern left out; %d gather%s as lanes k apart in its "
			 "sampled footprint", left, left == 1 ? "" : "s", approx, approx == 1 ? "" : "s");
	else if (n)
		why[0] = '\0';
	return 0;
}

/*
 * The kernel with every thread taking v consecutive elements of each access as one 16-byte element (trace_fix.c's
 * rules wide_blocks and widen; a layout rewrite's copy): v times fewer threads in blocks of the same size, the
 * instructions of sw[] at their replacement's index. For accesses without a loop; -1 when the model cannot take
 * it or the launch would not fill the SMs.
 */
int tk_predict_wide(const struct gm_trace_kernel *k, const struct gm_profile *prof, int v, const struct tk_swap *sw,
		    int nsw, struct gm_launch_out *out)
{
	struct gm_access pats[MAX_PATS];
	struct gm_repeat rep[MAX_PATS];
	struct gm_launch_in li;
	struct gm_expr_error err;
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2] / v;
	int np = 0;
	static int it2[GM_TRACE_MAX_INSNS];
	static int64_t step2[GM_TRACE_MAX_INSNS];

	if (v < 2 || k->threads % v || k->nins > MAX_PATS || !prof || blocks < prof->sm_count)
		return -1;
	memset(&li, 0, sizeof(li));
	fold(k, sw, nsw, it2, step2);   /* rule M: a record's pieces, v times as far apart */
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		const struct tk_swap *w = swap_of(sw, nsw, i);
		if (w && !w->expr)
			continue;   /* left out (a broadcast scalar) */
		if (!x->fit.expr1d[0] || !model_size(x->in->size * v))
			return -1;
		if (it2[i] < 0)
			continue;
		if (x->fit.iters > 1)
			return -1;
		pattern_of(k, x, w, it2[i], step2[i] * v, 0, 0, &pats[np], &rep[np]);
		pats[np].elem_bytes = x->in->size * v;
		pats[np].n_threads = k->threads / v;
		np++;
	}
	li.pats = pats;
	li.npats = np;
	li.repeat = rep;
	memcpy(li.block, k->l->block, sizeof(li.block));
	li.n_threads = k->threads / v;
	li.one_element_per_thread = 1;
	li.threads = gm_cores();
	return gm_launch_predict(&li, prof, out, &err) == GM_OK ? 0 : -1;
}

/*
 * Rule Q, each run's round trip by what is in flight (docs/TRACE.md, "The kernel's prediction"): rule T2 charges
 * every trip one loaded round trip, wave_ns, measured with every thread slot of the GPU waiting for 4 B (copy_one:
 * threads_per_sm x sm_count threads, a request a warp); rule T8 takes off the queue of the bytes such a wave does
 * not load. A thread of a loop waits for one run of rule R2 at a time, and a launch that does not fill the GPU
 * has fewer threads waiting: each run's trip is the unloaded round trip (dram_latency_ns, the pointer chase)
 * plus the two queues that make wave_ns of it, each for what the run has in flight: the bytes (the wave's
 * resident threads x the bytes a thread loads in the run, at read_gbs: T8's queue) and the requests (the rest of
 * wave_ns - dram_latency_ns, scaled by the resident warps x the run's loads over copy_one's warps), neither above
 * the calibration's; times T5's tail for the 128 B lines a block reads in the run (its loads' requests a block
 * makes an iteration x the distinct lines of a sampled request). With everything as in copy_one this is wave_ns
 * again, and with smaller elements T8. The model's trip time is scaled by the runs' mean against its own (its
 * mix of DRAM and L2 round trips, rule T7, kept) and the time joined again (T3). Only in blocks of 256 threads or
 * fewer (T8's limit) and for threads that wait more than once (trips > 1).
 */
static void runs_own_trips(struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_run *runs,
			   int nruns)
{
	struct gm_launch_out *o = &k->pred;
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double b = 0, num = 0, den = 0;

	if (!prof || k->trips <= 1 || !nruns || tpb > 256 || !(o->waves > 0) || !(o->t_waves_ms > o->t_barrier_ms) ||
	    !(prof->wave_ns > 0) || !(prof->dram_latency_ns > 0) || !(prof->read_gbs > 0) || prof->threads_per_sm <= 0 ||
	    prof->sm_count <= 0)
		return;
	for (int i = 0; i < k->nins; i++)   /* the model's T8: every global load pattern's element once */
		if (k->ins[i].in->space == GM_TS_GLOBAL && k->ins[i].in->op == GM_TO_LOAD && k->ins[i].in->executions > 0 &&
		    !in_l1(k, prof, &k->ins[i]))
			b += k->ins[i].in->size;
	double cal = (double)prof->threads_per_sm * prof->sm_count;   /* copy_one's threads, a request a warp */
	double w8 = b < 4 ? prof->wave_ns - (4 - b) * cal / prof->read_gbs : prof->wave_ns;
	double bytes_q = 4 * cal / prof->read_gbs, req_q = fmax(0, prof->wave_ns - prof->dram_latency_ns - bytes_q);
	int64_t per_sm = prof->threads_per_sm / tpb > 32 ? 32 * tpb : prof->threads_per_sm / tpb * tpb;
	double resident = fmin((double)k->threads, (double)(per_sm > 0 ? per_sm : tpb) * prof->sm_count);
	double warps = resident / tpb * (double)((tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
	for (int r = 0; r < nruns; r++) {
		double nl = runs[r].nloads;
		double trip = prof->dram_latency_ns + fmin(resident * runs[r].bytes, 4 * cal) / prof->read_gbs +
			      req_q * fmin(1, warps * nl / (cal / GM_WARP_SIZE));
		num += runs[r].trips * trip * gm_launch_block_tail_lines(prof->warp_tail, runs[r].lines);
		den += runs[r].trips;
	}
	den *= w8 * o->block_tail;
	if (!(num > 0) || !(den > 0))
		return;
	o->t_waves_ms = (o->t_waves_ms - o->t_barrier_ms) * num / den + o->t_barrier_ms;
	o->limited_by = o->t_waves_ms > o->t_bandwidth_ms ? "latency" : o->limited_by;
	tk_rejoin(o, prof, o->time_ms);
}

/* The launch model over every fitted pattern. */
static void predict(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct gm_launch_out mem;
	char why[200];
	static struct tk_run runs[TK_MAX_RUNS];
	int nruns = 0;

	k->trips = 0;
	k->smem_scale = 0;
	k->warp_private = tk_warp_private(k);
	int mem_ok = !tk_predict(k, prof, -1, NULL, 0, &mem, why, sizeof(why));
	if (mem_ok) {   /* rule V: the scale from the first prediction, in it and every later one */
		k->smem_scale = tk_smem_ratio(k, &mem);
		tk_smem_as_measured(prof, k->smem_scale, &mem);
	}
	k->trips = tk_round_trips(k, prof, NULL, 0, runs, &nruns);
	k->pred_ok = !tk_predict(k, prof, -1, NULL, 0, &k->pred, k->pred_why, sizeof(k->pred_why));
	k->trips = k->pred_ok ? k->trips : 0;
	if (k->pred_ok)
		runs_own_trips(k, prof, runs, nruns);
	k->steps_ms = k->pred_ok ? steps_ms(k, prof) : 0;
	if (!(k->steps_ms > 0)) {   /* rule O, in the fixes' time too; a loop of barriers (rule B) keeps the blocks in step */
		if (k->pred_ok)
			tk_barrier_overlap(k, prof, &k->pred);
		if (mem_ok)
			tk_barrier_overlap(k, prof, &mem);
	}
	k->mem_ms = mem_ok ? mem.time_ms : -1;
	if (k->steps_ms > 0) {   /* rule B: added to the model's time, the interval moves with it */
		double t0 = k->pred.time_ms;
		k->pred.time_ms += k->steps_ms;
		k->pred.gbs_low *= t0 / k->pred.time_ms;
		k->pred.gbs_high *= t0 / k->pred.time_ms;
		k->pred.gbs = k->pred.useful_bytes / (k->pred.time_ms * 1e-3) / 1e9;
	}
	if (k->pred_ok)
		tk_floors(k, prof);   /* rules I and F */
}

int tf_same_change(const struct gm_trace_insn *a, const struct gm_trace_insn *b, int rw)
{
	int ops = a->in->op == b->in->op ||
		  (rw && (a->in->op == GM_TO_LOAD || a->in->op == GM_TO_STORE) && a->fit.cls != GM_TC_COALESCED &&
		   a->fit.cls != GM_TC_BROADCAST && a->fit.cls != GM_TC_SHARED_OK &&
		   (b->in->op == GM_TO_LOAD || b->in->op == GM_TO_STORE) && !strcmp(a->fit.expr1d, b->fit.expr1d));

	return a->in->line == b->in->line && a->in->space == b->in->space && ops &&
	       a->fit.cls == b->fit.cls && a->fit.cls_k == b->fit.cls_k &&
	       ((!a->in->file && !b->in->file && a->in->line == 0 && (rw || a->in->pc == b->in->pc)) ||
		(a->in->file && b->in->file && a->in->line > 0 && !strcmp(a->in->file, b->in->file)));
}

/*
 * Each instruction's share of the kernel's memory time: 1 - (the model's time without it) / (its time with
 * all), times the memory fraction (the predicted time over the measured, at most 1). Without a prediction,
 * or for an instruction the model does not take, its share of the traffic stands in.
 */
static void time_shares(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double mem = 1;
	char why[200];

	if (k->pred_ok && k->time_ms > 0 && k->mem_ms > 0)
		mem = fmin(1, k->mem_ms / k->time_ms);
	int asked = 0;
	static char done[GM_TRACE_MAX_INSNS];

	memset(done, 0, sizeof(done));

	for (int i = 0; i < k->nins; i++)
		k->ins[i].time_share = k->ins[i].share * mem;
	/* per group of one change (one line's unrolled instructions), the 8 largest that waste: the model without
	   the group, its share split by bytes */
	for (int j = 0; j < k->norder && asked < 8; j++) {
		struct gm_trace_insn *x = &k->ins[k->order[j]];
		struct tk_swap out[64];
		struct gm_launch_out w;
		int n = 0;
		double bytes = 0, f;
		if (done[j] || !k->pred_ok || !x->fit.expr1d[0] || k->mem_ms <= 0 || x->excess_bytes <= 0.02 * x->bytes)
			continue;
		for (int q = j; q < k->norder && n < 64; q++)
			if (!done[q] && tf_same_change(x, &k->ins[k->order[q]], 0)) {
				done[q] = 1;
				out[n++] = (struct tk_swap){ k->order[q], NULL, 0, 0 };
				bytes += k->ins[k->order[q]].bytes;
			}
		asked++;
		f = tk_predict(k, prof, -1, out, n, &w, why, sizeof(why)) ? 1 : fmax(0, 1 - w.time_ms / k->mem_ms);
		for (int q = 0; q < n; q++)
			k->ins[out[q].ins].time_share = f * mem * (bytes > 0 ? k->ins[out[q].ins].bytes / bytes : 1.0 / n);
	}
}

/* Each instruction's fit is its own (no shared state): on every core, one instruction an item. */
static void fit_item(void *arg, void *state, int i)
{
	struct gm_trace_kernel *k = arg;

	(void)state;
	gm_trace_fit_instr(k->l, &k->l->ins[i], &k->ins[i].fit);
}

gm_status gm_trace_kernel_analyse(const struct gm_trace_launch *l, const struct gm_profile *prof,
				  struct gm_trace_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->l = l;
	k->threads = l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
	k->ins = l->nins ? calloc((size_t)l->nins, sizeof(*k->ins)) : NULL;
	if (l->nins && !k->ins)
		return gm_fail(GM_ERR_NOMEM, "out of memory analysing a launch");
	k->nins = l->nins;
	for (int i = 0; i < l->nins; i++)
		k->ins[i].in = &l->ins[i];
	gm_parallel_for(l->nins, gm_cores(), NULL, NULL, fit_item, k);
	tf_priors(k);
	traffic(k);
	predict(k, prof);
	k->time_ms = l->time_ms > 0 ? l->time_ms : -1;
	k->dram_measured = l->dram_read_bytes >= 0 && l->dram_write_bytes >= 0;
	k->dram_bytes = k->dram_measured ? l->dram_read_bytes + l->dram_write_bytes :
			k->pred_ok ? k->pred.dram_read_bytes + k->pred.dram_write_bytes : -1;
	k->gbs = k->dram_bytes >= 0 && k->time_ms > 0 ? k->dram_bytes / (k->time_ms * 1e6) : -1;
	k->roof_gbs = prof ? prof->read_gbs : -1;
	k->roof_pct = k->gbs >= 0 && k->roof_gbs > 0 ? 100 * k->gbs / k->roof_gbs : -1;
	k->pred_err_pct = k->pred_ok && k->time_ms > 0 ? 100 * (k->pred.time_ms / k->time_ms - 1) : 0;
	/* the interval is of GB/s over the same bytes: the times are the prediction scaled by its ends */
	k->pred_lo_ms = k->pred_ok && k->pred.gbs_high > 0 ? k->pred.time_ms * k->pred.gbs / k->pred.gbs_high : -1;
	k->pred_hi_ms = k->pred_ok && k->pred.gbs_low > 0 ? k->pred.time_ms * k->pred.gbs / k->pred.gbs_low : -1;
	k->limited_by = k->pred_ok && k->pred.limited_by ? k->pred.limited_by : "unknown";
	if (!k->dram_measured && k->roof_pct > 105) {
		size_t len = strlen(k->pred_why);
		snprintf(k->pred_why + len, sizeof(k->pred_why) - len, "%sits DRAM bytes would need %.0f %% of the roof "
			 "in the measured time: the model reads more than the kernel did", len ? "; " : "", k->roof_pct);
	}
	tk_memory_bound(k, prof);
	time_shares(k, prof);
	tk_bottlenecks(k);
	return GM_OK;
}
