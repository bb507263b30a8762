/* test_trace_dup.c - rule DU (trace_fix_dup.c, docs/TRACE.md "The fix", rule DU): a global store whose fitted
 * map writes each output from k threads. Synthetic kernels with the map set directly: a row index that forgot the
 * block's height (ty and by a row apart: k = blockDim.y), a flag every thread stores (the map a constant: k = the
 * threads), and the cases the rule must refuse: the one-to-one map, a store only thread 0 of a block executes
 * (out[bx]), a flag stored once a block, a map whose id the samples never varied, a load. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/trace.h"
#include "gpumem/launch.h"
#include "analysis/trace_internal.h"

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in;
	struct gm_trace_insn x;
	struct gm_trace_kernel k;
	struct gm_profile p;
};

/* one 4-byte global store, grid (gx, gy), block (bx, by), every thread executing it once; the map's modes (var,
   stride) pairs, nm of them */
static void make(struct kern *c, int64_t gx, int64_t gy, int bx, int by, const int (*md)[2], int nm)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = gx, c->l.grid[1] = gy, c->l.grid[2] = 1;
	c->l.block[0] = bx, c->l.block[1] = by, c->l.block[2] = 1;
	c->k.threads = gx * gy * bx * by;
	c->in.space = GM_TS_GLOBAL;
	c->in.op = GM_TO_STORE;
	c->in.size = 4;
	c->in.line = 9;
	c->in.executions = (double)c->k.threads / 32;
	c->in.thread_accesses = (double)c->k.threads;
	c->x.in = &c->in;
	c->x.fit.map.known = 1;
	c->x.fit.iters = 1;
	c->x.fit.map.nmodes = nm;
	for (int q = 0; q < nm; q++)
		c->x.fit.map.mode[q] = (struct gm_trace_mode){ md[q][0], 1, 0, md[q][1] };
	c->k.l = &c->l, c->k.ins = &c->x, c->k.nins = 1;
	c->k.time_ms = 0.255;
	c->k.pred_ok = 1;
	c->k.pred.time_ms = 0.314;
	c->p.sm_count = 132;
	c->p.atomic_u32_ns = 0.7608338;
}

/* gain_dup (set 20): r = blockIdx.y + threadIdx.y, 32x8 blocks, grid (125, 3001): tx + ty*4000 + bx*32 + by*4000 */
static void test_rows_repeated(void **state)
{
	const int md[4][2] = { { GM_TV_TX, 1 }, { GM_TV_TY, 4000 }, { GM_TV_BX, 32 }, { GM_TV_BY, 4000 } };
	struct kern c;
	char t[400];
	double kk;
	int one, a, b, at;
	(void)state;
	make(&c, 125, 3001, 32, 8, md, 4);
	kk = tk_dup_k(&c.k, &c.x, &a, &b);
	assert_true(fabs(kk - 24008.0 / 3008) < 1e-9);   /* 8 x 3001 (ty, by) pairs reach 3008 rows */
	assert_int_equal(a, GM_TV_TY);
	assert_int_equal(b, GM_TV_BY);
	assert_int_equal(tk_dup_store(&c.k, &kk, &one), 0);
	assert_int_equal(one, 0);
	int ins;
	double sc = tk_dup_words(&c.k, t, sizeof(t), &ins);
	assert_true(sc > 0.8 && sc < 0.9);
	assert_non_null(strstr(t, "stored by 8 threads"));
	assert_non_null(strstr(t, "threadIdx.y and blockIdx.y"));
	at = tf_dup_stores(&c.k, &c.p);
	assert_int_equal(at, 0);   /* the model's time over k: 0.255 / (0.314 / 7.98) */
	assert_true(fabs(c.x.fix.kernel_speedup - 0.255 / (0.314 / kk)) < 1e-9);
	assert_string_equal(c.x.fix.rewrite, "store_each_once");
	assert_non_null(strstr(c.x.fix.sketch, "blockIdx.y * blockDim.y"));
}

/* the fixed kernel (by*32000): one-to-one, nothing */
static void test_one_to_one(void **state)
{
	const int md[4][2] = { { GM_TV_TX, 1 }, { GM_TV_TY, 4000 }, { GM_TV_BX, 32 }, { GM_TV_BY, 32000 } };
	struct kern c;
	double kk;
	int one, a, b;
	(void)state;
	make(&c, 125, 376, 32, 8, md, 4);
	assert_true(fabs(tk_dup_k(&c.k, &c.x, &a, &b) - 1) < 1e-12);
	assert_int_equal(tk_dup_store(&c.k, &kk, &one), -1);
	assert_int_equal(tf_dup_stores(&c.k, &c.p), -1);
}

/* out[blockIdx.x] by thread 0 alone: tx's stride 0, but one thread a block executes it: k = 1 */
static void test_lane0_store(void **state)
{
	const int md[1][2] = { { GM_TV_BX, 1 } };
	struct kern c;
	double kk;
	int one;
	(void)state;
	make(&c, 1024, 1, 256, 1, md, 1);
	c.in.executions = 1024, c.in.thread_accesses = 1024;
	assert_int_equal(tk_dup_store(&c.k, &kk, &one), -1);
}

/* flag::any_store (set 20): every thread stores 1 to one word (the map a constant), 97657 blocks of 256 */
static void test_one_word(void **state)
{
	struct kern c;
	char t[400];
	double kk;
	int one, ins;
	(void)state;
	make(&c, 97657, 1, 256, 1, NULL, 0);
	c.k.time_ms = 0.408828, c.k.pred.time_ms = 0.0783114;
	assert_int_equal(tk_dup_store(&c.k, &kk, &one), 0);
	assert_int_equal(one, 1);
	assert_true(fabs(kk - 97657.0 * 256) < 1e-6);
	assert_true(tk_dup_words(&c.k, t, sizeof(t), &ins) > 0.5);
	assert_non_null(strstr(t, "every thread stores the same word"));
	assert_int_equal(tf_dup_stores(&c.k, &c.p), 0);   /* the model's time plus a turn a block at atomic_u32_ns */
	assert_true(fabs(c.x.fix.kernel_speedup - 0.408828 / (0.0783114 + 97657 * 0.7608338e-6)) < 1e-9);
	c.p.atomic_u32_ns = 0;   /* no rate: named, not priced */
	memset(&c.x.fix, 0, sizeof(c.x.fix));
	assert_int_equal(tf_dup_stores(&c.k, &c.p), -1);
	/* any_block: one store a block is the fix itself */
	c.in.executions = 97657, c.in.thread_accesses = 97657;
	assert_int_equal(tk_dup_store(&c.k, &kk, &one), -1);
}

/* refused: an id the samples never varied (its stride unknown, or the prior's guess equal to another id's), a loop,
   a load */
static void test_refused(void **state)
{
	const int md[4][2] = { { GM_TV_TX, 1 }, { GM_TV_TY, 4000 }, { GM_TV_BX, 32 }, { GM_TV_BY, 4000 } };
	struct kern c;
	int a, b;
	(void)state;
	make(&c, 125, 3001, 32, 8, md, 4);
	c.x.fit.map.open = 1u << GM_TV_BY;
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
	c.x.fit.map.assumed = 1u << GM_TV_BY;   /* the prior's stride, equal to ty's: a guess, not counted (set 23's cap) */
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
	c.x.fit.map.open = 0, c.x.fit.map.assumed = 0;   /* by's stride measured: counted */
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) > 7.9);
	c.x.fit.iters = 4;
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
	c.x.fit.iters = 1, c.in.op = GM_TO_LOAD;
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
	c.in.op = GM_TO_STORE, c.x.fit.map.nmodes = 3;   /* by left out of a map that is not a constant: not counted */
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
	c.x.fit.map.nmodes = 4, c.x.fit.map.mode[3].div = 2;   /* a division: not counted */
	assert_true(tk_dup_k(&c.k, &c.x, &a, &b) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_repeated), cmocka_unit_test(test_one_to_one),
		cmocka_unit_test(test_lane0_store),   cmocka_unit_test(test_one_word),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
