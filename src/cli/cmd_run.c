/*
 * cmd_run.c - `gpumem run [SELECTOR...]`: check everything that can be
 * checked before touching the GPU (options, selectors, output paths, size vs
 * free memory), then validate and time the cases, print the table and write
 * JSON/CSV atomically. Ctrl-C stops after the current case; the finished
 * cases are still written.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/multi/multi.h"
#include "cli/options.h"
#include "gpumem/writer.h"
#include "gpumem/bench.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"
#include "gpumem/result.h"
#include "gpumem/units.h"
#include "gpumem/counters.h"
#include "io/counters_io.h"

#define DEFAULT_REPS 20
#define QUICK_REPS 7
#define SANITIZE_BYTES ((uint64_t)8 << 20) /* --sanitize: ragged shapes of every family, little work */

static volatile int stop_flag;

static void on_sigint(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct run_ctx {
	struct gm_run_args args;
	struct gm_output json, csv;   /* --json, --csv (src/io/writer.c) */
	const struct gm_case **cases;
	int ncases;
	struct gm_run_result res;
	struct gm_counters_session *counters;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* stderr, terminals only: case n/N, its name, and the time left at the pace so far. */
static void progress(void *ctx, int i, int n, const struct gm_case *c)
{
	static double t0;
	char eta[32] = "";

	(void)ctx;
	if (i == 0)
		t0 = now_s();
	else
		snprintf(eta, sizeof(eta), "~%.0f s left", (now_s() - t0) / i * (n - i));
	fprintf(stderr, "\r\033[K[%3d/%3d] %-40s %s", i + 1, n, c->name, eta);
	if (i + 1 == n)
		fputc('\n', stderr);
}

/* --sanitize: one line per case, terminal or not, with the time since the run began (a log under a sanitizer
 * gives each case's cost, and what was reached if the tool is stopped). */
static void progress_lines(void *ctx, int i, int n, const struct gm_case *c)
{
	static double t0;

	(void)ctx;
	if (i == 0)
		t0 = now_s();
	fprintf(stderr, "sanitize: %.3f s: case %d/%d %s\n", now_s() - t0, i + 1, n, c->name);
}

static int unknown_selector(const char *word)
{
	const char *hint[4];
	int k = gm_registry_suggest(word, hint, 4);

	fprintf(stderr, "error: no benchmark matches '%s'", word);
	for (int i = 0; i < k; i++)
		fprintf(stderr, "%s'%s'", i ? ", " : "; did you mean ", hint[i]);
	fprintf(stderr, "%s\n", k ? "?" : "; see 'gpumem list'");
	return GM_EXIT_USAGE;
}

static int select_cases(struct run_ctx *x)
{
	int n, bad;
	const struct gm_case *all = gm_registry_cases(&n);
	unsigned char *sel = calloc((size_t)n + 1, 1);

	x->cases = calloc((size_t)n + 1, sizeof(*x->cases));
	if (!sel || !x->cases) {
		free(sel);
		return gm_error(GM_EXIT_USAGE, "out of memory");
	}
	enum gm_tier tier = x->args.quick ? GM_TIER_QUICK : x->args.full ? GM_TIER_FULL : GM_TIER_DEFAULT;

	if (gm_registry_select(x->args.selectors, x->args.nselectors, tier, sel, &bad)) {
		free(sel);
		return unknown_selector(x->args.selectors[bad]);
	}
	for (int i = 0; i < n; i++)
		if (sel[i])
			x->cases[x->ncases++] = &all[i];
	free(sel);
	return GM_EXIT_OK;
}

static int open_outputs(struct run_ctx *x)
{
	if (x->args.json_path && gm_output_open(&x->json, GM_DOC_RUN, "json", x->args.json_path))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (x->args.csv_path && gm_output_open(&x->csv, GM_DOC_RUN, "csv", x->args.csv_path))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	return GM_EXIT_OK;
}

/* --size must fit: every case holds up to two arrays of that size at once. */
static int check_size(const struct run_ctx *x)
{
	double need = 2.0 * (double)x->args.size;
	char size[32], needed[32], fr[32];

	if (x->args.size && need > (double)x->res.dev.free_mem)
		return gm_error(GM_EXIT_TOO_LARGE,
				"--size %s needs %s of device memory (two arrays); %s is free on device %d",
				gm_format_bytes((double)x->args.size, size, sizeof(size)),
				gm_format_bytes(need, needed, sizeof(needed)),
				gm_format_bytes((double)x->res.dev.free_mem, fr, sizeof(fr)), x->res.dev.index);
	return GM_EXIT_OK;
}

static void describe_run(struct run_ctx *x, int argc, char **argv)
{
	time_t now = time(NULL);
	size_t used = (size_t)snprintf(x->res.command, sizeof(x->res.command), "gpumem");

	for (int i = 0; i < argc && used < sizeof(x->res.command); i++)
		used += (size_t)snprintf(x->res.command + used, sizeof(x->res.command) - used, " %s",
					 argv[i]);
	strftime(x->res.started_utc, sizeof(x->res.started_utc), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	x->res.reps = x->args.reps ? x->args.reps : x->args.sanitize ? 1 : x->args.quick ? QUICK_REPS : DEFAULT_REPS;
	x->res.warmup = x->args.sanitize ? 0 : 2;
	x->res.sanitize = x->args.sanitize;
	x->res.seed = (uint32_t)now ^ ((uint32_t)getpid() << 16);
}

static int write_outputs(struct run_ctx *x)
{
	int code = GM_EXIT_OK;

	if (gm_output_commit(&x->json, &x->res))
		code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (gm_output_commit(&x->csv, &x->res))
		code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	return code;
}

/* --counters: one line and a run without them when CUPTI cannot count here. */
static void open_counters(struct run_ctx *x)
{
	if (!x->args.counters)
		return;
	if (gm_counters_open(GM_CSET_CASE, &x->counters)) {
		fprintf(stderr, "warning: %s\n", gm_last_error());
		gm_clear_error();
		x->counters = NULL;
		return;
	}
	fprintf(stderr, "counters: CUPTI range profiler, %d replay passes per kernel, after each case's timing\n",
		gm_counters_passes(x->counters));
}

/* Once, if the profiler stopped counting during the run (privileges, another tool). */
static void counters_said_off(struct run_ctx *x)
{
	for (int i = 0; i < x->res.ncases; i++)
		if (x->res.cases[i].counters.state == GM_COUNTERS_ERROR &&
		    strstr(x->res.cases[i].counters.note, "counters off:")) {
			fprintf(stderr, "warning: %s (from case %s on)\n", x->res.cases[i].counters.note,
				x->res.cases[i].name);
			return;
		}
}

static int run_suite(struct run_ctx *x)
{
	struct gm_runner_opts o = { 0 };
	struct timespec t0, t1;
	gm_status s;

	o.reps = x->res.reps;
	o.warmup = x->res.warmup;
	o.min_sample_ms = 0.5;
	o.array_bytes = x->args.size ? x->args.size : x->args.sanitize ? SANITIZE_BYTES : 0;
	o.quick = x->args.quick;
	o.seed = x->res.seed;
	o.stop = &stop_flag;
	o.progress = x->args.sanitize ? progress_lines : isatty(STDERR_FILENO) ? progress : NULL;
	o.sanitize = x->args.sanitize;
	o.counters = x->counters;
	/* the samples budget (docs/METHODOLOGY.md step 5); --reps N asks for N samples every case */
	o.samples_budget_ms = x->args.reps ? 0 : GM_SAMPLES_BUDGET_MS;
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	if (!x->args.sanitize)   /* --sanitize is meant to run under compute-sanitizer */
		gm_warn_if_tool_attached();
	if (gm_gpu_state_read(&x->res.state_before))
		gm_clear_error();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	s = gm_run_cases(x->cases, x->ncases, &o, &x->res.dev, &x->res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!x->args.sanitize)
		gm_warn_if_tool_attached();   /* a sanitizer's libraries are mapped once CUDA is up */
	if (gm_gpu_state_read(&x->res.state_after))
		gm_clear_error();
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (x->res.state_before.valid && x->res.state_after.valid &&
	    x->res.state_before.persisting_l2_limit != x->res.state_after.persisting_l2_limit)
		fprintf(stderr, "warning: the persisting-L2 limit was %lld B before the run and is %lld B after\n",
			(long long)x->res.state_before.persisting_l2_limit,
			(long long)x->res.state_after.persisting_l2_limit);
	x->res.wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	x->res.interrupted = s == GM_ERR_INTERRUPTED;
	if (s == GM_ERR_INTERRUPTED)
		fprintf(stderr, "interrupted: writing the %d finished cases\n", x->res.ncases);
	else if (s)
		gm_error(gm_exit_code(s), "%s", gm_last_error());
	return s ? gm_exit_code(s) : GM_EXIT_OK;
}

static int case_failures(const struct gm_run_result *r)
{
	int bad = 0;

	for (int i = 0; i < r->ncases; i++)
		bad += r->cases[i].status == GM_CASE_FAILED || r->cases[i].status == GM_CASE_ERROR;
	return bad;
}

/* The launch model beside each bandwidth case; no profile means the bound stays alone. */
static void predict_launches(struct run_ctx *x)
{
	struct gm_profile p;
	int cached = 0;

	if (gm_cli_profile_dev(x->args.profile, x->res.dev.name, x->res.dev.uuid, &p, 0, &cached) == GM_EXIT_OK) {
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		gm_launch_predict_run(&x->res, &p);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		snprintf(x->res.launch_profile, sizeof(x->res.launch_profile), "%.80s (%.300s)", p.device, p.origin);
		fprintf(stderr, "launch model: profile of %s (%s), %.1f s\n", p.device, p.origin,
			(double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
		if (!x->args.profile && !cached)
			gm_cli_calibrate_hint(stderr, &p);
	}
}

static int run_main(struct run_ctx *x, int argc, char **argv)
{
	int code = select_cases(x);
	gm_status s;

	if (!code)
		code = open_outputs(x);
	if (!code && x->args.profile) { /* a bad --profile stops before the GPU is touched */
		struct gm_profile p;

		code = gm_cli_profile(x->args.profile, NULL, &p, 1);
	}
	if (code)
		return code;
	s = gm_gpu_open(x->args.device, &x->res.dev);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	x->res.have_device = 1;
	code = check_size(x);
	if (code)
		return code;
	describe_run(x, argc, argv);
	open_counters(x);
	code = run_suite(x);
	if (!x->args.sanitize) /* seconds of CPU for a full suite, and no timing under a sanitizer to score */
		predict_launches(x);
	gm_table_write(stdout, &x->res);
	gm_counters_table_write(stdout, &x->res);
	counters_said_off(x);
	gm_derived_write(stdout, &x->res);
	gm_spec_write(stdout, &x->res);
	printf("\n%d cases in %.1f s on %s (peak %.1f GB/s); GB = 1e9 B, reads + writes counted\n",
	       x->res.ncases, x->res.wall_s, x->res.dev.name, x->res.dev.peak_gbs);
	gm_cli_score_families(stdout, &x->res);
	gm_cli_score_line(stdout, &x->res);
	gm_cli_tool_note(stdout);
	int wcode = write_outputs(x);
	if (!code && case_failures(&x->res))
		code = GM_EXIT_CASE_FAILED;
	return code ? code : wcode;
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx x;
	char err[256];
	int code;

	memset(&x, 0, sizeof(x));
	gm_result_init(&x.res);
	if (gm_run_args_parse(argc, argv, &x.args, err, sizeof(err)))
		return gm_error(GM_EXIT_USAGE, "%s (see 'gpumem run --help')", err);
	if (x.args.help) {
		gm_cmd_help(stdout, &gm_doc_run);
		gm_run_args_free(&x.args);
		return GM_EXIT_OK;
	}
	gm_gpu_set_scrub(x.args.scrub);
	if (x.args.mpi)
		code = gm_mpi_run_main(&x.args, argc, argv);
	else if (x.args.all_devices || x.args.concurrent)
		code = gm_multi_run_main(&x.args, argc, argv);
	else
		code = run_main(&x, argc, argv);
	gm_output_abort(&x.json);
	gm_output_abort(&x.csv);
	gm_counters_close(x.counters);
	gm_gpu_close();
	gm_result_release(&x.res);
	free(x.cases);
	gm_run_args_free(&x.args);
	return code;
}
