/*
 * trace_fix_local.c - rule registers of the trace's fixes (docs/TRACE.md, "The fix"): a per-thread array in local
 * memory kept in registers.
 *   - An array indexed at run time (trace_class.c's "local array indexed at run time": lanes at different offsets
 *     of their stacks) lives in local memory, because registers cannot be indexed by a value known only at run
 *     time. Unrolled loops with compile-time indices (a sorting network of min / max exchanges, a fixed selection)
 *     keep it in registers. The part of the measured time the model does not explain goes with the local
 *     instructions' share of the kernel's traffic (their bytes all leave, not only those above the need).
 *   - A call's stack frame (every traced local access at fixed offsets of the stack, none indexed: a callee that is
 *     not inlined, taking arrays by pointer): the callee inlined (__forceinline__) or passed values keeps them in
 *     registers. The part of the measured time the model does not explain is the callee's arithmetic, which stays.
 * Either way every local load and store of the kernel goes (the whole stack moves to registers). Priced by the
 * launch model with the kernel's local instructions left out, the saving taken off the measured time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define LOC_MAXG 256

int tk_local_lead(const struct gm_trace_kernel *k)
{
	int lead = -1;
	double best = 0;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		double b = 0;
		if (in->space != GM_TS_LOCAL || !(in->executions > 0))
			continue;
		for (int q = 0; q < k->nins; q++)   /* the bytes of the local accesses on its line */
			b += k->ins[q].in->space == GM_TS_LOCAL && k->ins[q].in->line == in->line &&
			     (k->ins[q].in->file == in->file || (k->ins[q].in->file && in->file &&
			      !strcmp(k->ins[q].in->file, in->file))) ? k->ins[q].bytes : 0;
		if (lead < 0 || b > best || (b == best && k->ins[i].bytes > k->ins[lead].bytes))
			lead = i, best = b;
	}
	return lead;
}

int tk_local_frame(const struct gm_trace_kernel *k)
{
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space == GM_TS_LOCAL && x->in->executions > 0 && x->fit.cls != GM_TC_COALESCED)
			return -1;   /* an array indexed at run time (local_array) or lanes the sampler did not see */
	}
	return tk_local_lead(k);
}

static void words_array(struct gm_trace_fix *fx, int nsw, double ex)
{
	snprintf(fx->change, sizeof(fx->change), "the per-thread array kept in registers: its %d local loads and "
		 "stores (%.0f %% of the kernel's sectors) leave", nsw, 100 * ex);
	snprintf(fx->words, sizeof(fx->words), "a per-thread array indexed at run time (the lanes at different offsets "
		 "of their stacks) cannot live in registers, so the compiler puts it in local memory: index it only with "
		 "values known at compile time (unrolled loops; a min / max network instead of a sort by selection, a "
		 "select instead of a[i]) so that it stays in registers; its %d local loads and stores leave", nsw);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: float v[9]; ... m = argmin(v[k]); swap(v[i], v[m]);   (run-time index)\n"
		 "#define SW(a, b) { float lo = fminf(v[a], v[b]), hi = fmaxf(v[a], v[b]); v[a] = lo; v[b] = hi; }\n"
		 "SW(1, 2) SW(4, 5) SW(7, 8) SW(0, 1) ...   // compile-time indices: v[] stays in registers\n"
		 "#pragma unroll\nfor (int i = 0; i < N; i++) acc += v[i];   // a loop over it unrolled");
}

static void words_frame(const struct gm_trace_kernel *k, struct gm_trace_fix *fx, int nsw, double ex)
{
	snprintf(fx->change, sizeof(fx->change), "the call's stack frame (%lld B a thread) kept in registers: its %d "
		 "local loads and stores (%.0f %% of the kernel's sectors) leave", (long long)k->l->local_bytes, nsw,
		 100 * ex);
	snprintf(fx->words, sizeof(fx->words), "a device function that is not inlined (__noinline__, a call through a "
		 "pointer) gets the arrays passed to it by pointer on the stack, in local memory: each call stores them, "
		 "the callee loads them back, L1 writes the stores through to L2. Declare it __forceinline__ or pass "
		 "values, so that the arrays stay in registers; its %d local loads and stores leave", nsw);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: __device__ __noinline__ void rhs(const float *x, float *dx);\n"
		 "//      float x[8], k1[8]; rhs(x, k1);   // x and k1 on the stack (local memory)\n"
		 "__device__ __forceinline__ void rhs(const float (&x)[8], float (&dx)[8]) {\n"
		 "#pragma unroll\n  for (int i = 0; i < 8; i++) dx[i] = ...;   // compile-time indices: registers\n}");
}

int tf_local_array(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	static struct tk_swap sw[LOC_MAXG];
	struct gm_launch_out o;
	char why[200];
	int nsw = 0, lead = -1, big = -1;
	double loc = 0, all = 0;

	if (!k->pred_ok || !prof)
		return -1;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		all += x->in->space != GM_TS_SHARED ? x->bytes : 0;
		if (x->in->space != GM_TS_LOCAL)
			continue;
		if (nsw == LOC_MAXG)
			return -1;
		sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };   /* left out: the array in registers */
		loc += x->bytes;
		if (x->fit.cls == GM_TC_LOCAL_INDEXED && (lead < 0 || x->bytes > k->ins[lead].bytes))
			lead = i;
	}
	big = tk_local_frame(k);
	int frame = lead < 0 && big >= 0;   /* a call's frame: every access at fixed offsets */
	lead = frame ? big : lead;
	if (lead < 0 || !(all > 0) || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return -1;
	tk_start_drain(prof, &o);   /* as in the kernel's own prediction (rule S2) */
	double tp = k->pred.time_ms, tm = k->time_ms, ex = loc / all, t;
	if (frame && ex < 0.1)
		return -1;
	t = tm > tp ? o.time_ms + (tm - tp) * (frame ? 1 : 1 - ex) : o.time_ms;
	double s = (tm > tp ? tm : tp) / fmax(t, tk_floor_free_ms(k, prof, 1e9));   /* the launch's own floor only: the
										     rewrite issues other instructions */
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = &k->ins[lead].fix;
	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = nsw;
	fx->share = fmin(1, ex);
	fx->pattern_speedup = fx->kernel_speedup = s;
	snprintf(fx->rewrite, sizeof(fx->rewrite), frame ? "inline_call" : "registers");
	if (frame)
		words_frame(k, fx, nsw, ex);
	else
		words_array(fx, nsw, ex);
	for (int q = 0; q < nsw; q++)
		if (sw[q].ins != lead)
			k->ins[sw[q].ins].fix.same_as = lead + 1;
	return lead;
}
