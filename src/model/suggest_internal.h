/*
 * suggest_internal.h - what `explain --suggest`'s files share, in the one direction they depend:
 * suggest.c (the driver) -> suggest_rules.c (the rule table) -> index_map.c. Not installed.
 */
#ifndef GPUMEM_SUGGEST_INTERNAL_H
#define GPUMEM_SUGGEST_INTERNAL_H

#include "gpumem/suggest.h"

/* index_map.c: EXPR for thread g of the original 1D launch; 0 or -1 when it cannot be evaluated. */
int sg_eval(const struct gm_expr *e, const struct gm_access *a, int64_t n, int64_t g, int64_t *out);
/* suggest_rules.c: append a pattern to r (index printf-style; repeated iters times, step_bytes apart). */
int sg_pat(struct gm_rewrite *r, enum gm_space sp, enum gm_op op, int eb, int iters, int64_t step_bytes,
	   const char *fmt, ...);
/* Rule k fills r: name, change, applies or why_not, patterns, block, threads, kernel. */
void sg_rule_build(int k, const struct gm_suggest *s, struct gm_rewrite *r);

#endif
