/* test_trace_run_prog.c - the program-level run rules (trace_run_prog.c, docs/TRACE.md "The run"): acc_chain (an
 * accumulator passed along consecutive launches: set 25's sloop), clone (two buffers of equal values loaded element
 * for element: set 25's resid), domain (an in-place launch whose store mostly writes back what was there, its work on
 * a part of its threads: set 25's roi), and rule reload over loops (a temporary a thread writes and the next launch's
 * same thread reads, a row at a time, then reduces: set 25's gsoft). Synthetic 1D launches (trace_synth.h: 1024
 * blocks of 256 threads, 4-byte elements) analysed whole with the built-in H200 profile; each rule with the cases it
 * must refuse, a table each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "trace_synth.h"
#include "trace_run_fixture.h"

static void put(struct run *u, int i, const char *name, enum gm_trace_op op, int64_t base)
{
	run_put(u, i, name, op, base, "gid", 1024, 4, 1, 0);
}

/* out = w0 x; out += w1 u; out += w2 v (set 25's sloop) */
static void sloop(struct run *u)
{
	memset(u, 0, sizeof(*u));
	put(u, 0, "scale", GM_TO_LOAD, X);
	put(u, 0, "scale", GM_TO_STORE, A);
	put(u, 1, "axpy", GM_TO_LOAD, U);
	put(u, 1, "axpy", GM_TO_LOAD, A);
	put(u, 1, "axpy", GM_TO_STORE, A);
	put(u, 2, "axpy", GM_TO_LOAD, V);
	put(u, 2, "axpy", GM_TO_LOAD, A);
	put(u, 2, "axpy", GM_TO_STORE, A);
}

static void test_acc_chain(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	sloop(&u);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_ACC_CHAIN, &f), 1);
	assert_int_equal(u.r.across.n, 1);   /* the chain named once, not pair by pair */
	assert_true(f->first == 0 && f->second == 2);
	assert_true(f->lo == A && f->hi == A + 1024 * 256 * 4);
	assert_int_equal(u.r.k[0].ins[f->ins_first].in->op, GM_TO_STORE);
	assert_int_equal(u.r.k[2].ins[f->ins_second].in->op, GM_TO_LOAD);
	assert_true(f->saved_ms > 0 && f->saved_ms < 0.03);
	assert_true(f->bytes > 0);
	assert_true(fabs(f->run_speedup - 0.03 / (0.03 - f->saved_ms)) < 1e-9);
	assert_non_null(strstr(f->words, "an accumulator written to DRAM and read back 2 times"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "acc_chain");
	run_done(&u);
}

static void test_acc_chain_refused(void **state)
{
	struct run u;
	const struct { const char *what; int repeat, gap, stencil, store_first; } no[] = {
		{ "one kernel repeated on the same inputs (a benchmark's repeats)", 1, 0, 0, 0 },
		{ "a launch between the two, not traced", 0, 1, 0, 0 },
		{ "a second access of the buffer (a stencil)", 0, 0, 1, 0 },
		{ "the store before the load", 0, 0, 0, 1 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		put(&u, 0, "axpy", GM_TO_LOAD, U);
		put(&u, 0, "axpy", GM_TO_LOAD, A);
		put(&u, 0, "axpy", GM_TO_STORE, A);
		const char *k2 = no[c].repeat ? "axpy" : "axpy2";
		put(&u, 1, k2, GM_TO_LOAD, U);
		if (no[c].store_first)
			put(&u, 1, k2, GM_TO_STORE, A);
		put(&u, 1, k2, GM_TO_LOAD, A);
		if (no[c].stencil)
			run_put(&u, 1, k2, GM_TO_LOAD, A, "gid + 1", 1024, 4, 1, 0);
		if (!no[c].store_first)
			put(&u, 1, k2, GM_TO_STORE, A);
		if (no[c].gap)
			u.l[1].index = 2;
		run_analyse(&u);
		if (run_found(&u, GM_TR_ACC_CHAIN, NULL))
			fail_msg("rule acc_chain named %s", no[c].what);
		run_done(&u);
	}
}

/* values of a load that say something: 1024 lanes of random floats' bit patterns */
static void floats(struct gm_trace_instr *in, int64_t max)
{
	in->values = (struct gm_trace_values){ .have = 1, .lanes = 1024, .zero = 0, .silent = -1, .float_exact = -1,
					       .ints = 1, .min = -1146658957, .max = max, .int_bits = 32, .nsmall = -1,
					       .own_x = 0, .own_y = 0, .own_elem = 1 };
}

/* out = f(x) + identity, identity a copy of x (set 25's resid), over 16 MB buffers (at 1 MB the launch model puts the
   launch at its latency: a load fewer saves under GM_TRACE_WORTH) */
#define BIG 16384
static void resid(struct run *u)
{
	memset(u, 0, sizeof(*u));
	run_put(u, 0, "resid", GM_TO_LOAD, X, "gid", BIG, 4, 1, 0);
	run_put(u, 0, "resid", GM_TO_LOAD, U, "gid", BIG, 4, 1, 0);
	run_put(u, 0, "resid", GM_TO_STORE, A, "gid", BIG, 4, 1, 0);
	floats(&u->l[0].ins[0], 1084570358);
	floats(&u->l[0].ins[1], 1084570358);
}

static void test_clone(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	resid(&u);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_CLONE, &f), 1);
	assert_true(f->first == 0 && f->second == 0);
	assert_true(f->lo == U);   /* the second load's buffer: the copy */
	assert_true(f->saved_ms >= 0.0005 && f->saved_ms < 0.01);   /* GM_TRACE_WORTH of the run's 0.01 ms or more */
	assert_non_null(strstr(f->words, "most likely a copy of the first"));
	run_done(&u);

	const struct { const char *what; int64_t max; int nsmall; double lanes; int64_t shift; } no[] = {
		{ "two buffers of different values", 1084570000, -1, 1024, 0 },
		{ "small integers (labels: equal counts by chance)", 1084570358, 4, 1024, 0 },
		{ "too few lanes to say", 1084570358, -1, 100, 0 },
		{ "two loads of different elements", 1084570358, -1, 1024, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		run_put(&u, 0, "resid", GM_TO_LOAD, X, "gid", BIG, 4, 1, 0);
		run_put(&u, 0, "resid", GM_TO_LOAD, U, no[c].shift ? "gid + 1" : "gid", BIG, 4, 1, 0);
		run_put(&u, 0, "resid", GM_TO_STORE, A, "gid", BIG, 4, 1, 0);
		floats(&u.l[0].ins[0], 1084570358);
		floats(&u.l[0].ins[1], no[c].max);
		u.l[0].ins[1].values.nsmall = u.l[0].ins[0].values.nsmall = no[c].nsmall;
		u.l[0].ins[1].values.lanes = u.l[0].ins[0].values.lanes = no[c].lanes;
		run_analyse(&u);
		if (run_found(&u, GM_TR_CLONE, NULL))
			fail_msg("rule clone named %s", no[c].what);
		run_done(&u);
	}
}

/* frame[i] loaded and stored back, the overlay loaded by a tenth of the threads, 90 % of the stores silent (roi) */
static void roi(struct run *u, double silent, double work, int64_t dst)
{
	memset(u, 0, sizeof(*u));
	put(u, 0, "overlay", GM_TO_LOAD, A);
	put(u, 0, "overlay", GM_TO_LOAD, X);
	put(u, 0, "overlay", GM_TO_STORE, dst);
	u->l[0].ins[1].thread_accesses *= work;
	u->l[0].ins[1].sectors *= work;
	u->l[0].ins[1].executions *= work;
	u->l[0].ins[1].requests *= work;
	u->l[0].ins[2].values = (struct gm_trace_values){ .have = 1, .lanes = 1024, .silent = silent * 1024,
							  .float_exact = -1, .nsmall = -1, .own_x = -1, .own_y = -1,
							  .own_elem = -1 };
}

static void test_domain(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	roi(&u, 0.9, 0.1, A);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_DOMAIN, &f), 1);
	assert_true(f->first == 0 && f->second == 0 && f->lo == A);
	assert_int_equal(u.r.k[0].ins[f->ins_first].in->op, GM_TO_STORE);
	assert_true(f->saved_ms > 0.005 && f->saved_ms < 0.01);   /* 90 % of the frame's bytes, most of the launch's */
	assert_non_null(strstr(f->words, "the launch's domain is the whole buffer"));
	run_done(&u);

	const struct { const char *what; double silent, work; int64_t dst; } no[] = {
		{ "a store that changes most lanes", 0.3, 0.1, A },
		{ "work on every thread", 0.9, 1, A },
		{ "a store to another buffer (not in place)", 0.9, 0.1, U },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		roi(&u, no[c].silent, no[c].work, no[c].dst);
		run_analyse(&u);
		if (run_found(&u, GM_TR_DOMAIN, NULL))
			fail_msg("rule domain named %s", no[c].what);
		run_done(&u);
	}
}

/* a row transform storing a temporary a thread at a time along the row (8 iterations of 256 elements), then a
   reduction of each row by the same threads, one value a block (set 25's gsoft: softmax, then argmax) */
static void test_reload_loops(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	run_put(&u, 0, "soft", GM_TO_LOAD, X, "tx + bx*2048", 1024, 4, 8, 256);
	run_put(&u, 0, "soft", GM_TO_STORE, A, "tx + bx*2048", 1024, 4, 8, 256);
	run_put(&u, 1, "arg", GM_TO_LOAD, A, "tx + bx*2048", 1024, 4, 8, 256);
	run_put(&u, 1, "arg", GM_TO_STORE, U, "bx", 1024, 4, 1, 0);
	u.l[1].ins[1].thread_accesses /= 256;   /* one thread a block stores the row's result */
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_RELOAD, &f), 1);
	assert_true(f->first == 0 && f->second == 1 && f->saved_ms > 0);
	assert_non_null(strstr(f->words, "reduces the"));
	assert_non_null(strstr(f->words, "cannot confirm"));
	run_done(&u);

	/* the consumer walking the row at another step: not the same thread's elements */
	memset(&u, 0, sizeof(u));
	run_put(&u, 0, "soft", GM_TO_LOAD, X, "tx + bx*2048", 1024, 4, 8, 256);
	run_put(&u, 0, "soft", GM_TO_STORE, A, "tx + bx*2048", 1024, 4, 8, 256);
	run_put(&u, 1, "arg", GM_TO_LOAD, A, "tx + bx*2048", 1024, 4, 4, 512);
	run_put(&u, 1, "arg", GM_TO_STORE, U, "bx", 1024, 4, 1, 0);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_RELOAD, NULL), 0);
	run_done(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acc_chain),
		cmocka_unit_test(test_acc_chain_refused),
		cmocka_unit_test(test_clone),
		cmocka_unit_test(test_domain),
		cmocka_unit_test(test_reload_loops),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
