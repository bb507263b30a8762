/* test_trace_k68.c - the trace's rules for repeated stores, shared atomics on one word and widths the rows take
 * (docs/TRACE.md, helper k68): rule RS (tk_repeat_stores: the same output stored again by the same thread;
 * tk_l2_write_ms: every store request's sectors at L2's write rate), rule SA's loop (tk_cas_loop: a shared
 * compare-and-swap atomic whose sampled warps have every lane on one word, and the shared loads of its old value)
 * and rule wide_rows (tf_rows_take: v consecutive elements stay in a row only where every other step of the map is
 * a multiple of v). Synthetic instructions, table-driven. */
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
};

/* n global instructions of op, 4 B, at map gid + off[i] (base 1 MiB), one sample each of 32 lanes */
static void make(struct kern *c, int n, int op, const int64_t *off, const char *const *expr)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = 1024, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = 256, c->l.block[1] = c->l.block[2] = 1;
	for (int i = 0; i < n; i++) {
		c->in[i].space = GM_TS_GLOBAL;
		c->in[i].op = op;
		c->in[i].size = 4;
		c->in[i].pc = 16 * (uint64_t)(i + 1);
		c->in[i].line = 10;
		c->in[i].executions = 8192;
		c->in[i].sectors = 8192 * 4;
		c->s[i].have = c->s[i].mask = 0xffffffffu;
		for (int lane = 0; lane < 32; lane++)
			c->s[i].addr[lane] = (1 << 20) + (lane + off[i]) * 4;
		c->in[i].samples = &c->s[i];
		c->in[i].nsamples = 1;
		c->x[i].in = &c->in[i];
		c->x[i].fit.map.known = 1;
		c->x[i].fit.map.nmodes = 1;
		c->x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, 0, 1 };
		c->x[i].fit.map.base = 1 << 20;
		c->x[i].fit.map.offset = off[i];
		c->x[i].fit.iters = 1;
		snprintf(c->x[i].fit.expr1d, sizeof(c->x[i].fit.expr1d), "%s", expr[i]);
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = n, c->k.threads = 1024 * 256;
}

static void test_repeat_stores(void **state)
{
	struct kern c;
	int lead;
	const int64_t same[N] = { 0, 0, 0, 0 }, apart[N] = { 0, 1, 2, 3 };
	const char *const g[N] = { "gid", "gid", "gid", "gid" }, *const gp[N] = { "gid", "gid + 1", "gid + 2", "gid + 3" };
	struct gm_profile p;
	(void)state;
	make(&c, 4, GM_TO_STORE, same, g);
	assert_int_equal(tk_repeat_stores(&c.k, &lead), 4);   /* the same word four times */
	assert_int_equal(lead, 0);
	make(&c, 4, GM_TO_STORE, apart, gp);
	assert_int_equal(tk_repeat_stores(&c.k, &lead), 0);   /* pieces of a row: each stored once */
	make(&c, 4, GM_TO_LOAD, same, g);
	assert_int_equal(tk_repeat_stores(&c.k, &lead), 0);   /* loads read again: rule M's readings, not RS */
	/* the L2 write floor: 4 x 8192 x 4 sectors of 32 B at 1000 GB/s */
	make(&c, 4, GM_TO_STORE, same, g);
	memset(&p, 0, sizeof(p));
	p.l2_write_gbs = 1000;
	assert_true(fabs(tk_l2_write_ms(&c.k, &p) - 4.0 * 8192 * 4 * 32 / 1e9) < 1e-12);
	p.l2_write_gbs = 0;
	assert_true(tk_l2_write_ms(&c.k, &p) == 0);   /* no rate, no floor */
}

static void test_cas_loop(void **state)
{
	struct kern c;
	struct tk_swap sw[8];
	int nsw;
	double execs;
	const int64_t off[N] = { 0, 0, 0, 0 };
	const char *const e[N] = { "0", "0", "0", "0" };
	char cas[] = "ATOMS.CAST.SPIN", inc[] = "ATOMS.POPC.INC.32";
	(void)state;
	make(&c, 3, GM_TO_LOAD, off, e);
	for (int i = 0; i < 3; i++) {
		c.in[i].space = GM_TS_SHARED;
		for (int lane = 0; lane < 32; lane++)
			c.s[i].addr[lane] = 64;   /* one word */
	}
	c.in[1].op = GM_TO_ATOMIC, c.in[1].sass = cas, c.in[1].executions = 123 * 8192.0;
	c.in[0].executions = 123 * 8192.0;   /* its old value, loaded each round */
	c.in[2].line = 14;                    /* another shared load */
	assert_int_equal(tk_cas_loop(&c.k, sw, &nsw, 8, &execs), 1);
	assert_int_equal(nsw, 2);
	assert_true(execs == 123 * 8192.0);
	c.s[1].addr[5] = 68;   /* a lane on another word: the data chooses, not one word */
	assert_int_equal(tk_cas_loop(&c.k, sw, &nsw, 8, &execs), -1);
	c.s[1].addr[5] = 64;
	c.in[1].sass = inc;   /* an integer increment: no loop */
	assert_int_equal(tk_cas_loop(&c.k, sw, &nsw, 8, &execs), -1);
}

struct rows_row {
	const char *what;
	int64_t lane, row;   /* the lanes' step and the row's (a second mode, threadIdx.y) */
	int v, takes;
};

static const struct rows_row rows_rows[] = {
	{ "int32 rows of 5003 (set 17's clamp2d): no 2-wide element", 1, 5003, 2, 0 },
	{ "rows of 6008 elements, 8 a thread", 1, 6008, 8, 1 },
	{ "rows of 6008 elements, 16 a thread: 6008 is not a multiple of 16", 1, 6008, 16, 0 },
	{ "RGB records (lanes 3 apart), rows of 3 x 4000: 4 records a thread", 3, 12000, 4, 1 },
	{ "RGB records, rows of 3 x 4001: not 2 a thread", 3, 12003, 2, 0 },
};

/* a row's index every thread of the row loads (set 14's unpad_elem: `index[gid / 768]`, a broadcast): 8 consecutive
   threads share it; `gid / 100` is not shared by 8 */
static void test_rows_quotient(void **state)
{
	struct kern c;
	const int64_t off[N] = { 0, 0, 0, 0 };
	const char *const e[N] = { "gid", "gid", "gid", "gid" };
	(void)state;
	make(&c, 2, GM_TO_LOAD, off, e);
	c.x[1].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 768, 0, 1 };
	assert_int_equal(tf_rows_take(&c.k, 8), 1);
	c.x[1].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 100, 0, 1 };
	assert_int_equal(tf_rows_take(&c.k, 8), 0);
}

static void test_rows_take(void **state)
{
	struct kern c;
	const int64_t off[N] = { 0, 0, 0, 0 };
	const char *const e[N] = { "gid", "gid", "gid", "gid" };
	(void)state;
	for (size_t r = 0; r < sizeof(rows_rows) / sizeof(rows_rows[0]); r++) {
		const struct rows_row *w = &rows_rows[r];
		make(&c, 2, GM_TO_LOAD, off, e);
		c.in[1].op = GM_TO_STORE;
		for (int i = 0; i < 2; i++) {
			c.x[i].fit.map.nmodes = 2;
			c.x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_TX, 1, 0, w->lane };
			c.x[i].fit.map.mode[1] = (struct gm_trace_mode){ GM_TV_TY, 1, 0, w->row };
		}
		print_message("%s\n", w->what);
		assert_int_equal(tf_rows_take(&c.k, w->v), w->takes);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_repeat_stores),
		cmocka_unit_test(test_cas_loop),
		cmocka_unit_test(test_rows_take),
		cmocka_unit_test(test_rows_quotient),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
