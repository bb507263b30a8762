/*
 * trace_atomic_use.c - two global atomics the launch model does not see for what they are (docs/TRACE.md, rules GC
 * and U1; t72), each a mechanism of the document (the SASS opcode, executions against the launch's warps, the
 * sampled addresses), never a kernel's name:
 *   - rule GC, a compare-and-swap retry loop on words other threads update: `do { assumed = old; old =
 *     atomicCAS(a, assumed, f(assumed, v)); } while (assumed != old);` (a float max, a custom update). The CAS
 *     returns its word, the thread compares, and every lane that lost goes round again; a warp waits for each
 *     round's answer. The launch model takes the CAS for a store. Its time: the CAS's measured sectors (each warp's
 *     pass of a sector at the L2 slice's atomic unit), at the profile's atomic_u32_ns a pass (rule C's rate, one
 *     update after another at one slice), the passes spread over the slices the words span (rule C's
 *     TK_SLICE_BYTES a slice): added to the prediction, as rule A's turns (the warps wait for them);
 *   - rule U1, an atomic on addresses each hit once: every sampled address of every lane, warp and block is
 *     distinct, the words span as many bytes as the threads' accesses, and the instruction runs once a warp: an
 *     atomicAdd into a zeroed output that no other thread touches is a plain store. No time rule (the profile has
 *     no constant for an atomic on a word of its own: a float add is priced as the store it is in the model; the
 *     double add on the H200 is slower, unmeasured); named, and fixed by a plain store priced by the model's own
 *     time (the model sees the atomic as that store already): the measured time over it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define GC_SLICE_BYTES 512   /* rule C's TK_SLICE_BYTES (trace_floor.c): the bytes of words one L2 slice takes */
/* rule GC's loop is named and fixed only where its rounds take this share of the measured time or more (a loop
   run once a thread after a walk, 63 a column, is the fixed form: its CAS is not what to change) */
#define GC_NAMED_SHARE 0.1
/* thread accesses a word (over the span the samples show) for words other threads update: the sampled span can
   be short of the launch's by a few times (a one-to-one map sampled in 16 warps: half of it), so 8 */
#define GC_PER_WORD 8

static double launch_warps(const struct gm_trace_launch *l)
{
	int bt = l->block[0] * l->block[1] * l->block[2];

	return (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2] * (double)((bt + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
}

static double launch_threads(const struct gm_trace_launch *l)
{
	return (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2] * (double)l->block[0] * l->block[1] *
	       l->block[2];
}

static int is_cas(const struct gm_trace_instr *in)
{
	return tk_is_global_atomic(in) && in->op == GM_TO_ATOMIC && in->sass && strstr(in->sass, ".CAS") != NULL;
}

/* A sampled warp seen again at a later execution with its active lanes' addresses all among an earlier
   execution's of the same warp: the lanes that lost a round went round again (a retry). */
static int sampled_retry(const struct gm_trace_instr *in)
{
	for (int s = 0; s < in->nsamples; s++)
		for (int t = 0; t < in->nsamples; t++) {
			const struct gm_trace_sample *a = &in->samples[s], *b = &in->samples[t];
			int all = 1, n = 0;
			if (b->iter <= a->iter || b->warp != a->warp || memcmp(a->block, b->block, sizeof(a->block)))
				continue;
			for (int l = 0; l < GM_WARP_SIZE && all; l++) {
				int in_a = 0;
				if (!(b->have >> l & 1))
					continue;
				for (int m = 0; m < GM_WARP_SIZE && !in_a; m++)
					in_a = a->have >> m & 1 && a->addr[m] == b->addr[l];
				all = in_a;
				n++;
			}
			if (all && n > 0)
				return 1;
		}
	return 0;
}

/*
 * Rule GC's loop at instruction i: a global CAS (ATOMG...CAS, its answer used) that runs more often than the
 * launch has warps or whose samples show a warp's retry, on words the threads outnumber (the thread accesses over
 * the words its sampled addresses span: GC_PER_WORD a word or more, *per_word). *rounds: its executions a warp of the launch;
 * *span: the bytes its words span. 0 where it does not apply.
 */
int tk_gcas_loop(const struct gm_trace_kernel *k, int i, double *rounds, double *per_word, double *span)
{
	const struct gm_trace_instr *in = k->ins[i].in;
	double warps = launch_warps(k->l);
	int64_t lo, hi;

	if (!is_cas(in) || !(in->executions > 0) || !(warps > 0) || in->size <= 0 || !tk_range_of(in, &lo, &hi))
		return 0;
	if (!(in->executions > warps * 1.0001) && !sampled_retry(in))
		return 0;
	double b = (double)(hi - lo + in->size), acc = in->thread_accesses > 0 ? in->thread_accesses : in->executions;
	double w = acc * in->size / b;
	if (!(w >= GC_PER_WORD))
		return 0;
	*rounds = in->executions / warps;
	*per_word = w;
	*span = b;
	return 1;
}

/* Rule GC's time (ms) of instruction i: its sectors' passes at atomic_u32_ns over the slices its words span; 0
   where the loop does not apply or the profile lacks the rate. */
static double gcas_ms_of(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i)
{
	double rounds, per, span;
	const struct gm_trace_instr *in = k->ins[i].in;

	if (!prof || !(prof->atomic_u32_ns > 0) || !tk_gcas_loop(k, i, &rounds, &per, &span))
		return 0;
	double passes = in->sectors > 0 ? in->sectors : in->executions, slices = fmax(1, span / GC_SLICE_BYTES);
	return passes * prof->atomic_u32_ns / slices * 1e-6;
}

double tk_gcas_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *at)
{
	double ms = 0, most = 0;

	*at = -1;
	for (int i = 0; i < k->nins; i++) {
		double t = gcas_ms_of(k, prof, i);
		if (t > most)
			most = t, *at = i;
		ms += t;
	}
	return ms;
}

/* Rule GC added to the prediction (with rule A's turns: the warps wait for each round's answer). */
void tk_gcas_add(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double t0 = k->pred.time_ms;

	k->gcas_ms = tk_gcas_ms(k, prof, &k->gcas_at);
	if (!(k->gcas_ms > 0) || !(t0 > 0))
		return;
	tk_set_time(k, t0 + k->gcas_ms);
	if (k->gcas_ms > t0)
		k->pred.limited_by = "compare-and-swap";
	tk_why(k, "rule GC: %.4f ms of compare-and-swap rounds queued at the L2 slices added", k->gcas_ms);
}

/*
 * Rule U1: a global atomic or reduction (not a CAS nor an exchange) on addresses each hit once: run once a warp at
 * most (no loop); 16 sampled warps or more from two blocks or more; every sampled address (lanes, warps, blocks)
 * distinct; the words it spans as many as the threads' accesses (half at least: an address a thread); a map of the ids
 * fits it, and where blocks have several warps block 0's threads are each on an element of its own (tk_block_sharers).
 */
int tk_one_to_one(const struct gm_trace_kernel *k, int i)
{
	const struct gm_trace_insn *x = &k->ins[i];
	const struct gm_trace_instr *in = x->in;
	double warps = launch_warps(k->l), acc = in->thread_accesses > 0 ? in->thread_accesses : launch_threads(k->l);
	int64_t lo, hi, *v;
	int n = 0, blocks = 0, dup = 0;

	if (!tk_is_global_atomic(in) || !in->sass || strstr(in->sass, ".CAS") || strstr(in->sass, ".EXCH") ||
	    !(in->executions > 0) || in->executions > warps * 1.0001 || in->nsamples < 16 || in->size <= 0 ||
	    !tk_range_of(in, &lo, &hi) || (double)(hi - lo + in->size) < 0.5 * acc * in->size)
		return 0;
	if (!x->fit.map.known || x->fit.approx || x->fit.cls == GM_TC_GATHER || tk_block_sharers(k->l, in, &x->fit) > 1.0001)
		return 0;   /* a map of the ids fits (a scatter the data addresses, llm.c's encoder_backward into a token's
			       row, may repeat where 32 samples do not) and block 0's threads each on an element of its own */
	if (!(v = malloc(sizeof(*v) * (size_t)in->nsamples * GM_WARP_SIZE)))
		return 0;
	for (int s = 0; s < in->nsamples; s++) {
		blocks |= memcmp(in->samples[s].block, in->samples[0].block, sizeof(in->samples[0].block)) != 0;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (in->samples[s].have >> l & 1)
				v[n++] = in->samples[s].addr[l];
	}
	dup = tk_distinct(v, n) < n;
	free(v);
	return blocks && n >= 2 * GM_WARP_SIZE && !dup;
}

/* The model's time with rule GC's loop left out (its CAS and the loads of the same words, the loop's first old
   value), rule S2 as in the kernel's own; -1 where it cannot be predicted. */
static double without_loop(const struct gm_trace_kernel *k, const struct gm_profile *prof, int at, int *nleft)
{
	struct tk_swap sw[GM_TRACE_MAX_INSNS];
	struct gm_launch_out o;
	char why[200];
	int nsw = 0;
	const struct gm_trace_insn *a = &k->ins[at];
	double r, p, sp;

	for (int i = 0; i < k->nins && nsw < GM_TRACE_MAX_INSNS; i++) {
		const struct gm_trace_insn *y = &k->ins[i];
		int same = y->in->space == GM_TS_GLOBAL && y->in->op == GM_TO_LOAD && a->fit.map.known &&
			   y->fit.map.known && y->in->size == a->in->size && y->fit.map.base == a->fit.map.base &&
			   y->fit.map.offset == a->fit.map.offset && !strcmp(y->fit.expr1d, a->fit.expr1d);
		if (i == at || same || (i != at && tk_gcas_loop(k, i, &r, &p, &sp)))
			sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };
	}
	*nleft = nsw;
	if (tk_predict(k, prof, TK_WITH_TRIPS, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return -1;
	tk_start_drain(prof, &o);
	return o.time_ms;
}

/* The speedup of rule GC's fix (the measured time over the kernel without the loop, at least its floors), 0 where
   it cannot be priced. */
static double gcas_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, int at, int *nleft)
{
	double t = prof && k->pred_ok && k->time_ms > 0 ? without_loop(k, prof, at, nleft) : -1;

	return t > 0 ? k->time_ms / fmax(t, tk_floor_free_ms(k, prof, 1e9)) : 0;
}

/* The speedup of rule U1's fix: the measured time over the model's own (which sees the atomic as a store). */
static double plain_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	return k->pred_ok && k->time_ms > 0 && k->pred.time_ms > 0 ?
		       k->time_ms / fmax(k->pred.time_ms, tk_floor_free_ms(k, prof, 1)) : 0;
}

static int one_to_one_at(const struct gm_trace_kernel *k)
{
	int at = -1;

	for (int i = 0; i < k->nins; i++)
		if (tk_one_to_one(k, i) && (at < 0 || k->ins[i].bytes > k->ins[at].bytes))
			at = i;
	return at;
}

/* the CAS inside the toolkit's header (its atomicAdd of a type without a native one is this loop) */
static const char *hdr(const struct gm_trace_instr *in)
{
	const char *f = in->file_inner ? in->file_inner : in->file;

	return f && strstr(f, "atomic_functions") ? " (the toolkit's atomic for this type is this loop: reduce first)" : "";
}

/* Rule GC's loop the verdict names and the fix changes: the CAS with the most executions, where its rounds take
   GC_NAMED_SHARE of the measured time (of the prediction without one) or more; -1: none */
static int gcas_named_at(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double r, p, sp, t = k->time_ms > 0 ? k->time_ms : k->pred.time_ms;
	int at = -1;

	for (int i = 0; i < k->nins; i++)
		if (tk_gcas_loop(k, i, &r, &p, &sp) && (at < 0 || k->ins[i].in->executions > k->ins[at].in->executions))
			at = i;
	return at >= 0 && t > 0 && gcas_ms_of(k, prof, at) >= GC_NAMED_SHARE * t ? at : -1;
}

/* The verdict's candidates (trace_named.c's list): the loop scored by the share of the measured time its fix
   removes; the one-to-one atomic by that share too, or 0.6 (rule T4's weight: a change to make whatever the
   roof) where its fix is worth making. */
int tk_atomic_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c, int max)
{
	int n = 0, nl, at = -1;
	char w[96];
	double r = 0, p = 0, sp = 0;

	if ((at = gcas_named_at(k, prof)) >= 0 && n < max) {
		double s = gcas_speedup(k, prof, at, &nl);
		tk_gcas_loop(k, at, &r, &p, &sp);
		gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
		/* the share of the time its fix removes; where the fix cannot be priced, its rounds' share */
		c[n].score = s > 1 ? 1 - 1 / s : s > 0 ? 0 : fmin(1, gcas_ms_of(k, prof, at) / k->time_ms);
		if (!(c[n].score > 0.05))   /* nothing to gain: not named (nor taken off the instruction's pattern) */
			goto u1;
		c[n].ins = at;
		c[n].time = 1;
		snprintf(c[n++].text, sizeof(c[0].text), "a compare-and-swap retry loop at %.60s on words other threads "
			 "update (%.0f a word over %.0f B, %.2f CAS a warp, each waiting at the L2; rule GC): use "
			 "atomicMax / reduce in the warp first%s",
			 w, p, sp, r, hdr(k->ins[at].in));
	}
u1:
	if (n < max && (at = one_to_one_at(k)) >= 0) {
		double s = plain_speedup(k, prof);
		gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
		c[n].score = s >= GM_TRACE_WORTH ? fmax(0.6, 1 - 1 / s) : s > 1 ? 1 - 1 / s : 0;
		if (!(c[n].score > 0.05))
			return n;
		c[n].ins = at;
		c[n].time = 1;
		snprintf(c[n++].text, sizeof(c[0].text), "an atomic on addresses each hit once at %.60s (%d sampled "
			 "addresses, none repeated, over as many words as threads; rule U1): each address is updated once: "
			 "a plain store", w, k->ins[at].in->nsamples * GM_WARP_SIZE);
	}
	return n;
}

/* The fixes: rule GC's native atomic, rule U1's plain store, on their instruction; the instruction fixed, -1. */
int tf_atomic_use(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int at = -1, nl = 0;
	double r = 0, p = 0, sp = 0;
	char w[96];

	if ((at = gcas_named_at(k, prof)) >= 0) {
		double s = gcas_speedup(k, prof, at, &nl);
		if (s >= GM_TRACE_WORTH) {
			struct gm_trace_fix *fx = tf_whole_fix(k, at, nl, s);
			tk_gcas_loop(k, at, &r, &p, &sp);
			gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
			snprintf(fx->rewrite, sizeof(fx->rewrite), "native_atomic");
			snprintf(fx->change, sizeof(fx->change), "the compare-and-swap loop replaced by one native atomic "
				 "(atomicMax, atomicMin, atomicAdd), the values reduced in the warp and block first: %.2f "
				 "CAS a warp become one request, no retry", r);
			snprintf(fx->words, sizeof(fx->words), "a compare-and-swap retry loop at %.60s (%.0f updates a word, %.2f "
				 "CAS a warp, each waiting for its answer at the L2): use atomicMax / reduce in the warp "
				 "first: the native atomic sends the update with nothing to wait for (a float max: atomicMax on "
				 "the int bits where >= 0, atomicMin on the uint bits where < 0); one atomic a block and word",
				 w, p, r);
			snprintf(fx->sketch, sizeof(fx->sketch), "// was: do { assumed = old; old = atomicCAS(a, assumed, "
				 "f(assumed, v)); } while (assumed != old);\n"
				 "__device__ void atomicMaxFloat(float *a, float v) {\n"
				 "    if (v >= 0.f) atomicMax((int *)a, __float_as_int(v));\n"
				 "    else atomicMin((unsigned *)a, __float_as_uint(v));\n}\n"
				 "// a block's rows first: v = max over threadIdx.y through shared memory, then\n"
				 "if (threadIdx.y == 0) atomicMaxFloat(&out[col], v);   // one atomic a block and word");
			char was[160];   /* the class in words names the loop; the lanes' class after it */
			snprintf(was, sizeof(was), "%s", k->ins[at].fit.cls_text);
			snprintf(k->ins[at].fit.cls_text, sizeof(k->ins[at].fit.cls_text), "compare-and-swap retry loop, "
				 "%.2f CAS a warp (its lanes: %.90s)", r, was);
			for (int i = 0; i < k->nins; i++)
				if (i != at && (is_cas(k->ins[i].in) || (k->ins[i].in->space == GM_TS_GLOBAL &&
				    k->ins[i].in->op == GM_TO_LOAD && k->ins[at].fit.map.known && k->ins[i].fit.map.known &&
				    k->ins[i].fit.map.base == k->ins[at].fit.map.base &&
				    !strcmp(k->ins[i].fit.expr1d, k->ins[at].fit.expr1d))))
					k->ins[i].fix.same_as = at + 1;
			return at;
		}
	}
	if ((at = one_to_one_at(k)) < 0)
		return -1;
	double s = plain_speedup(k, prof);
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, at, 1, s);
	const char *op = strstr(k->ins[at].in->sass, ".ADD") ? "atomicAdd" : "the atomic";
	gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "plain_store");
	snprintf(fx->change, sizeof(fx->change), "the atomic on addresses each hit once replaced by a plain store "
		 "(%d-byte words)", k->ins[at].in->size);
	snprintf(fx->words, sizeof(fx->words), "%s at %.60s: %d sampled addresses over lanes, warps and blocks, "
		 "none repeated, as many words as threads: each address is updated once: a plain store (out[i] = v into "
		 "a zeroed output, or out[i] += v: one thread an element), no read-modify-write at the L2", op, w, k->ins[at].in->nsamples * GM_WARP_SIZE);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: atomicAdd(&out[i], w * in[i]);   // each i one thread's\n"
		 "out[i] = w * in[i];   // or out[i] += w * in[i]: the thread owns the element");
	return at;
}
