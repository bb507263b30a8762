/*
 * check_run.h - the GPU side of `gpumem check` (check_run.c): the check's
 * cases through the normal runner on one device, NVML counters before and
 * after with a 100 ms watch (XID events, throttle reasons, PCIe link under
 * load), and the burn. cmd_check.c judges and writes what it returns.
 */
#ifndef GPUMEM_CLI_CHECK_RUN_H
#define GPUMEM_CLI_CHECK_RUN_H

#include "gpumem/check.h"

struct check_opts {
	int quick, full;
	double burn_s;              /* 0 = no burn */
	const char *only;           /* --only: comma-separated line ids; NULL = every line of the tier */
	volatile int *stop;         /* SIGINT/SIGTERM */
};

/*
 * Check device `index`: r gets the run (r initialised by the caller, its
 * command/started filled), c the counters, burn (when o->burn_s) the burn.
 * Returns GM_OK, GM_ERR_INTERRUPTED (what ran is in r, c, burn), or the
 * status that kept the device from running (no device, CUDA error).
 */
/* 1 when line id is in the comma-separated list (NULL: every line). */
int check_line_listed(const char *list, const char *id);

gm_status check_device(int index, const struct check_opts *o, struct gm_run_result *r, struct gm_check_counters *c,
		       struct gm_burn *burn);

#endif
