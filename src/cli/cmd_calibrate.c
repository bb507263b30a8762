/*
 * cmd_calibrate.c - `gpumem calibrate [-o FILE] [--from RUN.json] [--json RUN]`:
 * the device profile of the launch model. Without --from it runs the
 * calibration cases (gm_calibrate_selectors: three copy cases, two stride
 * cases, the hierarchy family, two latencies) exactly as `gpumem run` would,
 * then derives the profile from them; with --from it derives it from a saved
 * run that holds those cases (the default suite does).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"

static const char usage_text[] =
	"usage: gpumem calibrate [-o FILE] [--from RUN.json] [--json RUN.json] [--device N]\n"
	"Measure the device profile the launch model reads (explain --n, run, predict).\n"
	"  -o, --output FILE  write the profile here (default: stdout)\n"
	"  --from RUN.json    derive it from a saved run instead of running the cases\n"
	"  --json RUN.json    also keep the calibration run itself\n"
	"  --device N         GPU (default 0)\n";

static int write_profile(const char *path, const struct gm_profile *p)
{
	struct gm_outfile o;

	if (!path)
		return gm_profile_write(stdout, p) ? gm_error(GM_EXIT_IO, "cannot write the profile") : 0;
	if (gm_outfile_open(&o, path))
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (gm_profile_write(o.f, p) || gm_outfile_commit(&o)) {
		gm_outfile_abort(&o);
		return gm_error(GM_EXIT_IO, "cannot write profile '%s'", path);
	}
	fprintf(stderr, "profile of %s written to %s\n", p->device, path);
	return GM_EXIT_OK;
}

static int derive(const char *run, const char *out)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	int rc;

	gm_result_init(&r);
	if (gm_json_read(run, &r)) {
		rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	} else if (gm_profile_from_run(&r, &p, why, sizeof(why))) {
		rc = gm_error(GM_EXIT_USAGE, "%s: %s; 'gpumem calibrate' without --from runs them", run, why);
	} else {
		snprintf(p.source, sizeof(p.source), "gpumem %s calibrate from %s (%s)", r.tool_version, run,
			 r.started_utc);
		rc = write_profile(out, &p);
		/* the run's own table predicted with the profile it had; the cases again with the new one */
		if (rc == GM_EXIT_OK && gm_launch_predict_run(&r, &p) > 0) {
			fprintf(stderr, "with this profile, ");
			gm_cli_score_line(stderr, &r);
		}
	}
	gm_result_release(&r);
	return rc;
}

/* Run the calibration cases through `gpumem run` into a run file. */
static int measure(const char *json, const char *device)
{
	const char *argv[32];
	int argc = 0;

	argv[argc++] = "run";
	for (int k = 0; gm_calibrate_selectors[k]; k++)
		argv[argc++] = gm_calibrate_selectors[k];
	argv[argc++] = "--json";
	argv[argc++] = json;
	if (device) {
		argv[argc++] = "--device";
		argv[argc++] = device;
	}
	argv[argc] = NULL;
	return cmd_run(argc, (char **)argv);
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' }, { "from", required_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' }, { "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *from = NULL, *json = NULL, *device = NULL;
	char tmp[] = "/tmp/gpumem-calibrate-XXXXXX";
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return GM_EXIT_OK;
		}
		if (c == 'o')
			out = optarg;
		else if (c == 'f')
			from = optarg;
		else if (c == 'j')
			json = optarg;
		else if (c == 'd')
			device = optarg;
		else
			return gm_error(GM_EXIT_USAGE, "%s '%s'; see 'gpumem calibrate --help'",
					c == ':' ? "option needs a value:" : "unknown option", argv[optind - 1]);
	}
	if (optind != argc)
		return gm_error(GM_EXIT_USAGE, "unexpected argument '%s'; see 'gpumem calibrate --help'",
				argv[optind]);
	if (from && (json || device))
		return gm_error(GM_EXIT_USAGE, "--from reads a saved run: --json and --device do not apply");
	if (from)
		return derive(from, out);
	if (!json) {
		int fd = mkstemp(tmp);

		if (fd < 0)
			return gm_error(GM_EXIT_IO, "cannot create a temporary run file");
		close(fd);
		json = tmp;
	}
	rc = measure(json, device);
	if (rc == GM_EXIT_OK)
		rc = derive(json, out);
	if (json == tmp)
		unlink(tmp);
	return rc;
}
