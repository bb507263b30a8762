/*
 * runner.c - the one place that owns the timing policy (docs/METHODOLOGY.md):
 *   prepare (allocate, random inputs) -> verify (poisoned outputs, every
 *   element checked; a failing case gets no number) -> warm-up -> calibrate
 *   launches per sample -> timed samples with CUDA events -> statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/result.h"

#define GIB ((size_t)1 << 30)
#define MAX_LAUNCHES_PER_SAMPLE 4096
/*
 * Warm-up lasts at least this long: on an H100 the first ~10 ms of work
 * after the host-side validation ran up to 17 % slower (clocks ramping up
 * after the GPU idled), which put a CoV of 2-8 % on sub-millisecond cases.
 */
#define WARMUP_MS 50.0

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
	cr->nparams = c->nparams;
	for (int i = 0; i < c->nparams; i++) {
		snprintf(cr->param_keys[i], sizeof(cr->param_keys[i]), "%s", c->params[i].key);
		cr->params[i].key = cr->param_keys[i];
		cr->params[i].value = c->params[i].value;
	}
	gm_predict_case(c, cr);
}

/* Launches per sample so that one sample lasts at least min_ms; *one = one launch. */
static gm_status calibrate(const struct gm_family_ops *ops, void *st, double min_ms, int *launches,
			   double *one)
{
	struct gm_timer *t;
	double ms = 0;
	gm_status s = gm_timer_create(&t, 2);

	if (!s)
		s = gm_timer_mark(t, 0);
	if (!s)
		s = ops->launch(st);
	if (!s)
		s = gm_timer_mark(t, 1);
	if (!s)
		s = gm_timer_between_ms(t, 0, 1, &ms);
	gm_timer_destroy(t);
	*launches = 1;
	*one = ms;
	if (!s && ms > 0 && ms < min_ms) {
		double k = min_ms / ms + 1;
		*launches = k > MAX_LAUNCHES_PER_SAMPLE ? MAX_LAUNCHES_PER_SAMPLE : (int)k;
	}
	return s;
}

/* Untimed launches until WARMUP_MS of device work has run. */
static gm_status warm_up(const struct gm_family_ops *ops, void *st, double launch_ms)
{
	int n = launch_ms > 0 ? (int)(WARMUP_MS / launch_ms) + 1 : 1;
	gm_status s = GM_OK;

	if (n > 20 * MAX_LAUNCHES_PER_SAMPLE)
		n = 20 * MAX_LAUNCHES_PER_SAMPLE;
	for (int i = 0; i < n && !s; i++)
		s = ops->launch(st);
	return s;
}

/*
 * Warm-up, then all samples back to back: mark, launches, mark, launches, ...
 * queued behind the warm-up with no host synchronisation in between, read
 * once at the end.
 */
static gm_status sample_case(const struct gm_family_ops *ops, void *st, const struct gm_runner_opts *o,
			     struct gm_case_result *cr)
{
	struct gm_timer *t = NULL;
	int launches = 1;
	double one = 0;
	gm_status s = GM_OK;

	for (int i = 0; i < o->warmup && !s; i++)
		s = ops->launch(st);
	if (!s)
		s = calibrate(ops, st, o->min_sample_ms, &launches, &one);
	if (!s)
		s = gm_timer_create(&t, o->reps + 1);
	cr->samples_ms = calloc((size_t)o->reps, sizeof(double));
	if (!s && !cr->samples_ms)
		s = GM_ERR_NOMEM;
	if (!s)
		s = warm_up(ops, st, one);
	for (int i = 0; i < o->reps && !s; i++) {
		s = gm_timer_mark(t, i);
		for (int k = 0; k < launches && !s; k++)
			s = ops->launch(st);
	}
	if (!s)
		s = gm_timer_mark(t, o->reps);
	for (int i = 0; i < o->reps && !s; i++) {
		s = gm_timer_between_ms(t, i, i + 1, &cr->samples_ms[i]);
		cr->samples_ms[i] /= launches;
		cr->nsamples += !s;
	}
	gm_timer_destroy(t);
	return s;
}

static void finish_stats(struct gm_case_result *cr, const struct gm_device_info *dev)
{
	const struct gm_traffic *tr = &cr->traffic;

	if (gm_stats_compute(cr->samples_ms, cr->nsamples, &cr->ms))
		return;
	if (cr->ms.median > 0 && tr->bytes_useful > 0) {
		cr->gbs_median = tr->bytes_useful / (cr->ms.median * 1e-3) / 1e9;
		cr->gbs_min = tr->bytes_useful / (cr->ms.max * 1e-3) / 1e9;
		cr->gbs_max = tr->bytes_useful / (cr->ms.min * 1e-3) / 1e9;
		cr->gbs_hw_median = tr->bytes_hw / (cr->ms.median * 1e-3) / 1e9;
		cr->pct_peak = dev->peak_gbs > 0 ? 100.0 * cr->gbs_median / dev->peak_gbs : 0;
	}
	if (cr->kind == GM_KIND_SMEM && tr->accesses > 0)
		cr->ns_per_access = cr->ms.median * 1e6 * dev->sm_count / tr->accesses;
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
	s = ops->prepare(c, cfg, &st, &cr->traffic);
	if (!s)
		s = ops->verify(st, why, sizeof(why));
	cr->verified = s == GM_OK;
	if (!s)
		s = sample_case(ops, st, o, cr);
	if (!s)
		s = gm_gpu_sync();
	if (st)
		ops->release(st);
	if (!s) {
		finish_stats(cr, cfg->dev);
		return GM_OK;
	}
	cr->status = status_of(s);
	snprintf(cr->message, sizeof(cr->message), "%s: %s", gm_strerror(s),
		 *gm_last_error() ? gm_last_error() : why);
	free(cr->samples_ms);
	cr->samples_ms = NULL;
	cr->nsamples = 0;
	/* a case may fail alone; a device that no longer syncs ends the run */
	return s == GM_ERR_CUDA && gm_gpu_sync() ? GM_ERR_CUDA : GM_OK;
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

gm_status gm_run_cases(const struct gm_case *const *cases, int n, const struct gm_runner_opts *o,
		       const struct gm_device_info *dev, struct gm_run_result *r)
{
	struct gm_run_cfg cfg = { o->array_bytes, o->quick, o->seed, dev };
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
	return s;
}
