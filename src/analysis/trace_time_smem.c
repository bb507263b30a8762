/*
 * trace_time_smem.c - the trace's rules on the launch model's shared-memory time (docs/TRACE.md, "The kernel's
 * prediction"): V, the shared wavefronts the launch ran, as measured; P, a tile each warp keeps to itself waits
 * at no block barrier; B, the barrier steps of a shared-memory loop.
 */
#include <math.h>
#include <string.h>
#include "analysis/trace_internal.h"

/*
 * Rule V, the shared wavefronts as measured: the launch model runs every pattern in every warp of the launch,
 * executions / warps times (at least once) with all 32 lanes; a tree reduction's steps run in fewer warps each
 * step and with fewer lanes (`if (idx < 256)`), so the model counted 399.5 M wavefronts where the counters
 * measured 18.6 M (set 5's blocksum_interleaved). The scale is the measured wavefronts of the shared
 * instructions the model takes over the model's own count for them, from the kernel's first prediction; never
 * above 1 (a fitted pattern is exact where a warp runs all its lanes); 0 when one of them has no measured count.
 */
double tk_smem_ratio(const struct gm_trace_kernel *k, const struct gm_launch_out *o)
{
	double meas = 0;

	if (!(o->smem_wavefronts > 0))
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space != GM_TS_SHARED || !x->fit.expr1d[0])
			continue;
		if (!(x->in->wavefronts >= 0))
			return 0;
		meas += x->in->wavefronts;
	}
	return meas > 0 && meas < o->smem_wavefronts ? meas / o->smem_wavefronts : 0;
}

/*
 * The model's shared wavefronts times the scale (a fix's replacement pattern runs in the same warps: the same
 * scale), and with them its L1 time and the barrier's share of the wave (rule T6 serves the same wavefronts);
 * the time joined again (T3).
 */
void tk_smem_as_measured(const struct gm_profile *prof, double s, struct gm_launch_out *o)
{
	if (!prof || !(prof->l1_gbs > 0) || !(o->smem_wavefronts > 0) || !(s > 0) || !(s < 1))
		return;
	double cut = o->smem_wavefronts * (1 - s);
	o->smem_wavefronts -= cut;
	o->t_l1_ms = fmax(0, o->t_l1_ms - cut * 128.0 / prof->l1_gbs / 1e6);
	o->t_waves_ms -= o->t_barrier_ms * (1 - s);
	o->t_barrier_ms *= s;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}

/*
 * Rule P, a tile each warp keeps to itself: rule T6 holds the shared work behind a block barrier, every warp of
 * the block waiting for the block's last load, and rule B adds the steps of a loop of barriers. A warp that reads
 * back only what it wrote itself (a tile a warp, `tile[warp][...]`, with __syncwarp) waits for no other warp.
 * Shared addresses are the block's own window, so the sampled warps of every block are taken together by their
 * index in the block: the range of each index's lanes over every shared instruction meets no other index's.
 * Needs a block of more than one warp and two warp indices sampled (the sampler takes one warp a block), and every
 * shared instruction of a loop at the same addresses each iteration (a fitted map without an iteration term): the
 * sampler takes a warp's first iterations only, and a tree's later steps (`sdata[tid + s]`, s doubling) reach
 * other warps' words (ec15b0a's reduce0: its first two steps stay in each warp's range).
 */
int tk_warp_private(const struct gm_trace_kernel *k)
{
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	enum { W = 32 };   /* warps of a 1024-thread block */
	int64_t lo[W], hi[W];
	int seen = 0;

	if (tpb <= GM_WARP_SIZE)
		return 0;
	for (int w = 0; w < W; w++)
		lo[w] = INT64_MAX, hi[w] = INT64_MIN;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		const struct gm_trace_fit *f = &k->ins[i].fit;
		if (in->space == GM_TS_SHARED && f->iters > 1 &&
		    (!f->map.known || f->approx || f->map.iter_step || f->map.niter_tab))
			return 0;   /* a loop whose later iterations go elsewhere: the sampled ones do not tell */
		for (int q = 0; in->space == GM_TS_SHARED && q < in->nsamples; q++) {
			const struct gm_trace_sample *s = &in->samples[q];
			if (s->warp < 0 || s->warp >= W)
				return 0;
			for (int ln = 0; ln < GM_WARP_SIZE; ln++)
				if (s->have >> ln & 1) {
					lo[s->warp] = s->addr[ln] < lo[s->warp] ? s->addr[ln] : lo[s->warp];
					hi[s->warp] = s->addr[ln] + in->size - 1 > hi[s->warp] ? s->addr[ln] + in->size - 1
											       : hi[s->warp];
				}
		}
	}
	for (int a = 0; a < W; a++) {
		if (lo[a] > hi[a])
			continue;
		seen++;
		for (int b = a + 1; b < W; b++)
			if (lo[b] <= hi[b] && lo[a] <= hi[b] && lo[b] <= hi[a])
				return 0;
	}
	return seen >= 2;
}

/* The barrier's part of the wave taken out (rule P), the time joined again. */
void tk_no_barrier(const struct gm_profile *prof, struct gm_launch_out *o)
{
	if (!(o->t_barrier_ms > 0))
		return;
	o->t_waves_ms -= o->t_barrier_ms;
	o->t_barrier_ms = 0;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}

/* Rule SG's test: a shared instruction that no map of the ids fits and whose lanes, in some sampled warp, are not
   evenly spaced (at least three lanes): its words are the data's choice, not a stride the loop changes (a tree's
   `sdata[2 * s * tid]`, evenly spaced in every warp, is still a step of rule B). */
static int data_chosen(const struct gm_trace_insn *x)
{
	const struct gm_trace_instr *in = x->in;

	if (in->space != GM_TS_SHARED || x->fit.cls != GM_TC_GATHER)
		return 0;
	for (int q = 0; q < in->nsamples; q++) {
		const struct gm_trace_sample *sm = &in->samples[q];
		int first = -1, prev = -1, n = 0;
		int64_t step = 0;
		for (int ln = 0; ln < GM_WARP_SIZE; ln++) {
			if (!(sm->have >> ln & 1))
				continue;
			if (first < 0)
				first = ln;
			else if (n == 1)
				step = (sm->addr[ln] - sm->addr[first]) / (ln - first);
			if (n >= 1 && sm->addr[ln] - sm->addr[prev] != step * (ln - prev))
				return 1;
			prev = ln;
			n++;
		}
	}
	return 0;
}

/* The sampled byte range of a shared instruction's lanes, every sampled warp; 0 when none was sampled. */
static int sampled_range(const struct gm_trace_instr *in, int64_t *lo, int64_t *hi)
{
	*lo = INT64_MAX, *hi = INT64_MIN;
	for (int q = 0; q < in->nsamples; q++)
		for (int ln = 0; ln < GM_WARP_SIZE; ln++)
			if (in->samples[q].have >> ln & 1) {
				*lo = in->samples[q].addr[ln] < *lo ? in->samples[q].addr[ln] : *lo;
				*hi = in->samples[q].addr[ln] + in->size - 1 > *hi ? in->samples[q].addr[ln] + in->size - 1 : *hi;
			}
	return *lo <= *hi;
}

/* A step instruction's loop (the step instructions its warps run as often as it, within 1 %) exchanges words between
   warps: one of its stores writes bytes one of its loads reads (sampled ranges that meet; an instruction without a
   sampled lane is taken to meet every other), or it has a shared atomic. Without that the loop needs no barrier (rule B). ex[] caches the
   answer of each loop: -1 not asked yet. */
static int loop_exchanges(const struct gm_trace_kernel *k, const int *ix, const char *step, int n, int j, signed char *ex)
{
	static int64_t lo[GM_TRACE_MAX_INSNS], hi[GM_TRACE_MAX_INSNS];
	static char has[GM_TRACE_MAX_INSNS];
	double e = k->ins[ix[j]].in->executions;
	int r = 0, m = 0;
	static int mem[GM_TRACE_MAX_INSNS];

	if (ex[j] >= 0)
		return ex[j];
	for (int a = 0; a < n; a++)
		if (step[a] && fabs(k->ins[ix[a]].in->executions - e) <= 0.01 * e) {
			mem[m++] = a;
			has[a] = (char)sampled_range(k->ins[ix[a]].in, &lo[a], &hi[a]);
		}
	for (int p = 0; p < m && !r; p++)
		for (int q = 0; q < m && !r; q++) {
			int a = mem[p], b = mem[q];
			enum gm_trace_op oa = k->ins[ix[a]].in->op, ob = k->ins[ix[b]].in->op;
			r = oa == GM_TO_ATOMIC || oa == GM_TO_REDUCTION ||   /* shared atomics: their turns, as before */
			    (oa == GM_TO_STORE && ob == GM_TO_LOAD && (!has[a] || !has[b] || (lo[b] <= hi[a] && lo[a] <= hi[b])));
		}
	for (int p = 0; p < m; p++)
		ex[mem[p]] = (signed char)r;
	return r;
}

/*
 * Rule B, the barrier steps of a shared-memory loop (docs/TRACE.md, "The kernel's prediction"): a shared
 * instruction that a block's warps run more often than once each is a step of a loop over shared memory (a
 * tree reduction), and in a block of more than one warp each step ends at a barrier where the loop exchanges
 * words between warps (loop_exchanges). Every resident block of
 * the wave is at the same step then, with no load in flight to hide it behind: the SM issues the step's
 * instructions for all its resident warps, four a cycle (one per scheduler, sm_70 and later), and serves the
 * step's shared wavefronts above the ideal (bank conflicts) one a cycle. The instructions of a step are the
 * SASS between the instruction and the memory instruction before it (16 B an instruction), run as often as the
 * instruction: the loop's body and its control. Summed over the launch, on the SMs it uses, at the profile's SM
 * clock, and added to the model's time: the model's round trips and barrier (T2, T6) do not hold them.
 */
double tk_steps_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
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
	static char step[GM_TRACE_MAX_INSNS];
	static signed char ex[GM_TRACE_MAX_INSNS];
	n = tk_by_pc(k, ix);
	memset(ex, -1, sizeof(ex));
	for (int j = 0; j < n; j++) {
		const struct gm_trace_instr *in = k->ins[ix[j]].in;
		step[j] = in->space == GM_TS_SHARED && in->executions > warps * 1.0001 &&
			  !data_chosen(&k->ins[ix[j]]);   /* rule SG: no step */
	}
	for (int j = 0; j < n; j++) {
		const struct gm_trace_instr *in = k->ins[ix[j]].in;
		int64_t from = j ? k->ins[ix[j - 1]].in->pc + 16 : 0;
		if (!step[j] || !loop_exchanges(k, ix, step, n, j, ex))   /* no barrier in its loop */
			continue;
		issued += in->executions * (double)(in->pc + 16 - from) / 16;
		double ideal = in->ideal_wavefronts >= 0 ? in->ideal_wavefronts : in->requests * k->ins[ix[j]].fit.ideal_per_req;
		if (in->wavefronts > 0 && ideal > 0)
			extra += fmax(0, in->wavefronts - ideal);
	}
	double sms = blocks < prof->sm_count ? blocks : prof->sm_count;
	return (issued / 4 + extra) / (sms * prof->sm_clock_mhz * 1e3);
}

/*
 * Rule SG, shared accesses at addresses the data chooses (docs/TRACE.md, "The kernel's prediction"): a counter a
 * thread bumps at a digit it loaded (`c[tid * 16 + digit]++`, set 10's radix), a table looked up, a binary search.
 * No map of the ids fits them, so the launch model has no pattern for them, and rule B took each of their
 * executions for a step of a loop of barriers, added to the time. Warps that read and write shared words the data
 * chooses exchange nothing at fixed steps: no barrier holds them in the loop, and each warp's shared work overlaps
 * the other warps' loads. Their measured wavefronts (bank conflicts included) join the L1 level instead, at
 * `l1_gbs` a 128 B wavefront as the model's own shared wavefronts (on the SMs the launch uses, rule U), and the time
 * is joined again (T3). No constant.
 */
void tk_shared_gathers(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2], wf = 0;

	if (!prof || !(prof->l1_gbs > 0) || prof->sm_count <= 0 || !(blocks > 0))
		return;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		const struct gm_trace_instr *in = x->in;
		double req = in->requests > 0 ? in->requests : in->executions;
		if (data_chosen(x) && !x->fit.expr1d[0])
			wf += in->wavefronts >= 0 ? in->wavefronts : req > 0 ? req * x->fit.sample_per_req : 0;
	}
	if (!(wf > 0))
		return;
	double sms = blocks < prof->sm_count ? blocks / prof->sm_count : 1;
	o->t_l1_ms += wf * 128.0 / (prof->l1_gbs * sms) / 1e6;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}
