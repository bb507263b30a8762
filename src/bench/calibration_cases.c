/*
 * calibration_cases.c - the cases `gpumem calibrate` measures the launch model's profile with
 * (include/gpumem/profile.h): calibrate.c derives the profile from them, launch_case.c scores them apart
 * from the cases the profile predicts. One list, read by both, so that neither needs the other for it.
 */
#include <stddef.h>
#include <string.h>
#include "gpumem/profile.h"

const char *const gm_calibrate_selectors[] = {
	"copy.read_b16_tile4", "copy.write_b16_tile4", "copy.v8_b4_tile4", "stride.b16_s008",
	"stride.b16_s016", "stride.b16_s032", "copy.v0_b4", "copy.v1_b8", "copy.table_b4", "copy.table_blk1024_b4", "copy.lines_b4",
	"copy.lines_l1_b4", "copy.scatter_b4", "copy.scatter_far_b4",
	"copy.scatter_blocks_b4", "copy.colstore_b4", "copy.colstore_b16", "copy.sparse_st_b16", "copy.blk64_b4", "copy.blk1024_b4", "copy.pages_b4", "copy.pages_2m_b4",
	"copy.pages_2m_al_b4", "copy.pages_spread_b4", "copy.pages_16m_b4", "copy.start_b4", "copy.floor_b4", "atomics.u32_one", "atomics.f32_one_1m",
	"atomics.u32_lanes32",
	/* of the hierarchy family, the series its profile fields come from (l1_gbs, l1_bytes: l1_ and the long
	   v9 launches that have always been its best version; l2_read_gbs, l2_bytes: l2_; l2_write_gbs: wr_);
	   its other L1 versions and the shared-L2 series took 2.7 of calibrate's 12.4 s and set no field */
	"hierarchy.l1_", "hierarchy.l1v9x16", "hierarchy.l2_", "hierarchy.wr_",
	"latency.l2_004m", "latency.hbm_128m", NULL,
};

int gm_is_calibration_case(const char *name)
{
	for (int k = 0; gm_calibrate_selectors[k]; k++)
		if (strchr(gm_calibrate_selectors[k], '.') && !strcmp(gm_calibrate_selectors[k], name))
			return 1;
	return 0;
}
