/*
 * launch_partner.c - rule D8's partners of a store, solved for (docs/MODEL.md 7.2, D8). A warp that writes
 * part of a sector leaves the sector's other bytes to some other thread; the walk probes fixed distances
 * for it (powers of two, rows of blocks), and a partner between them is never seen. Here the distance is
 * computed from the index: near thread g the address moves by c a thread and, k threads on, where it first
 * leaves that line (a modulo wraps, a mode carries), by D. Locally the addresses are the lattice
 * a c + b D at thread g + a + b k; the thread that writes offset t from g's address is the nearest
 * solution of a c + b D = t (extended Euclid), each one checked by evaluating the index there. This finds
 * the partner of `(gid*3) % 65536` (3^-1 mod 65536 threads away) and of a 2D map's carried mode alike.
 * Where that lattice places a byte of the sector on no thread, the partner comes from a third mode: the
 * steps of D run for a period of P threads, after which the address has moved by d3; the partner is x
 * periods away (x = 1, -1, 2, ..) plus the lattice's solution for the rest (s80: suggest's thread_order of
 * a 2D launch whose x-blocks are no power of two, `bx % 170` at a pitch of 6144, a column store whose
 * sector's next element comes 192 warps later: no probe at a power of two reaches it).
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

/* Whether thread g + d ts is at a0 + d c. */
static int on_line(struct lane_eval *e, int64_t g, int64_t a0, int64_t c, int64_t d, int64_t ts)
{
	int64_t a;

	return addr_of(e, g + d * ts, &a) && a == a0 + d * c;
}

/* The first k >= 2 at which the addresses of threads g + k ts leave the line a0 + k c going dir (+1 or -1)
   (doubling, then bisection), as a thread distance (k ts); 0: never, up to the launch's last (first) thread. */
static int64_t line_end(struct lane_eval *e, int64_t g, int64_t a0, int64_t c, int dir, int64_t ts)
{
	int64_t good = 1, bad = 0, room = (dir > 0 ? e->threads - 1 - g : g) / ts;

	for (int64_t m = 2; !bad; m *= 2) {
		if (m > room) { /* the last thread decides */
			if (room <= good || on_line(e, g, a0, c, dir * room, ts))
				return 0;
			bad = room;
		} else if (on_line(e, g, a0, c, dir * m, ts)) {
			good = m;
		} else {
			bad = m;
		}
	}
	while (bad - good > 1) {
		int64_t mid = good + (bad - good) / 2;

		if (on_line(e, g, a0, c, dir * mid, ts))
			good = mid;
		else
			bad = mid;
	}
	return dir * bad * ts;
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

/* The lattice near a warp's first thread: c a thread, dk every k threads (the line's end), d3 every k3 threads
   (where the lattice of c and dk ends: a third mode of the index; k3 = 0 where there is none). */
struct lattice {
	int64_t c, k, dk, k3, d3;
};

/* Candidate thread offset sol of target b from thread g into d: 1 where it is b's partner (listed, or checked on the
   index: a partner in g's own warp is no distance), else 0. */
static int take(struct lane_eval *e, int64_t g, int64_t sol, int64_t b, int64_t *d, int *n, int max)
{
	int64_t dw = (g + sol) / GM_WARP_SIZE - g / GM_WARP_SIZE, at;

	if (dw != 0 && listed(d, *n, iabs(dw)))
		return 1;
	if ((dw == 0 || *n < max) && addr_of(e, g + sol, &at) && at == b) {
		if (dw != 0)
			d[(*n)++] = iabs(dw);
		return 1;
	}
	return 0;
}

/*
 * The partners' warp distances of thread g + l (at a) into d (n of them, at most max). A byte of the sector that
 * the lattice of c and dk places on no thread that writes it (its partner comes from a third mode of the index:
 * a 2D launch's x-blocks, column stores of three or more digits) is looked for x = 1, -1, 2, -2 .. steps of the
 * third mode away, nearest first, up to a sector's elements (a mode of one element's stride completes the sector
 * within them), each candidate checked on the index.
 */
static void lane_partners(struct lane_eval *e, int64_t g, int64_t a, const struct lattice *L, int64_t *d, int *n,
			  int max)
{
	int64_t sec = a - a % GM_SECTOR_BYTES, steps = GM_SECTOR_BYTES / e->w.elem_bytes;

	for (int64_t b = sec; b < sec + GM_SECTOR_BYTES && *n < max; b += e->w.elem_bytes) {
		int64_t sol[2];
		int ns = b == a ? 0 : solve(L->c, L->k, L->dk, b - a, sol), found = 0;

		for (int j = 0; j < ns && *n < max; j++)
			found |= take(e, g, sol[j], b, d, n, max);
		if (b == a || found || !L->k3)
			continue;
		for (int64_t s3 = 1; s3 <= 2 * steps && !found && *n < max; s3++) {
			int64_t x = s3 % 2 ? (s3 + 1) / 2 : -(s3 / 2), t = b - a - x * L->d3;

			if (t == 0) {
				found = take(e, g, x * L->k3, b, d, n, max);
				continue;
			}
			ns = solve(L->c, L->k, L->dk, t, sol);
			for (int j = 0; j < ns && !found && *n < max; j++)
				found = take(e, g, x * L->k3 + sol[j], b, d, n, max);
		}
	}
}

/*
 * The third mode of the lattice near thread g (at a0): the steps of dk every |k| threads run for a period of P
 * threads (the second mode's size), after which the address has moved by d3. P from the second mode's two ends
 * around g (g may sit anywhere in it), or from a whole run beside g where the launch's first or last thread ends
 * the run on one side. None (k3 = 0) where the second mode spans the launch.
 */
static void third_mode(struct lane_eval *e, int64_t g, int64_t a0, struct lattice *L)
{
	int64_t K = iabs(L->k), D2 = L->k > 0 ? L->dk : -L->dk, fwd, bwd, P = 0, at, ax;

	fwd = line_end(e, g, a0, D2, 1, K);
	bwd = line_end(e, g, a0, D2, -1, K);
	if (fwd && bwd)
		P = (fwd / K - bwd / K - 1) * K;
	else if (fwd && addr_of(e, g + fwd, &ax))
		P = line_end(e, g + fwd, ax, D2, 1, K);
	else if (bwd && addr_of(e, g + bwd, &ax))
		P = -line_end(e, g + bwd, ax, D2, -1, K);
	if (P <= 0)
		return;
	if (addr_of(e, g + P, &at))
		L->k3 = P, L->d3 = at - a0;
	else if (addr_of(e, g - P, &at))
		L->k3 = P, L->d3 = a0 - at;
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
	struct lattice L = { 0, 0, 0, 0, 0 };

	if (w->elem_bytes <= 0 || w->elem_bytes >= GM_SECTOR_BYTES || !addr_of(&e, g, &a0) ||
	    !addr_of(&e, g + 1, &a1))
		return 0;
	for (int l = 0; l < GM_WARP_SIZE; l++) { /* the warp's own lanes, before the lattice's probes move e.p */
		act[l] = e.p.lanes[l].active;
		lanes[l] = e.p.lanes[l].addr;
	}
	c = a1 - a0;
	if (!(k = line_end(&e, g, a0, c, 1, 1))) /* the launch's last warps: the lattice behind */
		k = line_end(&e, g, a0, c, -1, 1);
	if (k && !addr_of(&e, g + k, &dk))
		return 0;
	dk -= k ? a0 : dk;
	L.c = c, L.k = k, L.dk = dk;
	if (k)
		third_mode(&e, g, a0, &L);
	for (int l = 0; l < GM_WARP_SIZE && n < max; l++)
		if (act[l])
			lane_partners(&e, g + l, lanes[l], &L, d, &n, max);
	return n;
}
