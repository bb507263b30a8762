/* test_stats.c - statistics and unit parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/parallel.h"
#include "gpumem/status.h"
#include "gpumem/result.h"
#include "gpumem/units.h"

static void test_median_odd_even(void **state)
{
	struct gm_stats s;
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_int_equal(gm_stats_compute(odd, 3, &s), GM_OK);
	assert_true(s.median == 3 && s.min == 1 && s.max == 5 && s.n == 3);
	assert_int_equal(gm_stats_compute(even, 4, &s), GM_OK);
	assert_true(s.median == 2.5);
	assert_true(fabs(s.mean - 2.5) < 1e-12);
}

static void test_cov(void **state)
{
	struct gm_stats s;
	double x[] = { 9, 10, 11 }, one[] = { 7 };

	(void)state;
	assert_int_equal(gm_stats_compute(x, 3, &s), GM_OK);
	assert_true(fabs(s.stddev - 1.0) < 1e-12); /* sample stddev */
	assert_true(fabs(s.cov_pct - 10.0) < 1e-12);
	assert_int_equal(gm_stats_compute(one, 1, &s), GM_OK);
	assert_true(s.stddev == 0 && s.cov_pct == 0 && s.median == 7);
	assert_int_equal(gm_stats_compute(x, 0, &s), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_stats_compute(NULL, 3, &s), GM_ERR_INVALID_ARG);
}

static void test_stats_input_untouched(void **state)
{
	struct gm_stats s;
	double x[] = { 3, 1, 2 };

	(void)state;
	gm_stats_compute(x, 3, &s);
	assert_true(x[0] == 3 && x[1] == 1 && x[2] == 2);
}

static void test_parse_size(void **state)
{
	static const struct { const char *in; uint64_t want; } ok[] = {
		{ "1", 1 }, { "4096", 4096 }, { "4k", 4096 }, { "4K", 4096 }, { "512M", 512ull << 20 },
		{ "4G", 4ull << 30 }, { "1.5G", 3ull << 29 }, { "2GiB", 2ull << 30 }, { "64MB", 64ull << 20 },
	};
	static const char *const bad[] = { "", "-1", "0", "G", "4X", "4GG", "abc", "1e30", "nan", "4 G" };
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(gm_parse_size(ok[i].in, &v), GM_OK);
		assert_true(v == ok[i].want);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(gm_parse_size(bad[i], &v), GM_ERR_INVALID_ARG);
}

static void test_parse_int(void **state)
{
	long v;

	(void)state;
	assert_int_equal(gm_parse_int("42", 0, 100, &v), GM_OK);
	assert_int_equal(v, 42);
	assert_int_equal(gm_parse_int("101", 0, 100, &v), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_parse_int("4x", 0, 100, &v), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_parse_int("", 0, 100, &v), GM_ERR_INVALID_ARG);
}

static void test_format_bytes(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(gm_format_bytes(512, b, sizeof(b)), "512 B");
	assert_string_equal(gm_format_bytes(4.0 * (1 << 30), b, sizeof(b)), "4.00 GiB");
	assert_string_equal(gm_format_bytes(1536 * 1024, b, sizeof(b)), "1.50 MiB");
}

static void test_peak_bandwidth(void **state)
{
	(void)state;
	/* H100 SXM5: 2619 MHz, 5120 bit -> 3352.32 GB/s; H200: 3201 MHz, 6144 bit */
	assert_true(fabs(gm_peak_gbs(2619000, 5120) - 3352.32) < 0.01);
	assert_true(fabs(gm_peak_gbs(1593000, 5120) - 2039.04) < 0.01);
}

/* gm_parallel_for: every item once, each thread's state made and dropped once, more threads than items */
static int made, dropped;
static void *make_state(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&made, 1, __ATOMIC_SEQ_CST);
	return malloc(1);
}
static void drop_state(void *state)
{
	__atomic_add_fetch(&dropped, 1, __ATOMIC_SEQ_CST);
	free(state);
}
static void square(void *arg, void *state, int k)
{
	assert_non_null(state);
	((long *)arg)[k] = (long)k * k;
}

static void test_parallel_for(void **state)
{
	long out[100] = { 0 };

	(void)state;
	for (int threads = 1; threads <= 200; threads *= 7) {
		made = dropped = 0;
		gm_parallel_for(100, threads, make_state, drop_state, square, out);
		for (int k = 0; k < 100; k++)
			assert_int_equal(out[k], (long)k * k);
		assert_int_equal(made, dropped);
		assert_true(made >= 1 && made <= GM_PARALLEL_MAX_THREADS);
	}
	gm_parallel_for(0, 4, NULL, NULL, square, out); /* nothing to do */
	assert_true(gm_cores() >= 1);
}

/* gm_fail may be handed its own last message (a prefix added on the way up): no overlap, no garbling */
static void test_fail_wraps_last_error(void **st)
{
	(void)st;
	gm_parse_size("0", &(uint64_t){ 0 });
	gm_fail(GM_ERR_INVALID_ARG, "%s: %s", "--size", gm_last_error());
	assert_string_equal(gm_last_error(), "--size: size '0' out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even), cmocka_unit_test(test_cov), cmocka_unit_test(test_parallel_for),
		cmocka_unit_test(test_stats_input_untouched), cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_int), cmocka_unit_test(test_fail_wraps_last_error), cmocka_unit_test(test_format_bytes),
		cmocka_unit_test(test_peak_bandwidth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
