/*
 * launch_model.c - the launch-level model: L1 / L2 / DRAM traffic and time of
 * a whole launch from its warps' access patterns and a device profile
 * (include/gpumem/launch.h; the rules and their evidence: docs/MODEL.md 7).
 *
 * gm_launch_predict checks the launch and runs the four phases, each a
 * registry of named rule functions walked in order: the walk (launch_walk.c:
 * rules W, R once per pattern, then the windows and their warps), the traffic
 * of each warp (launch_traffic.c, gm_traffic_rules: T1, L1, P, L2, L4), the
 * DRAM bytes of each warp and window (launch_dram.c, gm_dram_warp_rules: D1,
 * D2; gm_dram_window_rules: D1 D6 D8, D2 D5 D8 L4), the sample scaled to the
 * launch and the launch's rules below (D9, D7, D11, T5's lines), then the time
 * (launch_time.c, gm_time_rules). Shared declarations: model_internal.h.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/launch.h"
#include "model/model_internal.h"

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

static void rule_d7(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
		    struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	gm_rule_d7_footprints(in, pr, ps, sums, f, o);
}

/* Rule T5's count: the lines a block's loads read, every load pattern's (its time: launch_time.c). */
static void rule_t5_block_lines(const struct gm_launch_in *in, const struct gm_profile *pr,
				const struct pat_state *ps, struct pat_sum *sums, double f, struct gm_launch_out *o)
{
	(void)pr;
	(void)ps;
	(void)f;
	for (int k = 0; k < in->npats; k++)
		if (sums[k].blk_count > 0)
			o->block_lines += sums[k].blk_lines / sums[k].blk_count;
}

/* The rules over the whole launch, after the walk and its scaling, in order: the DRAM phase's D9 and D7
   (launch_dram.c), D11 (launch_back.c), then T5's lines for the time phase. The walk's rules (W, R) are launch_walk.c's registry,
   the traffic's (T1, L1, P, L2, L4) gm_traffic_rules, the DRAM phase's per warp and per window (D1, D2; D1 D6
   D8, D2 D5 D8 L4) gm_dram_warp_rules and gm_dram_window_rules, the time phase's gm_time_rules. */
static const struct launch_rule {
	const char *ids;
	void (*apply)(const struct gm_launch_in *in, const struct gm_profile *pr, const struct pat_state *ps,
		      struct pat_sum *sums, double f, struct gm_launch_out *o);
} launch_rules[] = {
	{ "D9", gm_rule_d9_cold_window },
	{ "D7", rule_d7 },
	{ "D11", gm_rule_d11_kept_lines },
	{ "D12", gm_rule_d12_sparse_writes },
	{ "T5", rule_t5_block_lines },
	{ NULL, NULL },
};

/*
 * A launch walked once: its patterns parsed, its windows walked (launch_walk.c) and scaled to the launch, before
 * the launch rules and the time phase. Of the profile only its shape enters the walk (gm_launch_walk: sm_count,
 * threads_per_sm, dram_atom_bytes, l2_bytes); its rates enter after it (the launch rules, the time phase), so one
 * walk serves every profile of that shape (calibrate's derivation predicts its cases again and again as it
 * finds its rates). gm_launch_predict is a walk and its finish.
 */
struct gm_launch_walked {
	struct gm_launch_in in;   /* the caller's, with its own copies of the patterns and repeats */
	struct pat_state *ps;
	struct pat_sum *sums;     /* as the walk left them; the launch rules change a copy (D9) */
	struct gm_launch_out scaled;
	double f;                 /* evaluated warps to the launch's */
	struct gm_profile shape;  /* the profile it was walked with; its shape is what counts */
};

void gm_launch_walked_free(struct gm_launch_walked *w)
{
	if (!w)
		return;
	if (w->ps)
		gm_launch_free_pats(w->ps, w->in.npats);
	free(w->ps);
	free(w->sums);
	free((void *)w->in.pats);
	free((void *)w->in.repeat);
	free(w);
}

int gm_launch_walked_fits(const struct gm_launch_walked *w, const struct gm_profile *p)
{
	return w && p && w->shape.sm_count == p->sm_count && w->shape.threads_per_sm == p->threads_per_sm &&
	       w->shape.dram_atom_bytes == p->dram_atom_bytes && w->shape.l2_bytes == p->l2_bytes;
}

/* Parse, walk and scale into w (its in already set); out holds the scaled launch. */
static gm_status walk_into(struct gm_launch_walked *w, const struct gm_profile *prof, struct gm_expr_error *err)
{
	const struct gm_launch_in *in = &w->in;
	struct gm_launch_out *out = &w->scaled;
	struct totals t = { 0 };
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	gm_status s;

	out->warps = (in->n_threads + tpb - 1) / tpb * ((tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
	w->ps = calloc((size_t)in->npats, sizeof(*w->ps));
	w->sums = calloc((size_t)in->npats, sizeof(*w->sums));
	if (!w->ps || !w->sums)
		return GM_ERR_NOMEM;
	s = gm_launch_parse_pats(w->ps, in, err);
	if (s == GM_OK)
		s = gm_launch_walk(w->ps, in, prof, out->warps, &t, w->sums, err);
	if (s != GM_OK)
		return s;
	gm_launch_scale(&t, in, out);
	w->f = t.warps > 0 ? (double)out->warps / (double)t.warps : 0;
	return GM_OK;
}

/* The launch rules and the time phase over a walk, with a profile of its shape. */
static gm_status finish(const struct gm_launch_walked *w, const struct gm_profile *prof, struct gm_launch_out *out)
{
	struct pat_sum *sums = malloc((size_t)w->in.npats * sizeof(*sums));

	if (!sums)
		return GM_ERR_NOMEM;
	memcpy(sums, w->sums, (size_t)w->in.npats * sizeof(*sums));
	*out = w->scaled;
	for (const struct launch_rule *r = launch_rules; r->apply; r++)
		r->apply(&w->in, prof, w->ps, sums, w->f, out);
	free(sums);
	gm_launch_times(&w->in, prof, out);
	gm_launch_interval(out);
	return GM_OK;
}

static void err_reset(struct gm_expr_error *err)
{
	memset(err, 0, sizeof(*err));
	err->lane = -1;
}

gm_status gm_launch_walk_new(const struct gm_launch_in *in, const struct gm_profile *prof,
			     struct gm_launch_walked **wp, struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	struct gm_launch_walked *w;
	struct gm_access *pats;
	struct gm_repeat *rep = NULL;
	gm_status s;

	*wp = NULL;
	if (!err)
		err = &dummy;
	err_reset(err);
	if ((s = check_in(in, prof, err)) != GM_OK)
		return s;
	w = calloc(1, sizeof(*w));
	pats = calloc((size_t)in->npats, sizeof(*pats));
	if (in->repeat)
		rep = calloc((size_t)in->npats, sizeof(*rep));
	if (!w || !pats || (in->repeat && !rep)) {
		free(w);
		free(pats);
		free(rep);
		return GM_ERR_NOMEM;
	}
	memcpy(pats, in->pats, (size_t)in->npats * sizeof(*pats));
	if (rep)
		memcpy(rep, in->repeat, (size_t)in->npats * sizeof(*rep));
	w->in = *in;
	w->in.pats = pats;
	w->in.repeat = rep;
	w->shape = *prof;
	if ((s = walk_into(w, prof, err)) != GM_OK) {
		gm_launch_walked_free(w);
		return s;
	}
	*wp = w;
	return GM_OK;
}

gm_status gm_launch_predict_walked(const struct gm_launch_walked *w, const struct gm_profile *prof,
				   struct gm_launch_out *out, struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	char why[128];

	if (!err)
		err = &dummy;
	err_reset(err);
	memset(out, 0, sizeof(*out));
	if (gm_profile_check(prof, why, sizeof(why)) != GM_OK) {
		snprintf(err->msg, sizeof(err->msg), "profile: %s", why);
		return GM_ERR_INVALID_ARG;
	}
	if (!gm_launch_walked_fits(w, prof)) {
		snprintf(err->msg, sizeof(err->msg), "the walk was made for a profile of another shape");
		return GM_ERR_INVALID_ARG;
	}
	return finish(w, prof, out);
}

gm_status gm_launch_predict(const struct gm_launch_in *in, const struct gm_profile *prof,
			    struct gm_launch_out *out, struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	struct gm_launch_walked w;
	gm_status s;

	if (!err)
		err = &dummy;
	err_reset(err);
	memset(out, 0, sizeof(*out));
	if ((s = check_in(in, prof, err)) != GM_OK)
		return s;
	memset(&w, 0, sizeof(w));
	w.in = *in; /* the caller's patterns: they outlive this call */
	s = walk_into(&w, prof, err);
	if (s == GM_OK)
		s = finish(&w, prof, out);
	else
		out->warps = w.scaled.warps; /* as before the split: the launch's warps even when its walk fails */
	if (w.ps)
		gm_launch_free_pats(w.ps, in->npats);
	free(w.ps);
	free(w.sums);
	return s;
}

gm_status gm_profile_check(const struct gm_profile *p, char *why, size_t n)
{
	if (!p) {
		snprintf(why, n, "no profile");
		return GM_ERR_INVALID_ARG;
	}
	for (int k = 0; k < gm_profile_nfields; k++) { /* the bandwidths it divides by */
		const struct gm_profile_field *f = &gm_profile_fields[k];
		double v = gm_profile_get(p, f);

		if (f->need != GM_PF_REQ || strcmp(f->unit, "GB/s"))
			continue;
		if (!(v > f->lo && v < f->hi)) {
			snprintf(why, n, "field '%s' is missing or not a bandwidth in (0, 1e7) GB/s", f->name);
			return GM_ERR_INVALID_ARG;
		}
	}
	if (p->dram_atom_bytes != 32 && p->dram_atom_bytes != 64 && p->dram_atom_bytes != 128) {
		snprintf(why, n, "field 'dram_atom_bytes' is not 32, 64 or 128");
		return GM_ERR_INVALID_ARG;
	}
	return GM_OK;
}
