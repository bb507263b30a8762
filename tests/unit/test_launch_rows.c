/*
 * test_launch_rows.c - rule L4's rows (src/model/launch_traffic.c, l4_rows_weight; docs/MODEL.md 7.2, L4): a line
 * one lane of a store request writes alone takes its far weight by the rows the walk comes back to it after, log2
 * between 32 lines (the next request writes the same lines: near) and 512, times the span of the lines it waits among
 * (rows x pitch), log2 between the L2's size / 128 and the L2's size; wide lanes past the L2's size sooner; and a
 * column request near by the rows, its share elem / 32 where the resident warps' stores span past the L2. No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "launch_fixture.h"

/* Column-walk stores of elem-byte lanes over `rows` rows of `pitch` elements (probe-68's shape): far lines per
   partial line. */
static double far_share_of(int elem, int rows, int64_t pitch)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	char index[160];
	const int64_t n = (int64_t)1 << 22;
	double lines;

	p.l2_lines_gps = 1000;
	p.l2_part_sectors_gps = 1e6;
	p.l2_merge_lines_gps = 2;
	p.l2_far_lines_gps = 0.5;
	p.l2_far_lines16_gps = 0.25;
	launch_of("gid", elem, n, pats, &in);
	snprintf(index, sizeof(index), "(gid%%%d)*%lld + (gid/%d)%%%lld + (gid/%lld)*%lld", rows, (long long)pitch, rows,
		 (long long)pitch, (long long)(rows * pitch), (long long)(rows * pitch));
	pats[1].index = index;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	lines = o.l2_part_lines + o.l2_merged_lines;
	assert_true(lines > 0);
	return o.l2_far_lines / lines;
}

static double far_share(int rows, int64_t pitch)
{
	return far_share_of(16, rows, pitch);
}

/* The law at rows R and a pitch of P float4 (16 B lanes, u = 1), the fixture's L2 (50e6 B). */
static double law(int rows, int64_t pitch)
{
	double l2 = prof().l2_bytes, span = rows * pitch * 16.0, r = log2(rows / 32.0) / 4, a;

	if (span > l2)
		r += log2(span / l2) / 4;
	r = r > 1 ? 1 : r;
	a = log2(span * 128 / l2) / 7;
	return r * (a < 0 ? 0 : a > 1 ? 1 : a);
}

static void test_rows(void **state)
{
	(void)state;
	/* 64 KiB + 128 B (probe-68's pitch): 32 rows near; 1024 rows span 64 MiB, past the L2: whole */
	assert_true(far_share(32, 4104) < 1e-6);
	assert_true(fabs(far_share(1024, 4104) - 1) < 1e-2);
	assert_true(fabs(far_share(512, 4104) - law(512, 4104)) < 1e-2);
	assert_true(fabs(far_share(128, 4104) - law(128, 4104)) < 1e-2);
	assert_true(fabs(far_share(64, 4104) - law(64, 4104)) < 1e-2);
	/* 1.5 KiB (probe-69's small matrices): 256 rows span 384 KiB, under L2 / 128: near */
	assert_true(far_share(256, 96) < 1e-6);
	/* 16 MiB + 128 B: 64 rows span 1 GiB, past the L2, so a float4 line costs the whole far weight (where 64 KiB
	   gives it a fifth: dev-36r colwalk_63's and dev-36s colwalk_16's shape) */
	assert_true(fabs(far_share(64, 1048584) - 1) < 1e-2);
	assert_true(law(64, 1048584) > 0.999);
}

/*
 * Resident span (t84, l4_resident_weight): a column request whose line comes back within a request (32 rows: the
 * rows law's near cost) pays the share of its pieces that open a sector, elem / 32 B, where the stores of the
 * resident warps span 4 x the L2 or more (32 rows x 16 MiB): float4 1/2; doubles 1/4 of their own-block weight
 * (u = 1/3: 1/12); under the L2's size / 8 (32 x 64 KiB) nothing; between, log2 of the span (32 x 1 MiB).
 */
static void test_resident_span(void **state)
{
	(void)state;
	assert_true(far_share_of(16, 32, 4104) < 1e-6);
	assert_true(fabs(far_share_of(16, 32, 1048584) - 0.5) < 1e-2);
	assert_true(fabs(far_share_of(8, 32, 2097168) - 0.25 / 3) < 1e-2);
	assert_true(far_share_of(8, 32, 8208) < 1e-6);
	double span = 31.0 * 65544 * 16 + 131072.0 * 16 / 32, lo = prof().l2_bytes / 8; /* the resident warps' rows */

	assert_true(fabs(far_share_of(16, 32, 65544) - 0.5 * log2(span / lo) / 5) < 2e-2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_resident_span),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
