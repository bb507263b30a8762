/*
 * trace_trips.c - the round trips a traced kernel's threads wait for (docs/TRACE.md, "The kernel's prediction"):
 * rule R2 (the runs of loads issued together), rule A (what every block reads alike stays in L1) and rule Q
 * (each run's trip by what is in flight).
 */
#include <math.h>
#include <string.h>
#include "analysis/trace_internal.h"

/*
 * Rule R2, the round trips a thread waits for (docs/TRACE.md, "The kernel's prediction"): the launch model's
 * rule T2 charges each wave of resident threads one loaded round trip per time a thread waits for its loads
 * (gm_launch_in.round_trips). A traced kernel's global loads, in pc order, are issued together until a global
 * store or atomic (which the loads after it may alias, so the compiler keeps them behind it) or a gap of more
 * than TK_TRIP_GAP bytes of SASS without a memory instruction (the end of a loop, a dependent computation),
 * or a gather by data (its address is what an earlier load returned; not one at a fixed distance from an
 * earlier load's lanes, rule G's second part: its address is computed);
 * each such run waits once per iteration of its loop, its iterations being the most warp-level executions
 * of its loads per warp of the launch (a load that only some warps run, rounded up). A run whose every load
 * its SM's L1 serves waits no trip of its own (tens of cycles, hidden among the other warps' trips): a load
 * that every block reads alike (no block id in its map: a weight vector) whose footprint fits in L1 (rule A's
 * test: a launch of one block reads everything alike), or one that reads again what an earlier run read (the
 * same warp's sampled lanes at the same addresses) when the bytes the SM's resident threads read first fit in
 * its L1; and rule R3's (trace_time_row.c): a load of a thread's own row waits only in the iterations that
 * touch a fresh sector, an earlier piece's sector not at all, while a line a lane for each such walk fits in
 * L1, and the iterations it reads from L1 are charged their L1 time (tk_row_hits). A run that fewer blocks run
 * than the launch has (its loads' most executions under the blocks: a tail's remainder path, run by one warp) waits
 * in that share of the blocks only: its trips x executions / blocks (k70). The trips are the sum over the runs,
 * rounded. A replaced instruction (a fix)
 * counts with its replacement's iterations. The gap is TK_TRIP_GAP (trace_internal.h; rule I uses it too).
 */

/* No block id moves the map's addresses: every block reads the same elements. */
int tk_alike(const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
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

/*
 * Rule R2's near sectors (k68): a load without a loop whose every sampled lane reads a sector that an earlier
 * global load (without a loop) of the same warp read, or, for consecutive lanes on consecutive elements, the one
 * next to it (rule H's halo: the neighbouring warp's, read in the same wave): a tap of a filter re-loaded after a store to the output (`y[i] += h[k] * x[i + k]` through pointers that may
 * alias: the compiler keeps each tap's load behind the store before it) reads from L1 what the taps before it
 * brought, and waits no trip of its own.
 */
static int sectors_before(const struct gm_trace_kernel *k, const int *ix, int from, const struct gm_trace_insn *x)
{
	int lanes = 0;

	/* the halo only for consecutive lanes on consecutive elements: the next sector is the neighbouring warp's
	   (a record's second sector, lanes a record apart, is nobody's yet) */
	int halo = x->fit.cls == GM_TC_COALESCED || x->fit.cls == GM_TC_MISALIGNED;

	if (x->fit.iters > 1)
		return 0;   /* a loop's later iterations reach other sectors (rule R3 takes a thread's own row) */
	for (int i = 0; i < x->in->nsamples; i++) {
		const struct gm_trace_sample *a = &x->in->samples[i];
		uint32_t left = a->iter ? 0 : a->have;
		lanes += left != 0;
		for (int j = 0; j < from && left; j++) {
			const struct gm_trace_instr *y = k->ins[ix[j]].in;
			if (y->op != GM_TO_LOAD || y->space != GM_TS_GLOBAL || k->ins[ix[j]].fit.iters > 1)
				continue;
			for (int q = 0; q < y->nsamples && left; q++) {
				const struct gm_trace_sample *b = &y->samples[q];
				if (b->iter || b->warp != a->warp || memcmp(b->block, a->block, sizeof(a->block)))
					continue;
				for (int l = 0; l < GM_WARP_SIZE; l++)
					for (int u = 0; (left >> l & 1) && u < GM_WARP_SIZE; u++)
						if ((b->have >> u & 1) && (b->addr[u] >> 5) + halo >= a->addr[l] >> 5 &&
						    (a->addr[l] >> 5) + halo >= b->addr[u] >> 5)
							left &= ~(1u << l);
			}
		}
		if (left)
			return 0;
	}
	return lanes > 0;
}

/* The 128 B lines a block's requests of x touch in one iteration of its loop; with wf, the L1 wavefronts they
   take when they hit there (rule R3b, trace_time_row.c). */
static double lines_of(const struct gm_trace_insn *x, double blocks, int it)
{
	return x->in->executions / (blocks * it) * tk_lines_per_request(x);
}

static double wavefronts_of(const struct gm_trace_insn *x, double blocks, int it)
{
	return x->in->executions / (blocks * it) * tk_row_wavefronts(x);
}

/* Rule G's second part: x (the j-th by pc) is at a fixed distance from an earlier global load, its address
   computed, not read (trace_gfold.c). */
static int computed(const struct gm_trace_kernel *k, const int *ix, int j)
{
	for (int q = 0; q < j; q++)
		if (tk_fixed_offset(&k->ins[ix[q]], &k->ins[ix[j]]))
			return 1;
	return 0;
}

/* A run ended: its trips (0: near), and the iterations it reads from L1 without a trip of its own (rule R3);
   the index of its record when it has such iterations (the stores after it add their lines), else -1. */
static int end_run(struct tk_run *runs, int *nruns, int trips, int nl, double rb, double rl, double rw, int hits)
{
	hits = hits > 0 ? hits : 0;
	if (!runs || (trips <= 0 && !hits) || *nruns >= TK_MAX_RUNS)
		return -1;
	runs[(*nruns)++] = (struct tk_run){ trips, nl, rb, rl, hits, hits > 0 ? rw : 0 };
	return hits > 0 ? *nruns - 1 : -1;
}

int tk_round_trips(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw,
		   int nsw, struct tk_run *runs, int *nruns)
{
	double rb = 0, rl = 0, rw = 0;
	int nl = 0, full = 0, r3 = 0, hitrun = -1;
	int n = 0, run = 0, near = 1, lead = 0;
	double part = 0;   /* the share of the blocks that run the run's loads at most (rule R2's rare runs) */
	int64_t last = -1, tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double warps = 0, trips = 0, fresh = 0;
	static int ix[GM_TRACE_MAX_INSNS], it[GM_TRACE_MAX_INSNS];
	static char again[GM_TRACE_MAX_INSNS], same[GM_TRACE_MAX_INSNS], piece[GM_TRACE_MAX_INSNS];
	static int rowit[GM_TRACE_MAX_INSNS];
	int walks = 0;

	for (int d = 0; d < 3; d++)
		warps = d ? warps * (double)k->l->grid[d] : (double)k->l->grid[0];
	double blocks = warps;
	warps *= ceil((double)tpb / GM_WARP_SIZE);
	if (!(warps > 0) || tpb <= 0)
		return 0;
	for (int i = 0; i < k->nins && n < GM_TRACE_MAX_INSNS; i++)
		if (k->ins[i].in->space != GM_TS_SHARED && k->ins[i].in->executions > 0 && !tk_local_in_l1(k, prof, &k->ins[i]))
			ix[n++] = i;
	for (int a = 1; a < n; a++)   /* by pc (few instructions) */
		for (int b = a; b > 0 && k->ins[ix[b - 1]].in->pc > k->ins[ix[b]].in->pc; b--) {
			int t = ix[b]; ix[b] = ix[b - 1]; ix[b - 1] = t;
		}
	/* each load's iterations; read again (by the same thread) or alike (by every block); the bytes a thread
	   reads first (the footprint its SM must hold for a re-read to hit there) */
	for (int j = 0; j < n; j++) {
		const struct gm_trace_insn *x = &k->ins[ix[j]];
		const struct tk_swap *w = tk_swap_of(sw, nsw, ix[j]);
		double per = x->in->executions / warps;
		it[j] = per > 1 ? (int)ceil(per - 1e-6) : 1;
		if (w && x->fit.iters > 0 && w->iters > 0)
			it[j] = (int)ceil((double)it[j] * w->iters / x->fit.iters);
		same[j] = x->in->op == GM_TO_LOAD && tk_in_l1(k, prof, x);   /* rule A: its footprint in L1 */
		again[j] = x->in->op == GM_TO_LOAD && !same[j] && (read_before(k, ix, j, x) || sectors_before(k, ix, j, x));
		if (x->in->op == GM_TO_LOAD && !same[j] && !again[j])
			fresh += (double)it[j] * x->in->size;
		/* rule R3 (trace_time_row.c): an earlier piece's sector, or a fresh sector only every few iterations */
		piece[j] = 0, rowit[j] = it[j];
		if (w || x->in->op != GM_TO_LOAD || same[j])
			continue;
		for (int q = 0; q < j && !piece[j]; q++)
			piece[j] = !tk_swap_of(sw, nsw, ix[q]) && tk_row_same_sector(x, &k->ins[ix[q]]);
		/* rule R4 (trace_time_row.c): a load that does not move with its loop waits its first iteration; one
		   that an earlier such load read (the same bytes, the same iteration) none */
		int inv = tk_row_invariant(x);
		piece[j] |= inv && again[j];
		double f = piece[j] ? 1 : inv ? 1.0 / it[j] : tk_row_fresh(x);
		rowit[j] = (int)ceil(it[j] * f - 1e-6);
		walks += !piece[j] && f < 1;
	}
	/* resident threads of an SM: whole blocks, the launch spread over the SMs */
	double per_sm = prof && prof->threads_per_sm > 0 ? (double)(prof->threads_per_sm / tpb) * tpb : 2048;
	if (prof && prof->sm_count > 0 && ceil(blocks / prof->sm_count) * tpb < per_sm)
		per_sm = ceil(blocks / prof->sm_count) * tpb;
	int fits = prof && prof->l1_bytes > 0 && fresh * per_sm <= prof->l1_bytes;
	int rows = prof && prof->l1_bytes > 0 && walks * per_sm * 128 <= prof->l1_bytes;   /* R3: a line a lane a walk */
	for (int j = 0; j < n; j++) {
		const struct gm_trace_insn *x = &k->ins[ix[j]];
		const struct tk_swap *w = tk_swap_of(sw, nsw, ix[j]);
		if (w && !w->expr && x->in->op == GM_TO_STORE)
			continue;   /* a store the fix leaves out (rule store_once) ends no run */
		if (x->in->op != GM_TO_LOAD || (last >= 0 && (x->in->pc - last > TK_TRIP_GAP ||
							      (x->fit.approx && !tk_same_sectors(&k->ins[lead], x) && !computed(k, ix, j))))) {
			/* a store or atomic, the gap, or a gather (its address is an earlier load's data; not a field
			   of the record the run's gather reads nor at a fixed distance from an earlier load, rule G)
			   ends the run */
			trips += near ? 0 : run * part;
			if (last >= 0)
				hitrun = end_run(runs, nruns, near ? 0 : (int)lround(run * part), nl, rb, rl, rw,
						 r3 ? full - (near ? 0 : run) : 0);
			run = 0, near = 1, last = -1, rb = 0, rl = 0, rw = 0, nl = 0, full = 0, r3 = 0, part = 0;
			if (x->in->op != GM_TO_LOAD) {   /* a store after a run: its lines in the run's iterations from L1 */
				if (hitrun >= 0 && x->in->space == GM_TS_GLOBAL)
					runs[hitrun].hit_lines += wavefronts_of(x, blocks, it[j]);
				continue;
			}
		}
		if (w && !w->expr)
			continue;
		near &= same[j] || (again[j] && fits) || (piece[j] && rows);
		int its = rows ? (piece[j] ? 0 : rowit[j]) : it[j];
		run = its > run ? its : run;
		full = it[j] > full ? it[j] : full;
		part = fmax(part, fmin(1, x->in->executions / blocks));
		r3 |= rows && (piece[j] || rowit[j] < it[j]);
		hitrun = last < 0 ? -1 : hitrun;
		lead = last < 0 ? ix[j] : lead;
		last = x->in->pc;
		rb += x->in->size;
		nl++;
		rl += lines_of(x, blocks, it[j]);
		rw += wavefronts_of(x, blocks, it[j]);
	}
	trips += near ? 0 : run * part;
	if (last >= 0)
		end_run(runs, nruns, near ? 0 : (int)lround(run * part), nl, rb, rl, rw, r3 ? full - (near ? 0 : run) : 0);
	return (int)lround(trips);
}

/*
 * Rule A, what every block reads alike stays in L1 (docs/TRACE.md, "The kernel's prediction"): a global load
 * with no block id in its map (a weight or bias vector every block reads: `lane + iter*32`) whose footprint
 * (its sampled range over the whole loop) fits in the SM's L1 is read from DRAM once and then served by each
 * SM's L1: it leaves the patterns the launch model reads from DRAM and L2 (whose rule W would read it again for
 * every warp). Its round trips are rule R2's (near: none). A gather by data (no map: its stand-in) counts the same
 * way where its sampled lanes, spread over the grid, span no more than L1 (a table indexed by the data, k70).
 */
int tk_in_l1(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x)
{
	int64_t lo, hi;
	int seen = 0;

	if (!prof || !(prof->l1_bytes > 0) || x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD ||
	    !tk_range_of(x->in, &lo, &hi))
		return 0;
	if (x->fit.approx)   /* a gather by data: a table whose sampled lanes, spread over the grid, L1 holds */
		return x->in->nsamples > 1 && (double)(hi - lo + x->in->size) <= prof->l1_bytes;
	if (!tk_alike(k, x))
		return 0;
	for (int q = 0; q < x->in->nsamples; q++)
		seen = x->in->samples[q].iter > seen ? x->in->samples[q].iter : seen;
	double span = (double)(hi - lo + x->in->size);
	if (x->fit.iters > seen + 1)
		span += (double)(x->fit.iters - seen - 1) * fabs((double)x->fit.map.iter_step) * x->in->size;
	return span <= prof->l1_bytes;
}

/*
 * Rule LA, a local stack that its SM's L1 holds stays there (docs/TRACE.md, "The kernel's prediction"): local
 * memory is each thread's own stack, written and read by the thread itself; where the stacks of the threads an SM
 * holds (the kernel's sampled stack span x the profile's threads an SM) fit in L1, its loads and stores are L1
 * hits: they leave the patterns the launch model reads from DRAM and L2 and its round trips, and keep their
 * measured sectors in rule L1S's L1 time (trace_rejoin.c). Set 16's med_sort: a 9-float array, 40 B a thread,
 * 80 KB an SM, 94 % of the kernel's sectors. The threads an SM holds are rule OC's resident blocks' (a kernel of many
 * registers holds fewer: set 28's rk4_called, 46 registers, 5 blocks of 256, 192 B a thread, 240 KB an SM).
 */
int tk_local_in_l1(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x)
{
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double res = prof && prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048;

	if (k->occ.blocks > 0 && tpb > 0)   /* rule OC's resident blocks (registers, shared memory): their threads */
		res = fmin(res, (double)k->occ.blocks * tpb);
	return prof && prof->l1_bytes > 0 && x->in->space == GM_TS_LOCAL && k->local_span > 0 &&
	       k->local_span * res <= prof->l1_bytes;
}

/* The bytes a thread's stack spans: over the kernel's local instructions, the sampled offsets' range. */
double tk_local_span(const struct gm_trace_kernel *k)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		for (int s = 0; in->space == GM_TS_LOCAL && s < in->nsamples; s++)
			for (int l = 0; l < GM_WARP_SIZE; l++)
				if (in->samples[s].have >> l & 1) {
					lo = in->samples[s].addr[l] < lo ? in->samples[s].addr[l] : lo;
					hi = in->samples[s].addr[l] + in->size > hi ? in->samples[s].addr[l] + in->size : hi;
				}
	}
	return hi > lo ? (double)(hi - lo) : 0;
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
void tk_runs_own_trips(struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_run *runs,
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
		    !tk_in_l1(k, prof, &k->ins[i]))
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
