/*
 * trace_run_input.c - the run-level rule same_input of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h): two
 * consecutive launches a (ordinal k) and b (k + 1), of different kernels, each loading the same input for an output of
 * its own (set 23's ssplit: the Sobel gradient's magnitude, then its direction, each kernel reading the image). A
 * load of b is shared where its sampled bytes lie, 90 % or more, within those of one load of a (the input: from the
 * first sampled byte, the larger of the samples' span and one shared load's ideal sectors). Fix: one kernel
 * reading the input once and storing both outputs. Saving: b's shared loads, by the launch model without them (the
 * saving off b's measured time, as the kernels' fixes).
 * Refused: b loading anything a stored (a chain: rule reload's), b storing where a loads or stores, a storing where
 * it loads, the same kernel twice, shared loads under half of b's loaded sectors, a saving under GM_TRACE_WORTH of
 * the run, and two launches with outputs of one shape (their stores writing as many bytes, within 1 %, or spanning
 * as many, within 10 %, in all or by one store of each: set 12's mip_z<false> and mip_z<true> write one image in
 * two orders, set 6's transpose_naive and transpose_tile one output by one store and by several): the
 * same outputs from the same input are two versions of one computation (a benchmark's naive and fixed kernels,
 * each writing its own output, set 23's cap and set 22's dbg among them), not two stages; two stages whose outputs
 * have one shape (the x and y gradients of one image) are refused with them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

/* within 100 * tol % of each other */
static int near(double x, double y, double tol)
{
	return fabs(x - y) <= tol * fmax(fabs(x), fabs(y));
}

/* the bytes k's stores' threads write, and the span their samples cover (first to last byte) */
static double outputs(const struct gm_trace_kernel *k, double *span)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, x, y;
	double s = 0;

	for (int i = 0; i < k->nins; i++)
		if (tr_range(&k->ins[i], GM_TO_STORE, &x, &y)) {
			s += k->ins[i].in->thread_accesses * k->ins[i].in->size;
			lo = x < lo ? x : lo, hi = y > hi ? y : hi;
		}
	*span = hi > lo ? (double)(hi - lo) : 0;
	return s;
}

/* outputs of one shape: a's and b's stores write as many bytes in all (within 1 %) or span as many (within 10 %), or
   a store of each does (a version that splits its stores over several instructions, or stores some twice) */
static int same_shape(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b)
{
	int64_t alo, ahi, blo, bhi;
	double sa, sb;

	if (near(outputs(a, &sa), outputs(b, &sb), 0.01) || near(sa, sb, 0.1))
		return 1;
	for (int i = 0; i < a->nins; i++)
		for (int j = 0; tr_range(&a->ins[i], GM_TO_STORE, &alo, &ahi) && j < b->nins; j++)
			if (tr_range(&b->ins[j], GM_TO_STORE, &blo, &bhi) &&
			    (near(a->ins[i].in->thread_accesses * a->ins[i].in->size,
				  b->ins[j].in->thread_accesses * b->ins[j].in->size, 0.01) ||
			     near((double)(ahi - alo), (double)(bhi - blo), 0.1)))
				return 1;
	return 0;
}

/* 1 when some global access of b (op) has sampled bytes where an access of a with op2 has */
static int meets(const struct gm_trace_kernel *a, enum gm_trace_op op2, const struct gm_trace_kernel *b,
		 enum gm_trace_op op)
{
	int64_t lo, hi;

	for (int i = 0; i < a->nins; i++)
		if (tr_range(&a->ins[i], op2, &lo, &hi) && tr_touches(b, op, lo, hi, -1))
			return 1;
	return 0;
}

/* the load of a whose sampled bytes hold 90 % or more of load x's (of b), -1 if none */
static int shared_with(const struct gm_trace_kernel *a, const struct gm_trace_insn *x)
{
	int64_t lo, hi, alo, ahi;

	if (!tr_range(x, GM_TO_LOAD, &lo, &hi))
		return -1;
	for (int i = 0; i < a->nins; i++)
		if (tr_range(&a->ins[i], GM_TO_LOAD, &alo, &ahi) && tr_overlap(lo, hi, alo, ahi) >= 0.9 * (hi - lo))
			return i;
	return -1;
}

int tr_same_input(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *a = &r->k[ia], *b = &r->k[ia + 1];
	int drop[GM_TRACE_MAX_INSNS], n = 0;
	double sec = 0, all = 0, whole = 0, sa, sb, oa = outputs(a, &sa), ob = outputs(b, &sb);
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	if (!strcmp(a->l->kernel, b->l->kernel) || !(oa > 0) || !(ob > 0) || same_shape(a, b) ||
	    meets(a, GM_TO_STORE, b, GM_TO_LOAD) || meets(a, GM_TO_STORE, b, GM_TO_ATOMIC) ||
	    meets(a, GM_TO_LOAD, b, GM_TO_STORE) || meets(a, GM_TO_STORE, b, GM_TO_STORE) ||
	    meets(a, GM_TO_LOAD, a, GM_TO_STORE))
		return -1;
	for (int i = 0; i < b->nins && n < GM_TRACE_MAX_INSNS; i++) {
		const struct gm_trace_insn *x = &b->ins[i];
		int64_t xl, xh;
		if (x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_LOAD)
			continue;
		all += x->in->sectors;
		int j = shared_with(a, x);
		if (j < 0 || !tr_range(x, GM_TO_LOAD, &xl, &xh))
			continue;
		if (!n)
			f->ins_first = j, f->ins_second = i;
		drop[n++] = i, sec += x->in->sectors, f->bytes += x->bytes;
		lo = xl < lo ? xl : lo, hi = xh > hi ? xh : hi;
		if (x->fit.iters <= 1 && x->in->ideal_sectors * GM_SECTOR_BYTES > whole)
			whole = x->in->ideal_sectors * GM_SECTOR_BYTES;   /* one pass of a load over the input */
	}
	if (!n || sec < 0.5 * all)
		return -1;   /* before the span: with no shared load, lo and hi are still their sentinels */
	if (whole > (double)(hi - lo))
		hi = lo + (int64_t)whole;   /* the samples span less than a load's sectors cover */
	double t1 = tr_merged_ms(a, NULL, 0, b, drop, n, r->prof);
	f->saved_ms = a->time_ms + b->time_ms - t1;
	if (!(t1 > 0) || !(f->saved_ms > 0) || r->across.run_ms / (r->across.run_ms - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	f->rule = GM_TR_SAME_INPUT, f->lo = lo, f->hi = hi;
	char wa[64], wb[64];
	tr_where(&a->ins[f->ins_first], wa, sizeof(wa));
	tr_where(&b->ins[f->ins_second], wb, sizeof(wb));
	snprintf(f->words, sizeof(f->words), "launches %lld (%s) and %lld (%s) both load the %.1f MB input from 0x%llx "
		 "(at %s and at %s: %d load%s of launch %lld), and launch %lld reads nothing launch %lld stored: two "
		 "passes over one input for two outputs of their own (%.1f and %.1f MB). One kernel storing both outputs "
		 "reads it once: the launch model prices it (launch %lld's work and launch %lld's but its loads of the "
		 "input) at %.4f ms against the two launches' %.4f ms measured: %.0f %% of the run's %.4f ms saved",
		 (long long)a->l->index, tr_name(a), (long long)b->l->index, tr_name(b), (hi - lo) / 1e6, (long long)lo, wa,
		 wb, n, n == 1 ? "" : "s", (long long)b->l->index, (long long)b->l->index, (long long)a->l->index,
		 oa / 1e6, ob / 1e6, (long long)a->l->index, (long long)b->l->index, t1, a->time_ms + b->time_ms,
		 100 * f->saved_ms / r->across.run_ms, r->across.run_ms);
	snprintf(f->sketch, sizeof(f->sketch), "// before: first<<<g, b>>>(in, out1);  second<<<g, b>>>(in, out2);  // "
		 "each reads in\n// after:  both<<<g, b>>>(in, out1, out2);  // in read once, both outputs stored "
		 "(the two kernels' bodies one after the other, the loaded values shared)");
	return 0;
}
