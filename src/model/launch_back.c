/*
 * launch_back.c - rule D11, a launch timed back to back on the same arrays (explain --run's kernel; gm_launch_in's
 * back_to_back), docs/MODEL.md 7.2: the previous launch's lines are in L2, and the share of the launch's lines L2
 * keeps (rule D8's bounds for a clean piece, over the launch's footprint in 128 B lines) reads, fills and writes no
 * DRAM. Its time partner is rule S3 (launch_time.c: the pace of launches so timed, the profile's floor_us).
 * Both need floor_us: without the floor, the kept launches go to L2's time, 2x too fast
 * (results/nvidia-h200/l2keep-ae8ba9b/, docs/log/2026-11-30-model-m60.md); a profile without it: neither.
 */
#include "gpumem/launch.h"
#include "model/model_internal.h"

/* The launch's footprint in L2: its 128 B lines, the lines its requests touch (at most each pattern's span). */
static double footprint_lines(const struct gm_launch_in *in, const struct pat_sum *sums, const struct gm_launch_out *o)
{
	double span = 0;

	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].space == GM_SPACE_GLOBAL && sums[k].any)
			span += (double)(sums[k].hi / GM_LINE_BYTES - sums[k].lo / GM_LINE_BYTES + 1);
	return o->l1_lines < span ? o->l1_lines : span;
}

void gm_rule_d11_kept_lines(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			    struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	double x, q, fill, read;

	(void)ps;
	(void)f;
	if (!in->back_to_back || !(pr->floor_us > 0) || !(pr->l2_bytes > 0))
		return;
	x = footprint_lines(in, sums, o) * GM_LINE_BYTES / pr->l2_bytes;
	q = x <= KEEP_CLEAN_LO ? 1.0 : x >= KEEP_CLEAN_HI ? 0.0 : (KEEP_CLEAN_HI - x) / (KEEP_CLEAN_HI - KEEP_CLEAN_LO);
	if (!(q > 0))
		return;
	fill = q * o->dram_fill_bytes;
	read = q * (o->dram_read_bytes - o->dram_fill_bytes);
	o->l2_kept_bytes = fill + read + q * o->dram_write_bytes;
	o->dram_read_bytes -= fill + read;
	o->dram_fill_bytes -= fill;
	o->dram_write_bytes -= q * o->dram_write_bytes;
	/* not counted as L2 reuse: their round trip stays a DRAM one's (rule T2). A dense float copy of 17-42 MB
	   back to back, latency-limited, ran 1.01-1.12x the DRAM round trip's prediction, not the 4 MiB table's
	   L2 hit (l2keep-ae8ba9b): lines spread over the whole L2, not one hot table */
}
