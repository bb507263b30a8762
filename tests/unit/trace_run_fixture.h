/* trace_run_fixture.h - what the run-level rules' tests share (test_trace_run.c, test_trace_run_prog.c,
 * test_trace_run_loop.c): four buffers 1 GiB apart, a run of up to MAXL launches with its report, the built-in H200
 * profile loaded once, and the steps every test takes (a synthetic access put into a launch, the analysis, the count of
 * a rule's findings, the run freed). Include it after cmocka.h, string.h and trace_synth.h. */
#ifndef TRACE_RUN_FIXTURE_H
#define TRACE_RUN_FIXTURE_H

#include "gpumem/profile.h"
#include "gpumem/trace.h"

#define A 0x7f0000000000ll   /* buffers 1 GiB apart */
#define X (A + (1ll << 30))
#define U (A + (2ll << 30))
#define V (A + (3ll << 30))
#define MAXL 4

static struct gm_profile P;

struct run {
	struct gm_trace t;
	struct gm_trace_launch l[MAXL];
	struct gm_trace_report r;
};

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* one global access of launch i of kernel name: op on the buffer at base, expr over blocks of 256 threads, elem bytes
 * an element, iters a thread (step elements apart); a second access of launch i is appended to it */
static inline void run_put(struct run *u, int i, const char *name, enum gm_trace_op op, int64_t base, const char *expr,
			   int64_t blocks, int elem, int iters, int64_t step)
{
	struct synth s = { .name = name, .expr = expr, .block = { 256, 1, 1 }, .grid = { blocks, 1, 1 }, .elem = elem,
			   .space = GM_TS_GLOBAL, .op = op, .iters = iters, .step = step, .samples = 64, .even = 0 };

	if (!u->l[i].kernel) {
		assert_int_equal(synth_launch(&s, base, &u->l[i]), 0);
		u->l[i].index = i;
		u->l[i].time_ms = 0.01;
		u->t.nlaunches = i + 1 > u->t.nlaunches ? i + 1 : u->t.nlaunches;
	} else
		assert_int_equal(synth_append(&s, base, 10 + u->l[i].nins, &u->l[i]), 0);
}

static inline void run_analyse(struct run *u)
{
	u->t.launches = u->l;
	assert_int_equal(gm_trace_analyse(&u->t, &P, 3, &u->r), GM_OK);
}

static inline void run_done(struct run *u)
{
	gm_trace_report_free(&u->r);
	for (int i = 0; i < MAXL; i++)
		if (u->l[i].kernel)
			synth_free(&u->l[i]);
	memset(u, 0, sizeof(*u));
}

/* the run's findings of rule rule, the first in *f (f may be NULL) */
static inline int run_found(const struct run *u, enum gm_trace_run_rule rule, const struct gm_trace_run_finding **f)
{
	int n = 0;

	for (int i = 0; i < u->r.across.n; i++)
		if (u->r.across.f[i].rule == rule && !n++ && f)
			*f = &u->r.across.f[i];
	return n;
}

#endif
