/*
 * trace_fix_chain.c - rule search_chain (docs/TRACE.md, "Named patterns"): a binary search per thread, a chain of
 * dependent loads whose next address is the previous load's value's choice. Seen in the samples of one global
 * load in a loop (its warp executions D >= CH_DEPTH times the kernel's warps) that no map of the ids fits: every
 * sampled warp's first probe is the same address (the search's root, shared by the whole grid), and every lane's
 * second probe is the same distance h from it, up or down (half the range below the root); the loop's trip count
 * D is the halvings of that range, log2(4 h / size), within one. Each step waits for the one before it, so a warp
 * takes D load latencies (the profile's l2_latency_ns: the upper levels of the search are shared by the whole
 * grid and stay in L2) and the launch D x its waves of resident warps. Its fix, rule row_index: the row index
 * stored once beside each element (or a thread or a warp a row, each element's row known from the row's own loop):
 * the search load replaced by one coalesced load of its size at gid, priced by the launch model; the measured time
 * over it the speedup. Shaped on set 22's seg::scale<0> (development).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define CH_DEPTH 4   /* dependent steps a thread, at least */

/* the chain's instruction (-1: none), *depth its steps a thread, *range the elements its first probes halve */
static int search_load(const struct gm_trace_kernel *k, double *depth, double *range)
{
	double warps = ceil((double)k->threads / GM_WARP_SIZE);

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		double d = warps > 0 ? in->executions / warps : 0;
		int64_t root = 0, h = 0;
		int roots = 0, seconds = 0, ok = 1;
		if (in->space != GM_TS_GLOBAL || in->op != GM_TO_LOAD || k->ins[i].fit.map.known || d < CH_DEPTH ||
		    in->size <= 0 || in->nsamples < 2)
			continue;
		for (int s = 0; s < in->nsamples && ok; s++)   /* the roots: every lane of every warp's first probe */
			for (int q = 0; q < GM_WARP_SIZE && ok; q++)
				if (in->samples[s].iter == 0 && (in->samples[s].have >> q & 1)) {
					ok = !roots || in->samples[s].addr[q] == root;
					root = in->samples[s].addr[q], roots++;
				}
		for (int s = 0; s < in->nsamples && ok && roots; s++)   /* the second probes: root +- h */
			for (int q = 0; q < GM_WARP_SIZE && ok; q++)
				if (in->samples[s].iter == 1 && (in->samples[s].have >> q & 1)) {
					int64_t e = llabs(in->samples[s].addr[q] - root);
					ok = e > 0 && e % in->size == 0 && (!seconds || e == h);
					h = e, seconds++;
				}
		if (!ok || roots < 2 * GM_WARP_SIZE || seconds < 2 * GM_WARP_SIZE)
			continue;
		double r = 4.0 * (double)(h / in->size);
		if (fabs(log2(r) - d) > 1)
			continue;
		*depth = d, *range = r;
		return i;
	}
	return -1;
}

/* the ms the chain's steps take over the launch: D latencies a warp, the warps in waves of those an SM holds */
static double chain_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double depth)
{
	int tpb = k->l->block[0] * k->l->block[1] * k->l->block[2];
	double wpb = ceil(tpb / (double)GM_WARP_SIZE), res = k->occ.blocks > 0 ? k->occ.blocks * wpb : 0;
	double warps = ceil((double)k->threads / GM_WARP_SIZE);

	if (!prof || !(prof->l2_latency_ns > 0) || !(prof->sm_count > 0) || !(res > 0))
		return 0;
	return ceil(warps / (prof->sm_count * res)) * depth * prof->l2_latency_ns * 1e-6;
}

int tk_chain_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c)
{
	double d, r;
	int i = search_load(k, &d, &r);
	char w[96];

	if (i < 0)
		return 0;
	double t = chain_ms(k, prof, d);
	gm_trace_where(k->ins[i].in, 60, w, sizeof(w));
	c->score = k->time_ms > 0 && t > 0 ? fmin(1, t / k->time_ms) : 0.5;
	c->ins = i;
	c->time = 1;
	snprintf(c->text, sizeof(c->text), "a binary search at %.60s: %.0f dependent loads a thread (each address from "
		 "the one before's value, %.0f elements halved), %.4f ms of load latency: store each element's row index "
		 "once, or find it from the row's own loop", w, d, r, t);
	return 1;
}

/* The kernel with the search load i replaced by one coalesced load of its size at gid, once a warp (rule R2's trips
   of the fixed kernel, its start and drain, its issue floor): its predicted ms, 0 where the model gives none. */
static double fixed_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i)
{
	struct gm_launch_out o;
	char why[200];
	struct tk_swap sw = { .ins = i, .expr = "gid", .iters = 1 };
	struct gm_trace_kernel k2;
	struct gm_trace_insn *ins2;
	struct gm_trace_instr *in2;

	if (tf_kernel_copy(k, &k2, &ins2, &in2))
		return 0;
	in2[i].executions = ceil((double)k->threads / GM_WARP_SIZE);   /* the fixed kernel: the load once a warp */
	int bad = tk_predict(&k2, prof, TK_WITH_TRIPS, &sw, 1, &o, why, sizeof(why)) || !(o.time_ms > 0);
	if (!bad)
		tk_start_drain(prof, &o);   /* as in the kernel's own prediction (rule S2) */
	double t = bad ? 0 : fmax(o.time_ms, tk_floor_free_ms(&k2, prof, 1));
	free(ins2), free(in2);
	return t;
}

/* Rule SC: a search chain's loads are D dependent latencies a warp, not a stream of independent requests (the launch
   model's latency limit prices each warp's D loads as if in flight together, and their count at the stream's
   rate); the kernel's time is the rest of it (the fixed kernel's: the search load once a warp, coalesced) plus the
   chain's waves, one after the other in each warp (the element's own loads wait for its row). 1 where it applies. */
int tk_chain_time(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double d, r;
	int i = search_load(k, &d, &r);

	if (i < 0 || !prof || !k->pred_ok)
		return 0;
	double c = chain_ms(k, prof, d), f = c > 0 ? fixed_ms(k, prof, i) : 0;
	if (!(f > 0))
		return 0;
	tk_set_time(k, f + c);
	tk_why(k, "rule SC: %.0f dependent loads, %.4f ms", d, c);
	return 1;
}

int tf_search_chain(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double d, r;
	int i = search_load(k, &d, &r);

	if (i < 0 || !prof || !k->pred_ok || !(k->time_ms > 0))
		return -1;
	double t = fixed_ms(k, prof, i), s = t > 0 ? k->time_ms / t : 0;
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, i, 1, s);
	fx->share = fmin(1, chain_ms(k, prof, d) / k->time_ms);
	snprintf(fx->rewrite, sizeof(fx->rewrite), "row_index");
	snprintf(fx->change, sizeof(fx->change), "the %.0f-step search replaced by one coalesced %d-byte load of the "
		 "element's row index", d, k->ins[i].in->size);
	snprintf(fx->words, sizeof(fx->words), "each thread finds its element's row by a binary search (%.0f loads, each "
		 "waiting for the one before): store the row index once beside the values (COO), or give a thread or a "
		 "warp a row so that its loop knows the row (a merge path for rows of very different lengths)", d);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: lo = 0, hi = rows; while (hi - lo > 1) { mid = (lo + hi) / 2; "
		 "if (rowptr[mid] <= j) lo = mid; else hi = mid; }\n"
		 "int r = rowidx[j];   // the row index stored once (COO), one coalesced load\n"
		 "// or: for (int j = rowptr[r] + lane; j < rowptr[r + 1]; j += 32)   // a warp a row");
	return i;
}
