/*
 * bottleneck.c - what limits a case, read from its counters (pure C).
 *
 * Rules (docs/METHODOLOGY.md, "Bottleneck rules"):
 *  - each level's throughput as % of its peak: DRAM (dram__throughput),
 *    L2 (lts__throughput), L1/shared (l1tex__throughput), issue slots
 *    (smsp__issue_active);
 *  - primary = the busiest level when it reaches GM_BOTTLENECK_BUSY_PCT,
 *    else "latency" (no unit is near its peak: too few accesses in flight);
 *  - secondary = the next busiest level above 10 %;
 *  - the advice sentence comes from the model's verdict (useful share of
 *    moved sectors), the counted bank conflicts, occupancy and the primary.
 * A case with nothing to count (host-timed, copy engine, self-timed) gets
 * its line from what it is (gm_bottleneck_uncounted).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/counters.h"

static const char *const level_names[GM_NLEVELS] = { "DRAM", "L2", "L1/shared", "issue" };

/* Counted vs predicted sectors per request beyond the tolerance (only where both exist). */
static int spr_differs(double counted, double pred)
{
	return pred > 0 && counted > 0 && fabs(counted / pred - 1.0) * 100.0 > GM_COUNTERS_SPR_TOL_PCT;
}

void gm_counters_check(struct gm_counters *c, double claimed, int check_dram, double pred_ld, double pred_st)
{
	c->claimed_bytes = 0;
	c->dram_vs_claim_pct = 0;
	c->dram_mismatch = 0;
	if (c->state != GM_COUNTERS_OK)
		return;
	if (check_dram && claimed > 0) {
		c->claimed_bytes = claimed;
		c->dram_vs_claim_pct = 100.0 * ((c->dram_read_bytes + c->dram_write_bytes) / claimed - 1.0);
		c->dram_mismatch = fabs(c->dram_vs_claim_pct) > GM_COUNTERS_DRAM_TOL_PCT;
	}
	c->pred_ld_spr = pred_ld;
	c->pred_st_spr = pred_st;
	c->spr_mismatch = spr_differs(gm_counters_spr(c, 0), pred_ld) || spr_differs(gm_counters_spr(c, 1), pred_st);
}

/* Index of the largest pct[] other than skip (-1 = none). */
static int busiest(const double *pct, int skip)
{
	int best = -1;

	for (int i = 0; i < GM_NLEVELS; i++)
		if (i != skip && (best < 0 || pct[i] > pct[best]))
			best = i;
	return best;
}

static double conflicts_per_inst(const struct gm_counters *c)
{
	double inst = c->smem_ld_inst + c->smem_st_inst;

	return inst > 0 ? (c->smem_ld_conflicts + c->smem_st_conflicts) / inst : 0;
}

static void advise(struct gm_bottleneck *b, const struct gm_counters *c, double eff, int smem_case, int prim)
{
	double cpi = conflicts_per_inst(c);

	if (prim == GM_LEVEL_L1 && cpi >= 0.5)
		snprintf(b->advice, sizeof(b->advice), "shared memory is the limit with %.1f bank conflicts per "
			 "instruction: pad or swizzle the shared array so a warp's words fall in distinct banks", cpi);
	else if ((prim == GM_LEVEL_DRAM || prim == GM_LEVEL_L2) && eff > 0 && eff < 90)
		snprintf(b->advice, sizeof(b->advice), "the model finds only %.0f %% of the moved sectors useful: "
			 "coalesce the warp's accesses (contiguous lanes, aligned base) before anything else", eff);
	else if (prim == GM_LEVEL_DRAM)
		snprintf(b->advice, sizeof(b->advice), "at the DRAM roof with useful sectors: only moving fewer "
			 "bytes (reuse through shared memory or L2, narrower types, fusion) makes it faster");
	else if (prim == GM_LEVEL_L2)
		snprintf(b->advice, sizeof(b->advice), "L2 bandwidth limits: the working set lives in L2; tile for "
			 "L1/shared reuse to cut L2 traffic");
	else if (prim == GM_LEVEL_L1)
		snprintf(b->advice, sizeof(b->advice), "%s", smem_case ?
			 "shared-memory bandwidth limits without conflicts: wider accesses (64/128-bit) move more per "
			 "wavefront" : "L1 throughput limits: fewer, wider requests or register reuse help");
	else if (prim == GM_LEVEL_ISSUE)
		snprintf(b->advice, sizeof(b->advice), "instruction issue limits: fewer instructions per byte "
			 "(vector loads, less index arithmetic, unrolling)");
	else if (c->occupancy_pct > 0 && c->occupancy_pct < 50)
		snprintf(b->advice, sizeof(b->advice), "latency-bound at %.0f %% achieved occupancy: more warps "
			 "or more independent loads per thread (ILP) to keep requests in flight", c->occupancy_pct);
	else
		snprintf(b->advice, sizeof(b->advice), "latency-bound: no unit is near its peak; more independent "
			 "accesses in flight per warp (ILP), or a larger launch, would help");
}

void gm_bottleneck_compute(struct gm_counters *c, double model_eff_pct, int smem_case)
{
	struct gm_bottleneck *b = &c->bn;
	int p, q;

	memset(b, 0, sizeof(*b));
	if (c->state != GM_COUNTERS_OK)
		return;
	b->pct[GM_LEVEL_DRAM] = c->dram_pct;
	b->pct[GM_LEVEL_L2] = c->l2_pct;
	b->pct[GM_LEVEL_L1] = c->l1_pct;
	b->pct[GM_LEVEL_ISSUE] = c->issue_pct;
	b->valid = 1;
	b->counted = 1;
	p = busiest(b->pct, -1);
	q = busiest(b->pct, p);
	if (b->pct[p] >= GM_BOTTLENECK_BUSY_PCT) {
		snprintf(b->primary, sizeof(b->primary), "%s", level_names[p]);
		if (q >= 0 && b->pct[q] > 10)
			snprintf(b->secondary, sizeof(b->secondary), "%s", level_names[q]);
	} else {
		snprintf(b->primary, sizeof(b->primary), "latency");
		if (b->pct[p] > 10)
			snprintf(b->secondary, sizeof(b->secondary), "%s", level_names[p]);
		p = -1;
	}
	advise(b, c, model_eff_pct, smem_case, p);
}

/* What limits a case no counter sees, by what it is (rule 4, METHODOLOGY.md "Bottleneck rules"). */
enum uncounted { U_CHASE, U_HOST, U_SMALL_COPY, U_PEER, U_PCIE, U_ENGINE };

static const struct {
	const char *primary, *advice;
} uncounted_rules[] = {
	[U_CHASE] = { "latency", "latency by construction: a dependent chase timed in the kernel keeps one access "
		      "in flight; real kernels hide this latency with more warps and independent accesses" },
	[U_HOST] = { "host", "driver and host time, not memory traffic: keep allocation out of loops, or reuse "
		     "memory through a stream-ordered pool (cudaMallocAsync with a release threshold)" },
	[U_SMALL_COPY] = { "latency", "a small copy pays the per-call cost of the driver and the copy engine, not "
			   "the link's bandwidth: batch small transfers into fewer, larger ones" },
	[U_PEER] = { "link", "copies between GPUs run over the NVLink or PCIe path between them, which limits "
		     "them: compare with the link's peak in the derived results" },
	[U_PCIE] = { "link", "copy-engine transfers over PCIe: the link limits them (the pcie derived results give "
		     "their share of its peak); pinned buffers approach it, pageable ones add a host copy" },
	[U_ENGINE] = { "copy engine", "its work runs on a copy engine, outside the SMs' counters: the DRAM or link "
		       "it crosses limits it; compare it with the family's own kernels" },
};

void gm_bottleneck_uncounted(struct gm_counters *c, const char *family, int self_timed, int time_per_op)
{
	struct gm_bottleneck *b = &c->bn;
	int xfer = !strcmp(family, "transfer") || !strcmp(family, "overlap") || !strcmp(family, "p2p");
	enum uncounted u;

	if (c->state == GM_COUNTERS_OK)
		return;
	if (self_timed)
		u = U_CHASE;
	else if (!strcmp(family, "alloc"))
		u = U_HOST;
	else if (xfer && time_per_op)
		u = U_SMALL_COPY;
	else if (!strcmp(family, "p2p"))
		u = U_PEER;
	else
		u = xfer ? U_PCIE : U_ENGINE;
	memset(b, 0, sizeof(*b));
	b->valid = 1;
	snprintf(b->primary, sizeof(b->primary), "%s", uncounted_rules[u].primary);
	snprintf(b->advice, sizeof(b->advice), "%s", uncounted_rules[u].advice);
}
