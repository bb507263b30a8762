/* test_trace_rowtime.c - rules R4 and R3b of `gpumem trace`'s kernel prediction (docs/TRACE.md, "The kernel's
 * prediction"): a fitted global load whose address does not move with its loop (set 10's dq_row: s[r] loaded
 * again after every store of the row, which may alias it) waits its first iteration's round trip only, where
 * rule R2 charged it one every iteration; an L1 hit takes its busiest bank's wavefronts (set 9's count_thread_row:
 * rows of 4000 B, 8); a neighbour clamped at an edge computes its address (rule G's second part). Table-driven
 * on synthetic instructions with the built-in H200 profile. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

static struct gm_profile P;

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

struct inv_row {
	int op, known, approx, iters;
	int64_t step;
	int want;
	unsigned open;   /* the map's ids the samples never varied */
};

static const struct inv_row inv_rows[] = {
	{ GM_TO_LOAD, 1, 0, 256, 0, 1 },    /* s[r] in a loop over the row */
	{ GM_TO_LOAD, 1, 0, 256, 1, 0 },    /* q[r * C + c]: moves with the loop (rule R3's) */
	{ GM_TO_LOAD, 1, 0, 1, 0, 0 },      /* no loop */
	{ GM_TO_LOAD, 1, 1, 256, 0, 0 },    /* a gather's stand-in says nothing of its iterations */
	{ GM_TO_LOAD, 0, 0, 256, 0, 0 },
	{ GM_TO_STORE, 1, 0, 256, 0, 0 },
	{ GM_TO_LOAD, 1, 0, 256, 0, 0, 1u << GM_TV_ITER },   /* sampled at one iteration only: step unknown */
};

static void test_invariant(void **state)
{
	struct gm_trace_instr in;
	struct gm_trace_insn x;
	(void)state;
	for (size_t i = 0; i < sizeof(inv_rows) / sizeof(inv_rows[0]); i++) {
		const struct inv_row *r = &inv_rows[i];
		memset(&in, 0, sizeof(in));
		memset(&x, 0, sizeof(x));
		in.space = GM_TS_GLOBAL;
		in.op = r->op;
		in.size = 4;
		x.in = &in;
		x.fit.map.known = r->known;
		x.fit.approx = r->approx;
		x.fit.iters = r->iters;
		x.fit.map.iter_step = r->step;
		x.fit.map.open = r->open;
		assert_int_equal(tk_row_invariant(&x), r->want);
	}
}

/* dq_row's shape: 128 blocks of 64 threads, a loop of 256 iterations a warp, a load then a store each iteration.
   A load that does not move waits once; one that moves a sector an iteration (lanes a row apart) every time. */
static void test_trips(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in[2];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
	(void)state;
	memset(&l, 0, sizeof(l));
	l.grid[0] = 128, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 64, l.block[1] = l.block[2] = 1;
	for (int64_t step = 0; step <= 8; step += 8) {
		memset(in, 0, sizeof(in));
		memset(x, 0, sizeof(x));
		for (int i = 0; i < 2; i++) {
			in[i].space = GM_TS_GLOBAL;
			in[i].op = i ? GM_TO_STORE : GM_TO_LOAD;
			in[i].size = 4;
			in[i].pc = 16 * (uint64_t)(i + 1);
			in[i].executions = 256.0 * 256;   /* 256 warps, 256 iterations each */
			x[i].in = &in[i];
			x[i].fit.map.known = 1;
			x[i].fit.map.nmodes = 1;
			x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, 0, 1 };
			x[i].fit.iters = 256;
			x[i].fit.map.iter_step = i ? 1 : step;
		}
		memset(&k, 0, sizeof(k));
		k.l = &l, k.ins = x, k.nins = 2, k.threads = 8192;
		assert_int_equal(tk_round_trips(&k, &P, NULL, 0, NULL, NULL), step ? 256 : 1);
	}
}

struct wf_row {
	int size;
	int64_t lane_bytes;   /* lane l at l * lane_bytes */
	double want;
};

static const struct wf_row wf_rows[] = {
	{ 1, 4096, 32 },   /* dq_row: a row of 4096 B a lane, one bank */
	{ 1, 4000, 8 },    /* count_thread_row: 1000 words a row, banks 8 l mod 32 */
	{ 4, 4, 1 },       /* coalesced: one line */
	{ 1, 1, 1 },       /* 32 bytes in 8 words of one line */
	{ 4, 0, 1 },       /* one word: a broadcast */
	{ 8, 4096, 32 },   /* wider than a bank: a line a lane */
};

static void test_wavefronts(void **state)
{
	struct gm_trace_instr in;
	struct gm_trace_sample a;
	struct gm_trace_insn x;
	(void)state;
	for (size_t i = 0; i < sizeof(wf_rows) / sizeof(wf_rows[0]); i++) {
		const struct wf_row *r = &wf_rows[i];
		memset(&in, 0, sizeof(in));
		memset(&x, 0, sizeof(x));
		memset(&a, 0, sizeof(a));
		in.space = GM_TS_GLOBAL;
		in.op = GM_TO_LOAD;
		in.size = r->size;
		a.have = a.mask = 0xffffffffu;
		for (int l = 0; l < 32; l++)
			a.addr[l] = 1 << 20 | (int64_t)l * r->lane_bytes;
		in.samples = &a;
		in.nsamples = 1;
		x.in = &in;
		assert_true(tk_row_wavefronts(&x) == r->want);
	}
}

/* Rule G's second part (trace_gfold.c): an unfitted load at one distance from an earlier load's lanes computes
   its address; so does a neighbour clamped at an edge (set 14's grad: `v[max(x - 1, 0)]` against `v[x + 1]`, its
   border lane 4 B away instead of 8); a lane elsewhere (a data gather) does not. Two warps of 32 lanes. */
static void test_fixed_offset(void **state)
{
	/* the later load's lane 0 of warp 0 at this distance from the earlier one's, the others at -8 */
	static const struct { int64_t edge, d; int want; } rows[] = {
		{ -8, -8, 1 },       /* every lane at one distance */
		{ -4, -8, 1 },       /* clamped: between 0 and d, on the earlier load's bytes */
		{ 0, -8, 1 },        /* clamped onto the earlier load's lane */
		{ -12, -8, 0 },      /* beyond d */
		{ 4096, -8, 0 },     /* elsewhere */
	};
	struct gm_trace_instr in[2];
	struct gm_trace_sample s[2][2];
	struct gm_trace_insn x[2];
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(in, 0, sizeof(in));
		memset(s, 0, sizeof(s));
		memset(x, 0, sizeof(x));
		for (int j = 0; j < 2; j++) {
			for (int w = 0; w < 2; w++) {
				s[j][w].warp = w;
				s[j][w].have = s[j][w].mask = 0xffffffffu;
				for (int l = 0; l < 32; l++)
					s[j][w].addr[l] = (1 << 20) + (int64_t)(w * 32 + l) * 4 + 4 +
							  (j ? (w == 0 && l == 0 ? rows[i].edge : rows[i].d) : 0);
			}
			in[j].space = GM_TS_GLOBAL;
			in[j].op = GM_TO_LOAD;
			in[j].size = 4;
			in[j].executions = 2;
			in[j].samples = s[j];
			in[j].nsamples = 2;
			x[j].in = &in[j];
		}
		x[1].fit.approx = 1;
		assert_int_equal(tk_fixed_offset(&x[0], &x[1]), rows[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_invariant),
		cmocka_unit_test(test_trips),
		cmocka_unit_test(test_wavefronts),
		cmocka_unit_test(test_fixed_offset),
	};
	return cmocka_run_group_tests(t, setup, NULL);
}
