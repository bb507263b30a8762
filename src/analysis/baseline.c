/*
 * baseline.c - a SKU's baseline from runs of good units (gpumem/baseline.h):
 * per case, each unit's value (the median of its runs), then the median and
 * the robust spread over the units, and the units' own noise.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/baseline.h"
#include "gpumem/result.h"
#include "gpumem/units.h"

#define MAD_TO_SIGMA 1.4826


double gm_case_noise(const struct gm_case_result *c)
{
	double t[512], med;
	int n = c->nsamples < 512 ? c->nsamples : 512;

	if (n < 3 || !c->samples_ms)
		return 0;
	memcpy(t, c->samples_ms, (size_t)n * sizeof(double));
	med = gm_median_inplace(t, n);
	for (int i = 0; i < n; i++)
		t[i] = fabs(t[i] - med);
	return med > 0 ? MAD_TO_SIGMA * gm_median_inplace(t, n) / med * fabs(c->value.median) : 0;
}

void gm_baseline_commit_of(const char *path, char *buf, size_t n)
{
	const char *p = path, *best = NULL;
	size_t blen = 0;

	buf[0] = '\0';
	while ((p = strchr(p, '-')) != NULL) {
		size_t k = 0;
		p++;
		while (isxdigit((unsigned char)p[k]))
			k++;
		if (k >= 7 && k <= 40 && (p[k] == '/' || p[k] == '\0')) {
			best = p;
			blen = k;
		}
	}
	if (best && blen < n) {
		memcpy(buf, best, blen);
		buf[blen] = '\0';
	}
}

/* The unit index of each run: runs of one UUID share one; a run without a UUID is its own. */
static int units_of(const struct gm_run_result *runs, int n, int *unit)
{
	int nu = 0;

	for (int i = 0; i < n; i++) {
		unit[i] = -1;
		for (int j = 0; j < i && runs[i].dev.uuid[0]; j++)
			if (!strcmp(runs[j].dev.uuid, runs[i].dev.uuid))
				unit[i] = unit[j];
		if (unit[i] < 0)
			unit[i] = nu++;
	}
	return nu;
}

static gm_status check_runs(const struct gm_run_result *runs, const char *const *sources, int n,
			    const char *const *cases, int ncases)
{
	if (n < 1 || n > GM_BASELINE_MAX_RUNS)
		return gm_fail(GM_ERR_INVALID_ARG, "a baseline needs 1 to %d runs (got %d)", GM_BASELINE_MAX_RUNS, n);
	for (int i = 0; i < n; i++) {
		if (!runs[i].have_device || !runs[i].dev.name[0])
			return gm_fail(GM_ERR_INVALID_ARG, "'%s': the run names no device", sources[i]);
		if (strcmp(runs[i].dev.name, runs[0].dev.name))
			return gm_fail(GM_ERR_INVALID_ARG, "'%s' is of a %s, '%s' of a %s: one baseline is one GPU model",
				       sources[i], runs[i].dev.name, sources[0], runs[0].dev.name);
		for (int k = 0; k < ncases; k++) {
			const struct gm_case_result *c = gm_result_find(&runs[i], cases[k]);
			if (c && (c->status == GM_CASE_FAILED || c->status == GM_CASE_ERROR))
				return gm_fail(GM_ERR_INVALID_ARG, "'%s': case %s %s: not a good unit's run",
					       sources[i], cases[k], c->status == GM_CASE_FAILED ? "failed validation" : "hit an error");
		}
	}
	return GM_OK;
}

/* One case over the units: each unit's median of its runs, then the distribution. 0 when no unit measured it. */
static int make_line(const struct gm_run_result *runs, int n, const int *unit, int nu, const char *name,
		     struct gm_baseline_line *l)
{
	double v[GM_BASELINE_MAX_RUNS], uv[GM_BASELINE_MAX_RUNS], noise[GM_BASELINE_MAX_RUNS], cov[GM_BASELINE_MAX_RUNS];
	double dev[GM_BASELINE_MAX_RUNS];
	int m = 0;

	memset(l, 0, sizeof(*l));
	for (int u = 0; u < nu; u++) {
		int k = 0;
		double nz[GM_BASELINE_MAX_RUNS], cv[GM_BASELINE_MAX_RUNS];
		for (int i = 0; i < n; i++) {
			const struct gm_case_result *c = unit[i] == u ? gm_result_find(&runs[i], name) : NULL;
			if (!c || c->status != GM_CASE_OK || !isfinite(c->value.median))
				continue;
			l->unit = c->unit;
			nz[k] = gm_case_noise(c);
			cv[k] = c->ms.cov_pct;
			v[k++] = c->value.median;
		}
		if (!k)
			continue;
		uv[m] = gm_median_inplace(v, k);
		noise[m] = gm_median_inplace(nz, k);
		cov[m++] = gm_median_inplace(cv, k);
	}
	if (!m)
		return 0;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->n = m;
	l->median = gm_median_inplace(uv, m);
	l->min = uv[0];
	l->max = uv[m - 1];
	for (int i = 0; i < m; i++)
		dev[i] = fabs(uv[i] - l->median);
	l->spread = m >= 3 ? MAD_TO_SIGMA * gm_median_inplace(dev, m) : m == 2 ? fabs(uv[1] - uv[0]) / sqrt(2.0) : 0;
	l->noise = gm_median_inplace(noise, m);
	l->cov_pct = gm_median_inplace(cov, m);
	return 1;
}

gm_status gm_baseline_make(const struct gm_run_result *runs, const char *const *sources, int n,
			   const char *const *cases, int ncases, struct gm_baseline *b)
{
	int unit[GM_BASELINE_MAX_RUNS];
	time_t now = time(NULL);
	gm_status s = check_runs(runs, sources, n, cases, ncases);

	memset(b, 0, sizeof(*b));
	if (s)
		return s;
	b->schema_version = GM_BASELINE_VERSION;
	snprintf(b->sku, sizeof(b->sku), "%s", runs[0].dev.name);
	snprintf(b->tool_version, sizeof(b->tool_version), "%s", GPUMEM_VERSION);
	strftime(b->made_utc, sizeof(b->made_utc), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	b->nunits = units_of(runs, n, unit);
	b->nruns = n;
	for (int i = 0; i < n; i++) {
		struct gm_baseline_run *br = &b->runs[i];
		snprintf(br->uuid, sizeof(br->uuid), "%s", runs[i].dev.uuid);
		snprintf(br->source, sizeof(br->source), "%s", sources[i]);
		snprintf(br->started_utc, sizeof(br->started_utc), "%s", runs[i].started_utc);
		gm_baseline_commit_of(sources[i], br->commit, sizeof(br->commit));
	}
	for (int k = 0; k < ncases && b->nlines < GM_BASELINE_MAX_LINES; k++)
		b->nlines += make_line(runs, n, unit, b->nunits, cases[k], &b->lines[b->nlines]);
	if (!b->nlines)
		return gm_fail(GM_ERR_INVALID_ARG, "no run measured any of the check's cases");
	return GM_OK;
}

const struct gm_baseline_line *gm_baseline_find(const struct gm_baseline *b, const char *name)
{
	for (int i = 0; b && i < b->nlines; i++)
		if (!strcmp(b->lines[i].name, name))
			return &b->lines[i];
	return NULL;
}
