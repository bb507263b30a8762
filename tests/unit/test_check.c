/*
 * gpumem check's judging on planted data (no GPU): a baseline made from
 * three planted units; a run scaled down in one line fails that line alone,
 * a little worse warns, erratic samples fail; every counter planted fails or
 * warns by itself (table-driven); no baseline -> could not judge; the burn's
 * duration parser and verdict; the baseline's units by UUID and commits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpumem/baseline.h"
#include "gpumem/check.h"
#include "gpumem/units.h"

/* One unit's run of every judged line: value = base * scale; 20 samples with a 0.1 % wobble. */
static void plant_run(struct gm_run_result *r, const char *uuid, double scale)
{
	int n;
	const struct gm_check_line_def *d = gm_check_lines(&n);

	gm_result_init(r);
	r->have_device = 1;
	snprintf(r->dev.name, sizeof(r->dev.name), "NVIDIA Test GPU");
	snprintf(r->dev.uuid, sizeof(r->dev.uuid), "%s", uuid);
	for (int i = 0; i < n; i++) {
		struct gm_case_result *c = gm_result_add(r);
		int time_unit = !strcmp(d[i].id, "alloc");
		assert_non_null(c);
		snprintf(c->name, sizeof(c->name), "%s", d[i].case_name);
		c->status = GM_CASE_OK;
		c->unit = time_unit ? GM_UNIT_US : GM_UNIT_GBS;
		c->value.median = (100.0 + i) * (time_unit ? 1 / scale : scale);
		c->nsamples = 20;
		c->samples_ms = calloc(20, sizeof(double));
		assert_non_null(c->samples_ms);
		for (int k = 0; k < 20; k++)
			c->samples_ms[k] = 1.0 + 0.001 * (k % 3);
		c->ms.cov_pct = 0.1;
	}
}

static void make_baseline(struct gm_baseline *b)
{
	struct gm_run_result runs[3];
	const char *src[3] = { "results/x/s1-abcdef1/suite.json", "results/x/u2/suite.json", "results/x/u3-1234567/a.json" };
	const char *names[GM_CHECK_MAX_LINES];
	int nc = gm_check_judged_names(names, GM_CHECK_MAX_LINES);

	plant_run(&runs[0], "GPU-a", 1.0);
	plant_run(&runs[1], "GPU-b", 1.002);
	plant_run(&runs[2], "GPU-c", 0.998);
	assert_int_equal(gm_baseline_make(runs, src, 3, names, nc, b), GM_OK);
	for (int i = 0; i < 3; i++)
		gm_result_release(&runs[i]);
}

static struct gm_case_result *find_case(struct gm_run_result *r, const char *id)
{
	int n;
	const struct gm_check_line_def *d = gm_check_lines(&n);

	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].id, id))
			return (struct gm_case_result *)gm_result_find(r, d[i].case_name);
	return NULL;
}

static void test_baseline_units(void **st)
{
	struct gm_baseline *b = calloc(1, sizeof(*b));
	char commit[48];

	(void)st;
	make_baseline(b);
	assert_int_equal(b->nunits, 3);
	assert_string_equal(b->sku, "NVIDIA Test GPU");
	assert_string_equal(b->runs[0].commit, "abcdef1");
	assert_string_equal(b->runs[1].commit, "");
	assert_string_equal(b->runs[2].commit, "1234567");
	assert_true(fabs(gm_baseline_find(b, "copy.read_b16_tile4")->median - 100.0) < 1e-9);
	assert_null(gm_baseline_find(b, "memtest.address"));   /* not judged against a baseline, but measured: */
	gm_baseline_commit_of("results/nvidia-h200/s25-0d0fd8e/launch/x.json.gz", commit, sizeof(commit));
	assert_string_equal(commit, "0d0fd8e");
	free(b);
}

/* Every judged line, scaled down alone: that line fails and no other line does. */
static void test_one_line_fails(void **st)
{
	struct gm_baseline *b = calloc(1, sizeof(*b));
	struct gm_check_gpu *g = calloc(1, sizeof(*g));
	int n;
	const struct gm_check_line_def *d = gm_check_lines(&n);

	(void)st;
	make_baseline(b);
	for (int i = 0; i < n; i++) {
		struct gm_run_result r;
		if (!d[i].judged)
			continue;
		plant_run(&r, "GPU-x", 1.0);
		struct gm_case_result *c = find_case(&r, d[i].id);
		c->value.median = gm_unit_higher_is_better(c->unit) ? c->value.median * 0.7 : c->value.median / 0.7;
		assert_int_equal(gm_check_judge(&r, b, NULL, NULL, g), GM_OK);
		for (int k = 0; k < g->nlines; k++)
			if (g->lines[k].def->judged)
				assert_int_equal(g->lines[k].verdict, k == i ? GM_V_FAIL : GM_V_PASS);
		assert_int_equal(g->verdict, GM_V_FAIL);
		assert_int_equal(gm_check_exit_code(g, 1), GM_CHECK_EXIT_FAIL);
		assert_non_null(g->lines[i].code);
		gm_result_release(&r);
	}
	free(b);
	free(g);
}

static void test_warn_erratic_pass(void **st)
{
	struct gm_baseline *b = calloc(1, sizeof(*b));
	struct gm_check_gpu *g = calloc(1, sizeof(*g));
	struct gm_run_result r;

	(void)st;
	make_baseline(b);
	plant_run(&r, "GPU-x", 1.0);
	assert_int_equal(gm_check_judge(&r, b, NULL, NULL, g), GM_OK);
	assert_int_equal(g->verdict, GM_V_PASS);
	assert_int_equal(gm_check_exit_code(g, 1), 0);
	find_case(&r, "hbm_read")->value.median *= 0.955;     /* 4.5 %: between 3 and 6 tolerances of 1 % */
	assert_int_equal(gm_check_judge(&r, b, NULL, NULL, g), GM_OK);
	assert_int_equal(g->lines[0].verdict, GM_V_WARN);
	assert_string_equal(g->lines[0].code->code, "GM-C100");
	assert_int_equal(gm_check_exit_code(g, 1), GM_CHECK_EXIT_WARN);
	find_case(&r, "hbm_read")->value.median /= 0.955;
	find_case(&r, "l2_read")->ms.cov_pct = 80;              /* another process time-slicing the GPU */
	assert_int_equal(gm_check_judge(&r, b, NULL, NULL, g), GM_OK);
	assert_int_equal(g->lines[3].verdict, GM_V_FAIL);
	assert_string_equal(g->lines[3].code->code, "GM-C106");
	gm_result_release(&r);
	free(b);
	free(g);
}

static void test_no_baseline(void **st)
{
	struct gm_check_gpu *g = calloc(1, sizeof(*g));
	struct gm_run_result r;

	(void)st;
	plant_run(&r, "GPU-x", 1.0);
	assert_int_equal(gm_check_judge(&r, NULL, "no baseline for NVIDIA Test GPU: run `gpumem baseline make`", NULL, g),
			 GM_OK);
	assert_int_equal(g->verdict, GM_V_NOJUDGE);
	assert_int_equal(gm_check_exit_code(g, 1), GM_CHECK_EXIT_UNKNOWN);
	assert_string_equal(g->failures[g->nfailures - 1].code->code, "GM-C901");
	assert_int_equal(g->lines[0].verdict, GM_V_NOJUDGE);
	assert_true(g->lines[0].measured);
	gm_result_release(&r);
	free(g);
}

/* One counter planted at a time: its verdict and code; every other counter passes. */
static const struct {
	int id;
	long long before, after, detail;
	int verdict;
	const char *code;
} counter_rows[] = {
	{ GM_CNT_XID, 0, 1, 79, GM_V_FAIL, "GM-C201" },
	{ GM_CNT_ECC_VOL_UNCORR, 0, 2, 0, GM_V_FAIL, "GM-C202" },
	{ GM_CNT_ECC_VOL_CORR, 5, 9, 0, GM_V_WARN, "GM-C204" },
	{ GM_CNT_ECC_VOL_CORR, 5, 5, 0, GM_V_PASS, NULL },
	{ GM_CNT_ECC_AGG_UNCORR, 1, 1, 0, GM_V_WARN, "GM-C203" },
	{ GM_CNT_REMAP_PENDING, 0, 1, 0, GM_V_FAIL, "GM-C205" },
	{ GM_CNT_REMAP_FAILED, 0, 1, 0, GM_V_FAIL, "GM-C206" },
	{ GM_CNT_RETIRED_PENDING, 0, 1, 0, GM_V_FAIL, "GM-C207" },
	{ GM_CNT_RETIRED_DBE, 0, 1, 0, GM_V_WARN, "GM-C208" },
	{ GM_CNT_RETIRED_DBE, 0, 60, 0, GM_V_FAIL, "GM-C208" },
	{ GM_CNT_PCIE_REPLAY, 3, 7, 0, GM_V_WARN, "GM-C209" },
	{ GM_CNT_PCIE_GEN, 4, 4, 5, GM_V_WARN, "GM-C210" },
	{ GM_CNT_PCIE_WIDTH, 8, 8, 16, GM_V_FAIL, "GM-C210" },
	{ GM_CNT_NVLINK_CRC, 0, 3, 0, GM_V_FAIL, "GM-C211" },
	{ GM_CNT_NVLINK_REPLAY, 2, 4, 0, GM_V_FAIL, "GM-C211" },
	{ GM_CNT_NVLINK_RECOVERY, 1, 1, 0, GM_V_PASS, NULL },
	{ GM_CNT_THROTTLE, 0, 0x8, 0, GM_V_FAIL, "GM-C212" },
	{ GM_CNT_THROTTLE, 0, 0x40, 0, GM_V_FAIL, "GM-C212" },
	{ GM_CNT_THROTTLE, 0, 0x20, 0, GM_V_WARN, "GM-C213" },
	{ GM_CNT_THROTTLE, 0, 0x4, 0, GM_V_PASS, NULL },
};

static void healthy_counters(struct gm_check_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->have = 1;
	for (int i = 0; i < GM_CNT_COUNT; i++) {
		c->before[i].state = c->after[i].state = GM_CNT_OK;
		c->before[i].value = c->after[i].value = 0;
	}
	c->after[GM_CNT_PCIE_GEN].value = c->after[GM_CNT_PCIE_GEN].detail = 5;
	c->after[GM_CNT_PCIE_WIDTH].value = c->after[GM_CNT_PCIE_WIDTH].detail = 16;
}

static void test_counters(void **st)
{
	struct gm_baseline *b = calloc(1, sizeof(*b));
	struct gm_check_gpu *g = calloc(1, sizeof(*g));
	struct gm_check_counters c;
	struct gm_run_result r;

	(void)st;
	make_baseline(b);
	plant_run(&r, "GPU-x", 1.0);
	healthy_counters(&c);
	assert_int_equal(gm_check_judge(&r, b, NULL, &c, g), GM_OK);
	assert_int_equal(g->verdict, GM_V_PASS);
	assert_int_equal(g->counters.have, 1);                     /* the raw reads go to the writers */
	assert_int_equal(g->counters.after[GM_CNT_PCIE_WIDTH].value, 16);
	for (size_t k = 0; k < sizeof(counter_rows) / sizeof(counter_rows[0]); k++) {
		int id = counter_rows[k].id;
		healthy_counters(&c);
		c.before[id].value = counter_rows[k].before;
		c.after[id].value = counter_rows[k].after;
		if (counter_rows[k].detail)
			c.after[id].detail = counter_rows[k].detail;
		assert_int_equal(gm_check_judge(&r, b, NULL, &c, g), GM_OK);
		for (int i = 0; i < GM_CNT_COUNT; i++)
			assert_int_equal(g->cverdicts[i].verdict, i == id ? counter_rows[k].verdict : GM_V_PASS);
		if (counter_rows[k].code)
			assert_string_equal(g->cverdicts[id].code->code, counter_rows[k].code);
		assert_int_equal(g->verdict, counter_rows[k].verdict);
	}
	/* unsupported: said, never a failure */
	healthy_counters(&c);
	c.after[GM_CNT_REMAP_PENDING].state = GM_CNT_UNSUPPORTED;
	c.after[GM_CNT_REMAP_PENDING].nvml_rc = 3;
	c.after[GM_CNT_REMAP_PENDING].value = 1;
	assert_int_equal(gm_check_judge(&r, b, NULL, &c, g), GM_OK);
	assert_int_equal(g->cverdicts[GM_CNT_REMAP_PENDING].verdict, GM_V_SKIP);
	assert_non_null(strstr(g->cverdicts[GM_CNT_REMAP_PENDING].message, "unsupported"));
	assert_int_equal(g->verdict, GM_V_PASS);
	gm_result_release(&r);
	free(b);
	free(g);
}

static void test_burn(void **st)
{
	static const struct { const char *text; int ok; double s; } rows[] = {
		{ "10s", 1, 10 }, { "10", 1, 10 }, { "2m", 1, 120 }, { "1h", 1, 3600 }, { "0.5s", 1, 0.5 },
		{ "0", 0, 0 }, { "-3s", 0, 0 }, { "10x", 0, 0 }, { "", 0, 0 }, { "abc", 0, 0 }, { "nan", 0, 0 },
		{ "25h", 0, 0 }, { " 5", 0, 0 }, { "5ss", 0, 0 },
	};
	struct gm_check_gpu *g = calloc(1, sizeof(*g));
	struct gm_burn b;

	(void)st;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double s = 0;
		assert_int_equal(gm_burn_parse_duration(rows[i].text, &s) == GM_OK, rows[i].ok);
		if (rows[i].ok)
			assert_true(fabs(s - rows[i].s) < 1e-9);
	}
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < 100; i++) {
		struct gm_burn_sample s = { 0.1 * i, i < 20 ? 1980 : 1600, 2619, 600, 70, 0x4, i % 2 };
		assert_int_equal(gm_burn_add(&b, &s), GM_OK);
	}
	gm_burn_judge(&b, g);
	assert_int_equal(b.verdict, GM_V_WARN);    /* 1600 against 1980: 19 % down */
	assert_string_equal(g->failures[0].code->code, "GM-C301");
	b.validation_errors = 1;
	snprintf(b.first_error, sizeof(b.first_error), "memtest.moving_inversions: 1 of 2 words wrong");
	g->nfailures = 0;
	gm_burn_judge(&b, g);
	assert_int_equal(b.verdict, GM_V_FAIL);
	assert_string_equal(g->failures[0].code->code, "GM-C302");
	gm_burn_release(&b);
	free(g);
}

static void test_codes(void **st)
{
	int n;
	const struct gm_check_code *c = gm_check_codes(&n);

	(void)st;
	for (int i = 0; i < n; i++) {
		assert_ptr_equal(gm_check_code_find(c[i].code), &c[i]);
		assert_true(strlen(c[i].next_step) > 20);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(c[i].code, c[j].code);
	}
	assert_null(gm_check_code_find("GM-C999"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_baseline_units),
		cmocka_unit_test(test_one_line_fails),
		cmocka_unit_test(test_warn_erratic_pass),
		cmocka_unit_test(test_no_baseline),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_burn),
		cmocka_unit_test(test_codes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
