/* test_launch.c - the launch model's traffic rules, table-driven and on planted launches (the time rules:
 * test_launch_time.c); the profile,
 * the profile from a run, the score and the CLI: test_launch_profile.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>
#include "gpumem/profile.h"
#include "launch_fixture.h"  /* prof(), launch_of() */
#include "model/model_internal.h" /* rule D8's KEEP_CLEAN_LO / _HI */

struct row {
	const char *index;   /* EXPR of the load side (out[gid] = in[EXPR]) */
	int elem;
	double read_per_thread;  /* DRAM bytes read per thread */
	double density;
	double read_gbs;         /* rate the reads go at */
};

static const struct row rows[] = {
	{ "gid", 4, 4, 1.0, 3000 },
	{ "gid*2", 4, 8, 1.0, 3000 },
	{ "gid*16", 4, 64, 1.0, 3000 },    /* 64 B apart: every piece read, whole */
	{ "gid*24", 4, 64, 2.0 / 3, 2750 }, /* 96 B apart: 1 / density 1.5, halfway from read_gbs to read_half_gbs */
	{ "gid*32", 4, 64, 0.5, 2500 },    /* 128 B apart: half the pieces of a 256 B group */
	{ "gid*48", 4, 64, 1.0 / 3, 2500 - (2500 - 2100.0) / 2 }, /* 192 B apart: halfway to 256 B's rate (D3, m65, m80) */
	{ "gid*128", 4, 64, 0.25, 2000 },  /* 512 B apart: isolated pieces */
	{ "gid*1024", 16, 64, 0.25, 2000 },
	{ "gid", 16, 16, 1.0, 3000 },
};

static void test_rows(void **state)
{
	struct gm_profile p = prof();

	(void)state;
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		const struct row *r = &rows[k];
		struct gm_access pats[2];
		struct gm_launch_in in;
		struct gm_launch_out o;
		int64_t n = 1 << 16;
		double t;

		launch_of(r->index, r->elem, n, pats, &in);
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		assert_false(o.sampled); /* 2048 warps: every one */
		assert_true(fabs(o.dram_read_bytes - r->read_per_thread * n) < 1);
		assert_true(fabs(o.dram_write_bytes - (double)r->elem * n) < 1);
		assert_true(fabs(o.read_density - r->density) < 1e-9);
		t = (o.dram_read_bytes / r->read_gbs + o.dram_write_bytes / p.write_gbs) / 1e6;
		assert_true(fabs(o.t_dram_ms - t) < 1e-12);
		assert_string_equal(o.limited_by, "DRAM");
		assert_true(fabs(o.gbs - 2.0 * n * r->elem / (t * 1e-3) / 1e9) < 1e-6);
	}
}

static void test_partial_stores_and_l2(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	launch_of("gid", 4, 1 << 16, pats, &in);
	pats[1].base = 4; /* misaligned stores: 5 sectors a warp, 2 of them partial */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.partial_store_sectors - 2.0 * 2048) < 1e-9);
	assert_true(fabs(o.l2_store_sectors - 7.0 * 2048) < 1e-9);
	/* partial sectors of neighbouring warps merge in L2: DRAM writes the footprint, and an edge sector
	   of the run (it borders a full one) is charged with the bytes this run writes in it, the rest
	   belonging to the neighbouring run: 28 + 4 bytes of the two edges */
	assert_true(fabs(o.dram_write_bytes - 4.0 * 65536) < 1);
	assert_true(o.dram_fill_bytes == 0); /* run edges border full sectors: no fill */
	/* strided stores leave every sector partial: each 64 B piece is read first (rule D5) */
	pats[1].base = 0;
	pats[1].index = "gid*4";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_fill_bytes - 16.0 * 65536) < 1);
	assert_true(fabs(o.dram_read_bytes - 20.0 * 65536) < 1);
	assert_true(fabs(o.dram_write_bytes - 16.0 * 65536) < 1);
	pats[1].index = "gid";
	p.l2_write_gbs = 1; /* now L2 limits */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_string_equal(o.limited_by, "L2");
}

static void test_warp_invariant(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	launch_of("lane", 4, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* every warp's 128 B counted as new data */
	assert_true(fabs(o.dram_read_bytes - 4.0 * 65536) < 1);
}

static void test_block_reuse_in_l1(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	/* the 8 warps of a block load the same 128 B: one block's sectors reach L2 once */
	launch_of("bx*32 + lane", 4, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l1_load_sectors - 4.0 * 2048) < 1e-9);
	assert_true(fabs(o.l2_load_sectors - 4.0 * 256) < 1e-9);
	assert_true(fabs(o.dram_read_bytes - 128.0 * 256) < 1);
}

/* A thread's unrolled loop, evaluated whole: the 64 B piece two iterations share is read once. */
static void test_repeat(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_repeat rep[2] = { { 4, 256 * 4 }, { 4, 256 * 4 } };
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	/* offset.rd_o01's shape: block b reads in[b*1024 + u*256 + tid + 1], u < 4 */
	launch_of("bx*1024 + tid", 4, 1 << 16, pats, &in);
	pats[0].base = 4;
	pats[1].index = "bx*1024 + tid";
	in.n_threads = (1 << 16) / 4;
	in.repeat = rep;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* the footprint plus the one piece past its end; first iteration alone would add one per chunk */
	assert_true(fabs(o.dram_read_bytes - (4.0 * 65536 + 64)) < 1);
	assert_true(fabs(o.dram_write_bytes - 4.0 * 65536) < 1);
	assert_true(fabs(o.l1_load_sectors - 5.0 * 2048) < 1e-9);
}

/* Two loops: rows 8 apart (outer) and 32-column halves (inner) of a 16 x 64 tile per block of 32 x 1. */
static void test_repeat2(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_repeat rep[2] = { { 2, 8 * 1024 * 4, 2, 32 * 4 }, { 2, 8 * 1024 * 4, 2, 32 * 4 } };
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	/* block b covers rows (b/16)*16 + {0, 8} ... of a 1024-wide matrix: 64 columns at (b%16)*64 */
	launch_of("(bx/16)*16*1024 + (bx%16)*64 + tid", 4, 1 << 14, pats, &in);
	pats[1].index = pats[0].index;
	in.block[0] = 32;
	in.repeat = rep;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* 2^14 thread executions x 4 iterations x 4 B, loaded and stored; DRAM reads every byte once */
	assert_true(fabs(o.useful_bytes - 2.0 * 4 * 4 * 16384) < 1);
	assert_true(fabs(o.l1_load_sectors - 4.0 * 4 * 512) < 1e-9);
	assert_true(fabs(o.dram_read_bytes - 4.0 * 4 * 16384) < 1);
}

/*
 * Rules D6 and D8: warp w reads what warp w - 512 read (512 warps apart:
 * beyond the 256-warp window, inside the lookback). The window moves 256 B per
 * warp from DRAM (128 B read, 128 B written): the lookback chunk that holds
 * the readers, 384 warps back at its middle, is 98 KB of traffic away. With
 * an L2 where that is under KEEP_CLEAN_LO x l2_bytes every sampled window
 * after the first finds its pieces there; with one so small that nothing that
 * far can stay (past KEEP_CLEAN_HI x l2_bytes) none does; in between, a share.
 */
static void test_l2_reuse_across_windows(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	double all = 4.0 * (1 << 22); /* every load's bytes, once each */

	(void)state;
	launch_of("gid % (512*32)", 4, 1 << 22, pats, &in);
	/* the 64 KiB table is a footprint too (rule D7, with the output 0.66 of 200 KB, 1.09 of 120 KB: L2
	   keeps a share of it); what D6 leaves is the reads before D7's cut (l2_footprint_bytes) */
	p.l2_bytes = 200e3; /* 98 KB is 0.49 of it: kept */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.sampled);
	/* 7 windows hit; window 0 (warps 0-255), nothing before it, reads all it loads, but the launch's cold start
	   is its compulsory reads: the 64 KiB table once (rule D9) */
	assert_true(fabs(o.dram_read_bytes + o.l2_footprint_bytes - 4.0 * 512 * 32) < 1);
	p.l2_bytes = 30e3; /* 1.1 x 30 KB reaches 128 warps back: the reader 512 warps back is out of reach */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_read_bytes - all) < 1 && o.l2_footprint_bytes == 0);
	p.l2_bytes = 120e3; /* 98 KB is 0.82 of it: L2 keeps part */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_read_bytes + o.l2_footprint_bytes > all / 8 + 1);
	assert_true(o.dram_read_bytes + o.l2_footprint_bytes < all - 1);
}

/*
 * Rule D8 for stores: threads [k 2P, k 2P + P) write the first 16 B of each
 * 32 B sector of a chunk, threads P later the other 16 B. Near (P = 2^14
 * threads, 512 warps, 192 KB apart in an L2 of 40 MB) the halves meet in L2:
 * every sector is written once and nothing is read first; far (P = 2^23, past
 * KEEP_FILL_HI) every half is read, then written as a whole sector.
 */
static void test_partial_sectors_far_apart(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	double n = (double)(1 << 24), bytes = 4.0 * n;

	(void)state;
	p.l2_bytes = 40e6;
	launch_of("gid", 4, 1 << 24, pats, &in);
	pats[1].index = "(gid/32768)*32768 + ((gid%16384)/4)*8 + ((gid/16384)%2)*4 + gid%4";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_write_bytes - bytes) < 1e-3 * bytes);
	assert_true(o.dram_fill_bytes < 1e-3 * bytes);
	launch_of("gid", 4, 1 << 26, pats, &in);
	pats[1].index = "(gid/16777216)*16777216 + ((gid%8388608)/4)*8 + ((gid/8388608)%2)*4 + gid%4";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_write_bytes - 2 * 4.0 * (1 << 26)) < 1e-3 * 4.0 * (1 << 26));
	assert_true(fabs(o.dram_fill_bytes - 2 * 4.0 * (1 << 26)) < 1e-3 * 4.0 * (1 << 26));
}

/* A thread walking its own 64 KiB row (matvec v0): 64 of 16384 iterations evaluated, scaled, pieces once. */
static void test_long_loop_sampled(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_repeat rep[1] = { { 16384, 4 } };
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	launch_of("gid*16384", 4, 2048, pats, &in);
	in.npats = 1; /* the load alone */
	in.repeat = rep;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.useful_bytes - 2048.0 * 16384 * 4) < 1);
	assert_true(fabs(o.dram_read_bytes - 2048.0 * 16384 * 4) < 1);
	/* each iteration's request touches 32 sectors (one per row); 2048 / 32 warps x 16384 iterations */
	assert_true(fabs(o.l1_load_sectors - 32.0 * 64 * 16384) < 1e-6);
}

/* L1 serves a 128 B line per wavefront: a column walk (32 lines a request) costs 32 of them. */
static void test_l1_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	p.l1_gbs = 1;
	launch_of("lane*4096 + warp", 4, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* loads: 32 lines a request; stores ("gid"): 1 line a request; 2048 warps each */
	assert_true(fabs(o.l1_lines - 33.0 * 2048) < 1e-9);
	assert_true(fabs(o.t_l1_ms - 33.0 * 2048 * 128 / 1e9 * 1e3) < 1e-9);
	assert_string_equal(o.limited_by, "L1");
}

/*
 * Rule T1 by banks: the same column walk at a pitch of 4097 words puts each lane's word in a bank of its
 * own (32 lines, one wavefront); at 4096 every word is in bank 0 (32 wavefronts); at 4104 (8 words past
 * 4096) the 32 words share 4 banks, 8 a bank (8 wavefronts). Lines and L2's lookups do not change.
 */
static void test_l1_banks(void **state)
{
	static const struct {
		const char *index;
		double waves;
	} c[] = { { "lane*4096 + warp", 32 }, { "lane*4097 + warp", 1 }, { "lane*4104 + warp", 8 } };
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	p.l1_gbs = 1;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		launch_of(c[k].index, 4, 1 << 16, pats, &in);
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		/* stores ("gid"): one line and one wavefront a request; 2048 warps each */
		assert_true(fabs(o.l1_lines - 33.0 * 2048) < 1e-9);
		assert_true(fabs(o.l1_wavefronts - (c[k].waves + 1) * 2048) < 1e-9);
		assert_true(fabs(o.t_l1_ms - (c[k].waves + 1) * 2048 * 128 / 1e9 * 1e3) < 1e-9);
	}
	/* 8-byte lanes keep their lines */
	launch_of("lane*2049 + warp", 8, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l1_wavefronts - o.l1_lines) < 1e-9);
}

/*
 * Rule D7: a small table read over and over moves from DRAM once; a table whose footprint with the
 * streams beside it passes KEEP_CLEAN_HI x l2_bytes does not, one between KEEP_CLEAN_LO and KEEP_CLEAN_HI
 * in part (rule D8's share); a small output rewritten is written once.
 */
static void test_footprint_in_l2(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 26;

	(void)state;
	launch_of("gid % 4096", 4, n, pats, &in); /* 16 KiB, every window reads all of it */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_read_bytes - 16384) < 1e-6);
	/* rule D9 has taken the cold window down to the table's compulsory reads already: nothing left for D7 */
	assert_true(o.l2_footprint_bytes == 0 && o.l2_reuse_bytes > 0);
	assert_true(fabs(o.dram_write_bytes - 4.0 * n) < 1e-6); /* the output streams */
	launch_of("(gid * 7) % 1000003", 4, n, pats, &in); /* a hashed 4 MB table: 8 MB with the output < 25 MB */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* the footprint is the range the sampled windows saw: at most the table, here 3/4 of it */
	assert_true(o.dram_read_bytes <= 4000012.0 + 64 && o.dram_read_bytes > 2e6);
	launch_of("gid % 4000000", 4, n, pats, &in); /* 16 MB, 32 MB with the output */
	p.l2_bytes = 25e6; /* 1.28 x L2: past KEEP_CLEAN_HI, nothing kept */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_read_bytes > 0.9 * 4.0 * n && o.l2_footprint_bytes == 0);
	p.l2_bytes = 80e6; /* the same launch on a larger L2 (0.4 of it, under KEEP_CLEAN_LO): kept */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_read_bytes < 16.1e6);
	{
		/* 0.64 of 50 MB: between the bounds, L2 keeps the share (1.1 - 0.64) / (1.1 - 0.6) = 0.92 of
		   what the footprint saves (rule D8's bounds for a clean piece) */
		double fp = o.dram_read_bytes, saved = o.l2_footprint_bytes, x = fp * 2 / 50e6;
		double q = (KEEP_CLEAN_HI - x) / (KEEP_CLEAN_HI - KEEP_CLEAN_LO);

		p.l2_bytes = 50e6;
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		assert_true(q > 0.9 && q < 0.95);
		assert_true(fabs(o.l2_footprint_bytes - q * saved) < 1e-9 * saved);
		assert_true(fabs(o.dram_read_bytes - (fp + (1 - q) * saved)) < 1e-6 * saved);
	}
	launch_of("gid", 4, n, pats, &in); /* out[gid % 1024] = in[gid]: 4 KiB written */
	pats[1].index = "gid % 1024";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_write_bytes - 4096) < 1e-6);
	assert_true(fabs(o.dram_read_bytes - 4.0 * n) < 1e-6);
}

/*
 * Rule D9: a 3-row stencil (lanes read rows 16384 floats, 512 warps, apart) reads each piece three times, the
 * later two from L2 (rule D6, inside the lookback): the warm windows read every piece once. The first window has
 * nothing before it and reads its three rows; scaled as 1/8 of the launch it made the reads (3 + 7) / 8 of the
 * input. The launch's cold start is its compulsory reads, the input's pieces once: that, and not more.
 */
static void test_cold_window(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24;

	(void)state;
	launch_of("gid + (gid % 3) * 16384", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.sampled);
	assert_true(fabs(o.dram_read_bytes - 4.0 * n) < 0.01 * 4.0 * n);
	assert_true(o.l2_reuse_bytes > 0 && o.l2_reuse_wait_bytes > 0); /* its hits come with its reads (rule T7) */
	launch_of("gid", 4, n, pats, &in); /* nothing reused: nothing changes */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_read_bytes - 4.0 * n) < 1e-6 && o.l2_reuse_bytes == 0);
	launch_of("gid % 4096", 4, n, pats, &in); /* the warm windows read nothing: their hits do not wait */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_reuse_bytes > 0 && o.l2_reuse_wait_bytes == 0);
}

/* The windows on several threads give the numbers one thread gives, and an evaluation error the same way. */
static void test_threads_same(void **state)
{
	static const char *exprs[] = { "gid", "(gid%1024)*1024 + gid/1024", "(gid*5)%n", "gid/2", "lane*4096 + warp" };
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out a, b;
	struct gm_expr_error ea, eb;

	(void)state;
	for (size_t k = 0; k < sizeof(exprs) / sizeof(exprs[0]); k++) {
		launch_of(exprs[k], 4, (int64_t)1 << 26, pats, &in);
		assert_int_equal(gm_launch_predict(&in, &p, &a, NULL), GM_OK);
		in.threads = 5;
		assert_int_equal(gm_launch_predict(&in, &p, &b, NULL), GM_OK);
		assert_true(a.sampled && a.sampled_warps == b.sampled_warps);
		assert_true(a.dram_read_bytes == b.dram_read_bytes && a.dram_write_bytes == b.dram_write_bytes);
		assert_true(a.l2_sectors == b.l2_sectors && a.l1_lines == b.l1_lines && a.l2_reuse_bytes == b.l2_reuse_bytes);
		assert_true(a.time_ms == b.time_ms);
	}
	/* an index that leaves the array in a late window: the same error, threads or not */
	launch_of("(gid / 60000000) * (0 - 2*gid) + gid", 4, (int64_t)1 << 26, pats, &in);
	assert_int_not_equal(gm_launch_predict(&in, &p, &a, &ea), GM_OK);
	in.threads = 4;
	assert_int_not_equal(gm_launch_predict(&in, &p, &b, &eb), GM_OK);
	assert_non_null(strstr(ea.msg, "negative address"));
	assert_string_equal(ea.msg, eb.msg);
	assert_int_equal(ea.lane, eb.lane);
}

static void test_sampled_whole_launch(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	/* a 1 GiB launch is sampled, and the sample's DRAM bytes are the whole launch's; how long the
	 * prediction takes is a benchmark (scripts/bench/cpu.sh), never a unit test's assertion */
	(void)state;
	launch_of("gid*3", 4, (int64_t)1 << 28, pats, &in); /* 1 GiB per array */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.sampled);
	assert_true(fabs(o.dram_read_bytes / (12.0 * (1 << 28)) - 1) < 0.01);
}

static void test_bad_input(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	struct gm_expr_error err;

	(void)state;
	launch_of("gid", 4, 0, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, &err), GM_ERR_INVALID_ARG);
	in.n_threads = ((int64_t)1 << 40) + 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, &err), GM_ERR_INVALID_ARG);
	in.n_threads = 1000;
	p.read_half_gbs = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, &err), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(err.msg, "read_half_gbs"));
	p = prof();
	launch_of("gid / (31 - lane)", 4, 1000, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, &err), GM_ERR_EVAL);
	launch_of("gid +", 4, 1000, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, &err), GM_ERR_PARSE);
}


/*
 * Rule L4: a line a store request writes partly costs a lookup at the merged
 * rate, or x sector merges when other blocks running beside it (in the window,
 * or found by the probes) wrote x of its sectors last and that takes longer;
 * without the two rates, rule L2 (two operations a partly written sector).
 */
static void test_partial_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 22, warps = n / 32;
	double t_old;

	(void)state;
	launch_of("gid", 4, n, pats, &in);
	/* 8 warps of a block store one 4 B piece into each of the same 32 sectors (8 lines a request) */
	pats[1].index = "(gid/256)*256 + (gid%32)*8 + (gid/32)%8";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	t_old = o.t_l2_ms;
	assert_true(o.l2_part_lines == 0);
	assert_true(fabs(o.l2_merged_lines - 8.0 * warps) < 1e-6 * warps);
	assert_true(fabs(o.l2_store_bytes - 32.0 * n) < 1e-6 * n); /* a whole sector each, 4 B of it written */
	p.l2_lines_gps = 1000;
	p.l2_part_sectors_gps = 1;
	p.l2_merge_lines_gps = 2;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_by_lines);
	/* a line a load request and its two fills at l2_lines_gps, the merged lines at l2_merge_lines_gps */
	assert_true(fabs(o.t_l2_ms - (3.0 * warps / 1000 + 8.0 * warps / 2) / 1e6) < 1e-9 * o.t_l2_ms);
	/* the same pieces from 8 consecutive blocks: 7 of every 8 visits find 4 sectors of another block's */
	pats[1].index = "(gid/2048)*2048 + (gid%256)*8 + (gid/256)%8";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l2_partial_lines[4] - 7.0 * warps) < 1e-6 * warps);
	assert_true(fabs(o.l2_merged_lines - 1.0 * warps) < 1e-6 * warps);
	assert_true(fabs(o.t_l2_ms - (3.0 * warps / 1000 + 1.0 * warps / 2 + 7.0 * warps * 4 / 1) / 1e6) <
		    1e-9 * o.t_l2_ms);
	/* one sector a line from other blocks (a column of 4 B stores): the lookup, not the merge, sets it */
	pats[1].index = "(gid%1024)*1024 + gid/1024";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_partial_lines[2] == 0 && o.l2_partial_lines[4] == 0);
	assert_true(o.l2_partial_lines[1] > 0);
	{
		struct gm_launch_out o2, o3;

		p.l2_part_sectors_gps = 4; /* a merge (1/4) faster than the lookup (1/2): the lookup's rate */
		assert_int_equal(gm_launch_predict(&in, &p, &o2, NULL), GM_OK);
		p.l2_part_sectors_gps = 1e6;
		assert_int_equal(gm_launch_predict(&in, &p, &o3, NULL), GM_OK);
		assert_true(fabs(o2.t_l2_ms - o3.t_l2_ms) < 1e-12 && o2.t_l2_ms < o.t_l2_ms);
		p.l2_part_sectors_gps = 1;
	}
	/* s80: two sectors a line from other blocks (lanes 64 B apart, the pass's other half writes the line's other two
	   sectors), merges faster than the lookup: the lookup and one merge, linear from the lookup (x = 1) to the four
	   merges at l2_part_sectors_gps (x = 4); x = 2 at 1/2 + (4/4 - 1/2) / 3 = 2/3 where two merges would take 1/2 */
	pats[1].index = "(gid/2048)*2048 + ((gid%128)/2*4 + (gid%2)*2 + (gid%256)/128)*8 + (gid/256)%8";
	{
		struct gm_launch_out o2, o3;
		double x2, x3, x4;

		p.l2_part_sectors_gps = 4;
		assert_int_equal(gm_launch_predict(&in, &p, &o2, NULL), GM_OK);
		p.l2_part_sectors_gps = 1e9; /* merges free: every line at the lookup */
		assert_int_equal(gm_launch_predict(&in, &p, &o3, NULL), GM_OK);
		x2 = o2.l2_partial_lines[2], x3 = o2.l2_partial_lines[3], x4 = o2.l2_partial_lines[4];
		assert_true(x2 > 0.5 * warps && x2 > 4 * (x3 + x4));
		assert_true(o2.l2_by_lines && o3.l2_by_lines);
		assert_true(fabs(o2.t_l2_ms - o3.t_l2_ms - (x2 / 6 + x3 / 3 + x4 / 2) / 1e6) < 1e-9 * o2.t_l2_ms);
		p.l2_part_sectors_gps = 1;
	}
	/* the 8 pieces from blocks 512 warps apart, outside the window but running beside it (D8's probes) */
	pats[1].index = "(gid/131072)*131072 + (gid%16384)*8 + (gid/16384)%8";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_partial_lines[4] > 0.9 * (o.l2_part_lines + o.l2_merged_lines));
	/* a shape, not a place (rule W: every warp the same addresses): each warp's lines are its own */
	pats[1].index = "lane*8";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_part_lines == 0 && o.l2_merged_lines > 0);
	/* whole sectors: no partial line */
	pats[1].index = "gid";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_part_lines == 0 && o.l2_merged_lines == 0);
	/* without the two rates, rule L2 as before */
	p = prof();
	pats[1].index = "(gid/256)*256 + (gid%32)*8 + (gid/32)%8";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.t_l2_ms == t_old);
}

/*
 * Rule L4's far end: a line a lane writes alone, completed by other blocks, costs between the near cost and the far
 * rate of its lane's width (4 B: l2_far_lines_gps, 16 B: l2_far_lines16_gps), by log2 of its request's line spacing
 * from 128 B to 512 KiB + 128 B; lines a block completes itself keep the near cost; without the far rates, as before.
 */
static void test_far_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o, o0;
	const int64_t n = (int64_t)1 << 22;
	double lines, f;

	(void)state;
	p.l2_lines_gps = 1000;
	p.l2_part_sectors_gps = 1e6;
	p.l2_merge_lines_gps = 2;
	launch_of("gid", 4, n, pats, &in);
	/* calibrate's copy.colstore_b4: 1024 rows 512 KiB + 128 B apart, every partial line far, weight 1 */
	pats[1].index = "(gid%1024)*131104 + gid/1024";
	assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
	lines = o0.l2_part_lines + o0.l2_merged_lines;
	assert_true(lines > 0 && fabs(o0.l2_far_lines - lines) < 1e-6 * lines && o0.l2_far_wide_lines == 0);
	p.l2_far_lines_gps = 0.5;
	p.l2_far_lines16_gps = 0.25;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_l2_ms - ((o.l2_lines - lines) / 1000 + lines / 0.5) / 1e6) < 1e-9 * o.t_l2_ms);
	/* 16 B lanes: the wide rate */
	pats[0].elem_bytes = pats[1].elem_bytes = 16;
	pats[1].index = "(gid%1024)*32776 + gid/1024";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	lines = o.l2_part_lines + o.l2_merged_lines;
	assert_true(fabs(o.l2_far_wide_lines - lines) < 1e-6 * lines);
	assert_true(fabs(o.t_l2_ms - ((o.l2_lines - lines) / 1000 + lines / 0.25) / 1e6) < 1e-9 * o.t_l2_ms);
	/* rows 4 KiB + 128 B apart: each line's weight log2(33) / log2(4097) */
	pats[0].elem_bytes = pats[1].elem_bytes = 4;
	pats[1].index = "(gid%1024)*1056 + (gid/1024)%1056 + (gid/1081344)*1081344";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	lines = o.l2_part_lines + o.l2_merged_lines;
	f = log2(4224.0 / 128) / log2(4097.0);
	assert_true(fabs(o.l2_far_lines - f * lines) < 1e-3 * lines);
	/* the 8 warps of a block complete each sector (a naive transpose's stores, 32 rows apart): near */
	pats[1].index = "(gid/256)*8 + (gid%32)*131104 + (gid%256)/32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_part_lines + o.l2_merged_lines > 0 && o.l2_far_lines < 1e-6 * (o.l2_part_lines + o.l2_merged_lines));
	/* lines 128 B apart (copy.scatter_b4's spacing): weight 0 */
	pats[1].index = "(gid%1024)*32 + gid/1024";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_far_lines == 0);
	/* without the far rates: the near cost */
	pats[1].index = "(gid%1024)*131104 + gid/1024";
	p.l2_far_lines16_gps = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.t_l2_ms == o0.t_l2_ms);
}

/*
 * Rule L3: a request whose 32 lanes fall in 32 lines L2 holds costs L2 32 line lookups; each 64 B piece L2
 * fetches from DRAM one more (its fill).
 */
static void test_l2_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24, warps = n / 32;

	(void)state;
	launch_of("(gid * 32) % 1048576", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* 32 load lines + 1 store line a warp, and a fill for each piece of the 4 MB table read once (D7) */
	assert_true(o.dram_read_bytes > 0 && o.dram_read_bytes <= 4194304.0);
	assert_true(fabs(o.l2_lines - (33.0 * warps + o.dram_read_bytes / 64)) < 1e-6 * o.l2_lines);
	p.l2_lines_gps = 1; /* 1e9 lines a second: L2 takes lines / 1e9 s */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_l2_ms - (33.0 * warps + o.dram_read_bytes / 64) / 1e6) < 1e-9 * o.t_l2_ms);
	assert_string_equal(o.limited_by, "L2");
	launch_of("gid * 32", 4, n, pats, &in); /* the same requests from DRAM: a piece a lane, each filled */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.dram_read_bytes - 64.0 * n) < 1e-6 * o.dram_read_bytes);
	assert_true(fabs(o.l2_lines - (33.0 * warps + 1.0 * n)) < 1e-6 * o.l2_lines);
	launch_of("gid", 4, n, pats, &in); /* coalesced: one line a request and two fills, far from the rate */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l2_lines - 4.0 * warps) < 1e-6 * o.l2_lines);
}

/* Rule T11: the L1 wavefronts of load requests over GM_L1_MANY_LINES lines at l1_lines_gps, the rest at l1_gbs. */
static void test_l1_many_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24, warps = n / 32;
	double t1;

	(void)state;
	launch_of("(gid%32)*32 + (gid/32)%32", 4, n, pats, &in); /* 32 lines a request, each word in bank 0 */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l1_many_wavefronts - 32.0 * warps) < 1e-6 * o.l1_many_wavefronts);
	t1 = o.t_l1_ms;
	p.l1_lines_gps = 1; /* 1e9 wavefronts a second: those loads' L1 time, plus the stores' at l1_gbs */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_l1_ms - (32.0 * warps / 1e6 + (t1 - 32.0 * warps * 128.0 / p.l1_gbs / 1e6))) <
		    1e-9 * o.t_l1_ms);
	launch_of("(gid%4)*32 + (gid/4)%32", 4, n, pats, &in); /* 4 lines a request: T1 alone */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l1_many_wavefronts == 0);
}

/* Rule P: load lanes that miss L1 alone in their 2 MiB page of the request, a translation each. */
static void test_pages(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24;

	(void)state;
	/* 256 rows 4 MiB + 128 B apart: every lane alone in its page, a block one column (no L1 hits) */
	launch_of("(gid%256)*1048608 + gid/256", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_lanes - (double)n) < 1e-6 * n);
	assert_true(o.t_pages_ms == 0); /* no rate in the profile: no level */
	p.pages_gps = 1; /* 1e9 lanes a second */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - (double)n / 1e6) < 1e-9 * o.t_pages_ms);
	assert_string_equal(o.limited_by, "pages");
	/* rule P4: the distance between the request's lone pages picks the rate, linear in its log between the
	   measured 2, 4 and 16 MiB + 128 B, the nearest outside; stores keep pages_gps */
	assert_true(fabs(o.page_distance - 4194432.0) < 1.0);
	p.pages_2m_gps = 2;
	p.pages_16m_gps = 0.5;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - (double)n / 1e6) < 1e-9 * o.t_pages_ms);
	launch_of("(gid%256)*4194336 + gid/256", 4, n, pats, &in); /* 16 MiB + 128 B: 2 ns a lane */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 2.0 * n / 1e6) < 1e-6 * o.t_pages_ms);
	launch_of("(gid%256)*16777248 + gid/256", 4, n, pats, &in); /* 64 MiB + 128 B: the farthest measured */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 2.0 * n / 1e6) < 1e-6 * o.t_pages_ms);
	launch_of("(gid%256)*524320 + gid/256", 4, n, pats, &in); /* 2 MiB + 128 B: 0.5 ns */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 0.5 * n / 1e6) < 1e-6 * o.t_pages_ms);
	launch_of("(gid%256)*2097184 + gid/256", 4, n, pats, &in); /* 8 MiB + 128 B: halfway in the log, 1.5 ns */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 1.5 * n / 1e6) < 1e-3 * o.t_pages_ms);
	/* h49m: 100 rows 4 MiB + 128 B apart, loads: the warps that wrap to the next column keep the pitch as
	   their distance (the median gap; the mean took 3.2 pitches for rows 96..99 and 0..27) */
	launch_of("(gid%100)*1048608 + gid/100", 4, (n / 100) * 100, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_distance - 4194432.0) < 1.0);
	launch_of("(gid%256)*4194336 + gid/256", 4, n, pats, &in); /* the same walk stored (P3): pages_gps */
	pats[0].op = GM_OP_STORE;
	pats[1].op = GM_OP_LOAD;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - (double)n / 1e6) < 1e-6 * o.t_pages_ms);
	/* rule P5: lone lanes a power of two apart (2 MiB or more, each within a line) cost pages_2m_gps /
	   pages_2m_al_gps times P4's time at 2 MiB, fading linear in the log of the distance to none at 8 MiB */
	pats[0].op = GM_OP_LOAD;
	pats[1].op = GM_OP_STORE;
	p.pages_2m_al_gps = 1; /* twice P4's 2 MiB time */
	launch_of("(gid%256)*524288 + gid/256", 4, n, pats, &in); /* exactly 2 MiB: 0.5 x 2 ns */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_aligned - 1) < 1e-9);
	assert_true(fabs(o.t_pages_ms - 1.0 * n / 1e6) < 1e-6 * o.t_pages_ms);
	launch_of("(gid%256)*524289 + gid/256", 4, n, pats, &in); /* 2 MiB + 4 B: 32 lanes within 124 B */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 1.0 * n / 1e6) < 1e-3 * o.t_pages_ms);
	launch_of("(gid%256)*524320 + gid/256", 4, n, pats, &in); /* 2 MiB + 128 B: P4 alone */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_aligned == 0 && fabs(o.t_pages_ms - 0.5 * n / 1e6) < 1e-6 * o.t_pages_ms);
	launch_of("(gid%256)*1048576 + gid/256", 4, n, pats, &in); /* 4 MiB: 1 ns x (1 + 1/2) */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - 1.5 * n / 1e6) < 1e-3 * o.t_pages_ms);
	launch_of("(gid%256)*2097152 + gid/256", 4, n, pats, &in); /* 8 MiB: gone, P4's 1.5 ns */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_aligned == 1 && fabs(o.t_pages_ms - 1.5 * n / 1e6) < 1e-3 * o.t_pages_ms);
	launch_of("(gid%256)*786432 + gid/256", 4, n, pats, &in); /* 3 MiB: not a power of two */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_aligned == 0);
	p.pages_2m_gps = p.pages_16m_gps = p.pages_2m_al_gps = 0;
	/* 32 rows 32 MiB apart: alone, but the block's 8 columns share each sector: L1 serves 7 in 8 */
	launch_of("(gid%32)*8388608 + gid/32", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_lanes - n / 8.0) < 0.05 * n / 8.0); /* the L1 share of the sampled windows */
	/* rows 1 MiB apart: two lanes a page, none alone; coalesced: one page */
	launch_of("(gid%1024)*262144 + gid/1024", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_lanes == 0 && o.t_pages_ms == 0);
	launch_of("gid", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_lanes == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_partial_stores_and_l2),
		cmocka_unit_test(test_warp_invariant),
		cmocka_unit_test(test_block_reuse_in_l1),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_repeat2),
		cmocka_unit_test(test_l1_lines),
		cmocka_unit_test(test_l1_banks),
		cmocka_unit_test(test_l2_reuse_across_windows),
		cmocka_unit_test(test_partial_sectors_far_apart),
		cmocka_unit_test(test_long_loop_sampled),
		cmocka_unit_test(test_threads_same),
		cmocka_unit_test(test_footprint_in_l2),
		cmocka_unit_test(test_cold_window),
		cmocka_unit_test(test_l2_lines),
		cmocka_unit_test(test_l1_many_lines),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_partial_lines),
		cmocka_unit_test(test_far_lines),
		cmocka_unit_test(test_sampled_whole_launch),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
