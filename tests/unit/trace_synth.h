/* trace_synth.h - synthetic trace launches from known index expressions (for test_trace_*.c): every warp
 * of the launch counted by the warp model's rules (the "measured" counts), sampled warps spread evenly
 * over the launch with their lane addresses, as a real collector would leave them. A row may name a
 * loop (iters, step elements). Header-only: static functions. */
#ifndef GPUMEM_TESTS_TRACE_SYNTH_H
#define GPUMEM_TESTS_TRACE_SYNTH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/model.h"
#include "gpumem/trace.h"

struct synth {
	const char *name;
	const char *expr;             /* element index per thread, iteration 0 */
	int block[3];
	int64_t grid[3];
	int elem;
	enum gm_trace_space space;
	enum gm_trace_op op;
	int iters;                    /* loop iterations per thread (1: none) */
	int64_t step;                 /* elements per iteration */
	int samples;                  /* sampled warps (0 = 64) */
	int even;                     /* 1: warps floor(k T / S) exactly; 0: each moved within its stride by a
					 hash of k, so that every bit of the warp number varies (docs/TRACE.md);
					 2: warp 0 of blocks floor(k B / S) (the collector's first version);
					 3: warp k % (warps a block) of blocks floor(k B / S) (its second: the warp and
					 the block come from one counter, so their bits move together) */
	const int64_t *tab;           /* non-NULL: iteration it adds tab[it] elements (instead of it * step) */
	int tab_mask;                 /* with tab: only threads with tid < tab[it] run it (a tree reduction) */
};

/* splitmix64's finaliser: every bit of k moves every bit of the result (a multiplicative hash mod a
   power of two would keep the low bits of k, and the fit could not tell those bits of the warp apart) */
static uint64_t synth_mix(uint64_t k)
{
	k += 0x9e3779b97f4a7c15ull;
	k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ull;
	k = (k ^ (k >> 27)) * 0x94d049bb133111ebull;
	return k ^ (k >> 31);
}

static int synth_lanes(const struct synth *r, struct gm_expr *e, int64_t wi, int it, int64_t base,
		       struct gm_lane ln[GM_WARP_SIZE], int blk[3], int *warp)
{
	int64_t tpb = (int64_t)r->block[0] * r->block[1] * r->block[2], wpb = (tpb + 31) / 32;
	int64_t B = wi / wpb, w = wi % wpb;
	struct gm_expr_error err;

	blk[0] = (int)(B % r->grid[0]);
	blk[1] = (int)(B / r->grid[0] % r->grid[1]);
	blk[2] = (int)(B / (r->grid[0] * r->grid[1]));
	*warp = (int)w;
	memset(ln, 0, sizeof(struct gm_lane) * GM_WARP_SIZE);
	for (int l = 0; l < GM_WARP_SIZE; l++) {
		struct gm_thread_vars v;
		int64_t tid = w * 32 + l, x;
		if (tid >= tpb)
			continue;
		memset(&v, 0, sizeof(v));
		v.lane = l, v.warp = w, v.tid = tid;
		v.tx = tid % r->block[0];
		v.ty = tid / r->block[0] % r->block[1];
		v.tz = tid / ((int64_t)r->block[0] * r->block[1]);
		v.bx = blk[0], v.by = blk[1], v.bz = blk[2];
		v.bdx = r->block[0], v.bdy = r->block[1], v.bdz = r->block[2];
		v.gid = B * tpb + tid;
		v.n = tpb * r->grid[0] * r->grid[1] * r->grid[2];
		if (gm_expr_eval(e, &v, &x, &err) != GM_OK)
			return -1;
		ln[l].exists = 1;
		ln[l].active = !(r->tab && r->tab_mask && tid >= r->tab[it]);
		ln[l].addr = base + (x + (r->tab ? r->tab[it] : (int64_t)it * r->step)) * r->elem;
	}
	return 0;
}

/* Instruction r (at `line` of synthetic.cu, pc 16 * its number) appended to launch l. 0 or -1. */
static int synth_append(const struct synth *r, int64_t base, int line, struct gm_trace_launch *l)
{
	struct gm_expr *e = NULL;
	struct gm_expr_error err;
	struct gm_trace_instr *in;
	int64_t tpb = (int64_t)r->block[0] * r->block[1] * r->block[2], wpb = (tpb + 31) / 32;
	int64_t warps = wpb * r->grid[0] * r->grid[1] * r->grid[2];
	int iters = r->iters > 0 ? r->iters : 1, ns = r->samples > 0 ? r->samples : 64, blk[3], warp;
	struct gm_lane ln[GM_WARP_SIZE];
	double sectors = 0, ideal = 0, wf = 0, acc = 0, execs = 0;
	void *grown = realloc(l->ins, sizeof(*l->ins) * (size_t)(l->nins + 1));

	if (!grown || gm_expr_parse(r->expr, &e, &err) != GM_OK)
		return -1;
	l->ins = grown;
	in = &l->ins[l->nins++];
	memset(in, 0, sizeof(*in));
	in->pc = 16 * l->nins;
	in->file = strdup("synthetic.cu");
	in->line = line;
	in->space = r->space;
	in->op = r->op;
	in->size = r->elem;
	for (int64_t wi = 0; wi < warps; wi++)
		for (int it = 0; it < iters; it++) {
			int act = 0;
			if (synth_lanes(r, e, wi, it, base, ln, blk, &warp))
				return gm_expr_free(e), -1;
			for (int k = 0; k < 32; k++)
				act += ln[k].active;
			if (!act)
				continue;
			execs++;
			acc += act;
			if (r->space == GM_TS_SHARED) {
				struct gm_shared_counts sc;
				gm_shared_counts_of(ln, r->elem, r->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE, &sc);
				wf += (double)sc.wavefronts;
			} else {
				struct gm_global_counts gc;
				for (int k = 0; r->space == GM_TS_LOCAL && k < 32; k++) {   /* the hardware interleaves a
											     stack: word w of lane k at
											     (w * 32 + k) * 4 */
					int64_t a = ln[k].addr, u = r->elem > 4 ? r->elem : 4;
					ln[k].addr = (a - a % u) * 32 + u * k + a % u;
				}
				gm_global_counts_of(ln, r->elem, &gc);
				sectors += (double)gc.sectors;
				ideal += (double)((act * r->elem + 31) / 32);
			}
		}
	in->executions = in->requests = execs;
	in->thread_accesses = acc;
	in->sectors = r->space == GM_TS_SHARED ? -1 : sectors;
	in->ideal_sectors = r->space == GM_TS_SHARED ? -1 : ideal;
	in->wavefronts = r->space == GM_TS_SHARED ? wf : -1;
	in->samples = calloc((size_t)ns, sizeof(*in->samples));
	for (int i = 0; in->samples && i < ns; i++) {
		struct gm_trace_sample *s = &in->samples[in->nsamples];
		/* a loop's warps sampled at two iterations each, as the collector does (sample_iters 2) */
		int pairs = iters > 1 && !r->tab, k = pairs ? i / 2 : i, nk = pairs ? ns / 2 : ns;
		int64_t wi = (int64_t)((double)k * (double)warps / nk), span = warps / nk;
		int it = pairs ? (int)((k + i % 2) % iters) : i % iters;
		if (k && (!pairs || i % 2 == 0) && wi == (int64_t)((double)(k - 1) * (double)warps / nk))
			continue;
		if (!r->even && span > 1)
			wi += (int64_t)(synth_mix((uint64_t)k) % (uint64_t)span);
		if (r->even == 2)
			wi = (int64_t)((double)k * (double)(warps / wpb) / nk) * wpb;
		if (r->even == 3)
			wi = (int64_t)((double)k * (double)(warps / wpb) / nk) * wpb + k % wpb;
		synth_lanes(r, e, wi, it, base, ln, blk, &warp);
		memcpy(s->block, blk, sizeof(blk));
		s->warp = warp;
		s->iter = it;
		for (int k = 0; k < 32; k++)
			if (ln[k].active) {
				s->mask |= 1u << k;
				s->addr[k] = ln[k].addr;
			}
		s->have = s->mask;
		if (s->mask)   /* a warp with no active lane does not execute the instruction */
			in->nsamples++;
	}
	gm_expr_free(e);
	return 0;
}

/* A launch of r's grid and block with r as its one instruction (allocated; free with synth_free). */
static int synth_launch(const struct synth *r, int64_t base, struct gm_trace_launch *l)
{
	memset(l, 0, sizeof(*l));
	l->kernel = strdup(r->name);
	l->name = strdup(r->name);
	memcpy(l->grid, r->grid, sizeof(l->grid));
	memcpy(l->block, r->block, sizeof(l->block));
	l->time_ms = -1;
	l->dram_read_bytes = l->dram_write_bytes = -1;
	l->lineinfo = 1;
	return synth_append(r, base, 10, l);
}

static void synth_free(struct gm_trace_launch *l)
{
	for (int i = 0; i < l->nins; i++) {
		free(l->ins[i].samples);
		free(l->ins[i].file);
		free(l->ins[i].sass);
	}
	free(l->ins);
	free(l->kernel);
	free(l->name);
	memset(l, 0, sizeof(*l));
}

#endif
