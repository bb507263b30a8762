/*
 * collect_main.c - a bare driver of gm_trace_collect() for testing the collector on a GPU before (or
 * beside) `gpumem trace`: gmt_collect [-k REGEX] [-s SKIP] [-c COUNT] [-w WARPS] [-t TIMEOUT] [-1] -o OUT
 * -- PROGRAM [ARGS]. Prints the outcome and the run's figures as one line of key=value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumem/trace_collect.h"

int main(int argc, char **argv)
{
	struct gm_trace_opts o;
	struct gm_trace_run run;
	const char *out = "trace.json";
	gm_status s;
	int c;

	gm_trace_opts_init(&o);
	while ((c = getopt(argc, argv, "k:s:c:w:t:o:1")) != -1) {
		switch (c) {
		case 'k': o.kernel_regex = optarg; break;
		case 's': o.launch_skip = atol(optarg); break;
		case 'c': o.launch_count = atol(optarg); break;
		case 'w': o.sample_warps = atoi(optarg); break;
		case 't': o.timeout_s = atof(optarg); break;
		case 'o': out = optarg; break;
		case '1': o.time_pass = 0; break;
		default: fprintf(stderr, "usage: gmt_collect [-k RE] [-s N] [-c N] [-w N] [-t S] [-1] -o OUT -- PROG\n"); return 2;
		}
	}
	s = gm_trace_collect(&o, (const char *const *)argv + optind, out, &run);
	printf("status=%d outcome='%s' exit=%d signal=%d timed_out=%d passes=%d wall_s=%.3f time_pass_wall_s=%.3f "
	       "seen=%ld traced=%ld lib='%s' message='%s'\n", (int)s, gm_trace_outcome_name(run.outcome),
	       run.exit_status, run.signal, run.timed_out, run.passes, run.wall_s, run.time_pass_wall_s,
	       run.launches_seen, run.launches_traced, run.lib, s != GM_OK ? gm_last_error() : run.message);
	return s == GM_OK ? 0 : 1;
}
