/*
 * shared.c - shared memory: banks, wavefronts and bank conflicts.
 *
 * 32 banks of 4 bytes; bank = (addr / 4) % 32. Lanes that touch the same
 * 32-bit word share it (a read is broadcast, of writes one wins), so a phase
 * costs as many wavefronts as the most distinct words any one bank must
 * deliver in it. Evidence and the open questions: docs/MODEL.md "Shared memory".
 */
#include <string.h>
#include "model/model_internal.h"

/*
 * The phase rule, the only place it lives (measured: docs/MODEL.md,
 * results/<gpu>/model-vs-counters.csv).
 *
 * The banks deliver 128 B per pass; a phase is a group of consecutive lanes
 * the arbiter serves together, each phase costing the most distinct words any
 * one bank holds. Measured on an H100 (sm_90) with ncu:
 *   loads  <= 8 B: one phase of all 32 lanes. An LDS.64 whose lanes share
 *                  doubles (lane/2, a broadcast) takes 1 wavefront, not 2:
 *                  the two halves of the warp are not served apart.
 *          16 B:   two half-warp phases (0-15, 16-31). A broadcast or
 *                  lane/4 LDS.128 takes 2 wavefronts, not 1 and not 4.
 *   stores <= 4 B: one phase; 8 B: two half-warp phases (an STS.64 at lane/2
 *                  still takes 2); 16 B: four quarter-warp phases (not yet
 *                  distinguished from half-warps by any probe pattern).
 */
int gm_smem_lanes_per_phase(int elem_bytes, enum gm_op op)
{
	if (elem_bytes <= GM_SMEM_BANK_BYTES)
		return GM_WARP_SIZE;
	if (op == GM_OP_LOAD)
		return elem_bytes == 16 ? GM_WARP_SIZE / 2 : GM_WARP_SIZE;
	return GM_SMEM_BANKS * GM_SMEM_BANK_BYTES / elem_bytes;
}

/* The words one lane touches: [first, last]. */
static void lane_words(const struct gm_lane *L, int elem_bytes,
		       int64_t *first, int64_t *last)
{
	*first = L->addr / GM_SMEM_BANK_BYTES;
	*last = (L->addr + elem_bytes - 1) / GM_SMEM_BANK_BYTES;
}

/* Wavefronts of one phase = the most distinct words any one bank holds. */
static int phase_wavefronts(const struct gm_lane *lanes, int count,
			    int elem_bytes)
{
	int64_t words[2 * GM_WARP_SIZE], w, first, last;
	int per_bank[GM_SMEM_BANKS] = { 0 };
	int n = 0, k, ways = 0;

	for (k = 0; k < count; k++) {
		if (!lanes[k].active)
			continue;
		lane_words(&lanes[k], elem_bytes, &first, &last);
		for (w = first; w <= last; w++)
			gm_set_add(words, &n, w);
	}
	for (k = 0; k < n; k++) {
		int b = (int)(words[k] % GM_SMEM_BANKS);

		if (++per_bank[b] > ways)
			ways = per_bank[b];
	}
	return ways;
}

/* 1 when two active lanes touch a common word. */
static int shares_word(const struct gm_lane lanes[GM_WARP_SIZE], int elem_bytes)
{
	int i, j;

	for (i = 0; i < GM_WARP_SIZE; i++) {
		int64_t fi, li, fj, lj;

		if (!lanes[i].active)
			continue;
		lane_words(&lanes[i], elem_bytes, &fi, &li);
		for (j = i + 1; j < GM_WARP_SIZE; j++) {
			if (!lanes[j].active)
				continue;
			lane_words(&lanes[j], elem_bytes, &fj, &lj);
			if (fi <= lj && fj <= li)
				return 1;
		}
	}
	return 0;
}

void gm_shared_counts_of(const struct gm_lane lanes[GM_WARP_SIZE],
			 int elem_bytes, enum gm_op op, struct gm_shared_counts *c)
{
	int per = gm_smem_lanes_per_phase(elem_bytes, op);
	int64_t nactive = 0;
	int lane;

	memset(c, 0, sizeof(*c));
	if (elem_bytes < 1 || elem_bytes > 16 || (elem_bytes & (elem_bytes - 1)))
		return;
	/* a full phase of this width needs this many passes even without conflicts */
	int phase_ideal = per * elem_bytes / (GM_SMEM_BANKS * GM_SMEM_BANK_BYTES);

	if (phase_ideal < 1)
		phase_ideal = 1;
	for (lane = 0; lane < GM_WARP_SIZE; lane += per) {
		int ways = phase_wavefronts(&lanes[lane], per, elem_bytes);
		int k = (ways + phase_ideal - 1) / phase_ideal;

		c->wavefronts += ways;
		if (k > c->max_ways)
			c->max_ways = k;
	}
	for (lane = 0; lane < GM_WARP_SIZE; lane++)
		nactive += lanes[lane].active != 0;
	if (nactive > 0) {
		int64_t bytes = nactive * elem_bytes;
		int64_t pass = GM_SMEM_BANKS * GM_SMEM_BANK_BYTES;

		c->ideal_wavefronts = (bytes + pass - 1) / pass;
	}
	c->bank_conflicts = c->wavefronts > c->ideal_wavefronts ?
			    c->wavefronts - c->ideal_wavefronts : 0;
	c->broadcast = shares_word(lanes, elem_bytes);
}
