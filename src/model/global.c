/*
 * global.c - global memory: requests, 32 B sectors and 128 B lines (sm_70+).
 *
 * Since Volta one warp-level instruction sends one request to L1TEX whatever
 * the access width; the request costs one sector per distinct 32 B sector
 * that an active lane's bytes [addr, addr + elem_bytes) touch. Loads and
 * stores follow the same rule. Evidence: docs/MODEL.md "Global memory".
 */
#include <string.h>
#include "model/model_internal.h"

/* Lanes' byte ranges, sorted by start; returns how many. */
static int active_ranges(const struct gm_lane lanes[GM_WARP_SIZE],
			 int64_t start[GM_WARP_SIZE])
{
	int n = 0, lane, k;

	for (lane = 0; lane < GM_WARP_SIZE; lane++) {
		if (!lanes[lane].active)
			continue;
		for (k = n; k > 0 && start[k - 1] > lanes[lane].addr; k--)
			start[k] = start[k - 1];
		start[k] = lanes[lane].addr;
		n++;
	}
	return n;
}

/* Bytes covered by the union of the active lanes' ranges. */
static int64_t distinct_bytes(const struct gm_lane lanes[GM_WARP_SIZE],
			      int elem_bytes)
{
	int64_t start[GM_WARP_SIZE], total = 0, end = INT64_MIN;
	int n = active_ranges(lanes, start), k;

	for (k = 0; k < n; k++) {
		int64_t lo = start[k] > end ? start[k] : end;
		int64_t hi = start[k] + elem_bytes;

		if (hi > lo)
			total += hi - lo;
		if (hi > end)
			end = hi;
	}
	return total;
}

/* a / 2^shift as C divides (addresses are not negative after gm_lanes_fill: a shift) */
static inline int64_t unit_of(int64_t a, int shift)
{
	return a >= 0 ? a >> shift : a / ((int64_t)1 << shift);
}

/* Distinct units of 2^shift bytes that the active lanes touch. */
static int64_t distinct_units(const struct gm_lane lanes[GM_WARP_SIZE],
			      int elem_bytes, int shift)
{
	int64_t set[2 * GM_WARP_SIZE];
	int n = 0, lane;

	for (lane = 0; lane < GM_WARP_SIZE; lane++) {
		int64_t u;

		if (!lanes[lane].active)
			continue;
		/* an element of <= 16 B spans at most two 32 B units */
		for (u = unit_of(lanes[lane].addr, shift);
		     u <= unit_of(lanes[lane].addr + elem_bytes - 1, shift); u++)
			gm_sorted_add(set, &n, u);
	}
	return n;
}

void gm_global_counts_of(const struct gm_lane lanes[GM_WARP_SIZE],
			 int elem_bytes, struct gm_global_counts *c)
{
	int64_t nactive = 0;
	int lane;

	memset(c, 0, sizeof(*c));
	if (elem_bytes < 1 || elem_bytes > 16 || (elem_bytes & (elem_bytes - 1)))
		return;
	for (lane = 0; lane < GM_WARP_SIZE; lane++)
		nactive += lanes[lane].active != 0;
	c->requests = nactive > 0;
	c->sectors = distinct_units(lanes, elem_bytes, 5);
	c->lines = distinct_units(lanes, elem_bytes, 7);
	c->bytes_requested = nactive * elem_bytes;
	c->bytes_transferred = c->sectors * GM_SECTOR_BYTES;
	c->min_sectors = (distinct_bytes(lanes, elem_bytes) + GM_SECTOR_BYTES - 1) /
			 GM_SECTOR_BYTES;
	c->efficiency_pct = 0.0;
	if (c->bytes_transferred > 0)
		c->efficiency_pct = 100.0 * (double)c->bytes_requested /
				    (double)c->bytes_transferred;
	if (c->efficiency_pct > 100.0)
		c->efficiency_pct = 100.0; /* broadcasts: several lanes, one copy */
}
