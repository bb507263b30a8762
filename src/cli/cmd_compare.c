/*
 * cmd_compare.c - `gpumem compare A.json B.json [--threshold PCT] [--json]`.
 * Exit 0: no regression; 1: some case got worse by more than the threshold
 * and the noise (or broke); 2: bad input. Different devices or schema
 * versions are compared with a warning on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/compare.h"
#include "gpumem/fleet.h"
#include "gpumem/io.h"

#define DEFAULT_THRESHOLD 5.0

static const char usage_text[] =
	"usage: gpumem compare A.json B.json [--threshold PCT] [--json]\n"
	"  case by case: both medians, B/A, the change in the better direction of the case's unit,\n"
	"  and whether it exceeds both runs' spread (max - min). Exit 1 when a case got worse by\n"
	"  more than PCT %% (default 5) and the noise, or stopped working.\n";

struct compare_args {
	const char *path[2];
	int n, json;
	double threshold;
};

static int parse(int argc, char **argv, struct compare_args *a)
{
	a->threshold = DEFAULT_THRESHOLD;
	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--help")) {
			printf(usage_text);
			return -1;
		}
		if (!strcmp(argv[i], "--json"))
			a->json = 1;
		else if (!strcmp(argv[i], "--threshold")) {
			if (++i == argc)
				return gm_error(GM_EXIT_USAGE, "--threshold needs a percentage");
			a->threshold = strtod(argv[i], &end);
			if (end == argv[i] || *end || !(a->threshold >= 0) || a->threshold > 1e6)
				return gm_error(GM_EXIT_USAGE, "invalid threshold '%s' (a percentage, e.g. 5)", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1])
			return gm_error(GM_EXIT_USAGE, "unknown option '%s' (see 'gpumem compare --help')", argv[i]);
		else if (a->n == 2)
			return gm_error(GM_EXIT_USAGE, "compare takes two run files, not '%s' too", argv[i]);
		else
			a->path[a->n++] = argv[i];
	}
	if (a->n != 2)
		return gm_error(GM_EXIT_USAGE, "compare needs two JSON files written by 'gpumem run --json'");
	return 0;
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

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { 0 };
	struct gm_run_result r[2];
	struct gm_comparison c;
	int rc = parse(argc, argv, &a);

	if (rc)
		return rc < 0 ? GM_EXIT_OK : rc;
	if (!a.json && (gm_multi_is(a.path[0]) || gm_multi_is(a.path[1])))  /* device by device (compare_multi.c) */
		return compare_multi(a.path[0], a.path[1], a.threshold);
	if (gm_json_read(a.path[0], &r[0]))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (gm_json_read(a.path[1], &r[1])) {
		gm_result_release(&r[0]);
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	}
	for (int i = 0; i < 2; i++)
		if (gm_multi_is(a.path[i]))
			fprintf(stderr, "note: '%s' holds several devices: --json compares its first device's run "
					"(without --json: device by device)\n", a.path[i]);
	if (gm_compare_runs(&r[0], &r[1], a.threshold, &c))
		rc = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	else {
		warn(&c, r, &a);
		if (a.json)
			gm_compare_write_json(stdout, &c, &r[0], &r[1], a.path[0], a.path[1]);
		else
			gm_compare_write_text(stdout, &c, &r[0], &r[1], gm_use_color(stdout));
		rc = c.nworse ? GM_EXIT_CASE_FAILED : GM_EXIT_OK;
		gm_comparison_release(&c);
	}
	gm_result_release(&r[0]);
	gm_result_release(&r[1]);
	return rc;
}
