/*
 * trace_fix_threads.c - rule more_threads of the trace's fixes (docs/TRACE.md, "The fix"; called by trace_fix.c's
 * gm_trace_fixes after rule FB): a launch of too few warps whose accesses are each at their ideal sectors and walk a
 * loop, the loop split over more threads and priced by the launch model.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

static int name_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* expr (a 1D index of gid) with each gid as gid % t: the original thread of the spread launch's thread */
static int gid_mod(const char *expr, int64_t t, char *out, size_t n)
{
	size_t len = 0;

	for (const char *p = expr; *p; ) {
		int id = !strncmp(p, "gid", 3) && (p == expr || !name_char(p[-1])) && !name_char(p[3]);
		int w = id ? snprintf(out + len, n - len, "(gid %% %lld)", (long long)t) : snprintf(out + len, n - len, "%c", *p);
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
		p += id ? 3 : 1;
	}
	return 0;
}

#define SPREAD_LEN 240
#define MAX_SPREAD 64   /* instructions a spread launch carries, as trace_fix.c's groups (MAXG) */
static char spread_text[MAX_SPREAD][SPREAD_LEN];

/*
 * Rule more_threads: a launch of fewer warps than a quarter of the GPU's resident warps (profile: SMs x threads
 * per SM / 32) whose global loads and stores are each at their ideal sectors (nothing to fix in the pattern) and
 * walk a loop: its time is the loop's latency with too few warps in flight. The loop is split over v times the
 * threads, thread t + j T (T the launch's threads) taking iterations j, j + v, ...: the same pattern, its
 * iteration j at gid / T, iters / v a thread, the loop's step v times longer (a reduction adds its v partial
 * results after, one atomic or a second pass: not counted). v = 2, 4 .. up to the iterations and the resident
 * warps over the launch's, the one the launch model finds fastest (a larger one only when 2 % faster); the time
 * the model does not explain (the waiting) is divided by the warps added (v, at most what the GPU holds). The fix
 * of the largest instruction, covering them all; 1 when it applies and pays.
 */
int tf_more_threads(struct gm_trace_kernel *k, const struct gm_profile *prof, int lead)
{
	struct tk_swap sw[MAX_SPREAD];
	struct gm_launch_out o;
	struct gm_trace_launch l2;
	struct gm_trace_kernel k2;
	double warps = (double)((k->threads + 31) / 32), best = 0, cap;
	double blocks = (double)k->l->grid[0] * k->l->grid[1] * k->l->grid[2];
	int nsw = 0, loops = 0, maxit = 0, v = 0;
	char why[200];

	cap = prof && prof->sm_count > 0 ? prof->sm_count * (prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048) / 32.0 : 0;
	if (!k->pred_ok || !(k->mem_ms > 0) || cap <= 0 || warps * 16 > cap || k->nins < 1 || k->nins > MAX_SPREAD || !(blocks > 0))
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;
		if (x->in->space != GM_TS_GLOBAL || !x->fit.map.known || x->fit.approx || !x->fit.expr1d[0] ||
		    !(per > 0) || !(x->fit.ideal_per_req > 0) || per > x->fit.ideal_per_req * 1.02 ||
		    (x->fit.iters > 1 && !x->fit.map.iter_step))
			return 0;
		loops += x->fit.iters > 1;
		maxit = x->fit.iters > maxit ? x->fit.iters : maxit;
	}
	if (!loops)
		return 0;
	for (int w = 2; w <= maxit && warps * w <= cap; w *= 2) {
		nsw = 0;
		for (int i = 0; i < k->nins; i++) {
			const struct gm_trace_insn *x = &k->ins[i];
			char e[SPREAD_LEN - 40];
			int64_t step = x->fit.map.iter_step;
			if (gid_mod(x->fit.expr1d, k->threads, e, sizeof(e)))
				return 0;
			if (x->fit.iters > 1)
				snprintf(spread_text[nsw], SPREAD_LEN, "%s + (gid / %lld) * %lld", e, (long long)k->threads,
					 (long long)step);
			else
				snprintf(spread_text[nsw], SPREAD_LEN, "%s", e);
			sw[nsw] = (struct tk_swap){ i, spread_text[nsw], x->fit.iters > 1 ? (x->fit.iters + w - 1) / w : 1,
						    x->fit.iters > 1 ? step * w : 0 };
			nsw++;
		}
		k2 = *k, l2 = *k->l;
		l2.grid[0] *= w;
		k2.l = &l2;
		k2.threads = k->threads * w;
		if (tk_predict(&k2, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
			continue;
		/* the same instructions issue on the SMs the spread launch's blocks reach (rule I's floor) */
		double s = tf_kernel_speedup(k, prof, o.time_ms, w, fmin(prof->sm_count, blocks * w) / fmin(prof->sm_count, blocks));
		if (s > best * 1.02)
			best = s, v = w;
	}
	if (best < GM_TRACE_WORTH)
		return 0;
	struct gm_trace_fix *fx = &k->ins[lead].fix;
	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = k->nins;
	fx->share = 1;
	fx->pattern_speedup = fx->kernel_speedup = best;
	snprintf(fx->rewrite, sizeof(fx->rewrite), "more_threads");
	snprintf(fx->change, sizeof(fx->change), "the loop split over %dx the threads (%lld instead of %lld), each "
		 "taking one iteration in %d: %d a thread instead of %d", v, (long long)k->threads * v,
		 (long long)k->threads, v, (maxit + v - 1) / v, maxit);
	snprintf(fx->words, sizeof(fx->words), "the launch has %.0f warps where the GPU holds %.0f: its loop waits "
		 "for one load at a time in too few threads, not for its bytes (each access is at its ideal sectors). "
		 "Launch %dx the threads, each taking one iteration in %d (a grid-stride loop: a full grid; a "
		 "reduction: add the partial results after, one atomic a thread or a second pass)", warps, cap, v, v);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: %lld threads, each looping over i = t, t + T, ... (T = %lld)\n"
		 "int T = %lld, j = (blockIdx.x * blockDim.x + threadIdx.x) / T, t = ... %% T;\n"
		 "for (long i = j; i < iters; i += %d) acc += x[index(t, i)];   // launch %dx the blocks\n"
		 "atomicAdd(&out[t], acc);   // a reduction: the %d partial results added (a grid-stride loop: none)",
		 (long long)k->threads, (long long)k->threads, (long long)k->threads, v, v, v);
	for (int i = 0; i < k->nins; i++)
		if (i != lead)
			k->ins[i].fix.same_as = lead + 1;
	return 1;
}
