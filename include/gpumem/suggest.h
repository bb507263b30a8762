/*
 * suggest.h - `explain --suggest`: the rewrites of an access pattern, each a
 * kernel that computes what the original computes, predicted by the launch
 * model and ranked (pure C, no CUDA, no I/O). docs/SUGGEST.md has every rule.
 *
 * The original is the kernel `explain --run` builds (include/gpumem/jit.h):
 * a 1D grid of n threads, op load: out[gid] = in[EXPR]; op store:
 * out[EXPR] = in[gid]; --space shared: out[gid] = tile[EXPR] after each block
 * copied its tile. A rewrite is one entry of a table (src/model/suggest_rules.c):
 * a name, what it changes, an applicability test that says in one line why it
 * does not apply, the access patterns of the rewritten kernel (handed to
 * gm_launch_predict: every rewrite is predicted by the same rules, no
 * per-rewrite constant) and the CUDA source of its timed kernel, gm_x_run, in
 * the frame jit.cu generates (T, index_of() of the original, the checker).
 */
#ifndef GPUMEM_SUGGEST_H
#define GPUMEM_SUGGEST_H

#include <stdint.h>
#include "gpumem/launch.h"
#include "gpumem/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_SUGGEST_MAX 16        /* rows: the original, then one per rule (a static assertion in suggest_rules.c) */
#define GM_SUGGEST_PATS 16       /* access patterns of one rewritten launch */
#define GM_SUGGEST_IDX 1280      /* characters of one pattern's index expression, with its NUL */
#define GM_SUGGEST_MODES 8       /* modes of a mixed-radix index map */
#define GM_SUGGEST_SRC 6144      /* the timed kernel's source */

/*
 * EXPR as a mixed-radix map of gid, found by evaluating it (verified on
 * thousands of threads spread over the launch):
 *   EXPR(g) = offset + sum_k stride[k] * ((g / div[k]) % size[k]),
 * div[0] = 1, div[k+1] = div[k] * size[k]. A transpose has two modes, a strided
 * gather one; a hash none (known = 0).
 */
struct gm_index_map {
	int known;
	int nmodes;
	int64_t offset;
	int64_t size[GM_SUGGEST_MODES], stride[GM_SUGGEST_MODES], div[GM_SUGGEST_MODES];
	char why[160];                /* known = 0: what broke the map */
};

/* What the user asked for. */
struct gm_suggest_in {
	struct gm_access a;           /* index, op, space, elem_bytes, block (base 0) */
	int64_t n;                    /* threads of the original launch */
	int hint;                     /* enum gm_hint of the original (0 = none) */
	const struct gm_profile *prof;
	int threads;                  /* for gm_launch_predict's windows (0 = 1) */
	int layout_free;              /* the data can live in a rewritten layout: its conversion is not counted */
};

/* One row: the original (index 0) or a rewrite. */
struct gm_rewrite {
	char name[32];
	char change[200];             /* what it changes, one line */
	int applies;
	char why_not[200];            /* applies = 0: why, one line */
	char note[200];               /* a cost stated beside it (the layout's conversion), or "" */
	/* the rewritten launch, for the model */
	struct gm_access pats[GM_SUGGEST_PATS];
	struct gm_repeat rep[GM_SUGGEST_PATS];
	char idx[GM_SUGGEST_PATS][GM_SUGGEST_IDX];
	int npats;
	int pats_lost;                /* a pattern had no room (too many, or its index too long): the rule is refused */
	int block[3];
	int64_t threads;              /* threads of the rewritten launch */
	int round_trips;
	int barrier_phases;            /* phases ending at a barrier that read no memory (launch.h, rule T9) */
	int window_warps;              /* the model's walk in windows of this many warps, as many as keep the warps
					  it samples (0: the model's default windows); suggest_tiles.c's tiles */
	/* the rewritten kernel (jit.cu's frame) */
	char src[GM_SUGGEST_SRC];     /* gm_x_run; "" = the original's kernel (with hint / pads below) */
	int hint;                     /* enum gm_hint */
	int64_t in_pad_bytes, out_pad_bytes; /* where in / out start past a 256 B boundary */
	int layout;                   /* load: the timed kernel reads in converted, lay[g] = in[EXPR(g)];
					 store: it writes out compact, cp[g] = what out[EXPR(g)] holds */
	int smem_padded;              /* --space shared: the tile needs room for padding / swizzle */
	/* the prediction */
	struct gm_launch_out pred;
	double speedup;               /* original's predicted time / this one's, conversion included (layout, unless
					 in.layout_free): the headline */
	double speedup_kernel;        /* the same for the rewritten kernel alone */
	double conversion_ms;         /* layout: the predicted conversion, once (one launch of the original); 0 */
	int rank;                     /* 1 = fastest predicted; 0 = not applicable */
};

struct gm_suggest {
	struct gm_suggest_in in;
	struct gm_index_map map;
	int64_t tile_elems;           /* --space shared: S (largest EXPR + 1 over the sampled blocks) */
	double useful_bytes;          /* every row's GB/s counts these (the original's) */
	double sectors_per_warp;      /* the original's EXPR side: 32 B sectors per warp access (sampled) */
	double waste;                 /* those over the fewest 32 consecutive elements need (global) */
	double model_ms;              /* how long the whole suggestion took */
	struct gm_rewrite rows[GM_SUGGEST_MAX];
	int nrows;                    /* rows[0] = the original */
	int order[GM_SUGGEST_MAX];    /* applicable rewrites by predicted time, fastest first */
	int napplicable;
};

/* What `--run` measured for each row (filled by the CLI from the runner). */
enum gm_suggest_run { GM_SG_NOT_RUN = 0, GM_SG_OK, GM_SG_FAILED, GM_SG_SKIPPED };
struct gm_suggest_meas {
	int ran;                      /* --run was given */
	char device[96];
	double wall_ms;               /* compile + validate + time of every row */
	struct {
		enum gm_suggest_run status;
		char message[200];    /* failed / skipped: why */
		double gbs, ms, cov_pct; /* median GB/s (the original's useful bytes), ms a launch */
		double speedup;       /* the original's measured ms / this one's, its measured conversion included
					 (layout, unless in.layout_free) */
		double speedup_kernel; /* the same for the rewritten kernel alone */
		double compile_ms;
		double layout_ms, layout_first_ms; /* layout: the conversion's median after a first launch; that first */
	} row[GM_SUGGEST_MAX];
};

/*
 * Build every rewrite, test it, predict the applicable ones and rank them.
 * GM_ERR_INVALID_ARG (--space shared --op store, a bad shape: why in
 * gm_last_error) or the model's error for the original (err filled).
 * s is large: allocate it.
 */
gm_status gm_suggest_build(const struct gm_suggest_in *in, struct gm_suggest *s, struct gm_expr_error *err);

/*
 * Whether `--run` can time the original of in (in->a, in->n; no profile needed, so the CLI asks before it opens
 * a GPU): GM_OK, or GM_ERR_INVALID_ARG with why in gm_last_error (--space shared: the original's tile, the
 * largest EXPR + 1 over the first blocks and the last, past the 48 KiB a block may take).
 */
gm_status gm_suggest_runnable(const struct gm_suggest_in *in);

/* The time the headline speedup and the ranking use: the row's predicted time, plus its conversion once when
 * it changes the data's layout and s->in.layout_free is not set. */
double gm_suggest_headline_ms(const struct gm_suggest *s, const struct gm_rewrite *r);

/* The index map of EXPR over gid for this access and launch (the rules' base). */
void gm_index_map_find(const struct gm_access *a, int64_t n, struct gm_index_map *m);
/* The map as an expression of the text g (e.g. "gid" or "(gid + 4096)"), elements divided by scale. */
int gm_index_map_expr(const struct gm_index_map *m, const char *g, int64_t scale, char *out, size_t n);

/* The rule table (for docs and tests): name of rule k, NULL past the end. */
const char *gm_suggest_rule_name(int k);

#ifdef __cplusplus
}
#endif
#endif
