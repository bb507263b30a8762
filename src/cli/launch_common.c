/*
 * launch_common.c - what `run`, `predict` and `explain --n` share about the
 * launch model: choosing the profile and printing the score line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/profile.h"

int gm_cli_profile(const char *path, const char *device, struct gm_profile *p, int quiet)
{
	char why[512];
	int exact;
	gm_status s;

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
		return GM_EXIT_OK;
	}
	if (gm_profile_nearest(device, p, &exact) != GM_OK)
		return gm_error(GM_EXIT_USAGE, "this gpumem has no built-in device profile; run 'gpumem calibrate "
				"-o FILE' and pass --profile FILE");
	if (!exact && device && *device && !quiet)
		fprintf(stderr, "warning: no profile for '%s' is built in; using the nearest, '%s' (%s); "
			"'gpumem calibrate -o FILE' measures this device\n", device, p->device, p->origin);
	return GM_EXIT_OK;
}

void gm_cli_score_line(FILE *f, const struct gm_run_result *r)
{
	struct gm_launch_score s;

	gm_launch_score_of(r, NULL, &s);
	if (!s.n)
		return;
	fprintf(f, "model within 10%%: %d of %d cases, median error %.1f%%", s.within10, s.n, s.median_err_pct);
	if (s.calibration && s.calibration < s.n)
		fprintf(f, " (%d of them measure the profile; the others: %d of %d)", s.calibration,
			s.within10 - s.calibration_within10, s.n - s.calibration);
	else if (s.calibration)
		fprintf(f, " (all of them measure the profile)");
	fprintf(f, "\n");
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
