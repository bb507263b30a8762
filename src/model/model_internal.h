/*
 * model_internal.h - the pieces gm_model_predict is built from (private).
 */
#ifndef GPUMEM_MODEL_INTERNAL_H
#define GPUMEM_MODEL_INTERNAL_H

#include "gpumem/model.h"

/* lanes.c: validate the launch shape; evaluate every lane's address. */
gm_status gm_access_check(const struct gm_access *a, struct gm_expr_error *err);
gm_status gm_lanes_fill(const struct gm_access *a, const struct gm_expr *index,
			const struct gm_expr *active, struct gm_prediction *p,
			struct gm_expr_error *err);
/* Set p->stride_known / p->stride_bytes from the active lanes. */
void gm_lanes_stride(struct gm_prediction *p);
/* `from` (filled for a) moved by off bytes into `to`: 0 where an address would leave 0..INT64_MAX or misalign. */
int gm_lanes_shift(const struct gm_access *a, const struct gm_prediction *from, int64_t off,
		   struct gm_prediction *to);

/* verdict.c: the one-line diagnosis, from counts already filled in. */
void gm_verdict(const struct gm_access *a, struct gm_prediction *p);

/* Add x to a small set kept in an array; returns 1 when it was new. */
static inline int gm_set_add(int64_t *set, int *n, int64_t x)
{
	int k;

	for (k = 0; k < *n; k++)
		if (set[k] == x)
			return 0;
	set[(*n)++] = x;
	return 1;
}

/* Add x to a small set kept sorted; returns 1 when it was new (one compare for keys that come in order). */
static inline int gm_sorted_add(int64_t *set, int *n, int64_t x)
{
	int k = *n;

	while (k > 0 && set[k - 1] > x)
		k--;
	if (k > 0 && set[k - 1] == x)
		return 0;
	for (int j = *n; j > k; j--)
		set[j] = set[j - 1];
	set[k] = x;
	(*n)++;
	return 1;
}

/* ---- the launch model's pieces (launch_*.c; docs/MODEL.md section 7) -------------------------------
 *   launch_model.c    gm_launch_predict: check the launch, run the phases, scale; the launch's rules (D9, D7,
 *                     T5's lines) in launch_rules; the profile check
 *   launch_walk.c     the walk phase: walk_rules (W rule_w_shape, R rule_r_loops, once per pattern), then the
 *                     windows, the warps a window's reuse is looked for in (lookback and probes of D6, D8),
 *                     scaling
 *   launch_loops.c    a pattern's loops as evaluated (rule R's gm_launch_loops), the bytes a thread moves
 *   launch_traffic.c  the traffic phase: gm_traffic_rules, per warp (T1, L1, P, L2, L4)
 *   launch_dram.c     the DRAM phase: gm_dram_warp_rules per warp (D1, D2), gm_dram_window_rules at a window's
 *                     close (D1 D6 D8 loads; D2 D5 D8 and L4 beyond the window, stores), D9 and D7 over the
 *                     launch
 *   launch_time.c     the time phase: gm_time_rules (T, T1-T7, P, S, L2-L4 (L2 time), D3, D4)
 *   launch_interval.c the interval of a prediction: the rules that fired and their measured errors
 *   launch_keys.c     sorting and growing the key arrays (pieces, sectors) the rules count with
 * Calls go one way, no circle between files: model -> walk -> traffic -> dram -> loops, keys; model -> time,
 * interval.
 */
#include "gpumem/launch.h"

#define GROUP_BYTES 256
#define GROUP_WIDE_BYTES 512 /* rule D3b's spacings past 4: a pattern's pieces by their 512 B groups */
#define ITER_CAP 64          /* loop iterations evaluated per warp and pattern (rule R) */
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
	int blk_w0, blk_wl, blk_wpb; /* its first and last warp evaluated, its warps (a whole block: rule T5) */
	struct owner_set sl;          /* sectors the window's stores wrote partly, by whom (rule L4) */
	struct owner_set ll;          /* lines the window's stores wrote partly: when (nlines) it was last written,
				       its bytes, its lone pieces and their rows weights, packed (rule L4's rows) */
	int64_t nlines;               /* lines the window's store requests wrote partly so far */
	double lone_n, lone_inv_f;    /* the window's lone pieces, and the sum of 1 / their spacing weights (L4) */
	double l2_bytes;              /* the profile's L2 (rule L4's rows: the span of the lines a walk keeps open) */
	double res_span;              /* bytes the stores of the warps resident with the window's first span (L4, t84) */
	struct keyset ks[MAX_SETS]; /* the warps before (and, for stores, after) the window, nearest first (D6, D8) */
	int nks;
	int64_t *sub, nsub, subcap; /* keys of the window's first SUB_WARPS warps (pieces / sectors) */
	int64_t sub_mark;           /* entries of pieces / sectors those warps added */
	int pieces_unique;          /* pieces are sorted and distinct already (one_window counted them) */
	int64_t runs;               /* the window's pieces / sectors as its warps' lanes appended them, a run of lanes in
				       one piece once, before they are made distinct: above them, warps share (rule D3b) */
};

struct totals {
	double requests, l1_sectors, l1_lines, l1_load, l2_load, l2_store, partial, wavefronts;
	double l1_load_lines;       /* of l1_lines, the loads' */
	double l1_waves;            /* L1 data wavefronts of the global requests (rule T1: banks) */
	double l1_many_waves;       /* of them, those of load requests over GM_L1_MANY_LINES lines (rule T11) */
	double l1_spread_waves;     /* load wavefronts beyond a dense request's of the same bytes (rule T13; lanes of 4 B or less at half) */
	double l1_load_alone;       /* load lanes alone in their 2 MiB page of the request (rule P) */
	double l1_store_alone;      /* store lanes alone in their 2 MiB page of the request (rule P3) */
	double alone_log2_dist;     /* those lanes (loads and stores) x log2 of their request's distance (P4) */
	double l1_load_aligned;     /* of the load lanes alone, those whose request's lines share low bits (P5) */
	double l1_load_spread;      /* of the load lanes alone, those whose request's lone lanes spread over their
				       pages' offsets (P6) */
	double store_bytes;         /* bytes L2 writes for the stores: whole sectors (L4) */
	double pline[5];            /* store lines written partly, by how many of their sectors another block of
				       the window wrote last (0-4; rule L4) */
	double pline0_sectors;      /* the partly written sectors of the lines of pline[0] */
	double pline_sp[5];         /* of pline[x], the lines of requests whose lines lie GM_L4_SPACED_MIN or more
				       apart (rule L4's spaced near rate) */
	double far_x[5], far_wide_x[5]; /* of pline[x], the lines a lane writes alone whose sector another block
				       wrote last, x their request's spacing weight (x their lane's width weight) (L4) */
	double first_x[5], first_wide_x[5], first_wide2_x[5]; /* the window's first pieces of such lines: their
				       spacing weight f, f x width weight u, f u^2 (launch_traffic.c) */
	double lin_x[5], first_lin_x[5]; /* of far_x's own-block lines and of the first pieces: f u (1 - u), the width's
				       part a line its window leaves incomplete adds (rule L4's open lines, m75) */
	double far_cross, far_same; /* the spacing weights of the lone lines other blocks / their own block wrote */
	double rows_open, rows_all; /* the pieces lanes wrote alone into lines the window left incomplete, and all */
	double rows_f, rows_g;      /* the pieces lanes wrote alone into lines of the window's windows, and their
				       rows weights (rule L4's rows: gm_l4_rows_close) */
	double read_bytes, write_bytes, fill_bytes;
	double sparse_wr_pieces, sparse_wr_bytes; /* written pieces with no fill x their window's spacing weight (D12) */
	double sparse_wr_far;       /* of those, lone pieces x their share of 512 B's spacing (D12) */
	double wr_own, wr_span;     /* the bytes the window's stores carry and the bytes their sectors span (D12) */
	double groups, pieces;      /* for the read density */
	double spacing[GM_READ_SPACING_BINS]; /* pieces read by their pattern's spacing in the window (rule D3) */
	double reuse_bytes;         /* load pieces found in L2 (read by an earlier warp, rule D6) */
	double reuse_wait_bytes;    /* of those, a pattern's whose window also reads from DRAM (rule T7) */
	double reuse_wave_bytes;    /* of reuse_bytes, pieces first read under a resident wave before, x the trip left (T7) */
	double blk_lines, blk_count; /* distinct load lines of the whole blocks evaluated, and those blocks (T5) */
	int64_t warps;
	int64_t lo, hi;             /* bytes [lo, hi] the pattern touched (any = 1), for rule D7 */
	int any;
};

/* One pattern over the evaluated windows: its DRAM bytes (evaluated warps) and the bytes it touched. */
struct pat_sum {
	double read_bytes, write_bytes, fill_bytes;
	double sparse_wr_pieces, sparse_wr_bytes; /* rule D12: the windows' lone written pieces, their bytes */
	double sparse_wr_far;        /* rule D12: of those, lone pieces x their share of 512 B's spacing */
	double wr_own, wr_span;      /* rule D12: the bytes the windows' stores carry, the bytes their sectors span */
	double warm_read_bytes;      /* read_bytes of the windows after the first (rule D9) */
	int nwin;                    /* windows evaluated */
	double blk_lines, blk_count; /* its loads' distinct lines over the whole blocks evaluated (rule T5) */
	int64_t lo, hi;
	int any;
};

/* What a window's reuse is judged by (rule D8): the DRAM bytes per warp it moves before reuse, and L2. */
struct reuse_ctx {
	double alloc_pw, l2_bytes;
	int64_t resident;           /* warps that run at once (rule L4) */
	int64_t wpb;                /* warps a block */
	int lockstep;               /* the blocks meet at barriers: a wave's blocks start together (rule T7) */
};

/* launch_partner.c: rule D8's far partners of a store's partly written sector, solved from the index. */
int gm_store_partner_dists(const struct gm_access *w, const struct gm_expr *index, const struct gm_expr *active,
			   int64_t wi, int64_t wpb, int64_t grid_x, int64_t warps, int64_t *d, int max);

/* launch_keys.c */
int gm_keys_cmp(const void *x, const void *y);           /* qsort / bsearch order of int64_t */

/* Whether the sorted keys v[0..n) hold key (the binary search inline: bsearch's comparator call per step was a
   fifth of a suite's prediction time) */
static inline int gm_keys_has(const int64_t *v, int64_t n, int64_t key)
{
	int64_t lo = 0, hi = n;

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == key;
}
void gm_keys_sort(int64_t *v, int64_t n);                 /* non-negative keys */
int64_t gm_keys_sort_unique(int64_t *v, int64_t n);       /* sorted and distinct; returns how many */
gm_status gm_keys_reserve(int64_t **v, int64_t *cap, int64_t need); /* room for `need` keys (doubling) */
int gm_atom_shift(int atom);                              /* log2 of the DRAM atom (32, 64 or 128 B) */
int64_t gm_keys_groups(const int64_t *pieces, int64_t n, int atom); /* 256 B groups of sorted pieces */
int64_t gm_keys_groups_of(const int64_t *pieces, int64_t n, int atom, int group_bytes); /* groups of that size */

/* One warp of one pattern as the per-warp rules see it (the traffic phase and the DRAM phase's gather). */
struct warp_ctx {
	struct pat_state *ps;
	const struct gm_access *w;
	struct gm_prediction *p;    /* its lanes (and, once rule L1 ran, its global counts) */
	int64_t wi, block;          /* its number in the launch and its block */
	int atom;                   /* DRAM atom (dram_atom_bytes) */
	struct totals *t;
	int part;                   /* rule L2 -> L4: the sectors the warp writes partly, psec[0..part) */
	int64_t psec[GM_WARP_SIZE * 2];
};
/* A per-warp rule: when it applies, and what it counts; in a NULL-terminated registry walked in order. */
struct gm_warp_rule {
	const char *ids;            /* docs/MODEL.md 7.2's rule id */
	const char *what;
	int (*applies)(const struct warp_ctx *c);
	gm_status (*apply)(struct warp_ctx *c);
};

/* launch_traffic.c */
/* The traffic phase's registry: T1 (shared), L1, T1, P, L2, L4, one warp at a time. */
extern const struct gm_warp_rule gm_traffic_rules[];
/* The lanes p of one warp of one pattern into the totals and the window's sets: gm_traffic_rules, then
   gm_dram_warp_rules. */
gm_status gm_warp_traffic(struct pat_state *ps, const struct gm_access *w, int64_t wi, int64_t block, int atom,
			  struct totals *t, struct gm_prediction *p);
/* The current block's distinct load sectors go to L2 (rule L1). */
void gm_block_flush(struct pat_state *ps, struct totals *t);
/* A new window: forget the sectors its stores wrote partly (rule L4). */
void gm_owner_set_clear(struct owner_set *ls);
void gm_owner_set_free(struct owner_set *ls);
void gm_l4_rows_close(struct pat_state *ps, struct totals *t);

/* launch_dram.c */
/* The DRAM phase's per-warp registry: D1 (a load's pieces), D2 (a store's sectors with their bytes), into the
   window's sets. */
extern const struct gm_warp_rule gm_dram_warp_rules[];
/* A rule at a window's close: when it applies, and the DRAM bytes it counts (c: the reuse across windows). */
struct gm_window_rule {
	const char *ids;
	const char *what;
	int (*applies)(const struct pat_state *ps);
	void (*apply)(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c);
};
/* The DRAM phase's window registry: D1 D6 D8 (loads), D2 D5 D8 L4 (stores). */
extern const struct gm_window_rule gm_dram_window_rules[];
/* The pieces (loads) or sectors (stores) of one warp outside the window into a keyset (rules D6, D8). */
gm_status gm_keyset_collect(struct keyset *ks, const struct gm_prediction *p, int64_t off, int elem, int atom,
			    int store);
/* Sort and merge a window's store entries to one per sector: sector << 6 | bytes written (at most 32). */
void gm_window_merge_sectors(struct pat_state *ps);
/* Rules D9 and D7 over the whole launch, after the walk and its scaling (launch_model.c's registry of the
   launch's rules walks them); f: evaluated warps to the launch's. */
void gm_rule_d9_cold_window(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			    struct pat_sum *sums, double f, struct gm_launch_out *o);
void gm_rule_d7_footprints(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			   const struct pat_sum *sums, double f, struct gm_launch_out *o);
/* Rule D12 (a launch rule, after D7 and D11): the windows' lone written pieces, by their pattern's density. */
void gm_rule_d12_sparse_writes(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			       struct pat_sum *sums, double f, struct gm_launch_out *o);
/* launch_dram_time.c: rules D3, D3b, D4, D10, D12 in the time phase, the DRAM time of a launch's counts (ms). */
double gm_launch_dram_ms(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o);
/* launch_back.c: rule D11 (a launch rule, after D7), a launch timed back to back finds the previous launch's lines
   in L2; only with the profile's floor_us (rule S3's, launch_time.c). */
void gm_rule_d11_kept_lines(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
			    struct pat_sum *sums, double f, struct gm_launch_out *o);
/* Close a window: gm_dram_window_rules turn its distinct pieces / sectors into DRAM bytes; c: the reuse across
   windows (NULL: none). */
void gm_window_close(struct pat_state *ps, int atom, struct totals *t, const struct reuse_ctx *c);

/* launch_walk.c: the walk phase's registry (W, R: once per pattern, before the windows) is static there. */
gm_status gm_launch_parse_pats(struct pat_state *ps, const struct gm_launch_in *in, struct gm_expr_error *err);
void gm_launch_free_pats(struct pat_state *ps, int n);
/* launch_loops.c. Rule R: a pattern's loops as evaluated (at most ITER_CAP iterations); *f scales them to all. */
struct gm_repeat gm_launch_loops(const struct gm_launch_in *in, int pi, double *f);
/* Global bytes one thread of the launch moves: every global pattern's accesses, loops counted. */
double gm_launch_bytes_per_thread(const struct gm_launch_in *in);
/* Evaluate the windows into t (over the evaluated warps) and sums (per pattern). */
gm_status gm_launch_walk(struct pat_state *ps, const struct gm_launch_in *in, const struct gm_profile *prof,
			 int64_t warps, struct totals *t, struct pat_sum *sums, struct gm_expr_error *err);
/* The evaluated warps' totals scaled to the launch's counts and DRAM bytes. */
void gm_launch_scale(const struct totals *t, const struct gm_launch_in *in, struct gm_launch_out *o);

/* launch_time.c: rules T2, T4, T5 (the waves), then every level's time and the launch's (T, T1, T3, L2-L4, D3, D4). */
void gm_launch_times(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o);
/* The time phase's registry (launch_time.c): each rule a named function, applied in order; NULL-terminated. */
struct gm_time_rule {
	const char *ids;          /* docs/MODEL.md 7.2's rule ids */
	const char *what;
	void (*apply)(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o);
};
extern const struct gm_time_rule gm_time_rules[];

#endif
