/*
 * cmd_fleet.c - `gpumem fleet RUN.json [--threshold K]`: the fleet view of a
 * multi-device run document (run --all-devices, --concurrent or --mpi): per
 * model and case the distribution over GPUs, and the GPUs more than K
 * spreads worse than the median with the likely cause. Exit 0 when no GPU
 * falls out of line, 1 when one does (for health-check scripts), 2 on bad
 * input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/baseline.h"
#include "gpumem/fleet.h"
#include "gpumem/parallel.h"

enum { F_THRESHOLD = 256, F_BASELINE };
#define FLEET_MAX_BASELINES 16
/* A bound on the documents named at once (4096 generated documents are viewed in seconds: scripts/bench/scale.sh). */
#define FLEET_MAX_DOCS 65536

static const struct gm_opt fleet_opts[] = {
	{ "RUN.json", GM_OPT_OPERAND, 0, NULL, "a document of 'gpumem run --all-devices | --concurrent | --mpi --json';\n"
	  "several documents (or plain runs of single GPUs) are viewed as one fleet", "@file" },
	{ "threshold", F_THRESHOLD, 0, "K", "flag a GPU more than K spreads worse than the median of its model "
	  "(default 3)", NULL },
	{ "baseline", F_BASELINE, 0, "FILE", "a model's baseline (data/baselines/<model>.json; repeatable): also flag\n"
	  "the cases whose median over the model's GPUs is K tolerances below it (docs/CHECK.md)", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_fleet = {
	"fleet", "the GPUs of a multi-device run side by side; flag the ones out of line",
	"RUN.json [MORE.json ...] [--threshold K] [--baseline FILE ...]",
	"Per GPU model and case, the distribution over the GPUs, and the GPUs more than K spreads\n"
	"worse than the median with the likely cause. GPU models are summarised each on its own.",
	fleet_opts, "exit: 0 no outlier, 1 outliers flagged (or a model below its baseline), 2 bad input\n",
};

/* The view keeps what it needs of each run as it is read (gm_fleet_add_run), and drops the run's cases. */
static gm_status keep_runs(struct gm_multi_run *m, struct gm_fleet *fl)
{
	gm_status s = GM_OK;

	for (int d = 0; d < m->n && !s; d++) {
		s = gm_fleet_add_run(fl, &m->runs[d]);
		gm_result_release(&m->runs[d]);
	}
	return s;
}

struct reading {
	struct gm_multi_run *m;
	struct gm_fleet *fl;
};

/* One more document: its runs into the view, its devices (without their cases) into the fleet. */
static gm_status take_doc(void *arg, struct gm_multi_run *more)
{
	struct reading *r = arg;
	gm_status s = keep_runs(more, r->fl);

	if (s)
		return s;
	if (!r->m->n && !r->m->command[0]) {  /* the first: its header is the fleet's */
		*r->m = *more;
		gm_multi_init(more);
		return GM_OK;
	}
	return gm_multi_append(r->m, more);
}

/* Every document's device blocks, in order, as one fleet (fl filled by its runs). */
static gm_status read_all(const char *const *paths, int n, struct gm_multi_run *m, struct gm_fleet *fl)
{
	struct reading r = { m, fl };
	gm_status s;

	gm_multi_init(m);
	memset(fl, 0, sizeof(*fl));
	s = gm_multi_read_each(paths, n, gm_cores(), take_doc, &r);
	if (s) {
		gm_multi_release(m);
		gm_fleet_release(fl);
	}
	return s;
}

struct fleet_args {
	double k;
	int nb;
	struct gm_baseline *b;           /* FLEET_MAX_BASELINES */
};

static int fleet_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct fleet_args *fa = ctx;
	double *k = &fa->k;
	char *end;

	if (o->key == F_BASELINE) {
		if (fa->nb == FLEET_MAX_BASELINES)
			return gm_error(GM_EXIT_USAGE, "--baseline: at most %d", FLEET_MAX_BASELINES);
		if (gm_baseline_read(v, &fa->b[fa->nb]))
			return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		fa->nb++;
		return 0;
	}
	*k = strtod(v, &end);
	if (end == v || *end || !(*k > 0 && *k <= 1000))
		return gm_error(GM_EXIT_USAGE, "--threshold: '%s' is not a number in (0, 1000]", v);
	return 0;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_args fa = { GM_FLEET_DEFAULT_K, 0, calloc(FLEET_MAX_BASELINES, sizeof(struct gm_baseline)) };
	struct gm_opts_state st;
	struct gm_multi_run m;
	struct gm_fleet fl;
	int code = fa.b ? gm_opts_parse(&gm_doc_fleet, argc, argv, fleet_option, &fa, &st) : GM_OPTS_NOMEM;
	double k = fa.k;

	if (code == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_fleet);
	else if (code == GM_OPTS_MISSING)
		code = gm_error(GM_EXIT_USAGE, "option '%s' needs a value", st.bad);
	else if (code < 0)
		code = gm_opts_error(&gm_doc_fleet, code, &st);
	else if (!code && st.noperands > FLEET_MAX_DOCS)
		code = gm_error(GM_EXIT_USAGE, "too many run documents (at most %d)", FLEET_MAX_DOCS);
	else if (!code && !st.noperands)
		code = gm_error(GM_EXIT_USAGE, "fleet needs a JSON file written by 'gpumem run --all-devices --json'");
	else if (!code && read_all((const char *const *)st.operands, st.noperands, &m, &fl))
		code = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	gm_opts_release(&st);
	k = fa.k;
	if (code) {
		free(fa.b);
		return code == GM_OPTS_HELP ? GM_EXIT_OK : code;
	}
	fl.baselines = fa.b;
	fl.nbaselines = fa.nb;
	if (gm_fleet_finish(&m, k, &fl)) {
		free(fa.b);
		gm_multi_release(&m);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	printf("%s\n", m.command);
	gm_write(stdout, GM_DOC_FLEET, "text", &(struct gm_fleet_doc){ &m, &fl });
	if (fl.nmodels > 1)
		printf("\nnote: %d GPU models: each is summarised on its own, never mixed\n", fl.nmodels);
	code = fl.noutliers || fl.nbelow ? GM_EXIT_CASE_FAILED : GM_EXIT_OK;
	gm_fleet_release(&fl);
	free(fa.b);
	gm_multi_release(&m);
	return code;
}
