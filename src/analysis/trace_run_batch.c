/*
 * trace_run_batch.c - a program-level rule of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h) on one kernel
 * launched again and again over work that does not depend on the launches before: a loop of the host's around a
 * launch too small for the GPU.
 * - batch_launches: two or more consecutive launches of one kernel, one grid and block, each with half as many blocks
 *   as one wave of the GPU holds or fewer (the SMs times the blocks an SM keeps resident: rule OC's, or its threads
 *   and slots), each storing (with sampled addresses) where no other launch of the chain loads or stores, and
 *   loading nothing another launch of the chain stores: the launches are independent (disjoint slices of one
 *   array, or buffers of their own; inputs they share, such as a table of parameters, may be read by all) (set 28's
 *   imgloop: a Python loop launching `standardize` once a 640 x 480 frame, 300 blocks a launch, 16 frames). Each
 *   such launch pays its ramp, its tail and its start, and keeps too few loads in flight to reach DRAM's rate;
 *   joined, they fill the SMs.
 *   Fix: one launch over the whole batch (a grid of (blocks, n), blockIdx.y the slice; or a grid-stride loop; where
 *   the launches must stay, a CUDA graph saves the host's launch calls, not the ramps). Price: the launch model over
 *   the joined work (the first launch's fitted accesses over n times its threads, blocks of the same size: its ramp,
 *   waves and start once), at least the first launch's issue floor n times and rule F's launch, against the n
 *   launches' measured times. Refused: a launch of the chain loading or storing what another stores (step_loop's in
 *   place steps, a pipeline's stages, a benchmark's repeats on one output), a launch over half a wave (most of a
 *   wave loses only its ramp and tail), launches of another grid (priced only for a 1D grid), a store without
 *   sampled addresses, a launch between them.
 * Named only where it saves GM_TRACE_WORTH of the run or more; the chain is named once, from its first launch to its
 * last.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

#define BATCH_MAX 256
#define BATCH_FILL 0.5   /* a launch under-fills the GPU at half a wave of blocks or fewer: half its SMs' block
			    slots idle from start to end (a launch of most of a wave loses only its ramp and tail) */

/* the blocks one wave of the GPU holds for k's launch: the SMs times its resident blocks (rule OC, else its threads
   and the 32 slots); 0 where unknown */
static double wave_blocks(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int bt = k->l->block[0] * k->l->block[1] * k->l->block[2], per = k->occ.blocks;

	if (!prof || prof->sm_count <= 0 || bt <= 0)
		return 0;
	if (per <= 0 && prof->threads_per_sm > 0)
		per = prof->threads_per_sm / bt < 32 ? prof->threads_per_sm / bt : 32;
	return per > 0 ? (double)per * prof->sm_count : 0;
}

static int is_write(enum gm_trace_op op)
{
	return op == GM_TO_STORE || op == GM_TO_ATOMIC || op == GM_TO_REDUCTION;
}

/* k's global writes (stores, atomics, reductions) all have sampled addresses, and there is one at least */
static int writes_known(const struct gm_trace_kernel *k)
{
	int64_t lo, hi;
	int n = 0;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		if (in->space != GM_TS_GLOBAL || !is_write(in->op))
			continue;
		if (!tr_range(&k->ins[i], in->op, &lo, &hi))
			return 0;
		n++;
	}
	return n > 0;
}

/* no global write of a meets a global access of b, nor a write of b an access of a: the two are independent */
static int independent(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b)
{
	const enum gm_trace_op any[] = { GM_TO_LOAD, GM_TO_STORE, GM_TO_ATOMIC, GM_TO_REDUCTION };
	const struct gm_trace_kernel *w[2] = { a, b }, *o[2] = { b, a };
	int64_t lo, hi;

	for (int s = 0; s < 2; s++)
		for (int i = 0; i < w[s]->nins; i++) {
			const struct gm_trace_instr *in = w[s]->ins[i].in;
			if (in->space != GM_TS_GLOBAL || !is_write(in->op) || !tr_range(&w[s]->ins[i], in->op, &lo, &hi))
				continue;
			for (size_t q = 0; q < sizeof(any) / sizeof(any[0]); q++)
				if (tr_touches(o[s], any[q], lo, hi, -1))
					return 0;
		}
	return 1;
}

/* k may join the chain ks[0 .. n-1]: the next launch of the same kernel, grid and block, at most half a wave, measured,
   independent of every launch before it in the chain */
static int joins(const struct gm_trace_kernel *const *ks, int n, const struct gm_trace_kernel *k,
		 const struct gm_profile *prof)
{
	const struct gm_trace_kernel *p = n ? ks[n - 1] : NULL;
	double wb = wave_blocks(k, prof);

	if (!(k->time_ms > 0) || !k->pred_ok || !writes_known(k) || !(wb > 0) ||
	    (double)k->l->grid[0] * k->l->grid[1] * k->l->grid[2] > BATCH_FILL * wb)
		return 0;
	if (p && (k->l->index != p->l->index + 1 || strcmp(k->l->kernel, p->l->kernel) || !tr_same_shape(p, k)))
		return 0;
	for (int j = 0; j < n; j++)
		if (!independent(ks[j], k))
			return 0;
	return 1;
}

/* the launch model's ms for one launch of a's kernel over n times its blocks (a 1D grid: the fitted accesses over the
   joined threads, gid running on through the slices), at least n times a's issue floor and rule F's launch; 0 where
   not priced */
static double joined_ms(const struct gm_trace_kernel *a, int n, const struct gm_profile *prof)
{
	struct gm_trace_launch l = *a->l;
	struct gm_trace_kernel m = *a;
	struct gm_launch_out o;
	char why[200];

	if (a->l->grid[1] != 1 || a->l->grid[2] != 1)
		return 0;
	l.grid[0] *= n;
	m.l = &l, m.threads = a->threads * n;
	if (tk_predict(&m, prof, -1, NULL, 0, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return 0;
	double issue = n * tk_issue_ms(a, prof), launch = tk_floor_free_ms(a, prof, INFINITY);   /* rules I, F */
	return fmax(o.time_ms, fmax(issue, launch));
}

static void batch_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, int n, double t1,
			double meas, double wb)
{
	const struct gm_trace_kernel *a = &r->k[f->first];
	char ws[64];

	tr_where(&a->ins[f->ins_first], ws, sizeof(ws));
	snprintf(f->words, sizeof(f->words), "launches %lld to %lld run one kernel, %s, %d times in a row, each on "
		 "%lld blocks of %d threads, at most half the %.0f one wave of this GPU holds (%d SMs), and each stores "
		 "(at %s, from 0x%llx) where no other of them loads or stores: independent slices of work, each too "
		 "small to fill the GPU, each paying its own start, ramp and tail with too few loads in flight. One "
		 "launch over the whole batch (a grid of (%lld, %d), blockIdx.y picking the slice, or a grid-stride "
		 "loop over all %d) fills the SMs: the launch model prices it (the first launch's accesses over %d times "
		 "its threads) at %.4f ms against the %d launches' %.4f ms measured: %.0f %% of the run's %.4f ms "
		 "saved. Where the launches must stay apart (a host step between them), a CUDA graph of them saves the "
		 "host's launch calls but not the ramps", (long long)a->l->index, (long long)r->k[f->second].l->index,
		 tr_name(a), n, (long long)a->l->grid[0], a->l->block[0] * a->l->block[1] * a->l->block[2], wb,
		 r->prof ? r->prof->sm_count : 0, ws, (long long)f->lo, (long long)a->l->grid[0], n, n, n, t1, n, meas,
		 100 * f->saved_ms / r->across.run_ms, r->across.run_ms);
	snprintf(f->sketch, sizeof(f->sketch), "// before: for (b = 0; b < n; b++) k<<<g, t>>>(in + b * len, out + b * "
		 "len, b);\n// after:  k<<<dim3(g, n), t>>>(in, out);  // b = blockIdx.y; in += b * len; out += b * len;");
}

/* the first global store of k with sampled addresses */
static int first_store(const struct gm_trace_kernel *k)
{
	int64_t lo, hi;

	for (int i = 0; i < k->nins; i++)
		if (tr_range(&k->ins[i], GM_TO_STORE, &lo, &hi))
			return i;
	return -1;
}

int tr_batch_launches(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	static const struct gm_trace_kernel *ks[BATCH_MAX];
	int n = 0;

	while (ia + n < r->nk && n < BATCH_MAX && joins(ks, n, &r->k[ia + n], r->prof)) {
		ks[n] = &r->k[ia + n];
		n++;
	}
	if (n < 2)
		return -1;
	double meas = 0, t = r->across.run_ms, t1 = joined_ms(ks[0], n, r->prof);
	for (int j = 0; j < n; j++)
		meas += ks[j]->time_ms;
	f->saved_ms = meas - t1;
	int st = first_store(ks[0]);
	if (!(t1 > 0) || st < 0 || !(f->saved_ms > 0) || t / (t - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	const struct gm_trace_insn *x = &ks[0]->ins[st];
	int64_t lo, hi;
	tr_range(x, GM_TO_STORE, &lo, &hi);
	if (x->fit.map.known && !x->fit.approx)   /* the fitted map's first byte and the bytes its threads touch */
		lo = tr_first_byte(x), hi = lo + (int64_t)llround(x->in->thread_accesses) * x->in->size;
	f->rule = GM_TR_BATCH_LAUNCHES, f->first = ia, f->second = ia + n - 1, f->ins_first = st;
	f->ins_second = first_store(ks[n - 1]);
	f->lo = lo, f->hi = hi;
	batch_words(r, f, n, t1, meas, wave_blocks(ks[0], r->prof));
	return f->second;
}
