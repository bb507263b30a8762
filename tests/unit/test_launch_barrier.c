/*
 * test_launch_barrier.c - rule T6 of the launch model (docs/MODEL.md 7.2) on planted launches: a block that
 * exchanges a tile through shared memory waits at its barrier for its last load, and what the barrier holds
 * back (the shared wavefronts, the stores) follows the round trip, a wave after the other: the longer of the
 * SM's wavefronts at its share of l1_gbs and its stores at its share of l2_write_gbs; rule T13, a block's spread
 * load wavefronts added to its round trip; rule T15, the instructions a block's warps issue before their loads.
 * No GPU.
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

/*
 * 100 SMs of 2048 threads, blocks of 1024 (two an SM), 10 waves; a wavefront takes an SM 1 ns
 * (128 B x 100 SMs / 12800 GB/s), an SM sends 8.192 B/ns (819.2 GB/s / 100): the 8 KB two blocks store
 * in 1000 ns.
 */
static struct gm_profile barrier_prof(void)
{
	struct gm_profile p = prof();

	p.threads_per_sm = 2048;
	p.wave_ns = 1e4;
	p.l1_gbs = 12800;
	p.l2_write_gbs = 819.2;
	return p;
}

/* in[gid] -> tile[tid] -> tile[SMEM_LOAD] -> out[gid]: the tiled transpose's four patterns, one round trip. */
static void tile_launch(const char *smem_load, struct gm_access pats[4], struct gm_launch_in *in)
{
	static const char *index[4] = { "gid", "tid", NULL, "gid" };

	memset(pats, 0, 4 * sizeof(pats[0]));
	memset(in, 0, sizeof(*in));
	for (int k = 0; k < 4; k++) {
		pats[k].space = k == 1 || k == 2 ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
		pats[k].op = k == 0 || k == 2 ? GM_OP_LOAD : GM_OP_STORE;
		pats[k].elem_bytes = 4;
		pats[k].index = k == 2 ? smem_load : index[k];
	}
	in->pats = pats;
	in->npats = 4;
	in->block[0] = 1024;
	in->block[1] = in->block[2] = 1;
	in->n_threads = 100 * 2048 * 10;
	in->round_trips = 1;
}

/* One tile launch with its profile, patterns and prediction (the patterns live here: in.pats points at them). */
struct tile {
	struct gm_profile p;
	struct gm_access pats[4];
	struct gm_launch_in in;
	struct gm_launch_out o;
};

static void tile_predict(struct tile *t, const char *smem_load)
{
	t->p = barrier_prof();
	tile_launch(smem_load, t->pats, &t->in);
	assert_int_equal(gm_launch_predict(&t->in, &t->p, &t->o, NULL), GM_OK);
}

/* Conflict-free: 128 wavefronts a wave (128 ns) against 8 KB of stores (1000 ns): the stores. */
static void test_barrier_stores(void **state)
{
	struct tile t;
	const struct gm_launch_out *o = &t.o;

	(void)state;
	tile_predict(&t, "tid");
	assert_true(fabs(o->waves - 10) < 1e-9);
	assert_true(fabs(o->smem_wavefronts - 2000.0 * 64) < 1e-6);
	assert_true(fabs(o->t_barrier_ms - 10 * 1000e-6) < 1e-12);
	assert_true(fabs(o->t_waves_ms - (10 * 1e4 + 10 * 1000) * 1e-6) < 1e-12);
	assert_true(fabs(o->time_ms - o->t_waves_ms) < 1e-12); /* no knee: the larger */
	assert_string_equal(o->limited_by, "latency");
	/* the SM's stores over the launch are the L2 write time: the barrier adds it to the round trips */
	assert_true(fabs(o->t_barrier_ms - o->l2_store_bytes / t.p.l2_write_gbs / 1e6) < 1e-12);
}

/* A 32-way conflict on the column read: 32 x (1 + 32) wavefronts a block, 2112 ns a wave: the wavefronts. */
static void test_barrier_conflicts(void **state)
{
	struct tile t;
	const struct gm_launch_out *o = &t.o;

	(void)state;
	tile_predict(&t, "lane*32");
	assert_true(fabs(o->smem_wavefronts - 2000.0 * 32 * 33) < 1e-6);
	assert_true(fabs(o->t_barrier_ms - 10 * 2112e-6) < 1e-12);
	assert_true(fabs(o->t_waves_ms - (10 * 1e4 + 10 * 2112) * 1e-6) < 1e-12);
	/* before the rule the same wavefronts were an L1 level beside the latency, not after it */
	assert_true(o->t_l1_ms < o->t_waves_ms);
}

/*
 * Rule T1s: shared wavefronts at the banks' rate, 128 B a cycle an SM (100 SMs at 1000 MHz: 12800 GB/s), where
 * l1_gbs (global loads that hit L1) is lower; l1_gbs where it is higher, or where the profile has no clock.
 */
static void test_smem_banks_rate(void **state)
{
	struct gm_profile p = barrier_prof();
	struct tile t;

	(void)state;
	assert_true(fabs(gm_launch_smem_gbs(&p) - 12800) < 1e-9);
	p.l1_gbs = 6400;
	assert_true(fabs(gm_launch_smem_gbs(&p) - 12800) < 1e-9);
	p.l1_gbs = 25600;
	assert_true(fabs(gm_launch_smem_gbs(&p) - 25600) < 1e-9);
	p.l1_gbs = 6400;
	p.sm_clock_mhz = 0;
	assert_true(fabs(gm_launch_smem_gbs(&p) - 6400) < 1e-9);
	/* the 32-way conflicted tile of test_barrier_conflicts with l1_gbs halved: its barrier (the shared
	   wavefronts) as at 12800 GB/s, 2112 ns a wave; L1's level counts the global lines at 6400 */
	tile_launch("lane*32", t.pats, &t.in);
	t.p = barrier_prof();
	t.p.l1_gbs = 6400;
	assert_int_equal(gm_launch_predict(&t.in, &t.p, &t.o, NULL), GM_OK);
	assert_true(fabs(t.o.t_barrier_ms - 10 * 2112e-6) < 1e-12);
	assert_true(fabs(t.o.t_l1_ms - (t.o.l1_wavefronts * 128.0 / 6400 + t.o.smem_wavefronts * 128.0 / 12800) / 1e6) <
		    1e-12);
}

/* No shared pattern (no barrier), no declared round trip (a grid-stride loop): nothing added. */
static void test_barrier_none(void **state)
{
	struct tile t;

	(void)state;
	t.p = barrier_prof();
	tile_launch("tid", t.pats, &t.in);
	t.pats[1] = t.pats[3]; /* load and store global, twice: the copy without its tile */
	t.pats[2] = t.pats[0];
	assert_int_equal(gm_launch_predict(&t.in, &t.p, &t.o, NULL), GM_OK);
	assert_true(t.o.t_barrier_ms == 0);
	/* rule T10: each thread's second load is issued after the first, a wavefront a warp: 64 warps an SM x 1 ns */
	assert_true(fabs(t.o.t_waves_ms - 10 * (1e4 + 64) * 1e-6) < 1e-12);
	tile_launch("lane*32", t.pats, &t.in);
	t.in.round_trips = 0;
	assert_int_equal(gm_launch_predict(&t.in, &t.p, &t.o, NULL), GM_OK);
	assert_true(t.o.t_barrier_ms == 0 && t.o.t_waves_ms == 0);
	assert_string_equal(t.o.limited_by, "L1"); /* the wavefronts stay a level of their own (rule T1) */
}

/*
 * Rule T13: out[gid] = in[gid*32], no shared pattern: each lane's 4 B word in a line of its own, all in bank 0: 32
 * wavefronts a request where a dense request of 128 B needs one, 31 spread, counted once (lanes of a bank word or
 * narrower, c83): 64000 warps x 31 / 2 wavefronts x 128 B at 12800 GB/s = 9920 ns; blocks of 1024 (two an SM): all
 * of it (min(1, 2 / 2)); blocks of 256 (eight): a quarter; 8 B lanes in[gid*16] (32 lines, 2 dense, 30 spread)
 * twice: 19200 ns; the coalesced load in[gid], none.
 */
static void test_spread_wavefronts(void **state)
{
	struct gm_profile p = barrier_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o, o0;

	(void)state;
	launch_of("gid*32", 4, 100 * 2048 * 10, pats, &in);
	in.block[0] = 1024;
	in.round_trips = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.l1_spread_wavefronts - 64000.0 * 31 / 2) < 1e-6);
	assert_true(fabs(o.t_spread_ms - 9920e-6) < 1e-12);
	in.block[0] = 256;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fabs(o.t_spread_ms - 9920e-6 / 4) < 1e-12);
	launch_of("gid*16", 8, 100 * 2048 * 10, pats, &in);
	in.block[0] = 1024;
	in.round_trips = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
	assert_true(fabs(o0.t_spread_ms - 19200e-6) < 1e-12);
	launch_of("gid*32", 4, 100 * 2048 * 10, pats, &in);
	in.block[0] = 256;
	in.round_trips = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	/* the waves without it: the same launch's round trips, the spread's time added on top */
	launch_of("gid", 4, 100 * 2048 * 10, pats, &in);
	in.round_trips = 1;
	assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
	assert_true(o0.l1_spread_wavefronts == 0 && o0.t_spread_ms == 0);
	assert_true(fabs(o.t_waves_ms - o.t_spread_ms - o0.t_waves_ms) < 1e-12);
}

/*
 * Rule T15: a kernel that issues 12 more instructions before its load than calibrate's copy kernels holds each
 * block longer by its warps' share of them on each of the SM's 4 schedulers (1000 MHz: a cycle a ns): blocks of
 * 1024 (32 warps, 8 a scheduler) 96 ns a wave, blocks of 256 24 ns; over 10 waves. Without declared round trips (no
 * latency term) or without the instructions, nothing.
 */
static void test_index_issue(void **state)
{
	struct gm_profile p = barrier_prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o, o0;
	const int blocks[2] = { 1024, 256 };
	const double ns[2] = { 96, 24 };

	(void)state;
	for (int k = 0; k < 2; k++) {
		launch_of("gid", 4, 100 * 2048 * 10, pats, &in);
		in.block[0] = blocks[k];
		in.round_trips = 1;
		assert_int_equal(gm_launch_predict(&in, &p, &o0, NULL), GM_OK);
		in.index_instructions = 12;
		assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
		assert_true(fabs(o.waves - 10) < 1e-9);
		assert_true(fabs(o.t_waves_ms - o0.t_waves_ms - 10 * ns[k] * 1e-6) < 1e-12);
	}
	in.round_trips = 0;
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(o.t_waves_ms == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_barrier_stores),
		cmocka_unit_test(test_barrier_conflicts),
		cmocka_unit_test(test_smem_banks_rate),
		cmocka_unit_test(test_barrier_none),
		cmocka_unit_test(test_spread_wavefronts),
		cmocka_unit_test(test_index_issue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
