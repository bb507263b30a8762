/*
 * test_launch_time.c - the launch model's time rules on planted launches (docs/MODEL.md 7.2): the read/write
 * turnaround, filled pieces written back (D10), waves (T1, T2), the block tail and lines (T5), blocks started a
 * second (T4), the knee (T3), the phases that end at a barrier (T9), a launch timed back to back (D11, S3).
 * The traffic rules are in test_launch.c. No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"
#include "launch_fixture.h"

#define FILL_BIN0 (GM_READ_SPACING_BINS / 2) /* rule D3: the fills' bins */

/*
 * Rule T7: the loads L2 serves come back in wave_l2_ns, but a hit of a pattern that also reads from DRAM in the
 * same window (a stencil's rows: each request reads the new row from DRAM beside the rows read before) returns
 * with those reads, in wave_ns. A table read over and over (its warm windows read nothing) keeps wave_l2_ns.
 */
/* A profile whose round trips are round numbers: wave_ns 1000, wave_l2_ns 100 (T7, T9). */
static struct gm_profile wave_prof(void)
{
	struct gm_profile p = prof();

	p.threads_per_sm = 2048;
	p.wave_ns = 1000;
	p.wave_l2_ns = 100;
	return p;
}

static void test_hits_wait(void **state)
{
	struct gm_profile p = wave_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24;
	double per_wave;

	(void)state;
	launch_of("gid + (gid % 3) * 16384", 4, n, pats, &in);
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	per_wave = o.t_waves_ms * 1e6 / o.waves / o.block_tail;
	assert_true(o.l2_reuse_wait_bytes > 0.99 * o.l2_reuse_bytes);
	assert_true(fabs(per_wave - 1000) < 1e-6);
	launch_of("gid % 4096", 4, n, pats, &in);
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	per_wave = o.t_waves_ms * 1e6 / o.waves / o.block_tail;
	assert_true(o.l2_reuse_wait_bytes == 0 && per_wave < 1000 * 0.99);
}

/*
 * Rules D11 and S3, a launch timed back to back (explain --run's): with the profile's floor_us, a launch whose lines
 * fit in L2 (rule D8's clean bounds of l2_bytes) moves no DRAM bytes, and the pace of launches joins its time at the
 * knee; far past L2's bounds its DRAM stays; without floor_us, or not back to back, neither rule acts.
 */
static void test_back_to_back(void **state)
{
	struct gm_profile p = wave_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out a, b;

	(void)state;
	p.knee = 4;
	p.floor_us = 3;
	launch_of("gid", 4, (int64_t)1 << 16, pats, &in); /* 512 KiB of lines, L2 50 MB (the fixture's) */
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &a, NULL), GM_OK);
	assert_true(a.l2_kept_bytes == 0 && a.t_floor_ms == 0 && a.dram_read_bytes > 0);
	in.back_to_back = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &b, NULL), GM_OK);
	assert_true(b.dram_read_bytes == 0 && b.dram_write_bytes == 0);
	assert_true(fabs(b.l2_kept_bytes - a.dram_read_bytes - a.dram_write_bytes) < 1e-6);
	assert_true(b.t_floor_ms == 3e-3 && b.time_ms > 3e-3 && b.time_ms < 3e-3 + a.time_ms);
	p.floor_us = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &b, NULL), GM_OK);
	assert_true(b.l2_kept_bytes == 0 && b.t_floor_ms == 0 && fabs(b.time_ms - a.time_ms) < 1e-12);
	p.floor_us = 3;
	launch_of("gid", 4, (int64_t)1 << 26, pats, &in); /* 512 MiB of lines: none kept */
	in.one_element_per_thread = 1;
	in.back_to_back = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &b, NULL), GM_OK);
	assert_true(b.l2_kept_bytes == 0 && b.dram_read_bytes > 0 && b.t_floor_ms == 3e-3);
}

/*
 * Rule T9: a phase that ends at a barrier and reads no memory (stage_span's block range) is a round trip of
 * wave_l2_ns, and the wave's DRAM round trip is wave_ns whole: T5 (fewer lines) and T8 (fewer bytes) shorten
 * it without such phases, not with them.
 */
static void test_barrier_phases(void **state)
{
	struct gm_profile p = wave_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	p.warp_tail = 0.4;
	launch_of("gid", 1, (int64_t)1 << 24, pats, &in);
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.t_waves_ms * 1e6 / o.waves < 1000 * 0.99);
	in.barrier_phases = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.block_tail == 1.0);
	assert_true(fabs(o.t_waves_ms * 1e6 / o.waves - 1100) < 1e-6);
}

static void test_turnaround(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	p.copy_gbs = 2500; /* a copy (R = W) takes 3000/2500 of read + write alone */
	launch_of("gid", 4, 1 << 16, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.gbs - 2500) < 1e-6);
}

/*
 * Rule D10: a sector filled before its write (D5) goes back with its 64 B piece. Alone in its 256 B group (4 B
 * stores 512 B apart: read density 1/4), the piece's write costs what its read costs, at read_sparse_gbs; with no
 * filled neighbour piece (128 B apart, m76) too, at the half rate; beside its neighbours (4 B stores 8 B apart:
 * density 1) the sector is written at write_gbs as any other.
 */
static void test_fill_writes(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	double t;

	(void)state;
	launch_of("gid", 4, 1 << 16, pats, &in);
	in.pats = &pats[1];
	in.npats = 1;
	pats[1].index = "gid*128";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_fill_bytes > 0 && o.read_density <= 0.25 + 1e-9);
	t = (o.dram_read_bytes / 2000 + (o.dram_write_bytes - o.dram_fill_bytes / 2) / 3000 + o.dram_fill_bytes / 2000) / 1e6;
	assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
	/* 128 B apart (m76): no filled neighbour piece, the write back costs the read's 64 B at the half rate (s = 1,
	   where the share of the sparse read's extra time gave 0.4) */
	pats[1].index = "gid*32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_fill_bytes > 0 && fabs(o.read_density - 0.5) < 1e-9);
	t = (o.dram_read_bytes / 2500 + (o.dram_write_bytes - o.dram_fill_bytes / 2) / 3000 + o.dram_fill_bytes / 2500) / 1e6;
	assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
	pats[1].index = "gid*2";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_fill_bytes > 0 && o.read_density >= 1 - 1e-9);
	t = (o.dram_read_bytes + o.dram_write_bytes) / 3000 / 1e6;
	assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
}

/*
 * Rule D3 per pattern (m65): a dense load beside a store whose fills are sparse (4 B stores 512 B apart) reads each
 * at its own spacing's rate, the dense pieces at read_gbs (bin 0) and the fills at read_sparse_gbs (bin 12); the
 * launch's reads go at the rate of their summed time, not at the rate of the launch's middling density. Rule D10
 * (m76) writes the filled pieces back at the fills' own rate too.
 */
static void test_spacing_per_pattern(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	double pieces = 0, rate, s, wf, t;

	(void)state;
	launch_of("gid", 4, 1 << 16, pats, &in);
	pats[1].index = "gid*128";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* the dense input in bin 0, the fills 512 B apart (spacing 8: bin 16 of the fills' half, rule D3b's binning) */
	for (int k = 1; k < GM_READ_SPACING_BINS; k++)
		assert_true(o.read_spacing[k] == 0 || k == FILL_BIN0 + 16);
	assert_true(o.read_spacing[0] > 0 && o.read_spacing[FILL_BIN0 + 16] > 0);
	for (int k = 0; k < GM_READ_SPACING_BINS; k++)
		pieces += o.read_spacing[k];
	assert_true(fabs(pieces * 64 - o.dram_read_bytes) < 1e-6 * o.dram_read_bytes);
	rate = pieces / (o.read_spacing[0] / 3000 + o.read_spacing[FILL_BIN0 + 16] / 2000);
	assert_true(o.read_density > 0.25 && o.read_density < 0.5 && rate > 2000 && rate < 3000);
	/* rule D10 (m76): the fills 512 B apart (no filled neighbour piece: s = 1) go back at the fills' own rate, not
	   at the launch's middling one */
	s = 1;
	wf = o.dram_fill_bytes / 2 < o.dram_write_bytes ? o.dram_fill_bytes / 2 : o.dram_write_bytes;
	t = (o.dram_read_bytes / rate + (o.dram_write_bytes - s * wf) / 3000 + s * o.dram_fill_bytes / 2000) / 1e6;
	assert_true(fabs(o.t_dram_ms - t) < 1e-9 * t);
}

/*
 * Rule D3b: a launch whose threads each hold one load (one element a thread) reads pieces spaced x apart at a time
 * linear in log2 x between the half rate (x = 2) and the sparse rate (x = 8), the sparse rate past it; with more
 * loads a thread, rule D3 (read_quarter_gbs at x = 4, m80 / m82). The test profile: 1 / 2500 ns a byte at x = 2,
 * 1 / 2100 at x = 4 (D3), 1 / 2000 at x = 8.
 */
static void test_spacing_one_in_flight(void **state)
{
	static const struct {
		const char *index;
		int elem;
		double one, many; /* the read rate with one load a thread, and without */
	} rows[] = {
		{ "gid*48", 4, 0, 2500 - (2500 - 2100.0) / 2 }, /* 192 B: 1 / (1/2500 + (1/2000 - 1/2500) log2(1.5) / 2);
								  rule D3: halfway to 256 B's rate (m80) */
		{ "gid*64", 4, 2222.2222, 2100.0 }, /* 256 B: halfway in log2; D3: read_quarter_gbs (m82) */
		{ "gid*128", 4, 2000, 2000 },       /* 512 B: the sparse rate */
		{ "gid*512", 4, 2000, 2000 },       /* 2 KiB: past 512 B, the sparse rate (rule D3) */
		{ "gid*64", 16, 2000, 2000 },       /* 1 KiB of 16 B lanes */
	};
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		double one = rows[r].one > 0 ? rows[r].one : 1.0 / (1.0 / 2500 + (1.0 / 2000 - 1.0 / 2500) * log2(1.5) / 2);

		for (int k = 0; k < 2; k++) {
			double rate = k ? one : rows[r].many, t;

			launch_of(rows[r].index, rows[r].elem, 1 << 16, pats, &in);
			in.one_element_per_thread = k;
			assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
			/* the dense stores: 3000 GB/s, no turnaround (copy_gbs 3000) */
			t = (o.dram_read_bytes / rate + o.dram_write_bytes / 3000) / 1e6;
			assert_true(fabs(o.t_dram_ms - t) < 1e-5 * t);
		}
	}
	/* a store's fills keep rule D3 with one load a thread: strided stores 512 B apart, the same time either way */
	launch_of("gid", 4, 1 << 16, pats, &in);
	pats[1].index = "gid*128";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	double t0 = o.t_dram_ms;
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.dram_fill_bytes > 0 && fabs(o.t_dram_ms - t0) < 1e-12);
}

static void test_waves(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	p.threads_per_sm = 2048;
	p.wave_ns = 1e6; /* 1 ms a wave: latency limits */
	launch_of("gid", 4, 100 * 2048 * 10, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_string_equal(o.limited_by, "DRAM"); /* a case's loop is unknown: no wave term */
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.waves - 10) < 1e-9);
	assert_true(fabs(o.time_ms - 10) < 1e-9);
	assert_string_equal(o.limited_by, "latency");
	in.block[0] = 768; /* two blocks of 768 fit: 1536 threads a wave per SM */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.waves - ceil(2048000.0 / (1536.0 * 100))) < 1e-9);
	in.block[0] = 256;
	in.one_element_per_thread = 0;
	in.round_trips = 3; /* a thread that waits for its loads three times: three round trips a wave */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.time_ms - 30) < 1e-9);
	p.wave_ns = 0; /* a profile without it: no term */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_string_equal(o.limited_by, "DRAM");
}

/* Rule T5: a block holds its slots until its slowest warp ends: (1 + x H_w) / (1 + x H_8) of the round trip. */
static void test_block_tail(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	double h8 = 0, h32 = 0, t256;

	(void)state;
	for (int k = 1; k <= 32; k++) {
		h32 += 1.0 / k;
		h8 += k <= 8 ? 1.0 / k : 0;
	}
	assert_true(gm_launch_block_tail(0, 1024) == 1.0); /* no tail: every block size as 256 */
	assert_true(fabs(gm_launch_block_tail(0.5, 256) - 1.0) < 1e-12);
	assert_true(fabs(gm_launch_block_tail(0.5, 1024) - (1 + 0.5 * h32) / (1 + 0.5 * h8)) < 1e-12);
	assert_true(gm_launch_block_tail(0.5, 64) < 1.0 && gm_launch_block_tail(0.5, 512) > 1.0);
	p.threads_per_sm = 2048;
	p.wave_ns = 1e6; /* latency limits */
	p.warp_tail = 0.5;
	launch_of("gid", 4, 100 * 2048 * 10, pats, &in);
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	t256 = o.time_ms;
	assert_true(fabs(t256 - 10) < 1e-9);
	in.block[0] = 1024;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.time_ms - 10 * (1 + 0.5 * h32) / (1 + 0.5 * h8)) < 1e-9);
	assert_true(fabs(o.block_tail - (1 + 0.5 * h32) / (1 + 0.5 * h8)) < 1e-12);
}

/*
 * Rule T5 by lines: a block waits for the last of the distinct 128 B lines its loads read in a round trip
 * (8 for 256 threads reading 4 B each, where wave_ns is measured): fewer lines (broadcasts, 1- and 2-byte
 * elements) come back sooner, more (tiles whose warps span rows, column walks) later.
 */
static void test_block_lines(void **state)
{
	static const struct {
		const char *index;
		int elem, bx, by;
		double lines;
	} rows_[] = {
		{ "gid", 4, 256, 1, 8 },    /* a line a warp: the calibration's blocks */
		{ "gid", 1, 256, 1, 2 },    /* 1 B elements: 256 B a block */
		{ "gid", 2, 256, 1, 4 },
		{ "gid/32", 4, 256, 1, 1 }, /* 32 lanes share an address: 8 elements a block, one line */
		{ "gid/4", 4, 256, 1, 2 },
		{ "((bx/1024)*64 + ty)*16384 + (bx%1024)*4 + tx", 4, 4, 64, 64 }, /* 4 x 64 tiles: a line a row */
		{ "(gid%32)*8388608 + gid/32", 4, 256, 1, 32 },  /* 32 rows; the block's 8 columns share their lines */
		{ "(gid%256)*1048576 + gid/256", 4, 256, 1, 256 },
	};
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	assert_true(gm_launch_block_tail_lines(0, 256) == 1.0);
	assert_true(fabs(gm_launch_block_tail_lines(0.5, 8) - 1.0) < 1e-12);
	assert_true(fabs(gm_launch_block_tail_lines(0.5, 32) - gm_launch_block_tail(0.5, 1024)) < 1e-12);
	assert_true(gm_launch_block_tail_lines(0.5, 2) < gm_launch_block_tail_lines(0.5, 2.5) &&
		    gm_launch_block_tail_lines(0.5, 2.5) < gm_launch_block_tail_lines(0.5, 3));
	p.threads_per_sm = 2048;
	p.wave_ns = 1e6; /* latency limits: 10 waves of 1 ms */
	p.warp_tail = 0.5;
	for (size_t k = 0; k < sizeof(rows_) / sizeof(rows_[0]); k++) {
		launch_of(rows_[k].index, rows_[k].elem, 100 * 2048 * 10, pats, &in);
		in.block[0] = rows_[k].bx;
		in.block[1] = rows_[k].by;
		in.one_element_per_thread = 1;
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		assert_true(fabs(o.block_lines - rows_[k].lines) < 1e-9);
		assert_true(fabs(o.block_tail - gm_launch_block_tail_lines(0.5, rows_[k].lines)) < 1e-12);
		/* rule T8: a wave of 1- or 2-byte loads in blocks of 256 threads or fewer is shorter by the bytes DRAM
		   need not deliver (docs/MODEL.md 7.2) */
		double wave_ms = (p.wave_ns - (rows_[k].elem < 4 && rows_[k].bx * rows_[k].by <= 256 ?
					       (4.0 - rows_[k].elem) * p.threads_per_sm * p.sm_count / p.read_gbs : 0)) * 1e-6;
		/* rule T13: the tiles and walks (8 and 32 lines a request: 7 and 31 wavefronts beyond a dense one) wait at L1 */
		assert_true((o.t_spread_ms > 0) == (rows_[k].lines >= 32));
		assert_true(fabs(o.time_ms - 10 * wave_ms * o.block_tail - o.t_spread_ms) < 1e-9);
	}
}

/* Rule T4: threads that end come in blocks the SMs start at blocks_gps; a level like the others. */
static void test_blocks(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24;

	(void)state;
	p.threads_per_sm = 2048;
	launch_of("gid", 4, n, pats, &in);
	in.one_element_per_thread = 1;
	in.block[0] = 64;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.blocks - n / 64.0) < 1e-9);
	assert_true(o.t_blocks_ms == 0); /* a profile without the rate: no term */
	assert_string_equal(o.limited_by, "DRAM");
	p.blocks_gps = 0.01; /* 1e7 blocks a second: 262144 blocks take 26.2 ms, DRAM 0.04 */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_blocks_ms - n / 64.0 / 1e7 * 1e3) < 1e-9);
	assert_true(fabs(o.time_ms - o.t_blocks_ms) < 1e-12);
	assert_string_equal(o.limited_by, "blocks");
	in.block[0] = 1024; /* 16x fewer blocks: 1.6 ms, still the slowest */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_blocks_ms - n / 1024.0 / 1e7 * 1e3) < 1e-9);
	p.blocks_gps = 10; /* fast: DRAM limits again */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_string_equal(o.limited_by, "DRAM");
	in.one_element_per_thread = 0; /* a case's loop: its threads are not known, no blocks term */
	p.blocks_gps = 0.01;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.t_blocks_ms == 0 && o.blocks == 0);
}

/* Rule T3: the knee joins the latency and bandwidth times; 0 keeps the larger. */
static void test_knee(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;

	(void)state;
	assert_true(fabs(gm_launch_join(3, 4, 0) - 4) < 1e-12);
	assert_true(fabs(gm_launch_join(3, 4, 2) - 5) < 1e-12);
	assert_true(fabs(gm_launch_join(3, 4, 1) - 7) < 1e-12);
	assert_true(fabs(gm_launch_join(0, 4, 3) - 4) < 1e-12);
	assert_true(fabs(gm_launch_join(1e-3, 1e300, 400) - 1e300) < 1e288); /* no overflow */
	p.threads_per_sm = 2048;
	launch_of("gid", 4, 100 * 2048 * 10, pats, &in);
	in.one_element_per_thread = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	p.wave_ns = 0.75 * o.t_dram_ms * 1e6 / 10; /* latency 3/4 of DRAM */
	p.knee = 2;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.time_ms - 1.25 * o.t_dram_ms) < 1e-9 * o.time_ms);
	assert_true(fabs(o.t_bandwidth_ms - o.t_dram_ms) < 1e-12);
	assert_string_equal(o.limited_by, "DRAM");
}

/*
 * Rule P6: a load request whose lone lanes spread over their 2 MiB pages' offsets (no gap of half a page) has P4's
 * time scaled by 1 / (pages_spread_gps x P4's time a lane at 3.84 MiB, GM_PAGES_DIST_SPREAD): the calibration walk
 * (copy.pages_spread_b4's rows, 1006632 floats apart) at exactly the measured rate, other spread walks by the same
 * factor at their own distance; walks whose lanes lie within a few KiB of each other in their pages, rows 3 MiB
 * apart (offsets 0 and 1 MiB), stores, and a profile without the rate: P4 alone.
 */
static void test_pages_spread(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	const int64_t n = (int64_t)1 << 24;
	double p4, f;

	(void)state;
	p.pages_gps = 1;
	p.pages_2m_gps = 2;
	p.pages_16m_gps = 0.5;
	launch_of("(gid%256)*1006632 + gid/256", 4, n, pats, &in); /* copy.pages_spread_b4 */
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_spread - 1) < 1e-9 && o.page_aligned == 0);
	assert_true(fabs(o.page_distance - GM_PAGES_DIST_SPREAD) < 1e-3);
	p4 = o.t_pages_ms; /* no rate: P4 alone, between its 2 and 4 MiB rates */
	assert_true(p4 > 1.0 * n / 1e6 * 0.5 && p4 < 1.0 * n / 1e6);
	p.pages_spread_gps = 1.25;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_pages_ms - n / 1.25 / 1e6) < 1e-9 * o.t_pages_ms); /* the walk at its measured rate */
	assert_string_equal(o.limited_by, "pages");
	f = o.t_pages_ms / p4;
	/* 7.68 MiB (2013265 floats): spread too, P4's time there times the same factor */
	launch_of("(gid%256)*2013265 + gid/256", 4, n, pats, &in);
	p.pages_spread_gps = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	p4 = o.t_pages_ms;
	p.pages_spread_gps = 1.25;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.page_spread - 1) < 1e-9);
	assert_true(fabs(o.t_pages_ms - f * p4) < 1e-9 * o.t_pages_ms);
	/* not spread: copy.pages_b4's walk (32 lanes within 4 KiB), rows 3 MiB apart (a gap of half a page) */
	launch_of("(gid%256)*1048608 + gid/256", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_spread == 0 && fabs(o.t_pages_ms - 1.0 * n / 1e6) < 1e-9 * o.t_pages_ms);
	launch_of("(gid%256)*786432 + gid/256", 4, n, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_lanes > 0 && o.page_spread == 0);
	/* the spread walk stored (P3): no share, the stores' lanes keep pages_gps */
	launch_of("(gid%256)*1006632 + gid/256", 4, n, pats, &in);
	pats[0].op = GM_OP_STORE;
	pats[1].op = GM_OP_LOAD;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.page_lanes > 0 && o.page_spread == 0);
	assert_true(fabs(o.t_pages_ms - 1.0 * n / 1e6) < 1e-9 * o.t_pages_ms);
}

/*
 * Rule L4's spaced near rate (s75): a line a store request writes partly costs its lookup at l2_merge_far_lines_gps
 * where the request's lines lie 384 B to 3456 B apart (GM_L4_SPACED_MIN, _MAX), at l2_merge_lines_gps elsewhere:
 * calibrate's copy.scatter_far_b4 (scatter_b4's warps, each block's 32 lines 1 KiB + 128 B apart) at exactly the
 * planted rate, copy.scatter_b4 (lines consecutive), lines 256 B and 4 KiB + 128 B apart unchanged; without the field, as before.
 */
static void test_spaced_lines(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o, o0;
	const int64_t n = (int64_t)9 * 1024 * 512, warps = n / 32;

	(void)state;
	p.l2_lines_gps = 1000;
	p.l2_part_sectors_gps = 1e6;
	p.l2_merge_lines_gps = 2;
	launch_of("gid", 4, n, pats, &in);
	in.block[0] = 1024;
	pats[1].index = "(gid/9216)*9216 + ((gid%32)*9 + (gid/1024)%9)*32 + (gid%1024)/32"; /* copy.scatter_far_b4 */
	assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
	assert_true(o0.l2_part_lines == 0 && fabs(o0.l2_merged_lines - 32.0 * warps) < 1e-6 * warps);
	assert_true(fabs(o0.l2_spaced_lines_x[0] - o0.l2_merged_lines) < 1e-9 * warps && o0.l2_far_lines == 0);
	assert_true(fabs(o0.t_l2_ms - ((o0.l2_lines - 32.0 * warps) / 1000 + 32.0 * warps / 2) / 1e6) < 1e-9 * o0.t_l2_ms);
	p.l2_merge_far_lines_gps = 2.5;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_by_lines);
	assert_true(fabs(o.t_l2_ms - ((o.l2_lines - 32.0 * warps) / 1000 + 32.0 * warps / 2.5) / 1e6) < 1e-9 * o.t_l2_ms);
	/* copy.scatter_b4 (lines 128 B apart) and lines 256 B apart: l2_merge_lines_gps */
	pats[1].index = "(gid/1024)*1024 + (gid%32)*32 + (gid%1024)/32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_merged_lines > 0 && o.l2_spaced_lines_x[0] == 0);
	assert_true(fabs(o.t_l2_ms - ((o.l2_lines - o.l2_merged_lines) / 1000 + o.l2_merged_lines / 2) / 1e6) <
		    1e-9 * o.t_l2_ms);
	pats[1].index = "(gid/2048)*2048 + ((gid%32)*2 + (gid/1024)%2)*32 + (gid%1024)/32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_merged_lines > 0 && o.l2_spaced_lines_x[0] == 0);
	/* lines 384 B apart: spaced */
	pats[1].index = "(gid/3072)*3072 + ((gid%32)*3 + (gid/1024)%3)*32 + (gid%1024)/32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_merged_lines > 0 && fabs(o.l2_spaced_lines_x[0] - o.l2_merged_lines) < 1e-9 * warps);
	/* lines 4 KiB + 128 B apart (past 1152^2 / 384 = 3456 B): l2_merge_lines_gps again */
	pats[1].index = "(gid/33792)*33792 + ((gid%32)*33 + (gid/1024)%33)*32 + (gid%1024)/32";
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.l2_merged_lines > 0 && o.l2_spaced_lines_x[0] == 0);
	/* a column walk at 2 KiB + 128 B (other blocks complete its lines): every count x spaced; where x sector
	   merges take longer than the spaced lookup, they set the cost, as they do the near one */
	pats[1].index = "(gid%1024)*544 + (gid/1024)%544 + (gid/557056)*557056";
	in.block[0] = 256;
	p.l2_part_sectors_gps = 0.1;
	assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
	for (int x = 0; x < 5; x++)
		assert_true(fabs(o0.l2_spaced_lines_x[x] - o0.l2_partial_lines[x]) < 1e-9 * warps);
	assert_true(o0.l2_part_lines > 0.5 * (o0.l2_part_lines + o0.l2_merged_lines));
	p.l2_merge_far_lines_gps = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_l2_ms - o0.t_l2_ms) <= (o0.l2_merged_lines / 2 - o0.l2_merged_lines / 2.5) / 1e6 + 1e-9 * o.t_l2_ms);
	/* without the field: every line at l2_merge_lines_gps, as before (o0 of the first walk above) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turnaround),
		cmocka_unit_test(test_fill_writes),
		cmocka_unit_test(test_spacing_per_pattern),
		cmocka_unit_test(test_spacing_one_in_flight),
		cmocka_unit_test(test_waves),
		cmocka_unit_test(test_block_tail),
		cmocka_unit_test(test_block_lines),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_hits_wait),
		cmocka_unit_test(test_back_to_back),
		cmocka_unit_test(test_barrier_phases),
		cmocka_unit_test(test_pages_spread),
		cmocka_unit_test(test_spaced_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
