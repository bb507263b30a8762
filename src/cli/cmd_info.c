/*
 * cmd_info.c - `gpumem info [--device N] [--from RUN.json]`: the device and
 * its peak bandwidth; with --from, the device of a saved run and the measured
 * spec sheet derived from it (no GPU needed).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/gpu.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

static int info_from(const char *path)
{
	struct gm_run_result r;

	if (gm_json_read(path, &r))
		return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
	if (r.have_device)
		gm_device_write(stdout, &r.dev);
	if (!gm_spec_write(stdout, &r))
		printf("\nno measured spec sheet in '%s' (run e.g. 'gpumem run hierarchy latency smem')\n", path);
	gm_result_release(&r);
	return GM_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	struct gm_device_info d;
	const char *from = NULL;
	long dev = 0;
	gm_status s;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: gpumem info [--device N] [--from RUN.json]\n");
			return GM_EXIT_OK;
		}
		if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			if (gm_parse_int(argv[++i], 0, 1023, &dev))
				return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
			continue;
		}
		if (!strcmp(argv[i], "--from") && i + 1 < argc) {
			from = argv[++i];
			continue;
		}
		return gm_error(GM_EXIT_USAGE, "unknown option '%s' for info", argv[i]);
	}
	if (from)
		return info_from(from);
	s = gm_gpu_open((int)dev, &d);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	gm_device_write(stdout, &d);
	gm_gpu_close();
	return GM_EXIT_OK;
}
