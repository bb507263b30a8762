/*
 * lanes.c - which threads a warp holds and the address each one touches.
 *
 * Warp W of a block with blockDim (X, Y, Z) holds tid = 32 W + lane for the
 * tids below X*Y*Z (a partial last warp has fewer lanes), with
 * tx = tid % X, ty = (tid / X) % Y, tz = tid / (X*Y): CUDA's linear order.
 * A lane's address is base + index * elem_bytes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "model/expr_internal.h"
#include "model/model_internal.h"

static gm_status invalid(struct gm_expr_error *err, int lane,
			 const char *fmt, ...)
{
	va_list ap;

	err->lane = lane;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return GM_ERR_INVALID_ARG;
}

static int block_threads(const struct gm_access *a)
{
	return a->block[0] * a->block[1] * a->block[2];
}

static gm_status check_block(const struct gm_access *a,
			     struct gm_expr_error *err)
{
	static const int max_dim[3] = { 1024, 1024, 64 };
	static const char axis[3] = { 'x', 'y', 'z' };
	int64_t n = 1;
	int k;

	for (k = 0; k < 3; k++) {
		if (a->block[k] < 1 || a->block[k] > max_dim[k])
			return invalid(err, -1, "blockDim.%c %d outside 1..%d",
				       axis[k], a->block[k], max_dim[k]);
		if (a->block_idx[k] < 0)
			return invalid(err, -1, "blockIdx.%c %d is negative",
				       axis[k], a->block_idx[k]);
		n *= a->block[k];
	}
	if (n > 1024)
		return invalid(err, -1,
			       "block %dx%dx%d has %lld threads; the limit is 1024",
			       a->block[0], a->block[1], a->block[2], (long long)n);
	return GM_OK;
}

gm_status gm_access_check(const struct gm_access *a, struct gm_expr_error *err)
{
	int e = a->elem_bytes;
	int nwarps;
	gm_status s;

	if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16)
		return invalid(err, -1, "element size %d B is not 1, 2, 4, 8 or 16", e);
	if (a->space != GM_SPACE_GLOBAL && a->space != GM_SPACE_SHARED)
		return invalid(err, -1, "unknown memory space %d", (int)a->space);
	if (a->op != GM_OP_LOAD && a->op != GM_OP_STORE)
		return invalid(err, -1, "unknown operation %d", (int)a->op);
	if (!a->index)
		return invalid(err, -1, "no index expression");
	s = check_block(a, err);
	if (s != GM_OK)
		return s;
	nwarps = (block_threads(a) + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
	if (a->warp < 0 || a->warp >= nwarps)
		return invalid(err, -1, "warp %d is outside the block (%d warp%s: 0..%d)",
			       a->warp, nwarps, nwarps == 1 ? "" : "s", nwarps - 1);
	return GM_OK;
}

static void lane_vars(const struct gm_access *a, int lane,
		      struct gm_thread_vars *v)
{
	int64_t tid = (int64_t)a->warp * GM_WARP_SIZE + lane;

	v->lane = lane;
	v->warp = a->warp;
	v->tid = tid;
	v->tx = tid % a->block[0];
	v->ty = tid / a->block[0] % a->block[1];
	v->tz = tid / ((int64_t)a->block[0] * a->block[1]);
	v->bx = a->block_idx[0];
	v->by = a->block_idx[1];
	v->bz = a->block_idx[2];
	v->bdx = a->block[0];
	v->bdy = a->block[1];
	v->bdz = a->block[2];
	v->gid = v->bx * ((int64_t)a->block[0] * a->block[1] * a->block[2]) + tid;
	v->n = a->n_threads > 0 ? a->n_threads : (int64_t)a->block[0] * a->block[1] * a->block[2];
}

void gm_thread_vars_1d(const struct gm_access *a, int64_t n, int64_t gid, struct gm_thread_vars *v)
{
	int64_t tpb = (int64_t)a->block[0] * a->block[1] * a->block[2], tid = gid % tpb;

	memset(v, 0, sizeof(*v));
	v->tid = tid;
	v->lane = tid % GM_WARP_SIZE;
	v->warp = tid / GM_WARP_SIZE;
	v->tx = tid % a->block[0];
	v->ty = tid / a->block[0] % a->block[1];
	v->tz = tid / ((int64_t)a->block[0] * a->block[1]);
	v->bx = gid / tpb;
	v->bdx = a->block[0];
	v->bdy = a->block[1];
	v->bdz = a->block[2];
	v->gid = gid;
	v->n = n;
}

/* The sector, line, word and bank of a lane's address. */
static void place_lane(const struct gm_access *a, struct gm_lane *L)
{
	L->sector = L->addr / GM_SECTOR_BYTES;
	L->line = L->addr / GM_LINE_BYTES;
	L->word = L->addr / GM_SMEM_BANK_BYTES;
	L->bank = (int)(L->word % GM_SMEM_BANKS);
	L->unit = a->space == GM_SPACE_GLOBAL ? L->sector : L->bank;
}

static gm_status lane_address(const struct gm_access *a, int lane,
			      struct gm_lane *L, struct gm_expr_error *err)
{
	int64_t off;

	if (__builtin_mul_overflow(L->index, (int64_t)a->elem_bytes, &off) ||
	    __builtin_add_overflow(a->base, off, &L->addr) ||
	    L->addr > INT64_MAX - a->elem_bytes) {
		err->lane = lane;
		snprintf(err->msg, sizeof(err->msg),
			 "address overflows 64 bits at lane %d (index %lld)",
			 lane, (long long)L->index);
		return GM_ERR_EVAL;
	}
	if (L->addr < 0)
		return invalid(err, lane, "negative address %lld at lane %d (index %lld)",
			       (long long)L->addr, lane, (long long)L->index);
	if (L->addr % a->elem_bytes)
		return invalid(err, lane,
			       "misaligned address %lld at lane %d: not a multiple of the %d-byte element (base %lld)",
			       (long long)L->addr, lane, a->elem_bytes,
			       (long long)a->base);
	place_lane(a, L);
	return GM_OK;
}

/* Evaluate one existing lane: is it active, and where does it go. */
static gm_status fill_lane(const struct gm_access *a, const struct gm_expr *index,
			   const struct gm_expr *active, int lane,
			   struct gm_lane *L, struct gm_expr_error *err)
{
	struct gm_thread_vars v;
	int64_t on = 1;
	gm_status s;

	lane_vars(a, lane, &v);
	L->exists = 1;
	if (active && (s = gm_expr_eval(active, &v, &on, err)) != GM_OK) {
		err->text = a->active;
		return s;
	}
	L->active = on != 0;
	if (!L->active)
		return GM_OK;
	if ((s = gm_expr_eval(index, &v, &L->index, err)) != GM_OK) {
		err->text = a->index;
		return s;
	}
	return lane_address(a, lane, L, err);
}

gm_status gm_lanes_fill(const struct gm_access *a, const struct gm_expr *index,
			const struct gm_expr *active, struct gm_prediction *p,
			struct gm_expr_error *err)
{
	int64_t first = (int64_t)a->warp * GM_WARP_SIZE;
	int lane;
	gm_status s;

	p->nlanes = (int)(block_threads(a) - first < GM_WARP_SIZE ?
			  block_threads(a) - first : GM_WARP_SIZE);
	/* lanes past a partial warp's end: none (the counts look at all 32) */
	for (lane = p->nlanes; lane < GM_WARP_SIZE; lane++)
		memset(&p->lanes[lane], 0, sizeof(p->lanes[lane]));
	for (lane = 0; lane < p->nlanes; lane++) {
		s = fill_lane(a, index, active, lane, &p->lanes[lane], err);
		if (s != GM_OK)
			return s;
		p->nactive += p->lanes[lane].active;
	}
	return GM_OK;
}

int gm_lanes_shift(const struct gm_access *a, const struct gm_prediction *from, int64_t off,
		   struct gm_prediction *to)
{
	if (off % a->elem_bytes)
		return 0;
	for (int l = 0; l < from->nlanes; l++) {
		const struct gm_lane *L = &from->lanes[l];
		int64_t addr;

		if (L->active && (__builtin_add_overflow(L->addr, off, &addr) || addr < 0 ||
				  addr > INT64_MAX - a->elem_bytes))
			return 0;
	}
	to->nlanes = from->nlanes;
	to->nactive = from->nactive;
	for (int l = to->nlanes; l < GM_WARP_SIZE; l++)
		memset(&to->lanes[l], 0, sizeof(to->lanes[l]));
	for (int l = 0; l < to->nlanes; l++) {
		struct gm_lane *L = &to->lanes[l];

		*L = from->lanes[l];
		if (!L->active)
			continue;
		L->addr += off;
		L->index += off / a->elem_bytes;
		place_lane(a, L);
	}
	return 1;
}

void gm_lanes_stride(struct gm_prediction *p)
{
	int prev = -1, lane, n = 0;
	int64_t stride = 0;

	p->stride_known = 0;
	p->stride_bytes = 0;
	for (lane = 0; lane < GM_WARP_SIZE; lane++) {
		const struct gm_lane *L = &p->lanes[lane];
		int64_t delta;

		if (!L->active)
			continue;
		if (prev >= 0) {
			delta = L->addr - p->lanes[prev].addr;
			if (delta % (lane - prev) != 0 ||
			    (n > 1 && delta / (lane - prev) != stride))
				return;
			stride = delta / (lane - prev);
		}
		prev = lane;
		n++;
	}
	p->stride_known = n >= 2;
	p->stride_bytes = p->stride_known ? stride : 0;
}
