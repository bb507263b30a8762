/*
 * test_launch_rows.c - rule L4's rows (src/model/launch_traffic.c, l4_rows; docs/MODEL.md 7.2, L4): a line one lane
 * of a store request writes alone takes its far weight by the rows the walk comes back to it after, log2 between 32
 * lines (the next request writes the same lines: near) and 512 (the whole weight). No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "launch_fixture.h"

/* Float4 column-walk stores at 64 KiB + 128 B over `rows` rows (probe-68's shape): far lines per partial line. */
static double far_share(int rows)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	char index[160];
	const int64_t pitch = 4104, n = (int64_t)1 << 22;
	double lines;

	p.l2_lines_gps = 1000;
	p.l2_part_sectors_gps = 1e6;
	p.l2_merge_lines_gps = 2;
	p.l2_far_lines_gps = 0.5;
	p.l2_far_lines16_gps = 0.25;
	launch_of("gid", 16, n, pats, &in);
	snprintf(index, sizeof(index), "(gid%%%d)*%lld + (gid/%d)%%%lld + (gid/%lld)*%lld", rows, (long long)pitch, rows,
		 (long long)pitch, (long long)(rows * pitch), (long long)(rows * pitch));
	pats[1].index = index;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	lines = o.l2_part_lines + o.l2_merged_lines;
	assert_true(lines > 0);
	return o.l2_far_lines / lines;
}

static void test_rows(void **state)
{
	/* the spacing's weight at 64 KiB + 128 B, the whole of it from 512 rows on */
	double f = log2(65664.0 / 128) / log2(524416.0 / 128);

	(void)state;
	assert_true(fabs(far_share(1024) - f) < 1e-3);
	assert_true(fabs(far_share(512) - f) < 1e-3);
	/* 32 rows: a warp's request, the next one writes the same lines (its block completes them): near */
	assert_true(far_share(32) < 1e-6);
	/* in between, log2 of the rows: 128 rows half, 64 a quarter */
	assert_true(fabs(far_share(128) - 0.5 * f) < 1e-2 * f);
	assert_true(fabs(far_share(64) - 0.25 * f) < 1e-2 * f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
