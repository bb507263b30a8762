/*
 * curve.h - plateaus and knees of a measured curve (bandwidth or inverse
 * latency against footprint), and the helpers the hierarchy, latency and
 * smem families' derive() share (src/analysis/curve.c). Pure C.
 */
#ifndef GPUMEM_CURVE_H
#define GPUMEM_CURVE_H

#include "gpumem/result.h"

#define GM_MAX_KNEES 4

/*
 * One step down of a curve y(x) (higher y is better): the plateau before it
 * (median of its points), the plateau after it, and where it happens.
 */
struct gm_knee {
	double x;            /* footprint where 1/y crosses the midpoint of the two plateaus' 1/y */
	double x_last;       /* last point still on the upper plateau */
	double x_first;      /* first point on or into the lower plateau */
	double above, below; /* plateau levels (median of their points) */
	int n_above, n_below; /* points on each plateau */
};

/*
 * Find the steps of a curve sampled at increasing x (n points). A step
 * starts where y falls below frac * (the current plateau); the lower
 * plateau starts at the first point after which y falls by less than that
 * again. Returns the number of knees written (at most max); *plateau0 gets
 * the first plateau's level. x must be increasing and positive.
 */
int gm_curve_knees(const double *x, const double *y, int n, double frac, struct gm_knee *out, int max,
		   double *plateau0);

/* Sort the points (x[i], y[i]) by increasing x, in place (n small). */
void gm_curve_sort(double *x, double *y, int n);

/*
 * The SM clock (MHz) a run measured: the median of every finished case's
 * "sm_clock_mhz" extra or note, preferring the family given (NULL = any).
 * 0 when none was measured.
 */
double gm_run_clock_mhz(const struct gm_run_result *r, const char *family);

/* Append a derived result with every field; ignored when the table is full. */
void gm_derive_add(struct gm_run_result *r, const char *family, const char *name, const char *level,
		   const char *quantity, enum gm_unit unit, double value, double reference,
		   const char *reference_what, const char *how);

#endif
