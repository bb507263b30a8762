/* predict.c - the model's view of each case's declared access patterns. */
#include <stdio.h>
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/result.h"

static void predict_one(const struct gm_pattern *p, struct gm_pattern_prediction *pp,
			double *req, double *xfer)
{
	struct gm_access a = { 0 };
	struct gm_prediction pr;
	struct gm_expr_error err;

	snprintf(pp->what, sizeof(pp->what), "%s", p->what);
	snprintf(pp->space, sizeof(pp->space), "%s", p->space == GM_SPACE_SHARED ? "shared" : "global");
	snprintf(pp->op, sizeof(pp->op), "%s", p->op == GM_OP_STORE ? "store" : "load");
	snprintf(pp->index, sizeof(pp->index), "%s", p->index);
	pp->elem_bytes = p->elem_bytes;
	a.space = p->space;
	a.op = p->op;
	a.elem_bytes = p->elem_bytes;
	memcpy(a.block, p->block, sizeof(a.block));
	a.warp = p->warp;
	a.base = p->base;
	a.index = p->index;
	if (gm_model_predict(&a, &pr, &err) != GM_OK) {
		pp->per_request = -1;
		return;
	}
	if (p->space == GM_SPACE_GLOBAL) {
		pp->per_request = (double)pr.global.sectors / (pr.global.requests ? pr.global.requests : 1);
		pp->ideal = (double)((pr.global.bytes_requested + 31) / 32);
		pp->efficiency_pct = pr.global.efficiency_pct;
		*req += (double)pr.global.bytes_requested;
		*xfer += (double)pr.global.bytes_transferred;
	} else {
		pp->per_request = (double)pr.shared.wavefronts;
		pp->ideal = (double)pr.shared.ideal_wavefronts;
		pp->efficiency_pct = pr.shared.wavefronts ? 100.0 * pr.shared.ideal_wavefronts /
							     pr.shared.wavefronts : 0;
	}
}

void gm_predict_case(const struct gm_case *c, struct gm_case_result *cr)
{
	double req = 0, xfer = 0;

	cr->npred = c->npatterns;
	for (int i = 0; i < c->npatterns; i++)
		predict_one(&c->patterns[i], &cr->pred[i], &req, &xfer);
	cr->pred_efficiency_pct = xfer > 0 ? 100.0 * req / xfer : 0;
	if (c->kind == GM_KIND_SMEM && c->npatterns > 0) {
		cr->pred_efficiency_pct = cr->pred[0].efficiency_pct;
		/* against the conflict-free access of the same width */
		if (cr->pred[0].ideal > 0)
			cr->pred_slowdown = cr->pred[0].per_request / cr->pred[0].ideal;
	}
}
