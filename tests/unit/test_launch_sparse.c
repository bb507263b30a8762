/*
 * test_launch_sparse.c - rule D3 between its measured rates and rule D12's sparse writes (m80;
 * src/model/launch_dram_time.c, src/model/launch_dram.c; docs/MODEL.md 7.2, D3 and D12). No GPU.
 *   D3:  loads with more than one in flight a thread read at the half rate at 128 B, at read_quarter_gbs at 256 B (kept
 *        between the half and the sparse rate; without it, the sparse rate) and at the sparse rate from 512 B, the
 *        rate linear in the spacing between;
 *   D12: a written piece weighs log2(4 / k) / 2 by the k written pieces of its 256 B group, times b = (1 - d) / (1 - dw)
 *        (the share of its windows' gaps the launch leaves unwritten); a piece alone past 256 B adds its share of
 *        512 B's spacing (log2 of its group's gap), each costing read 512 B's time over 256 B's more.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "launch_fixture.h"

/* The test profile with rule D12's rate and a half rate of its own. */
static struct gm_profile sparse_prof(void)
{
	struct gm_profile p = prof();

	p.read_half_gbs = 2800;
	p.write_sparse_gbs = 1000;
	return p;
}

static void test_d3_between(void **state)
{
	const double r4 = 2100; /* the fixture's read_quarter_gbs */
	const struct {
		const char *index;
		double rate;
	} rows[] = {
		{ "gid*32", 2800 },                       /* 128 B: the half rate */
		{ "gid*48", 2800 - (2800 - r4) / 2 },     /* 192 B: halfway to 256 B's */
		{ "gid*64", r4 },                         /* 256 B: read_quarter_gbs */
		{ "gid*128", 2000 },                      /* 512 B: the sparse rate */
		{ "gid*512", 2000 },                      /* 2 KiB: past it, the sparse rate */
	};
	struct gm_profile p = sparse_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		double t;

		launch_of(rows[r].index, 4, 1 << 16, pats, &in); /* one_element_per_thread 0: rule D3, not D3b */
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		t = (o.dram_read_bytes / rows[r].rate + o.dram_write_bytes / 3000) / 1e6; /* copy_gbs 3000: no turnaround */
		assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
	}
	/* 256 B's rate kept between the half and the sparse rate; not measured (0): the sparse rate */
	{
		const double q[][2] = { { 1900, 2000 }, { 3000, 2800 }, { 0, 2000 } };

		launch_of("gid*64", 4, 1 << 16, pats, &in);
		for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
			double t;

			p.read_quarter_gbs = q[k][0];
			assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
			t = (o.dram_read_bytes / q[k][1] + o.dram_write_bytes / 3000) / 1e6;
			assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
		}
		p.read_quarter_gbs = r4;
	}
	/* without a sparse time above the half time, 256 B reads at the sparse rate */
	p.read_half_gbs = 2000;
	launch_of("gid*64", 4, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_dram_ms - (o.dram_read_bytes / 2000 + o.dram_write_bytes / 3000) / 1e6) < 1e-9 * o.t_dram_ms);
}

static void test_d12_weights(void **state)
{
	const int64_t n = 1 << 16;
	const struct {
		const char *index;
		int elem;
		double pieces, far; /* weighted lone pieces and their far share, per thread */
	} rows[] = {
		{ "(gid/2)*16 + gid%2", 16, 0.5, 0 },       /* whole sectors 256 B apart: alone, w = 1 */
		{ "(gid/2)*8 + gid%2", 16, 0.25, 0 },       /* 128 B apart: k = 2, w = log2(2) / 2 */
		{ "(gid/4)*8 + gid%4", 16, 0.125, 0 },      /* whole atoms 128 B apart: the launch as sparse as its windows */
		{ "(gid/2)*32 + gid%2", 16, 0.5, 0.5 },     /* 512 B apart: all of 512 B's share */
		{ "(gid/2)*24 + gid%2", 16, 0.5, 0.25 },    /* 384 B: groups 1 and 2 apart in turn */
		{ "(gid/2)*4 + gid%2", 16, 0, 0 },          /* half atoms, every group whole: k = 4, nothing */
		{ "(gid%256)*4096 + gid/256", 4, 0, 0 },    /* a column walk: sparse windows, a dense launch (b = 0) */
	};
	struct gm_profile p = sparse_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		launch_of("gid", rows[r].elem, n, pats, &in);
		pats[1].index = rows[r].index;
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		/* the window's first and last groups are left out: within 0.1 % */
		assert_true(fabs(o.dram_sparse_write_pieces - rows[r].pieces * n) <= 1e-3 * n);
		assert_true(fabs(o.dram_sparse_write_far - rows[r].far * n) <= 1e-3 * n);
	}
	/* the time: each lone piece 64 B at write_sparse_gbs, the far ones read 512 B's time over 256 B's more */
	launch_of("gid", 16, n, pats, &in);
	pats[1].index = "(gid/2)*32 + gid%2";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	{
		double t4 = 1.0 / 2100, more = (1.0 / 2000) / t4 - 1.0;
		double wr = o.dram_write_bytes - o.dram_sparse_write_bytes;
		double t = (o.dram_read_bytes / 3000 + wr / 3000 +
			    (o.dram_sparse_write_pieces + o.dram_sparse_write_far * more) * 64 / 1000) / 1e6;

		assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
	}
	/* without write_sparse_gbs the rule is off */
	p.write_sparse_gbs = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_sparse_write_pieces == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_d3_between),
		cmocka_unit_test(test_d12_weights),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
