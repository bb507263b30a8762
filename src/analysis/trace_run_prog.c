/*
 * trace_run_prog.c - three program-level rules of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h): waste in
 * what the program asks its launches to do, seen across launches or across the buffers of one launch.
 * - acc_chain: consecutive launches of one grid and block, each after the first loading the buffer the one before
 *   stored, element for element, and storing it back (set 25's sloop: scale, then axpy three times, a 64 MB
 *   accumulator to DRAM and back between every two calls). Rule reload does not name it (each launch stores the
 *   buffer again, and the next one reads it). Fix: one kernel doing the steps in order, the accumulator in a
 *   register. Saving: the launches' measured times less that kernel's, the launch model over all their accesses but
 *   the accumulator's stores and loads between them (tr_merged_n). Refused: a launch of the kernel before it on the
 *   same inputs (a benchmark's repeats of one in-place kernel, a step iterated on its own output), another access of
 *   the buffer in a launch (a stencil, a second reader), a store before the load.
 * - clone: a launch loading two buffers element for element (the same map from two first bytes) whose sampled values
 *   have the same counts, the same smallest and the same largest value (set 25's resid: a skip term read from a
 *   copy of x). A fingerprint, not a proof: refused where the values say little (a constant, small integers, fewer
 *   than GM_TRACE_VALUE_MIN_LANES lanes, 16-byte accesses with no integer figures, an identity array) or where the
 *   samples of the two loads are not the same elements. Fix: read the original, drop the copy. Saving: the launch
 *   without the second load (tr_saving_without); the copy's own time is not in the trace.
 * - domain: a launch that loads a buffer and stores it back in place, element for element, the store writing the
 *   value already there in half of its sampled lanes or more, while its other global accesses run on half of its
 *   threads or fewer (set 25's roi: an overlay over a UHD frame for a rectangle's work). Fix: launch over the
 *   threads that work. Saving: the in-place load's and store's bytes outside the working share, at the launch's
 *   measured rate (its time over its sector bytes).
 * Each is named only where it saves GM_TRACE_WORTH of the run or more.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

/* b loads what a's store s wrote (*ld) and stores it back (*st), the load first, and touches those bytes with nothing
   else: 0; -1 otherwise */
static int rmw(const struct gm_trace_kernel *a, const struct gm_trace_insn *s, const struct gm_trace_kernel *b,
	       int *ld, int *st)
{
	int64_t lo, hi, x, y;

	*ld = *st = -1;
	if (b->l->index != a->l->index + 1 || !tr_same_shape(a, b) || !tr_plain(s, GM_TO_STORE) ||
	    !tr_range(s, GM_TO_STORE, &lo, &hi))
		return -1;
	for (int i = 0; i < b->nins; i++) {
		const struct gm_trace_insn *q = &b->ins[i];
		if (*ld < 0 && tr_plain(q, GM_TO_LOAD) && tr_same_elems(s, q))
			*ld = i;
		else if (*st < 0 && tr_plain(q, GM_TO_STORE) && tr_same_elems(s, q))
			*st = i;
		else if (q->in->space == GM_TS_GLOBAL && tk_range_of(q->in, &x, &y) &&
			 tr_overlap(x, y + q->in->size, lo, hi) > 0)
			return -1;   /* another access of the buffer: not a plain accumulation */
	}
	if (*ld < 0 || *st < 0 || b->ins[*ld].in->pc > b->ins[*st].in->pc)
		return -1;
	return strcmp(a->l->kernel, b->l->kernel) || !tr_repeats(a, b, *ld, *st) ? 0 : -1;
}

#define CHAIN_MAX 16

static void chain_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, int n, double t1, double meas)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *z = &r->k[f->second];
	char ws[64], wl[64], names[160] = "";
	size_t o = 0;

	for (int j = f->first; j <= f->second && o < sizeof(names) - 1; j++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", j > f->first ? ", " : "", tr_name(&r->k[j]));
	tr_where(&a->ins[f->ins_first], ws, sizeof(ws));
	tr_where(&z->ins[f->ins_second], wl, sizeof(wl));
	snprintf(f->words, sizeof(f->words), "launches %lld to %lld (%s) pass one %.1f MB buffer from 0x%llx along: "
		 "each after the first loads what the one before stored, element for element, and stores it back (the "
		 "first stores it at %s, the last loads it at %s): an accumulator written to DRAM and read back %d times "
		 "between launches. One kernel doing the %d steps in order, the accumulator in a register, stores it "
		 "once: the launch model prices it (every launch's accesses but the accumulator's stores and loads "
		 "between them) at %.4f ms against the %d launches' %.4f ms measured: %.0f %% of the run's %.4f ms saved "
		 "(%.1f MB of sectors not moved). Rule reload does not name it: each launch stores the buffer again and "
		 "the next reads it", (long long)a->l->index, (long long)z->l->index, names, (f->hi - f->lo) / 1e6,
		 (long long)f->lo, ws, wl, n - 1, n, t1, n, meas, 100 * f->saved_ms / r->across.run_ms, r->across.run_ms,
		 f->bytes / 1e6);
	snprintf(f->sketch, sizeof(f->sketch), "// before: scale<<<g, b>>>(x0, acc, w0);  axpy<<<g, b>>>(x1, acc, w1);  "
		 "...  // acc[i] = w * x[i] + acc[i]\n// after:  all<<<g, b>>>(x0, x1, ..., acc);  // float s = w0 * "
		 "x0[i]; s = w1 * x1[i] + s; ...; acc[i] = s;");
}

int tr_acc_chain(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *ks[CHAIN_MAX];
	static int drops[CHAIN_MAX][2];
	const int *drop[CHAIN_MAX];
	int nd[CHAIN_MAX], n = 0, ld, st;

	for (int s = 0; s < r->k[ia].nins && n < 2; s++) {
		if (ia + 1 >= r->nk || rmw(&r->k[ia], &r->k[ia].ins[s], &r->k[ia + 1], &ld, &st))
			continue;
		ks[0] = &r->k[ia], drops[0][0] = s, nd[0] = 1, n = 1;
		f->ins_first = s, f->lo = tr_first_byte(&r->k[ia].ins[s]);
		f->hi = f->lo + (int64_t)llround(r->k[ia].ins[s].in->thread_accesses) * r->k[ia].ins[s].in->size;
		f->bytes = r->k[ia].ins[s].bytes;
		for (int j = ia + 1; j < r->nk && n < CHAIN_MAX; j++) {
			const struct gm_trace_insn *prev = &ks[n - 1]->ins[drops[n - 1][nd[n - 1] - 1]];
			if (rmw(ks[n - 1], prev, &r->k[j], &ld, &st))
				break;
			ks[n] = &r->k[j], drops[n][0] = ld, drops[n][1] = st, nd[n] = 2;
			f->ins_second = ld, f->second = j, f->bytes += r->k[j].ins[ld].bytes + r->k[j].ins[st].bytes;
			n++;
		}
	}
	if (n < 2)
		return -1;
	nd[n - 1] = 1;   /* the last launch keeps its store: the accumulator's one */
	f->bytes -= ks[n - 1]->ins[drops[n - 1][1]].bytes;
	double meas = 0;
	for (int j = 0; j < n; j++)
		drop[j] = drops[j], meas += ks[j]->time_ms;
	double t1 = tr_merged_n(ks, drop, nd, n, r->prof), t = r->across.run_ms;
	f->saved_ms = meas - t1;
	if (!(t1 > 0) || !(f->saved_ms > 0) || t / (t - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	f->rule = GM_TR_ACC_CHAIN, f->first = ia;
	chain_words(r, f, n, t1, meas);
	return f->second;
}

/* the values of x say something: enough lanes, integer figures, not one value, not small integers, not an index */
static int telling(const struct gm_trace_values *v)
{
	return v->have && v->lanes >= GM_TRACE_VALUE_MIN_LANES && v->ints && v->min != v->max && v->nsmall < 0 &&
	       v->int_bits >= 16 && v->own_x <= 0.01 * v->lanes && v->own_elem <= 0.01 * v->lanes;
}

static int same_values(const struct gm_trace_values *a, const struct gm_trace_values *b)
{
	return a->lanes == b->lanes && a->zero == b->zero && a->min == b->min && a->max == b->max &&
	       a->float_exact == b->float_exact && a->int_bits == b->int_bits;
}

/* the samples of x and y are the same elements of two buffers: every sample of x has one of y at the same block,
   warp and iteration whose lanes lie at x's addresses moved by one distance, the same for all */
static int same_samples(const struct gm_trace_insn *x, const struct gm_trace_insn *y)
{
	const struct gm_trace_instr *a = x->in, *b = y->in;
	int64_t d = tr_first_byte(y) - tr_first_byte(x);
	int matched = 0;

	for (int i = 0; i < a->nsamples; i++) {
		const struct gm_trace_sample *p = &a->samples[i];
		for (int j = 0; j < b->nsamples; j++) {
			const struct gm_trace_sample *q = &b->samples[j];
			if (memcmp(p->block, q->block, sizeof(p->block)) || p->warp != q->warp || p->iter != q->iter)
				continue;
			if (p->have != q->have)
				return 0;
			for (int l = 0; l < GM_WARP_SIZE; l++)
				if ((p->have >> l & 1) && q->addr[l] - p->addr[l] != d)
					return 0;
			matched++;
			break;
		}
	}
	return matched * 2 >= a->nsamples && matched > 0;
}

int tr_clone(const struct gm_trace_report *r, int ik, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *k = &r->k[ik];
	int64_t alo, ahi, blo, bhi;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (!tr_walk(x, GM_TO_LOAD) || !telling(&x->in->values) || !tr_range(x, GM_TO_LOAD, &alo, &ahi))
			continue;
		for (int j = 0; j < k->nins; j++) {
			const struct gm_trace_insn *y = &k->ins[j];
			if (j == i || x->in->pc > y->in->pc || !tr_walk(y, GM_TO_LOAD) ||
			    !tr_range(y, GM_TO_LOAD, &blo, &bhi) || tr_overlap(alo, ahi, blo, bhi) > 0 ||
			    strcmp(x->fit.expr1d, y->fit.expr1d) || x->fit.iters != y->fit.iters ||
			    x->in->size != y->in->size || x->in->thread_accesses != y->in->thread_accesses ||
			    !same_values(&x->in->values, &y->in->values) || !same_samples(x, y))
				continue;
			double saved = tr_saving_without(k, r->prof, &j, 1), t = r->across.run_ms;
			if (!(saved > 0) || t / (t - saved) < GM_TRACE_WORTH)
				continue;
			f->rule = GM_TR_CLONE, f->first = f->second = ik, f->ins_first = i, f->ins_second = j;
			f->lo = tr_first_byte(y), f->hi = f->lo + (int64_t)llround(y->in->thread_accesses) * y->in->size;
			f->bytes = y->bytes, f->saved_ms = saved;
			char wx[64], wy[64];
			tr_where(x, wx, sizeof(wx));
			tr_where(y, wy, sizeof(wy));
			snprintf(f->words, sizeof(f->words), "launch %lld (%s) loads two %.1f MB buffers element for "
				 "element, from 0x%llx (at %s) and from 0x%llx (at %s), and their %.0f sampled lanes hold the "
				 "same values by every count the trace keeps (smallest %lld, largest %lld as integers of %d B, "
				 "%.0f zero): the second is most likely a copy of the first (x.clone(), a device-to-device "
				 "cudaMemcpy) that nothing changed. Read the original twice (one load: the compiler keeps it in "
				 "a register) and drop the copy: the launch model without the second load saves %.4f ms, %.0f %% "
				 "of the run's %.4f ms, and the copy's own time and memory go too (not in the trace). A sample "
				 "is not the array: check that the two buffers are equal everywhere",
				 (long long)k->l->index, tr_name(k), (f->hi - f->lo) / 1e6, (long long)tr_first_byte(x), wx,
				 (long long)f->lo, wy, x->in->values.lanes, (long long)x->in->values.min,
				 (long long)x->in->values.max, x->in->size, x->in->values.zero, saved, 100 * saved / t, t);
			snprintf(f->sketch, sizeof(f->sketch), "// before: y = x.clone();  k<<<g, b>>>(x, y, out);  // "
				 "out[i] = f(x[i]) + y[i]\n// after:  k<<<g, b>>>(x, out);  // float v = x[i]; out[i] = f(v) "
				 "+ v;  (no copy)");
			return 0;
		}
	}
	return -1;
}

/* the largest share of k's threads that run a global access other than ld and st (0: none) */
static double work_share(const struct gm_trace_kernel *k, int ld, int st, int *w)
{
	double best = 0, all = k->ins[st].in->thread_accesses;

	*w = -1;
	for (int i = 0; i < k->nins; i++)
		if (i != ld && i != st && k->ins[i].in->space == GM_TS_GLOBAL && k->ins[i].in->thread_accesses / all > best)
			best = k->ins[i].in->thread_accesses / all, *w = i;
	return best;
}

int tr_domain(const struct gm_trace_report *r, int ik, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *k = &r->k[ik];
	double all = 0, t = r->across.run_ms;

	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->space == GM_TS_GLOBAL)
			all += k->ins[i].bytes;
	for (int st = 0; st < k->nins; st++) {
		const struct gm_trace_insn *s = &k->ins[st];
		const struct gm_trace_values *v = &s->in->values;
		int ld = -1, w;
		if (!tr_walk(s, GM_TO_STORE) || !v->have || v->lanes < GM_TRACE_VALUE_MIN_LANES || v->silent < 0.5 * v->lanes)
			continue;
		for (int i = 0; i < k->nins && ld < 0; i++)
			if (tr_walk(&k->ins[i], GM_TO_LOAD) && tr_same_elems(s, &k->ins[i]) && k->ins[i].in->pc < s->in->pc)
				ld = i;
		double p = ld < 0 ? 1 : work_share(k, ld, st, &w);
		if (ld < 0 || w < 0 || p > 0.5 || !(all > 0) || !(k->time_ms > 0))
			continue;
		double moved = k->ins[ld].bytes + s->bytes, saved = k->time_ms * (1 - p) * moved / all;
		if (t / (t - saved) < GM_TRACE_WORTH)
			continue;
		f->rule = GM_TR_DOMAIN, f->first = f->second = ik, f->ins_first = st, f->ins_second = w;
		f->lo = tr_first_byte(s), f->hi = f->lo + (int64_t)llround(s->in->thread_accesses) * s->in->size;
		f->bytes = (1 - p) * moved, f->saved_ms = saved;
		char ws[64], wl[64], ww[64];
		tr_where(s, ws, sizeof(ws));
		tr_where(&k->ins[ld], wl, sizeof(wl));
		tr_where(&k->ins[w], ww, sizeof(ww));
		snprintf(f->words, sizeof(f->words), "launch %lld (%s) loads %.1f MB from 0x%llx (at %s) and stores it "
			 "back in place (at %s), every thread one element, but %.0f %% of the store's sampled lanes write the "
			 "value already there, and its other work (at %s) runs on %.0f %% of its threads: the launch's domain "
			 "is the whole buffer, its work a part of it. Launch over the threads that work only (a rectangle, a "
			 "range, a list of the elements that change); where the host cannot know them, skip the store where "
			 "nothing changes (rule silent_store). At the launch's measured rate (%.4f ms for %.1f MB of "
			 "sectors), the %.1f MB the other %.0f %% of threads load and store back cost %.4f ms, %.0f %% of the "
			 "run's %.4f ms", (long long)k->l->index, tr_name(k), (f->hi - f->lo) / 1e6, (long long)f->lo, wl,
			 ws, 100 * v->silent / v->lanes, ww, 100 * p, k->time_ms, all / 1e6, f->bytes / 1e6, 100 * (1 - p),
			 saved, 100 * saved / t, t);
		snprintf(f->sketch, sizeof(f->sketch), "// before: k<<<frame_grid, b>>>(frame, ...);  // if (in_part(x, y)) "
			 "p = work(p); frame[i] = p;\n// after:  k<<<part_grid, b>>>(frame, x0, y0, ...);  // x = x0 + "
			 "tid.x, y = y0 + tid.y: only the part's elements loaded and stored");
		return 0;
	}
	return -1;
}
