/*
 * launch_dram.c - what a window of a launch moves to and from DRAM, and what
 * L2 keeps of it (docs/MODEL.md 7.2), one section a rule:
 *   D1  reads move the distinct 64 B pieces (dram_atom_bytes) the window's
 *       loads touch;
 *   D2  writes move the distinct 32 B sectors its stores touch; a partly
 *       written sector at the edge of a run is charged its own bytes;
 *   D5  a sector the window leaves partly written is read first (ECC);
 *   D6  a load piece a warp just before the window read is an L2 hit;
 *   D8  how long L2 keeps a clean piece, and a partly written sector waits
 *       for the rest of its bytes, by the bytes brought in between;
 *   D9  the cold first window: a pattern's loads read what the later windows
 *       read, or its compulsory pieces if more, never more than with it;
 *   D7  a footprint that stays in L2 is moved from DRAM once (over the
 *       launch, after the walk; D8's bounds say how much of it stays);
 *   L4  (beyond the window) sectors D8's probes find completed by blocks
 *       running beside the window count as other blocks' sectors;
 *   T7  (its bytes) the hits whose piece a warp of the same resident wave
 *       read first wait for the part of that read's trip still left (the
 *       time: launch_time.c).
 * It calls into launch_loops.c and launch_keys.c only: the walk and the
 * traffic call it, never the other way (no circle between files).
 * The warps a window's reuse is looked for in (the lookback and probes) are
 * chosen by the walk (launch_walk.c); their keys are gathered here. Rule D3
 * (read rate by density) and D4 (turnaround) are times: launch_time.c.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "model/model_internal.h"

/* ---- rules D1, D2: the window's pieces and sectors, warp by warp; D7: the bytes a pattern touches ----- */

/* The bytes [a0, a1] a lane touches into the pattern's range (rule D7's footprint). */
static inline void touch(struct totals *t, int64_t a0, int64_t a1)
{
	if (!t->any || a0 < t->lo)
		t->lo = a0;
	if (!t->any || a1 > t->hi)
		t->hi = a1;
	t->any = 1;
}

/* Rule D1: the lanes of one load warp into the window's DRAM pieces (dram_atom_bytes). */
static gm_status rule_d1_pieces(struct warp_ctx *c)
{
	struct pat_state *ps = c->ps;
	const struct gm_prediction *p = c->p;
	int elem = c->w->elem_bytes, sh = gm_atom_shift(c->atom);

	if (gm_keys_reserve(&ps->pieces, &ps->piececap, ps->npieces + 2 * GM_WARP_SIZE) != GM_OK)
		return GM_ERR_NOMEM;
	for (int l = 0; l < p->nlanes; l++) {
		int64_t a0, a1, p0, p1;

		if (!p->lanes[l].active)
			continue;
		a0 = p->lanes[l].addr;
		a1 = a0 + elem - 1;
		touch(c->t, a0, a1);
		p0 = a0 >> sh;
		p1 = a1 >> sh;
		if (ps->npieces && ps->pieces[ps->npieces - 1] == p0 && p1 == p0)
			continue; /* the previous lane's piece: made unique when the window closes anyway */
		ps->pieces[ps->npieces++] = p0;
		ps->runs++;
		if (p1 != p0)
			ps->pieces[ps->npieces++] = p1;
	}
	return GM_OK;
}

/* Rule D2: the lanes of one store warp into the window's sectors, each with the bytes a lane writes in it. */
static gm_status rule_d2_sectors(struct warp_ctx *c)
{
	struct pat_state *ps = c->ps;
	const struct gm_prediction *p = c->p;
	int elem = c->w->elem_bytes;

	if (gm_keys_reserve(&ps->sectors, &ps->sectorcap, ps->nsectors + 2 * GM_WARP_SIZE) != GM_OK)
		return GM_ERR_NOMEM;
	for (int l = 0; l < p->nlanes; l++) {
		int64_t a0, a1, s0, s1;

		if (!p->lanes[l].active)
			continue;
		a0 = p->lanes[l].addr;
		a1 = a0 + elem - 1;
		touch(c->t, a0, a1);
		/* sector << 6 | bytes this lane writes in it */
		s0 = a0 / GM_SECTOR_BYTES;
		s1 = a1 / GM_SECTOR_BYTES;
		ps->runs++;
		if (s0 == s1) {
			ps->sectors[ps->nsectors++] = s0 << 6 | elem;
		} else {
			ps->sectors[ps->nsectors++] = s0 << 6 | (GM_SECTOR_BYTES - a0 % GM_SECTOR_BYTES);
			ps->sectors[ps->nsectors++] = s1 << 6 | (a1 % GM_SECTOR_BYTES + 1);
		}
	}
	return GM_OK;
}

static int warp_loads(const struct warp_ctx *c)
{
	return c->w->space != GM_SPACE_SHARED && c->w->op == GM_OP_LOAD;
}

static int warp_stores(const struct warp_ctx *c)
{
	return c->w->space != GM_SPACE_SHARED && c->w->op != GM_OP_LOAD;
}

/* The DRAM phase, per warp (after the traffic phase's rules). */
const struct gm_warp_rule gm_dram_warp_rules[] = {
	{ "D1", "a load's distinct 64 B pieces", warp_loads, rule_d1_pieces },
	{ "D2", "a store's distinct 32 B sectors and the bytes written in each", warp_stores, rule_d2_sectors },
	{ NULL, NULL, NULL, NULL },
};

/* ---- rules D6, D8: what L2 still holds of what warps outside the window left ------------------- */

/* The pieces (loads) or sectors (stores) of one warp outside the window into a keyset (rules D6, D8). */
gm_status gm_keyset_collect(struct keyset *ks, const struct gm_prediction *p, int64_t off, int elem, int atom,
			    int store)
{
	int sh = store ? 5 : gm_atom_shift(atom); /* 32 B sectors, or DRAM pieces */

	if (gm_keys_reserve(&ks->v, &ks->cap, ks->n + 2 * GM_WARP_SIZE) != GM_OK)
		return GM_ERR_NOMEM;
	for (int l = 0; l < p->nlanes; l++) {
		int64_t a0 = p->lanes[l].addr + off, a1 = a0 + elem - 1;

		if (!p->lanes[l].active)
			continue;
		/* neighbouring lanes mostly share a key: keep a run once (sorted and made unique later) */
		int64_t p0 = a0 >> sh, p1 = a1 >> sh; /* addresses are >= 0, atoms a power of two */

		if (!ks->n || ks->v[ks->n - 1] != p0)
			ks->v[ks->n++] = p0;
		if (p1 != p0)
			ks->v[ks->n++] = p1;
	}
	return GM_OK;
}

/* The share of what a use left that L2 still holds d warps later (rule D8). */
static double keep(const struct reuse_ctx *c, int64_t d, double lo, double hi)
{
	double x = c->l2_bytes > 0 ? (double)d * c->alloc_pw / c->l2_bytes : 1e30;

	return x <= lo ? 1.0 : x >= hi ? 0.0 : (hi - x) / (hi - lo);
}

/* The distance of the nearest keyset of kind `far` that holds key, or -1. */
static int64_t nearest(const struct pat_state *ps, int64_t key, int far)
{
	for (int k = 0; k < ps->nks; k++)
		if (ps->ks[k].far == far && ps->ks[k].n && gm_keys_has(ps->ks[k].v, ps->ks[k].n, key))
			return ps->ks[k].dist;
	return -1;
}

/* ---- rules D2, D5, D8: the window's stores ------------------------------------------------------ */

/* Sort and merge a window's store entries to one per sector: sector << 6 | bytes written (at most 32). */
void gm_window_merge_sectors(struct pat_state *ps)
{
	int64_t n = ps->nsectors, k = 0, m = 0, *v = ps->sectors;

	gm_keys_sort(v, n);
	while (k < n) {
		int64_t sec = v[k] >> 6, bytes = 0;

		while (k < n && v[k] >> 6 == sec)
			bytes += v[k++] & 63;
		v[m++] = sec << 6 | (bytes < GM_SECTOR_BYTES ? bytes : GM_SECTOR_BYTES);
	}
	ps->nsectors = m;
}

/* The merged entry of sector sec, or -1. */
static int64_t sector_entry(const int64_t *v, int64_t m, int64_t sec)
{
	int64_t lo = 0, hi = m;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (v[mid] >> 6 < sec)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m && v[lo] >> 6 == sec ? lo : -1;
}

static int is_edge(const int64_t *v, int64_t m, int64_t k)
{
	int64_t sec = v[k] >> 6;

	return (k > 0 && v[k - 1] >> 6 == sec - 1 && (v[k - 1] & 63) == GM_SECTOR_BYTES) ||
	       (k + 1 < m && v[k + 1] >> 6 == sec + 1 && (v[k + 1] & 63) == GM_SECTOR_BYTES);
}

/* ---- rule L4 beyond the window (found by rule D8's probes) ---- */

/*
 * Rule L4 beyond the window: a share f of the sectors the window's first warps
 * wrote is completed by blocks outside the window that run beside it (probes
 * of rule D8). The lines that found no other block's sectors in the window
 * (pline[0]) take f of their partly written sectors as other blocks' (their
 * mean count, split between the two nearest whole counts).
 */
static void rule_l4_far_partners(struct totals *t, double f)
{
	double moved = t->pline[0] * (f < 1 ? f : 1), x, lo, share;
	double *ws[9] = { t->pline, t->far_x, t->far_wide_x, t->first_x, t->first_wide_x, t->first_wide2_x,
			  t->lin_x, t->first_lin_x, t->pline_sp };

	if (!(moved > 0) || !(t->pline0_sectors > 0))
		return;
	x = t->pline0_sectors / t->pline[0];
	x = x < 4 ? x : 4;
	lo = floor(x);
	share = moved / t->pline[0];
	t->pline0_sectors -= moved * x;
	for (int j = 0; j < 9; j++) { /* the lines, rule L4's far-end weights of them (launch_traffic.c), the spaced */
		double *w = ws[j], m = w[0] * share;

		w[0] -= m;
		w[(int)lo] += m * (1 - (x - lo));
		if (lo < 4)
			w[(int)lo + 1] += m * (x - lo);
	}
}

/*
 * Rule D3: the pieces a pattern reads in the window, by its spacing there (its 256 B groups x 4 / its pieces:
 * 1 dense, 2 half, 4 sparse), shared linearly between the two nearest bins. Rule D3b: a pattern whose every
 * piece is alone in its 256 B group and read by one warp (`lone`: the window's distinct pieces over its lanes'
 * runs, 1 where no two warps share a piece, 1/2 or less where each is shared) goes on by its 512 B groups x 8 /
 * its pieces, 4 .. 8, in quarter doublings past bin GM_READ_SPACING_NEAR; the pieces warps share go to 8 (the
 * sparse rate, where D3b meets D3). The fills of stores (rule D5) go to the second half of the bins (rule D10).
 */
static void add_spacing(struct totals *t, double pieces, double groups, double wide, double distinct, double lone,
			int fill)
{
	double x = distinct > 0 ? 4.0 * groups / distinct : 1.0, b, w, share = 2.0 * lone - 1.0;
	int k, half = GM_READ_SPACING_BINS / 2, last = fill ? GM_READ_SPACING_BINS - 2 : half - 2;

	x = x < 1.0 ? 1.0 : x > 4.0 ? 4.0 : x;
	share = share < 0 ? 0 : share > 1 ? 1 : share;
	if (x >= 4.0 && distinct > 0) {
		double xw = 8.0 * wide / distinct;

		xw = xw < 4.0 ? 4.0 : xw > 8.0 ? 8.0 : xw;
		if (share < 1) {        /* the shared pieces: at the sparse rate's spacing, 8 (where D3b meets D3) */
			b = GM_READ_SPACING_NEAR + 4.0 + (fill ? half : 0);
			t->spacing[(int)b] += pieces * (1.0 - share);
		}
		pieces *= share;
		x = xw;
	}
	b = x <= 4.0 ? (x - 1.0) * 4.0 : GM_READ_SPACING_NEAR + 4.0 * log2(x / 4.0);
	k = (int)b + (fill ? half : 0);
	k = k > last ? last : k;
	w = b + (fill ? half : 0) - k;
	t->spacing[k] += pieces * (1.0 - w);
	t->spacing[k + 1] += pieces * w;
}

/*
 * Rule D12: the window's written pieces, group by group (they come in order). A 256 B group that holds k written
 * pieces (of its 4 pieces of 64 B, GROUP_BYTES / atom in general) weighs each of those with no fill (rule D5's
 * are D10's) w = log2(4 / k) / 2: 1 for a piece alone in its group (256 B apart or more), 0 in a whole group,
 * in log2 of the spacing 4 / k between (m80: probe-78's lone pieces 128 / 192 B apart cost 0.57-0.62 / 0.92 of a
 * lone access past the dense write, where the line in the spacing gave 1/3 and 2/3; log2: 1/2, 0.79). By group, not over the window: a dense run's edges weigh
 * only the group they end in. The window's first and last groups are left out: their other pieces may be the
 * warps' before and after the window (a window cuts a dense run anywhere).
 */
struct lone_acc {
	int64_t group;  /* the group being counted, -1 before the first */
	int64_t first;  /* the window's first group */
	int64_t prev;   /* the last group counted that held written pieces, -1 before it */
	double k, u, b; /* its written pieces, those with no fill, and their bytes */
	double n, nb;   /* the window's weighted pieces with no fill and their bytes */
	double nf;      /* of n, the lone pieces by their groups' gap from 256 to 512 B, log2 (0 to 1) */
};

static void lone_flush(struct lone_acc *l, int atom)
{
	double per = (double)GROUP_BYTES / atom, w;

	if (l->k > 0 && per > 1 && l->group != l->first) {
		w = log2(per / l->k) / log2(per);
		w = w < 0 ? 0 : w > 1 ? 1 : w;
		l->n += l->u * w;
		l->nb += l->b * w;
		if (l->k == 1 && l->prev >= 0 && l->group - l->prev > 1) { /* alone past 256 B: 512 B's share */
			double v = log2((double)(l->group - l->prev));

			l->nf += l->u * (v > 1 ? 1 : v);
		}
	}
	if (l->k > 0)
		l->prev = l->group;
	l->k = l->u = l->b = 0;
}

static void lone_piece(struct lone_acc *l, int64_t piece, int atom, double bytes, int filled)
{
	int64_t g = piece * atom / GROUP_BYTES;

	if (l->group < 0)
		l->first = g;
	if (g != l->group)
		lone_flush(l, atom);
	l->group = g;
	l->k += 1;
	if (!filled) {
		l->u += 1;
		l->b += bytes;
	}
}

/*
 * The window's stores: distinct sectors are written to DRAM (rule D2). A
 * sector the window leaves partly written must first be read (rule D5, ECC).
 * Rule D8: where the rest of its bytes is written by a warp outside the
 * window (found among the probes of the window's first warps, behind and
 * ahead), the two parts meet in L2 with the share keep(distance): met, each
 * part writes its own bytes; missed, each writes the sector and reads it
 * first. Where no partner is found, a sector that borders a fully written
 * one is the edge of a run the neighbouring run completes (its own bytes),
 * any other is read and written whole. The share of partial sectors with a
 * partner, and their mean cost, are taken from the first warps' sectors (edge
 * and other apart) and applied to all. The filled 64 B pieces join the reads.
 */
static void store_sectors(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c)
{
	int64_t m, nfill = 0, cur_piece = -1;
	int64_t *v; /* merged entries, then (in place) the filled pieces */
	double rate[2] = { 0, 0 }, mw[2] = { 0, 0 }, mf[2] = { 0, 0 }, fill_sum = 0, piece_fill = 0;
	double piece_w = 0;
	struct lone_acc lone = { -1, -1, -1, 0, 0, 0, 0, 0, 0 }; /* rule D12: the pieces written with no fill */

	gm_window_merge_sectors(ps);
	m = ps->nsectors;
	v = ps->sectors;
	if (m > 0) { /* rule D12's window density: the bytes the lanes carry over the sectors' span */
		for (int64_t k = 0; k < m; k++)
			t->wr_own += (double)(v[k] & 63);
		t->wr_span += (double)((v[m - 1] >> 6) - (v[0] >> 6) + 1) * GM_SECTOR_BYTES;
	}
	if (c && ps->nks) {
		double tot[2] = { 0, 0 }, near = 0;

		for (int64_t j = 0; j < ps->nsub; j++) {
			int64_t k = sector_entry(v, m, ps->sub[j]), d;
			int e, own;
			double kk;

			if (k < 0 || (own = (int)(v[k] & 63)) == GM_SECTOR_BYTES)
				continue;
			e = is_edge(v, m, k);
			tot[e] += 1;
			if ((d = nearest(ps, ps->sub[j], 1)) < 0)
				continue;
			/* rule L4: the rest comes from another block (a block or more away) running beside this one */
			near += d >= c->wpb && d < c->resident;
			kk = keep(c, d, KEEP_PART_LO, KEEP_PART_HI);
			rate[e] += 1;
			mw[e] += kk * own + (1 - kk) * GM_SECTOR_BYTES;
			mf[e] += 1 - keep(c, d, KEEP_FILL_LO, KEEP_FILL_HI);
		}
		for (int e = 0; e < 2; e++)
			if (rate[e] > 0) {
				mw[e] /= rate[e];
				mf[e] /= rate[e];
				rate[e] /= tot[e];
			}
		if (ps->nsub > 0 && near > 0)
			rule_l4_far_partners(t, near / (double)ps->nsub);
	}
	for (int64_t k = 0; k < m; k++) {
		int64_t cur = v[k], sec = cur >> 6, piece = sec * GM_SECTOR_BYTES / atom;
		int own = (int)(cur & 63), e;
		double w, f;

		if (own == GM_SECTOR_BYTES) {
			w = GM_SECTOR_BYTES;
			f = 0;
		} else {
			e = is_edge(v, m, k);
			w = rate[e] * mw[e] + (1 - rate[e]) * (e ? own : GM_SECTOR_BYTES);
			f = rate[e] * mf[e] + (1 - rate[e]) * (e ? 0 : 1);
		}
		t->write_bytes += w;
		/* one fill reads the whole piece: the piece's share is its most likely sector's */
		if (piece != cur_piece) {
			if (cur_piece >= 0)
				lone_piece(&lone, cur_piece, atom, piece_w, piece_fill > 0);
			if (piece_fill > 0) {
				fill_sum += piece_fill;
				v[nfill++] = cur_piece; /* nfill <= k: entries from k on are intact */
			}
			cur_piece = piece;
			piece_fill = 0;
			piece_w = 0;
		}
		piece_fill = f > piece_fill ? f : piece_fill;
		piece_w += w;
	}
	if (cur_piece >= 0)
		lone_piece(&lone, cur_piece, atom, piece_w, piece_fill > 0);
	if (piece_fill > 0) {
		fill_sum += piece_fill;
		v[nfill++] = cur_piece;
	}
	/* the last group is left out as the first (lone_acc): not flushed */
	t->sparse_wr_pieces += lone.n;
	t->sparse_wr_bytes += lone.nb;
	t->sparse_wr_far += lone.nf;
	if (nfill) {
		t->read_bytes += fill_sum * atom;
		t->fill_bytes += fill_sum * atom;
		double g = (double)gm_keys_groups(v, nfill, atom);

		t->pieces += fill_sum;
		t->groups += g * fill_sum / (double)nfill;
		add_spacing(t, fill_sum, g, (double)gm_keys_groups_of(v, nfill, atom, GROUP_WIDE_BYTES), (double)nfill,
			    ps->runs > 0 ? (double)m / (double)ps->runs : 1.0, 1);
	}
}

/* ---- rules D1, D6, D8: the window's loads -------------------------------------------------------- */

/*
 * Rule T7: the part of the DRAM round trip a hit found d warps back waits for.
 * None where a warp a resident wave or more back holds its piece (among the
 * keysets): that read is back. Otherwise the farthest keyset that holds it,
 * D warps back, is its first reader, and that read is still on its way:
 * blocks start one after another as others end, so it began D / resident of
 * a round trip before the hit and 1 - D / resident of the trip is left.
 * Blocks that meet at barriers start their wave together: all of it.
 */
static double same_wave(const struct pat_state *ps, int64_t key, int64_t d, const struct reuse_ctx *c)
{
	int64_t first = d;

	if (d < 0 || d >= c->resident)
		return 0;
	for (int k = 0; k < ps->nks; k++)
		if (ps->ks[k].n && gm_keys_has(ps->ks[k].v, ps->ks[k].n, key)) {
			if (ps->ks[k].dist >= c->resident)
				return 0;
			first = ps->ks[k].dist > first ? ps->ks[k].dist : first;
		}
	return c->lockstep ? 1.0 : 1.0 - (double)first / (double)c->resident;
}

/* Rule T7: of the first warps' hits, the share of the round trip they wait for their first reader's read (the
   probes hold only those warps' partners, so the share is judged there and applied to all the window's hits). */
static double same_wave_share(const struct pat_state *ps, const struct reuse_ctx *c)
{
	double hit = 0, wave = 0;

	for (int64_t j = 0; j < ps->nsub; j++) {
		int64_t d = nearest(ps, ps->sub[j], 0);
		double kk;

		if (d < 0)
			d = nearest(ps, ps->sub[j], 1);
		if (d < 0 || !((kk = keep(c, d, KEEP_CLEAN_LO, KEEP_CLEAN_HI)) > 0))
			continue;
		hit += kk;
		wave += kk * same_wave(ps, ps->sub[j], d, c);
	}
	return hit > 0 ? wave / hit : 0;
}

/*
 * A window's load pieces: those an earlier warp left in L2 are hits (rules
 * D6, D8), in the share keep(distance) of the nearest lookback chunk that
 * holds them; beyond the chunks, the first warps' pieces are looked for in
 * the probes, and the share they find applies to all pieces not found near.
 * The rest are DRAM reads. u: the window's distinct pieces. Of the hits,
 * those first read within the resident wave are counted apart (rule T7).
 */
static void load_pieces(struct pat_state *ps, int64_t u, int atom, struct totals *t, const struct reuse_ctx *c)
{
	int64_t m = 0, not_near = 0;
	double hits = 0, full = 0;

	for (int64_t k = 0; k < u; k++) {
		int64_t d = c && ps->nks ? nearest(ps, ps->pieces[k], 0) : -1;
		double kk = d >= 0 ? keep(c, d, KEEP_CLEAN_LO, KEEP_CLEAN_HI) : 0;

		if (kk >= 1.0) {
			full += 1;
			continue;
		}
		hits += kk;
		not_near += d < 0;
		ps->pieces[m++] = ps->pieces[k];
	}
	if (c && not_near) {
		double cnt = 0, found = 0;

		for (int64_t j = 0; j < ps->nsub; j++) {
			int64_t d;

			if (nearest(ps, ps->sub[j], 0) >= 0)
				continue;
			cnt += 1;
			if ((d = nearest(ps, ps->sub[j], 1)) >= 0)
				found += keep(c, d, KEEP_CLEAN_LO, KEEP_CLEAN_HI);
		}
		if (cnt > 0)
			hits += found / cnt * (double)not_near;
	}
	hits = hits < (double)m ? hits : (double)m;
	t->reuse_bytes += (full + hits) * atom;
	if (c && ps->nks && full + hits > 0)
		t->reuse_wave_bytes += (full + hits) * atom * same_wave_share(ps, c);
	t->read_bytes += ((double)m - hits) * atom;
	t->pieces += (double)m - hits;
	if (m) {
		double g = (double)gm_keys_groups(ps->pieces, m, atom);

		t->groups += g * ((double)m - hits) / (double)m;
		add_spacing(t, (double)m - hits, g, (double)gm_keys_groups_of(ps->pieces, m, atom, GROUP_WIDE_BYTES),
			    (double)m, ps->runs > 0 ? (double)u / (double)ps->runs : 1.0, 0);
	}
}

/* ---- the window's close: its registry -------------------------------------------------------------- */

/* Rules D1, D6, D8 at the window's close: its distinct load pieces, less what L2 still holds. */
static void rule_d1_d6_d8_loads(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c)
{
	load_pieces(ps, ps->pieces_unique ? ps->npieces : gm_keys_sort_unique(ps->pieces, ps->npieces), atom, t, c);
}

/* Rules D2, D5, D8 (and L4 beyond the window) at the window's close: its store sectors. */
static void rule_d2_d5_d8_stores(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c)
{
	store_sectors(ps, atom, t, c);
}

static int has_pieces(const struct pat_state *ps)
{
	return ps->npieces > 0;
}

static int has_sectors(const struct pat_state *ps)
{
	return ps->nsectors > 0;
}

/* The DRAM phase at a window's close, in order. */
const struct gm_window_rule gm_dram_window_rules[] = {
	{ "D1 D6 D8", "the window's load pieces, less those L2 still holds", has_pieces, rule_d1_d6_d8_loads },
	{ "D2 D5 D8 L4", "the window's store sectors: writes, fills, partners beyond it", has_sectors,
	  rule_d2_d5_d8_stores },
	{ NULL, NULL, NULL, NULL },
};

/* Close a window: distinct pieces / sectors become DRAM bytes; c: the reuse across windows (NULL: none).
   The caller flushes the window's last block first (gm_block_flush, launch_traffic.c). */
void gm_window_close(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c)
{
	for (const struct gm_window_rule *r = gm_dram_window_rules; r->apply; r++)
		if (r->applies(ps))
			r->apply(ps, atom, t, c);
	ps->npieces = ps->nsectors = 0;
	ps->pieces_unique = 0;
	ps->runs = 0;
}

/* ---- rule D9: the cold window -------------------------------------------------------------------- */

/*
 * Rule D9, the cold window: the first sampled window starts at warp 0 with no
 * warp before it, so rule D6 finds nothing there and every piece it loads is a
 * DRAM read; scaled as one window of the sample it stands for a share of the
 * launch that nothing before it left in L2. The launch's cold start is its
 * compulsory reads: a pattern reads each piece it touches at least once, at
 * most min(the pieces its range spans, its accesses) of them. So a pattern's
 * loads read the larger of what the later (warm) windows read, scaled to the
 * launch, and that compulsory count, never more than the windows read with the
 * cold one; what is taken off is read from L2 (reuse; hits that wait for DRAM
 * by rule T7 where the warm windows read from it). Patterns that describe
 * shapes (rule W), loops evaluated in part (rule R) and one-window launches
 * are left alone. f: evaluated warps to the launch's.
 */
void gm_rule_d9_cold_window(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			    struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	int atom = pr->dram_atom_bytes;

	for (int k = 0; k < in->npats; k++) {
		const struct gm_access *a = &in->pats[k];
		struct pat_sum *u = &sums[k];
		double part, cur, warm, pieces, accesses, floor_, want;

		if (a->space != GM_SPACE_GLOBAL || a->op != GM_OP_LOAD || ps[k].per_warp || !u->any || u->nwin < 2 ||
		    atom <= 0)
			continue;
		(void)gm_launch_loops(in, k, &part);
		if (part > 1.0)
			continue;
		cur = u->read_bytes * f;
		warm = u->warm_read_bytes * f * (double)u->nwin / (double)(u->nwin - 1);
		pieces = (double)((u->hi / atom) - (u->lo / atom) + 1);
		accesses = (double)in->n_threads * (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
		floor_ = (pieces < accesses ? pieces : accesses) * atom;
		want = warm > floor_ ? warm : floor_;
		if (!(want < cur))
			continue;
		o->dram_read_bytes -= cur - want;
		o->l2_reuse_bytes += cur - want;
		if (warm > 0) /* rule T7: hits of a pattern whose warm windows read from DRAM wait with those reads */
			o->l2_reuse_wait_bytes += cur - want;
		u->read_bytes = want / f;
	}
}

/* ---- rule D12: sparse writes ----------------------------------------------------------------------- */

/*
 * Rule D12, the launch's part: the pieces the windows write with no fill and no neighbour (store_sectors) are
 * sparse for DRAM only where nobody writes the gaps between them, which a window cannot see (a column walk's or a
 * transposed tile's window is sparse, its launch writes every byte and L2 merges the lines). Each store pattern's
 * lone pieces are weighted by the share of its windows' gaps the launch leaves unwritten: b = (1 - d) / (1 - dw)
 * within [0, 1], d = the bytes its threads store (threads x element x iterations, rule D7's) / its footprint in
 * sectors (lowest to highest address the windows touched), dw = the bytes its windows' stores carry / the bytes
 * their sectors span (m80; m78 to m79: b = (1 / d - 1) / 3, which also counted the spacing the window's weight
 * counts: probe-78's whole atoms 128-192 B apart at 1/3-2/3 of it). 1 where the launch is as sparse as its windows
 * (strided stores), 0 where it writes every byte (column walks, tiles, later passes); then scaled by the share of
 * the launch's writes that still reach DRAM after rules D7 and D11. Priced in the time phase (write_ms), with
 * write_sparse_gbs.
 */
void gm_rule_d12_sparse_writes(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			       struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	double all = 0, pieces = 0, bytes = 0, far = 0;

	(void)ps;
	if (!(pr->write_sparse_gbs > 0))
		return;
	for (int k = 0; k < in->npats; k++) {
		const struct pat_sum *u = &sums[k];
		double fp, d, dw, b, mine;

		if (in->pats[k].space != GM_SPACE_GLOBAL || in->pats[k].op != GM_OP_STORE || !u->any)
			continue;
		all += u->write_bytes * f;
		fp = (double)((u->hi / GM_SECTOR_BYTES) - (u->lo / GM_SECTOR_BYTES) + 1) * GM_SECTOR_BYTES;
		mine = (double)in->n_threads * (double)in->pats[k].elem_bytes *
		       (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
		if (!(u->sparse_wr_pieces > 0) || !(fp > 0) || !((d = mine / fp) > 0) || !(u->wr_span > 0))
			continue;
		dw = u->wr_own / u->wr_span;
		if (!(d < 1.0) || !(dw < 1.0))
			continue;
		b = (1.0 - d) / (1.0 - dw);
		b = b < 0 ? 0 : b > 1 ? 1 : b;
		pieces += u->sparse_wr_pieces * f * b;
		bytes += u->sparse_wr_bytes * f * b;
		far += u->sparse_wr_far * f * b;
	}
	if (!(all > 0) || !(pieces > 0))
		return;
	all = o->dram_write_bytes < all ? o->dram_write_bytes / all : 1.0;
	o->dram_sparse_write_pieces = pieces * all;
	o->dram_sparse_write_bytes = bytes * all;
	o->dram_sparse_write_far = far * all;
}

/* ---- rule D7: a footprint that stays in L2 ------------------------------------------------------- */

/*
 * Rule D7, a footprint that stays in L2: a pattern whose whole footprint F
 * (the bytes between the lowest and highest address it touches, in DRAM
 * pieces for loads, sectors for stores) comes back while it is still in L2
 * moves it from DRAM once, however often it is read or written. It comes
 * back in time by rule D8's bounds for a clean piece, with the distance
 * D = F x the launch's bytes per thread / the pattern's (F with what the
 * launch's other patterns move meanwhile): all of it up to KEEP_CLEAN_LO x
 * l2_bytes, none past KEEP_CLEAN_HI x l2_bytes, the share between (what F
 * saves is scaled by it). The footprint is measured over
 * the evaluated warps (the windows reach from the first warp to the last);
 * patterns that describe shapes (rule W) and loops evaluated in part (rule R)
 * are left alone. f: evaluated warps to the launch's.
 */
void gm_rule_d7_footprints(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			   const struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	double per_thread = gm_launch_bytes_per_thread(in);
	int atom = pr->dram_atom_bytes;

	for (int k = 0; k < in->npats; k++) {
		const struct gm_access *a = &in->pats[k];
		const struct pat_sum *u = &sums[k];
		double part, mine, fp, cut, x, q;

		if (a->space != GM_SPACE_GLOBAL || ps[k].per_warp || !u->any)
			continue;
		(void)gm_launch_loops(in, k, &part);
		if (part > 1.0)
			continue;
		mine = (double)a->elem_bytes * (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
		if (a->op == GM_OP_LOAD)
			fp = (double)((u->hi / atom) - (u->lo / atom) + 1) * atom;
		else
			fp = (double)((u->hi / GM_SECTOR_BYTES) - (u->lo / GM_SECTOR_BYTES) + 1) * GM_SECTOR_BYTES;
		if (!(mine > 0) || !(pr->l2_bytes > 0))
			continue;
		/* the share L2 keeps: rule D8's bounds for a clean piece, the distance F x bytes per thread / mine */
		x = fp * per_thread / mine / pr->l2_bytes;
		q = x <= KEEP_CLEAN_LO ? 1.0 : x >= KEEP_CLEAN_HI ? 0.0 : (KEEP_CLEAN_HI - x) / (KEEP_CLEAN_HI - KEEP_CLEAN_LO);
		if (!(q > 0))
			continue;
		if (a->op == GM_OP_LOAD && (cut = (u->read_bytes * f - fp) * q) > 0) {
			o->dram_read_bytes -= cut;
			o->l2_reuse_bytes += cut;
			o->l2_footprint_bytes += cut;
		}
		if (a->op == GM_OP_STORE && (cut = (u->write_bytes * f - fp) * q) > 0) {
			o->dram_write_bytes -= cut;
			o->l2_footprint_bytes += cut;
		}
		if (a->op == GM_OP_STORE && (cut = (u->fill_bytes * f - fp) * q) > 0) {
			o->dram_read_bytes -= cut;
			o->dram_fill_bytes -= cut;
			o->l2_footprint_bytes += cut;
		}
	}
}
