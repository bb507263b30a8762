/*
 * trace_predict.c - the launch model over a traced kernel's fitted patterns (docs/TRACE.md, "The kernel's
 * prediction"): each instruction one pattern with its loop, rule M's folds, rule A's loads left out, the
 * replacements of a fix; and the kernel with v elements a thread (the widening fixes).
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/parallel.h"
#include "analysis/trace_internal.h"

#define MAX_PATS 256
#define LG_LEN 64

static int model_size(int b)
{
	return b == 1 || b == 2 || b == 4 || b == 8 || b == 16;
}

/* One instruction's pattern for the launch model: its fitted 1D expression and loop, or the replacement;
   it2 / step2: the pieces or re-reads of the same bytes folded into it (below); lg: room for rule LG's stand-in
   (trace_time_lines.c: a gather's lanes as many lines apart as its sampled requests touch). */
static void pattern_of(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, const struct tk_swap *sw,
		       int it2, int64_t step2, int it1, int64_t step1, struct gm_access *a, struct gm_repeat *r, char *lg)
{
	const char *g = sw ? NULL : tk_gather_lines(x, lg, LG_LEN);

	memset(a, 0, sizeof(*a));
	a->space = x->in->space == GM_TS_SHARED ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	a->op = x->in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE;
	int vec = sw && sw->vec > 1 ? sw->vec : 1;   /* a widened fix: vectors of vec elements */
	a->elem_bytes = x->in->size * vec;
	memcpy(a->block, k->l->block, sizeof(a->block));
	a->index = sw ? sw->expr : g ? g : x->fit.expr1d;
	a->n_threads = sw && sw->threads > 0 ? sw->threads : k->threads;
	*r = (struct gm_repeat){ sw ? sw->iters : x->fit.iters, (sw ? sw->step : x->fit.map.iter_step) * a->elem_bytes,
				 it2 > 1 ? it2 : 1, it2 > 1 ? step2 : 0 };
	if (!sw && it1 > 0)   /* a flattened walk (rule M): its loop in one direction */
		r->iters = it1, r->step_bytes = step1;
}

int tk_predict(const struct gm_trace_kernel *k, const struct gm_profile *prof, int only, const struct tk_swap *sw,
	       int nsw, struct gm_launch_out *out, char *why, size_t n)
{
	struct gm_access pats[MAX_PATS];
	struct gm_repeat rep[MAX_PATS];
	static char lg[MAX_PATS][LG_LEN];
	struct gm_launch_in li;
	struct gm_expr_error err;
	int np = 0, left = 0, all_once = 1;
	static int it2[GM_TRACE_MAX_INSNS + 1], it1[GM_TRACE_MAX_INSNS + 1];
	static struct tk_run runs[TK_MAX_RUNS];
	int nruns = 0;
	static int64_t step2[GM_TRACE_MAX_INSNS + 1], step1[GM_TRACE_MAX_INSNS + 1];

	memset(&li, 0, sizeof(li));
	memset(it1, 0, sizeof(it1));
	if (only < 0 && k->nins <= GM_TRACE_MAX_INSNS) {
		tk_fold(k, sw, nsw, it2, step2);
		tk_fold_readings(k, sw, nsw, it2, step2, it1, step1);
		tk_fold_gathers(k, sw, nsw, it2, step2);   /* rule G */
	} else
		memset(it2, 0, sizeof(it2));
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if ((only >= 0 && i != only) || (i < GM_TRACE_MAX_INSNS && it2[i] < 0))
			continue;
		const struct tk_swap *w = tk_swap_of(sw, nsw, i);
		if (!x->fit.expr1d[0] || !model_size(x->in->size * (w && w->vec > 1 ? w->vec : 1)) || np == MAX_PATS) {
			left++;
			continue;
		}
		if (w && !w->expr)
			continue;   /* left out on purpose: the kernel without this instruction */
		if (only < 0 && !w && tk_in_l1(k, prof, x))
			continue;   /* rule A: every block reads it from its SM's L1 */
		if (!w && tk_local_in_l1(k, prof, x))
			continue;   /* rule LA: the thread's own stack, held in its SM's L1 */
		if (only < 0 && !w && x->sector_hit)
			continue;   /* rule H: other loads of its warps read its sectors */
		int in_tab = i < GM_TRACE_MAX_INSNS;
		pattern_of(k, x, w, in_tab ? it2[i] : 0, in_tab ? step2[i] : 0, in_tab ? it1[i] : 0, in_tab ? step1[i] : 0,
			   &pats[np], &rep[np], lg[np]);
		all_once &= rep[np].iters <= 1;
		np++;
	}
	if (!np) {
		snprintf(why, n, "no instruction has a fitted pattern the model can take");
		return -1;
	}
	li.pats = pats;
	li.npats = np;
	li.repeat = rep;
	memcpy(li.block, k->l->block, sizeof(li.block));
	li.n_threads = k->threads;
	for (int q = 0; q < nsw; q++)   /* a fix that changes the launch's threads (warp_rows) */
		li.n_threads = sw[q].threads > 0 ? sw[q].threads : li.n_threads;
	li.one_element_per_thread = all_once;
	li.round_trips = only < 0 && nsw == 0 && k->trips > 0 ? k->trips : 0;
	if (only == TK_WITH_TRIPS) {   /* the replacements' own trips (rule R2): a fix that keeps the loop keeps them */
		nruns = 0;
		li.round_trips = tk_round_trips(k, prof, sw, nsw, runs, &nruns);
	}
	li.blocks_per_sm_cap = k->occ_cap;   /* rule OC */
	li.threads = gm_cores();   /* the windows on every core; the result does not depend on it */
	if (gm_launch_predict(&li, prof, out, &err) != GM_OK) {
		snprintf(why, n, "the launch model cannot evaluate it: %.150s", err.msg);
		return -1;
	}
	tk_smem_as_measured(prof, k->smem_scale, out);   /* rule V */
	if (k->warp_private)
		tk_no_barrier(prof, out);   /* rule P */
	if (li.n_threads == k->threads)
		tk_sms_in_use(k, prof, out);
	if (only == TK_WITH_TRIPS)
		tk_row_hits(k, prof, runs, nruns, out);   /* rule R3 */
	int approx = 0;
	for (int i = 0; i < k->nins; i++)
		approx += (only < 0 || i == only) && k->ins[i].fit.approx;
	if (left || approx)
		snprintf(why, n, "%d instruction%s without a pattern left out; %d gather%s as lanes k apart in its "
			 "sampled footprint", left, left == 1 ? "" : "s", approx, approx == 1 ? "" : "s");
	else if (n)
		why[0] = '\0';
	return 0;
}

/*
 * The kernel with every thread taking v consecutive elements of each access as one 16-byte element (trace_fix.c's
 * rules wide_blocks and widen; a layout rewrite's copy): v times fewer threads in blocks of the same size, the
 * instructions of sw[] at their replacement's index. For accesses without a loop; -1 when the model cannot take
 * it or the launch would not fill the SMs.
 */
int tk_predict_wide(const struct gm_trace_kernel *k, const struct gm_profile *prof, int v, const struct tk_swap *sw,
		    int nsw, struct gm_launch_out *out)
{
	struct gm_access pats[MAX_PATS];
	struct gm_repeat rep[MAX_PATS];
	struct gm_launch_in li;
	struct gm_expr_error err;
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2] / v;
	int np = 0;
	static char lg[MAX_PATS][LG_LEN];
	static int it2[GM_TRACE_MAX_INSNS];
	static int64_t step2[GM_TRACE_MAX_INSNS];

	if (v < 2 || k->threads % v || k->nins > MAX_PATS || !prof || blocks < prof->sm_count)
		return -1;
	memset(&li, 0, sizeof(li));
	tk_fold(k, sw, nsw, it2, step2);   /* rule M: a record's pieces, v times as far apart */
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		const struct tk_swap *w = tk_swap_of(sw, nsw, i);
		if (w && !w->expr)
			continue;   /* left out (a broadcast scalar) */
		if (!x->fit.expr1d[0] || !model_size(x->in->size * v))
			return -1;
		if (it2[i] < 0)
			continue;
		if (x->fit.iters > 1)
			return -1;
		pattern_of(k, x, w, it2[i], step2[i] * v, 0, 0, &pats[np], &rep[np], lg[np]);
		pats[np].elem_bytes = x->in->size * v;
		pats[np].n_threads = k->threads / v;
		np++;
	}
	li.pats = pats;
	li.npats = np;
	li.repeat = rep;
	memcpy(li.block, k->l->block, sizeof(li.block));
	li.n_threads = k->threads / v;
	li.one_element_per_thread = 1;
	li.blocks_per_sm_cap = k->occ_cap;   /* rule OC */
	li.threads = gm_cores();
	return gm_launch_predict(&li, prof, out, &err) == GM_OK ? 0 : -1;
}
