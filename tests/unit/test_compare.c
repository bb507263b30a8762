/* gpumem compare: a planted 10 % regression is flagged, noise is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpumem/compare.h"
#include "gpumem/result.h"

static void add(struct gm_run_result *r, const char *name, enum gm_unit u, double med, double spread)
{
	struct gm_case_result *c = gm_result_add(r);

	assert_non_null(c);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->status = GM_CASE_OK;
	c->unit = c->value.unit = u;
	c->value.median = med;
	c->value.min = med - spread / 2;
	c->value.max = med + spread / 2;
}

static const struct gm_compare_row *row(const struct gm_comparison *c, const char *name)
{
	for (int i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

static void base(struct gm_run_result *r)
{
	gm_result_init(r);
	add(r, "copy.v0", GM_UNIT_GBS, 3000, 20);
	add(r, "latency.l2", GM_UNIT_CYCLES, 260, 4);
	add(r, "alloc.1m", GM_UNIT_US, 50, 2);
}

static void test_noise_passes(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;

	(void)state;
	base(&a);
	gm_result_init(&b);
	add(&b, "copy.v0", GM_UNIT_GBS, 2992, 20);     /* inside the spread */
	add(&b, "latency.l2", GM_UNIT_CYCLES, 262, 4);
	add(&b, "alloc.1m", GM_UNIT_US, 49.5, 2);
	assert_int_equal(gm_compare_runs(&a, &b, 5.0, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	assert_int_equal(c.nonly_a + c.nonly_b, 0);
	assert_false(row(&c, "copy.v0")->beyond_noise);
	gm_comparison_release(&c);
	gm_result_release(&a);
	gm_result_release(&b);
}

static void test_planted_regression(void **state)
{
	struct gm_run_result a, b;
	struct gm_comparison c;

	(void)state;
	base(&a);
	gm_result_init(&b);
	add(&b, "copy.v0", GM_UNIT_GBS, 2700, 20);       /* 10 % less bandwidth: worse */
	add(&b, "latency.l2", GM_UNIT_CYCLES, 286, 4);   /* 10 % more cycles: worse */
	add(&b, "alloc.1m", GM_UNIT_US, 45, 2);          /* 10 % less time: better */
	add(&b, "new.case", GM_UNIT_GBS, 1, 0);
	assert_int_equal(gm_compare_runs(&a, &b, 5.0, &c), GM_OK);
	assert_int_equal(row(&c, "copy.v0")->verdict, GM_WORSE);
	assert_true(row(&c, "copy.v0")->beyond_noise);
	assert_int_equal(row(&c, "latency.l2")->verdict, GM_WORSE);
	assert_int_equal(row(&c, "alloc.1m")->verdict, GM_BETTER);
	assert_int_equal(row(&c, "new.case")->verdict, GM_ONLY_B);
	assert_int_equal(c.nworse, 2);
	assert_int_equal(c.nbetter, 1);
	assert_int_equal(c.nonly_b, 1);
	gm_comparison_release(&c);
	/* a threshold above the change lets it pass */
	assert_int_equal(gm_compare_runs(&a, &b, 15.0, &c), GM_OK);
	assert_int_equal(c.nworse, 0);
	gm_comparison_release(&c);
	assert_int_equal(gm_compare_runs(&a, &b, -1.0, &c), GM_ERR_INVALID_ARG);
	gm_result_release(&a);
	gm_result_release(&b);
}

/* Runs that hold different cases (one file per family) merge into one for the report. */
static void test_merge_disjoint(void **state)
{
	struct gm_run_result r[2];
	struct gm_case_result *c;

	(void)state;
	gm_result_init(&r[0]);
	gm_result_init(&r[1]);
	c = gm_result_add(&r[0]);
	snprintf(c->name, sizeof(c->name), "copy.a");
	c = gm_result_add(&r[1]);
	snprintf(c->name, sizeof(c->name), "gemm.b");
	c->samples_ms = calloc(2, sizeof(double));
	c->nsamples = 2;
	assert_true(gm_runs_disjoint(r, 2));
	assert_int_equal(gm_runs_merge(&r[0], &r[1], 1), GM_OK);
	assert_int_equal(r[0].ncases, 2);
	assert_string_equal(r[0].cases[1].name, "gemm.b");
	assert_null(r[1].cases[0].samples_ms);     /* moved, freed once */
	c = gm_result_add(&r[1]);
	snprintf(c->name, sizeof(c->name), "copy.a");
	assert_false(gm_runs_disjoint(r, 2));
	gm_result_release(&r[0]);
	gm_result_release(&r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise_passes),
		cmocka_unit_test(test_merge_disjoint),
		cmocka_unit_test(test_planted_regression),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
