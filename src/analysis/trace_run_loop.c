/*
 * trace_run_loop.c - two program-level rules of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h) on one kernel
 * launched again and again, each launch on what the one before wrote: a loop of the host's around a kernel of one
 * step, where the loop belongs inside the kernel.
 * - step_loop: consecutive launches of one kernel, one grid and block, each loading one buffer and storing it back
 *   in place, element for element, or into a second buffer that the next launch loads and stores back into the
 *   first (ping-pong), nothing else touching them, its other inputs the same elements every time, and the stores
 *   changing the values (under half of the sampled lanes silent): each element steps on its own (set 26's
 *   pstep: six leapfrog steps of 8 M independent particles, a launch a step). Fix: one launch looping over the
 *   steps, the state in registers. Saving: the launches' measured times less that launch, the launch model over
 *   the first launch's loads, the last one's stores and every launch's other work (tr_merged_n). Refused: a store
 *   that writes back what was there (an idempotent repeat: a benchmark's), a neighbour read of the buffer (a
 *   stencil: the steps are not independent), other inputs that differ between launches (rule acc_chain's
 *   accumulator), a launch between them.
 * - log_passes: three or more consecutive launches of one kernel, one grid and block, each loading what the one
 *   before stored twice, at each element and at one distance, and storing a new array, the distance doubling (or
 *   halving) from launch to launch (set 27's hscan: a Hillis-Steele scan of 8192-element rows, a pass a launch,
 *   d = 1, 2, ..., 4096). Fix: a one-pass scan (a tile a block in registers and shared memory, the tiles' totals
 *   carried across): the input loaded once, the output stored once. Saving: the launches' measured times less that
 *   pass, the launch model over the first launch's load of the input and the last one's store (tr_merged_n).
 *   Refused: distances that do not double (an iterated stencil), in-place passes, other global accesses.
 * Each is named only where it saves GM_TRACE_WORTH of the run or more; the chain is named once, from its first
 * launch to its last.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_run.h"

#define LOOP_MAX 32

/* x and y walk their elements the same way: map, size, threads, loop */
static int same_walk(const struct gm_trace_insn *x, const struct gm_trace_insn *y)
{
	return !strcmp(x->fit.expr1d, y->fit.expr1d) && x->in->size == y->in->size &&
	       fabs(x->in->thread_accesses - y->in->thread_accesses) <= 1e-9 * x->in->thread_accesses &&
	       x->fit.iters == y->fit.iters && x->fit.map.iter_step == y->fit.map.iter_step;
}

/* the global accesses of k other than skip whose sampled bytes meet [lo, hi), the first in *at */
static int meeting(const struct gm_trace_kernel *k, int64_t lo, int64_t hi, int skip, int *at)
{
	int64_t a, b;
	int n = 0;

	*at = -1;
	for (int i = 0; i < k->nins; i++)
		if (i != skip && k->ins[i].in->space == GM_TS_GLOBAL && tk_range_of(k->ins[i].in, &a, &b) &&
		    tr_overlap(a, b + k->ins[i].in->size, lo, hi) > 0 && !n++)
			*at = i;
	return n;
}

/* k's state: a load l of one buffer and a store s walking alike (the load first), in place (one first byte) or into
   another buffer, each buffer touched by nothing else of k (no neighbour read, no second reader), the load's first
   byte want_ld and the store's want_st where not -1 */
static int is_state(const struct gm_trace_kernel *k, int l, int s, int64_t want_ld, int64_t want_st)
{
	const struct gm_trace_insn *x = &k->ins[s], *q = &k->ins[l];
	int64_t lo, hi, llo, lhi;
	int at;

	if (!tr_walk(x, GM_TO_STORE) || !tr_walk(q, GM_TO_LOAD) || !same_walk(x, q) || q->in->pc > x->in->pc ||
	    (want_ld != -1 && tr_first_byte(q) != want_ld) || (want_st != -1 && tr_first_byte(x) != want_st) ||
	    !tr_range(x, GM_TO_STORE, &lo, &hi) || !tr_range(q, GM_TO_LOAD, &llo, &lhi))
		return 0;
	if (tr_first_byte(q) == tr_first_byte(x))
		return meeting(k, lo, hi, s, &at) == 1 && at == l;
	return tr_overlap(lo, hi, llo, lhi) <= 0 && !meeting(k, lo, hi, s, &at) && !meeting(k, llo, lhi, l, &at);
}

/* the first state (is_state) of k: 0 with *ld, *st; -1 where none */
static int state(const struct gm_trace_kernel *k, int64_t want_ld, int64_t want_st, int *ld, int *st)
{
	for (int s = 0; s < k->nins; s++)
		for (int l = 0; l < k->nins; l++)
			if (is_state(k, l, s, want_ld, want_st)) {
				*ld = l, *st = s;
				return 0;
			}
	return -1;
}

/* the store writes new values: its sampled lanes say so, under half of them silent */
static int changes(const struct gm_trace_insn *s)
{
	const struct gm_trace_values *v = &s->in->values;

	return v->have && v->lanes >= GM_TRACE_VALUE_MIN_LANES && v->silent >= 0 && v->silent < 0.5 * v->lanes;
}

/* ks[0 .. n-1] as one launch keeping ks[0]'s loads keep0 (NULL: all global loads) and ks[n-1]'s store keepz (-1:
   all global stores), every launch's other work, no other global access: tr_merged_n's ms; *bytes the sector bytes
   dropped */
static double one_launch(const struct gm_trace_kernel *const *ks, int n, const int *keep0, int nk0, int keepz,
			 const struct gm_profile *prof, double *bytes)
{
	static int drops[LOOP_MAX][GM_TRACE_MAX_INSNS];
	const int *drop[LOOP_MAX];
	int nd[LOOP_MAX];

	*bytes = 0;
	for (int j = 0; j < n; j++) {
		nd[j] = 0, drop[j] = drops[j];
		for (int i = 0; i < ks[j]->nins; i++) {
			const struct gm_trace_instr *in = ks[j]->ins[i].in;
			int kept = 0;
			if (in->space != GM_TS_GLOBAL)
				continue;
			if (in->op == GM_TO_LOAD && j == 0) {
				kept = !keep0;
				for (int q = 0; keep0 && q < nk0; q++)
					kept |= keep0[q] == i;
			} else if (in->op != GM_TO_LOAD && j == n - 1)
				kept = keepz < 0 || keepz == i || in->op != GM_TO_STORE;
			else if (in->op != GM_TO_LOAD && in->op != GM_TO_STORE)
				kept = 1;   /* atomics stay, every launch's */
			if (!kept)
				drops[j][nd[j]++] = i, *bytes += ks[j]->ins[i].bytes;
		}
	}
	return tr_merged_n(ks, drop, nd, n, prof);
}

/* s, l: the first launch's store and load of the buffer */
static void loop_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, int n,
		       const struct gm_trace_insn *s, const struct gm_trace_insn *l, double t1, double meas)
{
	const struct gm_trace_kernel *a = &r->k[f->first];
	char ws[64], wl[64];

	tr_where(s, ws, sizeof(ws));
	tr_where(l, wl, sizeof(wl));
	int pp = tr_first_byte(s) != tr_first_byte(l);
	snprintf(f->words, sizeof(f->words), "launches %lld to %lld run one kernel, %s, %d times in a row on one %.1f "
		 "MB state from 0x%llx, %s: each loads every element (at %s) and stores it %s, changed (at %s; "
		 "%.0f %% of the first launch's sampled stores write a new value), no launch touches the state "
		 "otherwise, and their other inputs are the same elements each time: every element steps on its own, a "
		 "time loop on the host around a kernel of one step. One launch looping over the %d steps, each "
		 "element's state in registers, loads and stores the buffer once: the launch model prices it (the first "
		 "launch's loads, the last one's stores, every step's other work) at %.4f ms against the %d launches' "
		 "%.4f ms measured: %.0f %% of the run's %.4f ms saved (%.1f MB of sectors not moved). Pass the step "
		 "count and the steps' parameters to the kernel; where the host must see the state between steps (an "
		 "output, a convergence test), fuse the steps between those points (where these launches are a "
		 "benchmark's repeats, not the program's loop, nothing is to be done)", (long long)a->l->index,
		 (long long)r->k[f->second].l->index, tr_name(a), n, (f->hi - f->lo) / 1e6, (long long)f->lo,
		 pp ? "between two buffers in turn (ping-pong)" : "in place", wl,
		 pp ? "into the other buffer, element for element" : "back", ws,
		 100 * (1 - s->in->values.silent / s->in->values.lanes), n, t1, n, meas,
		 100 * f->saved_ms / r->across.run_ms, r->across.run_ms, f->bytes / 1e6);
	snprintf(f->sketch, sizeof(f->sketch), "// before: for (s = 0; s < n; s++) step<<<g, b>>>(state, dt);  // "
		 "state[i] = f(state[i])\n// after:  steps<<<g, b>>>(state, dt, n);  // v = state[i]; for (s = 0; s < "
		 "n; s++) v = f(v); state[i] = v;");
}

/* the step chain from r->k[ia] whose first state is load l0 and store s0: its launches in ks, ld, st; how many */
static int steps(const struct gm_trace_report *r, int ia, int l0, int s0, const struct gm_trace_kernel **ks, int *ld,
		 int *st)
{
	int n = 0;

	ld[0] = l0, st[0] = s0;
	for (int j = ia; j < r->nk && n < LOOP_MAX; j++) {
		const struct gm_trace_kernel *k = &r->k[j], *p = n ? ks[n - 1] : NULL;
		if (p && (k->l->index != p->l->index + 1 || strcmp(k->l->kernel, p->l->kernel) || !tr_same_shape(p, k) ||
			  state(k, tr_first_byte(&p->ins[st[n - 1]]), tr_first_byte(&p->ins[ld[n - 1]]), &ld[n], &st[n]) ||
			  !tr_repeats(p, k, ld[n], st[n])))
			break;   /* the next step loads what the one before stored, and stores where it loaded */
		if (!changes(&k->ins[st[n]]))
			break;
		ks[n++] = k;
	}
	return n;
}

int tr_step_loop(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *ks[LOOP_MAX], *kb[LOOP_MAX];
	int ld[LOOP_MAX], st[LOOP_MAX], lb[LOOP_MAX], sb[LOOP_MAX], n = 0;
	const struct gm_trace_kernel *a = &r->k[ia];

	for (int s = 0; s < a->nins; s++)   /* the state whose chain is longest */
		for (int l = 0; l < a->nins; l++) {
			int m;
			if (!is_state(a, l, s, -1, -1) || (m = steps(r, ia, l, s, kb, lb, sb)) <= n)
				continue;
			n = m;
			memcpy(ks, kb, sizeof(ks[0]) * (size_t)m), memcpy(ld, lb, sizeof(ld[0]) * (size_t)m);
			memcpy(st, sb, sizeof(st[0]) * (size_t)m);
		}
	if (n < 2)
		return -1;
	double meas = 0, t = r->across.run_ms;
	for (int j = 0; j < n; j++)
		meas += ks[j]->time_ms;
	double t1 = one_launch(ks, n, NULL, 0, -1, r->prof, &f->bytes);
	f->saved_ms = meas - t1;
	if (!(t1 > 0) || !(f->saved_ms > 0) || t / (t - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	const struct gm_trace_insn *s = &ks[0]->ins[st[0]], *l = &ks[0]->ins[ld[0]];
	f->rule = GM_TR_STEP_LOOP, f->first = ia, f->second = ia + n - 1, f->ins_first = ld[0], f->ins_second = st[n - 1];
	f->lo = tr_first_byte(l), f->hi = f->lo + (int64_t)llround(l->in->thread_accesses) * l->in->size;
	loop_words(r, f, n, s, l, t1, meas);
	return f->second;
}

/* one pass loading a's load ld and storing z's store st at the profile's DRAM read and write bandwidths (the
   roofline a one-pass scan reaches: its tiles loaded wide, not an element a thread as a pass may), at least rule
   F's shortest launch: ms, 0 where unknown */
static double floor_ms(const struct gm_trace_kernel *a, int ld, const struct gm_trace_kernel *z, int st,
		       const struct gm_profile *prof)
{
	double wgbs = prof->write_gbs > 0 ? prof->write_gbs : prof->read_gbs;
	double fl = (prof->launch_floor_us > 0 ? prof->launch_floor_us : prof->launch_us) * 1e-3;   /* rule F */

	if (!(prof->read_gbs > 0))
		return 0;
	double t = (a->ins[ld].bytes / prof->read_gbs + z->ins[st].bytes / wgbs) * 1e-6;
	return t > fl ? t : fl;
}

/* the one distance (bytes) from m's lanes to p's at the samples of one block, warp and iteration (the lanes both
   have); 0 where none is matched or two differ */
static int64_t distance(const struct gm_trace_insn *m, const struct gm_trace_insn *p)
{
	const struct gm_trace_instr *a = m->in, *b = p->in;
	int64_t d = 0;
	int n = 0;

	for (int i = 0; i < a->nsamples; i++) {
		const struct gm_trace_sample *x = &a->samples[i];
		for (int j = 0; j < b->nsamples; j++) {
			const struct gm_trace_sample *y = &b->samples[j];
			if (memcmp(x->block, y->block, sizeof(x->block)) || x->warp != y->warp || x->iter != y->iter)
				continue;
			for (int l = 0; l < GM_WARP_SIZE; l++)
				if ((x->have & y->have) >> l & 1) {
					int64_t e = y->addr[l] - x->addr[l];
					if (n++ && e != d)
						return 0;
					d = e;
				}
			break;
		}
	}
	return d;
}

/* one pass of k: a store *s to a buffer k does not load, a load *m walking as the store does (of the buffer prev
   stored, when prev is not NULL), a load *p of m's buffer at one distance *d (bytes, not 0) from m's lanes, and no
   other global access: 0; -1 otherwise. A load *p that ran on no sampled warp (a partner whose lanes are all masked
   there: c >= d on the first columns) gives *d = 0 */
static int pass(const struct gm_trace_kernel *k, const struct gm_trace_insn *prev, int *s, int *m, int *p,
		int64_t *d)
{
	int ns = 0, nl = 0, l[2];

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		if (in->space != GM_TS_GLOBAL)
			continue;
		if (in->op == GM_TO_STORE && !ns++)
			*s = i;
		else if (in->op != GM_TO_LOAD || nl >= 2)
			return -1;
		else
			l[nl++] = i;
	}
	if (ns != 1 || nl != 2 || !tr_walk(&k->ins[*s], GM_TO_STORE))
		return -1;
	for (int q = 0; q < 2; q++) {
		const struct gm_trace_insn *x = &k->ins[l[q]], *st = &k->ins[*s];
		int64_t lo, hi, slo, shi;
		if (!tr_walk(x, GM_TO_LOAD) || !same_walk(x, st) || (prev && tr_first_byte(x) != tr_first_byte(prev)) ||
		    !tr_range(x, GM_TO_LOAD, &lo, &hi) || !tr_range(st, GM_TO_STORE, &slo, &shi) ||
		    tr_overlap(lo, hi, slo, shi) > 0)
			continue;
		*m = l[q], *p = l[1 - q];
		*d = distance(x, &k->ins[*p]);
		int at;
		if (!k->ins[*p].in->nsamples && k->ins[*p].in->thread_accesses > 0 && meeting(k, lo, hi, *s, &at) == 1)
			return 0;
		if (*d && *d % x->in->size == 0 && meeting(k, lo, hi, *s, &at) == 2)
			return 0;
	}
	return -1;
}

static void passes_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, int n, int unseen,
			 const int64_t *d, double t1, double same, double meas)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *z = &r->k[f->second];
	const struct gm_trace_insn *m = &a->ins[f->ins_first];
	char wm[64], ds[120] = "";
	int64_t e = m->in->size;
	size_t o = 0;

	tr_where(m, wm, sizeof(wm));
	for (int j = 0, z = n - unseen; j < z && o < sizeof(ds) - 24; j++) {   /* 1, 2, 4, ..., 128 */
		if (z > 4 && j == 2)
			o += (size_t)snprintf(ds + o, sizeof(ds) - o, ", ...");
		if (z <= 4 || j < 2 || j == z - 1)
			o += (size_t)snprintf(ds + o, sizeof(ds) - o, "%s%lld", j ? ", " : "", (long long)(llabs(d[j]) / e));
	}
	char un[80] = "";
	if (unseen)
		snprintf(un, sizeof(un), " (the last %d passes' second load ran on no sampled warp)", unseen);
	snprintf(f->words, sizeof(f->words), "launches %lld to %lld run one kernel, %s, %d times, each pass loading "
		 "the whole %.1f MB the pass before stored (the first pass its input) twice, at each element (at %s) and "
		 "at a distance of %s elements, doubling from pass to pass%s, and storing a new array: a prefix scan by "
		 "doubling steps (Hillis-Steele), a pass a launch through DRAM, %d passes where one does. Scan in one "
		 "pass: each block scans a tile in registers and shared memory (warp shuffles) and the tiles' totals are "
		 "carried across (a row a block where rows are short; a single-pass scan with decoupled look-back, as "
		 "CUB's DeviceScan, for one long array): the input loaded once, the output stored once, with wide loads. "
		 "At the profile's DRAM bandwidths that pass takes %.4f ms (the launch model on these launches' own "
		 "threads, %lld B a thread, %.4f ms) against the %d launches' %.4f ms measured: %.0f %% of the run's %.4f "
		 "ms saved (%.1f MB of sectors not moved)", (long long)a->l->index, (long long)z->l->index, tr_name(a), n,
		 (f->hi - f->lo) / 1e6, wm, ds, un, n, t1, (long long)e, same, n, meas, 100 * f->saved_ms / r->across.run_ms,
		 r->across.run_ms, f->bytes / 1e6);
	snprintf(f->sketch, sizeof(f->sketch), "// before: for (d = 1; d < n; d *= 2) { pass<<<g, b>>>(src, dst, d);  "
		 "swap(src, dst); }  // dst[i] = src[i] + src[i - d]\n// after:  scan<<<rows, 1024>>>(x, y);  // a "
		 "block a row: running sums in registers, warp shuffles, the warps' totals in shared memory");
}

int tr_log_passes(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *ks[LOOP_MAX];
	int s[LOOP_MAX], m[LOOP_MAX], p[LOOP_MAX], n = 0, unseen = 0;   /* each pass's store, load, partner load */
	int64_t d[LOOP_MAX];

	for (int j = ia; j < r->nk && n < LOOP_MAX; j++) {
		const struct gm_trace_kernel *k = &r->k[j], *q = n ? ks[n - 1] : NULL;
		if (q && (k->l->index != q->l->index + 1 || strcmp(k->l->kernel, q->l->kernel) || !tr_same_shape(q, k)))
			break;
		if (pass(k, q ? &q->ins[s[n - 1]] : NULL, &s[n], &m[n], &p[n], &d[n]))
			break;
		if (!d[n]) {   /* not sampled: the pass before's partner load again, the sequence's next distance */
			if (n < 3 || !d[n - 1] || q->ins[p[n - 1]].in->pc != k->ins[p[n]].in->pc)
				break;
			unseen++;
			d[n] = d[n - 1] == 2 * d[n - 2] ? 2 * d[n - 1] : d[n - 1] / 2;
		} else if (unseen || (n >= 1 && d[n] != 2 * d[n - 1] && 2 * d[n] != d[n - 1]) ||
			   (n >= 2 && (d[n] == 2 * d[n - 1]) != (d[n - 1] == 2 * d[n - 2])))
			break;   /* not one doubling (or halving) sequence */
		ks[n++] = k;
	}
	if (n - unseen < 3)
		return -1;
	double meas = 0, t = r->across.run_ms;
	for (int j = 0; j < n; j++)
		meas += ks[j]->time_ms;
	double same = one_launch(ks, n, &m[0], 1, s[n - 1], r->prof, &f->bytes), t1 = floor_ms(ks[0], m[0], ks[n - 1],
											       s[n - 1], r->prof);
	f->saved_ms = meas - t1;
	if (!(t1 > 0) || !(f->saved_ms > 0) || t / (t - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	const struct gm_trace_insn *x = &ks[0]->ins[m[0]];
	f->rule = GM_TR_LOG_PASSES, f->first = ia, f->second = ia + n - 1, f->ins_first = m[0], f->ins_second = s[n - 1];
	f->lo = tr_first_byte(x), f->hi = f->lo + (int64_t)llround(x->in->thread_accesses) * x->in->size;
	passes_words(r, f, n, unseen, d, t1, same, meas);
	return f->second;
}
