/* test_trace_tile.c - rule tile (trace_fix_tile.c: operands re-read by the warps of a block, staged in shared
 * memory) and a call's stack frame in local memory (trace_verdict.c's local_frame, trace_fix_local.c's inline_call),
 * on synthetic launches (trace_synth.h) with the built-in H200 profile: a product's loop on 32 x 32 blocks (B's row
 * piece read by all 32 warps of a block, A's element one address a warp), a coalesced loop that no warp re-reads
 * (refused), and a kernel whose local loads and stores are all at fixed offsets of the stack. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"
#include "trace_synth.h"

static struct gm_profile P;

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* the k loop unrolled by 4: B[k][j] for k = 4 it + u (row pieces 768 apart), A[i][k] (consecutive along k) */
#define MM(e, step) { "mm", e, { 32, 32, 1 }, { 24, 16, 1 }, 4, GM_TS_GLOBAL, GM_TO_LOAD, 8, step, 64, 0, NULL, 0 }
static const struct synth MM_ROWS[8] = {
	MM("bx * 32 + tx", 3072), MM("bx * 32 + tx + 768", 3072), MM("bx * 32 + tx + 1536", 3072),
	MM("bx * 32 + tx + 2304", 3072), MM("(by * 32 + ty) * 768", 4), MM("(by * 32 + ty) * 768 + 1", 4),
	MM("(by * 32 + ty) * 768 + 2", 4), MM("(by * 32 + ty) * 768 + 3", 4),
};
static const struct synth STREAM = { "st", "gid", { 32, 32, 1 }, { 24, 16, 1 }, 4, GM_TS_GLOBAL, GM_TO_LOAD, 8,
				     393216, 64, 0, NULL, 0 };

/* A launch of rows r[0..n), each at its own line and base, analysed. */
static void analyse(const struct synth *r, int n, struct gm_trace_launch *l, struct gm_trace_kernel *k)
{
	assert_int_equal(synth_launch(&r[0], 0, l), 0);
	for (int i = 1; i < n; i++)
		assert_int_equal(synth_append(&r[i], (int64_t)i << 30, 10 + i, l), 0);
	assert_int_equal(gm_trace_kernel_analyse(l, &P, k), GM_OK);
	assert_true(k->pred_ok);
}

static void test_product_named(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	char t[300];
	int ins;
	(void)state;
	analyse(MM_ROWS, 8, &l, &k);
	assert_int_equal(k.ins[4].fit.cls, GM_TC_BROADCAST);
	for (int i = 0; i < 8; i++)   /* the loop 100 times as long (above the launch's floor) */
		l.ins[i].requests *= 100, l.ins[i].executions *= 100;
	k.pred.t_l1_ms *= 100;
	k.time_ms = k.pred.t_l1_ms / 0.8;   /* L1 the most of the measured time */
	double sc = tk_tile_named(&k, &P, t, sizeof(t), &ins);
	assert_true(sc > 0.05 && sc < 1);
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "operands re-read by the warps of a block at synthetic.cu:10"));
	assert_non_null(strstr(t, "each address loaded by 32 warps"));
	assert_non_null(strstr(t, "4 such loads and 4 broadcast ones"));
	assert_int_equal(tf_tile(&k, &P), 0);
	assert_string_equal(k.ins[0].fix.rewrite, "shared_tile");
	assert_true(fabs(k.ins[0].fix.kernel_speedup - 1 / (1 - sc)) < 1e-9);
	assert_non_null(strstr(k.ins[0].fix.sketch, "__syncthreads()"));
	/* L1 not what holds the kernel: nothing named */
	k.time_ms = k.pred.t_l1_ms / 0.4;
	assert_true(tk_tile_named(&k, &P, t, sizeof(t), &ins) == 0);
	assert_int_equal(ins, -1);
	free(k.ins);
	synth_free(&l);
}

static void test_stream_refused(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	char t[300];
	int ins;
	(void)state;
	analyse(&STREAM, 1, &l, &k);
	k.time_ms = k.pred.t_l1_ms > 0 ? k.pred.t_l1_ms / 0.8 : 1;
	assert_true(tk_tile_named(&k, &P, t, sizeof(t), &ins) == 0);   /* no address shared by two warps */
	assert_int_equal(tf_tile(&k, &P), -1);
	free(k.ins);
	synth_free(&l);
}

static void test_frame(void **state)
{
	const struct synth r[3] = {
		{ "f", "0", { 256, 1, 1 }, { 1024, 1, 1 }, 16, GM_TS_LOCAL, GM_TO_STORE, 1, 0, 64, 0, NULL, 0 },
		{ "f", "4", { 256, 1, 1 }, { 1024, 1, 1 }, 4, GM_TS_LOCAL, GM_TO_LOAD, 16, 0, 64, 0, NULL, 0 },
		{ "f", "gid", { 256, 1, 1 }, { 1024, 1, 1 }, 4, GM_TS_GLOBAL, GM_TO_STORE, 1, 0, 64, 0, NULL, 0 },
	};
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	(void)state;
	assert_int_equal(synth_launch(&r[0], 0, &l), 0);
	assert_int_equal(synth_append(&r[1], 0, 26, &l), 0);
	assert_int_equal(synth_append(&r[2], 1 << 30, 30, &l), 0);
	l.local_bytes = 32, l.registers = 40, l.time_ms = 0.0025;   /* about the prediction */
	assert_int_equal(gm_trace_kernel_analyse(&l, &P, &k), GM_OK);
	assert_int_equal(k.ins[1].fit.cls, GM_TC_COALESCED);   /* every lane at one offset of its stack */
	assert_non_null(strstr(k.primary, "a call's stack frame in local memory (32 B a thread): 2 local loads and "
			       "stores at fixed offsets of the stack (the most at synthetic.cu:26)"));
	assert_int_equal(tk_local_lead(&k), 1);
	assert_int_equal(tf_local_array(&k, &P), 1);
	assert_string_equal(k.ins[1].fix.rewrite, "inline_call");
	assert_int_equal(k.ins[0].fix.same_as, 2);
	free(k.ins);
	synth_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_product_named),
		cmocka_unit_test(test_stream_refused),
		cmocka_unit_test(test_frame),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
