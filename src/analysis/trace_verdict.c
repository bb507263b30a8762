/*
 * trace_verdict.c - what a traced kernel's figures say (docs/TRACE.md): whether it is memory-bound (the busiest
 * memory level's lower bound against the measured time, "Memory-bound") and its primary and secondary
 * bottleneck in words ("Reading the report"). Called by trace_kernel.c once the kernel is predicted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

struct cand {
	double score;
	int ins;                      /* the instruction it names, -1: none */
	char text[300];
};

static int cmp_cand(const void *a, const void *b)
{
	double d = ((const struct cand *)b)->score - ((const struct cand *)a)->score;
	return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* The global atomic (or reduction) with the most traffic whose requests take at least twice their ideal sectors
   and a tenth of the kernel's traffic: its lanes update scattered sectors, each a read-modify-write in L2 that
   the launch model counts as a sector of traffic only; -1 if none. */
static int scattered_atomic(const struct gm_trace_kernel *k)
{
	int best = -1;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (!tk_is_global_atomic(x->in) || !(x->fit.ideal_per_req > 0) || x->fit.meas_per_req < 2 * x->fit.ideal_per_req || x->share < 0.1)
			continue;
		if (best < 0 || x->share > k->ins[best].share)
			best = i;
	}
	return best;
}

/* The global atomic with the most executions whose sampled warps put 4 lanes or more on an address (lanes of one
   key: tk_warp_runs), its lanes an address in *runs, its distinct addresses a warp in *addrs; -1 if none. */
static int run_atomic(const struct gm_trace_kernel *k, double *runs, double *addrs)
{
	int best = -1;

	for (int i = 0; i < k->nins; i++) {
		double a, r = tk_warp_runs(k->ins[i].in, &a);
		if (r >= 4 && (best < 0 || k->ins[i].in->executions > k->ins[best].in->executions))
			best = i, *runs = r, *addrs = a;
	}
	return best;
}

/* The global atomic with the most executions whose block's threads share its addresses (tk_block_sharers: 2 or
   more a word), the threads an address in *b; -1 if none. */
static int rows_atomic(const struct gm_trace_kernel *k, double *b)
{
	int best = -1;

	for (int i = 0; i < k->nins; i++) {
		double s = tk_block_sharers(k->l, k->ins[i].in, &k->ins[i].fit);
		if (s >= 2 && (best < 0 || k->ins[i].in->executions > k->ins[best].in->executions))
			best = i, *b = s;
	}
	return best;
}

/* The L1 level's lower bound over the measured time where L1 is the busiest level (memory-bound's test), else 0. */
static double l1_busiest(const struct gm_trace_kernel *k)
{
	return k->bound_level && !strcmp(k->bound_level, "L1") && k->time_ms > 0 && k->bound_l1_ms > 0 ?
	       fmin(1, k->bound_l1_ms / k->time_ms) : 0;
}

/* The widest element of a kernel whose global accesses are all coalesced loads and stores of at most 4 B
   without a loop (narrow lanes: a thread's instructions per byte), else 0; a row the data places whose warps
   take consecutive elements counts as coalesced (tf_consecutive), a scalar every thread reads is left out. */
static int narrow_lanes(const struct gm_trace_kernel *k)
{
	int w = 0;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space != GM_TS_GLOBAL || (x->fit.cls == GM_TC_BROADCAST && x->in->op == GM_TO_LOAD))
			continue;
		if (!tf_consecutive(x) || x->in->size > 4)   /* a loop: its threads' count, not their width */
			return 0;
		w = x->in->size > w ? x->in->size : w;
	}
	return w;
}

/* Where the narrow kernel's largest global load or store is (its file:line), into w; its index, or -1. */
static int narrow_where(const struct gm_trace_kernel *k, char *w, size_t n)
{
	int best = -1;

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space == GM_TS_GLOBAL && tf_consecutive(x) && (best < 0 || x->bytes > k->ins[best].bytes))
			best = i;
	}
	if (best >= 0)
		gm_trace_where(k->ins[best].in, 60, w, n);
	return best;
}

/* A local array indexed at run time (trace_class.c): its local instructions (every one of the kernel's stack, the
   array's fixed offsets too) as one candidate, scored by their share of the traffic; the largest indexed one's
   place in w. 0 when the kernel has none. */
static int local_array(const struct gm_trace_kernel *k, struct cand *c)
{
	double sh = 0, per = 0;
	int lead = -1, n = 0;
	char w[96];

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space != GM_TS_LOCAL)
			continue;
		sh += x->share, n++;
		if (x->fit.cls == GM_TC_LOCAL_INDEXED && (lead < 0 || x->bytes > k->ins[lead].bytes))
			lead = i, per = x->fit.meas_per_req;
	}
	if (lead < 0)
		return 0;
	gm_trace_where(k->ins[lead].in, 70, w, sizeof(w));
	c->score = sh;
	c->ins = lead;
	snprintf(c->text, sizeof(c->text), "a local array indexed at run time at %.60s, spilled to local memory: %d "
		 "local loads and stores, %.0f %% of the sectors (up to %.1f a request where 4 do): keep it in registers "
		 "(compile-time indices, unrolled)", w, n, 100 * sh, per);
	return 1;
}

/* A call's stack frame in local memory: traced local loads and stores, every one at fixed offsets of the thread's
   own stack (trace_class.c's "local memory": each lane at the same offset, none indexed at run time), at least a
   tenth of the sectors. A callee that is not inlined (__noinline__, recursion, a call through a pointer) takes the
   arrays it is passed by pointer on the stack; ptxas' own spills are not traced (rule spill, trace_fix_spill.c).
   One candidate, scored by the local share of the sectors, named at the line with the most local bytes
   (tk_local_frame). 0: none. */
static int local_frame(const struct gm_trace_kernel *k, struct cand *c)
{
	double sh = 0, st = 0;
	int lead, n = 0;
	char w[64];

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space != GM_TS_LOCAL || !(x->in->executions > 0))
			continue;
		sh += x->share, n++;
		st += x->in->op == GM_TO_STORE ? x->bytes : 0;
	}
	lead = tk_local_frame(k);
	if (lead < 0 || sh < 0.1)
		return 0;
	gm_trace_where(k->ins[lead].in, 70, w, sizeof(w));
	c->score = sh;
	c->ins = lead;
	snprintf(c->text, sizeof(c->text), "a call's stack frame in local memory (%lld B a thread): %d local loads and "
		 "stores at fixed offsets of the stack (the most at %.50s), %.0f %% of the sectors, %.0f MB stored "
		 "through to L2: inline the callee (__forceinline__) or pass values",
		 (long long)(k->l->local_bytes > 0 ? k->l->local_bytes : (long long)k->local_span), n, w, 100 * sh, st / 1e6);
	return 1;
}

/* The candidates, each scored by the share of the kernel's time or traffic it explains. */
void tk_bottlenecks(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct cand c[29];   /* a local array or frame, 4 patterns, DRAM, outside, RS, tile, SA, B, O, idle lanes, A and
				 one of T4, X, latency, 9 named (trace_named.c, trace_atomic_use.c,
				 trace_fix_chain.c, trace_fix_spill.c) */
	struct tk_named nm[9];
	int n = 0;
	char w[96];
	double glob = 0, exmax = 0;   /* exmax: the largest share of sectors above the need of one pattern */
	int outside_at = -1;          /* the candidate of the time outside the memory instructions, if any */
	int turns = k->pred_ok && k->turns_ms > 0 && k->turns_at >= 0 && k->pred.time_ms > 0 &&
		    k->turns_ms >= 0.5 * k->pred.time_ms;   /* rule A's atomics named below, not as time outside */

	memset(c, 0, sizeof(c));
	for (int q = 0; q < 29; q++)
		c[q].ins = -1;
	for (int i = 0; i < k->nins; i++)
		glob += k->ins[i].in->space != GM_TS_SHARED ? k->ins[i].bytes : 0;
	/* the part of the measured time the model does not explain (where the verdict names it): shared between
	   the patterns' excess sectors, by their share (the model may price them low), and the rest */
	double outside = k->pred_ok && k->time_ms > 0 && k->pred.time_ms < GM_TRACE_OUTSIDE * k->time_ms &&
			 scattered_atomic(k) < 0 ? 1 - k->pred.time_ms / k->time_ms : 0;   /* else the atomics' */
	int local = local_array(k, &c[n]);   /* the array's instructions one candidate, not one each */
	if (!local)
		local = local_frame(k, &c[n]);   /* or a call's frame's */
	n += local;
	for (int j = 0; j < k->norder && n < 4 + local; j++) {
		const struct gm_trace_insn *x = &k->ins[k->order[j]];
		int seen = 0;
		if (local && x->in->space == GM_TS_LOCAL)
			continue;
		for (int q = 0; q < j; q++) {   /* one candidate per pattern: the same class at other lines adds up */
			const struct gm_trace_insn *y = &k->ins[k->order[q]];
			seen |= y->fit.cls == x->fit.cls && y->fit.cls_k == x->fit.cls_k && !y->computed == !x->computed;
		}
		if (seen)
			continue;
		double ex = 0, sh = 0;
		int more = -1, l1 = 1;   /* l1: every line a load rule A serves from each SM's L1 */
		for (int q = j; q < k->norder; q++) {
			const struct gm_trace_insn *y = &k->ins[k->order[q]];
			if (y->fit.cls == x->fit.cls && y->fit.cls_k == x->fit.cls_k && y->in->space == x->in->space &&
			    !y->computed == !x->computed)
				ex += y->excess_bytes, sh += y->share, more++, l1 &= tk_in_l1(k, prof, y);
		}
		if (l1 && k->memory_bound == 1 && k->bound_level && !strcmp(k->bound_level, "DRAM"))
			continue;   /* sectors above the need that L1 serves: a kernel held by DRAM does not wait for them */
		if (x->fit.cls == GM_TC_COALESCED && x->in->space != GM_TS_SHARED)
			continue;   /* every warp on its sectors: what is above the need is the lanes the data masks */
		gm_trace_where(x->in, 70, w, sizeof(w));
		if (more > 0)
			snprintf(w + strlen(w), sizeof(w) - strlen(w), " and %d more", more);
		/* shared: wavefronts above the ideal are bank conflicts, whether a map or the data chooses the words */
		int conflicts = x->in->space == GM_TS_SHARED && x->bytes > 0 && x->excess_bytes / x->bytes > 0.2;
		if (x->fit.cls == GM_TC_GATHER && sh > 0.1 && tf_consecutive(x)) {
			continue;   /* rows the data places, each warp on one run: nothing to name (f52) */
		} else if (x->fit.cls == GM_TC_GATHER && sh > 0.1 && !conflicts && tk_computed_scattered(x)) {   /* CS */
			c[n].score = sh;
			c[n].ins = k->order[j];
			snprintf(c[n++].text, sizeof(c[0].text), "a computed %s at %s: %.0f %% of the traffic, each lane its "
				 "own sector, scattered by arithmetic on the thread's own index (%s), not by the data: store the "
				 "data in the order the threads read it, or sort the work by destination", x->in->op ==
				 GM_TO_LOAD ? "gather" : "scatter", w, 100 * sh, x->computed == 3 ? "a polynomial of it, its "
				 "lanes' elements say" : "a hash or a permutation: no load before it returns data");
		} else if (x->fit.cls == GM_TC_GATHER && sh > 0.1 && !conflicts && x->computed) {   /* rule CS, lanes sharing */
			double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;
			c[n].score = sh;
			c[n].ins = k->order[j];
			snprintf(c[n++].text, sizeof(c[0].text), "a computed %s at %s: %.0f %% of the traffic, addresses "
				 "arithmetic on the thread's own index that no map expresses (a division, a clamp: no load before "
				 "it returns data), %.1f sectors a request where %.1f would do", x->in->op == GM_TO_LOAD ?
				 "gather" : "scatter", w, 100 * sh, per, x->fit.ideal_per_req);
		} else if (x->fit.cls == GM_TC_GATHER && sh > 0.1 && !conflicts) {
			c[n].score = sh;
			c[n].ins = k->order[j];
			snprintf(c[n++].text, sizeof(c[0].text), "a data-dependent %s at %s: %.0f %% of the traffic, its "
				 "scatter comes from the data (no map of the thread ids fits)",
				 x->in->op == GM_TO_LOAD ? "gather" : "scatter", w, 100 * sh);
		} else if (x->in->space != GM_TS_SHARED && glob > 0 && ex / glob > 0.05) {
			/* near the roof, bytes above the need are the cause of the bandwidth limit: they come first */
			c[n].score = ex / glob * (1 + outside) + (k->roof_pct >= 60 ? 0.5 : 0);
			exmax = ex / glob > exmax ? ex / glob : exmax;
			snprintf(c[n++].text, sizeof(c[0].text), "the %s at %s, %s: %.0f %% of the kernel's sectors are "
				 "more than its bytes need", gm_trace_op_name(x->in->op), w, x->fit.cls_text, 100 * ex / glob);
		} else if (x->in->space == GM_TS_SHARED && x->bytes > 0 && x->excess_bytes / x->bytes > 0.2) {
			/* where L1 (shared wavefronts) is the busiest level, the conflicts' part of it: its share of
			   the measured time times the wavefronts above the ideal */
			c[n].score = fmax(0.5, l1_busiest(k)) * x->excess_bytes / x->bytes;
			c[n].ins = k->order[j];
			if (x->fit.cls == GM_TC_GATHER)   /* the data chooses the words: the lanes' own part shares banks */
				snprintf(c[n++].text, sizeof(c[0].text), "shared-memory bank conflicts at %s: %.1f wavefronts "
					 "a request where %.1f would do, at words the data chooses (a thread id strided in the index, "
					 "c[tid * K + d] with K even, puts several lanes on one bank: the thread "
					 "id in the low part, c[d * threads + tid], spreads them)", w, x->fit.meas_per_req,
					 x->fit.ideal_per_req > 0 ? x->fit.ideal_per_req : 1.0);
			else
				snprintf(c[n++].text, sizeof(c[0].text), "shared-memory bank conflicts at %s: %s", w,
					 x->fit.cls_text);
		}
	}
	/* predicted bytes the measured time could not have moved: the model reads more than the kernel did (its
	   patterns are each their own bytes; TRACE.md): no bandwidth claim on them */
	int impossible = !k->dram_measured && k->roof_pct > 105;
	int dram_at = -1;
	if (k->roof_pct >= 40 && !impossible) {   /* under that the roof is not what holds the kernel back */
		dram_at = n;
		c[n].score = k->roof_pct / 100;
		snprintf(c[n++].text, sizeof(c[0].text), "DRAM bandwidth: %.0f GB/s, %.0f %% of the %.0f GB/s roof",
			 k->gbs, k->roof_pct, k->roof_gbs);
	}
	if (k->pred_ok && k->time_ms > 0 && k->pred.time_ms < GM_TRACE_OUTSIDE * k->time_ms) {
		int a = scattered_atomic(k), r;
		double runs, addrs;
		/* the time the model does not explain, less the part the wasted sectors may take (the model prices
		   them at the launch's rates; a scattered pattern's own cost is often more): a pattern of large
		   excess is named before it */
		c[n].score = (1 - k->pred.time_ms / k->time_ms) * (a >= 0 ? 1 : 1 - exmax);
		if (a >= 0) {   /* the time the model does not see: the scattered updates' read-modify-writes */
			const struct gm_trace_insn *x = &k->ins[a];
			for (int q = 0; q < n; q++)   /* named here, not twice */
				c[q].score = c[q].ins == a ? 0 : c[q].score;
			gm_trace_where(x->in, 70, w, sizeof(w));
			snprintf(c[n++].text, sizeof(c[0].text), "scattered atomics at %.60s: %.1f sectors a request where %.1f "
				 "would do, each an L2 read-modify-write (%.60s); the model's memory time is %.0f %% of the "
				 "measured, the rest taken as theirs", w, x->fit.meas_per_req, x->fit.ideal_per_req,
				 x->fit.map.known ? x->fit.cls_text : "the addresses come from the data",
				 100 * k->pred.time_ms / k->time_ms);
		} else if (!turns && (r = run_atomic(k, &runs, &addrs)) >= 0) {   /* the time the model does not see: turns */
			c[n].ins = r;
			gm_trace_where(k->ins[r].in, 70, w, sizeof(w));
			snprintf(c[n++].text, sizeof(c[0].text), "atomics on %.1f addresses a warp (from the data) at %.60s: "
				 "%.1f lanes an address, each waiting at the L2 for the one before it; the model's memory time "
				 "is %.0f %% of the measured, the rest their turns: add each address's lanes in the warp "
				 "first", addrs, w, runs, 100 * k->pred.time_ms / k->time_ms);
		} else if (!turns && (r = rows_atomic(k, &runs)) >= 0) {   /* the block's rows on the same words */
			c[n].ins = r;
			gm_trace_where(k->ins[r].in, 70, w, sizeof(w));
			snprintf(c[n++].text, sizeof(c[0].text), "atomics at %.60s: %.0f threads of a block (and every block) "
				 "add into each word, one update after another at the L2 (the model's memory time %.0f %% of "
				 "the measured, the rest theirs): add in the block first, one atomic a block and address", w,
				 runs, 100 * k->pred.time_ms / k->time_ms);
		} else if (narrow_lanes(k) > 0) {
			outside_at = n;
			c[n].ins = narrow_where(k, w, sizeof(w));
			snprintf(c[n++].text, sizeof(c[0].text), "time outside the memory instructions, coalesced but "
				 "narrow: %d B a thread a load (the largest at %.60s), the threads' own instructions (index "
				 "arithmetic) per byte take the time (the model's memory time is %.0f %% of the measured): "
				 "wider elements", narrow_lanes(k), w, 100 * k->pred.time_ms / k->time_ms);
		} else if ((outside_at = n) >= 0)
			snprintf(c[n++].text, sizeof(c[0].text), "time outside the memory instructions: the model's memory "
				 "time is %.0f %% of the measured time (compute, synchronisation, a short launch or the "
				 "left-out instructions)", 100 * k->pred.time_ms / k->time_ms);
	}
	int rs_at, rs = tk_repeat_stores(k, &rs_at);
	if (rs && k->pred_ok && k->pred.limited_by && !strcmp(k->pred.limited_by, "L2")) {   /* rule RS's floor */
		c[n].score = 1.0 - 1.0 / rs;   /* the repeats' part of the stores' L2 time, which is the prediction */
		c[n].ins = rs_at;
		gm_trace_where(k->ins[rs_at].in, 60, w, sizeof(w));
		snprintf(c[n++].text, sizeof(c[0].text), "the same output stored %d times at %.60s: each thread writes "
			 "its own word after every step (pointers that may alias), each store an L2 write (rule RS): keep "
			 "the value in a register, store once (__restrict__)", rs, w);
	}
	if ((c[n].score = tk_dup_words(k, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0) {   /* rule DU */
		if (tk_dup_one(k)) {
			if (outside_at >= 0)   /* the time outside is the one word's turns (the model does not see them) */
				c[outside_at].score = fmax(0, c[outside_at].score - c[n].score);
		} else if (dram_at >= 0)   /* the bandwidth used is the repeats' k times over: its useful part 1 / k */
			c[dram_at].score *= 1 - c[n].score;
		n++;
	}
	if ((c[n].score = tk_reread_words(k, prof, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0 ||
	    (c[n].score = tk_stage_words(k, prof, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0) {   /* rules RR, ST */
		if (dram_at >= 0)   /* the bandwidth used is the re-reads' */
			c[dram_at].score *= 1 - c[n].score;
		if (outside_at >= 0)
			c[outside_at].score = fmax(0, c[outside_at].score - c[n].score);
		n++;
	}
	if ((c[n].score = tk_tile_named(k, prof, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0) {   /* rule tile */
		if (outside_at >= 0)   /* the time outside is the re-reads' L1 time (the model prices it) */
			c[outside_at].score = fmax(0, c[outside_at].score - c[n].score);
		n++;
	}
	if ((c[n].score = tk_lone_words(k, prof, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0) {   /* rule LT */
		if (outside_at >= 0)   /* the time outside is the lone thread's serial requests (the model sees a warp's) */
			c[outside_at].score = fmax(0, c[outside_at].score - c[n].score);
		n++;
	}
	if (k->pred_ok && k->cas_at >= 0 && k->cas_ms > 0 && k->pred.time_ms > 0) {   /* rule SA */
		const struct gm_trace_instr *in = k->ins[k->cas_at].in;
		c[n].score = fmin(1, k->cas_ms / k->pred.time_ms);
		c[n].ins = k->cas_at;
		gm_trace_where(in, 60, w, sizeof(w));
		snprintf(c[n++].text, sizeof(c[0].text), "shared-memory atomics on one word at %.60s: every lane adds into "
			 "the same word, a compare-and-swap loop one lane a round (%.4f ms, rule SA): add in the warp with "
			 "shuffles first, one atomic a warp", w, k->cas_ms);
	}
	if (k->pred_ok && k->steps_ms > 0 && k->pred.time_ms > 0) {   /* rule B */
		c[n].score = k->steps_ms / k->pred.time_ms;
		snprintf(c[n++].text, sizeof(c[0].text), "the barrier steps of a shared-memory loop: %.0f %% of the "
			 "predicted time (the steps' instructions issued for every resident warp and their bank "
			 "conflicts, while no load is in flight)", 100 * k->steps_ms / k->pred.time_ms);
	}
	if (k->pred_ok && k->occ_cap > 0 && k->occ.free_ms > 0 && k->occ.free_ms < k->pred.time_ms) {   /* rule OC */
		const struct gm_trace_launch *l = k->l;
		long long st = l->shared_static > 0 ? l->shared_static : 0, dyn = l->shared_dynamic > 0 ? l->shared_dynamic : 0;
		double part = 1 - k->occ.free_ms / k->pred.time_ms;
		c[n].score = part;
		snprintf(c[n++].text, sizeof(c[0].text), "occupancy capped by shared memory: %d blocks an SM of %d (a block takes "
			 "%lld B of shared memory: %lld static, %lld dynamic%s, %lld the system's; its accesses reach %lld B): "
			 "too few loads in flight, %.0f %% of the predicted time", k->occ_cap, k->occ.of,
			 (long long)k->occ.smem_block, st, dyn, k->occ.dynamic_known ? "" : " (not recorded)",
			 (long long)k->occ.reserve, (long long)k->occ.smem_used, 100 * part);
	}
	if ((c[n].score = tk_idle_lanes(k, c[n].text, sizeof(c[0].text), &c[n].ins)) > 0) {   /* the launch's shape */
		int64_t row;
		int at;
		double s = tk_flat_grid(k, prof, &row, &at);   /* rule flat_grid: the time the idle lanes cost */
		if (s >= GM_TRACE_WORTH) {
			size_t m = strlen(c[n].text);
			c[n].score = fmax(c[n].score, 1 - 1 / s);
			snprintf(c[n].text + m, sizeof(c[0].text) - m, "; or a flat grid (a thread an element): "
				 "%.2fx predicted", s);
		}
		n++;
	}
	if (k->pred_ok && k->pred.limited_by && !strcmp(k->pred.limited_by, "blocks")) {   /* rule T4 */
		const struct gm_trace_launch *l = k->l;
		long long blocks = (long long)(l->grid[0] * l->grid[1] * l->grid[2]);
		c[n].score = 0.6;
		c[n].ins = k->norder > 0 ? k->order[0] : -1;   /* the access with the most bytes: where to widen */
		if (c[n].ins >= 0)
			gm_trace_where(k->ins[c[n].ins].in, 60, w, sizeof(w));
		snprintf(c[n++].text, sizeof(c[0].text), "block starts: %lld blocks of %d threads, more than the SMs can "
			 "start in the time (rule T4): give each thread more elements (16-byte loads, a grid-stride "
			 "loop; the largest access at %.60s) so that fewer, fuller blocks do the work", blocks,
			 l->block[0] * l->block[1] * l->block[2], k->norder > 0 ? w : "none");
	}
	if (turns) {   /* rule A: the turns are most of the prediction */
		double runs, addrs;
		c[n].score = k->turns_ms / k->pred.time_ms;
		c[n].ins = k->turns_at;
		runs = tk_warp_runs(k->ins[k->turns_at].in, &addrs);
		gm_trace_where(k->ins[k->turns_at].in, 60, w, sizeof(w));
		snprintf(c[n++].text, sizeof(c[0].text), "atomics on %.1f addresses a warp (from the data) at %.60s: %.1f "
			 "lanes an address, each waiting at the L2 for the one before it, %.4f ms of turns (rule A, %.0f %% "
			 "of the predicted time): add each address's lanes in the warp first", addrs, w, runs, k->turns_ms,
			 100 * k->turns_ms / k->pred.time_ms);
	}
	if (k->pred_ok && k->pred.limited_by && !strcmp(k->pred.limited_by, "atomics")) {   /* rules X and C: the floor is the whole prediction */
		c[n].score = 1.0;
		c[n].ins = k->atomic_at;
		if (k->atomic_at >= 0)
			gm_trace_where(k->ins[k->atomic_at].in, 60, w, sizeof(w));
		snprintf(c[n++].text, sizeof(c[0].text), "atomics on one address or line at %.60s: its most updated "
			 "address or L2 slice takes %.4f ms, one update after another (rules X, C): add within the warp and "
			 "the block first (shuffles, shared memory) and send one atomic a block",
			 k->atomic_at >= 0 ? w : "?", k->pred.time_ms);
	}
	const char *lim = k->nf_model_ms > 0 ? k->nf_limited_by : k->pred.limited_by;   /* the model's, under rule NF */
	if (k->pred_ok && lim && !strcmp(lim, "latency")) {
		c[n].score = 0.4;
		if (narrow_lanes(k) > 0) {
			c[n].ins = narrow_where(k, w, sizeof(w));
			snprintf(c[n++].text, sizeof(c[0].text), "latency, coalesced but narrow: %d B a thread a load (the "
				 "largest at %.60s), too few bytes in flight for the bandwidth (the launch model's limit): "
				 "wider elements", narrow_lanes(k), w);
		} else
			snprintf(c[n++].text, sizeof(c[0].text), "latency: too few loads in flight for the bandwidth (the "
				 "launch model's limit)");
	}
	for (int q = 0, m = tk_named(k, prof, nm, 9); q < m; q++) {   /* what the SASS and the allocations name */
		for (int p = 0; p < n && nm[q].ins >= 0; p++)   /* named here, not twice as a pattern */
			c[p].score = c[p].ins == nm[q].ins ? fmin(c[p].score, 0.5 * nm[q].score) : c[p].score;
		if (nm[q].time && outside_at >= 0)   /* the time outside is this pattern's (the model does not see it) */
			c[outside_at].score = fmax(0, c[outside_at].score - nm[q].score);
		c[n].score = nm[q].score, c[n].ins = nm[q].ins;
		snprintf(c[n++].text, sizeof(c[0].text), "%s", nm[q].text);
	}
	qsort(c, (size_t)n, sizeof(c[0]), cmp_cand);
	snprintf(k->primary, sizeof(k->primary), "%s", n > 0 && c[0].score > 0.05 ? c[0].text :
		 "none found: the memory instructions are efficient and the time is not the memory's");
	snprintf(k->secondary, sizeof(k->secondary), "%s", n > 1 && c[1].score > 0.05 ? c[1].text : "none");
}

struct span {
	int64_t lo, hi;
	double bytes;
};

static int cmp_span(const void *a, const void *b)
{
	int64_t x = ((const struct span *)a)->lo, y = ((const struct span *)b)->lo;
	return x < y ? -1 : x > y;
}

/*
 * The compulsory DRAM bytes of the global loads (op 0) or stores (op 1), from what the trace measured: each
 * instruction's sampled address range (the samples spread over the grid), its loop's later iterations added by
 * the fitted step, at most its measured sectors x 32 (it touches no more); ranges that overlap are one array,
 * at most the length of their union. A lower bound of what DRAM moves (data left in L2 by an earlier launch
 * aside): every byte a launch touches is read or written once.
 */
static double footprint(const struct gm_trace_kernel *k, int stores)
{
	struct span *v = k->nins ? calloc((size_t)k->nins, sizeof(*v)) : NULL;
	int n = 0;
	double tot = 0;

	for (int i = 0; v && i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int64_t lo, hi;
		if (x->in->space != GM_TS_GLOBAL || (x->in->op != GM_TO_LOAD) != stores || !tk_range_of(x->in, &lo, &hi))
			continue;
		int seen = 0;
		for (int q = 0; q < x->in->nsamples; q++)
			seen = x->in->samples[q].iter > seen ? x->in->samples[q].iter : seen;
		if (x->fit.map.known && !x->fit.approx && !x->fit.map.niter_tab && x->fit.iters > seen + 1) {
			int64_t ext = (int64_t)(x->fit.iters - seen - 1) * x->fit.map.iter_step * x->in->size;
			lo += ext < 0 ? ext : 0, hi += ext > 0 ? ext : 0;
		}
		double s = x->in->sectors >= 0 ? x->in->sectors * 32.0 : x->bytes;
		v[n++] = (struct span){ lo, hi + x->in->size, fmin((double)(hi + x->in->size - lo), s) };
	}
	qsort(v, (size_t)n, sizeof(*v), cmp_span);
	for (int i = 0; i < n;) {
		int64_t lo = v[i].lo, hi = v[i].hi;
		double b = 0;
		for (; i < n && v[i].lo < hi; i++)
			hi = v[i].hi > hi ? v[i].hi : hi, b += v[i].bytes;
		tot += fmin(b, (double)(hi - lo));
	}
	free(v);
	return tot;
}

/*
 * Memory-bound (docs/TRACE.md, "Memory-bound"): the time the kernel's traffic needs at each level's measured
 * roof (the profile's), against the measured time. DRAM: its bytes counted when the trace has the counters,
 * else its compulsory bytes (footprint(), below: no model) at read_gbs and write_gbs. L2: what surely reaches
 * it, the stores' measured sectors at l2_write_gbs and the DRAM reads at l2_read_gbs. L1: the global sectors and
 * shared wavefronts measured, at l1_gbs times the share of the SMs a launch of fewer blocks than SMs uses. Each
 * is a lower bound of that level's busy time; the largest over the measured time is bound_share, and a kernel
 * whose busiest level is busy GM_TRACE_MEMORY_BOUND of its time or more is memory-bound.
 */
void tk_memory_bound(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	const struct gm_trace_launch *l = k->l;
	double rd = -1, wr = 0, st = 0, l1 = 0;
	double blocks = (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2];

	k->bound_dram_ms = k->bound_l2_ms = k->bound_l1_ms = k->bound_share = -1;
	k->bound_level = NULL;
	k->memory_bound = -1;
	if (!prof || !(prof->read_gbs > 0) || !(prof->l1_gbs > 0) || !(prof->l2_read_gbs > 0))
		return;
	if (k->dram_measured)
		rd = (double)l->dram_read_bytes, wr = (double)l->dram_write_bytes;
	else
		rd = footprint(k, 0), wr = footprint(k, 1);
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		l1 += x->bytes;
		st += x->in->space != GM_TS_SHARED && x->in->op != GM_TO_LOAD ? x->bytes : 0;
	}
	double sms = prof->sm_count > 0 && blocks > 0 && blocks < prof->sm_count ? blocks / prof->sm_count : 1;
	double wgbs = prof->write_gbs > 0 ? prof->write_gbs : prof->read_gbs;
	double l2w = prof->l2_write_gbs > 0 ? prof->l2_write_gbs : prof->l2_read_gbs;
	if (rd >= 0)
		k->bound_dram_ms = (rd / prof->read_gbs + wr / wgbs) * 1e-6;
	k->bound_l2_ms = ((rd > 0 ? rd : 0) / prof->l2_read_gbs + st / l2w) * 1e-6;
	k->bound_l1_ms = l1 / (prof->l1_gbs * sms) * 1e-6;
	double t = k->bound_dram_ms;
	k->bound_level = t >= 0 ? "DRAM" : NULL;
	if (k->bound_l2_ms > t)
		t = k->bound_l2_ms, k->bound_level = "L2";
	if (k->bound_l1_ms > t)
		t = k->bound_l1_ms, k->bound_level = "L1";
	if (k->time_ms > 0 && t >= 0) {
		k->bound_share = t / k->time_ms;
		k->memory_bound = k->bound_share >= GM_TRACE_MEMORY_BOUND;
	}
}
