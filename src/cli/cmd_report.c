/*
 * cmd_report.c - `gpumem report RUN.json [MORE.json ...] [-o FILE.html] [--csv]`:
 * render saved runs again. Without -o: the text table of the first run (or
 * its CSV). With -o: one self-contained HTML page over every run given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/writer.h"
#include "gpumem/bench.h"
#include "cli/options.h"
#include "gpumem/compare.h"
#include "gpumem/findings.h"
#include "gpumem/fleet.h"
#include "gpumem/io.h"

#define MAX_RUNS 64

static const struct gm_opt report_opts[] = {
	{ "RUN.json", GM_OPT_OPERAND, 0, NULL, "runs written by 'gpumem run --json' (.json.gz too)", "@file" },
	{ "output", 'o', 'o', "FILE.html", "write one self-contained HTML page (charts, spec sheet, every case);\n"
	  "several runs of the same cases are overlaid in every chart; runs that\n"
	  "hold different cases (one file per family) are shown as one run", "@file" },
	{ "csv", 256, 0, NULL, "print the first run as CSV instead of the table", NULL },
	{ "derive", 257, 0, NULL, "derive each run's spec sheet again from its cases with this build's rules", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_report = {
	"report", "print a saved run, or write an HTML report of runs (-o FILE.html)",
	"RUN.json [MORE.json ...] [-o FILE.html] [--csv]",
	"Without -o: the text table of the first run (or its CSV). With -o: one HTML page over every\n"
	"run given, Chart.js and the page's script embedded, so it opens offline. The output path is\n"
	"checked before any input is read.",
	report_opts, NULL,
};

struct report_args {
	const char *paths[MAX_RUNS];
	int nruns;
	const char *html;
	int csv, derive;
};

static int report_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct report_args *a = ctx;

	if (o->key == 'o')
		a->html = v;
	else if (o->key == 257)
		a->derive = 1;
	else
		a->csv = 1;
	return 0;
}

/* 0, -1 after --help, or the exit code of bad input. */
static int parse(int argc, char **argv, struct report_args *a)
{
	struct gm_opts_state st;
	int rc = gm_opts_parse(&gm_doc_report, argc, argv, report_option, a, &st);

	if (rc == GM_OPTS_HELP) {
		gm_cmd_help(stdout, &gm_doc_report);
		rc = -1;
	} else if (rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "'%s' needs a file name", st.bad);
	else if (rc == GM_OPTS_UNKNOWN)
		rc = gm_error(GM_EXIT_USAGE, "unknown option '%s' (see 'gpumem report --help')", st.bad);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_report, rc, &st);
	else if (st.noperands > MAX_RUNS)
		rc = gm_error(GM_EXIT_USAGE, "too many runs (at most %d)", MAX_RUNS);
	for (int i = 0; !rc && i < st.noperands; i++)
		a->paths[a->nruns++] = st.operands[i];
	gm_opts_release(&st);
	if (rc)
		return rc;
	if (!a->nruns)
		return gm_error(GM_EXIT_USAGE, "report needs a JSON file written by 'gpumem run --json'");
	if (!a->html && a->nruns > 1)
		return gm_error(GM_EXIT_USAGE, "several runs need -o FILE.html (or use 'gpumem compare A.json B.json')");
	return 0;
}

static void print_text(const struct gm_run_result *r, int csv)
{
	gm_write(stdout, GM_DOC_RUN, csv ? "csv" : "text", r);
}

/* The run's name in legends: the file name without directory and ".json". */
static void run_label(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	size_t len;

	snprintf(buf, n, "%s", base ? base + 1 : path);
	len = strlen(buf);
	if (len > 5 && !strcmp(buf + len - 5, ".json"))
		buf[len - 5] = '\0';
}

static int write_html(struct report_args *a, struct gm_outfile *out, struct gm_run_result *runs)
{
	char names[MAX_RUNS][64];
	const char *labels[MAX_RUNS];
	int nshow = a->nruns;

	if (a->nruns > 1 && gm_runs_disjoint(runs, a->nruns)) {
		if (gm_runs_merge(&runs[0], runs + 1, a->nruns - 1)) {
			gm_outfile_abort(out);
			return gm_error(GM_EXIT_IO, "%s", gm_last_error());
		}
		fprintf(stderr, "note: the %d runs hold different cases: shown as one run\n", a->nruns);
		nshow = 1;
	}
	for (int i = 0; i < nshow; i++) {
		run_label(a->paths[i], names[i], sizeof(names[i]));
		labels[i] = names[i];
	}
	if (nshow < a->nruns)
		snprintf(names[0], sizeof(names[0]), "%d run files", a->nruns);
	struct gm_finding f[GM_FINDINGS_MAX];
	struct gm_report_doc d = { runs, labels, nshow, f, gm_findings(&runs[0], f, GM_FINDINGS_MAX) };

	if (gm_write(out->f, GM_DOC_REPORT, "html", &d) || gm_outfile_commit(out)) {
		gm_outfile_abort(out);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	printf("%s\n", a->html);
	return GM_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct gm_run_result *runs;
	struct gm_outfile out;
	int rc = parse(argc, argv, &a), nread = 0;

	if (rc)
		return rc < 0 ? GM_EXIT_OK : rc;
	if (a.nruns == 1 && gm_multi_is(a.paths[0]))   /* run --all-devices / --mpi (report_multi.c) */
		return report_multi(a.paths[0], a.html, a.csv);
	runs = calloc(MAX_RUNS, sizeof(*runs));
	if (!runs)
		return gm_error(GM_EXIT_IO, "out of memory");
	/* prove the output is writable before reading anything */
	if (a.html && gm_outfile_open(&out, a.html)) {
		free(runs);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	for (; nread < a.nruns; nread++)
		if (gm_json_read(a.paths[nread], &runs[nread])) {
			rc = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
			break;
		} else if (a.derive)
			gm_rederive(&runs[nread]);
	if (!rc && a.html)
		rc = write_html(&a, &out, runs);
	else if (!rc)
		print_text(&runs[0], a.csv);
	else if (a.html)
		gm_outfile_abort(&out);
	for (int i = 0; i < nread; i++)
		gm_result_release(&runs[i]);
	free(runs);
	return rc;
}
