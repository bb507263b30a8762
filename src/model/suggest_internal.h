/*
 * suggest_internal.h - what `explain --suggest`'s files share, in the one direction they depend:
 * suggest.c (the driver) -> suggest_rules.c (the rule table) -> suggest_tiles.c (the shared-memory tiles)
 * -> suggest_kit.c (the pieces of a row) -> index_map.c. Not installed.
 */
#ifndef GPUMEM_SUGGEST_INTERNAL_H
#define GPUMEM_SUGGEST_INTERNAL_H

#include "gpumem/suggest.h"

#define SG_SMEM_MAX (48 * 1024) /* shared memory a rewrite's block may take (no opt-in attribute) */

/*
 * Round trips a wave of a kernel that fills a shared tile in a loop whose trip count is known only at run time
 * (explain's --space shared frame: `for (k = tid; k < tile; k += blockDim)`; the span staging), then crosses a
 * barrier before its stores: 2, where rule T6 alone (one round trip, then the shared reads or the stores) leaves
 * such a kernel 20-50 % faster than it runs. Measured, not derived (the mechanism is open, docs/SUGGEST.md
 * "Prediction errors"): explain --run --space shared 'gid%256' / 'gid%1024' on an H100 (results/
 * nvidia-h100-80gb-hbm3/launch/gpu-563c3df/blocks.txt, before issue 38's patterns) ran 1.359 / 1.665 ms, one
 * round trip predicts 1.095 / 1.276 and two 1.665 / 2.046; on an H200 (suggest-c4f592c) the conflict-free
 * shared reads `tid * 2`, `tid * 4` ran 0.438 / 0.508 ms, one trip predicts 0.281 / 0.355 and two 0.442 / 0.508.
 * The ladder's tiles (suggest_tiles.c: fixed, unrolled loads) are not such kernels and keep one.
 */
#define SG_FILL_LOOP_TRIPS 2

/*
 * Round trips of a fill loop `for (k = tid; k < span; k += per)` over span elements in blocks of tpb threads, then a
 * barrier: nvcc compiles the loop (run-time trip count) to a remainder of `it mod 4` single iterations, each a round
 * trip (the shared store waits for its load), then a body unrolled by 4 whose loads go out together, one trip
 * (sm_90 PTX read, docs/log/2026-11-30-suggest-s54.md item 3); the barrier waits for the block's slowest thread, so
 * the most over its threads (`it` = span / tpb rounded down or up), and at least SG_FILL_LOOP_TRIPS.
 */
int sg_fill_trips(int64_t span, int64_t tpb);

/* The warps the launch model's walk samples by default (launch_walk.c: 8 windows of 256): a rewrite that asks for
   longer windows (gm_rewrite.window_warps) gets fewer of them, the same warps in all. */
#define SG_WALK_WARPS 2048

/* index_map.c: EXPR for thread g of the original 1D launch; 0 or -1 when it cannot be evaluated. */
int sg_eval(const struct gm_expr *e, const struct gm_access *a, int64_t n, int64_t g, int64_t *out);
/* ---- suggest_kit.c ---- */
/* r does not apply: why_not printf-style; returns 0 (a rule returns it). */
int sg_no(struct gm_rewrite *r, const char *fmt, ...);
/* Append to r's kernel source, printf-style; -1 when it does not fit. */
int sg_src(struct gm_rewrite *r, const char *fmt, ...);
/* The timed kernel's first lines (jit.cu's frame). */
extern const char *const sg_head;
/* "index_of(g, n_arg, BX, BY, BZ)": the original's EXPR for thread g, with its block. */
void sg_idx_call(const struct gm_suggest *s, const char *g, char *out, size_t n);
/* Threads a block of b. */
int64_t sg_tpb_of(const int b[3]);
/* r's launch: 1D blocks of x threads. */
void sg_block1(struct gm_rewrite *r, int x);
/* 1, or 0 with the reason, when EXPR indexes global memory / has an index map. */
int sg_needs_global(const struct gm_suggest *s, struct gm_rewrite *r);
int sg_needs_map(const struct gm_suggest *s, struct gm_rewrite *r);
/* The EXPR side and the gid side of a launch that moves element g to/from EXPR(g). */
void sg_sides(const struct gm_suggest *s, struct gm_rewrite *r, int eb, int iters, int64_t e_step,
	      int64_t g_step, const char *e_idx, const char *g_idx);
/* out[g] = in[i] (load) or out[i] = in[g] (store), C source. */
const char *sg_move_stmt(const struct gm_suggest *s);
/* The map's modes ordered by their stride in EXPR, smallest first. */
void sg_sorted_modes(const struct gm_index_map *m, int ord[GM_SUGGEST_MODES]);
/* n is a whole number of the map's rows. */
int sg_covers_n(const struct gm_suggest *s);
/*
 * Thread v of a launch whose threads take the map's modes in the order ord (digit j = v / (the sizes of the modes
 * before it) % its size): the original's thread, each digit times its div, as C in 32-bit unsigned arithmetic where
 * narrow (every thread fits in an int; a division by a constant is a multiply-high there and a long sequence in 64
 * bits), else 64-bit. -1 when out is short.
 */
int sg_order_c(const struct gm_index_map *m, const int ord[GM_SUGGEST_MODES], const char *v, int narrow, char *out,
	       size_t n);
/* The unsigned word of 2, 4, 8 or 16 bytes, as a C type. */
const char *sg_word_of(int bytes);
/* Append a pattern to r (index printf-style; repeated iters times, step_bytes apart). */
int sg_pat(struct gm_rewrite *r, enum gm_space sp, enum gm_op op, int eb, int iters, int64_t step_bytes,
	   const char *fmt, ...);
/* ---- suggest_tiles.c: the rules that go through shared memory (1 applies, 0 with why_not) ---- */
int sg_rule_tile_padded(const struct gm_suggest *s, struct gm_rewrite *r);
int sg_rule_tile_xor(const struct gm_suggest *s, struct gm_rewrite *r);
int sg_rule_tile_wide(const struct gm_suggest *s, struct gm_rewrite *r);
int sg_rule_stage_span(const struct gm_suggest *s, struct gm_rewrite *r);

/* ---- suggest_rules.c ---- */
/* Rule k fills r: name, change, applies or why_not, patterns, block, threads, kernel. */
void sg_rule_build(int k, const struct gm_suggest *s, struct gm_rewrite *r);

#endif
