/*
 * compare.h - two runs case by case (`gpumem compare A.json B.json`).
 *
 * For each case in both runs: both medians, the ratio B/A, the change in the
 * direction the case's unit calls better (gm_unit_higher_is_better), and
 * whether the difference exceeds the measured spread (max - min) of both
 * runs. A case regresses when it got worse by more than the threshold AND
 * by more than both runs' spread, or when it was ok in A and is not in B.
 * Pure C, no printing of its own: the writers take the FILE.
 */
#ifndef GPUMEM_COMPARE_H
#define GPUMEM_COMPARE_H

#include <stdio.h>
#include "gpumem/result.h"

enum gm_verdict {
	GM_SAME = 0,          /* within threshold or within the noise */
	GM_BETTER,            /* better beyond threshold and noise */
	GM_WORSE,             /* a regression */
	GM_BROKEN,            /* ok in A, failed / error / skipped in B: a regression */
	GM_FIXED,             /* not ok in A, ok in B */
	GM_NOT_COMPARED,      /* neither run has a number */
	GM_ONLY_A,            /* the case is only in A */
	GM_ONLY_B,            /* the case is only in B */
};

struct gm_compare_row {
	char name[64];
	enum gm_unit unit;
	int unit_differs;     /* B reports it in another unit: not compared */
	double a, b;          /* medians */
	double spread_a, spread_b; /* max - min of each run */
	double ratio;         /* b / a (0 when a is 0) */
	double worse_pct;     /* > 0: B is worse by that many % of A; < 0: better */
	int beyond_noise;     /* |b - a| > spread_a and > spread_b */
	enum gm_verdict verdict;
};

struct gm_comparison {
	double threshold_pct;
	struct gm_compare_row *rows;  /* A's order, then the cases only in B */
	int nrows;
	int nworse, nbetter, nonly_a, nonly_b;
	int different_device, different_schema;
};

/* Fills out (owned; release it). GM_ERR_NOMEM or GM_ERR_INVALID_ARG (threshold < 0). */
gm_status gm_compare_runs(const struct gm_run_result *a, const struct gm_run_result *b, double threshold_pct,
			  struct gm_comparison *out);
void gm_comparison_release(struct gm_comparison *c);
const char *gm_verdict_name(enum gm_verdict v);   /* "same", "better", "WORSE", ... */

/* Aligned table; color = 1 marks regressions red and improvements green (ANSI). */
void gm_compare_write_text(FILE *f, const struct gm_comparison *c, const struct gm_run_result *a,
			   const struct gm_run_result *b, int color);
gm_status gm_compare_write_json(FILE *f, const struct gm_comparison *c, const struct gm_run_result *a,
				const struct gm_run_result *b, const char *path_a, const char *path_b);

/*
 * Runs that hold different cases (one run file per family, say) are parts of
 * one run: 1 when no case name is in two of them. gm_runs_merge moves the
 * cases and derived results of from[0..n-1] into into (from are left empty).
 */
int gm_runs_disjoint(const struct gm_run_result *runs, int n);
gm_status gm_runs_merge(struct gm_run_result *into, struct gm_run_result *from, int n);

#endif
