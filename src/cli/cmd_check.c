/*
 * cmd_check.c - `gpumem check [--quick | --full] [--device N | --all-devices]
 * [--burn DURATION] [--from RUN.json] [--baseline FILE] [--json FILE]
 * [--prometheus FILE]`: is this GPU as good as its kind? Every line judged
 * against the SKU's baseline, the NVML error counters judged by themselves,
 * a verdict per GPU with codes, severities and next steps (docs/CHECK.md).
 * Exit 0 healthy, 8 warn, 9 fail, 10 could not run or judge; 2 bad input,
 * 5 output not writable, 130 interrupted (the verdict so far written).
 */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/check_run.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/check.h"
#include "gpumem/findings.h"
#include "gpumem/io.h"

enum { K_FROM = 256, K_BASELINE, K_JSON, K_PROM, K_HTML, K_QUICK, K_FULL, K_DEVICE, K_ALL, K_BURN, K_ONLY };

static const struct gm_opt check_opts_table[] = {
	{ NULL, GM_OPT_HEADING, 0, NULL, "what to check", NULL },
	{ "quick", K_QUICK, 0, NULL, "the quick lines only, 7 samples each (at most 10 s a GPU)", NULL },
	{ "full", K_FULL, 0, NULL, "every line, 20 samples each (the default is the same lines; --full is kept for\n"
	  "scripts that name the tier)", NULL },
	{ "only", K_ONLY, 0, "LINE,...", "only these lines (ids as docs/CHECK.md lists them: hbm_read, memtest, ...)",
	  NULL },
	{ "device", K_DEVICE, 0, "N", "the CUDA device to check (default 0)", NULL },
	{ "all-devices", K_ALL, 0, NULL, "every visible GPU, one after another", NULL },
	{ "burn", K_BURN, 0, "DURATION", "after the lines, the checked GEMM and the memory test in turns for\n"
	  "DURATION (10s, 2m, 1h) with telemetry every 100 ms", NULL },
	{ "from", K_FROM, 0, "RUN.json", "judge a saved run (gpumem run --json, or check --json) without a GPU", "@file" },
	{ "baseline", K_BASELINE, 0, "FILE", "the baseline to judge by (default data/baselines/<model>.json,\n"
	  "or $GPUMEM_BASELINES/<model>.json)", "@file" },
	{ NULL, GM_OPT_HEADING, 0, NULL, "output", NULL },
	{ "json", K_JSON, 0, "FILE", "the verdict per GPU as JSON (docs/SCHEMA.md \"Check\"), with the run it judged", "@file" },
	{ "prometheus", K_PROM, 0, "FILE", "the verdicts in the Prometheus text format (node_exporter textfile\n"
	  "collector; written atomically)", "@file" },
	{ "html", K_HTML, 0, "FILE", "the verdicts as an HTML page: lines against the baseline, counters, failures,\n"
	  "the burn's telemetry charted over time, and the report of the run judged", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_check = {
	"check", "is this GPU as good as its kind? verdicts against the model's baseline and error counters",
	"[--quick | --full] [--only LINE,...] [--device N | --all-devices] [--burn DURATION]\n[--from RUN.json] [--baseline FILE] "
	"[--json FILE] [--prometheus FILE] [--html FILE]",
	"Runs a fixed set of validated cases (HBM, L2, L1, PCIe, NVLink, FP32/FP16, GEMMs, allocation,\n"
	"a memory test) in 30 s a GPU (--quick 10 s), judges each against the baseline of the GPU model\n"
	"(median and spread of several good units) as pass, warn or fail, and reads NVML's error counters\n"
	"(XID, ECC, row remapping, retired pages, PCIe replays and link, NVLink, throttling) before and\n"
	"after: each fails a GPU by itself. Every failure has a code, a severity (drain, reset, inspect)\n"
	"and the next step (docs/CHECK.md).",
	check_opts_table,
	"exit: 0 healthy, 8 warn, 9 fail, 10 could not run or judge (no GPU, no baseline), 2 bad input,\n"
	"5 output not writable, 130 interrupted\n",
};

struct check_args {
	const char *from, *baseline, *json, *prom, *html, *burn, *only;
	int quick, full, device, all;
	double burn_s;
};

static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* --only: every id a line of the check. */
static int known_lines(const char *list)
{
	int n, found = 0;
	const struct gm_check_line_def *l = gm_check_lines(&n);
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		found = 0;
		for (int i = 0; i < n && !found; i++)
			found = strlen(l[i].id) == len && !strncmp(l[i].id, p, len);
		if (!found)
			return gm_error(GM_EXIT_USAGE, "--only: no check line '%.*s' (docs/CHECK.md lists them)", (int)len, p);
		p += len + (p[len] == ',');
	}
	return *list ? 0 : gm_error(GM_EXIT_USAGE, "--only needs line ids (hbm_read,memtest,...)");
}

static int check_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct check_args *a = ctx;
	char *end;

	switch (o->key) {
	case K_FROM: a->from = v; break;
	case K_BASELINE: a->baseline = v; break;
	case K_JSON: a->json = v; break;
	case K_PROM: a->prom = v; break;
	case K_HTML: a->html = v; break;
	case K_QUICK: a->quick = 1; break;
	case K_FULL: a->full = 1; break;
	case K_ALL: a->all = 1; break;
	case K_ONLY:
		a->only = v;
		return known_lines(v);
	case K_BURN:
		a->burn = v;
		if (gm_burn_parse_duration(v, &a->burn_s))
			return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		break;
	case K_DEVICE:
		a->device = (int)strtol(v, &end, 10);
		if (end == v || *end || a->device < 0 || a->device > 1023)
			return gm_error(GM_EXIT_USAGE, "--device: '%s' is not a device index", v);
		break;
	default: break;
	}
	return 0;
}

static int parse(int argc, char **argv, struct check_args *a)
{
	struct gm_opts_state st;
	int rc = gm_opts_parse(&gm_doc_check, argc, argv, check_option, a, &st);

	if (rc == GM_OPTS_HELP) {
		gm_cmd_help(stdout, &gm_doc_check);
		rc = -1;
	} else if (rc == GM_OPTS_MISSING && st.bad_opt && st.bad_opt->key == K_BURN)
		rc = gm_error(GM_EXIT_USAGE, "--burn needs a duration (10s, 2m, 1h)");
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_check, rc, &st);
	else if (!rc && st.noperands)
		rc = gm_error(GM_EXIT_USAGE, "check takes no operand: '%s' (a saved run goes with --from)", st.operands[0]);
	else if (!rc && a->quick && a->full)
		rc = gm_error(GM_EXIT_USAGE, "--quick and --full exclude each other");
	else if (!rc && a->from && (a->burn || a->all || a->only))
		rc = gm_error(GM_EXIT_USAGE, "--from judges a saved run: '%s' needs a GPU",
			      a->burn ? "--burn" : a->all ? "--all-devices" : "--only");
	gm_opts_release(&st);
	return rc;
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3" (the results/ folder names). */
static void model_slug(const char *name, char *buf, size_t n)
{
	size_t k = 0;
	int dash = 0;

	for (; *name && k + 1 < n; name++) {
		if (isalnum((unsigned char)*name)) {
			if (dash && k)
				buf[k++] = '-';
			if (k + 1 < n)
				buf[k++] = (char)tolower((unsigned char)*name);
			dash = 0;
		} else
			dash = 1;
	}
	buf[k] = '\0';
}

/* The baseline for a GPU model: --baseline; else $GPUMEM_BASELINES/<model>.json alone when it is set; else
 * ./data/baselines, then beside the binary (../share/gpumem/baselines, ../data/baselines). */
static int find_baseline(const char *explicit_path, const char *model, struct gm_baseline *b, struct gm_check_gpu *g)
{
	char slug[128], path[1200], exe[1024];
	const char *env = getenv("GPUMEM_BASELINES");
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *dirs[4] = { env, "data/baselines", NULL, NULL };
	char d2[1100], d3[1100];

	if (explicit_path) {
		if (gm_baseline_read(explicit_path, b))
			return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		if (strcmp(b->sku, model))
			return gm_error(GM_EXIT_USAGE, "'%s': a baseline of %s, this GPU is %s", explicit_path, b->sku, model);
		snprintf(g->baseline_path, sizeof(g->baseline_path), "%.500s", explicit_path);
		return 0;
	}
	if (env && env[0])
		len = 0, dirs[1] = NULL;
	if (len > 0) {
		exe[len] = '\0';
		*strrchr(exe, '/') = '\0';
		snprintf(d2, sizeof(d2), "%s/../share/gpumem/baselines", exe);
		snprintf(d3, sizeof(d3), "%s/../data/baselines", exe);
		dirs[2] = d2;
		dirs[3] = d3;
	}
	model_slug(model, slug, sizeof(slug));
	for (int i = 0; i < 4; i++) {
		if (!dirs[i] || !dirs[i][0])
			continue;
		snprintf(path, sizeof(path), "%s/%s.json", dirs[i], slug);
		if (access(path, R_OK))
			continue;
		if (gm_baseline_read(path, b))
			return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		if (strcmp(b->sku, model))
			return gm_error(GM_EXIT_USAGE, "'%s': a baseline of %s, this GPU is %s", path, b->sku, model);
		snprintf(g->baseline_path, sizeof(g->baseline_path), "%.500s", path);
		return 0;
	}
	snprintf(g->baseline_note, sizeof(g->baseline_note), "no baseline for %s: run `gpumem baseline make`", model);
	return -1;
}

/* Judge one GPU's run: 0, or an exit code for a baseline that cannot be used. */
static int judge(const struct check_args *a, const struct gm_run_result *r, const struct gm_check_counters *c,
		 struct gm_check_gpu *g)
{
	struct gm_baseline *b = calloc(1, sizeof(*b));
	int rc;

	if (!b)
		return gm_error(GM_EXIT_USAGE, "out of memory");
	rc = find_baseline(a->baseline, r->have_device ? r->dev.name : "", b, g);
	if (rc > 0) {
		free(b);
		return rc;
	}
	gm_check_judge(r, rc ? NULL : b, g->baseline_note, c, g);
	if (rc)   /* the figures are still reported, and the exit code says: could not judge */
		fprintf(stderr, "error: %s\n", g->baseline_note);
	free(b);
	return 0;
}

static void describe(struct gm_check_doc *d, const struct check_args *a, int argc, char **argv)
{
	time_t now = time(NULL);
	size_t used = (size_t)snprintf(d->command, sizeof(d->command), "gpumem");

	for (int i = 0; i < argc && used < sizeof(d->command); i++)
		used += (size_t)snprintf(d->command + used, sizeof(d->command) - used, " %s", argv[i]);
	strftime(d->started_utc, sizeof(d->started_utc), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(d->tool_version, sizeof(d->tool_version), "%s", GPUMEM_VERSION);
	snprintf(d->mode, sizeof(d->mode), "%s", a->from ? "from" : a->quick ? "quick" : a->full ? "full" : "default");
	snprintf(d->from, sizeof(d->from), "%s", a->from ? a->from : "");
}

struct outputs {
	struct gm_outfile json, prom, html;
	int have_json, have_prom, have_html;
};

static int open_outputs(const struct check_args *a, struct outputs *o)
{
	if (a->json && gm_outfile_open(&o->json, a->json))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	o->have_json = a->json != NULL;
	if (a->prom && gm_outfile_open(&o->prom, a->prom))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	o->have_prom = a->prom != NULL;
	if (a->html && gm_outfile_open(&o->html, a->html))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	o->have_html = a->html != NULL;
	return 0;
}

static int write_outputs(const struct gm_check_doc *d, struct outputs *o)
{
	int code = 0;

	gm_write(stdout, GM_DOC_CHECK, "text", d);
	if (o->have_json) {
		o->have_json = 0;
		if (gm_write(o->json.f, GM_DOC_CHECK, "json", d) || gm_outfile_commit(&o->json))
			code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	if (o->have_prom) {
		o->have_prom = 0;
		if (gm_write(o->prom.f, GM_DOC_CHECK, "prom", d) || gm_outfile_commit(&o->prom))
			code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	if (o->have_html) {
		o->have_html = 0;
		if (gm_write(o->html.f, GM_DOC_CHECK, "html", d) || gm_outfile_commit(&o->html))
			code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	if (fflush(stdout))
		code = gm_error(GM_EXIT_IO, "cannot write the standard output");
	return code;
}

static int from_file(const struct check_args *a, struct gm_check_doc *d, struct gm_run_result *r,
		     struct gm_check_counters *c)
{
	struct gm_burn b = { 0 };
	int code, found = 0;

	if (gm_check_read_run(a->from, r, c))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (!r->have_device || !r->dev.name[0])
		return gm_error(GM_EXIT_USAGE, "'%s': the run names no GPU model to find a baseline for", a->from);
	d->ngpus = 1;
	code = judge(a, r, c, &d->gpus[0]);
	if (!code && gm_check_read_burn(a->from, &b, &found))   /* a check document's burn: judged again, drawn */
		code = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	else if (!code && found) {
		d->burns = calloc(1, sizeof(*d->burns));
		if (!d->burns)
			code = gm_error(GM_EXIT_USAGE, "out of memory");
		else {
			d->burns[0] = b;
			gm_burn_judge(&d->burns[0], &d->gpus[0]);
			return 0;
		}
	}
	gm_burn_release(&b);
	return code;
}

/* Each device in turn; 0, or the exit code that stopped the check (no GPU: 10, interrupted: 130). */
static int on_gpus(const struct check_args *a, struct gm_check_doc *d, struct gm_run_result *runs,
		   struct gm_check_counters *cs, int ndev)
{
	struct check_opts o = { a->quick, a->full, a->burn_s, a->only, &stop_flag };
	int code = 0;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (int i = 0; i < ndev && !code; i++) {
		int dev = a->all ? i : a->device;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		gm_status s = check_device(dev, &o, &runs[i], &cs[i], d->burns ? &d->burns[i] : NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (s && s != GM_ERR_INTERRUPTED && !runs[i].ncases) {
			code = gm_error(GM_CHECK_EXIT_UNKNOWN, "device %d: %s", dev, gm_last_error());
			break;
		}
		if (s && s != GM_ERR_INTERRUPTED)
			fprintf(stderr, "error: device %d: %s (the lines run so far are judged)\n", dev, gm_last_error());
		runs[i].wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
		snprintf(runs[i].command, sizeof(runs[i].command), "%s", d->command);
		snprintf(runs[i].started_utc, sizeof(runs[i].started_utc), "%s", d->started_utc);
		d->ngpus = i + 1;
		code = judge(a, &runs[i], &cs[i], &d->gpus[i]);
		d->gpus[i].index = dev;
		d->gpus[i].wall_s = runs[i].wall_s;
		if (d->burns)
			gm_burn_judge(&d->burns[i], &d->gpus[i]);
		if (!code && s == GM_ERR_INTERRUPTED) {
			fprintf(stderr, "interrupted: writing the verdict so far (%d lines run on device %d)\n",
				runs[i].ncases, dev);
			code = GM_EXIT_INTERRUPTED;
		}
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return code;
}

static int count_devices(const struct check_args *a, int *n)
{
	*n = 1;
	if (a->from || !a->all)
		return 0;
	if (gm_gpu_count(n))
		return gm_error(GM_CHECK_EXIT_UNKNOWN, "%s", gm_last_error());
	if (*n > 64)
		*n = 64;
	return 0;
}

static int check_main(const struct check_args *a, int argc, char **argv)
{
	struct gm_check_doc d;
	struct gm_finding findings[GM_FINDINGS_MAX];
	struct outputs out = { 0 };
	struct gm_run_result *runs = NULL;
	struct gm_check_counters *cs = NULL;
	int n = 1, code = count_devices(a, &n), wcode;

	memset(&d, 0, sizeof(d));
	describe(&d, a, argc, argv);
	if (!code)
		code = open_outputs(a, &out);
	runs = calloc((size_t)n, sizeof(*runs));
	cs = calloc((size_t)n, sizeof(*cs));
	d.gpus = calloc((size_t)n, sizeof(*d.gpus));
	d.burns = a->burn_s > 0 ? calloc((size_t)n, sizeof(*d.burns)) : NULL;
	if (!code && (!runs || !cs || !d.gpus || (a->burn_s > 0 && !d.burns)))
		code = gm_error(GM_EXIT_USAGE, "out of memory");
	for (int i = 0; !code && i < n; i++)
		gm_result_init(&runs[i]);
	d.runs = runs;
	if (!code) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		code = a->from ? from_file(a, &d, runs, cs) : on_gpus(a, &d, runs, cs, n);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		d.wall_s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	}
	if (d.ngpus && (!code || code == GM_EXIT_INTERRUPTED)) {
		if (out.have_html) { /* the page opens the first run's report with its findings */
			d.findings = findings;
			d.nfindings = gm_findings(&d.runs[0], findings, GM_FINDINGS_MAX);
		}
		wcode = write_outputs(&d, &out);
		code = code ? code : wcode ? wcode : gm_check_exit_code(d.gpus, d.ngpus);
	}
	if (out.have_json)
		gm_outfile_abort(&out.json);
	if (out.have_prom)
		gm_outfile_abort(&out.prom);
	if (out.have_html)
		gm_outfile_abort(&out.html);
	for (int i = 0; runs && i < n; i++)
		gm_result_release(&runs[i]);
	for (int i = 0; d.burns && i < n; i++)
		gm_burn_release(&d.burns[i]);
	free(runs);
	free(cs);
	free(d.gpus);
	free(d.burns);
	return code;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a;
	int code;

	memset(&a, 0, sizeof(a));
	code = parse(argc, argv, &a);
	if (code)
		return code < 0 ? GM_EXIT_OK : code;
	return check_main(&a, argc, argv);
}
