/* test_trace_named.c - the verdict's named patterns (trace_named.c, docs/TRACE.md "Named patterns"): a volatile
 * pointer (strong loads whose warps re-read their own sectors), a block's sum by one lane (a lone lane reading the
 * block's shared data), a global staging buffer (loads of words another lane of the block stored), a lane-indexed
 * __constant__ table (the document's constant_lane_loads) and mapped host memory ("memory": "host"), and rule NF,
 * their serial time as a floor under the prediction. Synthetic kernels, each with a case the rule must refuse. */
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

#define N 4

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in[N];
	struct gm_trace_sample s[N];
	struct gm_trace_insn x[N];
	struct gm_trace_kernel k;
	struct gm_profile p;
};

/* n global 4-byte instructions of op, lane l of instruction i at base + 4 (l + off[i]), one sample each (block 0,
   warp 0), 1024 blocks of 256 threads, each a quarter of the traffic */
static void make(struct kern *c, int n, int op, const char *sass, const int64_t *off)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = 1024, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = 256, c->l.block[1] = c->l.block[2] = 1;
	c->l.time_ms = 0.1;
	for (int i = 0; i < n; i++) {
		c->in[i].space = GM_TS_GLOBAL;
		c->in[i].op = op;
		c->in[i].sass = (char *)sass;
		c->in[i].size = 4;
		c->in[i].pc = 16 * (i + 1);
		c->in[i].line = 10 + i;
		c->in[i].executions = 8192;
		c->in[i].thread_accesses = 8192 * 32;
		c->in[i].sectors = 8192 * 4;
		c->s[i].have = c->s[i].mask = 0xffffffffu;
		for (int lane = 0; lane < 32; lane++)
			c->s[i].addr[lane] = (1 << 20) + (lane + off[i]) * 4;
		c->in[i].samples = &c->s[i];
		c->in[i].nsamples = 1;
		c->x[i].in = &c->in[i];
		c->x[i].bytes = 8192 * 4 * 32;
		c->x[i].share = 1.0 / n;
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = n, c->k.threads = 1024 * 256;
	c->k.time_ms = 0.1;
	c->p.sm_count = 128;
}

/* the named candidate whose text starts with what, or NULL */
static const struct tk_named *named(struct kern *c, const char *what, struct tk_named *v)
{
	int n = tk_named(&c->k, &c->p, v, 5);

	for (int i = 0; i < n; i++)
		if (!strncmp(v[i].text, what, strlen(what)))
			return &v[i];
	return NULL;
}

static void test_volatile(void **state)
{
	struct kern c;
	struct tk_named v[5];
	const struct tk_named *r;
	const int64_t nb[N] = { -1, 0, 1, 256 };   /* three neighbours of a row, one row apart */
	(void)state;
	make(&c, 4, GM_TO_LOAD, "LDG.E.STRONG.SYS", nb);
	r = named(&c, "a volatile pointer", v);
	assert_non_null(r);
	assert_true(r->score > 0.3 && r->score < 1);   /* two of four loads' sectors read again by the warp */
	assert_int_equal(c.in[r->ins].line, 10);
	make(&c, 4, GM_TO_LOAD, "LDG.E.CONSTANT", nb);   /* plain loads: L1 serves the re-reads */
	assert_null(named(&c, "a volatile pointer", v));
	const int64_t apart[N] = { 0, 256, 512, 768 };   /* strong loads, nothing read twice: nothing L1 would save */
	make(&c, 4, GM_TO_LOAD, "LDG.E.STRONG.SYS", apart);
	assert_null(named(&c, "a volatile pointer", v));
}

static void test_one_lane_sum(void **state)
{
	struct kern c;
	struct tk_named v[5];
	const int64_t z[N] = { 0, 0, 0, 0 };
	(void)state;
	make(&c, 2, GM_TO_LOAD, "LDS.128", z);
	for (int i = 0; i < 2; i++) {   /* one lane, 32 loads of 16 B a block: 1024 B for 256 threads */
		c.in[i].space = GM_TS_SHARED;
		c.in[i].size = 16;
		c.in[i].executions = 1024 * 16;
		c.in[i].thread_accesses = 1024 * 16;
	}
	assert_non_null(named(&c, "a block's sum done by one thread", v));
	c.in[0].executions = c.in[0].thread_accesses = c.in[1].executions = c.in[1].thread_accesses = 1024 * 2;
	assert_null(named(&c, "a block's sum done by one thread", v));   /* a loop's tail: 64 B a block */
	c.in[0].executions = c.in[1].executions = 1024 * 16;
	c.in[0].thread_accesses = c.in[1].thread_accesses = 1024 * 16 * 32;
	assert_null(named(&c, "a block's sum done by one thread", v));   /* every lane */
}

static void test_global_scratch(void **state)
{
	struct kern c;
	struct tk_named v[5];
	const struct tk_named *r;
	const int64_t off[N] = { 0, -1, 0, 1 };
	(void)state;
	make(&c, 4, GM_TO_LOAD, "LDG.E", off);
	c.in[0].op = GM_TO_STORE;   /* the block's threads store, then read their neighbours' words back */
	r = named(&c, "a global scratch buffer", v);
	assert_non_null(r);
	assert_int_equal(r->ins, 0);
	c.s[1].block[0] = c.s[3].block[0] = 7;   /* the words another block stored: not an exchange within a block */
	assert_null(named(&c, "a global scratch buffer", v));
	const int64_t own[N] = { 0, 100, 0, 200 };   /* the same block: only a lane's own word again */
	make(&c, 4, GM_TO_LOAD, "LDG.E", own);
	c.in[0].op = GM_TO_STORE;
	assert_null(named(&c, "a global scratch buffer", v));
	make(&c, 4, GM_TO_LOAD, "LDG.E", off);
	c.in[3].op = GM_TO_STORE;   /* the store after the loads (an update in place) */
	c.in[0].op = GM_TO_LOAD;
	c.in[3].pc = 200;
	assert_null(named(&c, "a global scratch buffer", v));
}

static void test_constant_lanes(void **state)
{
	struct kern c;
	struct tk_named v[5];
	const struct tk_named *r;
	const int64_t z[N] = { 0, 0, 0, 0 };
	(void)state;
	make(&c, 1, GM_TO_LOAD, "LDG.E", z);
	assert_null(named(&c, "a __constant__ table", v));
	c.l.const_lane = 2, c.l.const_lane_pc = 0x30, c.l.const_lane_line = 33;
	c.l.const_lane_file = "/src/c.cu";
	r = named(&c, "a __constant__ table", v);
	assert_non_null(r);
	assert_true(strstr(v[0].text, "c.cu:33") != NULL);   /* the only candidate */
	/* 1024 blocks x 8 warps x 2 LDC x 32 addresses x 1.044 ns over 128 SMs */
	assert_true(fabs(tk_const_lane_ms(&c.k, &c.p, 32) - 8192.0 * 2 * 32 * TK_CONST_ADDR_NS / 128 * 1e-6) < 1e-12);
	assert_true(fabs(r->score - fmin(1, tk_const_lane_ms(&c.k, &c.p, 32) / 0.1)) < 1e-12);
}

static void test_host_memory(void **state)
{
	struct kern c;
	struct tk_named v[5];
	const struct tk_named *r;
	const int64_t z[N] = { 0, 0, 0, 0 };
	int lead;
	(void)state;
	make(&c, 2, GM_TO_LOAD, "LDG.E", z);
	assert_null(named(&c, "mapped host memory", v));
	c.in[1].host = 1;
	r = named(&c, "mapped host memory", v);
	assert_non_null(r);
	assert_int_equal(r->ins, 1);
	assert_true(fabs(tk_host_bytes(&c.k, &lead) - 8192.0 * 4 * 32) < 1e-9);
	assert_true(fabs(r->score - fmin(1, 8192.0 * 4 * 32 / TK_MAPPED_GBS * 1e-6 / 0.1)) < 1e-12);
}

/* rule NF (trace_floor.c): a named pattern's serial time raises a prediction below it, and its fix takes the
   prediction before as the fixed kernel */
static void predicted(struct kern *c, double ms)
{
	c->k.pred_ok = 1;
	c->k.pred.time_ms = ms;
	c->k.pred.useful_bytes = 1e6;
	c->k.pred.gbs = c->k.pred.gbs_low = c->k.pred.gbs_high = 1e6 / (ms * 1e-3) / 1e9;
	c->k.pred.limited_by = "DRAM";
	c->k.pred_why[0] = 0;
	c->k.norder = 1, c->k.order[0] = 0;
}

static void test_floor_host(void **state)
{
	struct kern c;
	const int64_t z[N] = { 0, 0, 0, 0 };
	int lead;
	(void)state;
	make(&c, 2, GM_TO_LOAD, "LDG.E", z);
	c.in[1].host = 1;
	double host = tk_host_bytes(&c.k, &lead) / TK_MAPPED_GBS * 1e-6;
	predicted(&c, host / 10);
	tk_named_floor(&c.k, &c.p);
	assert_true(fabs(c.k.pred.time_ms - host) < 1e-12);
	assert_string_equal(c.k.pred.limited_by, "host link");
	assert_string_equal(c.k.nf_limited_by, "DRAM");
	assert_true(fabs(c.k.nf_model_ms - host / 10) < 1e-15);
	assert_true(fabs(c.k.pred.gbs - 1e6 / (host * 1e-3) / 1e9) < 1e-6);
	assert_non_null(strstr(c.k.pred_why, "rule NF"));
	assert_int_equal(tf_named(&c.k, &c.p), 1);   /* the fix: the measured time over the model's, before the floor */
	assert_string_equal(c.x[1].fix.rewrite, "host_copy");
	assert_true(fabs(c.x[1].fix.kernel_speedup - 0.1 / (host / 10)) < 1e-9);
	predicted(&c, host * 2);   /* above the floor: nothing moves */
	tk_named_floor(&c.k, &c.p);
	assert_true(fabs(c.k.pred.time_ms - host * 2) < 1e-15);
	assert_true(c.k.nf_model_ms == 0);
	assert_string_equal(c.k.pred.limited_by, "DRAM");
}

static void test_floor_constant(void **state)
{
	struct kern c;
	const int64_t z[N] = { 0, 0, 0, 0 };
	(void)state;
	make(&c, 1, GM_TO_LOAD, "LDG.E", z);
	c.l.const_lane = 2;
	double cst = tk_const_lane_ms(&c.k, &c.p, 32);
	predicted(&c, cst / 4);
	tk_named_floor(&c.k, &c.p);
	assert_true(fabs(c.k.pred.time_ms - cst) < 1e-12);
	assert_string_equal(c.k.pred.limited_by, "constant cache");
	assert_int_equal(tf_named(&c.k, &c.p), 0);   /* the fix: the floored prediction over the one before */
	assert_string_equal(c.x[0].fix.rewrite, "constant_global");
	assert_true(fabs(c.x[0].fix.kernel_speedup - 4) < 1e-9);
	c.p.sm_count = 0;   /* no SM count: no bound, no floor */
	predicted(&c, cst / 4);
	tk_named_floor(&c.k, &c.p);
	assert_true(c.k.nf_model_ms == 0 && fabs(c.k.pred.time_ms - cst / 4) < 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_volatile),
		cmocka_unit_test(test_one_lane_sum),
		cmocka_unit_test(test_global_scratch),
		cmocka_unit_test(test_constant_lanes),
		cmocka_unit_test(test_host_memory),
		cmocka_unit_test(test_floor_host),
		cmocka_unit_test(test_floor_constant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
