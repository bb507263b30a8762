/*
 * trace_fix_stores.c - rule store_once of the trace's fixes (docs/TRACE.md, "The fix", rule RS): the same output
 * stored again and again by the same thread. A sum kept in its output through pointers the compiler cannot prove
 * apart (`y[i] += h[k] * x[i + k]` over plain pointers: the next tap's load may read what the store wrote) is
 * stored after every step. L1 is write-through, so each store request reaches L2 (which keeps the line and writes
 * it to DRAM once: rule M folds the repeats, trace_fold.c); L2 takes them at its write rate (tk_l2_write_ms, the
 * kernel's floor), and each step's loads wait behind the store before them. The fix keeps the sum in a register
 * and stores once (or marks the pointers __restrict__): priced by the launch model with the repeats left out and
 * the round trips counted again (the loads no longer wait behind a store), the measured time over that.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define RS_MAXG 64

/* A fitted global store without a loop (not a gather's stand-in). A loop's walk stored twice (llm.c's
   softmax_forward_kernel3: a row's exponentials, then the row divided by their sum) is a second pass over a row,
   not a value a register can hold: rule M folds its DRAM bytes, but it is not named nor fixed here. */
static int fitted_store(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_STORE && x->fit.map.known && !x->fit.approx &&
	       x->fit.expr1d[0] && !x->fit.map.niter_tab && x->fit.iters <= 1;
}

static int same_place(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	return a->in->size == b->in->size && a->fit.iters == b->fit.iters &&
	       a->fit.map.base + a->fit.map.offset * a->in->size == b->fit.map.base + b->fit.map.offset * b->in->size &&
	       !strcmp(a->fit.expr1d, b->fit.expr1d);
}

int tk_repeat_stores(const struct gm_trace_kernel *k, int *lead)
{
	int best = 0;

	*lead = -1;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int m = 0, first = -1, most = 0;
		if (!fitted_store(x))
			continue;
		for (int j = 0; j < k->nins; j++) {
			const struct gm_trace_insn *y = &k->ins[j];
			int at = 0;
			if (!fitted_store(y) || !same_place(x, y))
				continue;
			m++;
			for (int q = 0; q < k->nins; q++)   /* the line most of the repeats are at, its first by pc */
				at += fitted_store(&k->ins[q]) && same_place(x, &k->ins[q]) && k->ins[q].in->line == y->in->line;
			if (at > most || (at == most && y->in->pc < k->ins[first].in->pc))
				most = at, first = j;
		}
		if (m > best)
			best = m, *lead = first;
	}
	return best >= 2 ? best : 0;
}

int tf_store_once(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[RS_MAXG];
	struct gm_launch_out o;
	char why[200], w[96];
	int lead, nsw = 0, m = tk_repeat_stores(k, &lead);

	if (!m || !k->pred_ok || !prof || !(k->time_ms > 0) || !k->pred.limited_by || strcmp(k->pred.limited_by, "L2"))
		return -1;   /* only where rule RS's floor limits the kernel (an in-place solver's two stores of a word,
				set 16's tri kernels, are not a running value: its first value is read back) */
	for (int i = 0; i < k->nins && nsw < RS_MAXG; i++)   /* the repeats left out; the first stays */
		if (i != lead && fitted_store(&k->ins[i]) && same_place(&k->ins[lead], &k->ins[i]))
			sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };
	if (tk_predict(k, prof, TK_WITH_TRIPS, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return -1;
	tk_start_drain(prof, &o);   /* as in the kernel's own prediction (rule S2) */
	double s = k->time_ms / fmax(o.time_ms, tk_floor_free_ms(k, prof, 1e9));
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, m, s);
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "store_once");
	snprintf(fx->change, sizeof(fx->change), "the value kept in a register and stored once: %d of its %d stores "
		 "of the same %d-byte word a thread leave", m - 1, m, k->ins[lead].in->size);
	snprintf(fx->words, sizeof(fx->words), "each thread stores the same output %d times (at %.60s): the compiler "
		 "cannot prove the pointers apart, so it writes the running value after every step and loads the next "
		 "input behind the store; every store reaches L2. Keep the value in a local variable and store it once "
		 "(or mark the pointers __restrict__)", m, w);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: y[i] = 0; for (k ...) y[i] += h[k] * x[i + k];   (%d stores)\n"
		 "float acc = 0.f;\n#pragma unroll\nfor (int k = 0; k < K; k++) acc += h[k] * x[i + k];\n"
		 "y[i] = acc;   // one store (or: const float *__restrict__ x, float *__restrict__ y)", m);
	for (int q = 0; q < nsw; q++)
		k->ins[sw[q].ins].fix.same_as = lead + 1;
	return lead;
}
