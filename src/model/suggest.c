/*
 * suggest.c - `explain --suggest`'s driver: the original's launch, the walk over the rule table
 * (suggest_rules.c), one launch-model prediction per applicable rewrite, the ranking. The index map of
 * EXPR is index_map.c's. include/gpumem/suggest.h has the contracts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpumem/suggest.h"
#include "gpumem/parallel.h"
#include "model/suggest_internal.h"

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* ---- prediction ------------------------------------------------------------ */

static int predict_row(const struct gm_suggest *s, struct gm_rewrite *r, struct gm_expr_error *err, int threads,
		       const struct gm_profile *prof)
{
	struct gm_launch_in li;

	memset(&li, 0, sizeof(li));
	for (int k = 0; k < r->npats; k++) {
		memcpy(r->pats[k].block, r->block, sizeof(r->block));
		r->pats[k].index = r->idx[k];
		r->pats[k].n_threads = r->threads;
	}
	li.pats = r->pats;
	li.repeat = r->rep;
	li.npats = r->npats;
	memcpy(li.block, r->block, sizeof(li.block));
	li.n_threads = r->threads;
	li.useful_bytes = s->useful_bytes;
	li.round_trips = r->round_trips;
	li.barrier_phases = r->barrier_phases;
	li.one_element_per_thread = r->round_trips == 1 && r->rep[0].iters <= 1;
	li.threads = threads;
	if (r->window_warps > 0) {
		li.window_warps = r->window_warps;
		li.windows = r->window_warps < SG_WALK_WARPS ? SG_WALK_WARPS / r->window_warps : 1;
	}
	return gm_launch_predict(&li, prof ? prof : s->in.prof, &r->pred, err) == GM_OK ? 0 : -1;
}

/* ---- the layout rewrite's conversion ------------------------------------------------ */

#define CONVERSION_BLOCK 256 /* jit.cu's gm_x_layout: a grid-stride loop over the resident blocks of 256 threads */
#define CONVERSION_SAMPLES 4096

/* EXPR with the original's block equals EXPR in blocks of CONVERSION_BLOCK on sampled threads (it reads only gid). */
static int expr_blockfree(const struct gm_suggest *s)
{
	struct gm_access a = s->in.a, b = s->in.a;
	struct gm_expr *e = NULL;
	struct gm_expr_error err;
	int same = 1;

	b.block[0] = CONVERSION_BLOCK;
	b.block[1] = b.block[2] = 1;
	if (gm_expr_parse(a.index, &e, &err))
		return 0;
	for (int k = 0; k < CONVERSION_SAMPLES && same; k++) {
		int64_t g = k < CONVERSION_SAMPLES / 2 ? k : (s->in.n - 1) / (CONVERSION_SAMPLES / 2) *
							      (k - CONVERSION_SAMPLES / 2), va, vb;
		same = !sg_eval(e, &a, s->in.n, g, &va) && !sg_eval(e, &b, s->in.n, g, &vb) && va == vb;
	}
	gm_expr_free(e);
	return same;
}

/*
 * The conversion as the kernel that runs it (jit.cu's gm_x_layout), not as a launch of the original: the
 * original's access (load: lay[g] = in[EXPR(g)]; store: lay[EXPR(g)] = in[g]) in a grid-stride loop over the
 * resident blocks of CONVERSION_BLOCK threads. Each iteration waits for its load as a thread of the original
 * does (rule T2 counts the same waves of resident threads, here of blocks of 256, rules T5 and T8 at that
 * block), but the SMs start only the resident blocks, once: no level of block starts (rule T4; the profile's
 * blocks_gps left out). Where the original is limited by starting blocks (1- and 2-byte elements, blocks of
 * 64-128) the conversion runs that much faster than it. A store's conversion (lay[EXPR(g)] = in[g]) runs
 * instead as the original's access, one thread an element in blocks of CONVERSION_BLOCK (jit.cu's
 * timed_layout), and is predicted as that launch, block starts included: in the loop its scattered stores ran
 * 1.07-1.24x their own original (28 rows of the development sets, DRAM-bound, cause not found), a launch
 * the model prices as it prices the original. EXPR is the original's for thread g with the
 * original's block (index_of()): where blocks of 256 would give other values (tid, bx), the index map writes
 * it from gid alone; with neither, the original's block stands in.
 */
static void predict_conversion(const struct gm_suggest *s, struct gm_rewrite *r, int threads)
{
	struct gm_rewrite *cv = malloc(sizeof(*cv));
	struct gm_profile pr = *s->in.prof;
	struct gm_expr_error err;
	char e[256];

	r->conversion_ms = s->rows[0].pred.time_ms; /* one launch of the original, where this fails */
	if (!cv)
		return;
	*cv = s->rows[0];
	if (s->in.a.op == GM_OP_LOAD)
		pr.blocks_gps = 0; /* the loop starts the resident blocks only, once */
	if (expr_blockfree(s))
		sg_block1(cv, CONVERSION_BLOCK);
	else if (s->map.known && gm_index_map_expr(&s->map, "gid", 1, e, sizeof(e)) >= 0) {
		snprintf(cv->idx[0], sizeof(cv->idx[0]), "%s", e);
		sg_block1(cv, CONVERSION_BLOCK);
	}
	cv->round_trips = 1;
	if (!predict_row(s, cv, &err, threads, &pr))
		r->conversion_ms = cv->pred.time_ms;
	free(cv);
	snprintf(r->note, sizeof(r->note), "conversion once%s: the original's access %s (predicted %.3f ms) %s; %s",
		 s->in.a.op == GM_OP_LOAD ? "" : ", where out must stay strided",
		 s->in.a.op == GM_OP_LOAD ? "in a grid-stride loop" : "one thread an element", r->conversion_ms,
		 s->in.a.op == GM_OP_LOAD ? "writes lay" : "scatters cp", s->in.layout_free ? "left out (--layout-free)" :
		 "in the speedup (--layout-free: the data lives in this layout)");
}

/* The largest EXPR + 1 over the first blocks and the last (the tile of --space shared). */
static int64_t tile_of(const struct gm_suggest_in *in)
{
	int64_t tpb = (int64_t)in->a.block[0] * in->a.block[1] * in->a.block[2], hi = -1, v;
	struct gm_expr *e = NULL;
	struct gm_expr_error err;

	if (gm_expr_parse(in->a.index, &e, &err))
		return 0;
	for (int64_t g = 0; g < in->n && g < 4 * tpb; g++)
		if (!sg_eval(e, &in->a, in->n, g, &v) && v > hi)
			hi = v;
	for (int64_t g = (in->n - 1) / tpb * tpb; g < in->n; g++)
		if (!sg_eval(e, &in->a, in->n, g, &v) && v > hi)
			hi = v;
	gm_expr_free(e);
	return hi + 1;
}

gm_status gm_suggest_runnable(const struct gm_suggest_in *in)
{
	int64_t S, eb = in->a.elem_bytes;

	if (in->a.space != GM_SPACE_SHARED)
		return GM_OK;
	S = tile_of(in);
	if (S * eb <= SG_SMEM_MAX)
		return GM_OK;
	return gm_fail(GM_ERR_INVALID_ARG, "--suggest --run cannot time the original: its shared tile needs %lld B a "
		       "block (indices 0..%lld of %lld B), past the %d B a block may take; without --run the "
		       "predictions are printed", (long long)(S * eb), (long long)(S - 1), (long long)eb, SG_SMEM_MAX);
}

/* The kernel `explain --run` builds, as patterns. */
static void original_row(struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_access *a = &s->in.a;
	int eb = a->elem_bytes;
	int64_t tpb = (int64_t)a->block[0] * a->block[1] * a->block[2];

	snprintf(r->name, sizeof(r->name), "original");
	snprintf(r->change, sizeof(r->change), "%s", a->space == GM_SPACE_SHARED ? "out[gid] = tile[EXPR]" :
		 a->op == GM_OP_LOAD ? "out[gid] = in[EXPR]" : "out[EXPR] = in[gid]");
	r->applies = 1;
	memcpy(r->block, a->block, sizeof(r->block));
	r->threads = s->in.n;
	r->round_trips = a->space == GM_SPACE_SHARED ? SG_FILL_LOOP_TRIPS : 1; /* the frame's tile loop */
	r->hint = s->in.hint;
	if (a->space == GM_SPACE_SHARED) {
		int64_t S = s->tile_elems, it = (S + tpb - 1) / tpb;
		sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, (int)it, tpb * eb, "bx*%lld + tid", (long long)S);
		sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, (int)it, tpb * eb, "tid");
		sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", a->index);
		sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, 1, 0, "gid");
		return;
	}
	sg_pat(r, GM_SPACE_GLOBAL, a->op, eb, 1, 0, "%s", a->index);
	sg_pat(r, GM_SPACE_GLOBAL, a->op == GM_OP_LOAD ? GM_OP_STORE : GM_OP_LOAD, eb, 1, 0, "gid");
}

struct par {
	struct gm_suggest *s;
	int rows[GM_SUGGEST_MAX];
	int threads;              /* each prediction's windows */
};

static void predict_item(void *arg, void *state, int k)
{
	struct par *p = arg;
	struct gm_rewrite *r = &p->s->rows[p->rows[k]];
	struct gm_expr_error e2;

	(void)state;
	if (predict_row(p->s, r, &e2, p->threads, NULL)) {
		r->applies = 0;
		snprintf(r->why_not, sizeof(r->why_not), "the launch model cannot evaluate it: %.150s", e2.msg);
	} else {
		double t0 = p->s->rows[0].pred.time_ms;

		r->conversion_ms = 0;
		if (r->layout)
			predict_conversion(p->s, r, p->threads);
		r->speedup_kernel = r->pred.time_ms > 0 ? t0 / r->pred.time_ms : 0;
		r->speedup = r->pred.time_ms > 0 ? t0 / gm_suggest_headline_ms(p->s, r) : 0;
	}
}

/* The applicable rewrites, predicted side by side (rows on threads, each row's windows on the rest). */
static void predict_rewrites(struct gm_suggest *s)
{
	struct par p = { s, { 0 }, 1 };
	int n = 0, threads = s->in.threads > 1 ? s->in.threads : 1;

	for (int k = 1; k < s->nrows; k++)
		if (s->rows[k].applies)
			p.rows[n++] = k;
	if (!n)
		return;
	p.threads = threads / n > 1 ? threads / n : 1;
	gm_parallel_for(n, threads < n ? threads : n, NULL, NULL, predict_item, &p);
}

double gm_suggest_headline_ms(const struct gm_suggest *s, const struct gm_rewrite *r)
{
	return r->pred.time_ms + (s->in.layout_free ? 0 : r->conversion_ms);
}

/* The applicable rewrites by their headline time, fastest first: a layout with its conversion. */
static void rank(struct gm_suggest *s)
{
	s->napplicable = 0;
	for (int k = 1; k < s->nrows; k++)
		if (s->rows[k].applies)
			s->order[s->napplicable++] = k;
	for (int i = 1; i < s->napplicable; i++)
		for (int j = i; j > 0 && gm_suggest_headline_ms(s, &s->rows[s->order[j]]) <
				      gm_suggest_headline_ms(s, &s->rows[s->order[j - 1]]); j--) {
			int t = s->order[j];
			s->order[j] = s->order[j - 1];
			s->order[j - 1] = t;
		}
	for (int i = 0; i < s->napplicable; i++)
		s->rows[s->order[i]].rank = i + 1;
}

gm_status gm_suggest_build(const struct gm_suggest_in *in, struct gm_suggest *s, struct gm_expr_error *err)
{
	double t0 = now_ms();
	int64_t tpb;

	memset(s, 0, sizeof(*s));
	memset(err, 0, sizeof(*err));
	s->in = *in;
	s->in.a.base = 0;
	s->in.a.active = NULL;
	tpb = (int64_t)in->a.block[0] * in->a.block[1] * in->a.block[2];
	if (in->a.space == GM_SPACE_SHARED && in->a.op == GM_OP_STORE)
		return gm_fail(GM_ERR_INVALID_ARG, "--suggest --space shared rewrites loads from a shared tile; "
			       "--op store is not supported with it");
	if (in->n <= 0 || tpb <= 0 || tpb > 1024 || !in->prof)
		return gm_fail(GM_ERR_INVALID_ARG, "--suggest needs a launch (threads, a block of 1-1024, a profile)");
	gm_index_map_find(&s->in.a, in->n, &s->map);
	if (in->a.space == GM_SPACE_SHARED) {
		s->tile_elems = tile_of(&s->in);
		s->useful_bytes = ((double)((in->n + tpb - 1) / tpb) * (double)s->tile_elems + (double)in->n) *
				  in->a.elem_bytes;
	} else {
		struct gm_launch_sample ls;
		struct gm_access a = s->in.a;

		a.n_threads = in->n;
		s->useful_bytes = 2.0 * (double)in->n * in->a.elem_bytes;
		if (gm_launch_sample(&a, in->n, 1024, &ls, err) != GM_OK)
			return GM_ERR_EVAL;
		s->sectors_per_warp = ls.sectors_per_warp;
		s->waste = ls.sectors_per_warp / (in->a.elem_bytes > 1 ? in->a.elem_bytes : 1);
	}
	original_row(s, &s->rows[0]);
	if (predict_row(s, &s->rows[0], err, s->in.threads, NULL))
		return GM_ERR_EVAL;
	s->rows[0].speedup = s->rows[0].speedup_kernel = 1.0;
	s->nrows = 1;
	for (int k = 0; gm_suggest_rule_name(k) && s->nrows < GM_SUGGEST_MAX; k++)
		sg_rule_build(k, s, &s->rows[s->nrows++]);
	predict_rewrites(s);
	rank(s);
	s->model_ms = now_ms() - t0;
	return GM_OK;
}
