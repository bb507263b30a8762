/*
 * launch_case.c - the launch model over the cases of a run: `gpumem run`
 * prints its prediction beside each measurement, `gpumem predict RUN.json`
 * re-predicts a saved run offline with any profile.
 *
 * A case declares the patterns of warp 0 of block 0 and its traffic, not its
 * grid. The launch it is predicted as: one thread-level execution of every
 * pattern per element moved (bytes_useful / bytes of the global patterns per
 * thread), blocks in the order the patterns' block shape gives, and a square
 * grid when an index names blockIdx.y (by).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/parallel.h"
#include "gpumem/profile.h"

static const struct gm_case *case_named(const char *name)
{
	int n;
	const struct gm_case *cases = gm_registry_cases(&n);

	for (int k = 0; k < n; k++)
		if (!strcmp(cases[k].name, name))
			return &cases[k];
	return NULL;
}

static int names_by(const char *index)
{
	for (const char *s = strstr(index, "by"); s; s = strstr(s + 1, "by")) {
		int before = s == index || !(s[-1] == '_' || (s[-1] >= 'a' && s[-1] <= 'z'));
		int after = !(s[2] == '_' || (s[2] >= 'a' && s[2] <= 'z') || (s[2] >= '0' && s[2] <= '9'));

		if (before && after)
			return 1;
	}
	return strstr(index, "blockIdx.y") != NULL;
}

static gm_status launch_of(const struct gm_case *c, const struct gm_case_result *cr, struct gm_access *pats,
			   struct gm_repeat *rep, struct gm_launch_in *in)
{
	double per_thread = 0;
	int two_d = 0;

	memset(in, 0, sizeof(*in));
	for (int k = 0; k < c->npatterns; k++) {
		const struct gm_pattern *p = &c->patterns[k];

		memset(&pats[k], 0, sizeof(pats[k]));
		pats[k].space = p->space;
		pats[k].op = p->op;
		pats[k].elem_bytes = p->elem_bytes;
		pats[k].base = p->base;
		pats[k].index = p->index;
		pats[k].active = "1";
		rep[k] = (struct gm_repeat){ p->iters, p->iter_step * p->elem_bytes, p->iters2,
					     p->iter_step2 * p->elem_bytes };
		if (p->space == GM_SPACE_GLOBAL)
			per_thread += (double)p->elem_bytes * (double)gm_repeat_count(&rep[k]);
		two_d |= names_by(p->index);
	}
	if (per_thread <= 0 || cr->traffic.bytes_useful <= 0)
		return GM_ERR_NOT_FOUND;
	in->pats = pats;
	in->repeat = rep;
	in->npats = c->npatterns;
	memcpy(in->block, c->patterns[0].block, sizeof(in->block));
	in->n_threads = (int64_t)llround(cr->traffic.bytes_useful / per_thread);
	in->useful_bytes = cr->traffic.bytes_useful;
	in->round_trips = c->round_trips;
	if (c->grid_x > 0 && c->grid_y > 0) /* the kernel's grid, when its threads declare more than the useful bytes */
		in->n_threads = c->grid_x * c->grid_y * in->block[0] * in->block[1] * in->block[2];
	if (c->grid_x > 0)
		in->grid_x = c->grid_x;
	else if (two_d) {
		int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
		int64_t blocks = (in->n_threads + tpb - 1) / tpb;

		in->grid_x = (int64_t)ceil(sqrt((double)blocks));
	}
	return in->n_threads > 0 ? GM_OK : GM_ERR_NOT_FOUND;
}

/*
 * The walks of a run's cases for one profile shape (gm_launch_walk_new), made once on every core: calibrate's
 * derivation predicts the same cases with profiles that differ only in their rates. Entry k is the walk of
 * r->cases[k] as gm_launch_case_out would walk it (NULL where it is not a bandwidth case or its walk failed: those
 * take gm_launch_case_out's own path, which says why).
 */
struct gm_case_walks {
	const struct gm_run_result *r;
	int n;
	double *bytes;                    /* each case's bytes_useful when walked */
	struct gm_launch_walked **w;
	const struct gm_profile *p;       /* while they are made */
};

/* The launch a case is predicted as: a bandwidth case with global patterns, else GM_ERR_NOT_FOUND. */
static gm_status case_launch(const struct gm_case_result *cr, struct gm_access *pats, struct gm_repeat *rep,
			     struct gm_launch_in *in)
{
	const struct gm_case *c = case_named(cr->name);

	if (!c || cr->kind != GM_KIND_DRAM || cr->unit != GM_UNIT_GBS)
		return GM_ERR_NOT_FOUND;
	return launch_of(c, cr, pats, rep, in);
}

static gm_status walk_case(const struct gm_case_result *cr, const struct gm_profile *p, struct gm_launch_walked **w)
{
	struct gm_access pats[GM_MAX_PATTERNS];
	struct gm_repeat rep[GM_MAX_PATTERNS];
	struct gm_launch_in in;
	gm_status s;

	*w = NULL;
	if ((s = case_launch(cr, pats, rep, &in)) != GM_OK)
		return s;
	return gm_launch_walk_new(&in, p, w, NULL);
}

static void walk_one(void *arg, void *state, int k)
{
	struct gm_case_walks *cw = arg;

	(void)state;
	cw->bytes[k] = cw->r->cases[k].traffic.bytes_useful;
	(void)walk_case(&cw->r->cases[k], cw->p, &cw->w[k]);
}

struct gm_case_walks *gm_case_walks_new(const struct gm_run_result *r, const struct gm_profile *p)
{
	struct gm_case_walks *cw = calloc(1, sizeof(*cw));
	int n;

	if (!cw || !(cw->bytes = calloc((size_t)(r->ncases > 0 ? r->ncases : 1), sizeof(*cw->bytes))) ||
	    !(cw->w = calloc((size_t)(r->ncases > 0 ? r->ncases : 1), sizeof(*cw->w)))) {
		gm_case_walks_free(cw);
		return NULL;
	}
	cw->r = r;
	cw->n = r->ncases;
	cw->p = p;
	(void)gm_registry_cases(&n); /* built once, before the workers read it */
	gm_parallel_for(r->ncases, gm_cores(), NULL, NULL, walk_one, cw);
	cw->p = NULL;
	return cw;
}

void gm_case_walks_free(struct gm_case_walks *cw)
{
	if (!cw)
		return;
	for (int k = 0; cw->w && k < cw->n; k++)
		gm_launch_walked_free(cw->w[k]);
	free(cw->w);
	free(cw->bytes);
	free(cw);
}

/* The case's walk in cw when cw holds one that fits p (and the case's bytes have not changed since). */
static const struct gm_launch_walked *walk_of(const struct gm_case_walks *cw, const struct gm_case_result *cr,
					      const struct gm_profile *p)
{
	ptrdiff_t k;

	if (!cw || cr < cw->r->cases || cr >= cw->r->cases + cw->n)
		return NULL;
	k = cr - cw->r->cases;
	if (!cw->w[k] || cw->bytes[k] != cr->traffic.bytes_useful || !gm_launch_walked_fits(cw->w[k], p))
		return NULL;
	return cw->w[k];
}

gm_status gm_launch_case_out_walked(const struct gm_case_walks *cw, const struct gm_case_result *cr,
				    const struct gm_profile *p, struct gm_launch_out *out)
{
	const struct gm_launch_walked *w = walk_of(cw, cr, p);

	return w ? gm_launch_predict_walked(w, p, out, NULL) : gm_launch_case_out(cr, p, out);
}

gm_status gm_launch_case_out(const struct gm_case_result *cr, const struct gm_profile *p, struct gm_launch_out *out)
{
	struct gm_access pats[GM_MAX_PATTERNS];
	struct gm_repeat rep[GM_MAX_PATTERNS];
	struct gm_launch_in in;
	gm_status s;

	if ((s = case_launch(cr, pats, rep, &in)) != GM_OK)
		return s;
	return gm_launch_predict(&in, p, out, NULL);
}

static gm_status predict_case(const struct gm_case_walks *cw, struct gm_case_result *cr, const struct gm_profile *p)
{
	struct gm_launch_out out;
	gm_status s;

	cr->launch_gbs = 0;
	if ((s = gm_launch_case_out_walked(cw, cr, p, &out)) != GM_OK)
		return s;
	cr->launch_gbs = out.gbs;
	cr->launch_ms = out.time_ms;
	cr->launch_dram_read = out.dram_read_bytes;
	cr->launch_dram_write = out.dram_write_bytes;
	cr->launch_l2_sectors = out.l2_sectors;
	cr->launch_l1_load_sectors = out.l1_load_sectors;
	cr->launch_l1_store_sectors = out.l1_sectors - out.l1_load_sectors;
	cr->launch_l2_load_sectors = out.l2_load_sectors;
	snprintf(cr->launch_limited_by, sizeof(cr->launch_limited_by), "%s", out.limited_by);
	cr->launch_low_gbs = out.gbs_low;
	cr->launch_high_gbs = out.gbs_high;
	cr->launch_rules = out.rules_fired;
	cr->launch_weak = out.weak;
	return GM_OK;
}

gm_status gm_launch_predict_case(struct gm_case_result *cr, const struct gm_profile *p)
{
	return predict_case(NULL, cr, p);
}

struct predict_all {
	struct gm_run_result *r;
	const struct gm_profile *p;
	const struct gm_case_walks *cw;
};

static void predict_one(void *arg, void *state, int k)
{
	struct predict_all *a = arg;

	(void)state;
	(void)predict_case(a->cw, &a->r->cases[k], a->p);
}

/*
 * Every case of a run, on as many threads as the machine has cores (at most
 * 16): the cases are independent and the model is pure (the suite's 233
 * predictions take about 20 s of CPU). Returns how many got a prediction.
 * With cw (gm_case_walks_new of this run), the cases' walks that fit p are not made again.
 */
int gm_launch_predict_run_walked(struct gm_run_result *r, const struct gm_profile *p, const struct gm_case_walks *cw)
{
	struct predict_all a = { r, p, cw };
	int n;

	(void)gm_registry_cases(&n); /* built once, before the workers read it */
	gm_parallel_for(r->ncases, gm_cores(), NULL, NULL, predict_one, &a);
	n = 0;
	for (int k = 0; k < r->ncases; k++)
		n += r->cases[k].launch_gbs > 0;
	return n;
}

int gm_launch_predict_run(struct gm_run_result *r, const struct gm_profile *p)
{
	return gm_launch_predict_run_walked(r, p, NULL);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_sorted(double *v, int n)
{
	if (!n)
		return 0;
	qsort(v, (size_t)n, sizeof(double), cmp_d);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void gm_launch_score_of(const struct gm_run_result *r, const char *family, struct gm_launch_score *s)
{
	double *err = calloc((size_t)(r->ncases > 0 ? r->ncases : 1), sizeof(double));
	double *other = calloc((size_t)(r->ncases > 0 ? r->ncases : 1), sizeof(double));
	int no = 0;

	memset(s, 0, sizeof(*s));
	if (!err || !other) {
		free(err);
		free(other);
		return;
	}
	for (int k = 0; k < r->ncases; k++) {
		const struct gm_case_result *c = &r->cases[k];
		double e;

		if (c->launch_gbs <= 0 || c->status != GM_CASE_OK || !(c->value.median > 0))
			continue;
		if (family && strcmp(family, c->family))
			continue;
		e = 100.0 * fabs(c->value.median / c->launch_gbs - 1.0);
		err[s->n++] = e;
		s->within10 += e <= 10.0;
		if (gm_is_calibration_case(c->name)) {
			s->calibration++;
			s->calibration_within10 += e <= 10.0;
		} else {
			other[no++] = e;
			s->other_mean_err_pct += e;
		}
	}
	s->median_err_pct = median_sorted(err, s->n);
	s->other_median_err_pct = median_sorted(other, no);
	s->other_mean_err_pct = no ? s->other_mean_err_pct / no : 0;
	free(err);
	free(other);
}
