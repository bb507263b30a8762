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
	s = gm_launch_parse_pats(ps, in, err);
	if (s == GM_OK)
		s = gm_launch_walk(ps, in, prof, out->warps, &t, sums, err);
	if (s == GM_OK) {
		gm_launch_scale(&t, in, out);
		for (const struct launch_rule *r = launch_rules; r->apply; r++)
			r->apply(in, prof, ps, sums, t.warps > 0 ? (double)out->warps / (double)t.warps : 0, out);
	}
	gm_launch_free_pats(ps, in->npats);
	free(ps);
	free(sums);
	if (s != GM_OK)
		return s;
	gm_launch_times(in, prof, out);
	gm_launch_interval(out);
	return GM_OK;
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
