/*
 * trace_run_util.c - the pieces the run-level rules share (trace_run.h; docs/TRACE.md, "The run"): which accesses
 * they compare, the buffers by sampled byte range, the words' places, a launch priced without some instructions.
 * A leaf: it calls the launch model (tk_predict) and the kernels' pricing (tf_kernel_speedup), no rule.
 */
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

double tr_merged_ms(const struct gm_trace_kernel *a, const int *da, int na, const struct gm_trace_kernel *b,
		    const int *db, int nb, const struct gm_profile *prof)
{
	struct gm_trace_kernel m;
	double ta, tb, tm = -1;

	if (memcmp(a->l->grid, b->l->grid, sizeof(a->l->grid)) || memcmp(a->l->block, b->l->block, sizeof(a->l->block)) ||
	    !a->pred_ok || !b->pred_ok || !(a->time_ms > 0) || !(b->time_ms > 0) || a->nins + b->nins > GM_TRACE_MAX_INSNS)
		return 0;
	ta = model_ms(a, prof), tb = model_ms(b, prof);
	m = *a;
	m.ins = malloc((size_t)(a->nins + b->nins) * sizeof(*m.ins));
	if (!m.ins || !(ta > 0) || !(tb > 0)) {
		free(m.ins);
		return 0;
	}
	m.nins = 0;
	for (int i = 0; i < a->nins; i++)
		if (!dropped_from(da, na, i))
			m.ins[m.nins++] = a->ins[i];
	for (int i = 0; i < b->nins; i++)
		if (!dropped_from(db, nb, i))
			m.ins[m.nins++] = b->ins[i];
	m.trips = a->trips > b->trips ? a->trips : b->trips;   /* rule R2: the longer chain of the two */
	m.occ_cap = !a->occ_cap || (b->occ_cap && b->occ_cap < a->occ_cap) ? b->occ_cap : a->occ_cap;   /* rule OC */
	if (m.nins)
		tm = model_ms(&m, prof);
	free(m.ins);
	return tm > 0 ? tm * (a->time_ms + b->time_ms) / (ta + tb) : 0;
}
