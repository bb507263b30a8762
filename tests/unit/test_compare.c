/*
 * test_compare.c - `gpumem compare`: a planted 10 % regression is flagged,
 * two runs that differ only by noise pass, direction follows the unit,
 * cases in one run only are listed, broken cases count as regressions;
 * runs with different cases merge for the report.
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
#include "gpumem/compare.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

/* One case with median m and spread +-s (in its unit). */
static void add(struct gm_run_result *r, const char *name, enum gm_unit u, double m, double s)
{
	struct gm_case_result *c = gm_result_add(r);

	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->family, sizeof(c->family), "%.*s", (int)(strchr(name, '.') - name), name);
	c->unit = u;
	c->verified = 1;
	c->value.median = m;
	c->value.min = m - s;
	c->value.max = m + s;
}

/* A run of a few cases; scale multiplies every median, jitter moves each by +-0.3 %. */
static void make_run(struct gm_run_result *r, double gbs_scale, double cyc_scale, int jitter)
{
	gm_result_init(r);
	r->have_device = 1;
	snprintf(r->dev.name, sizeof(r->dev.name), "Test GPU");
	r->schema_version = 2;
	for (int i = 0; i < 20; i++) {
		char name[32];
		double j = jitter ? 1 + 0.003 * ((i % 3) - 1) : 1;
		snprintf(name, sizeof(name), "copy.v%d", i);
		add(r, name, GM_UNIT_GBS, 3000 * gbs_scale * j, 15);          /* +-0.5 % spread */
		snprintf(name, sizeof(name), "latency.f%d", i);
		add(r, name, GM_UNIT_CYCLES, 600 * cyc_scale * j, 3);
	}
}

static const struct gm_compare_row *row(const struct gm_comparison *c, const char *name)
{
	for (int i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}

static void test_noise_passes(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;

	(void)state;
	make_run(&a, 1, 1, 0);
	make_run(&b, 1, 1, 1);
	assert_int_equal(gm_compare_runs(&a, &b, 5, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	assert_int_equal(c.nbetter, 0);
	assert_int_equal(c.nonly_a + c.nonly_b, 0);
	assert_false(c.different_device);
	gm_comparison_release(&c);
	/* even with a 0 % threshold, noise inside the spread is not a regression */
	assert_int_equal(gm_compare_runs(&a, &b, 0, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	gm_comparison_release(&c);
	gm_result_release(&a);
	gm_result_release(&b);
}

static void test_planted_regression(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;
	const struct gm_compare_row *r;

	(void)state;
	make_run(&a, 1, 1, 0);
	make_run(&b, 1, 1, 1);
	b.cases[6].value.median *= 0.9;          /* copy.v3: 10 % fewer GB/s */
	b.cases[6].value.min *= 0.9;
	b.cases[6].value.max *= 0.9;
	assert_int_equal(gm_compare_runs(&a, &b, 5, &c), GM_OK);
	assert_int_equal(c.nworse, 1);
	r = row(&c, "copy.v3");
	assert_non_null(r);
	assert_int_equal(r->verdict, GM_WORSE);
	assert_true(r->beyond_noise);
	assert_true(fabs(r->worse_pct - 10.0) < 0.5);
	assert_true(fabs(r->ratio - 0.9) < 0.005);
	gm_comparison_release(&c);
	/* a 15 % threshold lets it pass */
	assert_int_equal(gm_compare_runs(&a, &b, 15, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	gm_comparison_release(&c);
	gm_result_release(&a);
	gm_result_release(&b);
}

/* cycles: lower is better, so 10 % more cycles regresses and 10 % fewer improves. */
static void test_direction(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;

	(void)state;
	make_run(&a, 1, 1, 0);
	make_run(&b, 1, 1.1, 0);
	assert_int_equal(gm_compare_runs(&a, &b, 5, &c), GM_OK);
	assert_int_equal(c.nworse, 20);
	assert_int_equal(row(&c, "latency.f0")->verdict, GM_WORSE);
	gm_comparison_release(&c);
	gm_result_release(&b);
	make_run(&b, 1.1, 0.9, 0);
	assert_int_equal(gm_compare_runs(&a, &b, 5, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	assert_int_equal(c.nbetter, 40);
	gm_comparison_release(&c);
	gm_result_release(&a);
	gm_result_release(&b);
}

static void test_only_and_broken(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	make_run(&a, 1, 1, 0);
	make_run(&b, 1, 1, 0);
	add(&a, "stride.gone", GM_UNIT_GBS, 100, 1);
	add(&b, "stride.new", GM_UNIT_GBS, 100, 1);
	b.cases[0].status = GM_CASE_FAILED;       /* copy.v0 broke */
	snprintf(b.dev.name, sizeof(b.dev.name), "Other GPU");
	b.schema_version = 1;
	assert_int_equal(gm_compare_runs(&a, &b, 5, &c), GM_OK);
	assert_int_equal(c.nonly_a, 1);
	assert_int_equal(c.nonly_b, 1);
	assert_int_equal(c.nworse, 1);
	assert_int_equal(row(&c, "copy.v0")->verdict, GM_BROKEN);
	assert_int_equal(row(&c, "stride.gone")->verdict, GM_ONLY_A);
	assert_int_equal(row(&c, "stride.new")->verdict, GM_ONLY_B);
	assert_true(c.different_device);
	assert_true(c.different_schema);
	gm_compare_write_text(f, &c, &a, &b, 0);
	fclose(f);
	assert_non_null(strstr(buf, "only in B"));
	assert_non_null(strstr(buf, "BROKEN"));
	assert_null(strstr(buf, "\033["));        /* no colour when asked for none */
	gm_comparison_release(&c);
	assert_int_equal(gm_compare_runs(&a, &b, -1, &c), GM_ERR_INVALID_ARG);
	gm_result_release(&a);
	gm_result_release(&b);
}

static void test_merge(void **state)
{
	struct gm_run_result r[2];

	(void)state;
	gm_result_init(&r[0]);
	gm_result_init(&r[1]);
	add(&r[0], "copy.a", GM_UNIT_GBS, 1, 0);
	add(&r[1], "gemm.b", GM_UNIT_TFLOPS, 2, 0);
	assert_true(gm_runs_disjoint(r, 2));
	assert_int_equal(gm_runs_merge(&r[0], &r[1], 1), GM_OK);
	assert_int_equal(r[0].ncases, 2);
	assert_string_equal(r[0].cases[1].name, "gemm.b");
	assert_false(gm_runs_disjoint(r, 1) == 0);
	add(&r[1], "copy.a", GM_UNIT_GBS, 1, 0);
	assert_false(gm_runs_disjoint(r, 2));
	gm_result_release(&r[0]);
	gm_result_release(&r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_passes),
		cmocka_unit_test(test_planted_regression),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_only_and_broken),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
