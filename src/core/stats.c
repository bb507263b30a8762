/* stats.c - sample statistics: median, min, max, mean, stddev, CoV. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/result.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *v, int n)
{
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double gm_median_inplace(double *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return median_sorted(v, n);
}

gm_status gm_stats_compute(const double *x, int n, struct gm_stats *s)
{
	double *v, sum = 0, ss = 0;

	memset(s, 0, sizeof(*s));
	if (n <= 0 || !x)
		return GM_ERR_INVALID_ARG;
	v = malloc(sizeof(*v) * (size_t)n);
	if (!v)
		return GM_ERR_NOMEM;
	memcpy(v, x, sizeof(*v) * (size_t)n);
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	for (int i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	/* sample standard deviation (n - 1); 0 for a single sample */
	s->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
	s->min = v[0];
	s->max = v[n - 1];
	s->median = median_sorted(v, n);
	s->cov_pct = s->mean > 0 ? 100.0 * s->stddev / s->mean : 0.0;
	free(v);
	return GM_OK;
}
