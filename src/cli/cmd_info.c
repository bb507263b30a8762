/* cmd_info.c - `gpumem info [--device N]`: the device and its peak bandwidth. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/gpu.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

int cmd_info(int argc, char **argv)
{
	struct gm_device_info d;
	long dev = 0;
	gm_status s;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: gpumem info [--device N]\n");
			return GM_EXIT_OK;
		}
		if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			if (gm_parse_int(argv[++i], 0, 1023, &dev))
				return gm_error(GM_EXIT_USAGE, "%s", gm_last_error());
			continue;
		}
		return gm_error(GM_EXIT_USAGE, "unknown option '%s' for info", argv[i]);
	}
	s = gm_gpu_open((int)dev, &d);
	if (s)
		return gm_error(gm_exit_code(s), "%s", gm_last_error());
	gm_device_write(stdout, &d);
	gm_gpu_close();
	return GM_EXIT_OK;
}
