/*
 * test_findings.c - the report's findings (src/analysis/findings.c) on planted
 * runs: each rule speaks when its planted fault is there, with the planted
 * numbers and the anchor of its chart, and stays silent on a clean run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/result.h"
#include "gpumem/findings.h"

static struct gm_case_result *plant(struct gm_run_result *r, const char *fam, const char *label,
				    enum gm_case_kind kind, enum gm_unit unit, double value, double bytes)
{
	struct gm_case_result *c = gm_result_add(r);

	assert_non_null(c);
	snprintf(c->family, sizeof(c->family), "%s", fam);
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->name, sizeof(c->name), "%s.%s", fam, label);
	c->kind = kind;
	c->unit = unit;
	c->status = GM_CASE_OK;
	c->value.median = value;
	c->traffic.bytes_useful = bytes;
	c->ms.median = 1.0;
	c->ms.cov_pct = 0.2;
	return c;
}

/* the findings of rule, concatenated "anchor|text\n" */
static const char *of_rule(const struct gm_run_result *r, const char *rule)
{
	static char buf[4096];
	struct gm_finding f[GM_FINDINGS_MAX];
	int n = gm_findings(r, f, GM_FINDINGS_MAX);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].rule, rule)) {
			size_t l = strlen(buf);

			snprintf(buf + l, sizeof(buf) - l, "%s|%s\n", f[i].anchor, f[i].text);
		}
	return buf;
}

/* A clean run: nothing slow, the model right, no noise, nothing missing, no spec line off. */
static void clean(struct gm_run_result *r)
{
	struct gm_case_result *a, *b;
	struct gm_derived *d;

	gm_result_init(r);
	a = plant(r, "copy", "v0", GM_KIND_DRAM, GM_UNIT_GBS, 3000, 1e9);
	b = plant(r, "copy", "v1", GM_KIND_DRAM, GM_UNIT_GBS, 2900, 1e9);
	a->launch_gbs = 3010;
	b->launch_gbs = 2950;
	d = gm_result_derive(r, "hierarchy", "hierarchy.hbm_read_bw");
	assert_non_null(d);
	snprintf(d->level, sizeof(d->level), "HBM");
	snprintf(d->quantity, sizeof(d->quantity), "read bandwidth");
	d->unit = GM_UNIT_GBS;
	d->value = 3200;
	d->reference = 3352;
}

static void test_clean_run(void **state)
{
	struct gm_run_result r;

	(void)state;
	clean(&r);
	assert_string_equal(of_rule(&r, "slowdown"), "");
	assert_string_equal(of_rule(&r, "spec"), "");
	assert_string_equal(of_rule(&r, "missing"), "");
	assert_non_null(strstr(of_rule(&r, "model"), "predicts 2 of the 2 cases"));
	assert_non_null(strstr(of_rule(&r, "noise"), "Every measured case"));
	gm_result_release(&r);
}

/* A strided case of the same useful bytes 8x slower is named with both numbers; other work is not compared. */
static void test_slowdown(void **state)
{
	struct gm_run_result r;
	const char *t;

	(void)state;
	clean(&r);
	plant(&r, "stride", "s01", GM_KIND_DRAM, GM_UNIT_GBS, 3000, 2e9);
	plant(&r, "stride", "s08", GM_KIND_DRAM, GM_UNIT_GBS, 1500, 2e9);
	plant(&r, "stride", "s32", GM_KIND_DRAM, GM_UNIT_GBS, 375, 2.01e9);
	plant(&r, "stride", "other_work", GM_KIND_DRAM, GM_UNIT_GBS, 10, 5e9);   /* no peer: not compared */
	plant(&r, "banks", "k32", GM_KIND_SMEM, GM_UNIT_NS_ACCESS, 16, 1e6)->slowdown = 32;
	plant(&r, "hierarchy", "l2_far", GM_KIND_MEASURE, GM_UNIT_GBS, 10, 2e9); /* measure kind: no rule */
	t = of_rule(&r, "slowdown");
	assert_non_null(strstr(t, "fam-stride|stride.s32 does the work of stride.s01 8.0x slower (375 GB/s against 3000 GB/s)"));
	assert_null(strstr(t, "stride.s08"));          /* one finding per family: its worst */
	assert_null(strstr(t, "other_work"));
	assert_null(strstr(t, "hierarchy"));
	assert_non_null(strstr(t, "fam-banks|banks.k32 takes 32.0x"));
	assert_true(strstr(t, "banks.k32") < strstr(t, "stride.s32"));   /* the larger factor first */
	gm_result_release(&r);
}

/* Spec lines off their reference either way, the furthest first; the model's misses with their numbers. */
static void test_spec_and_model(void **state)
{
	struct gm_run_result r;
	struct gm_derived *d;
	const char *t;

	(void)state;
	clean(&r);
	d = gm_result_derive(&r, "hierarchy", "hierarchy.l2_capacity");
	snprintf(d->level, sizeof(d->level), "L2");
	snprintf(d->quantity, sizeof(d->quantity), "capacity");
	d->unit = GM_UNIT_BYTES;
	d->value = 40.0 * 1024 * 1024;
	d->reference = 50.0 * 1024 * 1024;
	snprintf(d->reference_what, sizeof(d->reference_what), "device attribute l2_bytes");
	d = gm_result_derive(&r, "roofline", "roofline.fma_fp16x2");
	snprintf(d->level, sizeof(d->level), "FP16");
	snprintf(d->quantity, sizeof(d->quantity), "FMA throughput");
	d->unit = GM_UNIT_TFLOPS;
	d->value = 67;
	d->reference = 134;
	d = gm_result_derive(&r, "roofline", "roofline.fma_bf16x2");   /* the same line of another level */
	snprintf(d->level, sizeof(d->level), "BF16");
	snprintf(d->quantity, sizeof(d->quantity), "FMA throughput");
	d->unit = GM_UNIT_TFLOPS;
	d->value = 67.1;
	d->reference = 134;
	t = of_rule(&r, "spec");
	assert_non_null(strstr(t, "spec|L2 capacity measured 40 MiB, 80 % of its reference 50 MiB (device attribute l2_bytes)."));
	assert_true(strstr(t, "FP16") < strstr(t, "L2 capacity"));
	assert_non_null(strstr(t, "(reference; BF16 the same)"));   /* one sentence for both */
	assert_null(strstr(t, "spec|BF16"));
	assert_null(strstr(t, "HBM"));                 /* 3200 of 3352: 4.5 % off, not a finding */
	plant(&r, "rowcol", "cols", GM_KIND_DRAM, GM_UNIT_GBS, 1930, 4e9)->launch_gbs = 1000;
	t = of_rule(&r, "model");
	assert_non_null(strstr(t, "fam-rowcol|The launch model misses rowcol.cols: measured 1930 GB/s against 1000 GB/s predicted (193 %"));
	assert_non_null(strstr(t, "predicts 2 of the 3 cases"));
	/* more misses than the sink holds, the worst last: still named (the order of cases does not choose) */
	for (int i = 0; i < 2 * GM_FINDINGS_MAX; i++)
		plant(&r, "copy", "meh", GM_KIND_DRAM, GM_UNIT_GBS, 1100, 1e9)->launch_gbs = 1000;
	plant(&r, "matvec", "v7", GM_KIND_DRAM, GM_UNIT_GBS, 3070, 1e9)->launch_gbs = 7691;
	t = of_rule(&r, "model");
	assert_non_null(strstr(t, "fam-matvec|The launch model misses matvec.v7: measured 3070 GB/s against 7691 GB/s predicted (40 %"));
	assert_true(strstr(t, "matvec.v7") < strstr(t, "rowcol.cols"));
	gm_result_release(&r);
}

/* Noisy cases are counted and the worst named; failed and skipped cases are counted with the first reason. */
static void test_noise_and_missing(void **state)
{
	struct gm_run_result r;
	struct gm_case_result *c;
	const char *t;

	(void)state;
	clean(&r);
	plant(&r, "alloc", "malloc_1g", GM_KIND_MEASURE, GM_UNIT_US, 3500, 0)->ms.cov_pct = 67;
	plant(&r, "alloc", "pool_1g", GM_KIND_MEASURE, GM_UNIT_US, 1100, 0)->ms.cov_pct = 2.5;
	c = plant(&r, "p2p", "ce_write", GM_KIND_MEASURE, GM_UNIT_GBS, 0, 0);
	c->status = GM_CASE_SKIPPED;
	snprintf(c->message, sizeof(c->message), "one GPU visible");
	plant(&r, "copy", "bad", GM_KIND_DRAM, GM_UNIT_GBS, 0, 1e9)->status = GM_CASE_FAILED;
	t = of_rule(&r, "noise");
	assert_non_null(strstr(t, "cases|2 of 4 measured cases spread more than 1 %"));
	assert_non_null(strstr(t, "alloc.malloc_1g 67.0 %, alloc.pool_1g 2.5 %"));
	t = of_rule(&r, "missing");
	assert_non_null(strstr(t, "2 case(s) have no number: 1 failed validation, 1 skipped, 0 errored"));
	assert_non_null(strstr(t, "p2p.ce_write, skipped: one GPU visible"));
	gm_result_release(&r);
}

/* An empty run says nothing; a full sink stops the rules without overflow. */
static void test_empty_and_full(void **state)
{
	struct gm_run_result r;
	struct gm_finding f[2];

	(void)state;
	gm_result_init(&r);
	assert_int_equal(gm_findings(&r, f, 2), 0);
	gm_result_release(&r);
	clean(&r);
	plant(&r, "copy", "slow", GM_KIND_DRAM, GM_UNIT_GBS, 100, 1e9)->ms.cov_pct = 5;
	assert_int_equal(gm_findings(&r, f, 2), 2);
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_run),
		cmocka_unit_test(test_slowdown),
		cmocka_unit_test(test_spec_and_model),
		cmocka_unit_test(test_noise_and_missing),
		cmocka_unit_test(test_empty_and_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
