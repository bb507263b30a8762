/*
 * runner.c - the one place that owns the timing policy (docs/METHODOLOGY.md):
 *   supported? (else skipped with the reason) -> prepare (allocate, random
 *   inputs) -> verify (poisoned outputs, every element checked; a failing
 *   case gets no number) -> untimed launches -> calibrate launches per sample -> warm-up until two chunks
 *   agree (warmup.c) -> timed samples (CUDA events, the host clock, or the case's own clock; under the
 *   samples budget fewer where they are long, gm_runner_reps) -> CoV retries where a case asks ->
 *   release (restores any device state) -> statistics -> derived results. Each phase's wall time goes to
 *   the case's wall_parts.
 *   Sanitizer mode (o->sanitize): verify, then one launch per sample, nothing else.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/bench.h"
#include "gpumem/result.h"
#include "bench/case_counters.h"

#define GIB ((size_t)1 << 30)
#define MAX_LAUNCHES_PER_SAMPLE 4096

size_t gm_default_array_bytes(const struct gm_device_info *dev, int quick)
{
	size_t target = quick ? GIB : 4 * GIB;
	size_t free_b = dev->free_mem > 0 ? (size_t)dev->free_mem : 0;

	/* up to three arrays live at once, plus a reserve for the context */
	while (target > 256u << 20 && 3 * target + GIB > free_b)
		target /= 2;
	return target;
}

static void result_begin(struct gm_case_result *cr, const struct gm_case *c)
{
	snprintf(cr->name, sizeof(cr->name), "%s", c->name);
	snprintf(cr->family, sizeof(cr->family), "%s", c->family->name);
	snprintf(cr->label, sizeof(cr->label), "%s", c->label);
	cr->version = c->version;
	cr->kind = c->kind;
	cr->unit = c->unit;
	cr->timing = c->timing;
	cr->nparams = c->nparams;
	for (int i = 0; i < c->nparams; i++) {
		snprintf(cr->param_keys[i], sizeof(cr->param_keys[i]), "%s", c->params[i].key);
		cr->params[i].key = cr->param_keys[i];
		cr->params[i].value = c->params[i].value;
	}
	cr->nextras = c->nextras;
	for (int i = 0; i < c->nextras; i++) {
		snprintf(cr->extras[i].name, sizeof(cr->extras[i].name), "%s", c->extras[i].name);
		cr->extras[i].unit = c->extras[i].unit;
	}
	gm_predict_case(c, cr);
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/*
 * Launches per sample so that one sample lasts at least min_ms; *one = one
 * launch. Device work is timed with events, host-domain work (launches that
 * return complete) with the monotonic clock.
 */
static gm_status calibrate(const struct gm_family_ops *ops, void *st, enum gm_timing timing,
			   double min_ms, int *launches, double *one)
{
	struct gm_timer *t = NULL;
	double ms = 0, t0;
	gm_status s = GM_OK;

	if (timing == GM_TIME_HOST) {
		t0 = now_ms();
		s = ops->launch(st);
		ms = now_ms() - t0;
	} else {
		s = gm_timer_create(&t, 2);
		if (!s)
			s = gm_timer_mark(t, 0);
		if (!s)
			s = ops->launch(st);
		if (!s)
			s = gm_timer_mark(t, 1);
		if (!s)
			s = gm_timer_between_ms(t, 0, 1, &ms);
		gm_timer_destroy(t);
	}
	*launches = 1;
	*one = ms;
	if (!s && ms > 0 && ms < min_ms) {
		double k = min_ms / ms + 1;
		*launches = k > MAX_LAUNCHES_PER_SAMPLE ? MAX_LAUNCHES_PER_SAMPLE : (int)k;
	}
	return s;
}

static gm_status launch_n(const struct gm_family_ops *ops, void *st, int n)
{
	gm_status s = GM_OK;

	for (int i = 0; i < n && !s; i++)
		s = ops->launch(st);
	return s;
}

/*
 * Device work: chunks queued with a mark after each; after queuing a chunk the one before it is read, so the
 * GPU always has the next chunk queued while the host compares, and the samples queue behind the last chunk
 * with no idle gap (an idle GPU's clocks drop; warmup.c decides when to stop).
 */
static gm_status warm_up_events(const struct gm_family_ops *ops, void *st, double one)
{
	struct gm_warmup w;
	struct gm_timer *t = NULL;
	gm_status s = gm_timer_create(&t, GM_WARMUP_MAX_CHUNKS + 1);

	gm_warmup_begin(&w, one);
	if (!s)
		s = gm_timer_mark(t, 0);
	while (!s && gm_warmup_more(&w)) {
		double ms = 0;
		s = launch_n(ops, st, w.launches);
		if (!s)
			s = gm_timer_mark(t, ++w.queued);
		if (!s && w.queued >= 2 && !(s = gm_timer_between_ms(t, w.queued - 2, w.queued - 1, &ms)))
			gm_warmup_timed(&w, ms);
	}
	gm_timer_destroy(t);   /* a destroyed event still queued completes normally */
	return s;
}

/* Host-domain work: each chunk returns complete; the host clock times it. */
static gm_status warm_up_host(const struct gm_family_ops *ops, void *st, double one)
{
	struct gm_warmup w;
	gm_status s = GM_OK;

	gm_warmup_begin(&w, one);
	while (!s && gm_warmup_more(&w)) {
		double t0 = now_ms();
		s = launch_n(ops, st, w.launches);
		w.queued++;
		gm_warmup_timed(&w, now_ms() - t0);
	}
	return s;
}

/*
 * Device work: all samples back to back (mark, launches, mark, launches,
 * ...) queued behind the warm-up with no host synchronisation in between,
 * read once at the end.
 */
static gm_status sample_events(const struct gm_family_ops *ops, void *st, int reps, int launches,
			       struct gm_case_result *cr)
{
	struct gm_timer *t = NULL;
	gm_status s = gm_timer_create(&t, reps + 1);

	for (int i = 0; i < reps && !s; i++) {
		s = gm_timer_mark(t, i);
		for (int k = 0; k < launches && !s; k++)
			s = ops->launch(st);
	}
	if (!s)
		s = gm_timer_mark(t, reps);
	for (int i = 0; i < reps && !s; i++) {
		s = gm_timer_between_ms(t, i, i + 1, &cr->samples_ms[i]);
		cr->samples_ms[i] /= launches;
		cr->nsamples += !s;
	}
	gm_timer_destroy(t);
	return s;
}

/* Host-domain work: each launch returns complete; the host clock brackets a sample. */
static gm_status sample_host(const struct gm_family_ops *ops, void *st, int reps, int launches,
			     struct gm_case_result *cr)
{
	gm_status s = GM_OK;

	for (int i = 0; i < reps && !s; i++) {
		double t0 = now_ms();
		for (int k = 0; k < launches && !s; k++)
			s = ops->launch(st);
		cr->samples_ms[i] = (now_ms() - t0) / launches;
		cr->nsamples += !s;
	}
	return s;
}

/*
 * How many samples: reps, or under a budget (o->samples_budget_ms, calibrate's) as many as last that long
 * together (a sample being `launches` launches of `one` ms each, as calibration timed one), at least
 * GM_BUDGET_MIN_REPS and at most reps. Only samples longer than budget / reps (7.5 ms for calibrate's 150 ms and 20
 * samples: launches of 7.5 ms and more, one a sample) are fewer than reps; in the committed calibrate runs their
 * samples' CoV was 0.01-0.1 % and the median of the first 10-17 within 0.03 % of all 20's. Warm-up as always.
 */
int gm_runner_reps(const struct gm_runner_opts *o, int launches, double one)
{
	double sample = launches * one, n;

	if (!(o->samples_budget_ms > 0) || !(sample > 0) || o->reps <= GM_BUDGET_MIN_REPS)
		return o->reps;
	n = ceil(o->samples_budget_ms / sample);
	return n < GM_BUDGET_MIN_REPS ? GM_BUDGET_MIN_REPS : n < o->reps ? (int)n : o->reps;
}

/*
 * Samples of EVENTS and HOST cases: untimed launches (module load, first touch; not again on a retry, the case
 * has run), calibration, warm-up, then the samples. `parts`: where the warm-up's and the samples' wall time go
 * (NULL on a retry: the retry is timed as a whole).
 */
static gm_status sample_timed(const struct gm_family_ops *ops, void *st, const struct gm_runner_opts *o,
			      struct gm_case_result *cr, struct gm_wall_parts *parts)
{
	int launches = 1;
	double one = 0, t0 = now_ms();
	gm_status s = parts ? launch_n(ops, st, o->warmup) : GM_OK;

	/* under a sanitizer a launch costs 10-10^4 times more: calibration and warm-up would be most of a case */
	if (!s && !o->sanitize)
		s = calibrate(ops, st, cr->timing, o->min_sample_ms, &launches, &one);
	if (!s && !o->sanitize)
		s = cr->timing == GM_TIME_HOST ? warm_up_host(ops, st, one) : warm_up_events(ops, st, one);
	if (s)
		return s;
	if (parts)
		parts->warmup += (now_ms() - t0) * 1e-3;
	t0 = now_ms();
	if (cr->timing == GM_TIME_HOST)
		s = sample_host(ops, st, gm_runner_reps(o, launches, one), launches, cr);
	else if (!(s = sample_events(ops, st, gm_runner_reps(o, launches, one), launches, cr)))
		s = gm_gpu_sync();
	if (parts)
		parts->samples += (now_ms() - t0) * 1e-3;
	return s;
}

/*
 * SELF cases: the case returns each sample in its unit (values[0]) with its
 * extras; the runner still owns warm-up, count and statistics. The extras'
 * samples are kept in the tail of samples_ms's allocation.
 */
static gm_status sample_self(const struct gm_family_ops *ops, void *st, const struct gm_runner_opts *o,
			     struct gm_case_result *cr, double *extra_samples, struct gm_wall_parts *parts)
{
	double v[1 + GM_MAX_EXTRAS], t0 = now_ms();
	gm_status s = ops->sample ? GM_OK : gm_fail(GM_ERR_INVALID_ARG, "self-timed case has no sampler");

	for (int i = 0; i < o->warmup && !s && parts; i++)
		s = ops->sample(st, v);
	if (parts) {
		parts->warmup += (now_ms() - t0) * 1e-3;
		t0 = now_ms();
	}
	for (int i = 0; i < o->reps && !s; i++) {
		memset(v, 0, sizeof(v));
		s = ops->sample(st, v);
		if (s)
			break;
		cr->samples_ms[i] = v[0];
		for (int k = 0; k < cr->nextras; k++)
			extra_samples[k * o->reps + i] = v[1 + k];
		cr->nsamples++;
	}
	if (parts)
		parts->samples += (now_ms() - t0) * 1e-3;
	return s;
}

/* A case's samples: the first attempt with parts to fill, a retry (parts NULL) without its untimed launches. */
static gm_status sample_case(const struct gm_family_ops *ops, void *st, const struct gm_runner_opts *o,
			     struct gm_case_result *cr, struct gm_wall_parts *parts)
{
	double *extra;
	gm_status s;

	/* one allocation: reps samples, then reps samples of each extra */
	cr->samples_ms = calloc((size_t)o->reps * (size_t)(1 + GM_MAX_EXTRAS), sizeof(double));
	if (!cr->samples_ms)
		return GM_ERR_NOMEM;
	extra = cr->samples_ms + o->reps;
	if (cr->timing != GM_TIME_SELF)
		return sample_timed(ops, st, o, cr, parts);
	s = sample_self(ops, st, o, cr, extra, parts);
	for (int k = 0; k < cr->nextras && !s; k++) {
		struct gm_stats x;
		if (!gm_stats_compute(extra + k * o->reps, cr->nsamples, &x)) {
			cr->extras[k].median = x.median;
			cr->extras[k].min = x.min;
			cr->extras[k].max = x.max;
		}
	}
	return s;
}

/*
 * A case may declare a CoV limit (param cov_limit_bp, in 1/100 %): while its
 * samples' CoV is above it they are taken again, at most COV_RETRIES more
 * times, and the attempt with the smallest CoV is kept. A retry is for a
 * transient: when the first retry is still above twice the limit the platform
 * is noisy for seconds at a time, and the second is not taken (it costs the
 * suite's time and rarely lands). Notes (the limit is
 * the param): attempts, spread_pct (largest minus smallest sample over every attempt, in
 * % of the kept median) and unstable (1 when the kept attempt is still above
 * the limit: the row and the JSON say so, the number is not hidden).
 */
#define COV_RETRIES 2
static gm_status settle(const struct gm_case *c, const struct gm_family_ops *ops, void *st,
			const struct gm_runner_opts *o, struct gm_case_result *cr)
{
	double limit = (double)gm_case_param(c, "cov_limit_bp", 0) / 100.0;
	struct gm_stats best, x;
	struct gm_value extras[GM_MAX_EXTRAS];
	double lo, hi;
	int attempts = 1, persistent = 0;
	gm_status s = GM_OK;

	if (limit <= 0 || o->sanitize || gm_stats_compute(cr->samples_ms, cr->nsamples, &best))
		return GM_OK;
	lo = best.min;
	hi = best.max;
	while (best.cov_pct > limit && attempts <= COV_RETRIES && !(o->stop && *o->stop)) {
		double *kept = cr->samples_ms;
		int nkept = cr->nsamples;
		memcpy(extras, cr->extras, sizeof(extras));
		cr->samples_ms = NULL;
		cr->nsamples = 0;
		attempts++;
		double t0 = now_ms();
		s = sample_case(ops, st, o, cr, NULL);
		cr->wall_parts.retries += (now_ms() - t0) * 1e-3;
		if (s || gm_stats_compute(cr->samples_ms, cr->nsamples, &x)) {
			free(cr->samples_ms);
			cr->samples_ms = kept;
			cr->nsamples = nkept;
			memcpy(cr->extras, extras, sizeof(extras));
			break;
		}
		lo = x.min < lo ? x.min : lo;
		hi = x.max > hi ? x.max : hi;
		persistent = x.cov_pct > 2 * limit;
		if (x.cov_pct < best.cov_pct) {
			free(kept);
			best = x;
		} else {
			free(cr->samples_ms);
			cr->samples_ms = kept;
			cr->nsamples = nkept;
			memcpy(cr->extras, extras, sizeof(extras));
		}
		if (persistent)
			break;
	}
	gm_result_note(cr, "attempts", GM_UNIT_RATIO, attempts);
	gm_result_note(cr, "spread_pct", GM_UNIT_PCT, best.median > 0 ? 100.0 * (hi - lo) / best.median : 0);
	gm_result_note(cr, "unstable", GM_UNIT_RATIO, best.cov_pct > limit);
	return s;
}

/* The headline value in the case's unit, from the time statistics. */
static void headline(struct gm_case_result *cr, const struct gm_device_info *dev)
{
	const struct gm_traffic *tr = &cr->traffic;
	double ops = tr->ops > 0 ? tr->ops : 1;
	struct gm_value *v = &cr->value;

	snprintf(v->name, sizeof(v->name), "%s", "value");
	v->unit = cr->unit;
	if (cr->timing == GM_TIME_SELF) {
		v->median = cr->ms.median;
		v->min = cr->ms.min;
		v->max = cr->ms.max;
		return;
	}
	switch (cr->unit) {
	case GM_UNIT_GBS:
		if (tr->bytes_useful > 0 && cr->ms.median > 0) {
			v->median = tr->bytes_useful / (cr->ms.median * 1e-3) / 1e9;
			v->min = tr->bytes_useful / (cr->ms.max * 1e-3) / 1e9;
			v->max = tr->bytes_useful / (cr->ms.min * 1e-3) / 1e9;
		}
		break;
	case GM_UNIT_NS_ACCESS:
		if (tr->accesses > 0) {
			double k = 1e6 * dev->sm_count / tr->accesses;
			v->median = cr->ms.median * k;
			v->min = cr->ms.min * k;
			v->max = cr->ms.max * k;
		}
		break;
	case GM_UNIT_US:
	case GM_UNIT_NS: {
		double k = (cr->unit == GM_UNIT_US ? 1e3 : 1e6) / ops;
		v->median = cr->ms.median * k;
		v->min = cr->ms.min * k;
		v->max = cr->ms.max * k;
		break;
	}
	default: /* rates of operations: ops per second in the unit's scale */
		if (cr->ms.median > 0) {
			double k = cr->unit == GM_UNIT_TFLOPS ? 1e-12 : 1;
			v->median = ops / (cr->ms.median * 1e-3) * k;
			v->min = ops / (cr->ms.max * 1e-3) * k;
			v->max = ops / (cr->ms.min * 1e-3) * k;
		}
	}
}

static void finish_stats(struct gm_case_result *cr, const struct gm_device_info *dev)
{
	const struct gm_traffic *tr = &cr->traffic;

	if (gm_stats_compute(cr->samples_ms, cr->nsamples, &cr->ms))
		return;
	headline(cr, dev);
	if (cr->unit == GM_UNIT_GBS) {
		cr->gbs_median = cr->value.median;
		cr->gbs_min = cr->value.min;
		cr->gbs_max = cr->value.max;
		if (cr->timing != GM_TIME_SELF && cr->ms.median > 0)
			cr->gbs_hw_median = tr->bytes_hw / (cr->ms.median * 1e-3) / 1e9;
		/* % of the DRAM peak means something for DRAM cases only */
		if (cr->kind == GM_KIND_DRAM && dev->peak_gbs > 0)
			cr->pct_peak = 100.0 * cr->gbs_median / dev->peak_gbs;
	}
	if (cr->kind == GM_KIND_SMEM)
		cr->ns_per_access = cr->value.median;
	/* the model's bound: the peak, scaled by the share of moved sectors that is useful */
	if (cr->kind == GM_KIND_DRAM && tr->bytes_hw > 0)
		cr->pred_gbs = dev->peak_gbs * tr->bytes_useful / tr->bytes_hw;
}

static enum gm_case_status status_of(gm_status s)
{
	if (s == GM_ERR_VALIDATION)
		return GM_CASE_FAILED;
	if (s == GM_ERR_UNSUPPORTED || s == GM_ERR_NO_DEVICE)
		return GM_CASE_SKIPPED;
	return GM_CASE_ERROR;
}

/* A case's own failure: status and message, no samples. */
static void case_failed(struct gm_case_result *cr, gm_status s, const char *why)
{
	cr->status = status_of(s);
	snprintf(cr->message, sizeof(cr->message), "%s: %s", gm_strerror(s),
		 *gm_last_error() ? gm_last_error() : why);
	free(cr->samples_ms);
	cr->samples_ms = NULL;
	cr->nsamples = 0;
}

/* Run one case; returns a status only for failures that end the whole run. */
static gm_status run_one(const struct gm_case *c, const struct gm_runner_opts *o,
			 const struct gm_run_cfg *cfg, struct gm_case_result *cr)
{
	const struct gm_family_ops *ops = c->family->ops ? c->family->ops() : NULL;
	void *st = NULL;
	char why[256] = "";
	gm_status s;

	result_begin(cr, c);
	if (!ops) {
		cr->status = GM_CASE_SKIPPED;
		snprintf(cr->message, sizeof(cr->message), "built without CUDA");
		return GM_OK;
	}
	gm_clear_error();
	s = ops->supported ? ops->supported(c, cfg, why, sizeof(why)) : GM_OK;
	if (s) {
		case_failed(cr, s, why);
		return GM_OK;
	}
	double t0 = now_ms(), t1;
	s = ops->prepare(c, cfg, &st, &cr->traffic);
	t1 = now_ms();
	cr->wall_parts.prepare = (t1 - t0) * 1e-3;
	if (!s)
		s = ops->verify(st, why, sizeof(why));
	cr->verified = s == GM_OK;
	cr->wall_parts.check = (now_ms() - t1) * 1e-3;
	if (!s) {
		gm_gpu_range_push(c->name);
		s = sample_case(ops, st, o, cr, &cr->wall_parts);
		if (!s)
			s = settle(c, ops, st, o, cr);
		gm_gpu_range_pop();
	}
	t1 = now_ms();
	if (!s && ops->annotate)
		ops->annotate(st, cr);
	if (!s && o->counters)
		gm_case_counters(c, ops, st, o->counters, cfg->dev, cr);
	if (st)
		ops->release(st);
	cr->wall_parts.finish = (now_ms() - t1) * 1e-3;
	cr->wall_s = (now_ms() - t0) * 1e-3;
	gm_gpu_clear_error();   /* an error the case ignored must not fail the next one */
	if (!s) {
		finish_stats(cr, cfg->dev);
		return GM_OK;
	}
	case_failed(cr, s, why);
	/* a case may fail alone; a device that no longer syncs ends the run */
	return s == GM_ERR_CUDA && c->timing != GM_TIME_HOST && gm_gpu_sync() ? GM_ERR_CUDA : GM_OK;
}

/* SMEM cases: slowdown against the ideal case of the same family and group. */
static void compute_slowdowns(struct gm_run_result *r, int from)
{
	for (int i = from; i < r->ncases; i++) {
		struct gm_case_result *a = &r->cases[i];
		if (a->kind != GM_KIND_SMEM || a->status != GM_CASE_OK)
			continue;
		for (int j = from; j < r->ncases; j++) {
			struct gm_case_result *b = &r->cases[j];
			int64_t ga = -1, gb = -2, ideal = 0;
			for (int k = 0; k < a->nparams; k++)
				if (!strcmp(a->param_keys[k], "group"))
					ga = a->params[k].value;
			for (int k = 0; k < b->nparams; k++) {
				if (!strcmp(b->param_keys[k], "group"))
					gb = b->params[k].value;
				if (!strcmp(b->param_keys[k], "ideal"))
					ideal = b->params[k].value;
			}
			if (ga == gb && ideal && b->status == GM_CASE_OK && b->ns_per_access > 0 &&
			    !strcmp(a->family, b->family))
				a->slowdown = a->ns_per_access / b->ns_per_access;
		}
	}
}

/* Each family that ran derives its results once, in the order the families first ran. */
static void derive_all(const struct gm_case *const *cases, int n, struct gm_run_result *r)
{
	for (int i = 0; i < n; i++) {
		const struct gm_family *f = cases[i]->family;
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = cases[j]->family == f;
		if (!seen && f->derive)
			f->derive(r);
	}
}

void gm_rederive(struct gm_run_result *r)
{
	r->nderived = 0;
	for (int i = 0; i < r->ncases; i++) {
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(r->cases[j].family, r->cases[i].family);
		for (int f = 0; !seen && gm_families[f]; f++)
			if (!strcmp(gm_families[f]->name, r->cases[i].family) && gm_families[f]->derive)
				gm_families[f]->derive(r);
	}
}

gm_status gm_run_cases(const struct gm_case *const *cases, int n, const struct gm_runner_opts *o,
		       const struct gm_device_info *dev, struct gm_run_result *r)
{
	struct gm_run_cfg cfg = { o->array_bytes, o->quick, o->seed, dev, o->sanitize };
	int first = r->ncases;
	gm_status s = GM_OK;

	if (!cfg.array_bytes)
		cfg.array_bytes = gm_default_array_bytes(dev, o->quick);
	r->array_bytes = cfg.array_bytes;
	for (int i = 0; i < n && !s; i++) {
		struct gm_case_result *cr;
		if (o->stop && *o->stop) {
			s = GM_ERR_INTERRUPTED;
			break;
		}
		if (o->progress)
			o->progress(o->ctx, i, n, cases[i]);
		cr = gm_result_add(r);
		if (!cr)
			return GM_ERR_NOMEM;
		cfg.seed = o->seed + (uint32_t)i * 0x9E3779B9u;
		s = run_one(cases[i], o, &cfg, cr);
	}
	compute_slowdowns(r, first);
	derive_all(cases, n, r);
	return s;
}
