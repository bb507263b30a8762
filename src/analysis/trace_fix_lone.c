/*
 * trace_fix_lone.c - rule LT of the trace (docs/TRACE.md, "The fix", rule LT): a loop of global loads or stores run
 * by one thread of the block while the block's other threads wait (`if (threadIdx.x == 0) for (k ...) tile[k] =
 * x[b0 + k]; __syncthreads();`). The sign, measured: each such instruction's thread accesses equal its executions
 * (one active lane an execution), every sample's mask is one lane and every sample is the same warp of its block;
 * the block has two warps or more; and these instructions run LT_MIN times a block or more (a loop: one coalesced
 * request a warp would do 32 of them). The launch model sees them as requests of every thread (a broadcast a warp),
 * not as one lane's serial chain, so the measured time is far over the prediction.
 * The fix: spread the loop over the block's threads (each thread its own element: the lone requests become a 32nd
 * as many coalesced ones). Priced by the launch model: the lone instructions left out, the one with the most
 * executions read as every thread's own consecutive element (`gid`, its per-block count over the block's threads
 * iterations, a grid-stride step), the measured time over that (at least the issue floor). Named where the fix is
 * worth it, scored by the share of the measured time it removes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define LT_MIN 32      /* lone executions a block: a loop, not a block's one result stored by thread 0 */
#define LT_MAXG 128

static int lanes(uint32_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* a load or store (no atomic) of one lane an execution, every sample one lane of the same warp; global, or
   shared where sh (the tile the loop fills) */
static int lone_in(const struct gm_trace_insn *x, int sh)
{
	const struct gm_trace_instr *in = x->in;

	if ((in->space != GM_TS_GLOBAL && !(sh && in->space == GM_TS_SHARED)) ||
	    (in->op != GM_TO_LOAD && in->op != GM_TO_STORE) || !(in->executions > 0) ||
	    !(in->thread_accesses > 0) || in->thread_accesses > 1.001 * in->executions || in->nsamples < 1)
		return 0;
	for (int s = 0; s < in->nsamples; s++)
		if (lanes(in->samples[s].mask) != 1 || in->samples[s].warp != in->samples[0].warp)
			return 0;
	return 1;
}

static int lone(const struct gm_trace_insn *x)
{
	return lone_in(x, 0);
}

static double blocks_of(const struct gm_trace_launch *l)
{
	return (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2];
}

int tk_lone_loop(const struct gm_trace_kernel *k, int *lead, double *per_block)
{
	const struct gm_trace_launch *l = k->l;
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2];
	double e = 0, blocks = blocks_of(l);
	int n = 0, w = -1;

	*lead = -1, *per_block = 0;
	if (tpb < 2 * GM_WARP_SIZE || !(blocks > 0))
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (!lone(x))
			continue;
		if (w < 0)
			w = x->in->samples[0].warp;
		else if (x->in->samples[0].warp != w)
			return 0;   /* lone lanes in different warps: not one thread's loop */
		e += x->in->executions;
		n++;
		if (*lead < 0 || x->in->executions > k->ins[*lead].in->executions)
			*lead = i;
	}
	*per_block = e / blocks;
	if (*per_block < LT_MIN)
		return *lead = -1, *per_block = 0, 0;
	return n;
}

/* the issue floor (rule F's, tk_floor_free_ms) of the kernel without the loop's stretch of SASS: its one-lane
   instructions as not run (the spread loop's few instructions a thread are left out) */
static double issue_free_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct gm_trace_insn *ins2;
	struct gm_trace_instr *in2;
	struct gm_trace_kernel k2;
	double t = -1;

	if (tf_kernel_copy(k, &k2, &ins2, &in2) == 0) {
		for (int i = 0; i < k->nins; i++)
			if (lone_in(&k->ins[i], 1))
				in2[i].executions = 0;
		t = tk_floor_free_ms(&k2, prof, 1);
	}
	free(ins2);
	free(in2);
	return t;
}

/* the model's time of the kernel with the loop spread (0: not priced); *iters the spread loop's iterations */
static double spread_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *iters)
{
	static struct tk_swap sw[LT_MAXG];
	struct gm_launch_out o;
	char why[200];
	double pb;
	int lead, nsw = 0;
	const struct gm_trace_launch *l = k->l;
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2];

	if (!tk_lone_loop(k, &lead, &pb) || !prof || !k->pred_ok)
		return 0;
	*iters = (int)fmax(1, floor(pb / (double)tpb + 0.5));
	for (int i = 0; i < k->nins && nsw < LT_MAXG; i++)   /* the tile's one-lane stores: one a thread after (left out) */
		if (lone_in(&k->ins[i], 1))
			sw[nsw++] = i == lead ? (struct tk_swap){ i, "gid", *iters, k->threads, 0 } :
						(struct tk_swap){ i, NULL, 0, 0, 0 };
	if (tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return 0;
	return fmax(o.time_ms, issue_free_ms(k, prof));
}

double tk_lone_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int it;
	double t = k->time_ms > 0 ? spread_ms(k, prof, &it) : 0;

	return t > 0 ? k->time_ms / t : 0;
}

double tk_lone_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins)
{
	double pb, s;
	int lead, m = tk_lone_loop(k, &lead, &pb);
	char w[96];

	*ins = -1;
	if (!m || (s = tk_lone_speedup(k, prof)) < GM_TRACE_WORTH)
		return 0;
	const struct gm_trace_launch *l = k->l;
	*ins = lead;
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(buf, n, "a loop run by one thread of the block at %.60s (rule LT): %.0f one-lane global %s a block, "
		 "a request each, while its other %d threads wait: spread it over the block's threads (coalesced)", w,
		 pb, k->ins[lead].in->op == GM_TO_LOAD ? "loads" : "stores", l->block[0] * l->block[1] * l->block[2] - 1);
	return 1 - 1 / s;
}

int tf_lone_loop(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double pb;
	int lead, it = 1, m = tk_lone_loop(k, &lead, &pb);
	char w[96];

	if (!m || !(k->time_ms > 0))
		return -1;
	double t = spread_ms(k, prof, &it);
	if (!(t > 0) || k->time_ms / t < GM_TRACE_WORTH)
		return -1;
	double s = k->time_ms / t;
	const struct gm_trace_launch *l = k->l;
	int tpb = l->block[0] * l->block[1] * l->block[2];
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, m, s);
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "spread_loop");
	snprintf(fx->change, sizeof(fx->change), "the loop spread over the block's %d threads: %.0f one-lane requests a "
		 "block become %.0f coalesced ones (%d a thread)", tpb, pb, ceil(pb / GM_WARP_SIZE), it);
	snprintf(fx->words, sizeof(fx->words), "a loop run by one thread of the block (at %.60s): %.0f one-lane global "
		 "accesses a block, each its own request, one after another, while the other %d threads wait at the "
		 "barrier (rule LT). Spread it over the block's threads: thread t takes elements t, t + blockDim.x, ... "
		 "(a warp's lanes on consecutive words: one request a warp)", w, pb, tpb - 1);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: if (threadIdx.x == 0) for (int j = 0; j < N; j++) t[j] = "
		 "x[b0 + j];\nfor (int j = threadIdx.x; j < N; j += blockDim.x)\n    t[j] = x[b0 + j];   // every "
		 "thread its own elements, coalesced\n__syncthreads();");
	for (int i = 0; i < k->nins; i++)
		if (i != lead && lone(&k->ins[i])) {
			k->ins[i].fix.same_as = lead + 1;
		}
	char was[160];   /* the class in words names the loop; the lanes' class after it */
	snprintf(was, sizeof(was), "%s", k->ins[lead].fit.cls_text);
	snprintf(k->ins[lead].fit.cls_text, sizeof(k->ins[lead].fit.cls_text), "one thread's loop, %.0f "
		 "one-lane requests a block (its lanes: %.60s)", pb, was);
	return lead;
}
