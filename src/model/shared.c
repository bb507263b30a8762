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
 * The phase rule, the only place it lives. Measured on an H100 (sm_90) with
 * ncu; evidence: docs/MODEL.md and results/<gpu>/model-vs-counters.csv.
 *
 * The data path moves 128 B per pass. A load needs passes = ceil(D / 128),
 * where D counts, in every group of lanes whose elements together span 32 B
 * (8 lanes of 4 B, 4 of 8 B, 2 of 16 B), each distinct address once: lanes
 * of one group that read the same element share it, lanes of different
 * groups do not (an LDS.64 at lane/2 or lane/4 takes one pass, at lane%8 or
 * lane%16 two; an LDS.128 broadcast takes two). The warp is then served as
 * that many phases of consecutive lanes (rounded up to 1, 2 or 4), each
 * costing the most distinct words one bank holds in it. Stores never share:
 * 8 B stores go as two half-warps, 16 B as four quarter-warps. Nsight's ideal
 * is the number of passes, so bank conflicts = wavefronts - passes.
 */
#define PASS_BYTES (GM_SMEM_BANKS * GM_SMEM_BANK_BYTES)

int gm_smem_lanes_per_phase(int elem_bytes, enum gm_op op)
{
	(void)op; /* a full warp of distinct addresses, loads and stores alike */
	if (elem_bytes <= GM_SMEM_BANK_BYTES)
		return GM_WARP_SIZE;
	return PASS_BYTES / elem_bytes;
}

/*
 * Bytes the data path moves for lanes [first, first + count): loads share an
 * address inside a 32 B lane group, stores never.
 */
static int64_t data_bytes(const struct gm_lane *lanes, int count, int elem_bytes, enum gm_op op)
{
	int group = op == GM_OP_LOAD ? GM_SECTOR_BYTES / elem_bytes : 1;
	int64_t total = 0;

	for (int g = 0; g < count; g += group) {
		int64_t addrs[GM_WARP_SIZE];
		int n = 0;

		for (int k = g; k < g + group && k < count; k++)
			if (lanes[k].active)
				gm_set_add(addrs, &n, lanes[k].addr);
		total += (int64_t)n * elem_bytes;
	}
	return total;
}

/* Lanes per phase: stores by width; loads by the passes their data needs. */
static int phase_lanes(int64_t passes, int elem_bytes, enum gm_op op)
{
	int phases = 1;

	if (op == GM_OP_STORE)
		return gm_smem_lanes_per_phase(elem_bytes, op);
	while (phases < passes && phases < GM_WARP_SIZE)
		phases *= 2;
	return GM_WARP_SIZE / phases;
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
	int64_t passes;
	int per;

	memset(c, 0, sizeof(*c));
	if (elem_bytes < 1 || elem_bytes > 16 || (elem_bytes & (elem_bytes - 1)))
		return;
	passes = (data_bytes(lanes, GM_WARP_SIZE, elem_bytes, op) + PASS_BYTES - 1) / PASS_BYTES;
	per = phase_lanes(passes, elem_bytes, op);
	/* phases are sized to one pass of data, so a phase's ways are its k-way */
	for (int lane = 0; lane < GM_WARP_SIZE; lane += per) {
		int ways = phase_wavefronts(&lanes[lane], per, elem_bytes);
		int64_t need = (data_bytes(&lanes[lane], per, elem_bytes, op) + PASS_BYTES - 1) / PASS_BYTES;

		/* a phase holding more than one pass of data (a partial warp) needs those passes */
		c->wavefronts += ways > need ? ways : need;
		if (ways > c->max_ways)
			c->max_ways = ways;
	}
	c->ideal_wavefronts = passes;
	c->bank_conflicts = c->wavefronts > passes ? c->wavefronts - passes : 0;
	c->broadcast = shares_word(lanes, elem_bytes);
}
