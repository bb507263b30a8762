/*
 * predict.c - gm_model_predict: validate, evaluate lanes, count, diagnose.
 */
#include <stdio.h>
#include <string.h>
#include "model/model_internal.h"

static gm_status parse_one(const char *text, struct gm_expr **e,
			   struct gm_expr_error *err)
{
	gm_status s = gm_expr_parse(text, e, err);

	if (s != GM_OK)
		err->text = text;
	return s;
}

static gm_status evaluate(const struct gm_access *a, struct gm_prediction *p,
			  struct gm_expr_error *err)
{
	struct gm_expr *index = NULL, *active = NULL;
	gm_status s;

	s = parse_one(a->index, &index, err);
	if (s == GM_OK && a->active)
		s = parse_one(a->active, &active, err);
	if (s == GM_OK)
		s = gm_lanes_fill(a, index, active, p, err);
	gm_expr_free(index);
	gm_expr_free(active);
	return s;
}

gm_status gm_model_predict(const struct gm_access *a, struct gm_prediction *p,
			   struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	gm_status s;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	err->lane = -1;
	if (!a || !p) {
		snprintf(err->msg, sizeof(err->msg), "no access or no prediction given");
		return GM_ERR_INVALID_ARG;
	}
	memset(p, 0, sizeof(*p));
	s = gm_access_check(a, err);
	if (s == GM_OK)
		s = evaluate(a, p, err);
	if (s != GM_OK)
		return s;
	if (a->space == GM_SPACE_GLOBAL)
		gm_global_counts_of(p->lanes, a->elem_bytes, &p->global);
	else
		gm_shared_counts_of(p->lanes, a->elem_bytes, a->op, &p->shared);
	gm_lanes_stride(p);
	gm_verdict(a, p);
	return GM_OK;
}
