/*
 * test_settle.c - the runner's CoV limit (case param cov_limit_bp): a case
 * above its limit is measured again at most twice, the quietest attempt is
 * kept, and notes attempts / spread_pct / unstable say what happened; a case
 * without a limit gets none of them. Fake self-timed family, no GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/result.h"

enum { QUIET = 0, NOISY_FIRST = 1, NOISY = 2, MILD = 3 };
#define WARMUP 1
#define REPS 9

struct fake {
	int mode, n;
};

static gm_status fake_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct fake *f = calloc(1, sizeof(*f));
	(void)cfg;
	f->mode = (int)gm_case_param(c, "mode", QUIET);
	*state = f;
	t->bytes_useful = t->bytes_hw = 1e9;
	return GM_OK;
}

static gm_status fake_launch(void *state)
{
	(void)state;
	return GM_OK;
}

static gm_status fake_verify(void *state, char *why, size_t n)
{
	(void)state, (void)why, (void)n;
	return GM_OK;
}

static void fake_release(void *state)
{
	free(state);
}

/* GB/s samples: 100 +- 0.05 when quiet, 100 / 120 alternating when noisy (CoV ~9.5 %). */
static gm_status fake_sample(void *state, double *v)
{
	struct fake *f = state;
	int attempt = f->n / (WARMUP + REPS);
	int noisy = f->mode == NOISY || (f->mode == NOISY_FIRST && attempt == 0);

	if (f->mode == MILD) /* CoV ~1.3 %: above a 1 % limit, below twice it */
		v[0] = f->n % 2 ? 102.5 : 100;
	else
		v[0] = noisy ? (f->n % 2 ? 120 : 100) : 100 + (f->n % 2 ? 0.05 : -0.05);
	f->n++;
	return GM_OK;
}

static const struct gm_family_ops fake_ops = {
	fake_prepare, fake_launch, fake_verify, fake_release, NULL, fake_sample, NULL,
};

static const struct gm_family_ops *get_fake_ops(void)
{
	return &fake_ops;
}

static const struct gm_family fake_family = { "fake", "fake family", NULL, get_fake_ops, NULL };

static double note(const struct gm_case_result *cr, const char *name, int *found)
{
	*found = 0;
	for (int i = 0; i < cr->nnotes; i++)
		if (!strcmp(cr->notes[i].name, name)) {
			*found = 1;
			return cr->notes[i].median;
		}
	return 0;
}

static void test_cov_limit_retries(void **st)
{
	static struct gm_case cases[5];
	const struct gm_case *list[5];
	static const char *const label[] = { "quiet", "noisy_first", "noisy", "no_limit", "mild" };
	static const int mode[] = { QUIET, NOISY_FIRST, NOISY, NOISY, MILD };
	struct gm_device_info dev = { 0 };
	struct gm_runner_opts o = { 0 };
	struct gm_run_result r;
	int found;
	(void)st;

	for (int i = 0; i < 5; i++) {
		gm_case_measure(gm_case_begin(&cases[i], &fake_family, 0, GM_KIND_MEASURE, 0, "fake", "%s", label[i]),
				GM_UNIT_GBS, GM_TIME_SELF);
		gm_case_param_add(&cases[i], "mode", mode[i]);
		if (i != 3)
			gm_case_param_add(&cases[i], "cov_limit_bp", 100);
		list[i] = &cases[i];
	}
	dev.sm_count = 1;
	o.reps = REPS;
	o.warmup = WARMUP;
	gm_result_init(&r);
	assert_int_equal(gm_run_cases(list, 5, &o, &dev, &r), GM_OK);
	assert_int_equal(r.ncases, 5);

	/* quiet: one attempt, stable */
	assert_true(note(&r.cases[0], "attempts", &found) == 1 && found);
	assert_true(note(&r.cases[0], "unstable", &found) == 0 && found);
	assert_true(r.cases[0].ms.cov_pct < 1);

	/* noisy first, quiet after: the second attempt is kept, the spread remembers the first */
	assert_true(note(&r.cases[1], "attempts", &found) == 2);
	assert_true(note(&r.cases[1], "unstable", &found) == 0 && found);
	assert_true(r.cases[1].ms.cov_pct < 1);
	assert_true(fabs(r.cases[1].value.median - 100) < 0.1);
	assert_true(fabs(note(&r.cases[1], "spread_pct", &found) - 20.05) < 0.2 && found);

	/* always noisy, far above the limit: one retry (still above twice the limit: not a transient), flagged */
	assert_true(note(&r.cases[2], "attempts", &found) == 2);
	assert_true(note(&r.cases[2], "unstable", &found) == 1);
	assert_true(r.cases[2].ms.cov_pct > 1);
	assert_int_equal(r.cases[2].status, GM_CASE_OK);
	assert_int_equal(r.cases[2].nsamples, REPS);

	/* no limit declared: sampled once, no notes */
	note(&r.cases[3], "attempts", &found);
	assert_false(found);
	assert_int_equal(r.cases[3].nnotes, 0);

	/* a little above the limit every time: both retries, then flagged */
	assert_true(note(&r.cases[4], "attempts", &found) == 3);
	assert_true(note(&r.cases[4], "unstable", &found) == 1);
	assert_true(r.cases[4].ms.cov_pct > 1 && r.cases[4].ms.cov_pct < 2);
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cov_limit_retries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
