/*
 * trace_time_row.c - rule R3, a lane's own sectors serve its next iterations (docs/TRACE.md, "The kernel's
 * prediction"): a thread that walks its own row in steps under a sector (lanes a row apart) pulls a 32 B sector
 * from DRAM once and reads its next iterations from L1 while the SM holds its warps' lines, where rule R2 charged
 * every iteration a round trip as a fresh column walk. Two parts, both from the sampled lanes at iteration 0 and
 * the fitted step of the loop:
 * - the iterations in which the warp touches a sector it has not touched before (tk_row_fresh): one in
 *   32 / step for rows that start on a sector, more where the lanes' rows start at different offsets;
 * - a load whose every lane reads, each iteration, a sector an earlier load of the same walk read in that
 *   iteration at a lower address (tk_row_same_sector): the unrolled pieces of a row (x[8j+1] after x[8j]) wait
 *   for no trip of their own.
 * Whether the lines stay is rule R2's (trace_trips.c): the SM's resident threads times a 128 B line (L1 keeps
 * lines, sectors filled on demand) for each walk must fit in l1_bytes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define R3_SECTOR 32
#define R3_ITERS 64      /* iterations walked with the sampled lanes (the pattern repeats within 32 / step) */
#define R3_SAMPLES 8     /* warps sampled at iteration 0 that are walked */

static int64_t sector_of(int64_t addr)
{
	return addr >= 0 ? addr / R3_SECTOR : -((-addr + R3_SECTOR - 1) / R3_SECTOR);
}

/* A lane at address a moving s bytes an iteration touched sector S in one of its iterations 0 .. i. */
static int touched(int64_t a, int64_t s, int64_t S, int i)
{
	int64_t lo = S * R3_SECTOR - a, hi = lo + R3_SECTOR - 1;   /* s * k in [lo, hi] */

	if (s < 0) {
		int64_t t = -hi;
		hi = -lo, lo = t, s = -s;
	}
	if (s == 0)
		return lo <= 0 && hi >= 0;
	if (hi < 0)
		return 0;
	int64_t k0 = lo <= 0 ? 0 : (lo + s - 1) / s, k1 = hi / s;
	return k0 <= k1 && k0 <= i;
}

/* The step a thread moves each iteration, bytes; 0 when rule R3 cannot take the load. */
static int64_t row_step(const struct gm_trace_insn *x)
{
	if (x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD || !x->fit.map.known || x->fit.approx ||
	    x->fit.map.niter_tab || x->fit.iters < 2)
		return 0;
	return x->fit.map.iter_step * x->in->size;
}

/*
 * Rule R4, a load that does not move with its loop: a fitted global load whose map has no iteration term in a loop
 * of its own (iterations >= 2) reads the same bytes every iteration, re-read because a store between may alias it
 * (`w[r * C + c] = q[r * C + c] * s[r]`: s[r] loaded again after each store). Its first iteration fetches the
 * line; the next ones find it in L1 while the SM holds it (rule R2's line budget, as rule R3's walks). Only where
 * the samples saw the load at more than one iteration (a map whose iteration never varied says nothing of it).
 */
int tk_row_invariant(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_LOAD && x->fit.map.known && !x->fit.approx &&
	       !x->fit.map.niter_tab && x->fit.iters >= 2 && x->fit.map.iter_step == 0 &&
	       !(x->fit.map.open >> GM_TV_ITER & 1);   /* the samples saw it at two iterations at least */
}

/* The share of the loop's iterations in which a sampled warp touches a sector it did not touch before: 1 for a
   step of a sector or more (or no samples). */
double tk_row_fresh(const struct gm_trace_insn *x)
{
	int64_t s = row_step(x);
	double sum = 0;
	int n = 0;

	if (!s || llabs(s) >= R3_SECTOR)
		return 1;
	int P = x->fit.iters < R3_ITERS ? x->fit.iters : R3_ITERS;
	for (int q = 0; q < x->in->nsamples && n < R3_SAMPLES; q++) {
		const struct gm_trace_sample *a = &x->in->samples[q];
		int64_t A[GM_WARP_SIZE];
		int m = 0, fresh = 1;   /* iteration 0 */
		if (a->iter)
			continue;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1)
				A[m++] = a->addr[l];
		if (!m)
			continue;
		for (int i = 1; i < P; i++) {
			int any = 0;
			for (int l = 0; l < m && !any; l++) {
				int64_t S = sector_of(A[l] + s * i), seen = 0;
				for (int o = 0; o < m && !seen; o++)
					seen = touched(A[o], s, S, i - 1);
				any = !seen;
			}
			fresh += any;
		}
		sum += (double)fresh / P;
		n++;
	}
	return n ? sum / n : 1;
}

/* x and y walk with the same step and iterations, and in every warp sampled for both at iteration 0 each lane
   of x reads a sector that a lane of y reads before it in the walk's direction (an earlier piece of the same
   sector; the first piece of a sector fetches it, and a later loop's first piece is not an earlier loop's). */
int tk_row_same_sector(const struct gm_trace_insn *x, const struct gm_trace_insn *y)
{
	int64_t s = row_step(x);
	int both = 0;

	if (!s || row_step(y) != s || y->fit.iters != x->fit.iters)
		return 0;
	for (int i = 0; i < x->in->nsamples; i++) {
		const struct gm_trace_sample *a = &x->in->samples[i];
		if (a->iter)
			continue;
		for (int j = 0; j < y->in->nsamples; j++) {
			const struct gm_trace_sample *b = &y->in->samples[j];
			if (b->iter || b->warp != a->warp || memcmp(b->block, a->block, sizeof(a->block)))
				continue;
			for (int l = 0; l < GM_WARP_SIZE; l++) {
				int in = 0;
				if (!(a->have >> l & 1))
					continue;
				for (int o = 0; o < GM_WARP_SIZE && !in; o++)
					in = (b->have >> o & 1) && sector_of(b->addr[o]) == sector_of(a->addr[l]) &&
					     (s > 0 ? b->addr[o] < a->addr[l] : b->addr[o] > a->addr[l]);
				if (!in)
					return 0;
			}
			both++;
			break;
		}
	}
	return both > 0;
}

/*
 * Rule R3b, an L1 hit's wavefronts are its banks' (docs/TRACE.md): L1's data array is the SM's 32 banks of 4 B,
 * shared memory's, and a request whose lines are there takes one wavefront per distinct 4 B word in its busiest
 * bank, as a shared request does (lanes on one word share it; the words of one 128 B line lie in 32 different
 * banks). Lanes a row of 4096 B apart hit one bank, 32 wavefronts (a line a lane, as rule R3 had it); lanes 4000 B
 * apart (1000 words: bank 8 l mod 32) four banks, 8 wavefronts. Elements over 4 B keep a line a wavefront. No
 * samples: the measured sectors' lines (tk_lines_per_request).
 */
double tk_row_wavefronts(const struct gm_trace_insn *x)
{
	double tot = 0;
	int n = 0;

	if (x->in->size > 4)
		return tk_lines_per_request(x);
	for (int i = 0; i < x->in->nsamples; i++) {
		const struct gm_trace_sample *a = &x->in->samples[i];
		int64_t w[GM_WARP_SIZE];
		int m = 0, most = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1) {
				int64_t v = a->addr[l] >> 2;
				int q = 0;
				while (q < m && w[q] != v)
					q++;
				if (q == m)
					w[m++] = v;
			}
		for (int q = 0; q < m; q++) {
			int c = 0;
			for (int o = 0; o < m; o++)
				c += (w[o] & 31) == (w[q] & 31);
			most = c > most ? c : most;
		}
		if (m)
			tot += most, n++;
	}
	return n ? tot / n : tk_lines_per_request(x);
}

/*
 * The iterations a run reads from L1 are not free: with the lines resident, each still waits while its SM's L1
 * serves the resident warps' requests of that iteration, a 128 B line a wavefront (lanes a row apart: 32 lines
 * a request), the loads' and the stores' issued after them, at the SM's share of l1_gbs. A thread's iterations
 * follow one another, so that time joins its round trips (t_waves_ms), and the time is joined again (T3).
 */
void tk_row_hits(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_run *runs,
		 int nruns, struct gm_launch_out *o)
{
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2], wf = 0;

	if (!prof || !(prof->l1_gbs > 0) || prof->sm_count <= 0 || prof->threads_per_sm <= 0 || tpb <= 0)
		return;
	for (int r = 0; r < nruns; r++)
		wf += (double)runs[r].hits * runs[r].hit_lines;
	if (!(wf > 0))
		return;
	double per_sm = fmin((double)(prof->threads_per_sm / tpb), ceil(blocks / prof->sm_count));
	double rate = prof->l1_gbs * 1e9 / (prof->sm_count * 128.0);   /* wavefronts a second, one SM (128 B each) */
	o->t_waves_ms += wf * per_sm / rate * 1e3;
	o->limited_by = o->t_waves_ms > o->t_bandwidth_ms ? "latency" : o->limited_by;
	tk_rejoin(o, prof, o->time_ms);
}
