/* run_args.c - the options of `gpumem run` (its table) and their parsing, free of side effects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/units.h"

enum {
	R_JSON = 256, R_CSV, R_REPS, R_SIZE, R_DEVICE, R_QUICK, R_FULL, R_ALL_DEVICES, R_CONCURRENT, R_MPI,
	R_BARRIER, R_TIMEOUT, R_PROFILE, R_COUNTERS, R_SANITIZE, R_SCRUB,
};

static const struct gm_opt run_opts[] = {
	{ "SELECTOR", GM_OPT_OPERAND, 0, NULL, "a family (copy), a case name (copy.v2_b16) or a prefix (stride.b4);\n"
	  "none = the default suite ('gpumem list' shows all)", "@case" },
	{ "json", R_JSON, 0, "FILE", "write the run as JSON (gpumem report, compare, predict read it)", "@file" },
	{ "csv", R_CSV, 0, "FILE", "write the cases as CSV", "@file" },
	{ "reps", R_REPS, 0, "N", "timed samples per case, exactly (default 20, 10-19 where 20\n"
	  "would take over 150 ms; 7 with --quick)", NULL },
	{ "size", R_SIZE, 0, "BYTES", "per-array working set, e.g. 512M, 4G (default: 4 GiB, less if memory is short)",
	  NULL },
	{ "device", R_DEVICE, 0, "N", "GPU (default 0)", NULL },
	{ "quick", R_QUICK, 0, NULL, "the small suite (a few cases per family, 1 GiB arrays)", NULL },
	{ "full", R_FULL, 0, NULL, "the default suite plus the long sweeps (cases 'gpumem list' marks [full])", NULL },
	{ "profile", R_PROFILE, 0, "FILE", "device profile of the launch model (default: the built-in one nearest "
	  "the device)", "@file" },
	{ "counters", R_COUNTERS, 0, NULL, "after each case's timing, one profiled launch with CUPTI (libcupti.so.13):\n"
	  "DRAM/L2/L1 counters, sectors per request vs the model, the bottleneck", NULL },
	{ "sanitize", R_SANITIZE, 0, NULL, "for compute-sanitizer: validation and one timed launch per case (no calibration,\n"
	  "warm-up or retries; --reps 1), 8 MiB arrays unless --size, shorter fixed work; a line per case", NULL },
	{ "scrub", R_SCRUB, 0, NULL, "zero every device and pinned host buffer before it is freed (what the next\n"
	  "allocation could read of it: 'gpumem run remnants')", NULL },
	{ NULL, GM_OPT_HEADING, 0, NULL, "several GPUs:", NULL },
	{ "all-devices", R_ALL_DEVICES, 0, NULL, "every GPU of the node, one after another (one document, one block "
	  "per GPU)", NULL },
	{ "concurrent", R_CONCURRENT, 0, NULL, "every GPU of the node at once (shared-link and power contention)", NULL },
	{ "mpi", R_MPI, 0, NULL, "one GPU per MPI rank (by node-local rank); rank 0 writes the document\n"
	  "(needs a build with -DGPUMEM_MPI=ON; launch with mpirun or srun)", NULL },
	{ "barrier", R_BARRIER, 0, NULL, "with --mpi: every case starts on all ranks at once", NULL },
	{ "timeout", R_TIMEOUT, 0, "S", "stop a device's run after S seconds and report it (multi-device runs)", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_run = {
	"run", "validate and time benchmark cases (default suite when none named)",
	"[SELECTOR...] [--json FILE] [--csv FILE] [--reps N] [--size BYTES]\n"
	"[--device N] [--quick | --full] [--profile FILE] [--counters]\n"
	"[--all-devices | --concurrent | --mpi [--barrier]] [--timeout S]",
	"Every case is validated against its CPU reference before it is timed (a case that fails has no\n"
	"number), then timed with CUDA events: warm-up, then --reps samples; the table gives the median,\n"
	"the spread and the model's bound or the launch model's prediction. Everything that can be checked\n"
	"without the GPU (options, selectors, output paths) is checked first. Ctrl-C stops after the current\n"
	"case and still writes the finished ones.",
	run_opts,
	"examples:\n"
	"  gpumem run --quick --json quick.json\n"
	"  gpumem run copy stride.b4 --reps 10\n"
	"  gpumem run --json run.json && gpumem report run.json -o run.html\n",
};

static int set_int(const char *flag, const char *v, long lo, long hi, long *x)
{
	if (gm_parse_int(v, lo, hi, x))
		return gm_fail(GM_ERR_INVALID_ARG, "%s: %s", flag, gm_last_error());
	return 0;
}

/* One option of the table; a bad value fails with its message in gm_last_error(). */
static int set_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct gm_run_args *a = ctx;
	long x = 0;
	int rc = 0;

	switch (o->key) {
	case R_QUICK: a->quick = 1; break;
	case R_FULL: a->full = 1; break;
	case R_COUNTERS: a->counters = 1; break;
	case R_SANITIZE: a->sanitize = 1; break;
	case R_SCRUB: a->scrub = 1; break;
	case R_ALL_DEVICES: a->all_devices = 1; break;
	case R_CONCURRENT: a->concurrent = 1; break;
	case R_MPI: a->mpi = 1; break;
	case R_BARRIER: a->barrier = 1; break;
	case R_JSON: a->json_path = v; break;
	case R_PROFILE: a->profile = v; break;
	case R_CSV: a->csv_path = v; break;
	case R_TIMEOUT:
		rc = set_int("--timeout", v, 1, 86400, &x);
		a->timeout_s = (double)x;
		break;
	case R_REPS:
		rc = set_int("--reps", v, 1, 100000, &x);
		a->reps = (int)x;
		break;
	case R_DEVICE:
		rc = set_int("--device", v, 0, 1023, &x);
		a->device = (int)x;
		break;
	case R_SIZE:
		if (gm_parse_size(v, &a->size))
			rc = gm_fail(GM_ERR_INVALID_ARG, "--size: %s", gm_last_error());
		break;
	}
	return rc;
}

/* What no single option says: combinations. NULL when they are fine. */
static const char *check_combinations(const struct gm_run_args *a, char *err, size_t n)
{
	if (a->quick && a->full)
		return "--quick and --full cannot be used together";
	if ((a->all_devices || a->concurrent || a->mpi) && a->csv_path)
		return "--csv is for one device; write --json and use 'gpumem report --csv'";
	if (a->barrier && !a->mpi)
		return "--barrier needs --mpi";
	if (a->sanitize && (a->all_devices || a->concurrent || a->mpi))
		return "--sanitize is for one device";
	if (a->json_path && a->csv_path && !strcmp(a->json_path, a->csv_path)) {
		snprintf(err, n, "--json and --csv name the same file '%s'", a->json_path);
		return err;
	}
	return NULL;
}

gm_status gm_run_args_parse(int argc, char **argv, struct gm_run_args *a, char *err, size_t n)
{
	struct gm_opts_state st;
	const char *why = NULL;
	char flag[64];
	int rc;

	memset(a, 0, sizeof(*a));
	a->selectors = calloc((size_t)argc + 1, sizeof(*a->selectors));
	if (!a->selectors)
		return GM_ERR_NOMEM;
	rc = gm_opts_parse(&gm_doc_run, argc, argv, set_option, a, &st);
	if (rc == GM_OPTS_HELP) {
		a->help = 1;
		gm_opts_release(&st);
		return GM_OK;
	}
	if (rc == GM_OPTS_MISSING && st.bad_opt)
		snprintf(err, n, "option '%s' needs a value", gm_opt_flag(st.bad_opt, flag, sizeof(flag)));
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING)
		snprintf(err, n, "unknown option '%s'", st.bad);
	else if (rc == GM_OPTS_NOMEM)
		snprintf(err, n, "out of memory");
	else if (rc)
		snprintf(err, n, "%s", gm_last_error());
	for (int i = 0; !rc && i < st.noperands; i++)
		a->selectors[a->nselectors++] = st.operands[i];
	gm_opts_release(&st);
	if (!rc && (why = check_combinations(a, err, n)) != NULL && why != err)
		snprintf(err, n, "%s", why);
	if (rc || why) {
		gm_run_args_free(a);
		return GM_ERR_INVALID_ARG;
	}
	return GM_OK;
}

void gm_run_args_free(struct gm_run_args *a)
{
	free(a->selectors);
	a->selectors = NULL;
	a->nselectors = 0;
}
