/*
 * trace_report.c - `gpumem trace`'s analysis driver: each launch of a trace document as a kernel
 * (trace_kernel.c), then its fixes (trace_fix.c) and the waste its values show (trace_values.c), then the run's waste between launches (trace_run.c), into one
 * report (include/gpumem/trace.h).
 */
#include <stdlib.h>
#include <string.h>
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

gm_status gm_trace_analyse(const struct gm_trace *t, const struct gm_profile *prof, int top,
			   struct gm_trace_report *r)
{
	memset(r, 0, sizeof(*r));
	r->t = t;
	r->prof = prof;
	r->top = top > 0 ? top : 3;
	r->k = t->nlaunches ? calloc((size_t)t->nlaunches, sizeof(*r->k)) : NULL;
	if (t->nlaunches && !r->k)
		return gm_fail(GM_ERR_NOMEM, "out of memory analysing the trace");
	for (int i = 0; i < t->nlaunches; i++, r->nk++) {
		gm_status st = gm_trace_kernel_analyse(&t->launches[i], prof, &r->k[i]);
		if (st)
			return st;
		gm_trace_fixes(&r->k[i], prof, r->top);
		st = gm_trace_values(&r->k[i], prof);
		if (st)
			return st;
	}
	tr_run(r);   /* waste between launches (trace_run.c) */
	return GM_OK;
}

void gm_trace_report_free(struct gm_trace_report *r)
{
	for (int i = 0; i < r->nk; i++) {
		free(r->k[i].ins);
		free(r->k[i].vf);
	}
	free(r->k);
	memset(r, 0, sizeof(*r));
}
