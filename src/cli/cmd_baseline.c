/*
 * cmd_baseline.c - `gpumem baseline make RUN.json... -o FILE`: a SKU's
 * baseline from runs of good units (gpumem/baseline.h), for `gpumem check`
 * and `gpumem fleet --baseline`. Reads run documents and `check --json`
 * documents, plain or gzip. Exit 0, 2 bad input, 5 output not writable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/baseline.h"
#include "gpumem/check.h"
#include "gpumem/io.h"

static const struct gm_opt baseline_opts[] = {
	{ "make RUN.json...", GM_OPT_OPERAND, 0, NULL, "runs of good units of one GPU model ('gpumem run --json' of the\n"
	  "default suite, or 'gpumem check --json'); runs of one UUID count as one unit", "@file" },
	{ "output", 'o', 'o', "FILE", "where the baseline goes (data/baselines/<model>.json; written atomically)", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_baseline = {
	"baseline", "make a GPU model's baseline for 'gpumem check' from runs of good units",
	"make RUN.json [RUN.json ...] -o FILE",
	"Per check line (docs/CHECK.md), each unit's value (the median of its runs), then the median,\n"
	"the spread (1.4826 x MAD) and the own noise over the units, naming each run's GPU UUID and\n"
	"the commit in its path. Runs of different GPU models, or with a failed check case, are refused.",
	baseline_opts, "exit: 0 written, 2 bad input, 5 output not writable\n",
};

static int baseline_option(void *ctx, const struct gm_opt *o, const char *v)
{
	(void)o;
	*(const char **)ctx = v;
	return 0;
}

static int make(char **paths, int n, const char *out)
{
	struct gm_run_result *runs = calloc((size_t)n, sizeof(*runs));
	struct gm_baseline *b = calloc(1, sizeof(*b));
	const char *names[GM_CHECK_MAX_LINES];
	int ncases = gm_check_judged_names(names, GM_CHECK_MAX_LINES), code = GM_EXIT_OK, nread = 0;
	struct gm_outfile of;

	if (!runs || !b)
		code = gm_error(GM_EXIT_USAGE, "out of memory");
	for (; !code && nread < n; nread++)
		if (gm_check_read_run(paths[nread], &runs[nread], NULL))
			code = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (!code && gm_baseline_make(runs, (const char *const *)paths, n, names, ncases, b))
		code = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (!code && gm_outfile_open(&of, out))
		code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	else if (!code) {
		if (gm_write(of.f, GM_DOC_BASELINE, "json", b) || gm_outfile_commit(&of))
			code = gm_error(GM_EXIT_IO, "%s", gm_last_error());
		else
			fprintf(stderr, "baseline of %s: %d lines from %d runs of %d units -> %s\n", b->sku, b->nlines,
				b->nruns, b->nunits, out);
	}
	for (int i = 0; i < nread; i++)
		gm_result_release(&runs[i]);
	free(runs);
	free(b);
	return code;
}

int cmd_baseline(int argc, char **argv)
{
	const char *out = NULL;
	struct gm_opts_state st;
	int code = gm_opts_parse(&gm_doc_baseline, argc, argv, baseline_option, &out, &st);

	if (code == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_baseline);
	else if (code == GM_OPTS_MISSING)
		code = gm_error(GM_EXIT_USAGE, "option '-o' needs a file");
	else if (code < 0)
		code = gm_opts_error(&gm_doc_baseline, code, &st);
	else if (!st.noperands || strcmp(st.operands[0], "make"))
		code = gm_error(GM_EXIT_USAGE, "baseline needs 'make RUN.json... -o FILE' (see 'gpumem baseline --help')");
	else if (st.noperands < 2)
		code = gm_error(GM_EXIT_USAGE, "baseline make needs at least one run document");
	else if (st.noperands - 1 > GM_BASELINE_MAX_RUNS)
		code = gm_error(GM_EXIT_USAGE, "too many run documents (at most %d)", GM_BASELINE_MAX_RUNS);
	else if (!out)
		code = gm_error(GM_EXIT_USAGE, "baseline make needs '-o FILE'");
	else
		code = make(st.operands + 1, st.noperands - 1, out);
	gm_opts_release(&st);
	return code == GM_OPTS_HELP ? GM_EXIT_OK : code;
}
