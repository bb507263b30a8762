/* test_trace_lone.c - rule LT (trace_fix_lone.c, docs/TRACE.md "The fix", rule LT): a loop of global loads run by
 * one lane of one warp of each block while the block waits (set 20's smooth_t0: thread 0 stages the block's tile),
 * and tf_whole_fix (trace_fix_whole.c), the start every whole-kernel fix shares. Synthetic kernels with the built-in
 * H200 profile: 256-thread blocks, 8 one-lane loads a block eight times (64 lone requests a block) and a coalesced
 * store; the cases the rule must refuse: lone lanes in different warps, two lanes an execution, a block of one warp,
 * fewer than 32 lone requests a block, an atomic, a fix not worth making. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

#define NL 8           /* the lone loads */
#define BLOCKS 4000

static struct gm_profile P;

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in[NL + 1];
	struct gm_trace_sample sm[NL + 1][2];
	struct gm_trace_insn x[NL + 1];
	struct gm_trace_kernel k;
};

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* per: each lone load's executions a block; tpb: the block's threads */
static void make(struct kern *c, double per, int tpb)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = BLOCKS, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = tpb, c->l.block[1] = c->l.block[2] = 1;
	c->k.threads = (int64_t)BLOCKS * tpb;
	for (int i = 0; i <= NL; i++) {
		struct gm_trace_instr *in = &c->in[i];
		in->pc = 0x100 + 16 * i;
		in->space = GM_TS_GLOBAL;
		in->op = i < NL ? GM_TO_LOAD : GM_TO_STORE;
		in->size = 4;
		in->line = i < NL ? 13 : 17;
		in->executions = i < NL ? per * BLOCKS : (double)c->k.threads / 32;
		in->thread_accesses = i < NL ? in->executions : (double)c->k.threads;
		in->samples = c->sm[i];
		in->nsamples = 2;
		for (int s = 0; s < 2; s++) {
			c->sm[i][s].block[0] = s * 7;
			c->sm[i][s].warp = i < NL ? 0 : s;
			c->sm[i][s].mask = i < NL ? 1u : 0xffffffffu;
		}
		c->x[i].in = in;
		c->x[i].fit.map.known = 1;
		c->x[i].fit.iters = 1;
		snprintf(c->x[i].fit.expr1d, sizeof(c->x[i].fit.expr1d), i < NL ? "bx * 64 + %d" : "gid", i);
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = NL + 1;
	c->k.pred_ok = 1;
	c->k.pred.time_ms = 0.05;
	c->k.time_ms = 0.5;
}

static void test_found(void **state)
{
	struct kern c;
	double pb;
	int lead;
	(void)state;
	make(&c, 8, 256);
	c.in[3].executions *= 2, c.in[3].thread_accesses *= 2;   /* the one run most: the lead */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), NL);
	assert_int_equal(lead, 3);
	assert_true(fabs(pb - 72) < 1e-9);   /* 7 x 8 + 16 a block */
}

static void test_refused(void **state)
{
	struct kern c;
	double pb;
	int lead;
	(void)state;
	make(&c, 8, 256);
	c.sm[2][1].warp = 3;   /* a lone lane in another warp: each warp's lane 0, not one thread's loop */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), NL - 1);   /* that one is not lone; the rest still are */
	for (int i = 0; i < NL; i++)
		c.sm[i][0].warp = c.sm[i][1].warp = i & 1;   /* the lone loads in two warps (each its own) */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), 0);
	make(&c, 8, 256);
	for (int i = 0; i < NL; i++)
		c.in[i].thread_accesses *= 2;   /* two lanes an execution */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), 0);
	make(&c, 8, 32);   /* a block of one warp: nobody waits */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), 0);
	make(&c, 3, 256);   /* 24 lone requests a block: under LT_MIN (a block's few results stored by thread 0) */
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), 0);
	assert_int_equal(lead, -1);
	make(&c, 8, 256);
	for (int i = 0; i < NL; i++)
		c.in[i].op = GM_TO_ATOMIC;
	assert_int_equal(tk_lone_loop(&c.k, &lead, &pb), 0);
	assert_int_equal(tf_lone_loop(&c.k, &P), -1);
}

static void test_named_and_priced(void **state)
{
	struct kern c;
	char t[300];
	int ins;
	(void)state;
	make(&c, 8, 256);
	double s = tk_lone_speedup(&c.k, &P);
	assert_true(s > GM_TRACE_WORTH);
	double sc = tk_lone_words(&c.k, &P, t, sizeof(t), &ins);
	assert_true(fabs(sc - (1 - 1 / s)) < 1e-12);
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "a loop run by one thread of the block"));
	assert_non_null(strstr(t, "64 one-lane global loads a block"));
	assert_non_null(strstr(t, "other 255 threads wait"));
	assert_int_equal(tf_lone_loop(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "spread_loop");
	assert_true(fabs(c.x[0].fix.kernel_speedup - s) < 1e-12);
	assert_int_equal(c.x[0].fix.ninstr, NL);
	assert_non_null(strstr(c.x[0].fit.cls_text, "one thread's loop, 64 one-lane requests a block"));
	for (int i = 1; i < NL; i++)
		assert_int_equal(c.x[i].fix.same_as, 1);
	assert_int_equal(c.x[NL].fix.same_as, 0);   /* the coalesced store is not the loop's */
	/* the measured time under what the spread kernel would take: nothing worth changing, not named */
	make(&c, 8, 256);
	c.k.time_ms = 1e-6;
	assert_true(tk_lone_speedup(&c.k, &P) < GM_TRACE_WORTH);
	assert_true(tk_lone_words(&c.k, &P, t, sizeof(t), &ins) == 0);
	assert_int_equal(ins, -1);
	assert_int_equal(tf_lone_loop(&c.k, &P), -1);
	c.k.time_ms = 0.5, c.k.pred_ok = 0;   /* no prediction: not priced */
	assert_true(tk_lone_speedup(&c.k, &P) == 0);
}

static void test_whole_fix(void **state)
{
	struct kern c;
	(void)state;
	make(&c, 8, 256);
	c.x[2].fix.same_as = 5;
	c.x[2].fix.rewrite[0] = 'x';
	struct gm_trace_fix *fx = tf_whole_fix(&c.k, 2, 3, 2.5);
	assert_ptr_equal(fx, &c.x[2].fix);
	assert_int_equal(fx->have, 1);
	assert_int_equal(fx->worth, 1);
	assert_int_equal(fx->ninstr, 3);
	assert_true(fx->share == 1 && fx->pattern_speedup == 2.5 && fx->kernel_speedup == 2.5);
	assert_int_equal(fx->same_as, 0);
	assert_int_equal(fx->rewrite[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_named_and_priced),
		cmocka_unit_test(test_whole_fix),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
