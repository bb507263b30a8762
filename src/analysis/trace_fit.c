/*
 * trace_fit.c - an instruction's sampled lane addresses as a map of the
 * thread and block ids (docs/TRACE.md, "How the fit works").
 *
 * element index = (address - base) / size, base the smallest sampled address
 * rounded down to 256 B. The index is fitted by least squares to features of
 * the ids, the coefficients rounded to integers, and the map kept only when it
 * reproduces EVERY sampled lane exactly. Stages, the first that fits wins:
 *   A  affine in tx ty tz bx by bz iter (coalesced, strided, 2D, loops);
 *   B  affine in the BITS of gid (1D grids) or of tx..bz, iter linear: every
 *      mixed-radix map whose radices are powers of two (column walks,
 *      lane/warp splits); a bit the samples never vary takes the value that
 *      continues its neighbour's mode (the simplest map);
 *   C  B's low bits of gid plus one more radix N of any size above them
 *      (a*(h % N) + b*(h / N), h = gid >> k), searched over N;
 *   D  the ids as A or B plus a table of one offset per loop iteration;
 *   F  a grid-stride loop: stage A on the indices modulo a launch-wide step
 *      (the trips a lane starts the compiler's unrolled body at vary with gid);
 *   (E, a warp's lanes in another order, and G, the interior blocks without the
 *   grid's edge, where a stencil clamps, are trace_class.c's refits).
 * The bits of each variable are then grouped into modes: a run of bits whose
 * coefficients double is one mode stride * ((v / 2^j) % 2^m).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define MAX_FEAT TF_MAX_FEAT
#define MAX_BITS 40
#define HCAP 4096       /* distinct groups stage C looks at */

/* A feature: var's value (bit < 0), bit `bit` of it, or var % N / var / N over h = gid >> shift (kind 2, 3). */
struct feat {
	int var, bit, kind;
	int64_t n;
	int shift;
};

static int64_t feat_val(const struct feat *f, const int64_t *v)
{
	int64_t x = v[f->var];

	if (f->kind == 2)
		return (x >> f->shift) % f->n;
	if (f->kind == 3)
		return (x >> f->shift) / f->n;
	if (f->kind == 4)
		return x == f->n;
	return f->bit < 0 ? x : (x >> f->bit) & 1;
}

static int bits_of(int64_t range)
{
	int b = 0;

	while (b < MAX_BITS && ((int64_t)1 << b) < range)
		b++;
	return b;
}

/* Least squares of the lanes' indices over features f. */
static int fit_features(const struct tf_set *s, const struct feat *f, int nf, int64_t *ci, int64_t *c0)
{
	struct tf_ls L;
	int rc = -1;

	memset(&L, 0, sizeof(L));
	if (nf <= MAX_FEAT && !tf_ls_alloc(&L, s->n, nf)) {
		for (int j = 0; j < nf; j++) {
			L.prev[j] = j > 0 && f[j].kind == 1 && f[j - 1].kind == 1 && f[j - 1].var == f[j].var &&
				    f[j - 1].bit == f[j].bit - 1 ? j - 1 : -1;
			for (int i = 0; i < s->n; i++)
				L.x[(size_t)j * s->n + i] = (double)feat_val(&f[j], s->p[i].v);
		}
		for (int i = 0; i < s->n; i++)
			L.y[i] = (double)s->p[i].idx;
		rc = tf_ls_run(&L, ci, c0);
	}
	tf_ls_free(&L);
	return rc;
}

/* ---- the features of each stage and the map they give ------------------------------------------------ */

static int add_linear(const struct tf_set *s, struct feat *f, int nf, int var)
{
	if (s->range[var] > 1 && nf < MAX_FEAT)
		f[nf++] = (struct feat){ var, -1, 0, 0, 0 };
	return nf;
}

static int add_bits(const struct tf_set *s, struct feat *f, int nf, int var, int upto)
{
	int nb = bits_of(s->range[var]);

	for (int b = 0; b < nb && b < upto && nf < MAX_FEAT; b++)
		f[nf++] = (struct feat){ var, b, 1, 0, 0 };
	return nf;
}

static void add_mode(struct gm_trace_map *m, int var, int64_t div, int64_t size, int64_t stride)
{
	if (stride && m->nmodes < GM_TRACE_MODES)
		m->mode[m->nmodes++] = (struct gm_trace_mode){ var, div, size, stride };
}

/* Runs of doubling bit coefficients as modes; the top run of a variable has no modulo. */
static void bits_to_modes(const struct tf_set *s, const struct feat *f, int nf, const int64_t *ci,
			  struct gm_trace_map *m)
{
	for (int j = 0; j < nf;) {
		if (f[j].kind != 1 || ci[j] == 0) {
			if (f[j].kind == 0)
				add_mode(m, f[j].var, 1, 0, ci[j]);
			j++;
			continue;
		}
		int k = j + 1;
		while (k < nf && f[k].kind == 1 && f[k].var == f[j].var && f[k].bit == f[k - 1].bit + 1 &&
		       ci[k] == 2 * ci[k - 1])
			k++;
		int top = f[k - 1].bit + 1 >= bits_of(s->range[f[j].var]);
		add_mode(m, f[j].var, (int64_t)1 << f[j].bit, top ? 0 : (int64_t)1 << (k - j), ci[j]);
		j = k;
	}
}

static void map_start(const struct tf_set *s, struct gm_trace_map *m, int64_t c0)
{
	memset(m, 0, sizeof(*m));
	m->known = 1;
	m->base = s->base;
	m->elem_bytes = s->elem;
	m->offset = c0;
}

static void set_iter_step(struct gm_trace_map *m)
{
	if (m->niter_tab)
		return;
	for (int k = 0; k < m->nmodes; k++)
		if (m->mode[k].var == GM_TV_ITER && m->mode[k].div == 1 && m->mode[k].size == 0)
			m->iter_step = m->mode[k].stride;
}

/* 1 when every sampled lane has the same value of v (its value into *v0). */
static int constant_var(const struct tf_set *s, int v, int64_t *v0)
{
	*v0 = s->p[0].v[v];
	for (int i = 1; i < s->n; i++)
		if (s->p[i].v[v] != *v0)
			return 0;
	return 1;
}

static int stage_affine(const struct tf_set *s, struct gm_trace_map *m)
{
	struct feat f[8];
	int64_t ci[8], c0, a[GM_TV_N] = { 0 };
	int nf = 0;

	for (int v = GM_TV_TX; v <= GM_TV_ITER; v++)
		nf = add_linear(s, f, nf, v);
	if (fit_features(s, f, nf, ci, &c0))
		return -1;
	for (int j = 0; j < nf; j++)
		a[f[j].var] = ci[j];
	map_start(s, m, c0);
	for (int v = GM_TV_TX; v <= GM_TV_ITER; v++)
		add_mode(m, v, 1, 0, a[v]);
	return 0;
}

static int stage_bits(const struct tf_set *s, int use_gid, struct gm_trace_map *m)
{
	struct feat f[MAX_FEAT];
	int64_t ci[MAX_FEAT], c0;
	int nf = 0;

	if (use_gid)
		nf = add_bits(s, f, nf, GM_TV_GID, MAX_BITS);
	else
		for (int v = GM_TV_TX; v <= GM_TV_BZ; v++)
			nf = add_bits(s, f, nf, v, MAX_BITS);
	nf = add_linear(s, f, nf, GM_TV_ITER);
	if (fit_features(s, f, nf, ci, &c0))
		return -1;
	map_start(s, m, c0);
	bits_to_modes(s, f, nf, ci, m);
	return 0;
}

/* Stage C, the last radix: o(h) = a*(h % N) + b*(h / N) + c over the sorted distinct (h, o) pairs. */
static int radix_search(const int64_t *h, const int64_t *o, int nh, int64_t hmax, int64_t *N_, int64_t *a_,
			int64_t *b_, int64_t *c_)
{
	for (int64_t N = 3; N <= hmax && N <= 65536; N++) {
		int64_t a = 0, b = 0, c = 0;
		int have_a = 0, have_b = 0, ok = 1;
		if ((N & (N - 1)) == 0)
			continue;   /* a power of two is stage B's */
		for (int i = 1; i < nh && ok && !have_a; i++) {   /* a: from the first pair of one quotient */
			int64_t dh = h[i] - h[i - 1], dq = h[i] / N - h[i - 1] / N;
			if (!dq) {
				if ((o[i] - o[i - 1]) % dh)
					ok = 0;
				a = (o[i] - o[i - 1]) / dh, have_a = 1;
			}
		}
		if (!ok || !have_a)
			continue;
		for (int i = 1; i < nh && ok; i++) {
			int64_t dq = h[i] / N - h[i - 1] / N;
			int64_t r = (o[i] - a * (h[i] % N)) - (o[i - 1] - a * (h[i - 1] % N));
			if (!dq)
				ok = r == 0;
			else if (!have_b)
				ok = r % dq == 0, b = r / dq, have_b = 1;
			else
				ok = r == b * dq;
		}
		c = o[0] - a * (h[0] % N) - b * (h[0] / N);
		if (ok && have_b) {
			*N_ = N, *a_ = a, *b_ = b, *c_ = c;
			return 0;
		}
	}
	return -1;
}

/* The low `shift` bits of gid (and iter) fitted within each group of equal h = gid >> shift: the
   columns and targets less their group's mean. Then every lane's group offset o(h) into hv / ov. */
static int radix_low(const struct tf_set *s, int shift, int use_iter, int64_t *ci, int64_t *hv, int64_t *ov,
		     int *nh)
{
	struct tf_ls L;
	int nf = shift + use_iter, rc = -1, *grp = calloc((size_t)s->n, sizeof(int));
	double *cnt = calloc(HCAP, sizeof(double)), *gm = calloc(HCAP, sizeof(double));
	int64_t c0;

	memset(&L, 0, sizeof(L));
	*nh = 0;
	if (!grp || !cnt || !gm || tf_ls_alloc(&L, s->n, nf))
		goto out;
	for (int i = 0; i < s->n; i++) {
		int64_t h = s->p[i].v[GM_TV_GID] >> shift;
		int g = 0;
		while (g < *nh && hv[g] != h)
			g++;
		if (g == *nh) {
			if (*nh == HCAP)
				goto out;
			hv[(*nh)++] = h;
		}
		grp[i] = g;
		cnt[g] += 1;
	}
	for (int j = 0; j <= nf; j++) {   /* column j (j == nf: the target), less its group means */
		double *col = j < nf ? L.x + (size_t)j * s->n : L.y;

		memset(gm, 0, sizeof(double) * HCAP);
		for (int i = 0; i < s->n; i++) {
			const int64_t *v = s->p[i].v;
			col[i] = j == nf ? (double)s->p[i].idx : j < shift ? (double)((v[GM_TV_GID] >> j) & 1) :
				 (double)v[GM_TV_ITER];
			gm[grp[i]] += col[i];
		}
		for (int i = 0; i < s->n; i++)
			col[i] -= gm[grp[i]] / cnt[grp[i]];
		if (j < nf)
			L.prev[j] = j > 0 && j < shift ? j - 1 : -1;
	}
	if (tf_ls_run(&L, ci, &c0))
		goto out;
	for (int g = 0; g < *nh; g++)
		ov[g] = INT64_MIN;
	rc = 0;
	for (int i = 0; i < s->n && !rc; i++) {
		int64_t o = s->p[i].idx;
		for (int j = 0; j < nf; j++)
			o -= ci[j] * (j < shift ? (s->p[i].v[GM_TV_GID] >> j) & 1 : s->p[i].v[GM_TV_ITER]);
		if (ov[grp[i]] == INT64_MIN)
			ov[grp[i]] = o;
		rc = ov[grp[i]] == o ? 0 : -1;
	}
out:
	tf_ls_free(&L);
	free(grp), free(cnt), free(gm);
	return rc;
}

static void sort_pairs(int64_t *h, int64_t *o, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && h[j] < h[j - 1]; j--) {
			int64_t t = h[j]; h[j] = h[j - 1]; h[j - 1] = t;
			t = o[j]; o[j] = o[j - 1]; o[j - 1] = t;
		}
}

/*
 * Stage C: the low `shift` bits of gid as stage B, then a*(h % N) + b*(h / N) over h = gid >> shift. Every
 * shift is tried and the smallest N wins (ties: the larger shift): sparse samples admit a large N that
 * happens to fit them, and the radices of real index arithmetic are small (3 heads of 2^18, 12 of 2^16).
 */
static int stage_radix(const struct tf_set *s, struct gm_trace_map *m)
{
	int nb = bits_of(s->range[GM_TV_GID]), use_iter = s->range[GM_TV_ITER] > 1, nh, best_shift = -1;
	int64_t *hv = malloc(sizeof(int64_t) * HCAP), *ov = malloc(sizeof(int64_t) * HCAP), ci[MAX_FEAT], N, a, b, c;
	int64_t bN = 0, ba = 0, bb = 0, bc = 0, bci[MAX_FEAT];

	if (!s->grid_1d || !hv || !ov) {
		free(hv), free(ov);
		return -1;
	}
	/* from the top: the small radices sit high, and each one found bounds the search below it */
	for (int shift = (nb - 2 < MAX_FEAT - 2 ? nb - 2 : MAX_FEAT - 2); shift >= 0; shift--) {
		if (radix_low(s, shift, use_iter, ci, hv, ov, &nh) || nh < 4)
			continue;
		sort_pairs(hv, ov, nh);
		int64_t hmax = (s->range[GM_TV_GID] - 1) >> shift;
		if (radix_search(hv, ov, nh, bN ? (hmax < bN - 1 ? hmax : bN - 1) : hmax, &N, &a, &b, &c))
			continue;
		bN = N, ba = a, bb = b, bc = c, best_shift = shift;
		memcpy(bci, ci, sizeof(ci));
	}
	free(hv), free(ov);
	if (best_shift < 0)
		return -1;
	struct feat f[MAX_FEAT];
	int nf = add_bits(s, f, 0, GM_TV_GID, best_shift);
	map_start(s, m, bc);
	bits_to_modes(s, f, nf, bci, m);
	add_mode(m, GM_TV_GID, (int64_t)1 << best_shift, bN, ba);
	add_mode(m, GM_TV_GID, ((int64_t)1 << best_shift) * bN, 0, bb);
	if (use_iter)
		add_mode(m, GM_TV_ITER, 1, 0, bci[best_shift]);
	return 0;
}

/* Stage D: the ids as in A or B, and one offset per loop iteration (a tree reduction's halving stride). */
static int stage_iter_table(const struct tf_set *s, struct gm_trace_map *m)
{
	int vals[GM_TRACE_ITER_TAB], nv = 0;

	for (int i = 0; i < s->n; i++) {
		int64_t it = s->p[i].v[GM_TV_ITER], k = 0;
		if (it >= GM_TRACE_ITER_TAB)
			return -1;
		while (k < nv && vals[k] != it)
			k++;
		if (k == nv)
			vals[nv++] = (int)it;
	}
	if (nv < 2)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		struct feat f[MAX_FEAT];
		int64_t ci[MAX_FEAT], c0;
		int nf = 0, first = 0;
		for (int k = 1; k < nv; k++)
			first = vals[k] < vals[first] ? k : first;
		if (pass == 0)
			for (int v = GM_TV_TX; v <= GM_TV_BZ; v++)
				nf = add_linear(s, f, nf, v);
		else if (s->grid_1d)
			nf = add_bits(s, f, nf, GM_TV_GID, MAX_BITS);
		else
			for (int v = GM_TV_TX; v <= GM_TV_BZ; v++)
				nf = add_bits(s, f, nf, v, MAX_BITS);
		int ids = nf;
		for (int k = 0; k < nv && nf < MAX_FEAT; k++)
			if (k != first)
				f[nf++] = (struct feat){ GM_TV_ITER, -1, 4, vals[k], 0 };
		if (fit_features(s, f, nf, ci, &c0))
			continue;
		map_start(s, m, c0);
		bits_to_modes(s, f, ids, ci, m);
		/* the table over 0 .. the largest sampled iteration; unsampled ones between two sampled ones
		   on the line between them */
		int hi = 0;
		for (int k = 0; k < nv; k++)
			hi = vals[k] > hi ? vals[k] : hi;
		int64_t tab[GM_TRACE_ITER_TAB];
		char have[GM_TRACE_ITER_TAB] = { 0 };
		for (int j = ids; j < nf; j++)
			tab[f[j].n] = ci[j], have[f[j].n] = 1;
		tab[vals[first]] = 0, have[vals[first]] = 1;
		for (int it = 0, last = -1; it <= hi; it++) {
			if (!have[it])
				continue;
			for (int q = last + 1; last >= 0 && q < it; q++)
				tab[q] = tab[last] + (tab[it] - tab[last]) * (q - last) / (it - last);
			for (int q = 0; last < 0 && q < it; q++)
				tab[q] = tab[it];
			last = it;
		}
		m->offset += tab[0];
		for (int it = 0; it <= hi; it++)
			m->iter_tab[it] = tab[it] - tab[0];
		m->niter_tab = hi + 1;
		m->iter_step = hi ? (m->iter_tab[hi]) / hi : 0;
		return 0;
	}
	return -1;
}

/*
 * Ids of a multi-dimensional global access that the samples never varied and the map does not use: their
 * strides are open (trace_prior.c fills them from the kernel's other instructions and CUDA's tiling idiom).
 * A 1D grid's gid modes cover its block ids.
 */
static void open_ids(const struct tf_set *s, struct gm_trace_map *m)
{
	int64_t v0;
	int gid = 0;

	if (s->shared || !(s->range[GM_TV_TY] > 1 || s->range[GM_TV_BY] > 1 || s->range[GM_TV_TZ] > 1 ||
			   s->range[GM_TV_BZ] > 1))
		return;
	for (int k = 0; k < m->nmodes; k++)
		gid |= m->mode[k].var == GM_TV_GID;
	for (int v = GM_TV_TY; v <= GM_TV_BZ; v++) {
		int used = gid && v >= GM_TV_BX;
		for (int k = 0; k < m->nmodes; k++)
			used |= m->mode[k].var == v;
		if (v != GM_TV_ITER && !used && s->range[v] > 1 && constant_var(s, v, &v0)) {
			m->open |= 1u << v;
			m->open_v0[v] = v0;
		}
	}
}

static int cmp_pt(const void *a, const void *b)
{
	const struct tf_pt *x = a, *y = b;

	if (x->v[GM_TV_GID] != y->v[GM_TV_GID])
		return x->v[GM_TV_GID] < y->v[GM_TV_GID] ? -1 : 1;
	return x->v[GM_TV_ITER] < y->v[GM_TV_ITER] ? -1 : x->v[GM_TV_ITER] > y->v[GM_TV_ITER];
}

/*
 * The loop's step from the lanes sampled at two iterations (the collector samples a warp twice): one step
 * for every such pair, else none. 0 with *step, -1 when no pair or they disagree.
 */
static int pair_step(const struct tf_set *s, int64_t *step)
{
	struct tf_pt *p = malloc(sizeof(*p) * (size_t)s->n);
	int pairs = 0, ok = 1;

	if (!p)
		return -1;
	memcpy(p, s->p, sizeof(*p) * (size_t)s->n);
	qsort(p, (size_t)s->n, sizeof(*p), cmp_pt);
	for (int i = 1; i < s->n && ok; i++) {
		int64_t di = p[i].v[GM_TV_ITER] - p[i - 1].v[GM_TV_ITER];
		if (p[i].v[GM_TV_GID] != p[i - 1].v[GM_TV_GID] || !di)
			continue;
		int64_t dx = p[i].idx - p[i - 1].idx;
		if (dx % di || (pairs && dx / di != *step))
			ok = 0;
		else
			*step = dx / di, pairs++;
	}
	free(p);
	return ok && pairs ? 0 : -1;
}

static int stages(const struct tf_set *s, struct gm_trace_map *m)
{
	return !stage_affine(s, m) ||
	       (s->grid_1d ? !stage_bits(s, 1, m) || !stage_bits(s, 0, m) : !stage_bits(s, 0, m)) ||
	       !stage_radix(s, m) || !stage_iter_table(s, m);
}

/* The stages on the lanes with the loop's step taken out (known from the pairs), the step put back. */
static int stages_without_loop(const struct tf_set *s, int64_t step, struct gm_trace_map *m)
{
	struct tf_set t = *s;
	int ok;

	if (!(t.p = malloc(sizeof(*t.p) * (size_t)s->n)))
		return 0;
	for (int i = 0; i < s->n; i++) {
		t.p[i] = s->p[i];
		t.p[i].idx -= step * s->p[i].v[GM_TV_ITER];
		t.p[i].v[GM_TV_ITER] = 0;
	}
	t.range[GM_TV_ITER] = 1;
	ok = stages(&t, m);
	free(t.p);
	if (ok && step)
		add_mode(m, GM_TV_ITER, 1, 0, step);
	return ok;
}

/* The lane with the smallest gid among those at the smallest sampled iteration. */
static int first_lane(const struct tf_set *s)
{
	int r = 0;

	for (int i = 1; i < s->n; i++) {
		const int64_t *v = s->p[i].v, *w = s->p[r].v;
		if (v[GM_TV_ITER] < w[GM_TV_ITER] || (v[GM_TV_ITER] == w[GM_TV_ITER] && v[GM_TV_GID] < w[GM_TV_GID]))
			r = i;
	}
	return r;
}

/* Stage A on every lane's index modulo the launch-wide step S, moved into the first lane's trip. 1 when it
   fits and the lanes lie in at least two different trips (else the stages before would have fitted). A map
   affine in the ids only: a step S that cuts through the thread's own offsets (e too small) leaves a wrap that
   only the power-of-two modes could fit, and wrongly. */
static int stages_modulo(const struct tf_set *s, int64_t S, int ref, struct gm_trace_map *m)
{
	struct tf_set t = *s;
	int64_t r = s->p[ref].idx, k0 = 0;
	int ok = 0, trips = 0;

	if (!(t.p = malloc(sizeof(*t.p) * (size_t)s->n)))
		return 0;
	for (int i = 0; i < s->n; i++) {
		int64_t y = ((s->p[i].idx - r) % S + S) % S, k = (s->p[i].idx - r - y) / S;
		trips |= i && k != k0;
		k0 = i ? k0 : k;
		t.p[i] = s->p[i];
		t.p[i].idx = r + y;
		t.p[i].v[GM_TV_ITER] = 0;
	}
	t.range[GM_TV_ITER] = 1;
	ok = trips && !stage_affine(&t, m);
	free(t.p);
	return ok;
}

/*
 * Stage F, a grid-stride loop (i = gid; i < n; i += gridDim.x * blockDim.x), also as the compiler unrolls it:
 * a lane's trip count differs by one across the launch (n % the step), so the unrolled body's first trip is
 * gid plus one or two steps, a step function of gid that no map of the ids expresses. Every lane's index is
 * its thread's own offset plus a whole number of launch-wide steps S = e * (threads in a row of the grid, or
 * in the grid): stage A fits the indices modulo S, and the loop's step (from the pairs) is put back.
 */
static int stage_grid_stride(const struct tf_set *s, int64_t step, struct gm_trace_map *m)
{
	int64_t units[2] = { s->range[GM_TV_TX] * s->range[GM_TV_BX], s->range[GM_TV_GID] };
	int ref = first_lane(s);

	for (int u = 0; u < 2; u++) {
		int64_t g = units[u], per = step ? step / g : 16;
		if (g < 2 || (u && g == units[0]) || (step && (step % g || per < 1)))
			continue;
		for (int64_t e = 1; e <= per && e <= 64; e++) {
			if (step && per % e)
				continue;
			if (stages_modulo(s, e * g, ref, m)) {
				if (step)
					add_mode(m, GM_TV_ITER, 1, 0, step);
				return 0;
			}
		}
	}
	return -1;
}

int tf_fit(const struct tf_set *s, struct gm_trace_map *m, char *why, size_t n)
{
	int64_t step = 0;
	int ok = stages(s, m) || (s->range[GM_TV_ITER] > 1 && !pair_step(s, &step) && stages_without_loop(s, step, m));

	if (!ok && (s->range[GM_TV_ITER] <= 1 || !pair_step(s, &step)))
		ok = !stage_grid_stride(s, step, m);

	if (!ok) {
		memset(m, 0, sizeof(*m));
		m->elem_bytes = s->elem;
		snprintf(why, n, "no map of the thread and block ids reproduces the %d sampled lanes "
			 "(affine, power-of-two modes, one more radix, a table per iteration, a grid-stride loop): the addresses come from "
			 "the data", s->n);
		return -1;
	}
	set_iter_step(m);
	open_ids(s, m);
	tf_normalise(m, s->range);
	return 0;
}

