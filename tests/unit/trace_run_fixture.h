/* trace_run_fixture.h - what the run-level rules' tests share (test_trace_run.c, test_trace_run_prog.c): four
 * buffers 1 GiB apart, a run of up to MAXL launches with its report, and the built-in H200 profile loaded once. */
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

#endif
