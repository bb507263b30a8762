/*
 * trace_run_util.c - the pieces the run-level rules share (trace_run.h; docs/TRACE.md, "The run"): which accesses
 * they compare, the buffers by sampled byte range, the words' places, a launch priced without some instructions.
 * A leaf: it calls the launch model (tk_predict) and the kernels' pricing (tf_kernel_speedup), no rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_run.h"

int tr_plain(const struct gm_trace_insn *x, enum gm_trace_op op)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == op && x->fit.map.known && !x->fit.approx &&
	       x->fit.expr1d[0] && !x->fit.map.niter_tab && x->fit.iters <= 1 && !x->fit.edge &&
	       x->in->thread_accesses > 0;
}

int tr_walk(const struct gm_trace_insn *x, enum gm_trace_op op)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == op && x->fit.map.known && !x->fit.approx &&
	       x->fit.expr1d[0] && !x->fit.map.niter_tab && !x->fit.edge && x->in->thread_accesses > 0;
}

int tr_same_elems(const struct gm_trace_insn *x, const struct gm_trace_insn *y)
{
	return tr_first_byte(x) == tr_first_byte(y) && !strcmp(x->fit.expr1d, y->fit.expr1d) &&
	       x->in->size == y->in->size &&
	       fabs(x->in->thread_accesses - y->in->thread_accesses) <= 1e-9 * x->in->thread_accesses;
}

int tr_same_shape(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b)
{
	return !memcmp(a->l->grid, b->l->grid, sizeof(a->l->grid)) &&
	       !memcmp(a->l->block, b->l->block, sizeof(a->l->block));
}

int tr_dead_after(const struct gm_trace_report *r, int ib, int64_t lo, int64_t hi)
{
	for (int j = ib + 1; j < r->nk; j++) {
		const struct gm_trace_kernel *k = &r->k[j];
		int64_t x, y;
		if (tr_touches(k, GM_TO_LOAD, lo, hi, -1) || tr_touches(k, GM_TO_ATOMIC, lo, hi, -1) ||
		    tr_touches(k, GM_TO_REDUCTION, lo, hi, -1))
			return 0;
		for (int i = 0; i < k->nins; i++)
			if (tr_range(&k->ins[i], GM_TO_STORE, &x, &y) && x <= lo && y >= hi)
				return 1;   /* stored over again first */
	}
	return 1;
}

int tr_repeats(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b, int ld, int st)
{
	for (int i = 0; i < b->nins; i++) {
		int hit = i == ld || i == st || b->ins[i].in->space != GM_TS_GLOBAL;
		for (int j = 0; !hit && j < a->nins; j++)
			hit = a->ins[j].in->op == b->ins[i].in->op && tr_same_elems(&a->ins[j], &b->ins[i]);
		if (!hit)
			return 0;
	}
	return 1;
}

int64_t tr_first_byte(const struct gm_trace_insn *x)
{
	return x->fit.map.base + x->fit.map.offset * x->fit.map.elem_bytes;
}

int tr_range(const struct gm_trace_insn *x, enum gm_trace_op op, int64_t *lo, int64_t *hi)
{
	if (x->in->space != GM_TS_GLOBAL || x->in->op != op || !tk_range_of(x->in, lo, hi))
		return 0;
	*hi += x->in->size;
	return 1;
}

int64_t tr_overlap(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi)
{
	int64_t lo = alo > blo ? alo : blo, hi = ahi < bhi ? ahi : bhi;

	return hi > lo ? hi - lo : 0;
}

int tr_touches(const struct gm_trace_kernel *k, enum gm_trace_op op, int64_t lo, int64_t hi, int skip)
{
	int64_t a, b;

	for (int i = 0; i < k->nins; i++)
		if (i != skip && tr_range(&k->ins[i], op, &a, &b) && tr_overlap(a, b, lo, hi) > 0)
			return 1;
	return 0;
}

void tr_where(const struct gm_trace_insn *x, char *buf, size_t n)
{
	gm_trace_where(x->in, 40, buf, n);
}

const char *tr_name(const struct gm_trace_kernel *k)
{
	return k->l->name ? k->l->name : k->l->kernel;
}

double tr_saving_without(const struct gm_trace_kernel *k, const struct gm_profile *prof, const int *drop, int n)
{
	struct tk_swap sw[GM_TRACE_MAX_INSNS];
	struct gm_launch_out o;
	char why[200];
	int nsw = 0;

	for (int i = 0; i < n && nsw < GM_TRACE_MAX_INSNS; i++)
		sw[nsw++] = (struct tk_swap){ .ins = drop[i] };
	if (!k->pred_ok || !(k->time_ms > 0) || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)) ||
	    !(o.time_ms > 0))
		return 0;
	return k->time_ms - k->time_ms / tf_kernel_speedup(k, prof, o.time_ms, 1, 1);
}

/* the launch model's time of k as it is (its fitted patterns, its round trips), -1 where it cannot */
static double model_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct gm_launch_out o;
	char why[200];

	return tk_predict(k, prof, -1, NULL, 0, &o, why, sizeof(why)) || !(o.time_ms > 0) ? -1 : o.time_ms;
}

static int dropped_from(const int *drop, int n, int i)
{
	for (int q = 0; q < n; q++)
		if (drop[q] == i)
			return 1;
	return 0;
}

/* rule R2's round trips of k without its instructions drop[0 .. nd-1]: a dropped store no longer ends the run of
   loads before it (the loads after it issue with them), a dropped load waits for nothing; k's own without drops */
static int trips_without(const struct gm_trace_kernel *k, const struct gm_profile *prof, const int *drop, int nd)
{
	static struct tk_swap sw[GM_TRACE_MAX_INSNS];
	static struct tk_run runs[TK_MAX_RUNS];
	int nruns = 0, n = 0;

	if (!drop || nd <= 0)
		return k->trips;
	for (int q = 0; q < nd && n < GM_TRACE_MAX_INSNS; q++)
		sw[n++] = (struct tk_swap){ .ins = drop[q] };
	return tk_round_trips(k, prof, sw, n, runs, &nruns);
}

double tr_merged_n(const struct gm_trace_kernel *const *ks, const int *const *drop, const int *nd, int n,
		   const struct gm_profile *prof)
{
	struct gm_trace_kernel m;
	double meas = 0, model = 0, tm = -1;
	int tot = 0;

	for (int j = 0; j < n; j++) {
		const struct gm_trace_kernel *k = ks[j];
		double t;
		if (memcmp(ks[0]->l->grid, k->l->grid, sizeof(k->l->grid)) ||
		    memcmp(ks[0]->l->block, k->l->block, sizeof(k->l->block)) || !k->pred_ok || !(k->time_ms > 0) ||
		    !((t = model_ms(k, prof)) > 0))
			return 0;
		meas += k->time_ms, model += t, tot += k->nins;
	}
	if (n < 1 || tot > GM_TRACE_MAX_INSNS)
		return 0;
	m = *ks[0];
	m.ins = malloc((size_t)tot * sizeof(*m.ins));
	if (!m.ins)
		return 0;
	m.nins = 0, m.trips = 0, m.occ_cap = 0;
	for (int j = 0; j < n; j++) {
		const struct gm_trace_kernel *k = ks[j];
		for (int i = 0; i < k->nins; i++)
			if (!dropped_from(drop ? drop[j] : NULL, drop ? nd[j] : 0, i))
				m.ins[m.nins++] = k->ins[i];
		int trips = trips_without(k, prof, drop ? drop[j] : NULL, drop ? nd[j] : 0);
		m.trips = trips > m.trips ? trips : m.trips;   /* rule R2: the longest chain of them, each without its
								  dropped stores and loads */
		if (k->occ_cap && (!m.occ_cap || k->occ_cap < m.occ_cap))
			m.occ_cap = k->occ_cap;   /* rule OC: the smallest cap */
	}
	if (m.nins)
		tm = model_ms(&m, prof);
	free(m.ins);
	return tm > 0 ? tm * meas / model : 0;
}

double tr_merged_ms(const struct gm_trace_kernel *a, const int *da, int na, const struct gm_trace_kernel *b,
		    const int *db, int nb, const struct gm_profile *prof)
{
	const struct gm_trace_kernel *ks[2] = { a, b };
	const int *drop[2] = { da, db };
	int nd[2] = { na, nb };

	return tr_merged_n(ks, drop, nd, 2, prof);
}
