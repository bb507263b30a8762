/* test_trace_run_batch.c - the program-level run rule of trace_run_batch.c (docs/TRACE.md "The run"): batch_launches
 * (one kernel launched again and again on independent slices, each launch under one wave of the GPU: set 28's
 * imgloop). Synthetic 1D launches (trace_synth.h: blocks of 256 threads, 4-byte elements) analysed whole with the
 * built-in H200 profile; the rule, then the cases it must refuse, a table. */
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

/* launch i of "frame": out[i] = (in[i] - p[0]) over blocks of 256 threads, in and out at slice in_at and out_at
   (in elements of 4 bytes) of X and A, p one shared parameter in U */
static void frame(struct run *u, int i, int64_t blocks, int64_t in_at, int64_t out_at)
{
	run_put(u, i, "frame", GM_TO_LOAD, X + 4 * in_at, "gid", blocks, 4, 1, 0);
	run_put(u, i, "frame", GM_TO_LOAD, U, "0", blocks, 4, 1, 0);
	run_put(u, i, "frame", GM_TO_STORE, A + 4 * out_at, "gid", blocks, 4, 1, 0);
}

static void test_batch_launches(void **state)
{
	const struct gm_trace_run_finding *f = NULL;
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	for (int i = 0; i < 4; i++)   /* four slices of 64 blocks, one after another in X and A */
		frame(&u, i, 64, i * 64 * 256, i * 64 * 256);
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_BATCH_LAUNCHES, &f), 1);
	assert_int_equal(u.r.across.n, 1);   /* named once, from the first launch to the last */
	assert_true(f->first == 0 && f->second == 3 && f->lo == A);
	assert_int_equal(u.r.k[0].ins[f->ins_first].in->op, GM_TO_STORE);
	assert_true(f->saved_ms > 0.02 && f->saved_ms < 0.04);   /* four launches of 0.01 ms less one of 256 blocks */
	assert_non_null(strstr(f->words, "One launch over the whole batch"));
	assert_string_equal(gm_trace_run_rule_name(f->rule), "batch_launches");
	run_done(&u);

	const struct { const char *what; int64_t blocks, in_step, out_step, in_lag; int gap; } no[] = {
		{ "launches filling a wave each", 2048, 2048 * 256, 2048 * 256, 0, 0 },
		{ "launches of most of a wave (only their ramps and tails to gain)", 1024, 1024 * 256, 1024 * 256, 0, 0 },
		{ "every launch storing the same output (a benchmark's repeats)", 64, 64 * 256, 0, 0, 0 },
		{ "each launch loading what the one before stored (a pipeline)", 64, 0, 64 * 256, -64 * 256, 0 },
		{ "a launch between them, not traced", 64, 64 * 256, 64 * 256, 0, 1 },
	};
	for (size_t c = 0; c < sizeof(no) / sizeof(no[0]); c++) {
		memset(&u, 0, sizeof(u));
		for (int i = 0; i < 2; i++) {
			int64_t in = i * no[c].in_step, out = i * no[c].out_step;
			if (no[c].in_lag && i) {   /* the input is the output of the launch before, in A */
				run_put(&u, i, "frame", GM_TO_LOAD, A + 4 * (out + no[c].in_lag), "gid", no[c].blocks, 4, 1, 0);
				run_put(&u, i, "frame", GM_TO_STORE, A + 4 * out, "gid", no[c].blocks, 4, 1, 0);
			} else
				frame(&u, i, no[c].blocks, in, out);
		}
		if (no[c].gap)
			u.l[1].index = 2;
		run_analyse(&u);
		if (run_found(&u, GM_TR_BATCH_LAUNCHES, NULL))
			fail_msg("rule batch_launches named %s", no[c].what);
		run_done(&u);
	}
}

/* an in-place step loop of small launches is step_loop's or nothing, never a batch */
static void test_batch_not_in_place(void **state)
{
	struct run u;
	(void)state;
	memset(&u, 0, sizeof(u));
	for (int i = 0; i < 3; i++) {
		run_put(&u, i, "frame", GM_TO_LOAD, A, "gid", 64, 4, 1, 0);
		run_put(&u, i, "frame", GM_TO_STORE, A, "gid", 64, 4, 1, 0);
	}
	run_analyse(&u);
	assert_int_equal(run_found(&u, GM_TR_BATCH_LAUNCHES, NULL), 0);
	run_done(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_launches),
		cmocka_unit_test(test_batch_not_in_place),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
