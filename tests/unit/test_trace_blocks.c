/* test_trace_blocks.c - rule FB (trace_fix_blocks.c, docs/TRACE.md "The fix", rule FB): a launch limited by block
 * starts (rule T4) in blocks of 32 threads whose 16-byte load and store index the thread's global id alone (set
 * 19's dscale: y = s x on double2), relaunched in blocks of 256 and priced by the launch model with the built-in
 * H200 profile; refused: blocks of 256 already, a 2D launch, an index with the block's own ids, a launch not limited
 * by block starts, a fix not worth making. Blocks of one thread (set 24's scale_clip, <<<n, 1>>>): the fit names the
 * index bx (threadIdx.x always 0), which is the global id; the relaunch's warps are 32 times fewer. */
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

static struct gm_profile P;

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in[2];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
};

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* 6,000,032 double2 (96 MB read, 96 MB written) a thread each, blocks of bt threads */
static void make(struct kern *c, int bt)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = 6000032 / bt, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = bt, c->l.block[1] = c->l.block[2] = 1;
	c->k.threads = 6000032;
	for (int i = 0; i < 2; i++) {
		c->in[i].pc = 0x80 + 0x20 * i;
		c->in[i].space = GM_TS_GLOBAL;
		c->in[i].op = i ? GM_TO_STORE : GM_TO_LOAD;
		c->in[i].size = 16;
		c->in[i].executions = 6000032.0 / 32;
		c->in[i].thread_accesses = 6000032;
		c->x[i].in = &c->in[i];
		c->x[i].fit.map.known = 1;
		c->x[i].fit.iters = 1;
		snprintf(c->x[i].fit.expr1d, sizeof(c->x[i].fit.expr1d), "gid");
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = 2;
	c->k.pred_ok = 1;
	c->k.pred.time_ms = 0.114;
	c->k.pred.limited_by = "blocks";
	c->k.time_ms = 0.114;
}

static void test_priced(void **state)
{
	struct kern c;
	int m;
	(void)state;
	make(&c, 32);
	double s = tk_fuller_blocks(&c.k, &P, &m);
	assert_int_equal(m, 8);
	assert_true(s > 1.5);   /* the 256-thread launch's own prediction is DRAM's, near 0.045 ms */
	assert_int_equal(tf_fuller_blocks(&c.k, &P, 0), 1);
	assert_string_equal(c.x[0].fix.rewrite, "fuller_blocks");
	assert_true(fabs(c.x[0].fix.kernel_speedup - s) < 1e-12);
	assert_non_null(strstr(c.x[0].fix.change, "187501 blocks of 32 threads -> 23438"));
	assert_int_equal(c.x[1].fix.same_as, 1);
}

static void test_refused(void **state)
{
	struct kern c;
	int m;
	(void)state;
	make(&c, 256);   /* full blocks already */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
	make(&c, 32);
	c.l.grid[1] = 2, c.l.grid[0] /= 2;   /* a 2D launch */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
	make(&c, 32);
	snprintf(c.x[1].fit.expr1d, sizeof(c.x[1].fit.expr1d), "tx + bx*32");   /* the block's own ids */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
	make(&c, 32);
	c.k.pred.limited_by = "DRAM";
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
	make(&c, 32);
	c.k.time_ms = 1e-4;   /* measured faster than the relaunch would be: nothing worth changing */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) < GM_TRACE_WORTH);
	assert_int_equal(tf_fuller_blocks(&c.k, &P, 0), 0);
	assert_int_equal(c.x[0].fix.have, 0);
}

/* blocks of one thread, each warp one live lane: the index fitted as bx (a mode of blockIdx.x) */
static void make_one(struct kern *c)
{
	make(c, 1);
	for (int i = 0; i < 2; i++) {
		c->in[i].size = 4;
		c->in[i].executions = 6000032;
		c->x[i].fit.map.nmodes = 1;
		c->x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_BX, 1, 0, 1 };
		c->x[i].fit.map.elem_bytes = 4;
		c->x[i].fit.cls = GM_TC_BROADCAST;
		snprintf(c->x[i].fit.expr1d, sizeof(c->x[i].fit.expr1d), "bx");
	}
	c->k.time_ms = c->k.pred.time_ms = 3.6;
}

static void test_one_thread(void **state)
{
	struct kern c;
	int m;
	(void)state;
	make_one(&c);
	double s = tk_fuller_blocks(&c.k, &P, &m);
	assert_int_equal(m, 256);
	assert_true(s > 50);   /* 48 MB at DRAM's rate, near 0.02 ms, against 3.6 */
	make_one(&c);
	c.l.block[0] = 2, c.l.grid[0] /= 2;   /* bx is not the global id with two threads a block */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
	make_one(&c);
	c.x[1].fit.map.mode[0].div = 2;   /* bx / 2: not the thread's own element */
	assert_true(tk_fuller_blocks(&c.k, &P, &m) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_priced),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_one_thread),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
