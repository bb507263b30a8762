/* curve.c - knees of measured curves and small helpers for derive(); see curve.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/curve.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(const double *y, int from, int to)
{
	double tmp[256];
	int n = to - from;

	if (n <= 0)
		return 0;
	if (n > 256)
		n = 256;
	memcpy(tmp, y + from, (size_t)n * sizeof(double));
	qsort(tmp, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* x where 1/y crosses t (interpolated in log x) between points a and a+1. */
static double crossing(const double *x, const double *y, int from, int to, double t)
{
	for (int i = from; i < to; i++) {
		double t0 = 1 / y[i], t1 = 1 / y[i + 1];
		if (t0 <= t && t1 >= t) {
			double f = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
			return exp(log(x[i]) + f * (log(x[i + 1]) - log(x[i])));
		}
	}
	return x[to];
}

int gm_curve_knees(const double *x, const double *y, int n, double frac, struct gm_knee *out, int max,
		   double *plateau0)
{
	int start = 0, k = 0;

	*plateau0 = n > 0 ? y[0] : 0;
	while (start < n && k < max) {
		int i = start + 1, j;
		double level = y[start];
		/* the plateau: points within frac of its running median */
		while (i < n && y[i] >= frac * level) {
			i++;
			level = median_of(y, start, i);
		}
		if (start == 0)
			*plateau0 = level;
		if (i >= n)
			break;
		/* the fall: keep going while each point is below frac of the one before */
		j = i;
		while (j + 1 < n && y[j + 1] < frac * y[j])
			j++;
		{
			int end = j + 1;
			double below = y[j];
			/* the lower plateau: within frac of its running median, as the upper one (a
			   gradual settling, 6.1 -> 5.1 -> 4.7 -> 4.66 TB/s past an H200's L2, ends on 4.66) */
			while (end < n && y[end] >= frac * below && y[end] <= below / frac) {
				end++;
				below = median_of(y, j, end);
			}
			out[k].above = level;
			out[k].below = below;
			out[k].n_above = i - start;
			out[k].n_below = end - j;
			out[k].x_last = x[i - 1];
			out[k].x_first = x[i];
			out[k].x = crossing(x, y, i - 1, j, 0.5 * (1 / level + 1 / below));
			k++;
		}
		start = j;
	}
	return k;
}

static double value_named(const struct gm_case_result *c, const char *name)
{
	for (int i = 0; i < c->nextras; i++)
		if (!strcmp(c->extras[i].name, name))
			return c->extras[i].median;
	for (int i = 0; i < c->nnotes; i++)
		if (!strcmp(c->notes[i].name, name))
			return c->notes[i].median;
	return 0;
}

void gm_curve_sort(double *x, double *y, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double tx = x[j], ty = y[j];
			x[j] = x[j - 1];
			y[j] = y[j - 1];
			x[j - 1] = tx;
			y[j - 1] = ty;
		}
}

double gm_run_clock_mhz(const struct gm_run_result *r, const char *family)
{
	double v[256];
	int n = 0;

	for (int pass = 0; pass < 2 && n == 0; pass++)
		for (int i = 0; i < r->ncases && n < 256; i++) {
			const struct gm_case_result *c = &r->cases[i];
			double mhz;
			if (c->status != GM_CASE_OK || (pass == 0 && family && strcmp(c->family, family)))
				continue;
			mhz = value_named(c, "sm_clock_mhz");
			if (mhz > 0)
				v[n++] = mhz;
		}
	return median_of(v, 0, n);
}

void gm_derive_add(struct gm_run_result *r, const char *family, const char *name, const char *level,
		   const char *quantity, enum gm_unit unit, double value, double reference,
		   const char *reference_what, const char *how)
{
	struct gm_derived *d = gm_result_derive(r, family, name);

	if (!d)
		return;
	snprintf(d->level, sizeof(d->level), "%s", level);
	snprintf(d->quantity, sizeof(d->quantity), "%s", quantity);
	d->unit = unit;
	d->value = value;
	d->reference = reference;
	snprintf(d->reference_what, sizeof(d->reference_what), "%s", reference_what ? reference_what : "");
	snprintf(d->how, sizeof(d->how), "%s", how);
}
