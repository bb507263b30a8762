/*
 * trace_lsq.c - the least squares of the trace fit (trace_fit.c): modified
 * Gram-Schmidt on centred columns, columns the samples do not determine
 * found and filled (a bit continues the bit below it), the coefficients
 * rounded to integers and kept only when they reproduce every row exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"


int tf_ls_alloc(struct tf_ls *L, int n, int nf)
{
	memset(L, 0, sizeof(*L));
	L->n = n, L->nf = nf;
	L->x = calloc((size_t)n * (nf ? nf : 1), sizeof(double));
	L->q = calloc((size_t)n * (nf ? nf : 1), sizeof(double));
	L->y = calloc((size_t)n, sizeof(double));
	L->r = calloc((size_t)(nf ? nf : 1) * (nf ? nf : 1), sizeof(double));
	L->dep = calloc((size_t)(nf ? nf : 1), sizeof(int));
	L->prev = calloc((size_t)(nf ? nf : 1), sizeof(int));
	L->mean = calloc((size_t)(nf ? nf : 1), sizeof(double));
	return L->x && L->q && L->y && L->r && L->dep && L->prev && L->mean ? 0 : -1;
}

void tf_ls_free(struct tf_ls *L)
{
	free(L->x), free(L->q), free(L->y), free(L->r), free(L->dep), free(L->prev), free(L->mean);
}

static double dot(const double *a, const double *b, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

static void ls_factor(struct tf_ls *L)
{
	int n = L->n;

	for (int j = 0; j < L->nf; j++) {
		const double *xj = L->x + (size_t)j * n;
		double *c = L->q + (size_t)j * n, m = 0, n0, n1;
		for (int i = 0; i < n; i++)
			m += xj[i];
		L->mean[j] = m /= n;
		for (int i = 0; i < n; i++)
			c[i] = xj[i] - m;
		n0 = sqrt(dot(c, c, n));
		for (int k = 0; k < j; k++) {
			if (L->dep[k])
				continue;
			double *qk = L->q + (size_t)k * n, rk = dot(qk, c, n);
			L->r[k * L->nf + j] = rk;
			for (int i = 0; i < n; i++)
				c[i] -= rk * qk[i];
		}
		n1 = sqrt(dot(c, c, n));
		if (n0 == 0 || n1 <= 1e-7 * n0) {
			L->dep[j] = 1;
			continue;
		}
		L->r[j * L->nf + j] = n1;
		for (int i = 0; i < n; i++)
			c[i] /= n1;
	}
}

/* Coefficients for y (the open columns keep c[j] as given), the constant into *c0. */
static void ls_solve(const struct tf_ls *L, double *c, double *c0)
{
	int n = L->n, nf = L->nf;
	double *y = malloc(sizeof(double) * (size_t)n), *z = calloc((size_t)(nf ? nf : 1), sizeof(double)), my = 0;

	if (!y || !z) {
		free(y), free(z);
		return;
	}
	for (int i = 0; i < n; i++) {
		y[i] = L->y[i];
		for (int j = 0; j < nf; j++)
			if (L->dep[j] && c[j] != 0)
				y[i] -= c[j] * L->x[(size_t)j * n + i];
		my += y[i];
	}
	my /= n;
	for (int i = 0; i < n; i++)
		y[i] -= my;
	for (int j = 0; j < nf; j++) {
		if (L->dep[j])
			continue;
		const double *qj = L->q + (size_t)j * n;
		z[j] = dot(qj, y, n);
		for (int i = 0; i < n; i++)
			y[i] -= z[j] * qj[i];
	}
	for (int j = nf - 1; j >= 0; j--) {
		if (L->dep[j])
			continue;
		double v = z[j];
		for (int k = j + 1; k < nf; k++)
			if (!L->dep[k])
				v -= L->r[j * nf + k] * c[k];
		c[j] = v / L->r[j * nf + j];
	}
	*c0 = my;
	for (int j = 0; j < nf; j++)
		*c0 -= c[j] * L->mean[j];
	free(y), free(z);
}

/* Every row reproduced by the rounded coefficients. */
static int ls_exact(const struct tf_ls *L, const int64_t *ci, int64_t c0)
{
	for (int i = 0; i < L->n; i++) {
		double v = (double)c0;
		for (int j = 0; j < L->nf; j++)
			v += (double)ci[j] * L->x[(size_t)j * L->n + i];
		if (fabs(v - L->y[i]) > 0.25)
			return 0;
	}
	return 1;
}

/* A column the samples leave open continues the bit below it (twice its coefficient), else 0. */
static void fill_open(const struct tf_ls *L, double *c)
{
	for (int j = 0; j < L->nf; j++)
		if (L->dep[j])
			c[j] = L->prev[j] >= 0 ? 2 * c[L->prev[j]] : 0;
}

static int round_all(const double *c, int nf, double c0, int64_t *ci, int64_t *c0i)
{
	for (int j = 0; j < nf; j++) {
		if (!isfinite(c[j]) || fabs(c[j]) > 4e15)
			return -1;
		ci[j] = llround(c[j]);
	}
	if (!isfinite(c0) || fabs(c0) > 4e15)
		return -1;
	*c0i = llround(c0);
	return 0;
}

/* Solve L (filled), then the exact check: with the open bits continued, else with them 0. */
/* Columns a and b equal in every row. */
static int same_column(const struct tf_ls *L, int a, int b)
{
	const double *x = L->x + (size_t)a * L->n, *y = L->x + (size_t)b * L->n;

	for (int i = 0; i < L->n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

/* The column's value when it is the same in every row (0 or 1 for a bit), else -1. */
static double constant_column(const struct tf_ls *L, int a)
{
	const double *x = L->x + (size_t)a * L->n;

	for (int i = 1; i < L->n; i++)
		if (x[i] != x[0])
			return -1;
	return L->n ? x[0] : 0;
}

/*
 * Bits the samples move only together with a lower bit of the same chain (a collector that picks the warp in
 * the block from the same counter as the block: bits 5-7 and 13-15 of gid always equal) share one coefficient,
 * and the bits between that never moved have none. The smooth map, one mode running through them, is what
 * the samples cannot tell from the others: the pair's coefficient split as c and c x 2^distance, the bits that
 * never moved continuing the bit below them (the constant taking back what a bit that is always 1 adds). Kept
 * only when every row is still reproduced.
 */
static void smooth_split(const struct tf_ls *L, int64_t *ci, int64_t *c0)
{
	int64_t save[TF_MAX_FEAT], s0 = *c0;
	int changed = 0;

	memcpy(save, ci, sizeof(int64_t) * (size_t)L->nf);
	for (int d = 0; d < L->nf; d++) {
		int b = L->prev[d], dist = 1;
		if (!L->dep[d] || b < 0 || ci[d] != 0 || constant_column(L, d) >= 0)
			continue;
		while (b >= 0 && dist <= 30 && !same_column(L, b, d))
			b = L->prev[b], dist++;
		if (b < 0 || dist > 30 || ci[b] == 0 || L->dep[b])
			continue;
		int64_t den = ((int64_t)1 << dist) + 1;
		if (ci[b] % den)
			continue;
		ci[b] /= den;
		ci[d] = ci[b] * ((int64_t)1 << dist);   /* a multiply: ci[b] may be negative */
		changed = 1;
	}
	for (int d = 0; changed && d < L->nf; d++) {   /* the bits that never moved continue the bit below */
		double v = constant_column(L, d);
		if (!L->dep[d] || L->prev[d] < 0 || v < 0)
			continue;
		int64_t old = ci[d];
		ci[d] = 2 * ci[L->prev[d]];
		*c0 -= (ci[d] - old) * (int64_t)v;
	}
	if (changed && !ls_exact(L, ci, *c0)) {
		memcpy(ci, save, sizeof(int64_t) * (size_t)L->nf);
		*c0 = s0;
	}
}

int tf_ls_run(struct tf_ls *L, int64_t *ci, int64_t *c0)
{
	double c[TF_MAX_FEAT], k0 = 0;
	int ok = 0;

	if (L->nf > TF_MAX_FEAT)
		return -1;
	ls_factor(L);
	for (int pass = 0; pass < 3 && !ok; pass++) {
		memset(c, 0, sizeof(c));
		ls_solve(L, c, &k0);
		for (int p2 = 0; pass < 2 && p2 <= pass; p2++) { /* a filled bit feeds the one above it */
			fill_open(L, c);
			ls_solve(L, c, &k0);
		}
		ok = !round_all(c, L->nf, k0, ci, c0) && ls_exact(L, ci, *c0);
	}
	if (ok)
		smooth_split(L, ci, c0);
	return ok ? 0 : -1;
}
