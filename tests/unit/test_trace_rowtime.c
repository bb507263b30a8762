/* test_trace_rowtime.c - rule R4 of `gpumem trace`'s kernel prediction (docs/TRACE.md, "The kernel's
 * prediction"): a fitted global load whose address does not move with its loop (set 10's dq_row: s[r] loaded
 * again after every store of the row, which may alias it) waits its first iteration's round trip only, where
 * rule R2 charged it one every iteration. Table-driven on synthetic instructions with the built-in H200 profile. */
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
};

static const struct inv_row inv_rows[] = {
	{ GM_TO_LOAD, 1, 0, 256, 0, 1 },    /* s[r] in a loop over the row */
	{ GM_TO_LOAD, 1, 0, 256, 1, 0 },    /* q[r * C + c]: moves with the loop (rule R3's) */
	{ GM_TO_LOAD, 1, 0, 1, 0, 0 },      /* no loop */
	{ GM_TO_LOAD, 1, 1, 256, 0, 0 },    /* a gather's stand-in says nothing of its iterations */
	{ GM_TO_LOAD, 0, 0, 256, 0, 0 },
	{ GM_TO_STORE, 1, 0, 256, 0, 0 },
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

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_invariant),
		cmocka_unit_test(test_trips),
	};
	return cmocka_run_group_tests(t, setup, NULL);
}
