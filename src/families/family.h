/*
 * family.h - helpers the fam_<name>.c case tables share, and the family
 * objects the registry lists.
 */
#ifndef GPUMEM_BENCH_FAMILY_H
#define GPUMEM_BENCH_FAMILY_H

#include "gpumem/bench.h"

#define GM_FAMILY(name) extern const struct gm_family gm_family_##name;
#include "families/families.def"
#undef GM_FAMILY

/*
 * Start case *c of family f: name "<family>.<label>" (label printf-style),
 * version, description. Returns c for chaining.
 */
struct gm_case *gm_case_begin(struct gm_case *c, const struct gm_family *f, int version,
			      enum gm_case_kind kind, int quick, const char *desc,
			      const char *label_fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 7, 8)))
#endif
	;

/*
 * Make *c a measured case (GM_KIND_MEASURE) reporting in unit, timed by
 * timing. Returns c.
 */
struct gm_case *gm_case_measure(struct gm_case *c, enum gm_unit unit, enum gm_timing timing);

/* Declare extra value i (SELF cases: values[i + 1] of each sample). */
void gm_case_extra_add(struct gm_case *c, const char *name, enum gm_unit unit);

/* Append a parameter (key must be a static string). */
void gm_case_param_add(struct gm_case *c, const char *key, int64_t value);

/* Append a declared access pattern; index printf-style. */
void gm_case_pattern_add(struct gm_case *c, const char *what, enum gm_space space,
			 enum gm_op op, int elem_bytes, int bx, int by, int64_t base,
			 const char *index_fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;

/*
 * The pattern just added is repeated by each thread iters times (an unrolled
 * loop), the index advancing by step elements each time; the launch model
 * evaluates every iteration (docs/MODEL.md 7), the warp model the first.
 */
void gm_case_pattern_repeat(struct gm_case *c, int iters, int64_t step);
/* The same with an inner loop of iters2 iterations, step2 elements apart. */
void gm_case_pattern_repeat2(struct gm_case *c, int iters, int64_t step, int iters2, int64_t step2);

/*
 * Enumeration helper: families write cases through this so that max == 0
 * counts only. Returns the case to fill, or a scratch case past max.
 */
struct gm_case *gm_case_slot(struct gm_case *out, int max, int i, struct gm_case *scratch);

#endif
