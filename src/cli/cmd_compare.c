/*
 * cmd_compare.c - `gpumem compare A.json B.json [--threshold PCT] [--json] [-o FILE.html]`.
 * Exit 0: no regression; 1: some case got worse by more than the threshold
 * and the noise (or broke); 2: bad input. Different devices or schema
 * versions are compared with a warning on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/compare.h"
#include "gpumem/fleet.h"
#include "gpumem/io.h"
#include "gpumem/findings.h"

#define DEFAULT_THRESHOLD 5.0

enum { C_THRESHOLD = 256, C_JSON };

static const struct gm_opt compare_opts[] = {
	{ "A.json B.json", GM_OPT_OPERAND, 0, NULL, "two runs written by 'gpumem run --json' (A before, B after)", "@file" },
	{ "threshold", C_THRESHOLD, 0, "PCT", "a case got worse when it lost more than PCT % (default 5) and the noise",
	  NULL },
	{ "json", C_JSON, 0, NULL, "print the comparison as one JSON document", NULL },
	{ "output", 'o', 'o', "FILE.html", "also write one HTML page: each case's change coloured by its verdict,\n"
	  "the spec sheets side by side, every chart overlaying both runs", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_compare = {
	"compare", "compare two saved runs case by case; non-zero exit on a regression",
	"A.json B.json [--threshold PCT] [--json] [-o FILE.html]",
	"Case by case: both medians, B/A, the change in the better direction of the case's unit,\n"
	"and whether it exceeds both runs' spread (max - min). Exit 1 when a case got worse by\n"
	"more than PCT % (default 5) and the noise, or stopped working. Runs of different devices\n"
	"or schema versions are compared with a warning; runs of several devices device by device.",
	compare_opts, NULL,
};

struct compare_args {
	const char *path[2];
	const char *html;
	int n, json;
	double threshold;
};

static int compare_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct compare_args *a = ctx;
	char *end;

	if (o->key == C_JSON) {
		a->json = 1;
		return 0;
	}
	if (o->key == 'o') {
		a->html = v;
		return 0;
	}
	a->threshold = strtod(v, &end);
	if (end == v || *end || !(a->threshold >= 0) || a->threshold > 1e6)
		return gm_error(GM_EXIT_USAGE, "invalid threshold '%s' (a percentage, e.g. 5)", v);
	return 0;
}

/* 0, -1 after --help, or the exit code of bad input. */
static int parse(int argc, char **argv, struct compare_args *a)
{
	struct gm_opts_state st;
	int rc;

	a->threshold = DEFAULT_THRESHOLD;
	rc = gm_opts_parse(&gm_doc_compare, argc, argv, compare_option, a, &st);
	if (rc == GM_OPTS_HELP) {
		gm_cmd_help(stdout, &gm_doc_compare);
		rc = -1;
	} else if (rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "--threshold needs a percentage");
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_compare, rc, &st);
	else if (!rc && st.noperands > 2)
		rc = gm_error(GM_EXIT_USAGE, "compare takes two run files, not '%s' too", st.operands[2]);
	else if (!rc && st.noperands != 2)
		rc = gm_error(GM_EXIT_USAGE, "compare needs two JSON files written by 'gpumem run --json'");
	for (int i = 0; !rc && i < 2; i++)
		a->path[a->n++] = st.operands[i];
	gm_opts_release(&st);
	return rc;
}

static void warn(const struct gm_comparison *c, const struct gm_run_result r[2], const struct compare_args *a)
{
	if (c->different_device)
		fprintf(stderr, "warning: the runs come from different devices ('%s' in %s, '%s' in %s)\n",
			r[0].have_device ? r[0].dev.name : "none", a->path[0],
			r[1].have_device ? r[1].dev.name : "none", a->path[1]);
	if (c->different_schema)
		fprintf(stderr, "warning: the runs have different schema versions (%d in %s, %d in %s)\n",
			r[0].schema_version, a->path[0], r[1].schema_version, a->path[1]);
}

/* compare -o: the page of both runs with the comparison first (src/io/html.c); exit 5 when it cannot be written */
static int write_page(struct gm_outfile *out, const struct gm_run_result r[2], const struct gm_comparison *c,
		      const struct compare_args *a)
{
	struct gm_finding f[GM_FINDINGS_MAX];
	struct gm_compare_doc d = { c, &r[0], &r[1], a->path[0], a->path[1], 0, f, gm_findings(&r[0], f, GM_FINDINGS_MAX) };

	if (gm_write(out->f, GM_DOC_COMPARE, "html", &d) || gm_outfile_commit(out)) {
		gm_outfile_abort(out);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	fprintf(stderr, "wrote %s\n", a->html);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct gm_run_result r[2];
	struct gm_comparison c;
	struct gm_outfile out;
	int rc = parse(argc, argv, &a);

	if (rc)
		return rc < 0 ? GM_EXIT_OK : rc;
	if (a.html && (gm_multi_is(a.path[0]) || gm_multi_is(a.path[1])))
		return gm_error(GM_EXIT_USAGE, "-o takes runs of one device (several-device documents: without -o)");
	if (!a.json && (gm_multi_is(a.path[0]) || gm_multi_is(a.path[1])))  /* device by device (compare_multi.c) */
		return compare_multi(a.path[0], a.path[1], a.threshold);
	if (a.html && gm_outfile_open(&out, a.html))   /* prove the output is writable before reading anything */
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (gm_json_read(a.path[0], &r[0])) {
		if (a.html)
			gm_outfile_abort(&out);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	if (gm_json_read(a.path[1], &r[1])) {
		gm_result_release(&r[0]);
		if (a.html)
			gm_outfile_abort(&out);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	for (int i = 0; i < 2; i++)
		if (gm_multi_is(a.path[i]))
			fprintf(stderr, "note: '%s' holds several devices: --json compares its first device's run "
					"(without --json: device by device)\n", a.path[i]);
	if (gm_compare_runs(&r[0], &r[1], a.threshold, &c)) {
		rc = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		if (a.html)
			gm_outfile_abort(&out);
	} else {
		struct gm_compare_doc d = { &c, &r[0], &r[1], a.path[0], a.path[1], gm_use_color(stdout) };

		warn(&c, r, &a);
		gm_write(stdout, GM_DOC_COMPARE, a.json ? "json" : "text", &d);
		rc = c.nworse ? GM_EXIT_CASE_FAILED : GM_EXIT_OK;
		if (a.html && write_page(&out, r, &c, &a))
			rc = GM_EXIT_IO;
		gm_comparison_release(&c);
	}
	gm_result_release(&r[0]);
	gm_result_release(&r[1]);
	return rc;
}
