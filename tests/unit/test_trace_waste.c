/* test_trace_waste.c - three kinds of waste in one kernel (docs/TRACE.md, "Named patterns" and "The launch's
 * shape"): rule flat_grid (trace_fix_flat.c: a 256-thread block a row of 40 floats relaunched a thread an element,
 * priced by the launch model), rule search_chain / row_index (trace_fix_chain.c: a binary search per thread, 20
 * dependent loads from a root the whole grid shares, replaced by the row index stored once) and rule spill
 * (trace_fix_spill.c: ptxas' register spills from the stack frame or the SASS's untraced STL / LDL). Synthetic
 * kernels with the built-in H200 profile, each with cases the rule must refuse. */
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
#include "trace_synth.h"

static struct gm_profile P;

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* rows of `row` floats, a block of tpb threads a row (threads past the row idle): y = x * inv[row] */
static void rows_kernel(struct gm_trace_launch *l, struct gm_trace_kernel *k, int tpb, int row, int shared)
{
	struct synth x = { "rows", "tx + bx*40", { 256, 1, 1 }, { 20000, 1, 1 }, 4, GM_TS_GLOBAL, GM_TO_LOAD, 1, 0, 0, 1,
			   NULL, 0 };
	struct synth inv = x, y = x, s = x;
	char ex[32];

	snprintf(ex, sizeof(ex), "tx + bx*%d", row);
	x.expr = y.expr = ex, x.block[0] = y.block[0] = inv.block[0] = s.block[0] = tpb;
	inv.expr = "bx";
	y.op = GM_TO_STORE;
	s.expr = "tx", s.space = GM_TS_SHARED;
	assert_int_equal(synth_launch(&x, 0x7f1200000000ll, l), 0);
	assert_int_equal(synth_append(&inv, 0x7f1300000000ll, 11, l), 0);
	assert_int_equal(synth_append(&y, 0x7f1400000000ll, 12, l), 0);
	if (shared)
		assert_int_equal(synth_append(&s, 0, 13, l), 0);
	for (int i = 0; i < l->nins; i++) {   /* the warps past the row execute nothing, its lanes past it are idle */
		struct gm_trace_instr *in = &l->ins[i];
		double w = ceil(row / 32.0) * 20000;
		if (in->space == GM_TS_SHARED)
			continue;
		in->thread_accesses = (double)row * 20000;
		in->sectors *= w / in->executions, in->ideal_sectors *= w / in->executions;
		in->executions = in->requests = w;
	}
	l->time_ms = 0.05;   /* about 4x the flat grid's prediction */
	assert_int_equal(gm_trace_kernel_analyse(l, &P, k), GM_OK);
}

static void test_flat_grid(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	char text[300];
	int64_t row;
	int at;
	(void)state;
	rows_kernel(&l, &k, 256, 40, 0);
	assert_true(tk_idle_lanes(&k, text, sizeof(text), &at) > 0.3);
	double s = tk_flat_grid(&k, &P, &row, &at);
	print_message("flat grid: %.3fx (rows of %lld)\n", s, (long long)row);
	assert_int_equal(row, 40);
	assert_true(s > 2);
	assert_int_equal(tf_flat_grid(&k, &P), 1);
	assert_string_equal(k.ins[at].fix.rewrite, "flat_grid");
	assert_non_null(strstr(k.ins[at].fix.change, "20000 blocks of 256 threads (216 of each idle) -> 3125"));
	tk_bottlenecks(&k, &P);   /* the idle lanes first, with the flat grid's price */
	assert_non_null(strstr(k.primary, "idle lanes: blocks of 256 threads on rows of 40 elements"));
	assert_non_null(strstr(k.primary, "a flat grid"));
	free(k.ins);
	synth_free(&l);
	rows_kernel(&l, &k, 256, 40, 1);   /* a row's reduction through shared memory: warp_rows', not this rule's */
	assert_true(tk_flat_grid(&k, &P, &row, &at) == 0);
	free(k.ins);
	synth_free(&l);
	rows_kernel(&l, &k, 256, 250, 0);   /* 2 % of the lanes idle: no idle lanes */
	assert_true(tk_flat_grid(&k, &P, &row, &at) == 0);
	free(k.ins);
	synth_free(&l);
}

#define CH_WARPS 749888   /* set 22's seg: 24 M values */
#define CH_ROWS 1000003

struct chain {
	struct gm_trace_launch l;
	struct gm_trace_instr in[3];
	struct gm_trace_sample s[3][128];
	struct gm_trace_insn x[3];
	struct gm_trace_kernel k;
};

/* a thread an element, its row by a binary search of rowptr (depth loads a warp, samples at iterations 0 and 1:
   the root, then root +- h elements), then val[gid] loaded and out[gid] stored */
static void chain_kernel(struct chain *c, double depth, int64_t h, int spread)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = CH_WARPS / 8, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = 256, c->l.block[1] = c->l.block[2] = 1;
	c->l.time_ms = 0.4;
	for (int i = 0; i < 3; i++) {
		struct gm_trace_instr *in = &c->in[i];
		in->space = GM_TS_GLOBAL, in->op = i == 2 ? GM_TO_STORE : GM_TO_LOAD, in->size = 4;
		in->pc = 16 * (i + 1), in->line = 44 + i;
		in->executions = CH_WARPS * (i ? 1 : depth);
		in->thread_accesses = in->executions * 32;
		in->sectors = in->executions * (i ? 4 : 1);
		in->samples = c->s[i];
		c->x[i].in = in;
		c->x[i].bytes = in->sectors * 32;
		c->x[i].fit.map.known = i > 0, c->x[i].fit.approx = !i, c->x[i].fit.iters = 1;
		snprintf(c->x[i].fit.expr1d, sizeof(c->x[i].fit.expr1d), i ? "gid" : "0");   /* the search: no map, a
												  stand-in */
	}
	for (int w = 0; w < 64; w++)   /* 64 warps, each at iterations 0 and 1 */
		for (int it = 0; it < 2; it++) {
			struct gm_trace_sample *s = &c->s[0][c->in[0].nsamples++];
			s->block[0] = w * 8, s->iter = it, s->have = s->mask = 0xffffffffu;
			for (int q = 0; q < 32; q++)
				s->addr[q] = (1ll << 30) + 4 * (CH_ROWS / 2 + (it ? (w % 2 ? h : -h) + (spread ? w : 0) : 0));
		}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = 3, c->k.threads = CH_WARPS * 32;
	c->k.time_ms = 0.4;
	c->k.occ.blocks = 8;
	c->k.pred_ok = 1;
	c->k.pred.time_ms = 0.02;
	c->k.pred.limited_by = "latency";
}

static void test_search_chain(void **state)
{
	static struct chain c;
	struct tk_named v[9];
	int n, hit = -1;
	(void)state;
	chain_kernel(&c, 20, 250001, 0);
	n = tk_named(&c.k, &P, v, 9);
	for (int i = 0; i < n; i++)
		hit = !strncmp(v[i].text, "a binary search", 15) ? i : hit;
	assert_true(hit >= 0);
	print_message("%s\n", v[hit].text);
	assert_non_null(strstr(v[hit].text, "20 dependent loads a thread"));
	assert_int_equal(v[hit].ins, 0);
	/* 749,888 warps, 8 blocks of 8 warps an SM: waves of 64 x the SMs' warps, each 20 x the L2 latency */
	double waves = ceil(CH_WARPS / (P.sm_count * 64.0));
	assert_true(fabs(v[hit].score - fmin(1, waves * 20 * P.l2_latency_ns * 1e-6 / 0.4)) < 1e-9);
	assert_int_equal(tf_search_chain(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "row_index");
	print_message("row_index: %.3fx\n", c.x[0].fix.kernel_speedup);
	assert_true(c.x[0].fix.kernel_speedup > 2);
	chain_kernel(&c, 20, 250001, 1);   /* second probes at different distances: a gather, not a search */
	assert_int_equal(tf_search_chain(&c.k, &P), -1);
	n = tk_named(&c.k, &P, v, 9);
	for (int i = 0; i < n; i++)
		assert_null(strstr(v[i].text, "binary search"));
	chain_kernel(&c, 8, 250001, 0);   /* 8 steps cannot halve a million elements to one */
	assert_int_equal(tf_search_chain(&c.k, &P), -1);
}

/* rule SC: the search's kernel time, the rest of the kernel (the fix's, row_index) plus the chain's dependent latencies;
   the refused searches leave the prediction alone */
static void test_chain_time(void **state)
{
	static struct chain c;
	(void)state;
	chain_kernel(&c, 20, 250001, 0);
	assert_int_equal(tf_search_chain(&c.k, &P), 0);
	double rest = 0.4 / c.x[0].fix.kernel_speedup, waves = ceil(CH_WARPS / (P.sm_count * 64.0));
	double chain = waves * 20 * P.l2_latency_ns * 1e-6;
	chain_kernel(&c, 20, 250001, 0);
	assert_int_equal(tk_chain_time(&c.k, &P), 1);
	print_message("rule SC: %.4f ms = %.4f + %.4f\n", c.k.pred.time_ms, rest, chain);
	assert_true(fabs(c.k.pred.time_ms - (rest + chain)) < 1e-9);
	assert_non_null(strstr(c.k.pred_why, "rule SC: 20 dependent loads, "));
	chain_kernel(&c, 20, 250001, 1);   /* a gather, not a search */
	assert_int_equal(tk_chain_time(&c.k, &P), 0);
	assert_true(c.k.pred.time_ms == 0.02);
	chain_kernel(&c, 8, 250001, 0);
	assert_int_equal(tk_chain_time(&c.k, &P), 0);
	c.k.pred_ok = 0;   /* no prediction to change */
	chain_kernel(&c, 20, 250001, 0);
	c.k.pred_ok = 0;
	assert_int_equal(tk_chain_time(&c.k, &P), 0);
}

struct spk {
	struct gm_trace_launch l;
	struct gm_trace_instr in[2];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
	struct gm_trace_spill sp[5];
};

/* a 2D launch of 1,504,000 threads, 32 registers, a 208-byte stack, 16 blocks of 128 an SM (the stacks overflow
   L1: 416 KB an SM) */
static void spill_kernel(struct spk *c, int nspill)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = 94, c->l.grid[1] = 125, c->l.grid[2] = 1;
	c->l.block[0] = 16, c->l.block[1] = 8, c->l.block[2] = 1;
	c->l.registers = 32, c->l.local_bytes = 208, c->l.nspill = nspill, c->l.spill = c->sp;
	for (int q = 0; q < 5; q++)
		c->sp[q] = (struct gm_trace_spill){ 0x100 + 16 * q, q < 2, q < 2 ? 4 : 8, q ? NULL : "/src/p.cu", q ? 0 : 40 };
	for (int i = 0; i < 2; i++) {
		c->in[i].space = GM_TS_GLOBAL, c->in[i].op = i ? GM_TO_STORE : GM_TO_LOAD, c->in[i].size = 4;
		c->in[i].pc = 0x80 + 0x100 * i, c->in[i].executions = 47000;
		c->x[i].in = &c->in[i];
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = 2, c->k.threads = 1504000;
	c->k.order[0] = 0, c->k.order[1] = 1, c->k.norder = 2;
	c->k.occ.blocks = 16;
	c->k.time_ms = 0.2308;
}

static void test_spill(void **state)
{
	static struct spk c;
	struct tk_named v;
	(void)state;
	spill_kernel(&c, -1);   /* no SASS list: the frame stored once and loaded once */
	assert_int_equal(tk_spill_named(&c.k, &P, &v), 1);
	print_message("%s\n", v.text);
	double t = 208.0 * 1504000 * (1 / P.l2_write_gbs + 1 / P.l2_read_gbs) * 1e-6;
	assert_true(fabs(v.score - t / 0.2308) < 1e-9);
	assert_non_null(strstr(v.text, "register spill (32 registers, a 208-byte stack, no local access traced)"));
	assert_int_equal(tf_spill(&c.k, &P), 0);
	assert_true(fabs(c.x[0].fix.kernel_speedup - 0.2308 / (0.2308 - t)) < 1e-9);
	spill_kernel(&c, 5);   /* the SASS's 2 STL of 4 B and 3 LDL of 8 B, each once a thread */
	assert_int_equal(tk_spill_named(&c.k, &P, &v), 1);
	assert_non_null(strstr(v.text, "2 STL, 3 LDL from p.cu:40"));
	t = 1504000 * (8 / P.l2_write_gbs + 24 / P.l2_read_gbs) * 1e-6;
	assert_true(fabs(v.score - t / 0.2308) < 1e-9);
	spill_kernel(&c, 0);   /* the SASS has no STL / LDL: the frame is not spills */
	assert_int_equal(tk_spill_named(&c.k, &P, &v), 0);
	spill_kernel(&c, -1);
	c.in[1].space = GM_TS_LOCAL;   /* a traced local array: rule registers', not this one */
	assert_int_equal(tk_spill_named(&c.k, &P, &v), 0);
	assert_int_equal(tf_spill(&c.k, &P), -1);
	spill_kernel(&c, -1);
	c.l.local_bytes = 0;
	assert_int_equal(tk_spill_named(&c.k, &P, &v), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat_grid),
		cmocka_unit_test(test_search_chain),
		cmocka_unit_test(test_chain_time),
		cmocka_unit_test(test_spill),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
