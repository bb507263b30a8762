/*
 * cmd_calibrate.c - `gpumem calibrate [-o FILE] [--from RUN.json] [--json RUN]`:
 * the device profile of the launch model. Without --from it runs the
 * calibration cases (gm_calibrate_selectors: copy cases, two stride cases,
 * four series of the hierarchy family, two latencies) exactly as `gpumem run` would,
 * then derives the profile from them; with --from it derives it from a saved
 * run that holds those cases (the default suite does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"

enum { K_FROM = 256, K_JSON, K_DEVICE, K_CACHE };

static const struct gm_opt calibrate_opts[] = {
	{ "output", 'o', 'o', "FILE", "write the profile here (default: stdout)", "@file" },
	{ "from", K_FROM, 0, "RUN.json", "derive it from a saved run instead of running the cases", "@file" },
	{ "json", K_JSON, 0, "RUN.json", "also keep the calibration run itself", "@file" },
	{ "device", K_DEVICE, 0, "N", "GPU (default 0)", NULL },
	{ "cache", K_CACHE, 0, NULL, "with --from: also store it as its unit's profile in the cache", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_calibrate = {
	"calibrate", "measure the device profile of the launch model (-o FILE)",
	"[-o FILE] [--from RUN.json [--cache]] [--json RUN.json] [--device N]",
	"Measure the device profile the launch model reads (explain --n, run, predict): the calibration\n"
	"cases (copy, stride, hierarchy and latency cases) are run as 'gpumem run' runs them, then the\n"
	"profile is derived from them and stored as this unit's profile in the user's cache\n"
	"($XDG_CACHE_HOME or ~/.cache)/gpumem/profiles/<GPU-UUID>.json, which run, explain and predict\n"
	"then use on this unit. With --from, from a saved run that holds those cases (the default suite\n"
	"does); --cache stores that one too, under the run's GPU UUID. Fields the run could not measure are\n"
	"named, and left out of the file.",
	calibrate_opts, NULL,
};

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

/* This unit's profile in the cache; a cache that cannot be written is a warning, the run goes on. */
static void store_cached(const struct gm_profile *p)
{
	char path[1024], why[1200];

	if (gm_profile_cache_store(p, path, sizeof(path), why, sizeof(why)) != GM_OK)
		fprintf(stderr, "warning: this unit's profile is not cached: %s; run, explain and predict keep the "
			"built-in profile\n", why);
	else
		fprintf(stderr, "profile of %s (%s) cached at %s: run, explain and predict use it on this unit\n",
			p->device, p->uuid, path);
}

static int derive(const char *run, const char *out, int cache)
{
	struct gm_run_result r;
	struct gm_profile p;
	struct gm_case_walks *walks = NULL;
	char why[256];
	int rc;

	gm_result_init(&r);
	if (gm_json_read(run, &r)) {
		rc = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	} else if (gm_profile_from_run_walks(&r, &p, why, sizeof(why), &walks)) {
		rc = gm_error(GM_EXIT_USAGE, "%s: %s; 'gpumem calibrate' without --from runs them", run, why);
	} else {
		gm_profile_fill_from_builtin(&p); /* what the run lacked, as a reader of the file will: named */
		snprintf(p.source, sizeof(p.source), "gpumem %s calibrate from %s (%s)", r.tool_version, run,
			 r.started_utc);
		rc = write_profile(out, &p);
		if (rc == GM_EXIT_OK && *p.unmeasured) {
			char buf[4096];

			gm_profile_describe_unmeasured(&p, buf, sizeof(buf));
			fprintf(stderr, "note: the run did not measure %s; left out of the profile\n", buf);
		}
		if (rc == GM_EXIT_OK && cache)
			store_cached(&p);
		/* the run's own table predicted with the profile it had; the cases again with the new one (the
		   derivation's walks: the profile's shape is theirs) */
		if (rc == GM_EXIT_OK && gm_launch_predict_run_walked(&r, &p, walks) > 0) {
			fprintf(stderr, "with this profile, ");
			gm_cli_score_line(stderr, &r);
		}
	}
	gm_case_walks_free(walks);
	gm_result_release(&r);
	return rc;
}

/* Run the calibration cases through `gpumem run` into a run file. */
static int measure(const char *json, const char *device)
{
	int nsel = 0;
	while (gm_calibrate_selectors[nsel])
		nsel++;
	/* "run", the selectors, --json FILE, --device ID, NULL */
	const char **argv = calloc((size_t)nsel + 6, sizeof *argv);
	int argc = 0, rc;

	if (!argv)
		return gm_error(GM_EXIT_USAGE, "out of memory");
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
	gm_cli_quiet_hint = 1;
	/* run's samples budget holds here as for every run without --reps (docs/METHODOLOGY.md step 5): a case takes
	   the samples that last 150 ms together, 10 to 20 */
	rc = cmd_run(argc, (char **)argv);
	free(argv);
	return rc;
}

struct calibrate_args {
	const char *out, *from, *json, *device;
	int cache;
};

static int calibrate_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct calibrate_args *a = ctx;

	if (o->key == 'o')
		a->out = v;
	else if (o->key == K_FROM)
		a->from = v;
	else if (o->key == K_JSON)
		a->json = v;
	else if (o->key == K_CACHE)
		a->cache = 1;
	else
		a->device = v;
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_args a = { 0 };
	struct gm_opts_state st;
	char tmp[] = "/tmp/gpumem-calibrate-XXXXXX";
	int rc = gm_opts_parse(&gm_doc_calibrate, argc, argv, calibrate_option, &a, &st);
	const char *out, *from, *json, *device;

	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_calibrate);
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "%s '%s'; see 'gpumem calibrate --help'",
			      rc == GM_OPTS_MISSING ? "option needs a value:" : "unknown option", st.bad);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_calibrate, rc, &st);
	else if (st.noperands)
		rc = gm_error(GM_EXIT_USAGE, "unexpected argument '%s'; see 'gpumem calibrate --help'",
			      st.operands[0]);
	gm_opts_release(&st);
	if (rc)
		return rc == GM_OPTS_HELP ? GM_EXIT_OK : rc;
	out = a.out, from = a.from, json = a.json, device = a.device;
	if (from && (json || device))
		return gm_error(GM_EXIT_USAGE, "--from reads a saved run: --json and --device do not apply");
	if (a.cache && !from)
		return gm_error(GM_EXIT_USAGE, "--cache goes with --from (a measured profile is always cached)");
	if (from)
		return derive(from, out, a.cache);
	if (!json) {
		int fd = mkstemp(tmp);

		if (fd < 0)
			return gm_error(GM_EXIT_IO, "cannot create a temporary run file");
		close(fd);
		json = tmp;
	}
	rc = measure(json, device);
	if (rc == GM_EXIT_OK)
		rc = derive(json, out, 1);
	if (json == tmp)
		unlink(tmp);
	return rc;
}
