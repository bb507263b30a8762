/*
 * test_hier_l1.c - the L1 read line of the hierarchy family on synthetic
 * runs: the limit it is held against uses the clock of the same cases whose
 * GB/s it takes (the median of their clocks, not the first case's), the
 * long-launch cases (l1v<k>x16_*) stay out of the spec line, and the
 * candidate version 9 and the long launches are full-only cases with the
 * parameters their kernels read.
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
#include "families/common/hier_shapes.h"

static struct gm_case_result *l1_case(struct gm_run_result *r, const char *label, int ver, double kib, double gbs,
				      double mhz, int launch_gb)
{
	struct gm_case_result *c = gm_result_add(r);
	const char *keys[] = { "mode", "footprint", "ver", "launch_gb" };
	const int64_t vals[] = { HIER_L1_READ, (int64_t)(kib * 1024), ver, launch_gb };

	snprintf(c->family, sizeof(c->family), "hierarchy");
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->name, sizeof(c->name), "hierarchy.%s", label);
	c->status = GM_CASE_OK;
	c->value.median = gbs;
	for (int i = 0; i < (launch_gb ? 4 : 3); i++) {
		snprintf(c->param_keys[i], sizeof(c->param_keys[0]), "%s", keys[i]);
		c->params[i].key = c->param_keys[i];
		c->params[i].value = vals[i];
	}
	c->nparams = launch_gb ? 4 : 3;
	if (mhz > 0)
		gm_result_note(c, "sm_clock_mhz", GM_UNIT_RATIO, mhz);
	return c;
}

static const struct gm_derived *find(const struct gm_run_result *r, const char *name)
{
	for (int i = 0; i < r->nderived; i++)
		if (!strcmp(r->derived[i].name, name))
			return &r->derived[i];
	return NULL;
}

/* A run of 132 SMs with the H200's l1_* series (results/nvidia-h200/final-b8a3211): the plateau and the knee. */
static void plant_l1_series(struct gm_run_result *r)
{
	static const double kib[] = { 32, 64, 96, 128, 160, 192, 224, 256, 288 };
	static const double gbs[] = { 33104, 33231, 33103, 33223, 33104, 33215, 33092, 31213, 31757 };
	static const double mhz[] = { 1973, 1980, 1973, 1979, 1973, 1980, 1973, 1970, 1971 };
	char label[32];

	gm_result_init(r);
	r->dev.sm_count = 132;
	for (int i = 0; i < 9; i++) {
		snprintf(label, sizeof(label), "l1_%04.0fk", kib[i]);
		l1_case(r, label, HIER_L1_VER, kib[i], gbs[i], mhz[i], 0);
	}
}

static void test_limit_at_the_cases_clock(void **st)
{
	/* the H200's v6 pair (results/nvidia-h200/final-b8a3211): 33289 GB/s at 1979.0 MHz, 33135 at 1972.7;
	 * the spec line is their median against the median of their clocks, not the first case's clock; a
	 * long-launch case counts as one more version (2 ms launches carry start and drain): when it reads
	 * faster the line takes it and says so */
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;
	plant_l1_series(&r);
	l1_case(&r, "l1v6_0128k", 6, 128, 33289, 1979.0, 0);
	l1_case(&r, "l1v6_0192k", 6, 192, 33135, 1972.7, 0);
	gm_family_hierarchy.derive(&r);
	assert_non_null(d = find(&r, "hierarchy.l1_read_bw"));
	assert_true(fabs(d->value - 33212) < 1);
	assert_true(fabs(d->reference - 128.0 * 132 * (1979.0 + 1972.7) / 2 * 1e-3) < 0.5);
	assert_non_null(strstr(d->how, "v6"));
	assert_non_null(strstr(d->how, "1976 MHz"));
	assert_null(strstr(d->how, "31 ms"));
	gm_result_release(&r);

	/* the same run with v6 in a long launch: the line is that case, at its clock */
	plant_l1_series(&r);
	l1_case(&r, "l1v6_0128k", 6, 128, 33289, 1979.0, 0);
	l1_case(&r, "l1v6x16_0128k", 6, 128, 33390, 1979.5, 16 * HIER_L1_LAUNCH_GB);
	gm_family_hierarchy.derive(&r);
	assert_non_null(d = find(&r, "hierarchy.l1_read_bw"));
	assert_true(fabs(d->value - 33390) < 1);
	assert_true(fabs(d->reference - 128.0 * 132 * 1979.5 * 1e-3) < 0.5);
	assert_non_null(strstr(d->how, "v6 (hier_shapes.h) in ~31 ms launches"));
	gm_result_release(&r);
}

static void test_candidate_cases(void **st)
{
	int n = gm_family_hierarchy.enumerate(NULL, 0), seen = 0;
	struct gm_case *cs = calloc((size_t)n, sizeof(*cs));
	(void)st;
	assert_non_null(cs);
	assert_int_equal(gm_family_hierarchy.enumerate(cs, n), n);
	for (int i = 0; i < n; i++) {
		const struct gm_case *c = &cs[i];
		int64_t ver = gm_case_param(c, "ver", 0), gb = gm_case_param(c, "launch_gb", 0);
		if (gm_case_param(c, "mode", -1) != HIER_L1_READ)
			continue;
		/* the default suite keeps its l1 cases and v9 in both launch lengths; v6's long launch is full-only */
		assert_int_equal(c->full, gb != 0 && ver != 9);
		if (!strcmp(c->name, "hierarchy.l1v9_0128k") || !strcmp(c->name, "hierarchy.l1v9_0192k")) {
			/* version 9 wraps every 8 loads of 8 B: a multiple of 64 KiB */
			assert_int_equal(gm_case_param(c, "footprint", 0) % (64 * 1024), 0);
			seen++;
		}
		if (!strcmp(c->name, "hierarchy.l1v6x16_0128k") || !strcmp(c->name, "hierarchy.l1v9x16_0128k")) {
			assert_int_equal(gb, 16 * HIER_L1_LAUNCH_GB);
			seen++;
		}
	}
	assert_int_equal(seen, 4);
	free(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_at_the_cases_clock),
		cmocka_unit_test(test_candidate_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
