/*
 * trace_run_fuse.c - two run-level rules of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h) on two consecutive
 * launches a (ordinal k) and b (k + 1), about an output of a that b loads back:
 * - reload: a stores a buffer (a plain store, one element a thread, a not loading it) and b loads it back element
 *   for element (the same grid, block, first byte and expression; b's active threads at most a's), b loads nothing
 *   else of it and stores nothing into it, and no later traced launch loads it before one stores it again: a
 *   temporary between two launches (set 21's chain: norm, gelu, dropout). Fix: fuse, the value kept in a register.
 *   Saving: a's store and b's load, each launch priced by the launch model without them (the saving off its measured
 *   time, as the kernels' fixes).
 * - dropped_stores: the same, but b's one load of the buffer takes one element of every m (its map gid * m + c, a's
 *   map gid, c < m, b's active threads a's / m) and b's only other access is its store: m - 1 of every m of a's
 *   outputs computed and stored for nothing (set 23's dfull: a 16-tap FIR at the full rate, then every fourth
 *   output kept). Fix: one launch computing only the kept outputs. Saving: both launches' measured times less that
 *   launch, priced by the launch model as a at b's threads with every index of a at thread gid * m + c and a's store
 *   where b stores (its time outside memory divided by m).
 * Refused: a launch a without a global load (a fill: its values from its ids, as a benchmark making its input on the
 * device), a buffer a also loads (an update in place), b storing into it (clear_acc's accumulation), two or more
 * loads of it in b (a stencil: each output needs its neighbours'), accesses not fitted to one element a thread, a
 * later traced launch reading it (the store stays: only the reload would go; not named).
 */
#include <ctype.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

/* b's loads with sampled bytes in [lo, hi): how many, the last in *at */
static int loads_in(const struct gm_trace_kernel *b, int64_t lo, int64_t hi, int *at)
{
	int64_t x, y;
	int n = 0;

	for (int i = 0; i < b->nins; i++)
		if (tr_range(&b->ins[i], GM_TO_LOAD, &x, &y) && tr_overlap(x, y, lo, hi) > 0)
			n++, *at = i;
	return n;
}

/* store s of a is a buffer a does not load, b stores nothing into, and b loads with one instruction (*ld): 0 */
static int one_reader(const struct gm_trace_report *r, int ia, const struct gm_trace_insn *s, int *ld)
{
	const struct gm_trace_kernel *a = &r->k[ia], *b = &r->k[ia + 1];
	int64_t lo, hi;

	if (!tr_walk(s, GM_TO_STORE) || !tr_range(s, GM_TO_STORE, &lo, &hi) || tr_touches(a, GM_TO_LOAD, lo, hi, -1) ||
	    tr_touches(a, GM_TO_ATOMIC, lo, hi, -1) || tr_touches(b, GM_TO_STORE, lo, hi, -1) ||
	    tr_touches(b, GM_TO_ATOMIC, lo, hi, -1) || tr_touches(b, GM_TO_REDUCTION, lo, hi, -1) ||
	    loads_in(b, lo, hi, ld) != 1 || !tr_walk(&b->ins[*ld], GM_TO_LOAD) || b->ins[*ld].in->size != s->in->size)
		return -1;
	return tr_dead_after(r, ia + 1, lo, hi) ? 0 : -1;
}

/* x of b reads s of a element for element: the same launch shape, first byte and expression */
static int element_for_element(const struct gm_trace_kernel *a, const struct gm_trace_insn *s,
			       const struct gm_trace_kernel *b, const struct gm_trace_insn *x)
{
	return !memcmp(a->l->grid, b->l->grid, sizeof(a->l->grid)) &&
	       !memcmp(a->l->block, b->l->block, sizeof(a->l->block)) && tr_first_byte(s) == tr_first_byte(x) &&
	       !strcmp(s->fit.expr1d, x->fit.expr1d) && x->in->thread_accesses <= s->in->thread_accesses * (1 + 1e-9) &&
	       s->fit.iters == x->fit.iters && (s->fit.iters <= 1 || s->fit.map.iter_step == x->fit.map.iter_step);
}

/* "gid*m" (m >= 2): m, else 0 */
static int64_t gid_times(const char *e)
{
	long long m;
	int end = 0;

	if (sscanf(e, "gid*%lld%n", &m, &end) == 1 && !e[end] && m >= 2)
		return m;
	return 0;
}

/* e with every gid as (gid*m+c) into out; -1 where e names another id than gid and iter (a launch of more than
   one dimension: not remapped) */
static int remap(const char *e, int64_t m, int64_t c, char *out, size_t n)
{
	size_t o = 0;

	for (const char *p = e; *p;) {
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *q = p;
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			int len = (int)(q - p);
			int w = len == 3 && !strncmp(p, "gid", 3) ?
					snprintf(out + o, n - o, "(gid*%lld+%lld)", (long long)m, (long long)c) :
				len == 4 && !strncmp(p, "iter", 4) ? snprintf(out + o, n - o, "iter") : -1;
			if (w < 0 || (size_t)w >= n - o)
				return -1;
			o += (size_t)w, p = q;
		} else {
			if (o + 1 >= n)
				return -1;
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	return 0;
}

#define EXPR_LEN 700

/* rule dropped_stores: the ms of one launch computing only b's kept outputs (a at b's threads, each index at
   gid * m + c, a's store s where b stores, st); 0 where not priced */
static double kept_ms(const struct gm_trace_kernel *a, int s, const struct gm_trace_kernel *b, int st, int64_t m,
		      int64_t c, const struct gm_profile *prof)
{
	static char ex[GM_TRACE_MAX_INSNS][EXPR_LEN];
	static struct tk_swap sw[GM_TRACE_MAX_INSNS];
	struct gm_launch_out o;
	char why[200];

	if (a->nins > GM_TRACE_MAX_INSNS || !a->pred_ok || !(a->time_ms > 0))
		return 0;
	int nsw = 0;

	for (int i = 0; i < a->nins; i++) {
		const struct gm_trace_insn *x = &a->ins[i];
		const char *e = i == s ? b->ins[st].fit.expr1d : x->fit.expr1d;
		if (!x->fit.expr1d[0] || x->fit.map.niter_tab)
			return 0;   /* an access the model cannot take again */
		if (i != s && !strstr(e, "gid") && tk_in_l1(a, prof, x))
			continue;   /* rule A's, as before: every block reads it from its SM's L1 */
		if (i == s)
			snprintf(ex[nsw], EXPR_LEN, "%s", e);
		else if (remap(e, m, c, ex[nsw], EXPR_LEN))
			return 0;
		sw[nsw] = (struct tk_swap){ .ins = i, .expr = ex[nsw], .iters = x->fit.iters,
					    .step = x->fit.map.iter_step, .threads = b->threads,
					    .walk = i != s };   /* rule M folds as before */
		nsw++;
	}
	if (tk_predict(a, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return 0;
	return a->time_ms / tf_kernel_speedup(a, prof, o.time_ms, (double)m, (double)m);
}

/* the ms that slicing the two launches saves at most, in *k slices of half the L2 each (the rest of it for the
   slices' inputs and outputs streaming past): the temporary's B bytes loaded from L2 instead of DRAM and stored
   at L2's write rate instead of DRAM's (the profile's measured rates), less the k - 1 more launches of each kernel
   at their start and drain (rule S2, each launch's own); 0 where the temporary fits in the L2 or a rate is unknown */
static double slice_gain_ms(const struct gm_trace_report *r, const struct gm_trace_run_finding *f, int *k)
{
	const struct gm_profile *p = r->prof;
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	double B = f->bytes / 2;

	*k = 0;
	if (!p || !(p->l2_bytes > 0) || B <= p->l2_bytes || !(p->read_gbs > 0) || !(p->l2_read_gbs > 0) ||
	    !(p->write_gbs > 0) || !(p->l2_write_gbs > 0))
		return 0;
	*k = (int)ceil(B / (p->l2_bytes / 2));
	double ld = B / p->read_gbs - B / p->l2_read_gbs, st = fmax(0, B / p->write_gbs - B / p->l2_write_gbs);
	return (ld + st) * 1e-6 - (*k - 1) * (a->pred.t_start_ms + b->pred.t_start_ms);
}

/* where the temporary does not fit in the L2: slicing the launches to keep it there, priced (slice_gain_ms) */
static void slice_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f)
{
	int k;
	double g = slice_gain_ms(r, f, &k), t = r->across.run_ms;
	size_t n = strlen(f->words);

	if (!k || n >= sizeof(f->words))
		return;
	double s = g > 0 && g < t ? t / (t - g) : g > 0 ? 1 : t / (t - g);
	snprintf(f->words + n, sizeof(f->words) - n, ". Slicing the two launches instead, to keep the %.1f MB temporary "
		 "in the %.1f MB L2 (%d slices, the same kernels), %s: L2 takes stores at %.0f GB/s against DRAM's %.0f "
		 "and serves loads at %.0f against %.0f, %.4f ms at most, while the %d more launches of each kernel cost "
		 "their start and drain, %.4f ms (%.2fx the run): fuse rather than slice", f->bytes / 2e6,
		 r->prof->l2_bytes / 1e6, k, s >= GM_TRACE_WORTH ? "gains less than fusing" : "is not worth it",
		 r->prof->l2_write_gbs, r->prof->write_gbs, r->prof->l2_read_gbs, r->prof->read_gbs,
		 g + (k - 1) * (r->k[f->first].pred.t_start_ms + r->k[f->second].pred.t_start_ms), k - 1,
		 (k - 1) * (r->k[f->first].pred.t_start_ms + r->k[f->second].pred.t_start_ms), s);
}

static void reload_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, double t1)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	char ws[64], wl[64];

	tr_where(&a->ins[f->ins_first], ws, sizeof(ws));
	tr_where(&b->ins[f->ins_second], wl, sizeof(wl));
	snprintf(f->words, sizeof(f->words), "launch %lld (%s) stores %.1f MB from 0x%llx (at %s) that the next launch, "
		 "%lld (%s), loads back element for element (at %s) and no later traced launch reads: a temporary "
		 "between two launches, written to DRAM and fetched again. Fuse them: one kernel doing launch %lld's "
		 "work, then launch %lld's, the value kept in a register. The launch model prices that kernel (the two "
		 "less the store and the load) at %.4f ms against the two launches' %.4f ms measured: %.0f %% of the "
		 "run's %.4f ms saved (where the host or an untraced launch reads the buffer later, keep the store)",
		 (long long)a->l->index, tr_name(a), (f->hi - f->lo) / 1e6, (long long)f->lo, ws,
		 (long long)b->l->index, tr_name(b), wl, (long long)a->l->index, (long long)b->l->index, t1,
		 a->time_ms + b->time_ms, 100 * f->saved_ms / r->across.run_ms, r->across.run_ms);
	double out = 0, tmp = (double)(f->hi - f->lo);
	for (int i = 0; i < b->nins; i++)
		if (b->ins[i].in->space == GM_TS_GLOBAL && b->ins[i].in->op == GM_TO_STORE)
			out += b->ins[i].in->thread_accesses * b->ins[i].in->size;
	size_t n = strlen(f->words);
	if (out * 64 <= tmp && n < sizeof(f->words))   /* the consumer reduces the temporary */
		snprintf(f->words + n, sizeof(f->words) - n, ". Launch %lld reduces the %.1f MB to %.0f B: where that "
			 "result does not depend on launch %lld's transform (an argmax or a max after a monotonic map such as "
			 "softmax or exp), launch %lld need not run at all, its %.4f ms saved; the trace sees addresses and "
			 "value counts, not what the values mean, so it cannot confirm that", (long long)b->l->index,
			 tmp / 1e6, out, (long long)a->l->index, (long long)a->l->index, a->time_ms);
	slice_words(r, f);
	snprintf(f->sketch, sizeof(f->sketch), "// before: first<<<g, b>>>(x, t, n);  second<<<g, b>>>(t, y, n);  // "
		 "t[i] = f(x[i]);  y[i] = h(t[i])\n// after:  fused<<<g, b>>>(x, y, n);  // float t = f(x[i]); y[i] = "
		 "h(t);  (t stays in a register)");
}

static void dropped_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, double t1)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	char ws[64], wl[64];

	tr_where(&a->ins[f->ins_first], ws, sizeof(ws));
	tr_where(&b->ins[f->ins_second], wl, sizeof(wl));
	snprintf(f->words, sizeof(f->words), "launch %lld (%s) stores %.1f MB of outputs from 0x%llx (at %s); the next "
		 "launch, %lld (%s), loads one of every %d of them (at %s) and no later traced launch reads the rest: %d "
		 "of every %d outputs computed and stored for nothing, and the kept ones stored and loaded again. "
		 "Compute only the kept outputs, in one launch: a thread an output kept, doing launch %lld's work for "
		 "element %d * i + %lld and storing where launch %lld stores. The launch model prices that launch at "
		 "%.4f ms against the two launches' %.4f ms measured: %.0f %% of the run's %.4f ms saved",
		 (long long)a->l->index, tr_name(a), (f->hi - f->lo) / 1e6, (long long)f->lo, ws,
		 (long long)b->l->index, tr_name(b), f->keep, wl, f->keep - 1, f->keep, (long long)a->l->index, f->keep,
		 (long long)((tr_first_byte(&b->ins[f->ins_second]) - tr_first_byte(&a->ins[f->ins_first])) /
			     a->ins[f->ins_first].in->size),
		 (long long)b->l->index, t1, a->time_ms + b->time_ms, 100 * f->saved_ms / r->across.run_ms,
		 r->across.run_ms);
	snprintf(f->sketch, sizeof(f->sketch), "// before: all<<<n / 256, 256>>>(x, y, n);  keep<<<n / %d / 256, "
		 "256>>>(y, out);  // out[i] = y[%d * i]\n// after:  kept<<<n / %d / 256, 256>>>(x, out, n);  // out[i] "
		 "= the value all computes for element %d * i", f->keep, f->keep, f->keep, f->keep);
}

/* rule dropped_stores on store s of a read by load ld of b (refused: -1) */
static int dropped(const struct gm_trace_report *r, int ia, int s, int ld, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *a = &r->k[ia], *b = &r->k[ia + 1];
	const struct gm_trace_insn *x = &a->ins[s], *y = &b->ins[ld];
	int64_t m = gid_times(y->fit.expr1d), d = tr_first_byte(y) - tr_first_byte(x), c = d / x->in->size;
	int st = -1, others = 0;

	if (!m || x->fit.iters > 1 || y->fit.iters > 1 || strcmp(x->fit.expr1d, "gid") || d < 0 || d % x->in->size || c >= m ||
	    fabs(y->in->thread_accesses * (double)m - x->in->thread_accesses) > 0.01 * x->in->thread_accesses)
		return -1;
	for (int i = 0; i < b->nins; i++)
		if (i != ld && b->ins[i].in->space == GM_TS_GLOBAL && b->ins[i].in->op == GM_TO_STORE && st < 0)
			st = i;
		else if (i != ld)
			others++;
	if (st < 0 || others || !tr_plain(&b->ins[st], GM_TO_STORE) || b->ins[st].in->size != x->in->size)
		return -1;   /* b does more than keep the outputs: not priced */
	double t1 = kept_ms(a, s, b, st, m, c, r->prof);
	if (!(t1 > 0) || !(b->time_ms > 0) || t1 >= a->time_ms + b->time_ms)
		return -1;
	f->rule = GM_TR_DROPPED, f->keep = (int)m, f->ins_first = s, f->ins_second = ld;
	f->lo = tr_first_byte(x), f->hi = f->lo + (int64_t)llround(x->in->thread_accesses) * x->in->size;
	f->bytes = x->bytes + y->bytes;
	f->saved_ms = a->time_ms + b->time_ms - t1;
	dropped_words(r, f, t1);
	return 0;
}

int tr_reload(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *a = &r->k[ia], *b = &r->k[ia + 1];
	int da[GM_TRACE_MAX_INSNS], db[GM_TRACE_MAX_INSNS], n = 0, ld = -1;

	if (!tr_touches(a, GM_TO_LOAD, INT64_MIN, INT64_MAX, -1))
		return -1;   /* a fill (values from its ids: a benchmark's input made on the device), not a stage */
	for (int i = 0; i < a->nins && n < GM_TRACE_MAX_INSNS; i++) {
		const struct gm_trace_insn *s = &a->ins[i];
		if (one_reader(r, ia, s, &ld))
			continue;
		if (!element_for_element(a, s, b, &b->ins[ld])) {
			if (!n && !dropped(r, ia, i, ld, f))
				return 0;
			continue;
		}
		if (!n++) {
			f->ins_first = i, f->ins_second = ld, f->lo = tr_first_byte(s);
			f->hi = f->lo + (int64_t)llround(s->in->thread_accesses) * s->in->size;
		}
		da[n - 1] = i, db[n - 1] = ld;
		f->bytes += s->bytes + b->ins[ld].bytes;
	}
	if (!n)
		return -1;
	double t1 = tr_merged_ms(a, da, n, b, db, n, r->prof);
	if (!(t1 > 0) || t1 >= a->time_ms + b->time_ms)
		return -1;
	f->rule = GM_TR_RELOAD, f->saved_ms = a->time_ms + b->time_ms - t1;
	reload_words(r, f, t1);
	return 0;
}
