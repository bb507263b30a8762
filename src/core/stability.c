/*
 * stability.c - which figures move between processes, by mechanism (gpumem/result.h, docs/METHODOLOGY.md
 * "Between processes"). The rules name mechanisms, not cases: the ten-run soaks (results/<gpu>/soak-default/)
 * are their evidence, and a case that moves without one of them stays unexplained there.
 */
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/result.h"

static int fam(const struct gm_case_result *c, const char *f)
{
	return !strcmp(c->family, f);
}

const char *gm_between_processes(const struct gm_case_result *c, int64_t l2_bytes, const char **why)
{
	const char *cls = NULL, *w = NULL;
	double ws = (double)c->traffic.working_set;

	if (c->timing == GM_TIME_HOST) {
		cls = "host";
		w = "host-timed: the OS and the driver's host paths set it, and they differ from process to process";
	} else if (fam(c, "transfer") || fam(c, "managed") || (fam(c, "overlap") && strcmp(c->label, "stage_kernel"))) {
		cls = "link";
		w = "crosses the host link, which the host and other tenants share: its rate dips for tenths of a second";
	} else if (fam(c, "gemm") && !strncmp(c->label, "tc_", 3)) {
		cls = "power";
		w = "tensor-core GEMM at the board's power limit: its clock follows temperature and power from run to run";
	} else if ((fam(c, "copy") && strstr(c->label, "pages")) || (fam(c, "latency") && !strncmp(c->label, "tlb_", 4))) {
		cls = "placement";
		w = "page translation: the TLB's reach depends on the physical pages this process got";
	} else if (fam(c, "hierarchy") && !strncmp(c->label, "l2", 2) && l2_bytes > 0 && ws >= 0.6 * (double)l2_bytes &&
		   ws <= 1.2 * (double)l2_bytes) {
		cls = "placement";
		w = "footprint near the L2's capacity: which lines share a set depends on the physical pages this process got";
	}
	if (why)
		*why = w;
	return cls;
}
