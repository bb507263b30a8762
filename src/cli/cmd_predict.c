/*
 * cmd_predict.c - `gpumem predict RUN.json [--profile FILE | --self]`:
 * re-predict every bandwidth case of a saved run with the launch model, no
 * GPU needed; the measured value beside the prediction, the score per
 * family and over all. --self derives the profile from the run itself
 * (the calibration cases must be in it).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"

enum { P_PROFILE = 256, P_SELF, P_JSON, P_DATASHEET, P_BASE_DATASHEET };

static const struct gm_opt predict_opts[] = {
	{ "RUN.json", GM_OPT_OPERAND, 0, NULL, "a run written by 'gpumem run --json'", "@file" },
	{ "profile", P_PROFILE, 0, "FILE", "device profile (default: the built-in one nearest the run's device)", "@file" },
	{ "self", P_SELF, 0, NULL, "derive the profile from RUN.json itself (as calibrate --from does)", NULL },
	{ "json", P_JSON, 0, "FILE", "write the run back with the predictions ('launch' objects)", "@file" },
	{ "datasheet", P_DATASHEET, 0, "FILE", "predict for the GPU of this datasheet (data/datasheets/) from the\n"
	  "profile of another GPU (--profile) and that GPU's datasheet (--base-datasheet)", "@file" },
	{ "base-datasheet", P_BASE_DATASHEET, 0, "FILE", "the datasheet of the GPU the profile was measured on", "@file" },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_predict = {
	"predict", "re-predict a saved run's bandwidth cases with the launch model",
	"RUN.json [--profile FILE | --self] [--datasheet FILE --base-datasheet FILE] [--json FILE]",
	"Re-predict every bandwidth case of a saved run with the launch model, no GPU needed: the\n"
	"measured value beside the prediction and its interval, the limiting level, the DRAM bytes, and\n"
	"the score per family and over all. With --datasheet, for a GPU the model never ran on: the\n"
	"profile of another GPU carried over by the ratios of the two datasheets (docs/MODEL.md 7.7).",
	predict_opts, NULL,
};

static void print_rows(const struct gm_run_result *r)
{
	printf("%-32s %10s %10s %19s %7s %-7s %12s %12s\n", "case", "measured", "predicted", "interval", "meas/pr",
	       "limit", "DRAM read", "DRAM write");
	for (int k = 0; k < r->ncases; k++) {
		const struct gm_case_result *c = &r->cases[k];

		if (c->launch_gbs <= 0)
			continue;
		printf("%-32s %10.1f %10.1f %9.1f-%-9.1f %6.0f%%%c %-7s %12.4g %12.4g\n", c->name, c->value.median,
		       c->launch_gbs, c->launch_low_gbs, c->launch_high_gbs, 100.0 * c->value.median / c->launch_gbs,
		       c->value.median < c->launch_low_gbs || c->value.median > c->launch_high_gbs ? '!' : ' ',
		       c->launch_limited_by, c->launch_dram_read, c->launch_dram_write);
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

/* --datasheet: the profile carried from the GPU it was measured on to the datasheet's (docs/MODEL.md 7.7). */
static int carry_profile(struct gm_profile *p, const char *target, const char *base)
{
	struct gm_datasheet td, bd;
	struct gm_profile q;
	char why[512];
	gm_status s;

	if ((s = gm_datasheet_read(target, &td, why, sizeof(why))) ||
	    (s = gm_datasheet_read(base, &bd, why, sizeof(why))))
		return gm_error(s == GM_ERR_IO ? GM_EXIT_IO : GM_EXIT_USAGE, "%s", why);
	if (strcmp(bd.device, p->device))
		fprintf(stderr, "warning: --base-datasheet '%s' is of '%s', the profile of '%s'\n", base, bd.device,
			p->device);
	gm_profile_from_datasheet(p, &bd, &td, &q);
	*p = q;
	return GM_EXIT_OK;
}

static int predict_main(const char *run, const char *prof_path, int self, const char *out, const char *ds,
			const char *base_ds)
{
	struct gm_run_result r;
	struct gm_profile p;
	char why[256];
	int rc = GM_EXIT_OK;

	gm_result_init(&r);
	if (gm_json_read(run, &r)) {
		rc = gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
		goto done;
	}
	if (self && gm_profile_from_run(&r, &p, why, sizeof(why))) {
		rc = gm_error(GM_EXIT_USAGE, "%s: %s", run, why);
		goto done;
	}
	if (self)
		snprintf(p.origin, sizeof(p.origin), "derived from %s", run);
	else if ((rc = gm_cli_profile_dev(prof_path, ds ? NULL : r.dev.name, ds ? NULL : r.dev.uuid, &p, 0, NULL)))
		goto done;
	if (ds && (rc = carry_profile(&p, ds, base_ds)) != 0)
		goto done;
	gm_launch_predict_run(&r, &p);
	snprintf(r.launch_profile, sizeof(r.launch_profile), "%.80s (%.300s)", p.device, p.origin);
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

struct predict_args {
	const char *prof, *out, *ds, *base_ds;
	int self;
};

static int predict_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct predict_args *a = ctx;

	if (o->key == P_PROFILE)
		a->prof = v;
	else if (o->key == P_SELF)
		a->self = 1;
	else if (o->key == P_DATASHEET)
		a->ds = v;
	else if (o->key == P_BASE_DATASHEET)
		a->base_ds = v;
	else
		a->out = v;
	return 0;
}

int cmd_predict(int argc, char **argv)
{
	struct predict_args a = { 0 };
	struct gm_opts_state st;
	const char *run = NULL;
	int rc = gm_opts_parse(&gm_doc_predict, argc, argv, predict_option, &a, &st);

	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_predict);
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "%s '%s'; see 'gpumem predict --help'",
			      rc == GM_OPTS_MISSING ? "option needs a value:" : "unknown option", st.bad);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_predict, rc, &st);
	else if (st.noperands != 1)
		rc = gm_error(GM_EXIT_USAGE, "one run file expected; see 'gpumem predict --help'");
	else
		run = st.operands[0];
	gm_opts_release(&st);
	if (rc)
		return rc == GM_OPTS_HELP ? GM_EXIT_OK : rc;
	if (a.self && a.prof)
		return gm_error(GM_EXIT_USAGE, "--profile and --self both given; use one");
	if (!a.ds != !a.base_ds || (a.ds && !a.prof))
		return gm_error(GM_EXIT_USAGE, "--datasheet needs --base-datasheet and --profile (the profile of the "
				"base GPU)");
	return predict_main(run, a.prof, a.self, a.out, a.ds, a.base_ds);
}
