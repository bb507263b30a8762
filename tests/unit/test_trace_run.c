/* test_trace_run.c - the run-level rules (trace_run.c, docs/TRACE.md "The run"): clear_acc (a fill launch, then
 * the next launch loads every element it stored and stores it back: set 22's zacc) and copy_back (a launch that
 * loads what the launch before stored and stores what it loaded: set 22's hcopy). Synthetic runs of 1D launches
 * (trace_synth.h: 1024 blocks of 256 threads, 4-byte elements, every warp counted) analysed whole with the built-in
 * H200 profile; the cases the rules must refuse: a launch between the two, the store before the load, a fill that
 * also loads, another buffer, a launch not measured, a copy to a third buffer, an in-place step, the same kernel
 * twice (a benchmark's naive and fixed versions), independent kernels. Then reload (a temporary between two stages:
 * set 21's chain), dropped_stores (every fourth output kept: set 23's dfull) and same_input (two kernels reading one
 * input: set 23's ssplit), each with the cases it refuses, a table each. */
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

/* one global access of launch i: op on the buffer at base, one element a thread */
static void put(struct run *u, int i, enum gm_trace_op op, int64_t base)
{
	run_put(u, i, "k", op, base, "gid", 1024, 4, 1, 0);
}

/* one global access of launch i, as put's but of kernel name, expression, grid (blocks of 256) and element size */
static void put_as(struct run *u, int i, const char *name, enum gm_trace_op op, int64_t base, const char *expr,
		   int64_t blocks, int elem)
{
	run_put(u, i, name, op, base, expr, blocks, elem, 1, 0);
}

/* a run the rules must refuse: analysed, no finding, the run's speedup 1; then freed */
static void refused(struct run *u)
{
	run_analyse(u);
	assert_int_equal(u->r.across.n, 0);
	assert_true(u->r.across.speedup == 1);
	run_done(u);
}

/* a run rule rule must refuse (the others may name it: a copy to a third buffer is reload's temporary) */
static void refused_by(struct run *u, enum gm_trace_run_rule rule)
{
	run_analyse(u);
	assert_int_equal(run_found(u, rule, NULL), 0);
	run_done(u);
}

/* a fill of A, then A += f(X) */
static void zacc(struct run *u)
{
	memset(u, 0, sizeof(*u));
	put(u, 0, GM_TO_STORE, A);
	put(u, 1, GM_TO_LOAD, X);
	put(u, 1, GM_TO_LOAD, A);
	put(u, 1, GM_TO_STORE, A);
}

static void test_clear_acc(void **state)
{
	struct run u;
	(void)state;
	zacc(&u);
	run_analyse(&u);
	assert_int_equal(u.r.across.n, 1);
	const struct gm_trace_run_finding *f = &u.r.across.f[0];
	assert_int_equal(f->rule, GM_TR_CLEAR_ACC);
	assert_int_equal(f->first, 0);
	assert_int_equal(f->second, 1);
	assert_true(f->lo == A && f->hi == A + 1024 * 256 * 4);
	assert_int_equal(u.r.k[1].ins[f->ins_second].in->op, GM_TO_LOAD);
	assert_true(fabs(u.r.across.run_ms - 0.02) < 1e-12);
	assert_true(f->saved_ms >= 0.01 && f->saved_ms < 0.02);   /* the fill whole, a part of the accumulation */
	assert_true(fabs(f->run_speedup - 0.02 / (0.02 - f->saved_ms)) < 1e-9);
	assert_true(fabs(u.r.across.speedup - f->run_speedup) < 1e-12);
	assert_non_null(strstr(f->words, "cleared and then accumulated"));
	run_done(&u);
}

static void test_clear_acc_refused(void **state)
{
	struct run u;
	(void)state;
	zacc(&u);
	u.l[1].index = 2;   /* a launch between them, not traced */
	refused(&u);
	/* the store before the load: not a read-modify-write */
	put(&u, 0, GM_TO_STORE, A);
	put(&u, 1, GM_TO_STORE, A);
	put(&u, 1, GM_TO_LOAD, A);
	refused(&u);
	zacc(&u);   /* the "fill" loads too: its values come from data */
	put(&u, 0, GM_TO_LOAD, X);
	refused(&u);
	/* the accumulation reads and writes another buffer */
	put(&u, 0, GM_TO_STORE, A);
	put(&u, 1, GM_TO_LOAD, U);
	put(&u, 1, GM_TO_STORE, U);
	refused(&u);
	zacc(&u);   /* a launch not measured: nothing priced */
	u.l[0].time_ms = -1;
	refused(&u);
}

/* a step U -> V, then V copied back to U */
static void hcopy(struct run *u)
{
	memset(u, 0, sizeof(*u));
	put(u, 0, GM_TO_LOAD, U);
	put(u, 0, GM_TO_STORE, V);
	put(u, 1, GM_TO_LOAD, V);
	put(u, 1, GM_TO_STORE, U);
}

static void test_copy_back(void **state)
{
	struct run u;
	(void)state;
	hcopy(&u);
	u.l[1].time_ms = 0.008;
	run_analyse(&u);
	assert_int_equal(u.r.across.n, 1);
	const struct gm_trace_run_finding *f = &u.r.across.f[0];
	assert_int_equal(f->rule, GM_TR_COPY_BACK);
	assert_true(f->lo == V && f->lo2 == U);
	assert_true(fabs(f->saved_ms - 0.008) < 1e-12);   /* the copy whole */
	assert_true(fabs(f->run_speedup - 0.018 / 0.010) < 1e-9);
	assert_non_null(strstr(f->words, "swap the two pointers"));
	run_done(&u);
}

static void test_copy_back_refused(void **state)
{
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));   /* the new state copied to a third buffer (a history), not back */
	put(&u, 0, GM_TO_LOAD, U);
	put(&u, 0, GM_TO_STORE, V);
	put(&u, 1, GM_TO_LOAD, V);
	put(&u, 1, GM_TO_STORE, X);
	refused_by(&u, GM_TR_COPY_BACK);   /* reload's: V a temporary */
	hcopy(&u);   /* the copy also reads another buffer */
	put(&u, 1, GM_TO_LOAD, X);
	refused_by(&u, GM_TR_COPY_BACK);
	/* an in-place step, then its buffer stored again from its output */
	put(&u, 0, GM_TO_LOAD, U);
	put(&u, 0, GM_TO_STORE, U);
	put(&u, 1, GM_TO_LOAD, U);
	put(&u, 1, GM_TO_STORE, U);
	refused(&u);
	hcopy(&u);
	u.l[1].index = 3;   /* launches between them */
	refused(&u);
}

/* controls: a benchmark's naive and fixed versions of one kernel (X -> A twice), independent kernels, a fill whose
   buffer the next launch only reads */
static void test_controls(void **state)
{
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	put(&u, 0, GM_TO_LOAD, X);
	put(&u, 0, GM_TO_STORE, A);
	put(&u, 1, GM_TO_LOAD, X);
	put(&u, 1, GM_TO_STORE, A);
	put(&u, 2, GM_TO_LOAD, U);
	put(&u, 2, GM_TO_STORE, V);
	refused(&u);
	put(&u, 0, GM_TO_STORE, A);
	put(&u, 1, GM_TO_LOAD, A);
	put(&u, 1, GM_TO_STORE, X);
	refused(&u);
}

/* a stage X -> A, then A -> U (set 21's chain) */
static void chain(struct run *u)
{
	memset(u, 0, sizeof(*u));
	put_as(u, 0, "norm", GM_TO_LOAD, X, "gid", 1024, 4);
	put_as(u, 0, "norm", GM_TO_STORE, A, "gid", 1024, 4);
	put_as(u, 1, "gelu", GM_TO_LOAD, A, "gid", 1024, 4);
	put_as(u, 1, "gelu", GM_TO_STORE, U, "gid", 1024, 4);
}

static void test_reload(void **state)
{
	struct run u;
	(void)state;
	chain(&u);
	run_analyse(&u);
	assert_int_equal(u.r.across.n, 1);
	const struct gm_trace_run_finding *f = &u.r.across.f[0];
	assert_int_equal(f->rule, GM_TR_RELOAD);
	assert_true(f->first == 0 && f->second == 1 && f->keep == 0);
	assert_true(f->lo == A && f->hi == A + 1024 * 256 * 4);
	assert_int_equal(u.r.k[0].ins[f->ins_first].in->op, GM_TO_STORE);
	assert_int_equal(u.r.k[1].ins[f->ins_second].in->op, GM_TO_LOAD);
	assert_true(f->saved_ms > 0 && f->saved_ms < 0.02);   /* one launch of the two's work left */
	assert_true(fabs(f->run_speedup - 0.02 / (0.02 - f->saved_ms)) < 1e-9);
	assert_non_null(strstr(f->words, "a temporary between two launches"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "reload");
	run_done(&u);
}

static void test_reload_refused(void **state)
{
	struct run u;
	const struct { const char *what; int load_x, fill, stencil, in_place, store_back, later; } no[] = {
		{ "a fill (a benchmark's input made on the device)", 0, 1, 0, 0, 0, 0 },
		{ "a stencil: each output needs its neighbours'", 1, 0, 1, 0, 0, 0 },
		{ "an update in place by the first launch", 1, 0, 0, 1, 0, 0 },
		{ "the second launch storing into the buffer", 1, 0, 0, 0, 1, 0 },
		{ "a later launch reading the buffer", 1, 0, 0, 0, 0, 1 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		if (no[c].load_x)
			put_as(&u, 0, "first", GM_TO_LOAD, X, "gid", 1024, 4);
		if (no[c].in_place)
			put_as(&u, 0, "first", GM_TO_LOAD, A, "gid", 1024, 4);
		put_as(&u, 0, "first", GM_TO_STORE, A, "gid", 1024, 4);
		put_as(&u, 1, "second", GM_TO_LOAD, A, "gid", 1024, 4);
		if (no[c].stencil)
			put_as(&u, 1, "second", GM_TO_LOAD, A, "gid + 1", 1024, 4);
		put_as(&u, 1, "second", GM_TO_STORE, no[c].store_back ? A : U, "gid", 1024, 4);
		if (no[c].later) {
			put_as(&u, 2, "third", GM_TO_LOAD, A, "gid", 1024, 4);
			put_as(&u, 2, "third", GM_TO_STORE, V, "gid", 1024, 2);
		}
		run_analyse(&u);
		if (run_found(&u, GM_TR_RELOAD, NULL) || run_found(&u, GM_TR_DROPPED, NULL))
			fail_msg("rule reload named %s", no[c].what);
		run_done(&u);
	}
}

/* a stage X -> A at the full rate, then every fourth output of A kept in U (set 23's dfull) */
static void test_dropped_stores(void **state)
{
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	put_as(&u, 0, "full", GM_TO_LOAD, X, "gid", 1024, 4);
	put_as(&u, 0, "full", GM_TO_STORE, A, "gid", 1024, 4);
	put_as(&u, 1, "keep", GM_TO_LOAD, A, "gid*4", 256, 4);
	put_as(&u, 1, "keep", GM_TO_STORE, U, "gid", 256, 4);
	run_analyse(&u);
	assert_int_equal(u.r.across.n, 1);
	const struct gm_trace_run_finding *f = &u.r.across.f[0];
	assert_int_equal(f->rule, GM_TR_DROPPED);
	assert_int_equal(f->keep, 4);
	assert_true(f->lo == A && f->hi == A + 1024 * 256 * 4);
	assert_true(f->saved_ms > 0.01 && f->saved_ms < 0.02);   /* the second launch whole, a part of the first */
	assert_non_null(strstr(f->words, "3 of every 4 outputs computed and stored for nothing"));
	run_done(&u);

	const struct { const char *what; const char *expr; int64_t blocks; int other_load; } no[] = {
		{ "a consumer reading half the outputs' range, every fourth", "gid*4", 128, 0 },
		{ "a consumer reading past the outputs", "gid*4", 512, 0 },
		{ "a consumer doing more than keeping them (another load)", "gid*4", 256, 1 },
		{ "a consumer taking every fourth output from the fifth on", "gid*4 + 4", 256, 0 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		put_as(&u, 0, "full", GM_TO_LOAD, X, "gid", 1024, 4);
		put_as(&u, 0, "full", GM_TO_STORE, A, "gid", 1024, 4);
		put_as(&u, 1, "keep", GM_TO_LOAD, A, no[c].expr, no[c].blocks, 4);
		if (no[c].other_load)
			put_as(&u, 1, "keep", GM_TO_LOAD, V, "gid", no[c].blocks, 4);
		put_as(&u, 1, "keep", GM_TO_STORE, U, "gid", no[c].blocks, 4);
		run_analyse(&u);
		if (run_found(&u, GM_TR_DROPPED, NULL))
			fail_msg("rule dropped_stores named %s", no[c].what);
		run_done(&u);
	}
}

/* two kernels reading X for outputs of their own, 4-byte and 1-byte (set 23's ssplit) */
static void test_same_input(void **state)
{
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	put_as(&u, 0, "mag", GM_TO_LOAD, X, "gid", 1024, 4);
	put_as(&u, 0, "mag", GM_TO_STORE, A, "gid", 1024, 4);
	put_as(&u, 1, "dir", GM_TO_LOAD, X, "gid", 1024, 4);
	put_as(&u, 1, "dir", GM_TO_STORE, U, "gid", 1024, 1);
	run_analyse(&u);
	assert_int_equal(u.r.across.n, 1);
	const struct gm_trace_run_finding *f = &u.r.across.f[0];
	assert_int_equal(f->rule, GM_TR_SAME_INPUT);
	assert_true(f->lo >= X && f->lo < X + 1024 * 256 * 4);   /* the first sampled byte */
	assert_true(f->hi - f->lo == 1024 * 256 * 4);             /* the input: the shared load's sectors */
	assert_true(f->saved_ms > 0 && f->saved_ms < 0.02);
	assert_non_null(strstr(f->words, "two passes over one input"));
	run_done(&u);

	const struct { const char *what; const char *second; int elem; int reads_a; } no[] = {
		{ "a benchmark's naive and fixed versions (outputs of one shape)", "dir", 4, 0 },
		{ "the same kernel twice", "mag", 1, 0 },
		{ "a second launch reading the first's output (a chain)", "dir", 1, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		put_as(&u, 0, "mag", GM_TO_LOAD, X, "gid", 1024, 4);
		put_as(&u, 0, "mag", GM_TO_STORE, A, "gid", 1024, 4);
		put_as(&u, 1, no[c].second, GM_TO_LOAD, X, "gid", 1024, 4);
		if (no[c].reads_a)
			put_as(&u, 1, no[c].second, GM_TO_LOAD, A, "gid + 7", 1024, 4);
		put_as(&u, 1, no[c].second, GM_TO_STORE, U, "gid", 1024, no[c].elem);
		run_analyse(&u);
		if (run_found(&u, GM_TR_SAME_INPUT, NULL))
			fail_msg("rule same_input named %s", no[c].what);
		run_done(&u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clear_acc),
		cmocka_unit_test(test_clear_acc_refused),
		cmocka_unit_test(test_copy_back),
		cmocka_unit_test(test_copy_back_refused),
		cmocka_unit_test(test_controls),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_reload_refused),
		cmocka_unit_test(test_dropped_stores),
		cmocka_unit_test(test_same_input),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
