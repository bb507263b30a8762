/*
 * verdict.c - one line that says what the access costs and, when it costs
 * more than it must, the fix. Fixes are derived from the lane-to-lane
 * address step when it is constant; a padding suggestion is checked by
 * running the shared model on the padded layout before it is offered.
 */
#include <stdio.h>
#include <string.h>
#include "model/model_internal.h"

#define V(p, ...) snprintf((p)->verdict, sizeof((p)->verdict), __VA_ARGS__)

static const char *plural(int64_t n)
{
	return n == 1 ? "" : "s";
}

/* 1 when at least two lanes are active and all use one address. */
static int all_one_address(const struct gm_prediction *p)
{
	return p->nactive > 1 && p->stride_known && p->stride_bytes == 0;
}

static int64_t lowest_address(const struct gm_prediction *p)
{
	int64_t lo = INT64_MAX;
	int lane;

	for (lane = 0; lane < GM_WARP_SIZE; lane++)
		if (p->lanes[lane].active && p->lanes[lane].addr < lo)
			lo = p->lanes[lane].addr;
	return lo;
}

/* "sectors per request, the minimum", plus a vector-width hint. */
static void global_coalesced(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_global_counts *c = &p->global;
	int eb = a->elem_bytes;

	if (p->nactive == GM_WARP_SIZE && p->stride_known &&
	    p->stride_bytes == eb && eb <= 4 && p->lanes[0].addr % 16 == 0) {
		V(p, "coalesced: %lld sector%s per request, the minimum; each lane %s %d B, "
		  "a 16-byte vector type (%s) would need %dx fewer instructions",
		  (long long)c->sectors, plural(c->sectors),
		  a->op == GM_OP_LOAD ? "reads" : "writes", eb,
		  eb == 4 ? "float4/int4" : "e.g. uint4", 16 / eb);
		return;
	}
	V(p, "coalesced: %lld sector%s per request, the minimum",
	  (long long)c->sectors, plural(c->sectors));
}

static void global_misaligned(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_global_counts *c = &p->global;
	int64_t off = lowest_address(p) % GM_SECTOR_BYTES;

	if (a->base % GM_SECTOR_BYTES)
		V(p, "misaligned by %lld B: %lld sectors instead of %lld; align the base to 32 B",
		  (long long)off, (long long)c->sectors, (long long)c->min_sectors);
	else
		V(p, "misaligned by %lld B: %lld sectors instead of %lld; start the warp "
		  "at a multiple of %d elements (32 B)",
		  (long long)off, (long long)c->sectors, (long long)c->min_sectors,
		  GM_SECTOR_BYTES / a->elem_bytes);
}

static void global_strided(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_global_counts *c = &p->global;
	char ratio[32];

	if (c->sectors % c->min_sectors == 0)
		snprintf(ratio, sizeof(ratio), "%lld",
			 (long long)(c->sectors / c->min_sectors));
	else
		snprintf(ratio, sizeof(ratio), "%.1f",
			 (double)c->sectors / (double)c->min_sectors);
	V(p, "stride %lld elements touches %sx the sectors it needs (%lld vs %lld): "
	  "make consecutive lanes %s consecutive elements",
	  (long long)(p->stride_bytes / a->elem_bytes), ratio,
	  (long long)c->sectors, (long long)c->min_sectors,
	  a->op == GM_OP_LOAD ? "read" : "write");
}

static void verdict_global(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_global_counts *c = &p->global;
	int64_t step = p->stride_bytes < 0 ? -p->stride_bytes : p->stride_bytes;

	if (p->nactive == 0)
		V(p, "no active lane: the instruction issues no request");
	else if (all_one_address(p) && a->op == GM_OP_LOAD)
		V(p, "broadcast: all %d lanes read one address, 1 sector per request",
		  p->nactive);
	else if (all_one_address(p))
		V(p, "all %d lanes write one address: 1 sector, one lane's value lands",
		  p->nactive);
	else if (c->sectors <= c->min_sectors)
		global_coalesced(a, p);
	else if (p->stride_known && step == a->elem_bytes)
		global_misaligned(a, p);
	else if (p->stride_known)
		global_strided(a, p);
	else
		V(p, "scattered: %lld sectors per request where %lld would do; "
		  "let neighbouring lanes touch neighbouring addresses",
		  (long long)c->sectors, (long long)c->min_sectors);
}

/* Largest row step (bytes) for which a padding is searched: far past any shared memory. */
#define PAD_SEARCH_MAX ((int64_t)1 << 40)

static int first_active(const struct gm_prediction *p)
{
	int lane;

	for (lane = 0; lane < GM_WARP_SIZE; lane++)
		if (p->lanes[lane].active)
			return lane;
	return 0;
}

/*
 * Bank conflicts of the active lanes re-laid with a step of `step` bytes
 * from the first active lane. Moving every lane by a multiple of 128 B keeps
 * banks and shared words, so the layout starts below 128 B (no overflow) and
 * negative steps are lifted by such multiples.
 */
static int64_t conflicts_with_step(const struct gm_prediction *p,
				   int elem_bytes, enum gm_op op, int64_t step)
{
	struct gm_lane lanes[GM_WARP_SIZE];
	struct gm_shared_counts c;
	int first = first_active(p), lane;
	int64_t origin = p->lanes[first].addr % GM_LINE_BYTES, low;

	low = origin + (step < 0 ? (GM_WARP_SIZE - 1 - first) * step : 0);
	if (low < 0)
		origin += (-low + GM_LINE_BYTES - 1) / GM_LINE_BYTES * GM_LINE_BYTES;
	memcpy(lanes, p->lanes, sizeof(lanes));
	for (lane = first; lane < GM_WARP_SIZE; lane++)
		lanes[lane].addr = origin + (lane - first) * step;
	gm_shared_counts_of(lanes, elem_bytes, op, &c);
	return c.bank_conflicts;
}

/* The row length (elements, 1..8 more than now) that removes every conflict; 0 if none. */
static int64_t padded_row(const struct gm_prediction *p, int elem_bytes, enum gm_op op)
{
	int64_t row = p->stride_bytes / elem_bytes;
	int64_t dir = row < 0 ? -1 : 1;
	int64_t pad;

	if (row == 0 || p->stride_bytes > PAD_SEARCH_MAX ||
	    p->stride_bytes < -PAD_SEARCH_MAX)
		return 0;
	for (pad = 1; pad <= 8; pad++)
		if (conflicts_with_step(p, elem_bytes, op,
					(row + dir * pad) * elem_bytes) == 0)
			return row + dir * pad;
	return 0;
}

static void shared_conflict(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_shared_counts *c = &p->shared;
	int64_t row = p->stride_known ? padded_row(p, a->elem_bytes, a->op) : 0;
	int64_t bytes = (row < 0 ? -row : row) * a->elem_bytes;
	char head[96];

	snprintf(head, sizeof(head), "%d-way bank conflict: %lld wavefronts instead of %lld",
		 c->max_ways, (long long)c->wavefronts, (long long)c->ideal_wavefronts);
	if (row == 0)
		V(p, "%s; lanes of one phase hit different words of one bank: "
		  "pad the rows or XOR-swizzle the index", head);
	else if (bytes % GM_SMEM_BANK_BYTES == 0)
		V(p, "%s; pad the row to %lld elements (stride %lld words) or "
		  "XOR-swizzle the column", head, (long long)(row < 0 ? -row : row),
		  (long long)(bytes / GM_SMEM_BANK_BYTES));
	else
		V(p, "%s; pad the row to %lld elements (stride %lld B) or "
		  "XOR-swizzle the column", head, (long long)(row < 0 ? -row : row),
		  (long long)bytes);
}

static void verdict_shared(const struct gm_access *a, struct gm_prediction *p)
{
	const struct gm_shared_counts *c = &p->shared;
	const char *wf = c->wavefronts == 1 ? "wavefront" : "wavefronts";

	if (p->nactive == 0)
		V(p, "no active lane: no wavefront");
	else if (all_one_address(p) && a->op == GM_OP_LOAD)
		V(p, "broadcast: all lanes read one %s, %lld %s",
		  a->elem_bytes <= 4 ? "word" : "address", (long long)c->wavefronts, wf);
	else if (all_one_address(p))
		V(p, "all lanes write one %s: %lld %s, one lane's value lands",
		  a->elem_bytes <= 4 ? "word" : "address", (long long)c->wavefronts, wf);
	else if (c->bank_conflicts == 0)
		V(p, "conflict-free: %lld %s, the ideal for %d lane%s of %d B",
		  (long long)c->wavefronts, wf, p->nactive, plural(p->nactive),
		  a->elem_bytes);
	else
		shared_conflict(a, p);
}

void gm_verdict(const struct gm_access *a, struct gm_prediction *p)
{
	if (a->space == GM_SPACE_GLOBAL)
		verdict_global(a, p);
	else
		verdict_shared(a, p);
}
