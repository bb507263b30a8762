/* launch_fixture.h - the test profile test_launch.c and test_launch_profile.c build on. */
#ifndef GPUMEM_TEST_LAUNCH_FIXTURE_H
#define GPUMEM_TEST_LAUNCH_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"

/* Round numbers so every expected time is a hand calculation. */
static inline struct gm_profile prof(void)
{
	struct gm_profile p;

	memset(&p, 0, sizeof(p));
	snprintf(p.device, sizeof(p.device), "test GPU");
	p.sm_count = 100;
	p.sm_clock_mhz = 1000;
	p.l1_bytes = 256 * 1024;
	p.l2_bytes = 50e6;
	p.dram_atom_bytes = 64;
	p.read_gbs = 3000;
	p.write_gbs = 3000;
	p.copy_gbs = 3000; /* no turnaround */
	p.read_half_gbs = 2500;
	p.read_sparse_gbs = 2000;
	p.l2_read_gbs = 1e6;
	p.l2_write_gbs = 1e6;
	p.l1_gbs = 1e6;
	return p;
}

#endif
