/*
 * cmd_predict.c - `gpumem predict RUN.json [--profile FILE | --self]`:
 * re-predict every bandwidth case of a saved run with the launch model, no
 * GPU needed; the measured value beside the prediction, the score per
 * family and over all. --self derives the profile from the run itself
 * (the calibration cases must be in it).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"

static const char usage_text[] =
	"usage: gpumem predict RUN.json [--profile FILE | --self] [--json FILE]\n"
	"Re-predict every bandwidth case of a saved run with the launch model.\n"
	"  --profile FILE  device profile (default: the built-in one nearest the run's device)\n"
	"  --self          derive the profile from RUN.json itself (as calibrate --from does)\n"
	"  --json FILE     write the run back with the predictions ('launch' objects)\n";

static void print_rows(const struct gm_run_result *r)
{
	printf("%-32s %10s %10s %7s %-5s %12s %12s\n", "case", "measured", "predicted", "meas/pr", "limit",
	       "DRAM read", "DRAM write");
	for (int k = 0; k < r->ncases; k++) {
		const struct gm_case_result *c = &r->cases[k];

		if (c->launch_gbs <= 0)
			continue;
		printf("%-32s %10.1f %10.1f %6.0f%% %-5s %12.4g %12.4g\n", c->name, c->value.median, c->launch_gbs,
		       100.0 * c->value.median / c->launch_gbs, c->launch_limited_by, c->launch_dram_read,
		       c->launch_dram_write);
	}
}

static int write_json(const char *path, const struct gm_run_result *r)
{
	struct gm_outfile o;

	if (gm_outfile_open(&o, path))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (gm_json_write(o.f, r) || gm_outfile_commit(&o)) {
		gm_outfile_abort(&o);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	return GM_EXIT_OK;
}

static int predict_main(const char *run, const char *prof_path, int self, const char *out)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	int rc = GM_EXIT_OK;

	gm_result_init(&r);
	if (gm_json_read(run, &r)) {
		rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
		goto done;
	}
	if (self && gm_profile_from_run(&r, &p, why, sizeof(why))) {
		rc = gm_error(GM_EXIT_USAGE, "%s: %s", run, why);
		goto done;
	}
	if (self)
		snprintf(p.origin, sizeof(p.origin), "derived from %s", run);
	else if ((rc = gm_cli_profile(prof_path, r.dev.name, &p, 0)) != 0)
		goto done;
	gm_launch_predict_run(&r, &p);
	printf("profile: %s (%s)\n\n", p.device, p.origin);
	print_rows(&r);
	gm_cli_score_families(stdout, &r);
	gm_cli_score_line(stdout, &r);
	if (out)
		rc = write_json(out, &r);
done:
	gm_result_release(&r);
	return rc;
}

int cmd_predict(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' }, { "self", no_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *prof = NULL, *out = NULL;
	int self = 0, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return GM_EXIT_OK;
		}
		if (c == 'p')
			prof = optarg;
		else if (c == 's')
			self = 1;
		else if (c == 'j')
			out = optarg;
		else
			return gm_error(GM_EXIT_USAGE, "%s '%s'; see 'gpumem predict --help'",
					c == ':' ? "option needs a value:" : "unknown option", argv[optind - 1]);
	}
	if (optind != argc - 1)
		return gm_error(GM_EXIT_USAGE, "one run file expected; see 'gpumem predict --help'");
	if (self && prof)
		return gm_error(GM_EXIT_USAGE, "--profile and --self both given; use one");
	return predict_main(argv[optind], prof, self, out);
}
