/*
 * model_internal.h - the pieces gm_model_predict is built from (private).
 */
#ifndef GPUMEM_MODEL_INTERNAL_H
#define GPUMEM_MODEL_INTERNAL_H

#include "gpumem/model.h"

/* lanes.c: validate the launch shape; evaluate every lane's address. */
gm_status gm_access_check(const struct gm_access *a, struct gm_expr_error *err);
gm_status gm_lanes_fill(const struct gm_access *a, const struct gm_expr *index,
			const struct gm_expr *active, struct gm_prediction *p,
			struct gm_expr_error *err);
/* Set p->stride_known / p->stride_bytes from the active lanes. */
void gm_lanes_stride(struct gm_prediction *p);
/* `from` (filled for a) moved by off bytes into `to`: 0 where an address would leave 0..INT64_MAX or misalign. */
int gm_lanes_shift(const struct gm_access *a, const struct gm_prediction *from, int64_t off,
		   struct gm_prediction *to);

/* verdict.c: the one-line diagnosis, from counts already filled in. */
void gm_verdict(const struct gm_access *a, struct gm_prediction *p);

/* Add x to a small set kept in an array; returns 1 when it was new. */
static inline int gm_set_add(int64_t *set, int *n, int64_t x)
{
	int k;

	for (k = 0; k < *n; k++)
		if (set[k] == x)
			return 0;
	set[(*n)++] = x;
	return 1;
}

#endif
