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
#include "gpumem/fleet.h"

static const char usage_text[] =
	"usage: gpumem fleet RUN.json [MORE.json ...] [--threshold K]\n"
	"  RUN.json       a document of 'gpumem run --all-devices | --concurrent | --mpi --json';\n"
	"                 several documents (or plain runs of single GPUs) are viewed as one fleet\n"
	"  --threshold K  flag a GPU more than K spreads worse than the median of its model (default 3)\n"
	"exit: 0 no outlier, 1 outliers flagged, 2 bad input\n";

/* Every document's device blocks, in order, as one fleet. */
static gm_status read_all(const char *const *paths, int n, struct gm_multi_run *m)
{
	struct gm_multi_run more;
	gm_status s = gm_multi_read(paths[0], m);

	for (int i = 1; i < n && !s; i++) {
		s = gm_multi_read(paths[i], &more);
		if (!s) {
			s = gm_multi_append(m, &more);
			gm_multi_release(&more);
		}
	}
	if (s)
		gm_multi_release(m);
	return s;
}

int cmd_fleet(int argc, char **argv)
{
	const char *paths[64];
	int npaths = 0;
	double k = GM_FLEET_DEFAULT_K;
	struct gm_multi_run m;
	struct gm_fleet fl;
	int code;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return GM_EXIT_OK;
		}
		if (!strcmp(argv[i], "--threshold") || !strncmp(argv[i], "--threshold=", 12)) {
			const char *v = argv[i][11] == '=' ? argv[i] + 12 : (i + 1 < argc ? argv[++i] : NULL);
			char *end;
			if (!v)
				return gm_error(GM_EXIT_USAGE, "option '--threshold' needs a value");
			k = strtod(v, &end);
			if (end == v || *end || !(k > 0 && k <= 1000))
				return gm_error(GM_EXIT_USAGE, "--threshold: '%s' is not a number in (0, 1000]", v);
		} else if (argv[i][0] == '-' && argv[i][1])
			return gm_error(GM_EXIT_USAGE, "unknown option '%s' (see 'gpumem fleet --help')", argv[i]);
		else if (npaths == 64)
			return gm_error(GM_EXIT_USAGE, "too many run documents (at most 64)");
		else
			paths[npaths++] = argv[i];
	}
	if (!npaths)
		return gm_error(GM_EXIT_USAGE, "fleet needs a JSON file written by 'gpumem run --all-devices --json'");
	if (read_all(paths, npaths, &m))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (gm_fleet_compute(&m, k, &fl)) {
		gm_multi_release(&m);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	printf("%s\n", m.command);
	gm_fleet_write(stdout, &m, &fl);
	if (fl.nmodels > 1)
		printf("\nnote: %d GPU models: each is summarised on its own, never mixed\n", fl.nmodels);
	code = fl.noutliers ? GM_EXIT_CASE_FAILED : GM_EXIT_OK;
	gm_fleet_release(&fl);
	gm_multi_release(&m);
	return code;
}
