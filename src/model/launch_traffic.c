/*
 * launch_traffic.c - what one warp of a launch sends to L1 and L2
 * (docs/MODEL.md 7.2): the traffic phase's registry, gm_traffic_rules, one
 * named function a rule, applied to each warp in order:
 *   T1s rule_t1_shared      a shared request's wavefronts (its time: launch_time.c);
 *   L1  rule_l1_block       requests and sectors of each warp as the warp model
 *                           counts them; a load sector another warp of the same
 *                           block already loaded hits; the distinct lines of a
 *                           block's loads are what it waits for (T5);
 *   T1  rule_t1_banks       the wavefronts L1's 32 banks need for a request;
 *   P   rule_p_alone        load lanes alone in their 2 MiB page (P3: and store lanes;
 *                           P4 their distance, P5 aligned, P6 spread);
 *   L2  rule_l2_partial     a store sector a warp writes partly costs two L2
 *                           operations (read-modify-write), a full one one;
 *   L4  rule_l4_lines       the lines a store request writes partly, by how many
 *                           of their sectors another block of the window (or,
 *                           beyond it, one running beside it) wrote last.
 * gm_warp_traffic walks them for one warp, then the DRAM phase's per-warp
 * rules (gm_dram_warp_rules, launch_dram.c: D1, D2). The times these counts
 * take are in launch_time.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/model_internal.h"

/* ---- rule L1: a block's warps share their load sectors in L1 ------------------------------------ */

/*
 * The current block's distinct load sectors go to L2; the rest hit in L1.
 * Their distinct 128 B lines are the round trips the block waits for (rule
 * T5, launch_time.c), counted for the blocks a window holds whole.
 */
void gm_block_flush(struct pat_state *ps, struct totals *t)
{
	if (ps->nblk) {
		int64_t m = gm_keys_sort_unique(ps->blk, ps->nblk), lines = 0, spl = GM_LINE_BYTES / GM_SECTOR_BYTES;

		t->l2_load += (double)m;
		if (ps->blk_w0 == 0 && ps->blk_wl == ps->blk_wpb - 1) {
			for (int64_t k = 0; k < m; k++) /* sorted: a line's sectors are neighbours */
				lines += !k || ps->blk[k] / spl != ps->blk[k - 1] / spl;
			t->blk_lines += (double)lines;
			t->blk_count += 1;
		}
	}
	ps->nblk = 0;
}

static gm_status block_sectors(struct pat_state *ps, const struct gm_access *w, const struct gm_prediction *p,
			       int64_t block, struct totals *t)
{
	int elem = w->elem_bytes;

	if (block != ps->cur_block || !ps->nblk) {
		gm_block_flush(ps, t);
		ps->blk_w0 = w->warp;
		ps->blk_wpb = (w->block[0] * w->block[1] * w->block[2] + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	}
	ps->blk_wl = w->warp;
	ps->cur_block = block;
	if (gm_keys_reserve(&ps->blk, &ps->blkcap, ps->nblk + 2 * GM_WARP_SIZE) != GM_OK)
		return GM_ERR_NOMEM;
	for (int l = 0; l < p->nlanes; l++) {
		int64_t a0 = p->lanes[l].addr, a1 = a0 + elem - 1;

		if (!p->lanes[l].active)
			continue;
		ps->blk[ps->nblk++] = a0 / GM_SECTOR_BYTES;
		if (a1 / GM_SECTOR_BYTES != a0 / GM_SECTOR_BYTES)
			ps->blk[ps->nblk++] = a1 / GM_SECTOR_BYTES;
	}
	return GM_OK;
}

/*
 * Rule P4's distance (branch h49m): the median gap between the lone lanes' addresses, sorted. A warp of a
 * column walk over R rows, R not a multiple of 32, wraps to the next column (rows 96..99 of one column and 0..27
 * of the next at R = 100): its gaps are one pitch each but one, the wrap, of the whole walk; the mean distance
 * (span over count less one) took that warp's pages as 3.2 pitches apart at R = 100.
 */
static double neighbour_distance(const int64_t *ad, const char *lone, int n)
{
	int64_t v[GM_WARP_SIZE], gap[GM_WARP_SIZE];
	int m = 0;

	for (int i = 0; i < n; i++)
		if (lone[i])
			v[m++] = ad[i];
	gm_keys_sort(v, m);
	for (int i = 1; i < m; i++)
		gap[i - 1] = v[i] - v[i - 1];
	gm_keys_sort(gap, m - 1);
	return (double)gap[(m - 2) / 2];
}

/*
 * Rule P6 (branch m74, issue 36): whether a request's lone lanes (two or more) spread over their 2 MiB pages'
 * offsets: sorted round the page, no gap between neighbours (the last to the first across the page's end
 * included) of GM_PAGES_SPREAD_GAP, half a page, or more. Column walks at 1.5-10.24 MiB pitches (m73); not the
 * calibrated walks of P4 and P5 (32 lanes within 4 KiB), nor rows 3 MiB apart (two offsets half a page apart).
 */
static int lanes_spread(const int64_t *ad, const char *lone, int n)
{
	int64_t v[GM_WARP_SIZE];
	int m = 0;

	for (int i = 0; i < n; i++)
		if (lone[i])
			v[m++] = ((ad[i] % GM_PAGE_BYTES) + GM_PAGE_BYTES) % GM_PAGE_BYTES;
	if (m < 2)
		return 0;
	gm_keys_sort(v, m);
	if (v[0] + GM_PAGE_BYTES - v[m - 1] >= GM_PAGES_SPREAD_GAP)
		return 0;
	for (int i = 1; i < m; i++)
		if (v[i] - v[i - 1] >= GM_PAGES_SPREAD_GAP)
			return 0;
	return 1;
}

/*
 * Rule P: the active lanes of a request whose 2 MiB page no other active lane of it touches. Rule P4: *dist,
 * the distance between those lanes' neighbouring addresses (their median gap, neighbour_distance; the
 * calibrated 4 MiB + 128 B for a lane alone). Rule P5: *aligned, whether two or more lie alone, that distance
 * is near a power of two P of 2 MiB or more, and their addresses all lie within a line of the lowest one's modulo P
 * (rows 2 MiB + 4 B apart too: 32 lanes span 124 B there; not 3 or 6 MiB, nor 2 MiB + 128 KiB). Rule P6:
 * *spread, whether they spread over their pages' offsets (lanes_spread).
 */
static int lanes_alone_in_page(const struct gm_prediction *p, double *dist, int *aligned, int *spread)
{
	int64_t pg[GM_WARP_SIZE], ad[GM_WARP_SIZE], lo = INT64_MAX, pw;
	int n = 0, alone = 0, near = 1;
	char lone[GM_WARP_SIZE];

	for (int l = 0; l < p->nlanes && n < GM_WARP_SIZE; l++)
		if (p->lanes[l].active) {
			ad[n] = p->lanes[l].addr;
			pg[n++] = p->lanes[l].addr / GM_PAGE_BYTES;
		}
	for (int i = 0; i < n; i++) {
		int k;

		for (k = 0; k < n && (k == i || pg[k] != pg[i]); k++)
			;
		lone[i] = k == n;
		if (k < n)
			continue;
		alone++;
		lo = ad[i] < lo ? ad[i] : lo;
	}
	*dist = alone > 1 ? neighbour_distance(ad, lone, n) : GM_PAGES_DIST_4M;
	pw = *dist >= 1 && *dist < 0x1p62 ? (int64_t)1 << (int)lround(log2(*dist)) : 1;
	for (int i = 0; i < n; i++)
		if (lone[i])
			near &= (ad[i] - lo) % pw < GM_LINE_BYTES || (ad[i] - lo) % pw > pw - GM_LINE_BYTES;
	*aligned = alone > 1 && pw >= GM_PAGE_BYTES && near;
	*spread = alone > 1 && lanes_spread(ad, lone, n);
	return alone;
}

/*
 * Rule T1 by banks: L1's data array is 32 banks of 4 B, as shared memory's;
 * a wavefront reads one word from each bank, whatever line it is in. A
 * request whose lanes each read one aligned word of at most 4 B needs as
 * many wavefronts as the most distinct words one bank holds, never more than
 * its lines (a column walk at a pitch of 4097 words: 32 lines, one a bank,
 * one wavefront; at 4096: 32 in bank 0, 32). Wider or straddling lanes: their
 * lines.
 */
static int64_t l1_wavefronts(const struct gm_prediction *p, int elem)
{
	int64_t words[GM_WARP_SIZE], lines = p->global.lines;
	int n = 0, per_bank[GM_SMEM_BANKS] = { 0 }, ways = 0;

	if (elem > GM_SMEM_BANK_BYTES)
		return lines;
	for (int l = 0; l < p->nlanes && l < GM_WARP_SIZE; l++) {
		int64_t a = p->lanes[l].addr;

		if (!p->lanes[l].active)
			continue;
		if (a / GM_SMEM_BANK_BYTES != (a + elem - 1) / GM_SMEM_BANK_BYTES)
			return lines;
		gm_sorted_add(words, &n, a / GM_SMEM_BANK_BYTES); /* the banks' counts: any order */
	}
	for (int k = 0; k < n; k++) {
		int b = (int)(words[k] % GM_SMEM_BANKS);

		if (++per_bank[b] > ways)
			ways = per_bank[b];
	}
	return ways > 0 && ways < lines ? ways : lines;
}

/* Rule L1: requests, sectors and lines at L1 as the warp model counts them; a load's sectors go on to L2 once
   per block (or per warp, rule W). */
static gm_status rule_l1_block(struct warp_ctx *c)
{
	struct gm_prediction *p = c->p;
	struct totals *t = c->t;

	gm_global_counts_of(p->lanes, c->w->elem_bytes, &p->global);
	t->requests += (double)p->global.requests;
	t->l1_sectors += (double)p->global.sectors;
	t->l1_lines += (double)p->global.lines;
	if (c->w->op != GM_OP_LOAD)
		return GM_OK;
	t->l1_load_lines += (double)p->global.lines;
	t->l1_load += (double)p->global.sectors;
	if (!c->ps->per_warp)
		return block_sectors(c->ps, c->w, p, c->block, t);
	t->l2_load += (double)p->global.sectors;
	return GM_OK;
}

/* Rule T13 (helper m52's, launch_time.c uses it): a load request's wavefronts beyond those of a dense request of
   the same bytes (128 B a wavefront, at least one) */
static double spread_wavefronts(const struct gm_prediction *p, double w)
{
	double dense = ceil((double)p->global.bytes_requested / 128.0);

	dense = dense < 1 ? 1 : dense;
	return w > dense ? w - dense : 0;
}

/* Rule T1 (global): the wavefronts L1's banks need for the request (after L1, which counts its lines); rule
   T11: those of a load request over GM_L1_MANY_LINES lines apart */
static gm_status rule_t1_banks(struct warp_ctx *c)
{
	double w = (double)l1_wavefronts(c->p, c->w->elem_bytes);

	c->t->l1_waves += w;
	/* rule T13: lanes of a bank word or narrower (T1's bank count) delay the round trip once, wider lanes
	   (their lines) twice: spread_ms takes the block's share twice (c83's probe, docs/MODEL.md T13) */
	if (c->w->op == GM_OP_LOAD)
		c->t->l1_spread_waves += spread_wavefronts(c->p, w) * (c->w->elem_bytes <= GM_SMEM_BANK_BYTES ? 0.5 : 1.0);
	if (c->w->op == GM_OP_LOAD && c->p->global.lines > GM_L1_MANY_LINES)
		c->t->l1_many_waves += w;
	return GM_OK;
}

/* Rule P: the load lanes alone in their 2 MiB page; rule P3: the store lanes too (a store is translated as a
   load is, and L1 serves none of them) */
static gm_status rule_p_alone(struct warp_ctx *c)
{
	double dist;
	int aligned, spread, alone = lanes_alone_in_page(c->p, &dist, &aligned, &spread);

	if (c->w->op == GM_OP_LOAD) {
		c->t->l1_load_alone += (double)alone;
		c->t->l1_load_aligned += aligned ? (double)alone : 0; /* rule P5, measured with loads */
		c->t->l1_load_spread += spread ? (double)alone : 0;   /* rule P6, measured with loads */
	} else {
		c->t->l1_store_alone += (double)alone;
	}
	if (alone) /* rule P4, measured with loads: a store lane is translated at pages_gps's distance */
		c->t->alone_log2_dist += alone * log2(c->w->op == GM_OP_LOAD ? dist : GM_PAGES_DIST_4M);
	return GM_OK;
}

/* ---- rule L2: a store sector written partly costs two L2 operations ---------------------------- */

/*
 * The store sectors of one warp: how many it writes partly (fewer than 32
 * bytes by the warp), listed in psec[], and the bytes L2 writes for them:
 * a whole sector each, however few of its bytes the warp carries (rule L4).
 */
static int warp_store_sectors(const struct gm_prediction *p, int elem, double *bytes_out, int64_t *psec)
{
	int64_t sec[GM_WARP_SIZE * 2];
	int bytes[GM_WARP_SIZE * 2];
	int n = 0, partial = 0;

	for (int l = 0; l < p->nlanes; l++) {
		if (!p->lanes[l].active)
			continue;
		for (int64_t b = p->lanes[l].addr; b < p->lanes[l].addr + elem;) {
			int64_t s = b / GM_SECTOR_BYTES, end = (s + 1) * GM_SECTOR_BYTES;
			int64_t stop = end < p->lanes[l].addr + elem ? end : p->lanes[l].addr + elem;
			int k;

			for (k = 0; k < n && sec[k] != s; k++)
				;
			if (k == n) {
				if (n == GM_WARP_SIZE * 2)
					break;
				sec[n] = s;
				bytes[n++] = 0;
			}
			bytes[k] += (int)(stop - b); /* lanes of one warp store distinct bytes */
			b = stop;
		}
	}
	for (int k = 0; k < n; k++)
		if (bytes[k] < GM_SECTOR_BYTES)
			psec[partial++] = sec[k];
	*bytes_out = (double)n * GM_SECTOR_BYTES;
	return partial;
}

/* Rule L2: the warp's store operations at L2 and the bytes L2 writes for them (rule L4: whole sectors); its
   partly written sectors into c->psec. */
static gm_status rule_l2_partial(struct warp_ctx *c)
{
	double bytes;
	int part = warp_store_sectors(c->p, c->w->elem_bytes, &bytes, c->psec);

	c->t->partial += part;
	c->t->l2_store += (double)c->p->global.sectors + part;
	c->t->store_bytes += bytes;
	c->part = part;
	return GM_OK;
}

/* ---- rule L4: lines written partly, and who wrote their sectors last ------------------------------ */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/*
 * Key written by owner: 0 when the window had not written it, 1 when it had
 * (*prev: the owner that wrote it last); -1 out of memory.
 */
static int owner_set_put(struct owner_set *ls, int64_t key, int64_t owner, int64_t *prev)
{
	if (!ls->cur)
		ls->cur = 1;
	if (2 * (ls->n + 1) > ls->cap) {
		int64_t cap = ls->cap ? 2 * ls->cap : 256;
		int64_t *k = calloc((size_t)cap, sizeof(*k)), *o = calloc((size_t)cap, sizeof(*o));
		uint32_t *g = calloc((size_t)cap, sizeof(*g));

		if (!k || !o || !g) {
			free(k);
			free(o);
			free(g);
			return -1;
		}
		for (int64_t i = 0; i < ls->cap; i++)
			if (ls->gen[i] == ls->cur) {
				int64_t h = (int64_t)(mix64((uint64_t)ls->key[i]) & (uint64_t)(cap - 1));
				while (g[h])
					h = (h + 1) & (cap - 1);
				k[h] = ls->key[i];
				o[h] = ls->owner[i];
				g[h] = ls->cur;
			}
		free(ls->key);
		free(ls->owner);
		free(ls->gen);
		ls->key = k;
		ls->owner = o;
		ls->gen = g;
		ls->cap = cap;
	}
	for (int64_t h = (int64_t)(mix64((uint64_t)key) & (uint64_t)(ls->cap - 1));; h = (h + 1) & (ls->cap - 1)) {
		if (ls->gen[h] != ls->cur) {
			ls->gen[h] = ls->cur;
			ls->key[h] = key;
			ls->owner[h] = owner;
			ls->n++;
			return 0;
		}
		if (ls->key[h] != key)
			continue;
		*prev = ls->owner[h];
		ls->owner[h] = owner;
		return 1;
	}
}

/*
 * Sector key written by owner: 0 when the window had not written it, 1 when
 * the same owner wrote it last, 2 when another did; -1 out of memory.
 */
static int owner_set_visit(struct owner_set *ls, int64_t key, int64_t owner)
{
	int64_t prev = 0;
	int had = owner_set_put(ls, key, owner, &prev);

	return had <= 0 ? had : prev == owner ? 1 : 2;
}

void gm_owner_set_free(struct owner_set *ls)
{
	free(ls->key);
	free(ls->owner);
	free(ls->gen);
	memset(ls, 0, sizeof(*ls));
}

/* A new window: forget its sectors. */
void gm_owner_set_clear(struct owner_set *ls)
{
	ls->n = 0;
	if (++ls->cur == 0) { /* wrapped: clear every slot once */
		if (ls->gen)
			memset(ls->gen, 0, (size_t)ls->cap * sizeof(*ls->gen));
		ls->cur = 1;
	}
}

/*
 * Rule L4's far end: of the request's partial lines line[0..nl) (cross[k]: their sectors another block of the
 * window wrote last), those one lane writes alone (its elem bytes, fewer than a line), each weighted by how far
 * apart the request's lines lie, s (the mean step between its distinct lines, sorted): f = log2(s / 128 B) /
 * log2(512 KiB + 128 B / 128 B), within [0, 1] (the spacings of calibrate's near and far cases), and by the lane's
 * width, u = (elem - 4) / 12 within [0, 1]. A line whose sector another block of the window wrote last goes to
 * far_x (weight f) / far_wide_x (f u) by its count x; one whose sector its own block wrote last (a naive transpose's,
 * copy.scatter_b4's) takes the width's part only, weight f u (wide f u^2): a 4 B lane's line keeps the near cost;
 * they are tallied in far_cross / far_same. The window's first piece of a line goes to first_x (f), first_wide_x
 * (f u), first_wide2_x (f u^2): launch_walk.c weighs it by the launch's share far_cross / (far_cross + far_same) as
 * the one, the rest as the other (1 without either). A request of one line has no spacing: 0.
 * The rows (l4_rows, gm_l4_rows_close) weigh them all in launch_walk.c.
 */
static double l4_spacing(const struct warp_ctx *c)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN, seen[GM_WARP_SIZE];
	int nseen = 0;

	for (int l = 0; l < c->p->nlanes; l++) {
		int64_t a = c->p->lanes[l].addr / 128;
		int k;

		if (!c->p->lanes[l].active)
			continue;
		for (k = 0; k < nseen && seen[k] != a; k++)
			;
		if (k == nseen && nseen < GM_WARP_SIZE)
			seen[nseen++] = a;
		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
	}
	return nseen < 2 ? 0 : (double)(hi - lo) * 128.0 / (nseen - 1);
}

static double l4_spacing_weight(double s)
{
	double f = s > 0 ? log2(s / GM_L4_NEAR_SPACING) / log2(GM_L4_FAR_SPACING / GM_L4_NEAR_SPACING) : 0;

	return f < 0 ? 0 : f > 1 ? 1 : f;
}

static void l4_far_lines(struct warp_ctx *c, const int64_t *line, const int *cross, const int *same, int nl)
{
	int elem = c->w->elem_bytes;
	double f, u;

	if (elem >= 128)
		return;
	f = l4_spacing_weight(l4_spacing(c));
	u = (elem - GM_L4_FAR_NARROW) / (GM_L4_FAR_WIDE - GM_L4_FAR_NARROW);
	u = u < 0 ? 0 : u > 1 ? 1 : u;
	if (!(f > 0))
		return;
	for (int k = 0; k < nl; k++) {
		int lanes = 0, x = cross[k] < 4 ? cross[k] : 4;

		for (int l = 0; l < c->p->nlanes && lanes < 2; l++)
			lanes += c->p->lanes[l].active && c->p->lanes[l].addr / 128 == line[k];
		if (lanes != 1)
			continue;
		if (cross[k]) { /* another block wrote its sector last */
			c->t->far_x[x] += f;
			c->t->far_wide_x[x] += f * u;
			c->t->far_cross += f;
		} else if (same[k]) { /* its own block did: the width's part only (f u) */
			c->t->far_x[x] += f * u;
			c->t->far_wide_x[x] += f * u * u;
			c->t->lin_x[x] += f * u * (1 - u);
			c->t->far_same += f;
		} else { /* the window's first piece of it: the launch's share of the two above decides */
			c->t->first_x[0] += f;
			c->t->first_wide_x[0] += f * u;
			c->t->first_wide2_x[0] += f * u * u;
			c->t->first_lin_x[0] += f * u * (1 - u);
		}
	}
}

/*
 * Rule L4's rows. Each line the window's stores write partly keeps, packed in its entry of ps->ll: the window's
 * count of such lines when it was last written (the rows the walk comes back to it after), the bytes the window
 * wrote into it, its pieces a lane wrote alone and the sum of their rows weights g (in 1/64). A piece of a line the
 * window wrote before takes g = l4_rows_weight(d, ...), d the lines written partly since its previous piece's request:
 * 32 lines (a warp's request; the next request writes the same lines: a column walk over 32 rows) keeps the near
 * cost. gm_l4_rows_close weighs them.
 */
#define ROWS_BYTES(v) ((v) & 255)
#define ROWS_PIECES(v) (((v) >> 8) & 63)
#define ROWS_GQ(v) (((v) >> 14) & 16383)
#define ROWS_STAMP(v) ((v) >> 28)

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/*
 * Rule L4's rows weight g of a piece whose line the walk comes back to after d lines written partly, its request's
 * lines s bytes apart, u its lane's width share ((bytes - 4) / 12 within [0, 1]), l2 the profile's L2 bytes: the far
 * weight is the share of lines L2 lets go before their pieces are all written (probe-66/68/69's counters: DRAM reads
 * and writes the same extra bytes, 0-22 %, as the walk slows), and that grows with the rows (the lines written while
 * the line waits) and with the span of the lines it waits among, d x s bytes, against the L2:
 *   rows  r = log2(d / 32) / log2(512 / 32), and for spans past the L2 r += u^2 log2(d s / l2) / log2(512 / 32);
 *   span  a = log2(d s / (l2 / 128)) / log2(128): none within l2 / 128, whole at the L2's size;
 * each within [0, 1]; the piece's far weight is r a, so g = r a / f (f the spacing's weight, which the far lines
 * already carry). A profile without l2_bytes: r alone (m68).
 */
static double l4_rows_weight(double d, double s, double l2, double u)
{
	double r = d > GM_L4_ROWS_NEAR ? log2(d / GM_L4_ROWS_NEAR) / log2(GM_L4_ROWS_FAR / GM_L4_ROWS_NEAR) : 0;
	double f = l4_spacing_weight(s), span = d * s;

	if (!(l2 > 0))
		return clamp01(r);
	if (!(f > 0) || !(r > 0))
		return 0;
	if (span > l2)
		r += u * u * log2(span / l2) / log2(GM_L4_ROWS_FAR / GM_L4_ROWS_NEAR);
	return clamp01(r) * clamp01(log2(span > l2 / GM_L4_SPAN_NEAR ? span * GM_L4_SPAN_NEAR / l2 : 1) /
				    log2(GM_L4_SPAN_NEAR)) / f;
}

/*
 * Rule L4's rows, resident span (t84): a column request (every active lane alone in its line) whose lines come back
 * after one request or are new (d <= 32, the rows law's near cost: a 32-row walk, a transposed tile 32 lanes wide) still
 * pays part of the far cost where the stores of the warps resident at once span enough (ps->res_span, launch_walk.c):
 * the share of its lone pieces that open a sector, elem / 32 B (a float4 piece every other, a double's every fourth),
 * as r a, times the span's weight, log2 from the L2's size / GM_L4_RES_LO (none) to its size x GM_L4_RES_HI (whole;
 * probe-t84); so g = (elem / 32) a' / f. Evidence: probe-c83's 32x8 float4 tile at one row group (a
 * 32-row walk at 3.94 MiB, rows over 126 MB) 25.8 ps a line where probe-69's 32-row walks at 1.5-256 KiB (up to
 * 8 MiB) cost 13-19; the float4 / double tiles 32 wide of dev-36ab/ac/ae/ag (rows over 198-516 MB) at 0.45-0.67 /
 * 0.20-0.25 of the whole far weight; probe-t84's walks over 16-512 MiB (docs/log/2026-12-03-t84.md).
 */
static double l4_resident_weight(const struct warp_ctx *c, double f)
{
	const struct pat_state *ps = c->ps;

	double lo = ps->l2_bytes / GM_L4_RES_LO;

	if (!(f > 0) || !(ps->l2_bytes > 0) || !(ps->res_span > lo))
		return 0;
	return clamp01(c->w->elem_bytes / 32.0) * clamp01(log2(ps->res_span / lo) / log2(GM_L4_RES_LO * GM_L4_RES_HI)) / f;
}

/* Whether every active lane writes its line alone and each line the window wrote before comes back after one request
   (d <= 32), one at least: prev[k] the lines' packed entries as l4_rows found them (had[k]: written before). */
static int l4_near_request(const struct warp_ctx *c, const int64_t *line, int nl, const int64_t *prev,
			   const int *had)
{
	int active = 0, back = 0;

	for (int l = 0; l < c->p->nlanes; l++)
		active += c->p->lanes[l].active;
	if (nl != active || nl < 2)
		return 0;
	for (int k = 0; k < nl; k++) {
		int lanes = 0;

		for (int l = 0; l < c->p->nlanes && lanes < 2; l++)
			lanes += c->p->lanes[l].active && c->p->lanes[l].addr / 128 == line[k];
		if (lanes != 1 || (had[k] && (double)(c->ps->nlines - ROWS_STAMP(prev[k])) > GM_L4_ROWS_NEAR))
			return 0;
		back += had[k] != 0;
	}
	return back > 0;
}

static gm_status l4_rows(struct warp_ctx *c, const int64_t *line, int nl)
{
	struct pat_state *ps = c->ps;
	double sp = l4_spacing(c), u = clamp01((c->w->elem_bytes - GM_L4_FAR_NARROW) / (GM_L4_FAR_WIDE - GM_L4_FAR_NARROW));
	double f = l4_spacing_weight(sp), res = 0;
	int64_t prevs[GM_WARP_SIZE * 2];
	int hads[GM_WARP_SIZE * 2];

	for (int k = 0; k < nl; k++) {
		prevs[k] = 0;
		if ((hads[k] = owner_set_put(&ps->ll, line[k], 0, &prevs[k])) < 0)
			return GM_ERR_NOMEM;
	}
	if (l4_near_request(c, line, nl, prevs, hads))
		res = l4_resident_weight(c, f);
	for (int k = 0; k < nl; k++) {
		int64_t prev = prevs[k], v;
		int lanes = 0, had = hads[k], bytes, pieces, gq;

		for (int l = 0; l < c->p->nlanes; l++)
			lanes += c->p->lanes[l].active && c->p->lanes[l].addr / 128 == line[k];
		bytes = (had ? (int)ROWS_BYTES(prev) : 0) + lanes * c->w->elem_bytes;
		pieces = (had ? (int)ROWS_PIECES(prev) : 0) + (lanes == 1);
		gq = had ? (int)ROWS_GQ(prev) : 0;
		if (lanes == 1 && f > 0 && c->w->elem_bytes >= GM_L4_FAR_NARROW) { /* s82: for the lines left open */
			ps->lone_n += 1;
			ps->lone_inv_f += 1 / f;
		}
		if (had && lanes == 1) {
			double d = (double)(ps->nlines - ROWS_STAMP(prev)), g;

			g = l4_rows_weight(d, sp, ps->l2_bytes, u);
			if (!(g > 0))
				g = res; /* t84: a request near by the rows, its resident span past the L2 */
			gq += (int)lround(64 * (g > 4 ? 4 : g)); /* in 1/64: at most 4 a piece */
		}
		v = (ps->nlines << 28) | ((int64_t)(gq < 16383 ? gq : 16383) << 14) |
		    ((int64_t)(pieces < 63 ? pieces : 63) << 8) | (bytes < 255 ? bytes : 255);
		if (owner_set_put(&ps->ll, line[k], v, &prev) < 0)
			return GM_ERR_NOMEM;
	}
	ps->nlines += nl;
	return GM_OK;
}

/*
 * The rows weight g of the lone piece of a line the window writes once and leaves open (s82): its next piece lies
 * beyond the window, more lines away than the window writes (past GM_L4_ROWS_FAR: r = 1), over a span of rows past
 * the L2's (a = 1): the whole far weight r a, so g = r a / f = 1 / f, f the window's mean spacing weight of its lone
 * pieces of 4 B or wider (the far rates' measured widths; narrower lanes keep g = 1, the spacing's weight, as all open
 * lines did before s82). A line the window writes more than once and leaves open keeps g = 1 (m68).
 */
static double l4_open_weight(const struct pat_state *ps, int64_t pieces)
{
	return pieces == 1 && ps->lone_n > 0 ? ps->lone_inv_f / ps->lone_n : 1;
}

/*
 * Rule L4's rows at a window's close: a line the window completed (128 B written) weighs its pieces by the rows
 * weights they took (its first piece, which has none, by their mean); a line the window left incomplete (the rest
 * written beyond it, by blocks far away, or never) by l4_open_weight (until s82 by 1). Tallied in rows_f (pieces) and
 * rows_g (weights); launch_walk.c weighs every far line by their ratio (1 without any).
 */
void gm_l4_rows_close(struct pat_state *ps, struct totals *t)
{
	struct owner_set *ls = &ps->ll;

	for (int64_t h = 0; h < ls->cap; h++) {
		int64_t v = ls->owner[h], pieces = ROWS_PIECES(v);

		if (ls->gen[h] != ls->cur || pieces == 0)
			continue;
		t->rows_all += (double)pieces;
		if (ROWS_BYTES(v) >= 128) {
			if (pieces > 1) {
				t->rows_f += (double)(pieces - 1);
				t->rows_g += (double)ROWS_GQ(v) / 64;
			}
		} else {
			t->rows_open += (double)pieces;
			t->rows_f += (double)pieces;
			t->rows_g += (double)pieces * l4_open_weight(ps, pieces);
		}
	}
}

/* Each line the warp writes partly (its nl sectors psec[]), with its sectors another block of the window
   wrote last (owner: the block, or the warp under rule W). Rule L4, after L2 (which lists them). */
static gm_status rule_l4_lines(struct warp_ctx *c)
{
	struct pat_state *ps = c->ps;
	const int64_t *psec = c->psec;
	int part = c->part;
	int64_t owner = ps->per_warp ? -1 - c->wi : c->block;
	struct totals *t = c->t;
	int64_t line[GM_WARP_SIZE * 2];
	int cross[GM_WARP_SIZE * 2], same[GM_WARP_SIZE * 2], cnt[GM_WARP_SIZE * 2], nl = 0;

	for (int j = 0; j < part; j++) {
		int had = owner_set_visit(&ps->sl, psec[j], owner), k;

		if (had < 0)
			return GM_ERR_NOMEM;
		for (k = 0; k < nl && line[k] != psec[j] >> 2; k++)
			;
		if (k == nl) {
			line[nl] = psec[j] >> 2;
			cnt[nl] = same[nl] = 0;
			cross[nl++] = 0;
		}
		cross[k] += had == 2;
		same[k] += had == 1;
		cnt[k]++;
	}
	double sp = l4_spacing(c);
	int spaced = sp >= GM_L4_SPACED_MIN && sp <= GM_L4_SPACED_MAX; /* rule L4's spaced near rate (s75) */

	for (int k = 0; k < nl; k++) {
		t->pline[cross[k] < 4 ? cross[k] : 4] += 1;
		t->pline_sp[cross[k] < 4 ? cross[k] : 4] += spaced;
		if (!cross[k])
			t->pline0_sectors += cnt[k];
	}
	if (l4_rows(c, line, nl) != GM_OK)
		return GM_ERR_NOMEM;
	l4_far_lines(c, line, cross, same, nl);
	return GM_OK;
}

/* ---- the registry and one warp -------------------------------------------------------------------- */

/* Rule T1 (shared): a shared request's wavefronts, L1 time. */
static gm_status rule_t1_shared(struct warp_ctx *c)
{
	gm_shared_counts_of(c->p->lanes, c->w->elem_bytes, c->w->op, &c->p->shared);
	c->t->wavefronts += (double)c->p->shared.wavefronts;
	return GM_OK;
}

static int is_shared(const struct warp_ctx *c)
{
	return c->w->space == GM_SPACE_SHARED;
}

static int is_global(const struct warp_ctx *c)
{
	return c->w->space != GM_SPACE_SHARED;
}

static int is_global_store(const struct warp_ctx *c)
{
	return c->w->space != GM_SPACE_SHARED && c->w->op == GM_OP_STORE;
}

/* The traffic phase, in order (a rule may read what an earlier one counted: T1 and P L1's, L4 L2's). */
const struct gm_warp_rule gm_traffic_rules[] = {
	{ "T1", "a shared request's wavefronts", is_shared, rule_t1_shared },
	{ "L1", "requests and sectors; a block's warps share load sectors in L1", is_global, rule_l1_block },
	{ "T1", "the wavefronts L1's banks need for a global request", is_global, rule_t1_banks },
	{ "P P3", "load and store lanes alone in their 2 MiB page", is_global, rule_p_alone },
	{ "L2", "a store sector written partly costs two L2 operations", is_global_store, rule_l2_partial },
	{ "L4", "lines written partly, and who wrote their sectors last", is_global_store, rule_l4_lines },
	{ NULL, NULL, NULL, NULL },
};

gm_status gm_warp_traffic(struct pat_state *ps, const struct gm_access *w, int64_t wi, int64_t block, int atom,
			  struct totals *t, struct gm_prediction *p)
{
	struct warp_ctx c = { ps, w, p, wi, block, atom, t, 0, { 0 } };
	gm_status s = GM_OK;

	for (const struct gm_warp_rule *r = gm_traffic_rules; r->apply && s == GM_OK; r++)
		if (r->applies(&c))
			s = r->apply(&c);
	for (const struct gm_warp_rule *r = gm_dram_warp_rules; r->apply && s == GM_OK; r++)
		if (r->applies(&c))
			s = r->apply(&c);
	return s;
}
