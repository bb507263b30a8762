/*
 * trace_time_merge.c - rule WM, a record's pieces that together write whole sectors (docs/TRACE.md, "The kernel's
 * prediction"): the store sectors L2 writes when a thread's sibling stores fill each other's gaps.
 */
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define WM_MAX_PIECES 64
#define WM_MAX_PIECE 4           /* bytes a lane's piece, at most: the merges measured (1 and 4 B pieces) */
#define WM_SASS_BYTES 16         /* one SASS instruction (sm_70 and later): siblings back to back */
#define WM_MAX_SPAN 512          /* bytes a warp's pieces span, at most: lanes 16 B apart (probe K = 4) */

struct wm_byte {
	int64_t sector;
	uint32_t mask;               /* the sector's bytes this piece's lanes write */
	int piece;
};

static int by_sector(const void *a, const void *b)
{
	const struct wm_byte *x = a, *y = b;

	return x->sector < y->sector ? -1 : x->sector > y->sector ? 1 : x->piece - y->piece;
}

/* piece q's sample of s's warp at s's iteration, or NULL */
static const struct gm_trace_sample *same_warp(const struct gm_trace_instr *y, const struct gm_trace_sample *s)
{
	for (int q = 0; q < y->nsamples; q++) {
		const struct gm_trace_sample *t = &y->samples[q];
		if (t->block[0] == s->block[0] && t->block[1] == s->block[1] && t->block[2] == s->block[2] &&
		    t->warp == s->warp && t->iter == s->iter)
			return t;
	}
	return NULL;
}

/* the bytes from the first sector's start to the last's end of b[0..n) */
static int64_t b_span(const struct wm_byte *b, int n)
{
	int64_t lo = b[0].sector, hi = b[0].sector;

	for (int i = 1; i < n; i++)
		lo = b[i].sector < lo ? b[i].sector : lo, hi = b[i].sector > hi ? b[i].sector : hi;
	return (hi - lo + 1) * GM_SECTOR_BYTES;
}

/* the sectors (with their written bytes) of warp sample t of piece p into b; the count added */
static int piece_bytes(const struct gm_trace_sample *t, int size, int p, struct wm_byte *b)
{
	int n = 0;

	for (int l = 0; l < GM_WARP_SIZE; l++)
		for (int64_t a = t->addr[l], end = a + size; (t->have >> l & 1) && a < end;) {
			int64_t s = a >> 5, stop = (s + 1) << 5 < end ? (s + 1) << 5 : end;
			uint32_t m = (uint32_t)((stop - a) >= 32 ? 0xffffffffu : ((1u << (stop - a)) - 1) << (a & 31));
			b[n++] = (struct wm_byte){ s, m, p };
			a = stop;
		}
	return n;
}

/*
 * The sector writes L2 makes of group g[0..m) over those its pieces' requests make, over the sampled warps that
 * every piece was sampled in at the same iteration: a request writes each sector it touches once; a sector the
 * pieces of one warp write whole between them is written once, one written partly once by each piece that
 * touches it (rule L4's whole sector, unmerged). 1 where no warp was sampled in every piece.
 */
static double merged_share(const struct gm_trace_kernel *k, const int *g, int m)
{
	const struct gm_trace_instr *a = k->ins[g[0]].in;
	struct wm_byte *b = malloc(sizeof(*b) * (size_t)m * GM_WARP_SIZE * 2);
	double before = 0, after = 0;

	for (int p = 0; b && p < a->nsamples; p++) {
		int n = 0, q = 0;
		for (; q < m; q++) {
			const struct gm_trace_sample *t = same_warp(k->ins[g[q]].in, &a->samples[p]);
			if (!t)
				break;
			n += piece_bytes(t, a->size, q, b + n);
		}
		if (q < m || !n || b_span(b, n) > WM_MAX_SPAN)
			continue;
		qsort(b, (size_t)n, sizeof(*b), by_sector);
		for (int i = 0, j; i < n; i = j) {
			uint32_t all = 0;
			int pieces = 0;
			for (j = i; j < n && b[j].sector == b[i].sector; j++) {
				all |= b[j].mask;
				pieces += j == i || b[j].piece != b[j - 1].piece;
			}
			before += pieces;
			after += all == 0xffffffffu ? 1 : pieces;
		}
	}
	free(b);
	return before > 0 ? after / before : 1;
}

static int merge_store(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_STORE && x->fit.map.known && !x->fit.approx &&
	       x->in->nsamples > 0 && x->in->size <= WM_MAX_PIECE;
}

/* the store of x's walk (rule M's group) right after instruction `at` in the SASS, or -1 */
static int next_piece(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, int at)
{
	for (int j = 0; j < k->nins; j++)
		if (merge_store(&k->ins[j]) && k->ins[j].in->pc == k->ins[at].in->pc + WM_SASS_BYTES &&
		    tk_same_walk(x, &k->ins[j]))
			return j;
	return -1;
}

/*
 * The global stores' measured sector bytes (sectors x 32; atomics apart), each run of back-to-back stores of one
 * record's walk (rule M's group: the same map of the ids, offsets aside) at the share of its sector writes that
 * L2 makes of them (merged_share); *raw: the same without the merge.
 */
double tk_store_sector_bytes(const struct gm_trace_kernel *k, double *raw)
{
	double st = 0;

	*raw = 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int g[WM_MAX_PIECES], m = 1, j, head = 1;
		if (x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_STORE)
			continue;
		*raw += x->bytes;
		for (j = 0; j < k->nins && merge_store(x) && head; j++)   /* a piece of a run before it: counted there */
			head = !(merge_store(&k->ins[j]) && k->ins[j].in->pc + WM_SASS_BYTES == x->in->pc &&
				 tk_same_walk(x, &k->ins[j]));
		if (!head)
			continue;
		double b = x->bytes, rest = 0;
		for (int at = g[0] = i; merge_store(x) && (j = next_piece(k, x, at)) >= 0; at = j)
			if (m < WM_MAX_PIECES)
				g[m++] = j, b += k->ins[j].bytes;
			else
				rest += k->ins[j].bytes;   /* past the table: unmerged */
		st += (m > 1 ? b * merged_share(k, g, m) : b) + rest;
	}
	return st;
}

/*
 * Rule WM (trace_rejoin.c's tk_whole_sectors calls it first): the launch model's rule L4 writes whole sectors a
 * request, so the pieces of a record stored by a thread's sibling instructions (float3 as three 4 B stores, lanes
 * 12 B apart) cost L2 a sector each piece: three times the sectors of the same bytes stored as three planes.
 * Measured (probe-merge-store-240908c): K 4 B stores 4K B apart take the time of K planes and L2 writes the
 * same sectors, within 4.4 %: the pieces of a sector that one warp's siblings write whole between them merge
 * before L2 writes it. The model's L2 store bytes are scaled by the merged share of the measured sectors
 * (tk_store_sector_bytes), L2's sector time taken again where it was not its line lookups, and the time joined.
 * Sectors nobody fills keep their sector a piece. No constant.
 */
void tk_merged_stores(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	double raw, st = tk_store_sector_bytes(k, &raw);

	if (!(raw > 0) || !(st < raw) || o->l2_by_lines || !(o->l2_store_bytes > 0))
		return;
	o->l2_store_bytes *= st / raw;
	double t = (o->l2_load_sectors * GM_SECTOR_BYTES / prof->l2_read_gbs + o->l2_store_bytes / prof->l2_write_gbs) / 1e6;
	if (!(t < o->t_l2_ms))
		return;
	o->t_l2_ms = t;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}
