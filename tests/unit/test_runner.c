/*
 * test_runner.c - the runner's policy with fake families that need no GPU:
 * host- and self-timed cases, their units and extras, skipped cases with a
 * reason, failing validation without a number, release always called (device
 * state restored), an interrupt between cases, derived results, and the
 * sanitizer mode (one launch per case after validation, cfg.sanitize seen), the samples budget, the
 * warm-up's decisions, where a case's wall time went.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "families/family.h"
#include "gpumem/result.h"

enum { F_OK = 0, F_UNSUPPORTED = 1, F_BAD = 2, F_PREPARE_FAILS = 3 };

struct fake {
	int mode;
	int launches, samples;
	int *changed_state;      /* set by prepare, cleared by release: "device state" */
};

static int device_state;     /* what a real case would change (persisting L2 limit) */
static int releases;
static int last_launches, saw_sanitize; /* of the last case released / prepared */
static volatile int stop_after_first;
static volatile int stop_flag;

static gm_status fake_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	(void)cfg;
	if (gm_case_param(c, "mode", 0) != F_UNSUPPORTED)
		return GM_OK;
	snprintf(why, n, "needs a feature this device lacks");
	return GM_ERR_UNSUPPORTED;
}

static gm_status fake_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct fake *f = calloc(1, sizeof(*f));

	saw_sanitize = cfg->sanitize;
	*state = f;
	f->mode = (int)gm_case_param(c, "mode", 0);
	f->changed_state = &device_state;
	device_state = 1;
	t->bytes_useful = t->bytes_hw = 1e6;
	t->ops = 10;
	return f->mode == F_PREPARE_FAILS ? gm_fail(GM_ERR_TOO_LARGE, "needs 9 GiB, 1 GiB free") : GM_OK;
}

static gm_status fake_launch(void *state)
{
	struct fake *f = state;
	struct timespec ts = { 0, 20000 }; /* 20 us of "work" */

	nanosleep(&ts, NULL);
	f->launches++;
	return GM_OK;
}

static gm_status fake_verify(void *state, char *why, size_t n)
{
	struct fake *f = state;

	if (f->mode != F_BAD)
		return GM_OK;
	snprintf(why, n, "word 7 is 0x0, expected 0x1");
	return GM_ERR_VALIDATION;
}

static void fake_release(void *state)
{
	struct fake *f = state;

	*f->changed_state = 0;
	releases++;
	last_launches = f->launches;
	if (stop_after_first)
		stop_flag = 1;
	free(f);
}

/* Self-timed: sample i is 100 + i cycles, its extra (ns) half of it. */
static gm_status fake_sample(void *state, double *v)
{
	struct fake *f = state;

	v[0] = 100 + f->samples;
	v[1] = v[0] / 2;
	f->samples++;
	return GM_OK;
}

static void fake_annotate(void *state, struct gm_case_result *cr)
{
	(void)state;
	gm_result_note(cr, "spill_bytes", GM_UNIT_BYTES, 64);
}

static const struct gm_family_ops fake_ops = {
	fake_prepare, fake_launch, fake_verify, fake_release, fake_supported, fake_sample, fake_annotate,
};

static const struct gm_family_ops *get_fake_ops(void)
{
	return &fake_ops;
}

/* Derived: the ratio of the first two cases' headline values. */
static void fake_derive(struct gm_run_result *r)
{
	const struct gm_case_result *a = gm_result_find(r, "fake.host_us");
	const struct gm_case_result *b = gm_result_find(r, "fake.self_cycles");
	struct gm_derived *d;

	if (!a || !b || a->status || b->status)
		return;
	d = gm_result_derive(r, "fake", "fake.ratio");
	snprintf(d->level, sizeof(d->level), "L1");
	snprintf(d->quantity, sizeof(d->quantity), "latency");
	d->unit = GM_UNIT_CYCLES;
	d->value = b->value.median;
	d->reference = 100;
}

static const struct gm_family fake_family = { "fake", "fake family", NULL, get_fake_ops, fake_derive };

static struct gm_case cases[5];

static void build_cases(void)
{
	gm_case_measure(gm_case_begin(&cases[0], &fake_family, 0, GM_KIND_MEASURE, 0, "host-timed", "host_us"),
			GM_UNIT_US, GM_TIME_HOST);
	gm_case_param_add(&cases[0], "mode", F_OK);
	gm_case_measure(gm_case_begin(&cases[1], &fake_family, 0, GM_KIND_MEASURE, 0, "self", "self_cycles"),
			GM_UNIT_CYCLES, GM_TIME_SELF);
	gm_case_param_add(&cases[1], "mode", F_OK);
	gm_case_extra_add(&cases[1], "ns", GM_UNIT_NS);
	gm_case_measure(gm_case_begin(&cases[2], &fake_family, 0, GM_KIND_MEASURE, 0, "skip", "unsupported"),
			GM_UNIT_US, GM_TIME_HOST);
	gm_case_param_add(&cases[2], "mode", F_UNSUPPORTED);
	gm_case_measure(gm_case_begin(&cases[3], &fake_family, 0, GM_KIND_MEASURE, 0, "bad", "bad"),
			GM_UNIT_US, GM_TIME_HOST);
	gm_case_param_add(&cases[3], "mode", F_BAD);
	gm_case_measure(gm_case_begin(&cases[4], &fake_family, 0, GM_KIND_MEASURE, 0, "big", "too_big"),
			GM_UNIT_GBS, GM_TIME_HOST);
	gm_case_param_add(&cases[4], "mode", F_PREPARE_FAILS);
}

static gm_status run_mode(struct gm_run_result *r, int from, int n, int sanitize)
{
	const struct gm_case *list[5];
	struct gm_device_info dev = { 0 };
	struct gm_runner_opts o = { 0 };

	for (int i = 0; i < n; i++)
		list[i] = &cases[from + i];
	dev.sm_count = 1;
	o.sanitize = sanitize;
	o.reps = sanitize ? 1 : 9;
	o.warmup = !sanitize;
	o.min_sample_ms = 0.2;
	o.stop = &stop_flag;
	build_cases();
	return gm_run_cases(list, n, &o, &dev, r);
}

static gm_status run(struct gm_run_result *r, int from, int n)
{
	return run_mode(r, from, n, 0);
}

/* the samples budget (gm_runner_reps): as many samples as last the budget together, 10 to reps */
static void test_samples_budget(void **state)
{
	static const struct {
		int reps;
		double budget, one_ms;
		int launches, want;
	} t[] = {
		{ 20, 0, 30.0, 1, 20 },      /* no budget: reps */
		{ 20, 150, 30.0, 1, 10 },    /* 30 ms launches (hierarchy.l1v9x16): 5 would do, 10 at least */
		{ 20, 150, 10.08, 1, 15 },   /* copy.blk64_b4: ceil(150 / 10.08) */
		{ 20, 150, 9.1, 1, 17 },     /* copy.scatter_blocks_b4 */
		{ 20, 150, 6.5, 1, 20 },     /* copy.lines_b4: 24 would, reps at most */
		{ 20, 150, 0.05, 11, 20 },   /* short launches, 0.55 ms a sample */
		{ 7, 150, 30.0, 1, 7 },      /* reps under the least: reps (--quick) */
		{ 20, 150, 0, 1, 20 },       /* nothing timed (under a sanitizer): reps */
		{ 20, 150, 150.0, 1, 10 },
		{ 20, 150, 7.5, 1, 20 },     /* exactly 20 samples' worth */
		{ 20, 150, 7.6, 1, 20 },     /* ceil(19.7) */
		{ 20, 150, 7.9, 1, 19 },
	};
	struct gm_runner_opts o = { 0 };
	struct gm_run_result r;

	(void)state;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		o.reps = t[k].reps;
		o.samples_budget_ms = t[k].budget;
		assert_int_equal(gm_runner_reps(&o, t[k].launches, t[k].one_ms), t[k].want);
	}
	/* through the runner: a host-timed case under a budget any sample passes takes the least, whatever the clock */
	const struct gm_case *list[1] = { &cases[0] };
	struct gm_device_info dev = { 0 };

	build_cases();
	dev.sm_count = 1;
	o.reps = 20;
	o.warmup = 1;
	o.min_sample_ms = 0.2;
	o.samples_budget_ms = 1e-9;
	stop_flag = stop_after_first = 0;
	gm_result_init(&r);
	assert_int_equal(gm_run_cases(list, 1, &o, &dev, &r), GM_OK);
	assert_int_equal(r.cases[0].nsamples, GM_BUDGET_MIN_REPS);
	gm_result_release(&r);
	o.samples_budget_ms = 0;
	gm_result_init(&r);
	assert_int_equal(gm_run_cases(list, 1, &o, &dev, &r), GM_OK);
	assert_int_equal(r.cases[0].nsamples, 20);
	gm_result_release(&r);
}

/* the warm-up's decisions (warmup.c): chunks of ~4 ms, done when two agree within 1 % or 50 ms are queued */
static void test_warmup_policy(void **state)
{
	static const struct {
		double one_ms;
		int launches;
		double times[8];   /* the chunks' measured times, 0 = end */
		int queued;        /* chunks queued when it stops */
		int settled;
	} t[] = {
		{ 0.06, 67, { 4.6, 4.1, 4.05, 4.04 }, 5, 1 },   /* ramping clocks, then two within 1 % */
		{ 0.06, 67, { 4.02, 4.03 }, 3, 1 },             /* warm at once: two timed, the third queued */
		{ 1.0, 4, { 4.0, 4.5, 4.0, 4.5, 4.0, 4.5, 4.0, 4.5 }, 13, 0 },   /* never agree: 13 x 4 ms >= 50 */
		{ 10.0, 1, { 10.0, 10.05 }, 3, 1 },             /* long launches: a chunk each */
		{ 30.0, 1, { 30.0 }, 2, 0 },                    /* two launches reach 50 ms before any agree */
		{ 80.0, 1, { 0 }, 1, 0 },                       /* one launch past 50 ms: the old warm-up's one */
		{ 0, 1, { 0 }, 1, 0 },                          /* unknown launch time: one launch */
		{ 1e-4, 40000, { 4.0, 4.0 }, 3, 1 },
		{ 1e-6, 81920, { 0.08, 0.08 }, 3, 1 },          /* at most 20 x 4096 launches a chunk */
	};

	(void)state;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct gm_warmup w;
		int next = 0;

		gm_warmup_begin(&w, t[k].one_ms);
		assert_int_equal(w.launches, t[k].launches);
		/* as the runner's event loop: queue a chunk, then read the one before it */
		while (gm_warmup_more(&w)) {
			w.queued++;
			if (w.queued >= 2 && next < 8 && t[k].times[next] > 0)
				gm_warmup_timed(&w, t[k].times[next++]);
		}
		assert_int_equal(w.queued, t[k].queued);
		assert_int_equal(w.settled, t[k].settled);
	}
}

/* run --sanitize: after validation exactly one launch (a 20 us launch would get ~10 a sample and 50 ms of warm-up) */
static void test_sanitize_one_launch(void **state)
{
	struct gm_run_result r;

	(void)state;
	stop_flag = 0;
	gm_result_init(&r);
	assert_int_equal(run_mode(&r, 0, 1, 1), GM_OK);
	assert_int_equal(r.cases[0].status, GM_CASE_OK);
	assert_int_equal(r.cases[0].nsamples, 1);
	assert_int_equal(last_launches, 1);
	assert_int_equal(saw_sanitize, 1);
	gm_result_release(&r);
	gm_result_init(&r);
	assert_int_equal(run_mode(&r, 0, 1, 0), GM_OK);
	/* more than the sanitizer's one launch: warm-up and samples (how many depends on the host's clock: a loaded
	 * machine's nanosleep overshoots, so no count tied to time) */
	assert_true(last_launches > 1);
	assert_int_equal(saw_sanitize, 0);
	gm_result_release(&r);
}

static void test_units_extras_skip_fail_derive(void **state)
{
	struct gm_run_result r;

	(void)state;
	gm_result_init(&r);
	releases = 0;
	stop_flag = stop_after_first = 0;
	assert_int_equal(run(&r, 0, 5), GM_OK);
	assert_int_equal(r.ncases, 5);

	/* host-timed, us per operation: >= 20 us per launch / 10 ops */
	assert_int_equal(r.cases[0].status, GM_CASE_OK);
	assert_int_equal(r.cases[0].unit, GM_UNIT_US);
	assert_int_equal(r.cases[0].nsamples, 9);
	assert_true(r.cases[0].value.median >= 2.0 && r.cases[0].value.median < 200.0);
	assert_true(r.cases[0].value.min <= r.cases[0].value.median);
	assert_int_equal(r.cases[0].nnotes, 1);
	assert_string_equal(r.cases[0].notes[0].name, "spill_bytes");
	/* its wall time by phase: samples were taken, no retry, the parts within the whole */
	const struct gm_wall_parts *p = &r.cases[0].wall_parts;
	assert_true(p->samples > 0 && p->retries == 0);
	assert_true(p->prepare + p->check + p->warmup + p->samples + p->retries + p->finish <= r.cases[0].wall_s + 1e-9);

	/* self-timed: the runner warms up once, then 9 samples 101..109; extra = half */
	assert_int_equal(r.cases[1].status, GM_CASE_OK);
	assert_true(r.cases[1].value.median == 105.0);
	assert_true(r.cases[1].value.min == 101.0 && r.cases[1].value.max == 109.0);
	assert_int_equal(r.cases[1].nextras, 1);
	assert_string_equal(r.cases[1].extras[0].name, "ns");
	assert_true(r.cases[1].extras[0].median == 52.5);

	/* unsupported: skipped with the reason, never prepared */
	assert_int_equal(r.cases[2].status, GM_CASE_SKIPPED);
	assert_non_null(strstr(r.cases[2].message, "lacks"));
	assert_int_equal(r.cases[2].nsamples, 0);

	/* failed validation: no number, the first mismatch in the message */
	assert_int_equal(r.cases[3].status, GM_CASE_FAILED);
	assert_int_equal(r.cases[3].verified, 0);
	assert_null(r.cases[3].samples_ms);
	assert_non_null(strstr(r.cases[3].message, "word 7"));

	/* prepare failed: an error naming the limit */
	assert_int_equal(r.cases[4].status, GM_CASE_ERROR);
	assert_non_null(strstr(r.cases[4].message, "GiB free"));

	/* release ran for every prepared case (4 of 5) and restored the state */
	assert_int_equal(releases, 4);
	assert_int_equal(device_state, 0);

	/* derived once, from the two good cases */
	assert_int_equal(r.nderived, 1);
	assert_string_equal(r.derived[0].name, "fake.ratio");
	assert_true(r.derived[0].value == 105.0);
	gm_result_release(&r);
}

static void test_interrupt_restores_and_stops(void **state)
{
	struct gm_run_result r;

	(void)state;
	gm_result_init(&r);
	releases = 0;
	stop_flag = 0;
	stop_after_first = 1; /* "Ctrl-C" arrives while the first case runs */
	assert_int_equal(run(&r, 0, 2), GM_ERR_INTERRUPTED);
	stop_after_first = 0;
	assert_int_equal(r.ncases, 1);
	assert_int_equal(r.cases[0].status, GM_CASE_OK);
	assert_int_equal(releases, 1);
	assert_int_equal(device_state, 0);
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_extras_skip_fail_derive),
		cmocka_unit_test(test_interrupt_restores_and_stops),
		cmocka_unit_test(test_sanitize_one_launch),
		cmocka_unit_test(test_samples_budget),
		cmocka_unit_test(test_warmup_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
