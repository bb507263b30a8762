/*
 * cmd_info.c - `gpumem info [--device N] [--from RUN.json]`: the device and
 * its peak bandwidth; with --from, the device of a saved run and the measured
 * spec sheet derived from it (no GPU needed).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"
#include "gpumem/bench.h"
#include "gpumem/gpu.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

static int info_from(const char *path, int derive)
{
	struct gm_run_result r;

	if (gm_json_read(path, &r))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (derive)
		gm_rederive(&r);
	if (r.have_device)
		gm_device_write(stdout, &r.dev);
	if (!gm_spec_write(stdout, &r))
		printf("\nno measured spec sheet in '%s' (run e.g. 'gpumem run hierarchy latency smem')\n", path);
	gm_result_release(&r);
	return GM_EXIT_OK;
}

enum { I_DEVICE = 256, I_FROM, I_DERIVE };

static const struct gm_opt info_opts[] = {
	{ "device", I_DEVICE, 0, "N", "GPU (default 0)", NULL },
	{ "from", I_FROM, 0, "RUN.json", "the device of a saved run and the spec sheet measured in it (no GPU needed)",
	  "@file" },
	{ "derive", I_DERIVE, 0, NULL, "with --from: derive the spec sheet again from the run's cases with this build's rules",
	  NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_info = {
	"info", "show the device: clocks, bus, caches, peak bandwidth", "[--device N] [--from RUN.json [--derive]]",
	"The device's name, compute capability, clocks, memory bus, cache sizes and theoretical peak\n"
	"bandwidth, read from the CUDA runtime and NVML.",
	info_opts, NULL,
};

struct info_args {
	const char *from;
	long dev;
	int derive;
};

static int info_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct info_args *a = ctx;

	if (o->key == I_FROM)
		a->from = v;
	else if (o->key == I_DERIVE)
		a->derive = 1;
	else if (gm_parse_int(v, 0, 1023, &a->dev))
		return gm_error(GM_EXIT_USAGE, "--device: %s", gm_last_error());
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct info_args a = { 0 };
	struct gm_opts_state st;
	struct gm_device_info d;
	int rc = gm_opts_parse(&gm_doc_info, argc, argv, info_option, &a, &st);
	gm_status s;

	if (rc == GM_OPTS_HELP) {
		gm_opts_release(&st);
		gm_cmd_help(stdout, &gm_doc_info);
		return GM_EXIT_OK;
	}
	if (rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "option '%s' needs a value (see 'gpumem info --help')", st.bad);
	else if (rc == GM_OPTS_UNKNOWN || (!rc && st.noperands))
		rc = gm_error(GM_EXIT_USAGE, "unknown option '%s' for info", rc ? st.bad : st.operands[0]);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_info, rc, &st);
	gm_opts_release(&st);
	if (rc)
		return rc;
	if (a.derive && !a.from)
		return gm_error(GM_EXIT_USAGE, "--derive needs --from RUN.json");
	if (a.from)
		return info_from(a.from, a.derive);
	s = gm_gpu_open((int)a.dev, &d);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	gm_device_write(stdout, &d);
	gm_gpu_close();
	return GM_EXIT_OK;
}
