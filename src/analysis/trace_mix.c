/*
 * trace_mix.c - the launch's alignment mix for the check (docs/TRACE.md, "The check"): where a fitted global
 * access puts each warp at another offset in its 32 B sector (rows of an odd pitch: 509 halves = 1018 B, so a
 * row's start moves by 26 B mod 32 and comes back every 16 rows), the sampled warps' offsets are not the
 * launch's. The mix is the share of the launch's executions (every block, warp and loop iteration the map
 * covers) whose lane 0 starts at each byte of a sector; the check counts each sampled warp, with its own mask,
 * at each of those offsets.
 */
#include <math.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define MIX_CAP 65536   /* executions looked at; past it a fixed pseudo-random choice of them */

/*
 * How a thread variable moves inside a warp: v = v0 + d(lane) with d the same in every warp, 0 <= d < p and
 * v0 a multiple of p (returns p); 0 when v does not move inside a warp; -1 when neither holds.
 */
static int64_t lane_period(const struct gm_trace_launch *l, int var)
{
	int64_t bx = l->block[0], bxy = bx * l->block[1], tpb = bxy * l->block[2];

	switch (var) {
	case GM_TV_GID:
		return tk_gcd64(tpb, GM_WARP_SIZE) == GM_WARP_SIZE ? GM_WARP_SIZE : -1;
	case GM_TV_TX:
		return bx % GM_WARP_SIZE == 0 ? GM_WARP_SIZE : GM_WARP_SIZE % bx == 0 ? bx : -1;
	case GM_TV_TY:
		if (bx % GM_WARP_SIZE == 0)
			return 0;
		return GM_WARP_SIZE % bx == 0 && bxy % GM_WARP_SIZE == 0 ? GM_WARP_SIZE / bx : -1;
	case GM_TV_TZ:
		if (bxy % GM_WARP_SIZE == 0)
			return 0;
		return GM_WARP_SIZE % bxy == 0 && tpb % GM_WARP_SIZE == 0 ? GM_WARP_SIZE / bxy : -1;
	default:
		return 0;   /* block ids and the iteration: one value a warp */
	}
}

/*
 * 1 when every warp's lanes sit at the same offsets from its lane 0 (the shape the samples show is every
 * warp's, only shifted): each mode's (v / div) % size either is one value a warp or moves by the same steps in
 * every warp. tx on a block of 16 columns repeats within the warp (p = 16: tx = lane % 16 in every warp).
 */
int tm_shape_fixed(const struct gm_trace_launch *l, const struct gm_trace_map *m)
{
	for (int k = 0; k < m->nmodes; k++) {
		const struct gm_trace_mode *d = &m->mode[k];
		int64_t p = lane_period(l, d->var);
		if (!p || d->div <= 0)
			continue;
		if (p < 0)
			return 0;
		if (d->div % p == 0)
			continue;   /* one value a warp */
		if (p % d->div == 0 && (!d->size || (p / d->div) % d->size == 0))
			continue;   /* the same steps in every warp */
		return 0;
	}
	return 1;
}

static uint64_t mix_hash(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ x >> 27) * 0x94d049bb133111ebull;
	return x ^ x >> 31;
}

/* The byte of its 32 B sector where the map puts lane 0 of warp s (its block, warp and iteration). */
int tm_lane0_offset(const struct gm_trace_launch *l, const struct gm_trace_map *m, const struct gm_trace_sample *s)
{
	int64_t v[GM_TV_N];

	tf_vars_of(l, s, 0, v);
	for (int i = 0; i < GM_TV_N; i++)
		if (m->open >> i & 1)
			v[i] = m->open_v0[i];
	int64_t a = m->base + gm_trace_map_eval(m, v) * m->elem_bytes;
	return (int)(((a % GM_SECTOR_BYTES) + GM_SECTOR_BYTES) % GM_SECTOR_BYTES);
}

/* 1 when the loop moves lane 0 within its sector (a step of a whole number of sectors does not). */
static int iter_moves(const struct gm_trace_map *m)
{
	if (m->niter_tab > 0 || (m->iter_step * m->elem_bytes) % GM_SECTOR_BYTES)
		return 1;
	for (int k = 0; k < m->nmodes; k++) {
		const struct gm_trace_mode *d = &m->mode[k];
		if (d->var == GM_TV_ITER && (d->div != 1 || d->size || (d->stride * m->elem_bytes) % GM_SECTOR_BYTES))
			return 1;
	}
	return 0;
}

/*
 * 1 when the samples never varied an id that takes more than one value in the launch and their lanes a request
 * are not the launch's (within 1 %): the warps not sampled are masked otherwise (a pitched copy's samples all in
 * blockIdx.x 0, the launch's last column of blocks partly masked), and the samples' masks cannot stand for them.
 */
static int open_ids(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f)
{
	int64_t n[GM_TV_N] = { l->block[0], l->block[1], l->block[2], l->grid[0], l->grid[1], l->grid[2], f->iters,
			       2 };
	double lanes = 0, warps = 0;
	int open = 0;

	for (int v = 0; v < GM_TV_N; v++)
		open |= (f->map.open >> v & 1) && n[v] > 1;
	if (!open)
		return 0;
	for (int i = 0; i < in->nsamples; i++)
		if (in->samples[i].have) {
			lanes += __builtin_popcount(in->samples[i].mask);
			warps++;
		}
	return !(warps > 0 && in->requests > 0 && in->thread_accesses > 0) ||
	       fabs(lanes / warps / (in->thread_accesses / in->requests) - 1) > 0.01;
}

/*
 * The launch's mix: w[r] = the share of its executions whose lane 0 starts at byte r of a sector. Returns 0,
 * or -1 where it does not apply (no map, not global, a warp's shape that moves, an id the samples never varied
 * with other masks outside them, or an instruction that far fewer warps run than the launch has: the samples
 * are its warps then).
 */
int tm_mix(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f,
	   double w[GM_SECTOR_BYTES])
{
	const struct gm_trace_map *m = &f->map;
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2], wpb = (tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	int64_t blocks = l->grid[0] * l->grid[1] * l->grid[2], iters = iter_moves(m) ? f->iters : 1, n, take;

	memset(w, 0, sizeof(double) * GM_SECTOR_BYTES);
	if (!m->known || in->space != GM_TS_GLOBAL || open_ids(l, in, f) || !tm_shape_fixed(l, m) || tpb <= 0 ||
	    blocks <= 0 || iters < 1 || m->elem_bytes <= 0)
		return -1;
	n = blocks * wpb * iters;
	if (!(in->executions >= 0.9 * (double)(blocks * wpb)) || n <= 0)
		return -1;
	take = n < MIX_CAP ? n : MIX_CAP;
	for (int64_t i = 0; i < take; i++) {
		int64_t e = n <= MIX_CAP ? i : (int64_t)(mix_hash((uint64_t)i) % (uint64_t)n), b = e / iters / wpb;
		struct gm_trace_sample s;
		memset(&s, 0, sizeof(s));
		s.iter = (int)(e % iters);
		s.warp = (int)(e / iters % wpb);
		s.block[0] = (int)(b % l->grid[0]);
		s.block[1] = (int)(b / l->grid[0] % l->grid[1]);
		s.block[2] = (int)(b / l->grid[0] / l->grid[1]);
		w[tm_lane0_offset(l, m, &s)] += 1.0 / (double)take;
	}
	return 0;
}

/* 1 when every warp of the launch that runs f's access starts lane 0 on a 32 B sector (the mix all at byte 0) */
int tm_aligned(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f)
{
	double w[GM_SECTOR_BYTES];

	return tm_mix(l, in, f, w) == 0 && w[0] > 0.999;
}
