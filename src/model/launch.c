/*
 * launch.c - the model over a whole 1D launch, by sampling: warps spread
 * evenly over the grid are predicted one by one and their sectors averaged
 * (gm_launch_sample). Threads at or past n are inactive.
 */
#include <stdlib.h>
#include <string.h>
#include "gpumem/model.h"

gm_status gm_launch_sample(const struct gm_access *a, int64_t n, int samples, struct gm_launch_sample *out,
			   struct gm_expr_error *err)
{
	int64_t tpb = (int64_t)a->block[0] * a->block[1] * a->block[2];
	int64_t wpb, blocks;
	struct gm_access w = *a;
	struct gm_prediction *p;
	gm_status s = GM_OK;

	memset(out, 0, sizeof(*out));
	if (tpb <= 0 || n <= 0 || samples <= 0)
		return GM_ERR_INVALID_ARG;
	wpb = (tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	blocks = (n + tpb - 1) / tpb;
	out->warps = blocks * wpb;
	if (samples > out->warps)
		samples = (int)out->warps;
	p = malloc(sizeof(*p));
	if (!p)
		return GM_ERR_NOMEM;
	w.active = "gid < n";
	w.n_threads = n;
	for (int k = 0; k < samples && !s; k++) {
		int64_t wi = (int64_t)((double)k * (double)out->warps / samples);
		w.block_idx[0] = (int)(wi / wpb);
		w.block_idx[1] = w.block_idx[2] = 0;
		w.warp = (int)(wi % wpb);
		s = gm_model_predict(&w, p, err);
		if (!s) {
			out->requests_per_warp += (double)p->global.requests;
			out->sectors_per_warp += (double)p->global.sectors;
			out->sampled++;
		}
	}
	free(p);
	if (out->sampled) {
		out->requests_per_warp /= out->sampled;
		out->sectors_per_warp /= out->sampled;
	}
	return s;
}
