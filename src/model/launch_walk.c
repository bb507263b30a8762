/*
 * launch_walk.c - the walk over a launch's grid and its sampling
 * (docs/MODEL.md 7.1). The launch's warps are taken in the order the
 * hardware starts them (block by block, x fastest). Up to `windows` windows
 * of `window_warps` consecutive warps, spread evenly over the launch, are
 * evaluated lane by lane; when the launch has no more warps than all windows
 * hold, every warp is. Each warp's traffic is counted by launch_traffic.c,
 * each window's DRAM bytes by launch_dram.c; counts per warp are averaged over
 * the evaluated warps and scaled to the launch. For a window's reuse in L2
 * (rules D6, D8) the walk also gathers the warps before it (and, for stores,
 * after it): a lookback chunk by chunk, then probes at growing distances.
 * Two rules decide what is evaluated, the walk phase's registry (walk_rules,
 * applied once per pattern before the windows):
 *   W   rule_w_shape: a pattern whose warps of different blocks touch the
 *       same addresses describes a shape, not where each warp goes: no reuse
 *       between warps;
 *   R   rule_r_loops: a pattern's loop is evaluated for its first ITER_CAP
 *       iterations and its counts scaled to all (gm_launch_loops).
 * The windows run on several threads, each from empty state, summed in
 * window order: the numbers do not depend on the threads.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/parallel.h"
#include "model/model_internal.h"

#define DEFAULT_WINDOWS 8
#define DEFAULT_WINDOW_WARPS 256
#define LOOKBACK_WARPS 2048  /* warps before a window looked at one by one for L2 reuse (rule D6) */
#define CHUNK_WARPS 256      /* the lookback in chunks of this many warps, each with its distance */
#define PARTNER_DISTS 4      /* store partners solved from the index, at most (rule D8) */

/* ---- the patterns and their warps ----------------------------------------------------------------- */

/* Warp number wi of the launch as blockIdx and warp-in-block. */
static void place_warp(struct gm_access *w, int64_t wi, int64_t wpb, int64_t grid_x)
{
	int64_t b = wi / wpb, bx = b % grid_x, by = b / grid_x;

	w->block_idx[0] = bx > 2147483647 ? 2147483647 : (int)bx;
	w->block_idx[1] = by > 2147483647 ? 2147483647 : (int)by;
	w->block_idx[2] = 0;
	w->warp = (int)(wi % wpb);
}

/* The lanes of one warp of one pattern into p; an error names the warp. */
static gm_status fill_warp(struct pat_state *ps, const struct gm_access *w, struct gm_prediction *p,
			   struct gm_expr_error *err)
{
	gm_status s = gm_lanes_fill(w, ps->index, ps->active, p, err);

	if (s != GM_OK) {
		size_t len = strlen(err->msg);

		err->text = w->index;
		snprintf(err->msg + len, sizeof(err->msg) - len, " in warp %d of block (%d,%d)", w->warp,
			 w->block_idx[0], w->block_idx[1]);
	}
	return s;
}

gm_status gm_launch_parse_pats(struct pat_state *ps, const struct gm_launch_in *in, struct gm_expr_error *err)
{
	for (int k = 0; k < in->npats; k++) {
		gm_status s;

		ps[k].a = &in->pats[k];
		s = gm_expr_parse(in->pats[k].index, &ps[k].index, err);
		if (s == GM_OK)
			s = gm_expr_parse(in->pats[k].active ? in->pats[k].active : "gid < n", &ps[k].active, err);
		if (s != GM_OK) {
			err->text = in->pats[k].index;
			return s;
		}
	}
	return GM_OK;
}

void gm_launch_free_pats(struct pat_state *ps, int n)
{
	for (int k = 0; k < n; k++) {
		gm_expr_free(ps[k].index);
		gm_expr_free(ps[k].active);
		free(ps[k].pieces);
		free(ps[k].sectors);
		free(ps[k].blk);
		gm_owner_set_free(&ps[k].sl);
		gm_owner_set_free(&ps[k].ll);
		free(ps[k].sub);
		for (int j = 0; j < MAX_SETS; j++)
			free(ps[k].ks[j].v);
	}
}

/* Pattern pi as the launch runs it: the launch's block shape and thread count. */
static struct gm_access access_of(const struct gm_launch_in *in, int pi)
{
	struct gm_access w = in->pats[pi];

	memcpy(w.block, in->block, sizeof(w.block));
	w.n_threads = in->n_threads;
	return w;
}

/* ---- rule W: a pattern that describes a shape ---------------------------------------------------- */

/* Warp wi of w touches what p0 holds (the same lanes active, at the same addresses). */
static int same_lanes(struct pat_state *ps, struct gm_access *w, int64_t wi, int64_t wpb, int64_t grid_x,
		      const struct gm_prediction *p0, struct gm_prediction *p1)
{
	struct gm_expr_error e;

	place_warp(w, wi, wpb, grid_x);
	if (gm_lanes_fill(w, ps->index, ps->active, p1, &e) != GM_OK)
		return 0;
	for (int l = 0; l < GM_WARP_SIZE; l++)
		if (p0->lanes[l].active != p1->lanes[l].active ||
		    (p0->lanes[l].active && p0->lanes[l].addr != p1->lanes[l].addr))
			return 0;
	return 1;
}

/*
 * A pattern whose lanes touch the same addresses in warps of different blocks,
 * the next block's and one half the launch away, says how each access is
 * shaped, not where each warp goes (a loop over rows declared by its first row,
 * `lane`): its warps are taken to touch different data, so no reuse between
 * them is assumed. Both: neighbouring blocks that read the same data and blocks
 * far away that do not (a tile's row of pitch 0 read by the R / 32 blocks of a
 * broadcast's rows, `(bx / 2) * 32 + tx`) are reuse, for rules D1 and D6.
 */
static int warp_invariant(struct pat_state *ps, struct gm_access w, int64_t wpb, int64_t grid_x,
			  int64_t warps, struct gm_prediction *p0, struct gm_prediction *p1)
{
	struct gm_expr_error e;
	int64_t other = warps > wpb ? wpb + (wpb > 1) : warps - 1, far = warps / 2 / wpb * wpb + (wpb > 1);

	if (other <= 0)
		return 0;
	place_warp(&w, 0, wpb, grid_x);
	if (gm_lanes_fill(&w, ps->index, ps->active, p0, &e) != GM_OK)
		return 0;
	if (!same_lanes(ps, &w, other, wpb, grid_x, p0, p1))
		return 0;
	return far <= other || far >= warps || same_lanes(ps, &w, far, wpb, grid_x, p0, p1);
}

/* Where a window and the warps before it start. */
struct window_plan {
	int nwin;
	int64_t ww, wpb, grid_x, warps;
	int atom;
	double l2_bytes;
	int64_t resident;           /* warps that run at once (rule L4) */
	struct gm_repeat *rp;       /* [npats] each pattern's loops as evaluated (rule R) */
	double *loop_f;             /* [npats] and what scales them to all */
};

/* ---- the walk phase's registry: W and R, once per pattern before the windows ------------------------ */

/* What the walk's rules read and set. */
struct walk_ctx {
	const struct gm_launch_in *in;
	struct pat_state *ps;
	struct window_plan *wp;
	struct gm_prediction *p, *q; /* scratch */
};

/* Rule W: a global pattern whose warps of different blocks touch the same addresses is per warp. */
static void rule_w_shape(struct walk_ctx *c, int pi)
{
	struct gm_access w = access_of(c->in, pi);

	c->ps[pi].per_warp = w.space == GM_SPACE_GLOBAL &&
			     warp_invariant(&c->ps[pi], w, c->wp->wpb, c->wp->grid_x, c->wp->warps, c->p, c->q);
}

/* Rule R: the pattern's loops as evaluated (at most ITER_CAP iterations) and what scales them to all
   (gm_launch_loops, launch_loops.c). */
static void rule_r_loops(struct walk_ctx *c, int pi)
{
	c->wp->rp[pi] = gm_launch_loops(c->in, pi, &c->wp->loop_f[pi]);
}

static const struct walk_rule {
	const char *ids, *what;
	void (*apply)(struct walk_ctx *c, int pi);
} walk_rules[] = {
	{ "W", "a pattern that describes a shape: no reuse between its warps", rule_w_shape },
	{ "R", "a pattern's loops, evaluated for their first iterations", rule_r_loops },
	{ NULL, NULL, NULL },
};

/*
 * Warps [from, to) of one pattern, each with its (evaluated) loop iterations:
 * iteration (u, v) is the first one's lanes moved by u * step + v * step2.
 * into: warps outside the window (rules D6, D8), whose pieces (loads) or
 * sectors (stores) are only gathered into that keyset. In the window, the
 * entries the first SUB_WARPS warps add are marked (sub_mark).
 */
static gm_status warps_of(struct pat_state *ps, struct gm_access w, const struct gm_repeat *rp, int64_t from,
			  int64_t to, struct keyset *into, int64_t wpb, int64_t grid_x, int atom, struct totals *t,
			  struct gm_prediction *p, struct gm_prediction *first, struct gm_expr_error *err)
{
	int64_t base = w.base;
	gm_status s = GM_OK;

	for (int64_t wi = from; wi < to && s == GM_OK; wi++) {
		place_warp(&w, wi, wpb, grid_x);
		w.base = base;
		if ((s = fill_warp(ps, &w, first, err)) != GM_OK)
			break;
		for (int u = 0; u < rp->iters && s == GM_OK; u++)
			for (int v = 0; v < rp->iters2 && s == GM_OK; v++) {
				int64_t off = u * rp->step_bytes + v * rp->step2_bytes;
				struct gm_prediction *at = first;

				if (into) {
					s = gm_keyset_collect(into, first, off, w.elem_bytes, atom, w.op == GM_OP_STORE);
					continue;
				}
				if (off != 0) {
					at = p;
					w.base = base + off;
					if (!gm_lanes_shift(&w, first, off, p))
						s = fill_warp(ps, &w, p, err); /* to name the lane that leaves the range */
				}
				if (s == GM_OK)
					s = gm_warp_traffic(ps, &w, wi, wi / wpb, atom, t, at);
			}
		if (ps->per_warp && !into) {
			gm_block_flush(ps, t); /* the window's last block (rules L1, L4) */
			gm_window_close(ps, atom, t, NULL);
			gm_l4_rows_close(ps, t);
			gm_owner_set_clear(&ps->sl); /* the next warp touches its own data */
			gm_owner_set_clear(&ps->ll);
			ps->nlines = 0;
			ps->lone_n = ps->lone_inv_f = 0;
		}
		if (!into && wi - from == SUB_WARPS - 1)
			ps->sub_mark = w.op == GM_OP_STORE ? ps->nsectors : ps->npieces;
	}
	return s;
}


/*
 * Rule L4's rows, resident span (t84): the address range the stores of the warps resident at once cover, from the
 * window's first warp on (or the launch's last resident warps), their first iteration, in at most RES_SPAN_WARPS warps
 * spread over them. l4_rows (launch_traffic.c) gives a column request's lines that come back within a request part of
 * the far weight where it passes the L2.
 */
#define RES_SPAN_WARPS 512

static void resident_span(struct pat_state *ps, struct gm_access w, int64_t first, const struct window_plan *wp,
			  struct gm_prediction *p)
{
	int64_t from = first < wp->warps - wp->resident ? first : wp->warps - wp->resident; /* or the last ones */
	int64_t last, step, lo = INT64_MAX, hi = INT64_MIN;
	struct gm_expr_error e;

	ps->res_span = 0;
	if (w.op != GM_OP_STORE || w.space != GM_SPACE_GLOBAL || ps->per_warp || !(wp->l2_bytes > 0))
		return;
	from = from > 0 ? from : 0;
	last = from + wp->resident < wp->warps ? from + wp->resident : wp->warps;
	step = (last - from + RES_SPAN_WARPS - 1) / RES_SPAN_WARPS;
	for (int64_t wi = from; wi < last; wi += step > 0 ? step : 1) {
		place_warp(&w, wi, wp->wpb, wp->grid_x);
		if (gm_lanes_fill(&w, ps->index, ps->active, p, &e) != GM_OK)
			return; /* the window's own walk names the warp */
		for (int l = 0; l < p->nlanes; l++)
			if (p->lanes[l].active) {
				lo = p->lanes[l].addr < lo ? p->lanes[l].addr : lo;
				hi = p->lanes[l].addr > hi ? p->lanes[l].addr : hi;
			}
	}
	ps->res_span = hi > lo ? (double)(hi - lo) : 0;
}

/* ---- the warps a window's reuse is looked for in (rules D6, D8) ---------------------------------- */

/* Gather warps [from, to) of a pattern into the next keyset, at distance dist. */
static gm_status add_set(struct pat_state *ps, struct gm_access w, const struct gm_repeat *rp, int64_t from,
			 int64_t to, int64_t dist, int far, const struct window_plan *wp, struct totals *t,
			 struct gm_prediction *p, struct gm_prediction *q, struct gm_expr_error *err)
{
	struct keyset *ks;
	gm_status s;

	if (from >= to || ps->nks == MAX_SETS)
		return GM_OK;
	ks = &ps->ks[ps->nks++];
	ks->n = 0;
	ks->dist = dist;
	ks->far = far;
	s = warps_of(ps, w, rp, from, to, ks, wp->wpb, wp->grid_x, wp->atom, t, p, q, err);
	ks->n = gm_keys_sort_unique(ks->v, ks->n);
	return s;
}

static int has_partial(const struct pat_state *ps)
{
	for (int64_t k = 0; k < ps->nsectors; k++)
		if ((ps->sectors[k] & 63) < GM_SECTOR_BYTES)
			return 1;
	return 0;
}

/* Whether one of d[0..nd) is dist. */
static int probed(const int64_t *d, int nd, int64_t dist)
{
	for (int k = 0; k < nd; k++)
		if (d[k] == dist)
			return 1;
	return 0;
}

/*
 * The warps a window's reuse is looked for in (rules D6, D8), nearest first.
 * Loads: the warps before it, one by one in chunks of CHUNK_WARPS up to
 * LOOKBACK_WARPS back, then probes of SUB_WARPS warps at powers of two and at
 * one and two rows of blocks (grid_x) back. Stores with sectors left partly
 * written: probes before and after it at the same distances, from one warp
 * on. Nothing farther than L2 can keep: KEEP_*_HI x l2_bytes / alloc_pw.
 */
static gm_status build_sets(struct pat_state *ps, struct gm_access w, const struct gm_repeat *rp, int64_t first,
			    const struct window_plan *wp, const struct reuse_ctx *c, struct totals *t,
			    struct gm_prediction *p, struct gm_prediction *q, struct gm_expr_error *err)
{
	int store = w.op == GM_OP_STORE;
	double reach = c->alloc_pw > 0 ? (store ? KEEP_FILL_HI : KEEP_CLEAN_HI) * c->l2_bytes / c->alloc_pw : 0;
	int64_t r = reach < 1e15 ? (int64_t)reach : (int64_t)1e15, dense = 0, sub = wp->ww < SUB_WARPS ? wp->ww : SUB_WARPS;
	int64_t row = wp->wpb * wp->grid_x, d[64];
	int nd = 0;
	gm_status s = GM_OK;

	ps->nks = 0;
	if (r < 1)
		return GM_OK;
	if (!store) {
		dense = r < LOOKBACK_WARPS ? r : LOOKBACK_WARPS;
		dense = dense < first ? dense : first;
		for (int64_t c0 = 0; c0 < dense && s == GM_OK; c0 += CHUNK_WARPS) {
			int64_t c1 = c0 + CHUNK_WARPS < dense ? c0 + CHUNK_WARPS : dense;

			s = add_set(ps, w, rp, first - c1, first - c0, (c0 + c1) / 2, 0, wp, t, p, q, err);
		}
	}
	/* probe distances: powers of two past the dense chunks, and one and two rows of blocks */
	for (int64_t x = 1; x <= r && nd < 60; x *= 2)
		if (x > dense)
			d[nd++] = x;
	for (int k = 1; k <= 2; k++)
		if (row * k > dense && row * k <= r && (row * k & (row * k - 1)) != 0)
			d[nd++] = row * k;
	if (store) { /* and the partners the index gives (launch_partner.c) that no probe above holds (nearer than
			sub warps, a probe at the next power of two, clipped to the window, holds them) */
		int64_t pd[PARTNER_DISTS];
		int np = gm_store_partner_dists(&w, ps->index, ps->active, first, wp->wpb, wp->grid_x, wp->warps, pd,
						PARTNER_DISTS);

		for (int k = 0; k < np; k++)
			if (pd[k] >= sub && pd[k] <= r && nd < 64 && !probed(d, nd, pd[k]))
				d[nd++] = pd[k];
	}
	qsort(d, (size_t)nd, sizeof(d[0]), gm_keys_cmp);
	for (int k = 0; k < nd && s == GM_OK; k++) {
		int64_t b0 = first - d[k], b1 = first - d[k] + sub; /* behind: the first warps' partners */

		b0 = b0 > 0 ? b0 : 0;
		b1 = b1 < first ? b1 : first;
		s = add_set(ps, w, rp, b0, b1, d[k], 1, wp, t, p, q, err);
		if (store && s == GM_OK) {
			int64_t a0 = first + d[k], a1 = first + d[k] + sub; /* ahead, past the window */

			a0 = a0 > first + wp->ww ? a0 : first + wp->ww;
			a1 = a1 < wp->warps ? a1 : wp->warps;
			s = add_set(ps, w, rp, a0, a1, d[k], 1, wp, t, p, q, err);
		}
	}
	return s;
}

/* ---- the windows ---------------------------------------------------------------------------------- */

/* Whether the blocks meet at barriers: a phase that ends at one (rule T9), or a tile exchanged through shared
   memory (rule T6). */
static int barriers(const struct gm_launch_in *in)
{
	int shared = in->barrier_phases > 0;

	for (int k = 0; k < in->npats; k++)
		shared |= in->pats[k].space == GM_SPACE_SHARED;
	return shared;
}

/*
 * One window: every pattern's warps, then (rules D6, D8) the warps its reuse
 * is looked for in, judged by the DRAM bytes per warp the window moves before
 * reuse; into tw[pi] with the loop scale fs[pi]. The per-pattern state
 * starts empty, so that a window's totals do not depend on which windows the
 * same state saw before (the windows may run on different threads).
 */
static gm_status one_window(struct pat_state *ps, const struct gm_launch_in *in, const struct window_plan *wp,
			    int k, struct totals *tw, double *fs, struct gm_prediction *p, struct gm_prediction *q,
			    struct gm_expr_error *err)
{
	int64_t first = wp->nwin == 1 ? 0 : (int64_t)((double)k * (double)(wp->warps - wp->ww) / (wp->nwin - 1));
	struct reuse_ctx c = { 0, wp->l2_bytes, wp->resident, wp->wpb, barriers(in) };
	gm_status s = GM_OK;

	for (int pi = 0; pi < in->npats && s == GM_OK; pi++) {
		struct gm_access w = access_of(in, pi);
		struct gm_repeat rp = wp->rp[pi];
		struct pat_state *x = &ps[pi];
		int store = w.op == GM_OP_STORE;

		memset(&tw[pi], 0, sizeof(tw[pi]));
		fs[pi] = wp->loop_f[pi];
		x->nks = 0;
		x->nblk = 0;
		x->cur_block = -1;
		gm_owner_set_clear(&x->sl);  /* rule L4: the window's sectors */
		gm_owner_set_clear(&x->ll);  /* and lines (its rows) */
		x->nlines = 0;
		x->lone_n = x->lone_inv_f = 0;
		x->l2_bytes = wp->l2_bytes;
		x->sub_mark = -1;
		x->nsub = 0;
		resident_span(x, w, first, wp, p);
		s = warps_of(x, w, &rp, first, first + wp->ww, NULL, wp->wpb, wp->grid_x, wp->atom, &tw[pi], p, q, err);
		if (s == GM_OK && !x->per_warp)
			gm_l4_rows_close(x, &tw[pi]); /* rule L4's rows: the window's lines */
		if (s != GM_OK || w.space != GM_SPACE_GLOBAL || x->per_warp) {
			c.alloc_pw += tw[pi].read_bytes + tw[pi].write_bytes; /* closed warp by warp: no reuse */
			continue;
		}
		/* the first warps' keys (sectors without their byte counts), then the window's DRAM bytes */
		if (x->sub_mark < 0)
			x->sub_mark = store ? x->nsectors : x->npieces;
		if (gm_keys_reserve(&x->sub, &x->subcap, x->sub_mark) != GM_OK)
			return GM_ERR_NOMEM;
		for (int64_t j = 0; j < x->sub_mark; j++)
			x->sub[j] = store ? x->sectors[j] >> 6 : x->pieces[j];
		x->nsub = gm_keys_sort_unique(x->sub, x->sub_mark);
		if (store) {
			gm_window_merge_sectors(x);
			c.alloc_pw += (double)x->nsectors * GM_SECTOR_BYTES;
		} else {
			x->npieces = gm_keys_sort_unique(x->pieces, x->npieces);
			x->pieces_unique = 1;
			c.alloc_pw += (double)x->npieces * wp->atom;
		}
	}
	c.alloc_pw /= (double)(wp->ww > 0 ? wp->ww : 1);
	for (int pi = 0; pi < in->npats && s == GM_OK; pi++) {
		struct gm_access w = access_of(in, pi);
		struct gm_repeat rp = wp->rp[pi];
		struct pat_state *x = &ps[pi];
		int reuse = w.space == GM_SPACE_GLOBAL && !x->per_warp;

		if (reuse && (w.op == GM_OP_LOAD || has_partial(x)))
			s = build_sets(x, w, &rp, first, wp, &c, &tw[pi], p, q, err);
		if (s == GM_OK) {
			gm_block_flush(x, &tw[pi]); /* the window's last block (rules L1, L4) */
			gm_window_close(x, wp->atom, &tw[pi], reuse ? &c : NULL);
		}
	}
	return s;
}

/* The windows and where each one's results go; every thread has its own pattern state and scratch. */
struct window_pool {
	const struct gm_launch_in *in;
	const struct window_plan *wp;
	const struct pat_state *master;
	struct totals *tw;        /* [nwin][npats] */
	double *fs;               /* [nwin][npats] */
	gm_status *st;            /* [nwin] */
	struct gm_expr_error *errs; /* [nwin] */
};

struct window_scratch {
	struct pat_state *ps;
	int npats;
	struct gm_prediction p, q;
};

static void drop_scratch(void *state)
{
	struct window_scratch *x = state;

	gm_launch_free_pats(x->ps, x->npats);
	free(x->ps);
	free(x);
}

static void *make_scratch(void *arg)
{
	const struct window_pool *w = arg;
	const struct gm_launch_in *in = w->in;
	struct window_scratch *x = calloc(1, sizeof(*x));
	struct gm_expr_error e;

	if (!x || !(x->ps = calloc((size_t)in->npats, sizeof(*x->ps)))) {
		free(x);
		return NULL;
	}
	x->npats = in->npats;
	if (gm_launch_parse_pats(x->ps, in, &e) != GM_OK) {
		gm_launch_free_pats(x->ps, in->npats);
		free(x->ps);
		free(x);
		return NULL;
	}
	for (int pi = 0; pi < in->npats; pi++)
		x->ps[pi].per_warp = w->master[pi].per_warp;
	return x;
}

static void window_item(void *arg, void *state, int k)
{
	const struct window_pool *w = arg;
	struct window_scratch *x = state;
	size_t at = (size_t)k * w->in->npats;

	memset(&w->errs[k], 0, sizeof(w->errs[k]));
	w->errs[k].lane = -1;
	w->st[k] = x ? one_window(x->ps, w->in, w->wp, k, &w->tw[at], &w->fs[at], &x->p, &x->q, &w->errs[k])
		     : GM_ERR_NOMEM;
}

/* t += f x u (every count but the warps) */
static void add_scaled(struct totals *t, const struct totals *u, double f)
{
	t->requests += f * u->requests;
	t->l1_sectors += f * u->l1_sectors;
	t->l1_lines += f * u->l1_lines;
	t->l1_load_lines += f * u->l1_load_lines;
	t->l1_waves += f * u->l1_waves;
	t->l1_many_waves += f * u->l1_many_waves;
	t->l1_spread_waves += f * u->l1_spread_waves;
	t->l1_load_alone += f * u->l1_load_alone;
	t->l1_store_alone += f * u->l1_store_alone;
	t->l1_load_aligned += f * u->l1_load_aligned;
	t->l1_load_spread += f * u->l1_load_spread;
	t->alone_log2_dist += f * u->alone_log2_dist;
	t->l1_load += f * u->l1_load;
	t->l2_load += f * u->l2_load;
	t->l2_store += f * u->l2_store;
	t->partial += f * u->partial;
	t->store_bytes += f * u->store_bytes;
	for (int x = 0; x < 5; x++) {
		t->pline[x] += f * u->pline[x];
		t->pline_sp[x] += f * u->pline_sp[x];
	}
	t->pline0_sectors += f * u->pline0_sectors;
	for (int x = 0; x < 5; x++) {
		t->far_x[x] += f * u->far_x[x];
		t->far_wide_x[x] += f * u->far_wide_x[x];
		t->first_x[x] += f * u->first_x[x];
		t->first_wide_x[x] += f * u->first_wide_x[x];
		t->first_wide2_x[x] += f * u->first_wide2_x[x];
		t->lin_x[x] += f * u->lin_x[x];
		t->first_lin_x[x] += f * u->first_lin_x[x];
	}
	t->far_cross += f * u->far_cross;
	t->far_same += f * u->far_same;
	t->rows_f += f * u->rows_f;
	t->rows_open += f * u->rows_open;
	t->rows_all += f * u->rows_all;
	t->rows_g += f * u->rows_g;
	t->wavefronts += f * u->wavefronts;
	t->read_bytes += f * u->read_bytes;
	t->write_bytes += f * u->write_bytes;
	t->fill_bytes += f * u->fill_bytes;
	t->sparse_wr_pieces += f * u->sparse_wr_pieces;
	t->sparse_wr_bytes += f * u->sparse_wr_bytes;
	t->sparse_wr_far += f * u->sparse_wr_far;
	t->wr_own += f * u->wr_own;
	t->wr_span += f * u->wr_span;
	t->groups += f * u->groups;
	t->pieces += f * u->pieces;
	for (int k = 0; k < GM_READ_SPACING_BINS; k++)
		t->spacing[k] += f * u->spacing[k];
	t->reuse_bytes += f * u->reuse_bytes;
	/* rule T7: a window that reads from DRAM waits for all its hits; one that does not, for the hits whose
	   piece a warp of the same resident wave is still reading */
	t->reuse_wait_bytes += f * (u->read_bytes > 0 ? u->reuse_bytes : u->reuse_wave_bytes);
}

/*
 * Evaluate the windows; totals are over the evaluated warps, summed in
 * window order whatever thread evaluated a window (the same numbers on one
 * thread or many).
 */
gm_status gm_launch_walk(struct pat_state *ps, const struct gm_launch_in *in, const struct gm_profile *prof,
			 int64_t warps, struct totals *t, struct pat_sum *sums, struct gm_expr_error *err)
{
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	int64_t blocks = (in->n_threads + tpb - 1) / tpb;
	int64_t bps = gm_launch_blocks_per_sm(in, prof);
	struct window_plan wp = { in->windows > 0 ? in->windows : DEFAULT_WINDOWS,
				  in->window_warps > 0 ? in->window_warps : DEFAULT_WINDOW_WARPS,
				  (tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE, in->grid_x > 0 ? in->grid_x : blocks,
				  warps, prof->dram_atom_bytes, prof->l2_bytes, 0 };

	wp.resident = (int64_t)prof->sm_count * bps * wp.wpb;
	struct window_pool pool = { in, &wp, ps, NULL, NULL, NULL, NULL };
	struct gm_prediction *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	gm_status s = GM_OK;

	if (!p || !q) {
		free(p);
		free(q);
		return GM_ERR_NOMEM;
	}
	wp.rp = calloc((size_t)in->npats, sizeof(*wp.rp));
	wp.loop_f = calloc((size_t)in->npats, sizeof(*wp.loop_f));
	if (!wp.rp || !wp.loop_f) {
		free(wp.rp);
		free(wp.loop_f);
		free(p);
		free(q);
		return GM_ERR_NOMEM;
	}
	struct walk_ctx wc = { in, ps, &wp, p, q };
	for (int pi = 0; pi < in->npats; pi++) /* the walk phase: rules W and R, pattern by pattern */
		for (const struct walk_rule *r = walk_rules; r->apply; r++)
			r->apply(&wc, pi);
	if (warps <= (int64_t)wp.nwin * wp.ww) {
		wp.nwin = 1;
		wp.ww = warps;
	}
	pool.tw = calloc((size_t)wp.nwin * in->npats, sizeof(*pool.tw));
	pool.fs = calloc((size_t)wp.nwin * in->npats, sizeof(*pool.fs));
	pool.st = calloc((size_t)wp.nwin, sizeof(*pool.st));
	pool.errs = calloc((size_t)wp.nwin, sizeof(*pool.errs));
	if (!pool.tw || !pool.fs || !pool.st || !pool.errs)
		s = GM_ERR_NOMEM;
	else
		gm_parallel_for(wp.nwin, in->threads, make_scratch, drop_scratch, window_item, &pool);
	for (int k = 0; k < wp.nwin && s == GM_OK; k++) {
		if ((s = pool.st[k]) != GM_OK) {
			*err = pool.errs[k];
			break;
		}
		for (int pi = 0; pi < in->npats; pi++) {
			const struct totals *u = &pool.tw[(size_t)k * in->npats + pi];
			double f = pool.fs[(size_t)k * in->npats + pi];
			struct pat_sum *ps_ = &sums[pi];

			add_scaled(t, u, f);
			ps_->read_bytes += f * u->read_bytes;
			if (k > 0)
				ps_->warm_read_bytes += f * u->read_bytes;
			ps_->write_bytes += f * u->write_bytes;
			ps_->fill_bytes += f * u->fill_bytes;
			ps_->sparse_wr_pieces += f * u->sparse_wr_pieces;
			ps_->sparse_wr_bytes += f * u->sparse_wr_bytes;
			ps_->sparse_wr_far += f * u->sparse_wr_far;
			ps_->wr_own += f * u->wr_own;
			ps_->wr_span += f * u->wr_span;
			ps_->blk_lines += u->blk_lines; /* rule T5: a mean over whole blocks, not scaled */
			ps_->blk_count += u->blk_count;
			if (u->any) {
				ps_->lo = ps_->any && ps_->lo < u->lo ? ps_->lo : u->lo;
				ps_->hi = ps_->any && ps_->hi > u->hi ? ps_->hi : u->hi;
				ps_->any = 1;
			}
		}
		t->warps += wp.ww;
	}
	for (int pi = 0; pi < in->npats; pi++) /* rule D9: the windows, the first of them cold */
		sums[pi].nwin = wp.nwin;
	free(pool.tw);
	free(pool.fs);
	free(pool.st);
	free(pool.errs);
	free(wp.rp);
	free(wp.loop_f);
	free(p);
	free(q);
	return s;
}

/* ---- the sample scaled to the launch ------------------------------------------------------------- */

void gm_launch_scale(const struct totals *t, const struct gm_launch_in *in, struct gm_launch_out *o)
{
	double f = t->warps > 0 ? (double)o->warps / (double)t->warps : 0;

	o->sampled_warps = t->warps;
	o->sampled = t->warps < o->warps;
	o->requests = t->requests * f;
	o->l1_sectors = t->l1_sectors * f;
	o->l1_lines = t->l1_lines * f;
	o->l1_wavefronts = t->l1_waves * f;
	o->l1_many_wavefronts = t->l1_many_waves * f;
	o->l1_spread_wavefronts = t->l1_spread_waves * f;
	/* L2 looks up the lines of the requests L1 does not serve: a load's lines in the share of its sectors
	   that go on to L2 (rule L1), every store's */
	o->l2_lines = (t->l1_load > 0 ? t->l1_load_lines * t->l2_load / t->l1_load : 0) +
		      (t->l1_lines - t->l1_load_lines);
	o->l2_lines *= f;
	/* rule P: the lanes alone in their page, in the share of the loads' sectors that go on to L2; P3: every
	   store lane alone in its page */
	o->page_lanes = ((t->l1_load > 0 ? t->l1_load_alone * t->l2_load / t->l1_load : 0) + t->l1_store_alone) * f;
	/* rule P5: the share of them in requests whose lines share their low address bits */
	o->page_aligned = o->page_lanes > 0 && t->l1_load > 0
				  ? t->l1_load_aligned * t->l2_load / t->l1_load * f / o->page_lanes : 0;
	/* rule P6: the share of them in load requests whose lone lanes spread over their pages' offsets */
	o->page_spread = o->page_lanes > 0 && t->l1_load > 0
				 ? t->l1_load_spread * t->l2_load / t->l1_load * f / o->page_lanes : 0;
	o->page_distance = t->l1_load_alone + t->l1_store_alone > 0
				   ? exp2(t->alone_log2_dist / (t->l1_load_alone + t->l1_store_alone)) : 0;
	o->l1_load_sectors = t->l1_load * f;
	o->l2_load_sectors = t->l2_load * f;
	o->l2_store_sectors = t->l2_store * f;
	o->l2_sectors = o->l2_load_sectors + o->l2_store_sectors;
	o->partial_store_sectors = t->partial * f;
	o->l2_store_bytes = t->store_bytes * f;
	for (int x = 0; x < 5; x++) {
		o->l2_partial_lines[x] = t->pline[x] * f;
		o->l2_spaced_lines_x[x] = t->pline_sp[x] * f;
	}
	o->l2_merged_lines = o->l2_partial_lines[0];
	o->l2_part_lines = o->l2_partial_lines[1] + o->l2_partial_lines[2] + o->l2_partial_lines[3] +
			   o->l2_partial_lines[4];
	o->l2_far_lines = o->l2_far_wide_lines = 0;
	for (int x = 0; x < 5; x++) { /* rule L4's far end: the lines other blocks complete, and that share of the
					 window's first pieces; all by the rows weight of the lone pieces (1 without any) */
		double sh = t->far_cross + t->far_same > 0 ? t->far_cross / (t->far_cross + t->far_same) : 1;
		double gr = t->rows_f > 0 ? t->rows_g / t->rows_f : 1;
		double open = t->rows_all > 0 ? t->rows_open / t->rows_all : 0; /* m75: lines left incomplete */

		o->l2_far_lines_x[x] = (t->far_x[x] + sh * t->first_x[x] + (1 - sh) * t->first_wide_x[x]) * f * gr;
		o->l2_far_wide_lines_x[x] =
			(t->far_wide_x[x] + sh * t->first_wide_x[x] + (1 - sh) * t->first_wide2_x[x] +
			 open * (t->lin_x[x] + (1 - sh) * t->first_lin_x[x])) * f * gr;
		o->l2_far_lines += o->l2_far_lines_x[x];
		o->l2_far_wide_lines += o->l2_far_wide_lines_x[x];
	}
	o->smem_wavefronts = t->wavefronts * f;
	o->dram_read_bytes = t->read_bytes * f;
	o->dram_write_bytes = t->write_bytes * f;
	o->dram_fill_bytes = t->fill_bytes * f;
	o->l2_reuse_bytes = t->reuse_bytes * f;
	o->l2_reuse_wait_bytes = t->reuse_wait_bytes * f;
	o->read_density = t->groups > 0 ? t->pieces / (t->groups * (GROUP_BYTES / 64.0)) : 1.0;
	if (o->read_density > 1)
		o->read_density = 1;
	for (int k = 0; k < GM_READ_SPACING_BINS; k++)
		o->read_spacing[k] = t->spacing[k] * f;
	o->useful_bytes = in->useful_bytes > 0 ? in->useful_bytes : (double)in->n_threads * gm_launch_bytes_per_thread(in);
}
