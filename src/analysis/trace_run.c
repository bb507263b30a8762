/*
 * trace_run.c - the run-level rules of `gpumem trace` (docs/TRACE.md, "The run"): waste that lies between two
 * launches, invisible to each kernel's analysis alone. Its rules look only at two consecutive launches (ordinals
 * k and k + 1: nothing launched between them) and at instructions that touch the same elements: global loads and
 * stores whose fitted maps give the same byte of thread 0, the same expression over the same grid and block, and
 * the same active threads (so the same elements, one a thread, element for element).
 * - clear_acc: a launch whose every memory instruction is a global store (a fill: its values come from its
 *   parameters and ids), then a launch that loads every element of it and stores it back (out += ...): store the
 *   value directly and drop the fill. Saves the fill's measured time and the accumulation's load (the launch model
 *   without it, the saving off the measured time, as the kernels' fixes are priced).
 * - copy_back: a launch whose every memory instruction is a global load of what the launch before stored or a
 *   global store to what that launch loaded (the new state copied back into the old buffer): swap the pointers.
 *   Saves the copy's measured time.
 * Then the chains, each named once from its first launch to its last: trace_run_loop.c's log_passes (a scan by
 * passes of doubling distance) and step_loop (one kernel stepping a buffer in place, a launch a step),
 * trace_run_tree.c's reduce_passes (a reduction a tree level a launch), and
 * trace_run_prog.c's acc_chain (consecutive launches passing an accumulator along), trace_run_batch.c's
 * batch_launches (one kernel over independent slices, each launch under a wave); trace_run_layout.c's
 * layout_copy (a transposed copy read once by the next launch); and, on the same pair, trace_run_fuse.c's reload and dropped_stores (an output loaded back by the next
 * launch, whole or one in m) and trace_run_input.c's same_input (two launches loading one input); the first rule
 * that applies names the pair. Last, each launch alone: trace_run_prog.c's clone and domain. The trace records no host copies (cudaMemcpy, cudaMemset): one between the two launches
 * would change the buffer unseen, and a run whose launch window holds one launch of a pair shows nothing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

/* a in launch ka and b in launch kb touch the same elements: the same grid and block, start, expression, size and
   active threads */
static int same_elements(const struct gm_trace_kernel *ka, const struct gm_trace_insn *a,
			 const struct gm_trace_kernel *kb, const struct gm_trace_insn *b)
{
	return !memcmp(ka->l->grid, kb->l->grid, sizeof(ka->l->grid)) &&
	       !memcmp(ka->l->block, kb->l->block, sizeof(ka->l->block)) && a->in->size == b->in->size &&
	       tr_first_byte(a) == tr_first_byte(b) && !strcmp(a->fit.expr1d, b->fit.expr1d) &&
	       fabs(a->in->thread_accesses - b->in->thread_accesses) <= 1e-9 * a->in->thread_accesses;
}

/* the instruction of k with op touching x's elements (x in kx), -1 if none */
static int match(const struct gm_trace_kernel *k, enum gm_trace_op op, const struct gm_trace_kernel *kx,
		 const struct gm_trace_insn *x)
{
	for (int i = 0; i < k->nins; i++)
		if (tr_plain(&k->ins[i], op) && same_elements(k, &k->ins[i], kx, x))
			return i;
	return -1;
}

/* the first byte and one past it by the bytes the threads touch (the elements need not be contiguous) */
static void extent(const struct gm_trace_insn *x, int64_t *lo, int64_t *hi)
{
	*lo = tr_first_byte(x);
	*hi = *lo + (int64_t)llround(x->in->thread_accesses) * x->in->size;
}

/* rule clear_acc on launches a (the fill) and b: the finding's buffer and instructions, 0; -1 where it does not
   apply. Every instruction of a is a plain global store; each is loaded by b and then stored back by b. */
static int clear_acc(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b, struct gm_trace_run_finding *f)
{
	int n = 0;

	for (int i = 0; i < a->nins; i++) {
		const struct gm_trace_insn *s = &a->ins[i];
		if (!tr_plain(s, GM_TO_STORE))
			return -1;
		int ld = match(b, GM_TO_LOAD, a, s), st = match(b, GM_TO_STORE, a, s);
		if (ld < 0 || st < 0 || b->ins[ld].in->pc > b->ins[st].in->pc)
			return -1;   /* not read first, then written back, by the same thread */
		if (!n++)
			f->ins_first = i, f->ins_second = ld, extent(s, &f->lo, &f->hi);
		f->bytes += s->bytes + b->ins[ld].bytes;
	}
	return n ? 0 : -1;
}

/* rule copy_back on launches a (the step) and b: every instruction of b a plain global load of what a stored or a
   plain global store to what a loaded (a not storing where it loads) */
static int copy_back(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b, struct gm_trace_run_finding *f)
{
	int nl = 0, ns = 0;

	for (int i = 0; i < b->nins; i++) {
		const struct gm_trace_insn *x = &b->ins[i];
		int ld = tr_plain(x, GM_TO_LOAD), j = -1;
		if (ld)
			j = match(a, GM_TO_STORE, b, x);
		else if (tr_plain(x, GM_TO_STORE))
			j = match(a, GM_TO_LOAD, b, x);
		if (j < 0 || (!ld && match(a, GM_TO_STORE, b, x) >= 0))
			return -1;
		if (ld && !nl++)
			f->ins_first = j, f->ins_second = i, extent(x, &f->lo, &f->hi);
		if (!ld && !ns++)
			extent(x, &f->lo2, &f->hi2);
		f->bytes += x->bytes;
	}
	return nl && ns ? 0 : -1;
}

/* the ms the accumulation b saves without its loads of the filled buffer (tr_saving_without) */
static double load_saving(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b,
			  const struct gm_profile *prof)
{
	int drop[GM_TRACE_MAX_INSNS], n = 0;

	for (int i = 0; i < a->nins && n < GM_TRACE_MAX_INSNS; i++) {
		int ld = match(b, GM_TO_LOAD, a, &a->ins[i]);
		if (ld >= 0)
			drop[n++] = ld;
	}
	return tr_saving_without(b, prof, drop, n);
}

static void clear_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, double saved_b)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	char wa[64], wl[64], ws[64];
	int st = match(b, GM_TO_STORE, a, &a->ins[f->ins_first]);

	tr_where(&a->ins[f->ins_first], wa, sizeof(wa));
	tr_where(&b->ins[f->ins_second], wl, sizeof(wl));
	tr_where(&b->ins[st], ws, sizeof(ws));
	snprintf(f->words, sizeof(f->words), "launch %lld (%s) only stores: it fills %.1f MB from 0x%llx (at "
		 "%s) from its parameters and ids; the next launch, %lld (%s), loads every element of it (at %s) before it "
		 "stores it back (at %s), element for element: a buffer cleared and then accumulated into. The fill's "
		 "%.4f ms and %.4f ms of launch %lld's loads (the launch model without them) are %.0f %% of the run's "
		 "%.4f ms: store the value directly in launch %lld (out = fill + value, not out += value) and drop launch "
		 "%lld (where a later launch accumulates again, only the first stores)", (long long)a->l->index,
		 tr_name(a), (f->hi - f->lo) / 1e6, (long long)f->lo, wa, (long long)b->l->index,
		 tr_name(b), wl, ws, a->time_ms, saved_b, (long long)b->l->index, 100 * f->saved_ms / r->across.run_ms,
		 r->across.run_ms, (long long)b->l->index, (long long)a->l->index);
	snprintf(f->sketch, sizeof(f->sketch), "// before: fill<<<g, b>>>(out, n);  acc<<<g, b>>>(x, out, n);  // "
		 "out[i] += f(x[i])\n// after:  acc<<<g, b>>>(x, out, n);                          // out[i] = "
		 "f(x[i])  (+ the fill's value if not 0)");
}

static void copy_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	char wa[64], wl[64];

	tr_where(&a->ins[f->ins_first], wa, sizeof(wa));
	tr_where(&b->ins[f->ins_second], wl, sizeof(wl));
	snprintf(f->words, sizeof(f->words), "launch %lld (%s) loads %.1f MB from 0x%llx (at %s), exactly what "
		 "launch %lld (%s) stored just before (at %s), and stores %.1f MB from 0x%llx, exactly what launch "
		 "%lld loaded, element for element: the new state copied back into the old buffer. Its %.4f ms (%.1f MB "
		 "of sectors) are %.0f %% of the run's %.4f ms: swap the two pointers after each step and drop the copy "
		 "(the final state is then in whichever buffer the last step wrote: read it from there)",
		 (long long)b->l->index, tr_name(b), (f->hi - f->lo) / 1e6, (long long)f->lo, wl,
		 (long long)a->l->index, tr_name(a), wa, (f->hi2 - f->lo2) / 1e6, (long long)f->lo2, (long long)a->l->index,
		 f->saved_ms, f->bytes / 1e6, 100 * f->saved_ms / r->across.run_ms, r->across.run_ms);
	snprintf(f->sketch, sizeof(f->sketch), "// before: step<<<g, b>>>(u, v, ...);  copy<<<g, b>>>(v, u, ...);\n"
		 "// after:  step<<<g, b>>>(u, v, ...);  std::swap(u, v);  // the next step reads the new state");
}

/* the finding priced: run_speedup of the run with this fix alone */
static void priced(struct gm_trace_report *r, struct gm_trace_run_finding *f)
{
	double t = r->across.run_ms;

	f->run_speedup = t > 0 && f->saved_ms > 0 && f->saved_ms < t ? t / (t - f->saved_ms) : 1;
	r->across.saved_ms += f->saved_ms;
	r->across.n++;
}

/* the chain rules from launch i on, the first that names one: its last launch, or -1 */
static int chain(const struct gm_trace_report *r, int i, struct gm_trace_run_finding *f)
{
	int (*const rules[])(const struct gm_trace_report *, int, struct gm_trace_run_finding *) = {
		tr_log_passes, tr_step_loop,   /* trace_run_loop.c */
		tr_reduce_passes,              /* trace_run_tree.c */
		tr_acc_chain,                  /* trace_run_prog.c */
		tr_batch_launches,             /* trace_run_batch.c */
	};

	for (size_t q = 0; q < sizeof(rules) / sizeof(rules[0]); q++) {
		memset(f, 0, sizeof(*f));
		int last = rules[q](r, i, f);
		if (last > i)
			return last;
	}
	return -1;
}

void tr_run(struct gm_trace_report *r)
{
	struct gm_trace_across *run = &r->across;

	memset(run, 0, sizeof(*run));
	run->speedup = 1;
	for (int i = 0; i < r->nk; i++)
		run->run_ms = r->k[i].time_ms > 0 && run->run_ms >= 0 ? run->run_ms + r->k[i].time_ms : -1;
	if (!(run->run_ms > 0))
		return;   /* a launch not measured: nothing is priced */
	for (int i = 0; i + 1 < r->nk && run->n < GM_TRACE_RUN_MAX; i++) {
		const struct gm_trace_kernel *a = &r->k[i], *b = &r->k[i + 1];
		struct gm_trace_run_finding *f = &run->f[run->n];
		double saved_b;
		if (b->l->index != a->l->index + 1)
			continue;   /* a launch between them, not traced */
		memset(f, 0, sizeof(*f));
		f->first = i, f->second = i + 1;
		if (!clear_acc(a, b, f)) {
			f->rule = GM_TR_CLEAR_ACC;
			saved_b = load_saving(a, b, r->prof);
			f->saved_ms = a->time_ms + saved_b;
			clear_words(r, f, saved_b);
			priced(r, f);
			continue;
		}
		memset(f, 0, sizeof(*f));
		f->first = i, f->second = i + 1;
		if (!copy_back(a, b, f)) {
			f->rule = GM_TR_COPY_BACK;
			f->saved_ms = b->time_ms;
			copy_words(r, f);
			priced(r, f);
			continue;
		}
		int last = chain(r, i, f);
		if (last > i) {
			priced(r, f);
			i = last - 1;   /* the chain's pairs are named: on from its last launch */
			continue;
		}
		memset(f, 0, sizeof(*f));
		if (!tr_layout_copy(r, i, f)) {   /* trace_run_layout.c */
			priced(r, f);
			continue;
		}
		memset(f, 0, sizeof(*f));
		f->first = i, f->second = i + 1;
		if (!tr_reload(r, i, f)) {   /* reload, dropped_stores (trace_run_fuse.c) */
			priced(r, f);
			continue;
		}
		memset(f, 0, sizeof(*f));
		f->first = i, f->second = i + 1;
		if (!tr_same_input(r, i, f))   /* trace_run_input.c */
			priced(r, f);
	}
	for (int i = 0; i < r->nk && run->n < GM_TRACE_RUN_MAX; i++) {   /* one launch's buffers (trace_run_prog.c) */
		struct gm_trace_run_finding *f = &run->f[run->n];
		memset(f, 0, sizeof(*f));
		if (!tr_clone(r, i, f) || (memset(f, 0, sizeof(*f)), !tr_domain(r, i, f)))
			priced(r, f);
	}
	if (run->saved_ms > 0 && run->saved_ms < run->run_ms)
		run->speedup = run->run_ms / (run->run_ms - run->saved_ms);
}
