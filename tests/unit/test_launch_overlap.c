/*
 * test_launch_overlap.c - rule L5 (src/model/launch_time.c, l2_time; docs/MODEL.md 7.2, L5): with rule L4's two
 * rates, L2's load sectors (l2_read_gbs) and store bytes (l2_write_gbs) overlap, L2's time the longer of the two,
 * unless a store request writes a line partly (rule L4's merges) or a load's reuse is found only by rule D7
 * (l2_footprint_bytes > 0); then their sum. Without rule L4's rates rule L2's sum. No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "launch_fixture.h"

/* A profile whose L2 sectors limit: lookups and merges nearly free. */
static struct gm_profile l2_prof(int l4)
{
	struct gm_profile p = prof();

	p.l2_read_gbs = 1000;
	p.l2_write_gbs = 500;
	p.l2_lines_gps = 1e6;
	if (l4) {
		p.l2_part_sectors_gps = 1e6;
		p.l2_merge_lines_gps = 1e6;
	}
	return p;
}

static void predict(const char *load, const char *store, int elem, int64_t n, int l4, struct gm_launch_out *o,
		    double *rd, double *wr)
{
	struct gm_profile p = l2_prof(l4);
	struct gm_access pats[2];
	struct gm_launch_in in;

	launch_of(load, elem, n, pats, &in);
	pats[1].index = store;
	assert_int_equal(gm_launch_predict(&in, &p, o, NULL), GM_OK);
	*rd = o->l2_load_sectors * 32.0 / p.l2_read_gbs / 1e6;
	if (l4)
		*wr = o->l2_store_bytes / p.l2_write_gbs / 1e6;
	else
		*wr = o->l2_store_sectors * 32.0 / p.l2_write_gbs / 1e6;
}

static void test_overlap(void **state)
{
	struct gm_launch_out o;
	double rd, wr;

	(void)state;
	/* a 64 KiB float4 table that stays in L2, whole-sector stores (dev-36a reuse_25's shape): the longer */
	predict("gid%4096", "gid", 16, (int64_t)1 << 22, 1, &o, &rd, &wr);
	assert_true(rd > 0 && wr > rd);
	assert_true(o.l2_part_lines + o.l2_merged_lines == 0 && !(o.l2_footprint_bytes > 0));
	assert_true(!o.l2_by_lines && fabs(o.t_l2_ms - wr) < 1e-9 * wr);
	/* the same without rule L4's rates: rule L2's sum */
	predict("gid%4096", "gid", 16, (int64_t)1 << 22, 0, &o, &rd, &wr);
	assert_true(fabs(o.t_l2_ms - (rd + wr)) < 1e-9 * (rd + wr));
	/* a store that writes every sector partly (float lanes 8 B apart): the merges read in L2, the sum */
	predict("gid", "gid*2", 4, (int64_t)1 << 22, 1, &o, &rd, &wr);
	assert_true(o.l2_part_lines + o.l2_merged_lines > 0);
	assert_true(o.l2_by_lines || fabs(o.t_l2_ms - (rd + wr)) < 1e-9 * (rd + wr));
	assert_true(o.t_l2_ms >= rd + wr - 1e-9 * (rd + wr));
}

/* A float4 table of 16 MiB re-read every 2^20 threads (dev-36x reuse_17's shape): found by rule D7 alone, the sum. */
static void test_d7_table(void **state)
{
	struct gm_launch_out o;
	double rd, wr;

	(void)state;
	predict("gid%1048576", "gid", 16, (int64_t)25165824, 1, &o, &rd, &wr);
	assert_true(o.l2_footprint_bytes > 0);
	assert_true(!o.l2_by_lines && fabs(o.t_l2_ms - (rd + wr)) < 1e-9 * (rd + wr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_d7_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
