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
 * HYPOTHESIS - the phase rule, the only place it lives.
 *
 * The banks deliver 128 B per pass. Accesses of <= 4 B are served as one
 * phase of all 32 lanes; 8 B accesses as two half-warp phases (lanes 0-15,
 * 16-31) and 16 B accesses as four quarter-warp phases (0-7, 8-15, ...), each
 * phase counted on its own. Not in NVIDIA's current documentation; the GPU
 * probe (tests/gpu) checks it. Known doubt: hardware may merge phases whose
 * lanes broadcast (e.g. two half-warps reading the same words); this rule
 * never merges.
 */
int gm_smem_lanes_per_phase(int elem_bytes)
{
	if (elem_bytes <= GM_SMEM_BANK_BYTES)
		return GM_WARP_SIZE;
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
			 int elem_bytes, struct gm_shared_counts *c)
{
	int per = gm_smem_lanes_per_phase(elem_bytes);
	int64_t nactive = 0;
	int lane;

	memset(c, 0, sizeof(*c));
	if (elem_bytes < 1 || elem_bytes > 16 || (elem_bytes & (elem_bytes - 1)))
		return;
	for (lane = 0; lane < GM_WARP_SIZE; lane += per) {
		int ways = phase_wavefronts(&lanes[lane], per, elem_bytes);

		c->wavefronts += ways;
		if (ways > c->max_ways)
			c->max_ways = ways;
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
