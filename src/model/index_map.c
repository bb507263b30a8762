/*
 * index_map.c - the index map of an access: EXPR over the threads of a 1D launch written as offset +
 * sum of ((g / div) % size) * stride, found by probing EXPR and verified on the first threads and on
 * threads spread over the launch (gm_index_map_find), and printed back as an expression
 * (gm_index_map_expr). `explain --suggest`'s rules and `trace` read it. Pure C, no I/O.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/suggest.h"
#include "model/suggest_internal.h"

#define VERIFY_FIRST 4096      /* the first threads, every one */
#define VERIFY_SPREAD 8192     /* threads spread over the launch */

/* EXPR for thread g of the 1D launch (block of a, n threads). */
int sg_eval(const struct gm_expr *e, const struct gm_access *a, int64_t n, int64_t g, int64_t *out)
{
	struct gm_thread_vars v;
	struct gm_expr_error err;

	gm_thread_vars_1d(a, n, g, &v);
	return gm_expr_eval(e, &v, out, &err) == GM_OK ? 0 : -1;
}

static int64_t map_at(const struct gm_index_map *m, int64_t g)
{
	int64_t v = m->offset;

	for (int k = 0; k < m->nmodes; k++)
		v += m->stride[k] * ((g / m->div[k]) % m->size[k]);
	return v;
}

/* The first m (from 2) at which the mode of step d and stride s stops: doubling, then bisection. */
static int64_t mode_size(const struct gm_expr *e, const struct gm_access *a, int64_t n, int64_t e0, int64_t d,
			 int64_t s)
{
	int64_t good = 1, bad = 0, v;

	for (int64_t m = 2; bad == 0; m *= 2) {
		if (m > (n - 1) / d) {
			int64_t last = (n - 1) / d;
			if (last > good && (sg_eval(e, a, n, last * d, &v) || v != e0 + last * s))
				bad = last;
			else
				return (n + d - 1) / d; /* the mode runs to the end */
			break;
		}
		if (sg_eval(e, a, n, m * d, &v) || v != e0 + m * s)
			bad = m;
		else
			good = m;
	}
	while (bad - good > 1) {
		int64_t mid = good + (bad - good) / 2;
		if (sg_eval(e, a, n, mid * d, &v) || v != e0 + mid * s)
			bad = mid;
		else
			good = mid;
	}
	return bad;
}

static void map_simplify(struct gm_index_map *m)
{
	int k = 0;

	for (int j = 0; j < m->nmodes; j++) {
		if (m->size[j] == 1)
			continue;
		if (k > 0 && m->stride[j] == m->stride[k - 1] * m->size[k - 1]) {
			m->size[k - 1] *= m->size[j];
			continue;
		}
		m->size[k] = m->size[j];
		m->stride[k] = m->stride[j];
		m->div[k] = m->div[j];
		k++;
	}
	m->nmodes = k;
}

static int map_verify(const struct gm_expr *e, const struct gm_access *a, int64_t n, struct gm_index_map *m)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int64_t v;

	for (int64_t i = 0; i < VERIFY_FIRST + VERIFY_SPREAD + 1; i++) {
		int64_t g = i < VERIFY_FIRST ? i : i == VERIFY_FIRST + VERIFY_SPREAD ? n - 1 : 0;
		if (i >= VERIFY_FIRST && i < VERIFY_FIRST + VERIFY_SPREAD) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			g = (int64_t)(x % (uint64_t)n);
		}
		if (g >= n)
			continue;
		if (sg_eval(e, a, n, g, &v))
			return snprintf(m->why, sizeof(m->why), "EXPR cannot be evaluated at gid=%lld", (long long)g), -1;
		if (v != map_at(m, g))
			return snprintf(m->why, sizeof(m->why), "EXPR is no mixed-radix map of gid (gid=%lld gives %lld, "
					"the map found %lld)", (long long)g, (long long)v, (long long)map_at(m, g)), -1;
	}
	return 0;
}

void gm_index_map_find(const struct gm_access *a, int64_t n, struct gm_index_map *m)
{
	struct gm_expr *e = NULL;
	struct gm_expr_error err;
	int64_t e0, v, d = 1;

	memset(m, 0, sizeof(*m));
	if (gm_expr_parse(a->index, &e, &err) || sg_eval(e, a, n, 0, &e0)) {
		snprintf(m->why, sizeof(m->why), "EXPR cannot be evaluated");
		gm_expr_free(e);
		return;
	}
	m->offset = e0;
	while (d < n && m->nmodes < GM_SUGGEST_MODES) {
		int k = m->nmodes++;
		if (sg_eval(e, a, n, d, &v))
			break;
		m->stride[k] = v - e0;
		m->div[k] = d;
		m->size[k] = mode_size(e, a, n, e0, d, m->stride[k]);
		if (m->size[k] > (n - 1) / d)
			break;
		d *= m->size[k];
	}
	m->known = map_verify(e, a, n, m) == 0;
	if (m->known)
		map_simplify(m);
	gm_expr_free(e);
}

int gm_index_map_expr(const struct gm_index_map *m, const char *g, int64_t scale, char *out, size_t n)
{
	size_t len = 0;
	int k = snprintf(out, n, "%lld", (long long)(m->offset / scale));

	if (k < 0 || (size_t)k >= n)
		return -1;
	len = (size_t)k;
	for (int j = 0; j < m->nmodes; j++) {
		if (m->stride[j] == 0)
			continue;
		if (j == m->nmodes - 1) /* the last mode runs to the end of the launch: no modulo (rule D7 would
					   read a modulo as a periodic footprint) */
			k = snprintf(out + len, n - len, " + (%s / %lld) * %lld", g, (long long)m->div[j],
				     (long long)(m->stride[j] / scale));
		else if (m->div[j] == 1)
			k = snprintf(out + len, n - len, " + (%s %% %lld) * %lld", g, (long long)m->size[j],
				     (long long)(m->stride[j] / scale));
		else
			k = snprintf(out + len, n - len, " + (%s / %lld %% %lld) * %lld", g, (long long)m->div[j],
				     (long long)m->size[j], (long long)(m->stride[j] / scale));
		if (k < 0 || (size_t)k >= n - len)
			return -1;
		len += (size_t)k;
	}
	return 0;
}
