/*
 * launch_model.c - the launch-level model: L1 / L2 / DRAM traffic and time of
 * a whole launch from its warps' access patterns and a device profile.
 *
 * Sampling: the launch's warps are taken in the order the hardware starts
 * them (block by block, x fastest). Up to `windows` windows of `window_warps`
 * consecutive warps, spread evenly over the launch, are evaluated lane by
 * lane; when the launch has no more warps than all windows hold, every warp
 * is evaluated. Counts per warp are averaged over the evaluated warps and
 * scaled to the launch. Reuse between warps is looked for inside a window
 * only (the warps that run at the same time): a 64 B piece read by two warps
 * of one window is read from DRAM once.
 *
 * Rules (docs/MODEL.md, "The launch model"):
 *   L1   requests and sectors per warp as the warp model counts them; a
 *        load sector another warp of the same block already loaded hits.
 *   L2   load sectors = the distinct sectors of each block; a store sector written partly by a
 *        warp costs two L2 operations (read-modify-write), a full one one.
 *   L4   (a profile with l2_merge_lines_gps and l2_part_sectors_gps) stores carry their bytes;
 *        a line a request writes partly costs a lookup at the merged rate, or its sectors that
 *        other blocks of the window wrote last at the sector rate when that takes longer.
 *   DRAM reads move whole 64 B pieces (profile dram_atom_bytes): the
 *        distinct pieces a window's loads touch. Writes move the distinct
 *        32 B sectors a window's stores touch (partial sectors merge in L2);
 *        a sector still partial when the window ends is read first (ECC).
 *   time DRAM: reads at the rate of their density (pieces read / pieces of
 *        the 256 B groups they fall in: 1 dense, 1/2, <= 1/4 sparse; linear
 *        between the three measured rates) plus writes at the write rate,
 *        times the read/write turnaround factor the copy rate implies.
 *        L2: load sectors at the L2 read rate + store operations at the L2
 *        write rate. L1: sectors and shared-memory wavefronts (128 B each)
 *        at the L1 rate. The launch takes the slowest level's time.
 *   T4   (a profile with blocks_gps) threads that end come in blocks the SMs
 *        start at a measured rate: the blocks take blocks / blocks_gps, a
 *        level like the others.
 *   T5   (a profile with warp_tail) a block holds its slots until its slowest
 *        warp ends: the round trip of a wave of blocks of w warps is wave_ns x
 *        (1 + tail H_w) / (1 + tail H_8) (wave_ns is measured with 8 warps).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "gpumem/launch.h"
#include "gpumem/parallel.h"
#include "model/model_internal.h"

#define DEFAULT_WINDOWS 8
#define DEFAULT_WINDOW_WARPS 256
#define GROUP_BYTES 256
#define ITER_CAP 64          /* loop iterations evaluated per warp and pattern (rule R) */
#define LOOKBACK_WARPS 2048  /* warps before a window looked at one by one for L2 reuse (rule D6) */
#define CHUNK_WARPS 256      /* the lookback in chunks of this many warps, each with its distance */
#define SUB_WARPS 64         /* the window's first warps, whose far partners are probed (rule D8) */
#define MAX_SETS 64          /* lookback chunks and probes per pattern and window */
/*
 * Rule D8, how long L2 keeps what a warp left: with D the bytes the launch
 * brings into L2 between two uses of a piece (warps between x the window's
 * DRAM bytes per warp before reuse), a clean piece is still there with
 * certainty up to KEEP_CLEAN_LO x l2_bytes and not past KEEP_CLEAN_HI x
 * l2_bytes (linear between); a partly written sector waits for the rest of
 * its bytes only from KEEP_PART_LO to KEEP_PART_HI (past it, both parts are
 * written), and is read first (ECC) in the share KEEP_FILL_LO to KEEP_FILL_HI
 * says. Measured on an H100 and an
 * H200 by stage l2_distance of scripts/gpu_session.sh (docs/MODEL.md, D8).
 */
#define KEEP_CLEAN_LO 0.6
#define KEEP_CLEAN_HI 1.1
#define KEEP_PART_LO 0.15
#define KEEP_PART_HI 0.75
#define KEEP_FILL_LO 0.15    /* ... and is not read back before the rest comes up to this far */
#define KEEP_FILL_HI 1.65

/*
 * Rule L4: the 32 B sectors the window's stores wrote partly, each with the
 * block (or warp) that wrote it last; an open-addressed table whose entries
 * of an earlier window are told apart by their generation.
 */
struct owner_set {
	int64_t *key, *owner;
	uint32_t *gen;
	int64_t cap, n;             /* slots (a power of two), entries of the current generation */
	uint32_t cur;               /* current generation (0: none yet) */
};
/* The keys (pieces or sectors) of a run of warps at one distance from the window. */
struct keyset {
	int64_t *v, n, cap;
	int64_t dist;               /* warps between the window's warps and these */
	int far;                    /* a probe of the window's first warps (rule D8), not a lookback chunk */
};

struct pat_state {
	const struct gm_access *a;
	struct gm_expr *index, *active;
	int64_t *pieces, *sectors;  /* window: DRAM pieces (loads) / sectors (stores) touched */
	int64_t npieces, nsectors, piececap, sectorcap;
	int per_warp;               /* addresses do not depend on the warp's place: no reuse between warps */
	int64_t *blk, nblk, blkcap; /* load sectors of the current block (L1 hits between its warps) */
	int64_t cur_block;
	struct owner_set sl;          /* sectors the window's stores wrote partly, by whom (rule L4) */
	struct keyset ks[MAX_SETS]; /* the warps before (and, for stores, after) the window, nearest first (D6, D8) */
	int nks;
	int64_t *sub, nsub, subcap; /* keys of the window's first SUB_WARPS warps (pieces / sectors) */
	int64_t sub_mark;           /* entries of pieces / sectors those warps added */
	int pieces_unique;          /* pieces are sorted and distinct already (one_window counted them) */
};

struct totals {
	double requests, l1_sectors, l1_lines, l1_load, l2_load, l2_store, partial, wavefronts;
	double l1_load_lines;       /* of l1_lines, the loads' */
	double store_bytes;         /* bytes the stores carry to L2 */
	double pline[5];            /* store lines written partly, by how many of their sectors another block of
				       the window wrote last (0-4; rule L4) */
	double pline0_sectors;      /* the partly written sectors of the lines of pline[0] */
	double read_bytes, write_bytes, fill_bytes;
	double groups, pieces;      /* for the read density */
	double reuse_bytes;         /* load pieces found in L2 (read by an earlier warp, rule D6) */
	int64_t warps;
	int64_t lo, hi;             /* bytes [lo, hi] the pattern touched (any = 1), for rule D7 */
	int any;
};

/* One pattern over the evaluated windows: its DRAM bytes (evaluated warps) and the bytes it touched. */
struct pat_sum {
	double read_bytes, write_bytes, fill_bytes;
	int64_t lo, hi;
	int any;
};

/* t += f x u (every count but the warps) */
static void add_scaled(struct totals *t, const struct totals *u, double f)
{
	t->requests += f * u->requests;
	t->l1_sectors += f * u->l1_sectors;
	t->l1_lines += f * u->l1_lines;
	t->l1_load_lines += f * u->l1_load_lines;
	t->l1_load += f * u->l1_load;
	t->l2_load += f * u->l2_load;
	t->l2_store += f * u->l2_store;
	t->partial += f * u->partial;
	t->store_bytes += f * u->store_bytes;
	for (int x = 0; x < 5; x++)
		t->pline[x] += f * u->pline[x];
	t->pline0_sectors += f * u->pline0_sectors;
	t->wavefronts += f * u->wavefronts;
	t->read_bytes += f * u->read_bytes;
	t->write_bytes += f * u->write_bytes;
	t->fill_bytes += f * u->fill_bytes;
	t->groups += f * u->groups;
	t->pieces += f * u->pieces;
	t->reuse_bytes += f * u->reuse_bytes;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Sort non-negative keys (pieces, sectors): insertion sort for a few, else an
 * LSD radix sort by bytes that skips the bytes every key shares (the windows'
 * keys differ in their low bytes only); qsort if the buffer cannot be had.
 */
static void sort_keys(int64_t *v, int64_t n)
{
	size_t cnt[256];
	uint64_t all_or = 0, all_and = ~(uint64_t)0;
	int64_t *tmp, *src = v, *dst, *swap;

	if (n < 48) {
		for (int64_t i = 1; i < n; i++) {
			int64_t x = v[i], j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = malloc((size_t)n * sizeof(*tmp));
	if (!tmp) {
		qsort(v, (size_t)n, sizeof(*v), cmp_i64);
		return;
	}
	for (int64_t i = 0; i < n; i++) {
		all_or |= (uint64_t)v[i];
		all_and &= (uint64_t)v[i];
	}
	dst = tmp;
	for (int b = 0; b < 8; b++) {
		size_t sum = 0;

		if ((((all_or ^ all_and) >> (8 * b)) & 255) == 0)
			continue; /* every key has this byte: the pass would not move anything */
		memset(cnt, 0, sizeof(cnt));
		for (int64_t i = 0; i < n; i++)
			cnt[((uint64_t)src[i] >> (8 * b)) & 255]++;
		for (int d = 0; d < 256; d++) {
			size_t c = cnt[d];

			cnt[d] = sum;
			sum += c;
		}
		for (int64_t i = 0; i < n; i++)
			dst[cnt[((uint64_t)src[i] >> (8 * b)) & 255]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != v)
		memcpy(v, src, (size_t)n * sizeof(*v));
	free(tmp);
}

static int64_t sort_unique(int64_t *v, int64_t n)
{
	int64_t k, m = 0;

	sort_keys(v, n);
	for (k = 0; k < n; k++)
		if (m == 0 || v[m - 1] != v[k])
			v[m++] = v[k];
	return m;
}

/* log2 of the DRAM atom (32, 64 or 128 B: gm_profile_check) */
static int atom_shift(int atom)
{
	return atom == 32 ? 5 : atom == 128 ? 7 : 6;
}

/* 256 B groups the sorted distinct pieces fall in. */
static int64_t groups_of(const int64_t *pieces, int64_t n, int atom)
{
	int64_t k, g = 0, per = GROUP_BYTES / atom > 0 ? GROUP_BYTES / atom : 1;

	for (k = 0; k < n; k++)
		if (k == 0 || pieces[k] / per != pieces[k - 1] / per)
			g++;
	return g;
}

/*
 * The store sectors of one warp: how many it writes partly (fewer than 32
 * bytes by the warp), listed in psec[], and the bytes it writes.
 */
static int warp_store_sectors(const struct gm_prediction *p, int elem, double *bytes_out, int64_t *psec)
{
	int64_t sec[GM_WARP_SIZE * 2];
	int bytes[GM_WARP_SIZE * 2];
	int n = 0, partial = 0, total = 0;

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
	for (int k = 0; k < n; k++) {
		total += bytes[k] < GM_SECTOR_BYTES ? bytes[k] : GM_SECTOR_BYTES;
		if (bytes[k] < GM_SECTOR_BYTES)
			psec[partial++] = sec[k];
	}
	*bytes_out = total;
	return partial;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/*
 * Sector key written by owner: 0 when the window had not written it, 1 when
 * the same owner wrote it last, 2 when another did; -1 out of memory.
 */
static int owner_set_visit(struct owner_set *ls, int64_t key, int64_t owner)
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
		int same;

		if (ls->gen[h] != ls->cur) {
			ls->gen[h] = ls->cur;
			ls->key[h] = key;
			ls->owner[h] = owner;
			ls->n++;
			return 0;
		}
		if (ls->key[h] != key)
			continue;
		same = ls->owner[h] == owner;
		ls->owner[h] = owner;
		return same ? 1 : 2;
	}
}

/* A new window: forget its sectors. */
static void owner_set_clear(struct owner_set *ls)
{
	ls->n = 0;
	if (++ls->cur == 0) { /* wrapped: clear every slot once */
		if (ls->gen)
			memset(ls->gen, 0, (size_t)ls->cap * sizeof(*ls->gen));
		ls->cur = 1;
	}
}

/* Room for `need` keys in *v (doubling). */
static gm_status reserve(int64_t **v, int64_t *cap, int64_t need)
{
	int64_t c = *cap ? *cap : 1024;
	int64_t *w;

	if (need <= *cap)
		return GM_OK;
	while (c < need)
		c *= 2;
	w = realloc(*v, (size_t)c * sizeof(int64_t));
	if (!w)
		return GM_ERR_NOMEM;
	*v = w;
	*cap = c;
	return GM_OK;
}

/* The current block's distinct load sectors go to L2; the rest hit in L1. */
static void flush_block(struct pat_state *ps, struct totals *t)
{
	if (ps->nblk)
		t->l2_load += (double)sort_unique(ps->blk, ps->nblk);
	ps->nblk = 0;
}

static gm_status block_sectors(struct pat_state *ps, const struct gm_prediction *p, int elem, int64_t block,
			       struct totals *t)
{
	if (block != ps->cur_block)
		flush_block(ps, t);
	ps->cur_block = block;
	if (reserve(&ps->blk, &ps->blkcap, ps->nblk + 2 * GM_WARP_SIZE) != GM_OK)
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

/* The pieces (loads) or sectors (stores) of one warp outside the window into a keyset (rules D6, D8). */
static gm_status collect_keys(struct keyset *ks, const struct gm_prediction *p, int64_t off, int elem, int atom,
			      int store)
{
	int sh = store ? 5 : atom_shift(atom); /* 32 B sectors, or DRAM pieces */

	if (reserve(&ks->v, &ks->cap, ks->n + 2 * GM_WARP_SIZE) != GM_OK)
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

/* The lanes p of one warp of one pattern into the window's sets and the totals. */
static gm_status add_warp(struct pat_state *ps, const struct gm_access *w, int64_t wi, int64_t block, int atom,
			  struct totals *t, struct gm_prediction *p)
{
	gm_status s = GM_OK;
	int elem = w->elem_bytes, sh = atom_shift(atom);

	if (w->space == GM_SPACE_SHARED) {
		gm_shared_counts_of(p->lanes, elem, w->op, &p->shared);
		t->wavefronts += (double)p->shared.wavefronts;
		return GM_OK;
	}
	gm_global_counts_of(p->lanes, elem, &p->global);
	t->requests += (double)p->global.requests;
	t->l1_sectors += (double)p->global.sectors;
	t->l1_lines += (double)p->global.lines;
	if (w->op == GM_OP_LOAD)
		t->l1_load_lines += (double)p->global.lines;
	if (w->op == GM_OP_LOAD)
		t->l1_load += (double)p->global.sectors;
	if (w->op == GM_OP_LOAD && ps->per_warp)
		t->l2_load += (double)p->global.sectors;
	else if (w->op == GM_OP_LOAD && (s = block_sectors(ps, p, elem, block, t)) != GM_OK)
		return s;
	else if (w->op == GM_OP_STORE) {
		int64_t psec[GM_WARP_SIZE * 2], line[GM_WARP_SIZE * 2];
		int cross[GM_WARP_SIZE * 2], cnt[GM_WARP_SIZE * 2], nl = 0, part;
		double bytes;

		part = warp_store_sectors(p, elem, &bytes, psec);
		t->partial += part;
		t->l2_store += (double)p->global.sectors + part;
		t->store_bytes += bytes;
		/* rule L4: each line written partly, with its sectors another block of the window wrote last */
		for (int j = 0; j < part; j++) {
			int had = owner_set_visit(&ps->sl, psec[j], ps->per_warp ? -1 - wi : block), k;

			if (had < 0)
				return GM_ERR_NOMEM;
			for (k = 0; k < nl && line[k] != psec[j] >> 2; k++)
				;
			if (k == nl) {
				line[nl] = psec[j] >> 2;
				cnt[nl] = 0;
				cross[nl++] = 0;
			}
			cross[k] += had == 2;
			cnt[k]++;
		}
		for (int k = 0; k < nl; k++) {
			t->pline[cross[k] < 4 ? cross[k] : 4] += 1;
			if (!cross[k])
				t->pline0_sectors += cnt[k];
		}
	}
	if (reserve(&ps->pieces, &ps->piececap, ps->npieces + 2 * GM_WARP_SIZE) != GM_OK ||
	    reserve(&ps->sectors, &ps->sectorcap, ps->nsectors + 2 * GM_WARP_SIZE) != GM_OK)
		return GM_ERR_NOMEM;
	for (int l = 0; l < p->nlanes; l++) {
		int64_t a0, a1;

		if (!p->lanes[l].active)
			continue;
		a0 = p->lanes[l].addr;
		a1 = a0 + elem - 1;
		if (!t->any || a0 < t->lo)
			t->lo = a0;
		if (!t->any || a1 > t->hi)
			t->hi = a1;
		t->any = 1;
		if (w->op == GM_OP_LOAD) {
			int64_t p0 = a0 >> sh, p1 = a1 >> sh;

			if (ps->npieces && ps->pieces[ps->npieces - 1] == p0 && p1 == p0)
				continue; /* the previous lane's piece: made unique when the window closes anyway */
			ps->pieces[ps->npieces++] = p0;
			if (p1 != p0)
				ps->pieces[ps->npieces++] = p1;
		} else {
			/* sector << 6 | bytes this lane writes in it */
			int64_t s0 = a0 / GM_SECTOR_BYTES, s1 = a1 / GM_SECTOR_BYTES;

			if (s0 == s1) {
				ps->sectors[ps->nsectors++] = s0 << 6 | elem;
			} else {
				ps->sectors[ps->nsectors++] = s0 << 6 | (GM_SECTOR_BYTES - a0 % GM_SECTOR_BYTES);
				ps->sectors[ps->nsectors++] = s1 << 6 | (a1 % GM_SECTOR_BYTES + 1);
			}
		}
	}
	return GM_OK;
}

/* What a window's reuse is judged by (rule D8): the DRAM bytes per warp it moves before reuse, and L2. */
struct reuse_ctx {
	double alloc_pw, l2_bytes;
	int64_t resident;           /* warps that run at once (rule L4) */
	int64_t wpb;                /* warps a block */
};

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
		if (ps->ks[k].far == far && ps->ks[k].n &&
		    bsearch(&key, ps->ks[k].v, (size_t)ps->ks[k].n, sizeof(int64_t), cmp_i64))
			return ps->ks[k].dist;
	return -1;
}

/* Sort and merge a window's store entries to one per sector: sector << 6 | bytes written (at most 32). */
static void merge_sectors(struct pat_state *ps)
{
	int64_t n = ps->nsectors, k = 0, m = 0, *v = ps->sectors;

	sort_keys(v, n);
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

/*
 * Rule L4 beyond the window: a share f of the sectors the window's first warps
 * wrote is completed by blocks outside the window that run beside it (probes
 * of rule D8). The lines that found no other block's sectors in the window
 * (pline[0]) take f of their partly written sectors as other blocks' (their
 * mean count, split between the two nearest whole counts).
 */
static void far_partners(struct totals *t, double f)
{
	double moved = t->pline[0] * (f < 1 ? f : 1), x, lo;

	if (!(moved > 0) || !(t->pline0_sectors > 0))
		return;
	x = t->pline0_sectors / t->pline[0];
	x = x < 4 ? x : 4;
	lo = floor(x);
	t->pline[0] -= moved;
	t->pline0_sectors -= moved * x;
	t->pline[(int)lo] += moved * (1 - (x - lo));
	if (lo < 4)
		t->pline[(int)lo + 1] += moved * (x - lo);
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

	merge_sectors(ps);
	m = ps->nsectors;
	v = ps->sectors;
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
			far_partners(t, near / (double)ps->nsub);
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
			if (piece_fill > 0) {
				fill_sum += piece_fill;
				v[nfill++] = cur_piece; /* nfill <= k: entries from k on are intact */
			}
			cur_piece = piece;
			piece_fill = 0;
		}
		piece_fill = f > piece_fill ? f : piece_fill;
	}
	if (piece_fill > 0) {
		fill_sum += piece_fill;
		v[nfill++] = cur_piece;
	}
	if (nfill) {
		t->read_bytes += fill_sum * atom;
		t->fill_bytes += fill_sum * atom;
		t->pieces += fill_sum;
		t->groups += (double)groups_of(v, nfill, atom) * fill_sum / (double)nfill;
	}
}

/*
 * A window's load pieces: those an earlier warp left in L2 are hits (rules
 * D6, D8), in the share keep(distance) of the nearest lookback chunk that
 * holds them; beyond the chunks, the first warps' pieces are looked for in
 * the probes, and the share they find applies to all pieces not found near.
 * The rest are DRAM reads. u: the window's distinct pieces.
 */
static void load_pieces(struct pat_state *ps, int64_t u, int atom, struct totals *t, const struct reuse_ctx *c)
{
	int64_t m = 0, not_near = 0;
	double hits = 0;

	for (int64_t k = 0; k < u; k++) {
		int64_t d = c && ps->nks ? nearest(ps, ps->pieces[k], 0) : -1;
		double kk = d >= 0 ? keep(c, d, KEEP_CLEAN_LO, KEEP_CLEAN_HI) : 0;

		if (kk >= 1.0) {
			t->reuse_bytes += atom;
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
	t->reuse_bytes += hits * atom;
	t->read_bytes += ((double)m - hits) * atom;
	t->pieces += (double)m - hits;
	if (m)
		t->groups += (double)groups_of(ps->pieces, m, atom) * ((double)m - hits) / (double)m;
}

/* Close a window: distinct pieces / sectors become DRAM bytes; c: the reuse across windows (NULL: none). */
static void close_window(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c)
{
	flush_block(ps, t);
	if (ps->npieces)
		load_pieces(ps, ps->pieces_unique ? ps->npieces : sort_unique(ps->pieces, ps->npieces), atom, t, c);
	if (ps->nsectors)
		store_sectors(ps, atom, t, c);
	ps->npieces = ps->nsectors = 0;
	ps->pieces_unique = 0;
}

/* Warp number wi of the launch as blockIdx and warp-in-block. */
static void place_warp(struct gm_access *w, int64_t wi, int64_t wpb, int64_t grid_x)
{
	int64_t b = wi / wpb, bx = b % grid_x, by = b / grid_x;

	w->block_idx[0] = bx > 2147483647 ? 2147483647 : (int)bx;
	w->block_idx[1] = by > 2147483647 ? 2147483647 : (int)by;
	w->block_idx[2] = 0;
	w->warp = (int)(wi % wpb);
}

static gm_status parse_pats(struct pat_state *ps, const struct gm_launch_in *in, struct gm_expr_error *err)
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

static void free_pats(struct pat_state *ps, int n)
{
	for (int k = 0; k < n; k++) {
		gm_expr_free(ps[k].index);
		gm_expr_free(ps[k].active);
		free(ps[k].pieces);
		free(ps[k].sectors);
		free(ps[k].blk);
		free(ps[k].sl.key);
		free(ps[k].sl.owner);
		free(ps[k].sl.gen);
		free(ps[k].sub);
		for (int j = 0; j < MAX_SETS; j++)
			free(ps[k].ks[j].v);
	}
}

/*
 * A pattern whose lanes touch the same addresses in two warps of different
 * blocks says how each access is shaped, not where each warp goes (a loop
 * over rows declared by its first row, `lane`): its warps are taken to touch
 * different data, so no reuse between them is assumed.
 */
static int warp_invariant(struct pat_state *ps, struct gm_access w, int64_t wpb, int64_t grid_x,
			  int64_t warps, struct gm_prediction *p0, struct gm_prediction *p1)
{
	struct gm_expr_error e;
	int64_t other = warps > wpb ? wpb + (wpb > 1) : warps - 1;

	if (other <= 0)
		return 0;
	place_warp(&w, 0, wpb, grid_x);
	if (gm_lanes_fill(&w, ps->index, ps->active, p0, &e) != GM_OK)
		return 0;
	place_warp(&w, other, wpb, grid_x);
	if (gm_lanes_fill(&w, ps->index, ps->active, p1, &e) != GM_OK)
		return 0;
	for (int l = 0; l < GM_WARP_SIZE; l++)
		if (p0->lanes[l].active != p1->lanes[l].active ||
		    (p0->lanes[l].active && p0->lanes[l].addr != p1->lanes[l].addr))
			return 0;
	return 1;
}

/* A pattern's loops (rule R) as evaluated: at most ITER_CAP iterations, the first ones; *f scales them to all. */
static struct gm_repeat loops_evaluated(const struct gm_launch_in *in, int pi, double *f)
{
	struct gm_repeat rp = in->repeat ? in->repeat[pi] : (struct gm_repeat){ 1, 0, 1, 0 };
	int64_t all;

	rp.iters = rp.iters > 1 ? rp.iters : 1;
	rp.iters2 = rp.iters2 > 1 ? rp.iters2 : 1;
	all = (int64_t)rp.iters * rp.iters2;
	if (rp.iters2 > ITER_CAP)
		rp.iters2 = ITER_CAP;
	if ((int64_t)rp.iters * rp.iters2 > ITER_CAP)
		rp.iters = ITER_CAP / rp.iters2 > 1 ? ITER_CAP / rp.iters2 : 1;
	*f = (double)all / ((double)rp.iters * rp.iters2);
	return rp;
}

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
					s = collect_keys(into, first, off, w.elem_bytes, atom, w.op == GM_OP_STORE);
					continue;
				}
				if (off != 0) {
					at = p;
					w.base = base + off;
					if (!gm_lanes_shift(&w, first, off, p))
						s = fill_warp(ps, &w, p, err); /* to name the lane that leaves the range */
				}
				if (s == GM_OK)
					s = add_warp(ps, &w, wi, wi / wpb, atom, t, at);
			}
		if (ps->per_warp && !into) {
			close_window(ps, atom, t, NULL);
			owner_set_clear(&ps->sl); /* the next warp touches its own data */
		}
		if (!into && wi - from == SUB_WARPS - 1)
			ps->sub_mark = w.op == GM_OP_STORE ? ps->nsectors : ps->npieces;
	}
	return s;
}

/* Pattern pi as the launch runs it: the launch's block shape and thread count. */
static struct gm_access access_of(const struct gm_launch_in *in, int pi)
{
	struct gm_access w = in->pats[pi];

	memcpy(w.block, in->block, sizeof(w.block));
	w.n_threads = in->n_threads;
	return w;
}

/* Global bytes one thread of the launch moves: every global pattern's accesses, loops counted. */
static double global_bytes_per_thread(const struct gm_launch_in *in)
{
	double b = 0;

	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].space == GM_SPACE_GLOBAL)
			b += (double)in->pats[k].elem_bytes * (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
	return b;
}

/* Where a window and the warps before it start. */
struct window_plan {
	int nwin;
	int64_t ww, wpb, grid_x, warps;
	int atom;
	double l2_bytes;
	int64_t resident;           /* warps that run at once (rule L4) */
};

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
	ks->n = sort_unique(ks->v, ks->n);
	return s;
}

static int has_partial(const struct pat_state *ps)
{
	for (int64_t k = 0; k < ps->nsectors; k++)
		if ((ps->sectors[k] & 63) < GM_SECTOR_BYTES)
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
	qsort(d, (size_t)nd, sizeof(d[0]), cmp_i64);
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
	struct reuse_ctx c = { 0, wp->l2_bytes, wp->resident, wp->wpb };
	gm_status s = GM_OK;

	for (int pi = 0; pi < in->npats && s == GM_OK; pi++) {
		struct gm_access w = access_of(in, pi);
		struct gm_repeat rp = loops_evaluated(in, pi, &fs[pi]);
		struct pat_state *x = &ps[pi];
		int store = w.op == GM_OP_STORE;

		memset(&tw[pi], 0, sizeof(tw[pi]));
		x->nks = 0;
		x->nblk = 0;
		x->cur_block = -1;
		owner_set_clear(&x->sl);  /* rule L4: the window's sectors */
		x->sub_mark = -1;
		x->nsub = 0;
		s = warps_of(x, w, &rp, first, first + wp->ww, NULL, wp->wpb, wp->grid_x, wp->atom, &tw[pi], p, q, err);
		if (s != GM_OK || w.space != GM_SPACE_GLOBAL || x->per_warp) {
			c.alloc_pw += tw[pi].read_bytes + tw[pi].write_bytes; /* closed warp by warp: no reuse */
			continue;
		}
		/* the first warps' keys (sectors without their byte counts), then the window's DRAM bytes */
		if (x->sub_mark < 0)
			x->sub_mark = store ? x->nsectors : x->npieces;
		if (reserve(&x->sub, &x->subcap, x->sub_mark) != GM_OK)
			return GM_ERR_NOMEM;
		for (int64_t j = 0; j < x->sub_mark; j++)
			x->sub[j] = store ? x->sectors[j] >> 6 : x->pieces[j];
		x->nsub = sort_unique(x->sub, x->sub_mark);
		if (store) {
			merge_sectors(x);
			c.alloc_pw += (double)x->nsectors * GM_SECTOR_BYTES;
		} else {
			x->npieces = sort_unique(x->pieces, x->npieces);
			x->pieces_unique = 1;
			c.alloc_pw += (double)x->npieces * wp->atom;
		}
	}
	c.alloc_pw /= (double)(wp->ww > 0 ? wp->ww : 1);
	for (int pi = 0; pi < in->npats && s == GM_OK; pi++) {
		struct gm_access w = access_of(in, pi);
		struct gm_repeat rp = loops_evaluated(in, pi, &fs[pi]);
		struct pat_state *x = &ps[pi];
		int reuse = w.space == GM_SPACE_GLOBAL && !x->per_warp;

		if (reuse && (w.op == GM_OP_LOAD || has_partial(x)))
			s = build_sets(x, w, &rp, first, wp, &c, &tw[pi], p, q, err);
		if (s == GM_OK)
			close_window(x, wp->atom, &tw[pi], reuse ? &c : NULL);
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

	free_pats(x->ps, x->npats);
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
	if (parse_pats(x->ps, in, &e) != GM_OK) {
		free_pats(x->ps, in->npats);
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

/*
 * Evaluate the windows; totals are over the evaluated warps, summed in
 * window order whatever thread evaluated a window (the same numbers on one
 * thread or many).
 */
static gm_status walk(struct pat_state *ps, const struct gm_launch_in *in, const struct gm_profile *prof,
		      int64_t warps, struct totals *t, struct pat_sum *sums, struct gm_expr_error *err)
{
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	int64_t blocks = (in->n_threads + tpb - 1) / tpb;
	int64_t tps = prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048, bps = tps / tpb;
	struct window_plan wp = { in->windows > 0 ? in->windows : DEFAULT_WINDOWS,
				  in->window_warps > 0 ? in->window_warps : DEFAULT_WINDOW_WARPS,
				  (tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE, in->grid_x > 0 ? in->grid_x : blocks,
				  warps, prof->dram_atom_bytes, prof->l2_bytes, 0 };

	bps = bps < 1 ? 1 : bps > 32 ? 32 : bps; /* resident blocks per SM, sm_50 and later */
	wp.resident = (int64_t)prof->sm_count * bps * wp.wpb;
	struct window_pool pool = { in, &wp, ps, NULL, NULL, NULL, NULL };
	struct gm_prediction *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	gm_status s = GM_OK;

	if (!p || !q) {
		free(p);
		free(q);
		return GM_ERR_NOMEM;
	}
	for (int pi = 0; pi < in->npats; pi++) {
		struct gm_access w = access_of(in, pi);
		ps[pi].per_warp = w.space == GM_SPACE_GLOBAL && warp_invariant(&ps[pi], w, wp.wpb, wp.grid_x, warps, p, q);
	}
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
			ps_->write_bytes += f * u->write_bytes;
			ps_->fill_bytes += f * u->fill_bytes;
			if (u->any) {
				ps_->lo = ps_->any && ps_->lo < u->lo ? ps_->lo : u->lo;
				ps_->hi = ps_->any && ps_->hi > u->hi ? ps_->hi : u->hi;
				ps_->any = 1;
			}
		}
		t->warps += wp.ww;
	}
	free(pool.tw);
	free(pool.fs);
	free(pool.st);
	free(pool.errs);
	free(p);
	free(q);
	return s;
}

static double interp_read_gbs(const struct gm_profile *pr, double rho)
{
	if (rho >= 1.0)
		return pr->read_gbs;
	if (rho >= 0.5)
		return pr->read_half_gbs + (pr->read_gbs - pr->read_half_gbs) * (rho - 0.5) / 0.5;
	if (rho >= 0.25)
		return pr->read_sparse_gbs + (pr->read_half_gbs - pr->read_sparse_gbs) * (rho - 0.25) / 0.25;
	return pr->read_sparse_gbs;
}

/* The copy rate below the read and write rates: the extra time of turning the bus around. */
static double turnaround(const struct gm_profile *pr, double rd, double wr)
{
	double mixed = 1.0 / pr->read_gbs + 1.0 / pr->write_gbs;
	double k = (2.0 / pr->copy_gbs) / mixed - 1.0;

	if (k < 0 || rd + wr <= 0)
		return 1.0;
	return 1.0 + k * 2.0 * (rd < wr ? rd : wr) / (rd + wr);
}

/* The harmonic number H_w = 1 + 1/2 + ... + 1/w: the mean of the largest of w exponential times of mean 1. */
static double harmonic(int64_t w)
{
	double h = 0;

	for (int64_t k = 1; k <= w; k++)
		h += 1.0 / (double)k;
	return h;
}

/*
 * Rule T5: a block holds its threads' slots until its slowest warp ends. With
 * a warp's round trip a base plus an exponential tail (tail / base = the
 * profile's warp_tail), a block of w warps lasts base x (1 + tail x H_w);
 * wave_ns is measured with blocks of 256 threads (8 warps): the round trip of
 * a wave of blocks of w warps is wave_ns x (1 + tail H_w) / (1 + tail H_8).
 */
double gm_launch_block_tail(double warp_tail, int64_t threads_per_block)
{
	int64_t w = (threads_per_block + 31) / 32;

	if (!(warp_tail > 0) || w < 1)
		return 1.0;
	return (1.0 + warp_tail * harmonic(w)) / (1.0 + warp_tail * harmonic(8));
}

/* Rule T5 undone: the warp_tail that gives blocks of this many threads the round-trip factor g; 0 if none. */
double gm_launch_warp_tail_for(double g, int64_t threads_per_block)
{
	double hw = harmonic((threads_per_block + 31) / 32), h8 = harmonic(8);

	return g > 1 && hw - g * h8 > 0 ? (g - 1) / (hw - g * h8) : 0;
}

/*
 * Threads that load, store and end: a wave of resident threads takes the
 * loaded round trip once per time a thread waits for its loads, whatever
 * DRAM could do (rule T2, docs/MODEL.md 7.2). One element per thread is one
 * round trip; a case declares more (the loads its SASS issues before their
 * first use).
 */
static void waves(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	int64_t per_sm, blocks_per_sm;
	int trips = in->round_trips > 0 ? in->round_trips : in->one_element_per_thread ? 1 : 0;
	double from_dram = o->dram_read_bytes - o->dram_fill_bytes, wave = pr->wave_ns;

	o->block_tail = 1.0;
	if (trips <= 0 || pr->threads_per_sm <= 0 || pr->sm_count <= 0)
		return;
	blocks_per_sm = pr->threads_per_sm / tpb;
	if (blocks_per_sm > 32)
		blocks_per_sm = 32; /* resident blocks per SM, sm_50 and later */
	if (blocks_per_sm < 1)
		blocks_per_sm = 1;
	per_sm = blocks_per_sm * tpb;
	/* the loads L2 serves come back sooner: the round trip of the share DRAM serves and of the rest */
	if (pr->wave_l2_ns > 0 && from_dram + o->l2_reuse_bytes > 0)
		wave = (from_dram * pr->wave_ns + o->l2_reuse_bytes * pr->wave_l2_ns) / (from_dram + o->l2_reuse_bytes);
	o->waves = ceil((double)in->n_threads / ((double)per_sm * pr->sm_count));
	/* rule T5: blocks larger or smaller than the 256 threads wave_ns is measured with */
	o->block_tail = gm_launch_block_tail(pr->warp_tail, tpb);
	o->t_waves_ms = o->waves * trips * wave * o->block_tail * 1e-6; /* 0 without wave_ns (calibrate) */
	/* rule T4: the SMs start blocks at a rate of their own, whatever each block does */
	o->blocks = ceil((double)in->n_threads / (double)tpb);
	o->t_blocks_ms = pr->blocks_gps > 0 ? o->blocks / pr->blocks_gps / 1e6 : 0;
}

double gm_launch_join(double t_latency, double t_bandwidth, double knee)
{
	double hi = t_latency > t_bandwidth ? t_latency : t_bandwidth;

	if (!(knee > 0) || !(t_latency > 0) || !(t_bandwidth > 0))
		return hi;
	/* scaled by the larger, so that large exponents do not overflow */
	return hi * pow(pow(t_latency / hi, knee) + pow(t_bandwidth / hi, knee), 1.0 / knee);
}

static void times(const struct gm_profile *pr, struct gm_launch_out *o)
{
	double rd = o->dram_read_bytes, wr = o->dram_write_bytes;
	double rate = interp_read_gbs(pr, o->read_density);

	o->t_dram_ms = (rd / rate + wr / pr->write_gbs) / 1e6 * turnaround(pr, rd, wr);
	double t_lines = pr->l2_lines_gps > 0 ? o->l2_lines / pr->l2_lines_gps / 1e6 : 0;

	if (pr->l2_part_sectors_gps > 0 && pr->l2_merge_lines_gps > 0) {
		/* rule L4: stores carry their bytes; a line a request writes partly costs a lookup at the merged
		   rate, or, when other blocks running beside it wrote x of its sectors last, x sector merges
		   if they take longer */
		double part = o->l2_part_lines + o->l2_merged_lines, tp = 0;

		for (int x = 0; x < 5; x++) {
			double per = 1.0 / pr->l2_merge_lines_gps, px = x / pr->l2_part_sectors_gps;

			tp += o->l2_partial_lines[x] * (px > per ? px : per);
		}
		o->t_l2_ms = (o->l2_load_sectors * GM_SECTOR_BYTES / pr->l2_read_gbs +
			      o->l2_store_bytes / pr->l2_write_gbs) / 1e6;
		t_lines = ((pr->l2_lines_gps > 0 ? (o->l2_lines - part) / pr->l2_lines_gps : 0) + tp) / 1e6;
	} else /* rule L2: a partly written sector is read, merged and written: two operations */
		o->t_l2_ms = (o->l2_load_sectors * GM_SECTOR_BYTES / pr->l2_read_gbs +
			      o->l2_store_sectors * GM_SECTOR_BYTES / pr->l2_write_gbs) / 1e6;
	/* rule L3: L2 looks up one line a request at a time; a request that touches 32 lines costs 32 */
	if (t_lines > o->t_l2_ms) {
		o->t_l2_ms = t_lines;
		o->l2_by_lines = 1;
	}
	/* L1 serves one 128 B line (up to 4 of its sectors) per wavefront: a request costs its lines */
	o->t_l1_ms = (o->l1_lines * 128.0 + o->smem_wavefronts * 128.0) / pr->l1_gbs / 1e6;
	o->time_ms = o->t_dram_ms;
	o->limited_by = "DRAM";
	if (o->t_l2_ms > o->time_ms) {
		o->time_ms = o->t_l2_ms;
		o->limited_by = "L2";
	}
	if (o->t_l1_ms > o->time_ms) {
		o->time_ms = o->t_l1_ms;
		o->limited_by = "L1";
	}
	/* rule T4: a launch of many short blocks waits for the SMs to start them */
	if (o->t_blocks_ms > o->time_ms) {
		o->time_ms = o->t_blocks_ms;
		o->limited_by = "blocks";
	}
	/* rule T3: near the knee, neither limit alone sets the time */
	o->t_bandwidth_ms = o->time_ms;
	o->time_ms = gm_launch_join(o->t_waves_ms, o->t_bandwidth_ms, pr->knee);
	if (o->t_waves_ms > o->t_bandwidth_ms)
		o->limited_by = "latency";
	o->gbs = o->time_ms > 0 ? o->useful_bytes / (o->time_ms * 1e-3) / 1e9 : 0;
}

static void scale(const struct totals *t, const struct gm_launch_in *in, struct gm_launch_out *o)
{
	double f = t->warps > 0 ? (double)o->warps / (double)t->warps : 0;

	o->sampled_warps = t->warps;
	o->sampled = t->warps < o->warps;
	o->requests = t->requests * f;
	o->l1_sectors = t->l1_sectors * f;
	o->l1_lines = t->l1_lines * f;
	/* L2 looks up the lines of the requests L1 does not serve: a load's lines in the share of its sectors
	   that go on to L2 (rule L1), every store's */
	o->l2_lines = (t->l1_load > 0 ? t->l1_load_lines * t->l2_load / t->l1_load : 0) +
		      (t->l1_lines - t->l1_load_lines);
	o->l2_lines *= f;
	o->l1_load_sectors = t->l1_load * f;
	o->l2_load_sectors = t->l2_load * f;
	o->l2_store_sectors = t->l2_store * f;
	o->l2_sectors = o->l2_load_sectors + o->l2_store_sectors;
	o->partial_store_sectors = t->partial * f;
	o->l2_store_bytes = t->store_bytes * f;
	for (int x = 0; x < 5; x++)
		o->l2_partial_lines[x] = t->pline[x] * f;
	o->l2_merged_lines = o->l2_partial_lines[0];
	o->l2_part_lines = o->l2_partial_lines[1] + o->l2_partial_lines[2] + o->l2_partial_lines[3] +
			   o->l2_partial_lines[4];
	o->smem_wavefronts = t->wavefronts * f;
	o->dram_read_bytes = t->read_bytes * f;
	o->dram_write_bytes = t->write_bytes * f;
	o->dram_fill_bytes = t->fill_bytes * f;
	o->l2_reuse_bytes = t->reuse_bytes * f;
	o->read_density = t->groups > 0 ? t->pieces / (t->groups * (GROUP_BYTES / 64.0)) : 1.0;
	if (o->read_density > 1)
		o->read_density = 1;
	o->useful_bytes = in->useful_bytes > 0 ? in->useful_bytes : (double)in->n_threads * global_bytes_per_thread(in);
}

/*
 * Rule D7, a footprint that stays in L2: a pattern whose whole footprint F
 * (the bytes between the lowest and highest address it touches, in DRAM
 * pieces for loads, sectors for stores) comes back while it is still in L2
 * moves it from DRAM once, however often it is read or written. It comes
 * back in time when F, with what the launch's other patterns move meanwhile
 * (F x the launch's bytes per thread / the pattern's), fits in half of
 * l2_bytes: room for the streams beside it. The footprint is measured over
 * the evaluated warps (the windows reach from the first warp to the last);
 * patterns that describe shapes (rule W) and loops evaluated in part (rule R)
 * are left alone. f: evaluated warps to the launch's.
 */
static void footprints(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
		       const struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	double per_thread = global_bytes_per_thread(in);
	int atom = pr->dram_atom_bytes;

	for (int k = 0; k < in->npats; k++) {
		const struct gm_access *a = &in->pats[k];
		const struct pat_sum *u = &sums[k];
		double part, mine, fp, cut;

		if (a->space != GM_SPACE_GLOBAL || ps[k].per_warp || !u->any)
			continue;
		(void)loops_evaluated(in, k, &part);
		if (part > 1.0)
			continue;
		mine = (double)a->elem_bytes * (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
		if (a->op == GM_OP_LOAD)
			fp = (double)((u->hi / atom) - (u->lo / atom) + 1) * atom;
		else
			fp = (double)((u->hi / GM_SECTOR_BYTES) - (u->lo / GM_SECTOR_BYTES) + 1) * GM_SECTOR_BYTES;
		if (!(mine > 0) || fp * per_thread / mine > 0.5 * pr->l2_bytes)
			continue;
		if (a->op == GM_OP_LOAD && (cut = u->read_bytes * f - fp) > 0) {
			o->dram_read_bytes -= cut;
			o->l2_reuse_bytes += cut;
			o->l2_footprint_bytes += cut;
		}
		if (a->op == GM_OP_STORE && (cut = u->write_bytes * f - fp) > 0) {
			o->dram_write_bytes -= cut;
			o->l2_footprint_bytes += cut;
		}
		if (a->op == GM_OP_STORE && (cut = u->fill_bytes * f - fp) > 0) {
			o->dram_read_bytes -= cut;
			o->dram_fill_bytes -= cut;
			o->l2_footprint_bytes += cut;
		}
	}
}

static gm_status check_in(const struct gm_launch_in *in, const struct gm_profile *prof, struct gm_expr_error *err)
{
	char why[128];
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];

	if (gm_profile_check(prof, why, sizeof(why)) != GM_OK) {
		snprintf(err->msg, sizeof(err->msg), "profile: %s", why);
		return GM_ERR_INVALID_ARG;
	}
	if (in->npats < 1 || !in->pats || tpb < 1 || tpb > 1024 || in->n_threads < 1 ||
	    in->n_threads > ((int64_t)1 << 40)) {
		snprintf(err->msg, sizeof(err->msg), "launch needs 1..2^40 threads, a block of 1..1024 threads "
			 "and at least one pattern");
		return GM_ERR_INVALID_ARG;
	}
	for (int k = 0; k < in->npats; k++) {
		struct gm_access a = in->pats[k];

		memcpy(a.block, in->block, sizeof(a.block));
		a.warp = 0;
		memset(a.block_idx, 0, sizeof(a.block_idx));
		if (gm_access_check(&a, err) != GM_OK)
			return GM_ERR_INVALID_ARG;
	}
	return GM_OK;
}

gm_status gm_launch_predict(const struct gm_launch_in *in, const struct gm_profile *prof,
			    struct gm_launch_out *out, struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	struct pat_state *ps;
	struct pat_sum *sums;
	struct totals t = { 0 };
	int64_t tpb;
	gm_status s;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	err->lane = -1;
	memset(out, 0, sizeof(*out));
	if ((s = check_in(in, prof, err)) != GM_OK)
		return s;
	tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	out->warps = (in->n_threads + tpb - 1) / tpb * ((tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
	ps = calloc((size_t)in->npats, sizeof(*ps));
	sums = calloc((size_t)in->npats, sizeof(*sums));
	if (!ps || !sums) {
		free(ps);
		free(sums);
		return GM_ERR_NOMEM;
	}
	s = parse_pats(ps, in, err);
	if (s == GM_OK)
		s = walk(ps, in, prof, out->warps, &t, sums, err);
	if (s == GM_OK) {
		scale(&t, in, out);
		footprints(in, prof, ps, sums, t.warps > 0 ? (double)out->warps / (double)t.warps : 0, out);
	}
	free_pats(ps, in->npats);
	free(ps);
	free(sums);
	if (s != GM_OK)
		return s;
	waves(in, prof, out);
	times(prof, out);
	return GM_OK;
}

gm_status gm_profile_check(const struct gm_profile *p, char *why, size_t n)
{
	static const struct {
		const char *name;
		size_t off;
	} f[] = {
		{ "read_gbs", offsetof(struct gm_profile, read_gbs) },
		{ "write_gbs", offsetof(struct gm_profile, write_gbs) },
		{ "copy_gbs", offsetof(struct gm_profile, copy_gbs) },
		{ "read_half_gbs", offsetof(struct gm_profile, read_half_gbs) },
		{ "read_sparse_gbs", offsetof(struct gm_profile, read_sparse_gbs) },
		{ "l2_read_gbs", offsetof(struct gm_profile, l2_read_gbs) },
		{ "l2_write_gbs", offsetof(struct gm_profile, l2_write_gbs) },
		{ "l1_gbs", offsetof(struct gm_profile, l1_gbs) },
	};

	if (!p) {
		snprintf(why, n, "no profile");
		return GM_ERR_INVALID_ARG;
	}
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		double v = *(const double *)((const char *)p + f[k].off);

		if (!(v > 0 && v < 1e7)) {
			snprintf(why, n, "field '%s' is missing or not a positive bandwidth", f[k].name);
			return GM_ERR_INVALID_ARG;
		}
	}
	if (p->dram_atom_bytes != 32 && p->dram_atom_bytes != 64 && p->dram_atom_bytes != 128) {
		snprintf(why, n, "field 'dram_atom_bytes' is not 32, 64 or 128");
		return GM_ERR_INVALID_ARG;
	}
	return GM_OK;
}
