/*
 * launch_partner.c - rule D8's partners of a store, solved for (docs/MODEL.md 7.2, D8). A warp that writes
 * part of a sector leaves the sector's other bytes to some other thread; the walk probes fixed distances
 * for it (powers of two, rows of blocks), and a partner between them is never seen. Here the distance is
 * computed from the index: near thread g the address moves by c a thread and, k threads on, where it first
 * leaves that line (a modulo wraps, a mode carries), by D. Locally the addresses are the lattice
 * a c + b D at thread g + a + b k; the thread that writes offset t from g's address is the nearest
 * solution of a c + b D = t (extended Euclid), each one checked by evaluating the index there. This finds
 * the partner of `(gid*3) % 65536` (3^-1 mod 65536 threads away) and of a 2D map's carried mode alike.
 * Pure C, no I/O.
 */
#include <stdint.h>
#include "model/model_internal.h"

#define PARTNER_LIMIT ((int64_t)1 << 40) /* larger products are not solved (no overflow) */

struct lane_eval {
	struct gm_access w;
	const struct gm_expr *index, *active;
	int64_t wpb, grid_x, threads;
	struct gm_prediction p;
};

/* Thread t's byte address (threads in the walk's order: warp t / 32, lane t % 32); 0 if it has none. */
static int addr_of(struct lane_eval *e, int64_t t, int64_t *addr)
{
	struct gm_expr_error err;
	int64_t wi = t / GM_WARP_SIZE, b = wi / e->wpb;

	if (t < 0 || t >= e->threads)
		return 0;
	e->w.block_idx[0] = (int)(b % e->grid_x > 2147483647 ? 2147483647 : b % e->grid_x);
	e->w.block_idx[1] = (int)(b / e->grid_x > 2147483647 ? 2147483647 : b / e->grid_x);
	e->w.block_idx[2] = 0;
	e->w.warp = (int)(wi % e->wpb);
	if (gm_lanes_fill(&e->w, e->index, e->active, &e->p, &err) != GM_OK ||
	    !e->p.lanes[t % GM_WARP_SIZE].active)
		return 0;
	*addr = e->p.lanes[t % GM_WARP_SIZE].addr;
	return 1;
}

/* Whether thread g + d is at a0 + d c. */
static int on_line(struct lane_eval *e, int64_t g, int64_t a0, int64_t c, int64_t d)
{
	int64_t a;

	return addr_of(e, g + d, &a) && a == a0 + d * c;
}

/* The first k >= 2 at which the addresses from g leave the line a0 + k c going dir (+1 or -1) (doubling, then
   bisection); 0: never, up to the launch's last (first) thread. */
static int64_t line_end(struct lane_eval *e, int64_t g, int64_t a0, int64_t c, int dir)
{
	int64_t good = 1, bad = 0, room = dir > 0 ? e->threads - 1 - g : g;

	for (int64_t m = 2; !bad; m *= 2) {
		if (m > room) { /* the last thread decides */
			if (room <= good || on_line(e, g, a0, c, dir * room))
				return 0;
			bad = room;
		} else if (on_line(e, g, a0, c, dir * m)) {
			good = m;
		} else {
			bad = m;
		}
	}
	while (bad - good > 1) {
		int64_t mid = good + (bad - good) / 2;

		if (on_line(e, g, a0, c, dir * mid))
			good = mid;
		else
			bad = mid;
	}
	return dir * bad;
}

/* gcd(a, b) = x a + y b, a, b > 0. */
static int64_t egcd(int64_t a, int64_t b, int64_t *x, int64_t *y)
{
	int64_t x0 = 1, y0 = 0, x1 = 0, y1 = 1;

	while (b) {
		int64_t q = a / b, t;

		t = a - q * b, a = b, b = t;
		t = x0 - q * x1, x0 = x1, x1 = t;
		t = y0 - q * y1, y0 = y1, y1 = t;
	}
	*x = x0;
	*y = y0;
	return a;
}

static int64_t iabs(int64_t v)
{
	return v < 0 ? -v : v;
}

/* The threads g + d whose address is a0 + t, d the nearest solution either side of the lattice; n found. */
static int solve(int64_t c, int64_t k, int64_t dk, int64_t t, int64_t sol[2])
{
	int64_t x, y, gg, d0, step;

	if (k == 0) { /* one line: only t a multiple of c */
		sol[0] = c != 0 && t % c == 0 ? t / c : 0;
		return sol[0] != 0;
	}
	if (c == 0 || dk == 0 || iabs(c) > PARTNER_LIMIT || iabs(dk) > PARTNER_LIMIT || iabs(k) > PARTNER_LIMIT)
		return 0;
	gg = egcd(iabs(c), iabs(dk), &x, &y);
	if (t % gg != 0)
		return 0;
	x *= (c < 0 ? -1 : 1) * (t / gg); /* x c + y dk = t */
	y *= (dk < 0 ? -1 : 1) * (t / gg);
	if (iabs(y) > PARTNER_LIMIT / iabs(k))
		return 0;
	d0 = x + y * k;
	step = iabs(dk / gg - k * (c / gg)); /* (x + dk/gg, y - c/gg) is a solution too */
	if (step == 0)
		return (sol[0] = d0) != 0;
	d0 %= step;
	if (d0 == 0)
		return 0;
	sol[0] = d0 > 0 ? d0 : d0 + step;
	sol[1] = sol[0] - step;
	return 2;
}

/* Whether d[0..n) holds dist or a neighbour (lanes of one warp straddle two warps: a probe of warps holds both). */
static int listed(const int64_t *d, int n, int64_t dist)
{
	for (int k = 0; k < n; k++)
		if (iabs(d[k] - dist) <= 1)
			return 1;
	return 0;
}

/* The partners' warp distances of thread g + l (at a) into d (n of them, at most max). */
static void lane_partners(struct lane_eval *e, int64_t g, int64_t a, int64_t c, int64_t k, int64_t dk, int64_t *d,
			  int *n, int max)
{
	int64_t sec = a - a % GM_SECTOR_BYTES;

	for (int64_t b = sec; b < sec + GM_SECTOR_BYTES && *n < max; b += e->w.elem_bytes) {
		int64_t sol[2], at;
		int ns = b == a ? 0 : solve(c, k, dk, b - a, sol);

		for (int j = 0; j < ns && *n < max; j++) {
			int64_t dw = (g + sol[j]) / GM_WARP_SIZE - g / GM_WARP_SIZE;

			if (dw != 0 && !listed(d, *n, iabs(dw)) && addr_of(e, g + sol[j], &at) && at == b)
				d[(*n)++] = iabs(dw);
		}
	}
}

/*
 * Warp distances (at least one, at most `max`) at which the lanes of warp wi of a store pattern (warps of wpb
 * a block, grid_x blocks a row, `warps` in all) find the other bytes of the sectors they write, each checked
 * on the index; how many into d[]. The lattice is the one near the warp's first thread.
 */
int gm_store_partner_dists(const struct gm_access *w, const struct gm_expr *index, const struct gm_expr *active,
			   int64_t wi, int64_t wpb, int64_t grid_x, int64_t warps, int64_t *d, int max)
{
	struct lane_eval e = { .w = *w, .index = index, .active = active, .wpb = wpb, .grid_x = grid_x,
			       .threads = warps * GM_WARP_SIZE };
	int64_t g = wi * GM_WARP_SIZE, a0, a1, dk = 0, c, k, lanes[GM_WARP_SIZE];
	int n = 0, act[GM_WARP_SIZE];

	if (w->elem_bytes <= 0 || w->elem_bytes >= GM_SECTOR_BYTES || !addr_of(&e, g, &a0) ||
	    !addr_of(&e, g + 1, &a1))
		return 0;
	for (int l = 0; l < GM_WARP_SIZE; l++) { /* the warp's own lanes, before the lattice's probes move e.p */
		act[l] = e.p.lanes[l].active;
		lanes[l] = e.p.lanes[l].addr;
	}
	c = a1 - a0;
	if (!(k = line_end(&e, g, a0, c, 1))) /* the launch's last warps: the lattice behind */
		k = line_end(&e, g, a0, c, -1);
	if (k && !addr_of(&e, g + k, &dk))
		return 0;
	dk -= k ? a0 : dk;
	for (int l = 0; l < GM_WARP_SIZE && n < max; l++)
		if (act[l])
			lane_partners(&e, g + l, lanes[l], c, k, dk, d, &n, max);
	return n;
}
