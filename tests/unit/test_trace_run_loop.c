/* test_trace_run_loop.c - the program-level run rules of trace_run_loop.c and trace_run_layout.c (docs/TRACE.md "The
 * run"): step_loop (one kernel stepping a buffer in place, a launch a step: set 26's pstep), log_passes (a scan by
 * passes of doubling distance, a launch a pass: set 27's hscan) and layout_copy (a transposed copy read once by the
 * next launch: set 26's tsum), and trace_run_tree.c's reduce_passes (a reduction a tree level a launch). Synthetic 1D launches (trace_synth.h: 1024 blocks of 256 threads, 4-byte elements)
 * analysed whole with the built-in H200 profile; each rule with the cases it must refuse, a table each. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "trace_synth.h"
#include "trace_run_fixture.h"

/* a store's values: 1024 lanes, silent of them writing what was there */
static void silent(struct gm_trace_instr *in, double silent)
{
	in->values = (struct gm_trace_values){ .have = 1, .lanes = 1024, .silent = silent, .float_exact = -1,
					       .nsmall = -1, .own_x = -1, .own_y = -1, .own_elem = -1 };
}

/* launch i of "step": state[i] = f(state[i], c[i]) in place on A, with c from U */
static void step(struct run *u, int i, const char *name, int64_t c, const char *expr, double quiet)
{
	run_put(u, i, name, GM_TO_LOAD, A, "gid", 1024, 4, 1, 0);
	run_put(u, i, name, GM_TO_LOAD, c, "gid", 1024, 4, 1, 0);
	if (expr)
		run_put(u, i, name, GM_TO_LOAD, A, expr, 1024, 4, 1, 0);
	run_put(u, i, name, GM_TO_STORE, A, "gid", 1024, 4, 1, 0);
	silent(&u->l[i].ins[u->l[i].nins - 1], quiet);
}

/* launch i of "step" out of place: dst[i] = f(src[i], c[i]) */
static void step_to(struct run *u, int i, int64_t src, int64_t dst)
{
	run_put(u, i, "advect", GM_TO_LOAD, src, "gid", 1024, 4, 1, 0);
	run_put(u, i, "advect", GM_TO_LOAD, V, "gid", 1024, 4, 1, 0);
	run_put(u, i, "advect", GM_TO_STORE, dst, "gid", 1024, 4, 1, 0);
	silent(&u->l[i].ins[u->l[i].nins - 1], 0);
}

static void test_step_loop_ping_pong(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	step_to(&u, 0, X, A);
	step_to(&u, 1, A, X);
	step_to(&u, 2, X, A);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_STEP_LOOP, &f), 1);
	assert_int_equal(u.r.across.n, 1);   /* not two reloads */
	assert_true(f->first == 0 && f->second == 2 && f->lo == X);
	assert_non_null(strstr(f->words, "ping-pong"));
	run_done(&u);

	/* each step into a new buffer (the states kept: a trajectory), not one state stepped */
	memset(&u, 0, sizeof(u));
	step_to(&u, 0, X, A);
	step_to(&u, 1, A, U);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_STEP_LOOP, NULL), 0);
	run_done(&u);
}

static void test_step_loop(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	for (int i = 0; i < 3; i++)
		step(&u, i, "leapfrog", U, NULL, 0);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_STEP_LOOP, &f), 1);
	assert_int_equal(u.r.across.n, 1);   /* named once, not pair by pair */
	assert_true(f->first == 0 && f->second == 2 && f->lo == A);
	assert_int_equal(u.r.k[0].ins[f->ins_first].in->op, GM_TO_LOAD);
	assert_int_equal(u.r.k[2].ins[f->ins_second].in->op, GM_TO_STORE);
	assert_true(f->saved_ms > 0.005 && f->saved_ms < 0.03);   /* at most two of the three launches */
	assert_non_null(strstr(f->words, "a time loop on the host"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "step_loop");
	run_done(&u);

	const struct { const char *what; double quiet; int64_t c1; const char *stencil; int gap, nvalues; } no[] = {
		{ "a store writing back what was there (an idempotent repeat)", 1024, U, NULL, 0, 0 },
		{ "another input each launch (an accumulator: acc_chain's)", 0, V, NULL, 0, 0 },
		{ "a neighbour read of the state (a stencil)", 0, U, "gid + 1", 0, 0 },
		{ "a launch between them, not traced", 0, U, NULL, 1, 0 },
		{ "stores whose values the trace does not give", 0, U, NULL, 0, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		step(&u, 0, "leapfrog", U, no[c].stencil, no[c].quiet);
		step(&u, 1, "leapfrog", no[c].c1, no[c].stencil, no[c].quiet);
		if (no[c].gap)
			u.l[1].index = 2;
		if (no[c].nvalues)
			for (int i = 0; i < 2; i++)
				u.l[i].ins[u.l[i].nins - 1].values.have = 0;
		run_analyse(&u);
		if (run_found(&u, GM_TR_STEP_LOOP, NULL))
			fail_msg("rule step_loop named %s", no[c].what);
		run_done(&u);
	}
}

/* n passes of dst[i] = src[i] + src[i - d], ping-pong X -> A -> U -> A ..., d = d0 * ratio^j (ratio 0: + 1 a pass) */
static void scan(struct run *u, int n, int d0, int ratio, int in_place)
{
	int64_t buf[] = { X, A, U };
	char e[32];

	memset(u, 0, sizeof(*u));
	for (int j = 0, d = d0; j < n; j++, d = ratio ? d * ratio : d + 1) {
		int64_t src = j ? buf[1 + (j - 1) % 2] : X, dst = in_place ? src : buf[1 + j % 2];
		snprintf(e, sizeof(e), "gid - %d", d);
		run_put(u, j, "hs_pass", GM_TO_LOAD, src, "gid", 1024, 4, 1, 0);
		run_put(u, j, "hs_pass", GM_TO_LOAD, src, e, 1024, 4, 1, 0);
		run_put(u, j, "hs_pass", GM_TO_STORE, dst, "gid", 1024, 4, 1, 0);
	}
}

static void test_log_passes(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	scan(&u, 4, 1, 2, 0);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_LOG_PASSES, &f), 1);
	assert_int_equal(u.r.across.n, 1);
	assert_true(f->first == 0 && f->second == 3 && f->lo == X);
	assert_true(f->saved_ms > 0.03 && f->saved_ms < 0.04);   /* four passes of 0.01 ms less one at the roofline */
	assert_non_null(strstr(f->words, "1, 2, 4, 8 elements"));
	assert_non_null(strstr(f->words, "Hillis-Steele"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "log_passes");
	run_done(&u);

	const struct { const char *what; int n, d0, ratio, in_place; } no[] = {
		{ "one distance every pass (an iterated stencil)", 4, 1, 1, 0 },
		{ "distances growing by one, not doubling", 4, 1, 0, 0 },
		{ "two passes only", 2, 1, 2, 0 },
		{ "passes in place", 4, 1, 2, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		scan(&u, no[c].n, no[c].d0, no[c].ratio, no[c].in_place);
		run_analyse(&u);
		if (run_found(&u, GM_TR_LOG_PASSES, NULL))
			fail_msg("rule log_passes named %s", no[c].what);
		run_done(&u);
	}
}

/* launch 0 copies X to A in the order copy (a transpose: "(gid % 64)*4096 + gid / 64"); launch 1 sums A's rows of
   256 (loads A reads times); launch 2 (later: 1) loads A again */
static void tsum(struct run *u, const char *copy, int reads, int table, int later, int writes_back)
{
	memset(u, 0, sizeof(*u));
	run_put(u, 0, "transpose", GM_TO_LOAD, X, "gid", 1024, 4, 1, 0);
	if (table)
		run_put(u, 0, "transpose", GM_TO_LOAD, V, "gid", 1024, 4, 1, 0);   /* an index table: a gather, not a move */
	run_put(u, 0, "transpose", GM_TO_STORE, A, copy, 1024, 4, 1, 0);
	for (int q = 0; q < reads; q++)
		run_put(u, 1, "row_sums", GM_TO_LOAD, A, "gid", 1024, 4, 1, 0);
	run_put(u, 1, "row_sums", GM_TO_STORE, writes_back ? A : U, writes_back ? "gid" : "bx", 1024, 4, 1, 0);
	if (!writes_back)
		u->l[1].ins[u->l[1].nins - 1].thread_accesses /= 256;
	if (later)
		run_put(u, 2, "other", GM_TO_LOAD, A, "gid", 1024, 4, 1, 0);
}

static void test_layout_copy(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	const char *t = "(gid % 64)*4096 + gid / 64";
	struct run u;
	(void)state;
	tsum(&u, t, 1, 0, 0, 0);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_LAYOUT_COPY, &f), 1);
	assert_true(f->first == 0 && f->second == 1);
	assert_true(fabs(f->saved_ms - 0.01) < 1e-12);   /* the copy's launch */
	assert_true(fabs(f->run_speedup - 2) < 1e-9);
	assert_non_null(strstr(f->words, "a transposed copy materialised for one reader"));
	assert_non_null(strstr(f->words, "reduces it"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "layout_copy");
	run_done(&u);

	const struct { const char *what; const char *copy; int reads, table, later, writes_back; } no[] = {
		{ "a copy in the same order", "gid", 1, 0, 0, 0 },
		{ "a reader loading the copy twice (it wants the layout)", NULL, 2, 0, 0, 0 },
		{ "a gather through an index table", NULL, 1, 1, 0, 0 },
		{ "a copy read again by a later launch", NULL, 1, 0, 1, 0 },
		{ "a reader storing into the copy", NULL, 1, 0, 0, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		tsum(&u, no[c].copy ? no[c].copy : t, no[c].reads, no[c].table, no[c].later, no[c].writes_back);
		run_analyse(&u);
		if (run_found(&u, GM_TR_LAYOUT_COPY, NULL))
			fail_msg("rule layout_copy named %s", no[c].what);
		run_done(&u);
	}
}

/* n passes of b[i] = a[2i] + a[2i+1] (k loads of a, each every k-th element: a k-to-1 level), the grid a k-th of
   the pass before's, ping-pong X -> A -> U -> A ...; extra: another input loaded by each pass */
static void tree(struct run *u, int n, int k, int extra)
{
	int64_t buf[] = { X, A, U };
	char e[32];

	memset(u, 0, sizeof(*u));
	for (int j = 0, blocks = 1024; j < n; j++, blocks /= k) {
		int64_t src = j ? buf[1 + (j - 1) % 2] : X, dst = buf[1 + j % 2];
		for (int q = 0; q < k; q++) {
			struct synth s = { .name = "halve", .expr = e, .block = { 256, 1, 1 }, .grid = { blocks, 1, 1 },
					   .elem = 4, .space = GM_TS_GLOBAL, .op = GM_TO_LOAD, .iters = 1, .samples = 64 };
			snprintf(e, sizeof(e), k > 1 ? "gid*%d + %d" : "gid", k, q);
			if (!q)
				assert_int_equal(synth_launch(&s, src, &u->l[j]), 0);
			else
				assert_int_equal(synth_append(&s, src, 10 + u->l[j].nins, &u->l[j]), 0);
		}
		struct synth s = { .name = "halve", .expr = "gid", .block = { 256, 1, 1 }, .grid = { blocks, 1, 1 },
				   .elem = 4, .space = GM_TS_GLOBAL, .op = GM_TO_STORE, .iters = 1, .samples = 64 };
		assert_int_equal(synth_append(&s, dst, 10 + u->l[j].nins, &u->l[j]), 0);
		if (extra) {
			s.op = GM_TO_LOAD, s.expr = "gid";
			assert_int_equal(synth_append(&s, V, 10 + u->l[j].nins, &u->l[j]), 0);
		}
		u->l[j].index = j, u->l[j].time_ms = 0.01, u->t.nlaunches = j + 1;
	}
}

static void test_reduce_passes(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	tree(&u, 4, 2, 0);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_REDUCE_PASSES, &f), 1);
	assert_int_equal(u.r.across.n, 1);
	assert_true(f->first == 0 && f->second == 3 && f->lo == X);
	assert_true(f->saved_ms > 0.03 && f->saved_ms < 0.04);   /* four launches of 0.01 ms less one short pass */
	assert_non_null(strstr(f->words, "a reduction done a tree level"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "reduce_passes");
	run_done(&u);

	const struct { const char *what; int n, k, extra; } no[] = {
		{ "two passes (partials and a finish)", 2, 2, 0 },
		{ "passes that keep the size (a sort's, a scan's)", 4, 1, 0 },
		{ "another input in every pass", 4, 2, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		tree(&u, no[c].n, no[c].k, no[c].extra);
		run_analyse(&u);
		if (run_found(&u, GM_TR_REDUCE_PASSES, NULL))
			fail_msg("rule reduce_passes named %s", no[c].what);
		run_done(&u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_loop),
		cmocka_unit_test(test_step_loop_ping_pong),
		cmocka_unit_test(test_log_passes),
		cmocka_unit_test(test_layout_copy),
		cmocka_unit_test(test_reduce_passes),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
