/* test_trace_atomic_use.c - rules GC and U1 (trace_atomic_use.c, docs/TRACE.md "The kernel's prediction"): a global
 * compare-and-swap retry loop on words other threads update (its rounds' passes at the L2 slices added to the
 * prediction, named "use atomicMax / reduce in the warp first"), and a global atomic on addresses each hit once
 * (named "each address is updated once: a plain store"). Synthetic kernels, each with the cases the rules must
 * refuse. */
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

#define S 32
#define WARPS 8192.0   /* 1024 blocks of 256 threads */

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in;
	struct gm_trace_sample s[S];
	struct gm_trace_insn x;
	struct gm_trace_kernel k;
	struct gm_profile p;
};

/* one global 4-byte atomic (sass, op), ns samples: sample i is warp i % 8 of block 31 i, lane l at
   base + 4 word(i, l) */
static void make(struct kern *c, const char *sass, int op, int ns, int64_t (*word)(int, int))
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = 1024, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = 256, c->l.block[1] = c->l.block[2] = 1;
	c->l.time_ms = 0.1;
	c->in.space = GM_TS_GLOBAL;
	c->in.op = op;
	c->in.sass = (char *)sass;
	c->in.size = 4;
	c->in.pc = 64;
	c->in.line = 7;
	c->in.executions = WARPS;
	c->in.thread_accesses = WARPS * 32;
	c->in.sectors = WARPS * 4;
	c->in.requests = WARPS;
	for (int i = 0; i < ns; i++) {
		c->s[i].block[0] = 31 * i % 1024;
		c->s[i].warp = i % 8;
		c->s[i].have = c->s[i].mask = 0xffffffffu;
		for (int l = 0; l < 32; l++)
			c->s[i].addr[l] = (1 << 24) + 4 * word(i, l);
	}
	c->in.samples = c->s;
	c->in.nsamples = ns;
	c->x.in = &c->in;
	c->x.bytes = WARPS * 4 * 32;
	c->x.share = 1;
	c->k.l = &c->l, c->k.ins = &c->x, c->k.nins = 1, c->k.threads = 1024 * 256;
	c->k.time_ms = 0.1;
	c->p.sm_count = 132;
	c->p.atomic_u32_ns = 0.7608338;
	c->p.atomic_f32_ns = 1.756716;
}

/* 128 column words (512 B), warp i on the 32 of strip i % 4: every word updated by thousands of threads */
static int64_t columns(int i, int l)
{
	return 32 * (i % 4) + l;
}

/* each thread its own word: block b, warp w, lane l at b 256 + w 32 + l */
static int64_t own(int i, int l)
{
	return (int64_t)(31 * i % 1024) * 256 + (i % 8) * 32 + l;
}

/* 512 distinct words (2 KB), one strip a sample */
static int64_t strips(int i, int l)
{
	return 32 * i + l;
}

/* rule U1's kernels: a fitted map (coalesced), blocks of one warp (8192 of them: the same warps) */
static void fitted(struct kern *c)
{
	c->l.grid[0] = 8192;
	c->l.block[0] = 32;
	c->x.fit.map.known = 1;
	c->x.fit.cls = GM_TC_COALESCED;
}

static const struct tk_named *named(struct kern *c, const char *what, struct tk_named *v)
{
	int n = tk_atomic_named(&c->k, &c->p, v, 2);

	for (int i = 0; i < n; i++)
		if (!strncmp(v[i].text, what, strlen(what)))
			return &v[i];
	return NULL;
}

static void test_gcas_loop(void **state)
{
	struct kern c;
	double r, w, sp;
	(void)state;
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 16, columns);
	c.in.executions = 1.3 * WARPS;   /* 1.3 rounds a warp: the lanes that lost go round again */
	c.in.thread_accesses = 1.04 * WARPS * 32;
	c.in.sectors = 1.3 * WARPS * 4;
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 1);
	assert_true(fabs(r - 1.3) < 1e-12);
	assert_true(fabs(sp - 512) < 1e-12);
	assert_true(fabs(w - 1.04 * WARPS * 32 * 4 / 512) < 1e-9);
	/* the sectors' passes at atomic_u32_ns, one slice (512 B of words) */
	int at;
	double ms = tk_gcas_ms(&c.k, &c.p, &at);
	assert_int_equal(at, 0);
	assert_true(fabs(ms - 1.3 * WARPS * 4 * 0.7608338 * 1e-6) < 1e-12);
	/* words over 4 slices: a quarter */
	for (int i = 0; i < 16; i++)
		for (int l = 0; l < 32; l++)
			c.s[i].addr[l] = (1 << 24) + 4 * (128 * (i % 4) + l);
	sp = 0;
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 1);
	assert_true(fabs(tk_gcas_ms(&c.k, &c.p, &at) - 1.3 * WARPS * 4 * 0.7608338 * 1e-6 / (sp / 512)) < 1e-12);
	/* refused: not a CAS (an atomicAdd sends its update, nothing to retry) */
	make(&c, "ATOMG.E.ADD.STRONG.GPU", GM_TO_ATOMIC, 16, columns);
	c.in.executions = 1.3 * WARPS;
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 0);
	/* once a warp and no retry sampled: no loop seen */
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 16, columns);
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 0);
	/* ... but a warp sampled again with a subset of its lanes on the same words: a retry */
	c.s[1] = c.s[0];
	c.s[1].iter = 1;
	c.s[1].have = c.s[1].mask = 0x0000f00fu;
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 1);
	/* each thread its own word: nothing to contend for */
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 16, own);
	c.in.executions = 1.3 * WARPS;
	assert_int_equal(tk_gcas_loop(&c.k, 0, &r, &w, &sp), 0);
	/* no profile rate: no time */
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 16, columns);
	c.in.executions = 1.3 * WARPS;
	c.p.atomic_u32_ns = 0;
	assert_true(tk_gcas_ms(&c.k, &c.p, &at) == 0 && at == -1);
}

static void test_gcas_added_and_named(void **state)
{
	struct kern c;
	struct tk_named v[2];
	const struct tk_named *n;
	int at;
	(void)state;
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 16, columns);
	c.in.executions = 1.3 * WARPS;
	c.in.sectors = 1.3 * WARPS * 4;
	double ms = tk_gcas_ms(&c.k, &c.p, &at);
	c.k.pred_ok = 1;
	c.k.pred.time_ms = 0.01;
	c.k.pred.useful_bytes = 1e6;
	c.k.pred.limited_by = "latency";
	tk_gcas_add(&c.k, &c.p);
	assert_true(fabs(c.k.pred.time_ms - (0.01 + ms)) < 1e-15);
	assert_int_equal(c.k.gcas_at, 0);
	assert_string_equal(c.k.pred.limited_by, "compare-and-swap");   /* the rounds are more than the rest */
	assert_non_null(strstr(c.k.pred_why, "rule GC"));
	c.k.pred_ok = 0;   /* the fix is not priced here: named by its rounds' share of the time, at the CAS's line */
	c.k.time_ms = ms / 0.5;
	n = named(&c, "a compare-and-swap retry loop", v);
	assert_non_null(n);
	assert_int_equal(n->ins, 0);
	assert_non_null(strstr(n->text, "use atomicMax / reduce in the warp first"));
	c.k.time_ms = ms / 0.05;   /* its rounds a twentieth of the time: not what to change */
	assert_null(named(&c, "a compare-and-swap retry loop", v));
}

static void test_one_to_one(void **state)
{
	struct kern c;
	struct tk_named v[2];
	const struct tk_named *n;
	(void)state;
	make(&c, "REDG.E.ADD.F64.RN.STRONG.GPU", GM_TO_REDUCTION, 32, own);
	fitted(&c);
	assert_int_equal(tk_one_to_one(&c.k, 0), 1);
	c.k.pred_ok = 1;   /* the model's time (the atomic as a store) half the measured: the fix 2x, worth it: 0.6 */
	c.k.pred.time_ms = 0.05;
	n = named(&c, "an atomic on addresses each hit once", v);
	assert_non_null(n);
	assert_true(fabs(n->score - 0.6) < 1e-12);
	assert_int_equal(n->ins, 0);
	assert_non_null(strstr(n->text, "each address is updated once: a plain store"));
	c.k.pred.time_ms = 0.0999;   /* the model explains the time: nothing to gain, not named */
	assert_null(named(&c, "an atomic on addresses each hit once", v));
	c.k.pred.time_ms = 0.05;
	/* one address sampled twice (two warps on it): refused */
	c.s[5].addr[3] = c.s[9].addr[17];
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* a loop (two executions a warp): the thread adds into its word again */
	make(&c, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_TO_REDUCTION, 32, own);
	fitted(&c);
	c.in.executions = 2 * WARPS;
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* a compare-and-swap: rule GC's, not a store */
	make(&c, "ATOMG.E.CAS.STRONG.GPU", GM_TO_ATOMIC, 32, own);
	fitted(&c);
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* distinct samples over 2 KB of words for 262144 threads: shared words, not one-to-one */
	make(&c, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_TO_REDUCTION, 16, strips);
	fitted(&c);
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* too few samples to tell */
	make(&c, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_TO_REDUCTION, 8, own);
	fitted(&c);
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* no map of the ids fits (a scatter the data addresses: 32 samples need not meet where the launch does) */
	make(&c, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_TO_REDUCTION, 32, own);
	fitted(&c);
	c.x.fit.map.known = 0;
	c.x.fit.cls = GM_TC_GATHER;
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
	/* every sample from one block */
	make(&c, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_TO_REDUCTION, 32, own);
	fitted(&c);
	for (int i = 0; i < 32; i++)
		c.s[i].block[0] = 0;
	assert_int_equal(tk_one_to_one(&c.k, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcas_loop),
		cmocka_unit_test(test_gcas_added_and_named),
		cmocka_unit_test(test_one_to_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
