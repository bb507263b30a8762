/*
 * profile_scale.c - a profile for a GPU the model never ran on: a measured
 * profile of one GPU carried to another by the ratio of their datasheet
 * figures (docs/MODEL.md 7.7). No constant is fitted to either GPU's cases.
 *
 *   DRAM rates (read, write, copy, half, quarter, sparse) x HBM bandwidth ratio
 *   L1, L2 rates, L1/L2 line, merge rates, blocks  x (SMs x SM clock) ratio: they are the SMs' and the
 *                                                    L2's clock domain, which the datasheet gives as the SMs'
 *   L2 capacity (the measured knee)                 x L2 size ratio
 *   sm_count, sm_clock_mhz                          the target's
 *   round trips (wave_ns, wave_l2_ns), the knee, warp_tail, pages_gps, launch_us, dram_atom_bytes, L1 size
 *                                                   kept: the datasheet says nothing of them
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"

void gm_profile_from_datasheet(const struct gm_profile *base, const struct gm_datasheet *base_ds,
			       const struct gm_datasheet *target_ds, struct gm_profile *out)
{
	double dram = target_ds->hbm_bandwidth_gbs / base_ds->hbm_bandwidth_gbs;
	double sm = (target_ds->sm_count * target_ds->sm_clock_mhz) / (base_ds->sm_count * base_ds->sm_clock_mhz);
	double l2 = target_ds->l2_bytes / base_ds->l2_bytes;

	*out = *base;
	snprintf(out->device, sizeof(out->device), "%s", target_ds->device);
	snprintf(out->source, sizeof(out->source), "profile of %.50s x datasheet ratios %.50s / %.50s", base->device,
		 target_ds->device, base_ds->device);
	snprintf(out->origin, sizeof(out->origin), "from the datasheet of %.60s and the profile of %.60s (%.150s)",
		 target_ds->device, base->device, base->origin);
	out->uuid[0] = 0;
	out->read_gbs *= dram;
	out->write_gbs *= dram;
	out->copy_gbs *= dram;
	out->read_half_gbs *= dram;
	out->read_sparse_gbs *= dram;
	out->read_quarter_gbs *= dram;
	out->write_sparse_gbs *= dram;
	out->l1_gbs *= sm;
	out->l2_read_gbs *= sm;
	out->l2_write_gbs *= sm;
	out->l2_lines_gps *= sm;
	out->l1_lines_gps *= sm;
	out->l2_merge_lines_gps *= sm;
	out->l2_merge_far_lines_gps *= sm;
	out->l2_part_sectors_gps *= sm;
	out->l2_far_lines_gps *= sm;
	out->l2_far_lines16_gps *= sm;
	out->blocks_gps *= sm;
	out->l2_bytes *= l2;
	out->sm_count = (int)target_ds->sm_count;
	out->sm_clock_mhz = target_ds->sm_clock_mhz;
}
