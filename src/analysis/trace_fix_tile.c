/*
 * trace_fix_tile.c - rule tile (docs/TRACE.md, "Named patterns" and "The fix"): operands re-read by the warps of
 * a block, left to L1. A global load in a loop whose fitted map gives the same addresses to several warps of a
 * block (a product's B[k][j]: every warp of a 32 x 32 block reads the same row piece) is served by L1 once per
 * warp: each request is an L1 wavefront at l1_gbs (the launch model's rule T1), every warp's, though the block
 * needs each element once. Staged in shared memory (a tile a loop step, loaded once by the block, coalesced), the
 * reads become shared wavefronts at rule T1s's rate, the loop's broadcast operands (a product's A[i][k], one
 * address a warp) read 16 bytes at a time from the tile's rows (unrolled: the warp model's wavefronts of a 16-byte
 * broadcast), and the tile costs one global request and one shared store a block a loop step for each 128 bytes.
 * Named and fixed where the model's L1 time is at least half the measured time (L1 is what holds the kernel) and
 * the kernel has no shared access yet: the L1 time the tile saves, from rules T1 and T1s, taken off the measured
 * time. No constant of its own; shaped on set 28's matmul_direct (development).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"
#include "gpumem/launch.h"
#include "gpumem/model.h"

#define TILE_MIN_WARPS 4    /* warps of a block on each address: the least that is a re-read, not a neighbour's */
#define TILE_MIN_ITERS 8    /* loop steps a warp: a loop whose steps a tile stages */

struct tile {
	int lead;          /* the re-read load with the most bytes */
	int nre, nbc;      /* re-read loads, broadcast loads of the same loop */
	double warps;      /* of the lead: warps of a block on each of its addresses */
	double before, after, saved_ms;
};

/* Block 0's warps on each address of x at its first step: the warps' distinct addresses summed over the block's
   distinct addresses (1: no address shared between warps); *per_block the block's distinct addresses. */
static double warps_sharing(const struct gm_trace_launch *l, const struct gm_trace_insn *x, int *per_block)
{
	int64_t v[1024], w[GM_WARP_SIZE];
	int bt = l->block[0] * l->block[1] * l->block[2], sum = 0;

	*per_block = 0;
	if (!x->fit.map.known || x->fit.approx || bt <= GM_WARP_SIZE || bt > 1024)
		return 0;
	for (int t = 0; t < bt; t++)
		v[t] = tc_map_at(l, &x->fit.map, t);
	for (int t0 = 0; t0 < bt; t0 += GM_WARP_SIZE) {
		int n = bt - t0 < GM_WARP_SIZE ? bt - t0 : GM_WARP_SIZE;
		memcpy(w, v + t0, sizeof(w[0]) * (size_t)n);
		sum += tk_distinct(w, n);
	}
	*per_block = tk_distinct(v, bt);
	return *per_block > 0 ? (double)sum / *per_block : 0;
}

/* L1 wavefronts of a global request of x: its 128 B lines (sectors / 4), at least one (rule T1) */
static double lines_of(const struct gm_trace_insn *x)
{
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.ideal_per_req;
	return fmax(1, ceil(per / 4));
}

/* The warp model's wavefronts of a 16-byte shared load every lane of a warp makes at one address. */
static double broadcast16_wavefronts(void)
{
	struct gm_access a = { GM_SPACE_SHARED, GM_OP_LOAD, 16, { 32, 1, 1 }, { 0, 0, 0 }, 0, 0, "0", NULL, 0 };
	struct gm_prediction p;
	struct gm_expr_error err;

	return gm_model_predict(&a, &p, &err) == GM_OK && p.shared.wavefronts > 0 ? (double)p.shared.wavefronts : 1;
}

static int eligible(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_LOAD && x->in->executions > 0 && x->in->requests > 0 &&
	       x->fit.iters >= TILE_MIN_ITERS && x->in->size <= 16;
}

/* The staged tile's and its reads' L1 time against the loads' own (ms, rules T1 and T1s); 0: the rule does not
   apply. */
static int tile_of(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tile *t)
{
	const struct gm_trace_launch *l = k->l;
	int bt = l->block[0] * l->block[1] * l->block[2], blk;
	double warps_b = ceil(bt / (double)GM_WARP_SIZE), sgbs, wf16 = 0;
	int iters = 0;

	memset(t, 0, sizeof(*t));
	t->lead = -1;
	if (!k->pred_ok || !prof || !(prof->l1_gbs > 0) || !(k->time_ms > 0) || !(k->pred.t_l1_ms >= 0.5 * k->time_ms))
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->space == GM_TS_SHARED)
			return 0;   /* it stages something already */
	for (int i = 0; i < k->nins; i++) {   /* the re-read loads, the lead the one of most bytes */
		const struct gm_trace_insn *x = &k->ins[i];
		double s = eligible(x) && x->fit.cls != GM_TC_BROADCAST ? warps_sharing(l, x, &blk) : 0;
		if (s < TILE_MIN_WARPS)
			continue;
		if (t->lead < 0 || x->bytes > k->ins[t->lead].bytes)
			t->lead = i, t->warps = s, iters = x->fit.iters;
	}
	if (t->lead < 0)
		return 0;
	sgbs = gm_launch_smem_gbs(prof);
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < k->nins; i++) {
			const struct gm_trace_insn *x = &k->ins[i];
			int bc = x->fit.cls == GM_TC_BROADCAST;
			double s = eligible(x) && x->fit.iters == iters ? warps_sharing(l, x, &blk) : 0;
			if (!(s >= TILE_MIN_WARPS || (bc && s > 0)))
				continue;   /* neither re-read by the block's warps nor a broadcast operand of the same loop */
			if (!pass) {
				t->nre += !bc, t->nbc += bc;
				continue;
			}
			double req = x->in->requests;
			t->before += req * lines_of(x) * 128 / prof->l1_gbs;
			/* the tile: each of the block's distinct elements loaded once a step, 128 B a request, and stored */
			double stage = req / warps_b * ceil(blk * x->in->size / 128.0);
			t->after += stage * 128 / prof->l1_gbs + stage * 128 / sgbs;
			if (bc && t->nbc * x->in->size >= 16 && !(wf16 > 0))   /* unrolled: 16 bytes of its row a read */
				wf16 = broadcast16_wavefronts();
			t->after += bc && wf16 > 0 ? req * x->in->size / 16.0 * wf16 * 128 / sgbs :
				    req * lines_of(x) * 128 / sgbs;
		}
	t->before /= 1e6, t->after /= 1e6;
	t->saved_ms = t->before - t->after;
	return t->saved_ms > 0;
}

/* The speedup of the whole kernel with the tile: the saved L1 time off the measured time, not below the floor. */
static double tile_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tile *t)
{
	return k->time_ms / fmax(k->time_ms - t->saved_ms, tk_floor_free_ms(k, prof, 1));
}

double tk_tile_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *text, size_t n, int *ins)
{
	struct tile t;
	char w[64];

	*ins = -1;
	if (!tile_of(k, prof, &t))
		return 0;
	double s = tile_speedup(k, prof, &t);
	if (s < GM_TRACE_WORTH)
		return 0;
	const struct gm_trace_insn *x = &k->ins[t.lead];
	gm_trace_where(x->in, 50, w, sizeof(w));
	*ins = t.lead;
	snprintf(text, n, "operands re-read by the warps of a block at %.50s: each address loaded by %.0f warps of the "
		 "block (%d such loads and %d broadcast ones a step, %d steps), L1 serving %.0f %% of them again; the "
		 "loads' L1 time %.4f ms of %.4f measured: stage the block's tiles in shared memory", w, t.warps, t.nre,
		 t.nbc, x->fit.iters, 100 * (1 - 1 / t.warps), t.before, k->time_ms);
	return 1 - 1 / s;
}

int tf_tile(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tile t;

	if (!tile_of(k, prof, &t) || k->ins[t.lead].fix.worth)
		return -1;
	double s = tile_speedup(k, prof, &t);
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, t.lead, t.nre + t.nbc, s);
	fx->share = fmin(1, t.before / k->time_ms);
	snprintf(fx->rewrite, sizeof(fx->rewrite), "shared_tile");
	snprintf(fx->change, sizeof(fx->change), "the block's operands staged in shared memory a loop step at a time: "
		 "%d re-read and %d broadcast loads read from the tile, %.4f ms of L1 time less", t.nre, t.nbc,
		 t.saved_ms);
	snprintf(fx->words, sizeof(fx->words), "every warp of the block loads the same elements again through L1 (each "
		 "address by %.0f warps): load each loop step's tile of the operands once a block, coalesced, into "
		 "shared memory, __syncthreads(), and read the tile in the unrolled inner loop (the rows of a broadcast "
		 "operand 16 bytes at a time)", t.warps);
	snprintf(fx->sketch, sizeof(fx->sketch), "__shared__ float As[32][32], Bs[32][32];\n"
		 "for (int k0 = 0; k0 < K; k0 += 32) {\n"
		 "  As[ty][tx] = A[row * K + k0 + tx]; Bs[ty][tx] = B[(k0 + ty) * N + col];\n"
		 "  __syncthreads();\n#pragma unroll\n"
		 "  for (int k = 0; k < 32; k++) acc += As[ty][k] * Bs[k][tx];\n"
		 "  __syncthreads();\n}");
	return t.lead;
}
