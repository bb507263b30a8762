/*
 * launch_common.c - what `run`, `predict` and `explain --n` share about the
 * launch model: choosing the profile and printing the score line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/profile.h"

/* The fields the profile's run did not measure, named once on stderr (never filled silently). */
static void note_unmeasured(const struct gm_profile *p)
{
	char buf[4096];

	gm_profile_describe_unmeasured(p, buf, sizeof(buf));
	if (*buf)
		fprintf(stderr, "note: profile of %s did not measure %s\n", p->device, buf);
}

int gm_cli_profile_dev(const char *path, const char *device, const char *uuid, struct gm_profile *p, int quiet,
		       int *cached)
{
	struct gm_profile_choice c;
	char why[512];
	gm_status s;

	if (cached)
		*cached = 0;
	if (path) {
		s = gm_profile_read(path, p, why, sizeof(why));
		if (s != GM_OK)
			return gm_error(s == GM_ERR_IO ? GM_EXIT_IO : GM_EXIT_USAGE, "%s", why);
		/* what the launch model needs of it (bandwidths it can divide by), before anything is printed */
		if (gm_profile_check(p, why, sizeof(why)) != GM_OK)
			return gm_error(GM_EXIT_USAGE, "%s: %s", path, why);
		if (device && *device && strcmp(device, p->device) && !quiet)
			fprintf(stderr, "warning: profile '%s' was measured on '%s', not on '%s'\n", path,
				p->device, device);
		if (!quiet)
			note_unmeasured(p);
		return GM_EXIT_OK;
	}
	if (gm_profile_for_device(device, uuid, p, &c) != GM_OK)
		return gm_error(GM_EXIT_USAGE, "this gpumem has no built-in device profile; run 'gpumem calibrate "
				"-o FILE' and pass --profile FILE");
	if (cached)
		*cached = c.cached;
	if (*c.note && !quiet)
		fprintf(stderr, "note: %s; using the built-in profile\n", c.note);
	if (!c.exact && device && *device && !quiet)
		fprintf(stderr, "warning: no profile for '%s' is built in; using the nearest, '%s' (%s); "
			"'gpumem calibrate' measures this device\n", device, p->device, p->origin);
	if (!quiet)
		note_unmeasured(p);
	return GM_EXIT_OK;
}

int gm_cli_profile(const char *path, const char *device, struct gm_profile *p, int quiet)
{
	return gm_cli_profile_dev(path, device, NULL, p, quiet, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How many measured cases fall inside their intervals (docs/MODEL.md 7.6), calibration cases apart. */
static void interval_line(FILE *f, const struct gm_run_result *r)
{
	int n = 0, in = 0, weak = 0;
	double *w = calloc((size_t)r->ncases + 1, sizeof(double));

	for (int k = 0; w && k < r->ncases; k++) {
		const struct gm_case_result *c = &r->cases[k];

		if (c->launch_gbs <= 0 || !(c->launch_high_gbs > 0) || c->status != GM_CASE_OK ||
		    !(c->value.median > 0) || gm_is_calibration_case(c->name))
			continue;
		in += c->value.median >= c->launch_low_gbs && c->value.median <= c->launch_high_gbs;
		weak += c->launch_weak != 0;
		w[n++] = 100.0 * (c->launch_high_gbs - c->launch_low_gbs) / c->launch_gbs;
	}
	if (n) {
		qsort(w, (size_t)n, sizeof(double), cmp_double);
		fprintf(f, "model intervals: %d of %d non-calibration cases measured inside theirs, median width %.1f%% "
			"of the prediction; %d where the model says it is weak ('gpumem explain --run' measures)\n", in,
			n, n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]), weak);
	}
	free(w);
}

void gm_cli_score_line(FILE *f, const struct gm_run_result *r)
{
	struct gm_launch_score s;

	gm_launch_score_of(r, NULL, &s);
	if (!s.n)
		return;
	/* the cases the profile is measured by reproduce it by construction: scored apart */
	if (s.calibration < s.n)
		fprintf(f, "model within 10%%: %d of %d cases that do not measure the profile, median error %.1f%%, mean "
			"%.1f%%", s.within10 - s.calibration_within10, s.n - s.calibration, s.other_median_err_pct,
			s.other_mean_err_pct);
	else
		fprintf(f, "model within 10%%: no case that does not measure the profile");
	if (s.calibration)
		fprintf(f, "; apart, the %d calibration cases: %d within 10%%", s.calibration, s.calibration_within10);
	fprintf(f, "\n");
	interval_line(f, r);
	/* the profile and the model are made for arrays far past L2: small ones are mostly L2 and launch time */
	if (r->array_bytes > 0 && r->dev.l2_bytes > 0 && (double)r->array_bytes < 8.0 * (double)r->dev.l2_bytes)
		fprintf(f, "note: arrays of %.0f MiB are within 8x the %.0f MiB L2; the launch model is made for "
			"arrays far past it (the default 4 GiB, --quick 1 GiB): its score here says little\n",
			r->array_bytes / 1048576.0, r->dev.l2_bytes / 1048576.0);
}

void gm_cli_score_families(FILE *f, const struct gm_run_result *r)
{
	const char *seen[64];
	int nseen = 0, any = 0;

	for (int k = 0; k < r->ncases; k++)
		any |= r->cases[k].launch_gbs > 0;
	if (any)
		fprintf(f, "\nlaunch model per family\n");

	for (int k = 0; k < r->ncases && nseen < 64; k++) {
		struct gm_launch_score s;
		int dup = 0;

		for (int j = 0; j < nseen; j++)
			dup |= !strcmp(seen[j], r->cases[k].family);
		if (dup || r->cases[k].launch_gbs <= 0)
			continue;
		seen[nseen++] = r->cases[k].family;
		gm_launch_score_of(r, r->cases[k].family, &s);
		fprintf(f, "  %-12s within 10%%: %3d of %3d, median error %5.1f%%\n", r->cases[k].family, s.within10,
			s.n, s.median_err_pct);
	}
}

/* The tool the process runs under, from the variables its injection sets (CUDA 13: checked on an H100). */
const char *gm_cli_tool(void)
{
	if (getenv("NV_SANITIZER_INJECTION_TRANSPORT_TYPE") || getenv("NV_SANITIZER_INJECTION_PORT_BASE"))
		return "compute-sanitizer";
	if (getenv("NV_NSIGHT_INJECTION_TRANSPORT_TYPE") || getenv("NV_NSIGHT_INJECTION_PORT_BASE"))
		return "an Nsight tool (ncu or nsys)";
	return NULL;
}

void gm_cli_tool_note(FILE *f)
{
	const char *tool = gm_cli_tool();

	if (tool)
		fprintf(f, "timed under %s: these timings, and the model's score against them, are not measurements\n",
			tool);
}

/*
 * What a calibrate buys, from committed evidence: every committed suite with the same call's calibrate
 * profile, re-predicted with the SKU's built-in profile and with that call's own
 * (scripts/launch_builtin_vs_unit.sh; docs/MODEL.md 7.3). Regenerate when the model or a built-in profile
 * changes.
 */
static const struct {
	const char *device, *evidence;
} buys[] = {
	{ "NVIDIA H200", "on the committed H200 suites (4 calls), one unit's own profile took the non-calibration "
	  "cases within 10 % from 203 to 218 of 228 (median error 3.5 -> 2.2 %, results/nvidia-h200/s1-ecc59bd), "
	  "the other three scored as with the built-in one" },
	{ "NVIDIA H100 80GB HBM3", "on the committed H100 suites (3 calls) the units' own profiles scored as the "
	  "built-in one (223 of 232 within 10 %, median 2.7 %): it matters on a unit unlike the one it came from" },
};

int gm_cli_quiet_hint;

void gm_cli_calibrate_hint(FILE *f, const struct gm_profile *p)
{
	const char *ev = "no committed run says how much";

	if (gm_cli_quiet_hint)
		return;
	for (size_t k = 0; k < sizeof(buys) / sizeof(buys[0]); k++)
		if (!strcmp(buys[k].device, p->device))
			ev = buys[k].evidence;
	fprintf(f, "note: predicted with the built-in profile of %s, not this unit's; 'gpumem calibrate' (75 cases, "
		"about 8 s on an H200) measures this unit, and run, explain and predict use it from then on: %s\n",
		p->device, ev);
}
