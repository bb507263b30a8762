/* launch_fixture.h - the test profile and the copy launch test_launch.c, test_launch_time.c and test_launch_profile.c build on. */
#ifndef GPUMEM_TEST_LAUNCH_FIXTURE_H
#define GPUMEM_TEST_LAUNCH_FIXTURE_H

#include <stdio.h>
#include <string.h>
#include "gpumem/launch.h"
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
	p.read_quarter_gbs = 2100; /* rule D3 at 256 B (stride.b16_s016) */
	p.l2_read_gbs = 1e6;
	p.l2_write_gbs = 1e6;
	p.l1_gbs = 1e6;
	return p;
}

/* out[gid] = in[INDEX]: a load of elem bytes at INDEX and a store at gid, blocks of 256, n threads. */
static inline void launch_of(const char *index, int elem, int64_t n, struct gm_access pats[2], struct gm_launch_in *in)
{
	memset(pats, 0, 2 * sizeof(pats[0]));
	memset(in, 0, sizeof(*in));
	pats[0].space = pats[1].space = GM_SPACE_GLOBAL;
	pats[0].op = GM_OP_LOAD;
	pats[1].op = GM_OP_STORE;
	pats[0].elem_bytes = pats[1].elem_bytes = elem;
	pats[0].index = index;
	pats[1].index = "gid";
	in->pats = pats;
	in->npats = 2;
	in->block[0] = 256;
	in->block[1] = in->block[2] = 1;
	in->n_threads = n;
}

#endif
