/*
 * test_curve.c - knee detection on synthetic curves: one step, two steps
 * (near/far L2 then HBM), a flat curve, noise on the plateaus, and a
 * gradual fall; the clock lookup over extras and notes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"

static void test_one_step(void **st)
{
	double x[] = { 16, 32, 64, 128, 192, 224, 256, 288, 384, 512 };
	double y[] = { 100, 101, 99, 100, 98, 100, 40, 20, 19, 20 };
	struct gm_knee k[4];
	double p0;
	int n = gm_curve_knees(x, y, 10, 0.8, k, 4, &p0);
	(void)st;
	assert_int_equal(n, 1);
	assert_true(fabs(p0 - 100) < 1);
	assert_true(k[0].x > 224 && k[0].x < 288);
	assert_true(fabs(k[0].below - 19.5) < 1);
	assert_int_equal((int)k[0].x_last, 224);
	assert_int_equal((int)k[0].x_first, 256);
}

static void test_two_steps(void **st)
{
	double x[] = { 1, 2, 4, 8, 16, 20, 24, 28, 32, 40, 48, 56, 64, 128, 256 };
	double y[] = { 10, 10.3, 9.9, 10, 10.1, 10, 9.8, 7, 7.1, 6.9, 7, 3.5, 3.1, 3.0, 3.0 };
	struct gm_knee k[4];
	double p0;
	int n = gm_curve_knees(x, y, 15, 0.8, k, 4, &p0);
	(void)st;
	assert_int_equal(n, 2);
	assert_true(k[0].x > 24 && k[0].x < 28);
	assert_true(fabs(k[0].below - 7) < 0.2);
	assert_true(k[1].x > 48 && k[1].x < 64);
	assert_true(fabs(k[1].below - 3.05) < 0.1);
}

static void test_flat(void **st)
{
	double x[] = { 1, 2, 3, 4, 5 };
	double y[] = { 5, 5.2, 4.9, 5.1, 5 };
	struct gm_knee k[4];
	double p0;
	(void)st;
	assert_int_equal(gm_curve_knees(x, y, 5, 0.8, k, 4, &p0), 0);
	assert_true(fabs(p0 - 5) < 0.2);
}

static void test_gradual(void **st)
{
	/* a fall over several points still gives one knee, between the plateaus */
	double x[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256 };
	double y[] = { 100, 100, 100, 70, 45, 25, 20, 20, 20 };
	struct gm_knee k[4];
	double p0;
	int n = gm_curve_knees(x, y, 9, 0.8, k, 4, &p0);
	(void)st;
	assert_int_equal(n, 1);
	assert_true(k[0].x >= 4 && k[0].x <= 32);
	assert_true(fabs(k[0].below - 20) < 1);
}

static void test_settling(void **st)
{
	/* the H200's L2 read curve (GB/s, MiB): past the knee the rate settles over three points; the lower
	   plateau is where it settles (4.66 TB/s), not the median of the first two points after the fall */
	double x[] = { 0.5, 1, 1.5, 2, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 80, 128, 256 };
	double y[] = { 11655, 10725, 9603, 9322, 8972, 8832, 8814, 8839, 8814, 8826, 8612, 7720, 8076, 8089,
		       6111, 5051, 4717, 4659, 4657, 4657, 4650, 4653 };
	struct gm_knee k[4];
	double p0;
	int n = gm_curve_knees(x, y, 22, 0.8, k, 4, &p0);
	(void)st;
	assert_int_equal(n, 1);
	assert_true(fabs(k[n - 1].below - 4658) < 10);
	assert_true(k[0].x > 40 && k[0].x < 48);
}

static void test_clock(void **st)
{
	struct gm_run_result r;
	struct gm_case_result *c;
	(void)st;
	gm_result_init(&r);
	assert_true(gm_run_clock_mhz(&r, NULL) == 0);
	c = gm_result_add(&r);
	snprintf(c->family, sizeof(c->family), "latency");
	c->nextras = 1;
	snprintf(c->extras[0].name, sizeof(c->extras[0].name), "sm_clock_mhz");
	c->extras[0].median = 1755;
	c = gm_result_add(&r);
	snprintf(c->family, sizeof(c->family), "smem");
	gm_result_note(c, "sm_clock_mhz", GM_UNIT_RATIO, 1980);
	assert_true(fabs(gm_run_clock_mhz(&r, "smem") - 1980) < 1e-9);
	assert_true(fabs(gm_run_clock_mhz(&r, "latency") - 1755) < 1e-9);
	gm_derive_add(&r, "smem", "smem.x", "smem", "latency", GM_UNIT_CYCLES, 30, 0, "", "test");
	assert_int_equal(r.nderived, 1);
	assert_string_equal(r.derived[0].level, "smem");
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_step), cmocka_unit_test(test_two_steps), cmocka_unit_test(test_flat),
		cmocka_unit_test(test_gradual), cmocka_unit_test(test_settling), cmocka_unit_test(test_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
