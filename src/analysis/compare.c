/*
 * compare.c - two runs case by case: each case's ratio against the noise of both runs and its verdict
 * (include/gpumem/compare.h); runs that measured different cases merged into one. The writers of a
 * comparison are src/io/compare_out.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/compare.h"
#include "gpumem/io.h"

/* Index of B's cases sorted by name, so each lookup is a binary search. */
static int by_name(const void *x, const void *y)
{
	return strcmp((*(const struct gm_case_result *const *)x)->name,
		      (*(const struct gm_case_result *const *)y)->name);
}

static const struct gm_case_result *lookup(const struct gm_case_result **idx, int n, const char *name)
{
	struct gm_case_result key;
	const struct gm_case_result *kp = &key, **hit;

	snprintf(key.name, sizeof(key.name), "%s", name);
	hit = bsearch(&kp, idx, (size_t)n, sizeof(*idx), by_name);
	return hit ? *hit : NULL;
}

static void judge(struct gm_compare_row *row, const struct gm_case_result *ca, const struct gm_case_result *cb,
		  double threshold)
{
	int ok_a = ca->status == GM_CASE_OK, ok_b = cb->status == GM_CASE_OK;
	double diff;

	row->a = ok_a ? ca->value.median : 0;
	row->b = ok_b ? cb->value.median : 0;
	row->spread_a = ok_a ? ca->value.max - ca->value.min : 0;
	row->spread_b = ok_b ? cb->value.max - cb->value.min : 0;
	row->unit_differs = ca->unit != cb->unit;
	if (!ok_a || !ok_b || row->unit_differs) {
		row->verdict = ok_a && !ok_b ? GM_BROKEN : !ok_a && ok_b ? GM_FIXED : GM_NOT_COMPARED;
		return;
	}
	row->ratio = row->a != 0 ? row->b / row->a : 0;
	diff = row->b - row->a;
	if (row->a != 0)
		row->worse_pct = 100.0 * (gm_unit_higher_is_better(row->unit) ? -diff : diff) / fabs(row->a);
	row->beyond_noise = fabs(diff) > row->spread_a && fabs(diff) > row->spread_b;
	if (row->beyond_noise && row->worse_pct > threshold)
		row->verdict = GM_WORSE;
	else if (row->beyond_noise && -row->worse_pct > threshold)
		row->verdict = GM_BETTER;
	else
		row->verdict = GM_SAME;
}

static void count(struct gm_comparison *c, enum gm_verdict v)
{
	c->nworse += v == GM_WORSE || v == GM_BROKEN;
	c->nbetter += v == GM_BETTER || v == GM_FIXED;
	c->nonly_a += v == GM_ONLY_A;
	c->nonly_b += v == GM_ONLY_B;
}

static struct gm_compare_row *row_for(struct gm_comparison *c, const struct gm_case_result *x)
{
	struct gm_compare_row *row = &c->rows[c->nrows++];

	memset(row, 0, sizeof(*row));
	snprintf(row->name, sizeof(row->name), "%s", x->name);
	row->unit = x->unit;
	return row;
}

static int only_in_b(const struct gm_case_result **idx_a, int na, const struct gm_case_result *cb)
{
	return !lookup(idx_a, na, cb->name);
}

static const struct gm_case_result **make_index(const struct gm_run_result *r)
{
	const struct gm_case_result **idx = calloc((size_t)r->ncases + 1, sizeof(*idx));

	if (!idx)
		return NULL;
	for (int i = 0; i < r->ncases; i++)
		idx[i] = &r->cases[i];
	qsort(idx, (size_t)r->ncases, sizeof(*idx), by_name);
	return idx;
}

gm_status gm_compare_runs(const struct gm_run_result *a, const struct gm_run_result *b, double threshold_pct,
			  struct gm_comparison *out)
{
	const struct gm_case_result **ia, **ib;

	memset(out, 0, sizeof(*out));
	if (!(threshold_pct >= 0))
		return gm_fail(GM_ERR_INVALID_ARG, "threshold must be a percentage >= 0");
	out->threshold_pct = threshold_pct;
	out->different_device = a->have_device != b->have_device ||
				(a->have_device && strcmp(a->dev.name, b->dev.name));
	out->different_schema = a->schema_version != b->schema_version;
	out->rows = calloc((size_t)a->ncases + (size_t)b->ncases + 1, sizeof(*out->rows));
	ia = make_index(a);
	ib = make_index(b);
	if (!out->rows || !ia || !ib) {
		free(ia), free(ib), gm_comparison_release(out);
		return gm_fail(GM_ERR_NOMEM, "out of memory comparing runs");
	}
	for (int i = 0; i < a->ncases; i++) {
		const struct gm_case_result *cb = lookup(ib, b->ncases, a->cases[i].name);
		struct gm_compare_row *row = row_for(out, &a->cases[i]);
		if (cb)
			judge(row, &a->cases[i], cb, threshold_pct);
		else
			row->verdict = GM_ONLY_A;
		count(out, row->verdict);
	}
	for (int i = 0; i < b->ncases; i++)
		if (only_in_b(ia, a->ncases, &b->cases[i])) {
			row_for(out, &b->cases[i])->verdict = GM_ONLY_B;
			count(out, GM_ONLY_B);
		}
	free(ia);
	free(ib);
	return GM_OK;
}

void gm_comparison_release(struct gm_comparison *c)
{
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

int gm_runs_disjoint(const struct gm_run_result *runs, int n)
{
	int disjoint = 1;

	for (int i = 0; i < n && disjoint; i++) {
		const struct gm_case_result **idx = make_index(&runs[i]);
		if (!idx)
			return 0;
		for (int j = i + 1; j < n && disjoint; j++)
			for (int k = 0; k < runs[j].ncases && disjoint; k++)
				disjoint = !lookup(idx, runs[i].ncases, runs[j].cases[k].name);
		free(idx);
	}
	return disjoint;
}

gm_status gm_runs_merge(struct gm_run_result *into, struct gm_run_result *from, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < from[i].ncases; k++) {
			struct gm_case_result *c = gm_result_add(into);
			if (!c)
				return gm_fail(GM_ERR_NOMEM, "out of memory merging runs");
			*c = from[i].cases[k];
			from[i].cases[k].samples_ms = NULL;   /* moved */
			from[i].cases[k].nsamples = 0;
		}
		for (int k = 0; k < from[i].nderived; k++) {
			struct gm_derived *d = gm_result_derive(into, "", "");
			if (!d)
				break;
			*d = from[i].derived[k];
		}
		if (!into->have_device && from[i].have_device) {
			into->have_device = 1;
			into->dev = from[i].dev;
		}
	}
	return GM_OK;
}
