/*
 * suggest_tiles.c - the rewrites of `explain --suggest` that reorder a block's accesses through shared memory:
 * the 32x32 transpose tile (padded or XOR-swizzled), the 64x64 tile with 16 B accesses, and staging a block's
 * span. Each is a rule of the table in suggest_rules.c; docs/SUGGEST.md describes them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/suggest_internal.h"

#define TILE_ILP 4          /* rows a thread moves in the 2D tile (block 32 x 8), the ladder's v3 */
#define SPAN_BLOCKS 64      /* blocks whose span is evaluated */

/* ---- the 2D tile of a transpose --------------------------------------------------- */

/*
 * A transpose: EXPR = E0 + P * r + c, where the row r is made of modes that chain in EXPR from the one
 * consecutive in gid (stride P, P * its size, ...) and the column c of modes that chain from the one consecutive
 * in EXPR (stride 1, its size, ...). Two modes are the plain matrix (thread g = r + R * c); more are a matrix
 * whose threads come in another order (a 2D launch, a batch): g is then the sum of each mode's digit of r or c
 * times its div, which general says and the kernel computes with tile_g().
 */
struct tr {
	int64_t R, C, P, TR;
	int nr, nc, general;
	int rm[GM_SUGGEST_MODES], cm[GM_SUGGEST_MODES];      /* the modes of r and of c, lowest digit first */
};

/* Append to the chain the modes whose EXPR stride continues it; returns the chain's extent (elements). */
static int64_t chain(const struct gm_index_map *m, int first, int *used, int *out, int *n)
{
	int64_t next = m->stride[first] * m->size[first], ext = m->size[first];

	out[(*n)++] = first;
	used[first] = 1;
	for (int found = 1; found;) {
		found = 0;
		for (int k = 0; k < m->nmodes; k++)
			if (!used[k] && m->stride[k] == next) {
				out[(*n)++] = k;
				used[k] = found = 1;
				ext *= m->size[k];
				next *= m->size[k];
				break;
			}
	}
	return ext;
}

static int transpose_of(const struct gm_suggest *s, struct gm_rewrite *r, struct tr *t)
{
	const struct gm_index_map *m = &s->map;
	int used[GM_SUGGEST_MODES] = { 0 }, c0 = -1;

	if (!sg_needs_global(s, r) || !sg_needs_map(s, r))
		return 0;
	for (int k = 1; k < m->nmodes; k++)
		if (m->stride[k] == 1)
			c0 = k;
	if (m->nmodes < 2 || m->div[0] != 1 || c0 < 0)
		return sg_no(r, "not a transpose: needs a mode consecutive in gid and another consecutive in EXPR "
			  "(found %d mode%s)", m->nmodes, m->nmodes == 1 ? "" : "s");
	/* the rows first: a square matrix's pitch equals the columns' extent and must not extend them */
	t->R = chain(m, 0, used, t->rm, &t->nr);
	t->C = chain(m, c0, used, t->cm, &t->nc);
	for (int k = 0; k < m->nmodes; k++)
		if (!used[k])
			return sg_no(r, "not a transpose: the mode of size %lld at stride %lld continues neither the "
				  "rows nor the columns", (long long)m->size[k], (long long)m->stride[k]);
	t->P = m->stride[0];
	t->general = m->nmodes > 2;
	/* loads may read an element twice in any order; stores to overlapping rows would race */
	if (t->P < t->C && s->in.a.op == GM_OP_STORE)
		return sg_no(r, "stores: rows of %lld elements overlap at a pitch of %lld (two threads write one element)",
			  (long long)t->C, (long long)t->P);
	if (!sg_covers_n(s))
		return sg_no(r, "n (%lld) is no whole number of rows", (long long)s->in.n);
	if (t->R < 32 || t->C < 32)
		return sg_no(r, "a %lld x %lld matrix: a 32 x 32 tile would stay mostly empty", (long long)t->R,
			  (long long)t->C);
	t->TR = (t->R + 31) / 32;
	return 1;
}

/* thread g of the original for row rx, column cx (C expressions): "rx + R * (cx)" or each mode's digit. */
static int g_of(const struct gm_index_map *m, const struct tr *t, const char *rx, const char *cx, char *out,
		size_t n)
{
	size_t len = 0;

	if (!t->general) {
		int k = snprintf(out, n, "%s + %lld * (%s)", rx, (long long)t->R, cx);
		return k < 0 || (size_t)k >= n ? -1 : 0;
	}
	for (int side = 0; side < 2; side++) {
		const int *modes = side ? t->cm : t->rm;
		int64_t pos = 1;
		for (int j = 0; j < (side ? t->nc : t->nr); j++) {
			int k = modes[j];
			int w = snprintf(out + len, n - len, "%s((%s) / %lld %% %lld) * %lld", len ? " + " : "",
					 side ? cx : rx, (long long)pos, (long long)m->size[k], (long long)m->div[k]);
			if (w < 0 || (size_t)w >= n - len)
				return -1;
			len += (size_t)w;
			pos *= m->size[k];
		}
	}
	return 0;
}

/*
 * One side's part of g (the kernel's tile_gr / tile_gc): the digits of the row (side 0) or the column (side 1)
 * times their div, in 32-bit unsigned arithmetic where every index fits (narrow: divisions by constants are a
 * multiply-high there, a long sequence in 64 bits), so that g = tile_gr(r) + tile_gc(c).
 */
static int g_side(const struct gm_index_map *m, const struct tr *t, int side, int narrow, char *out, size_t n)
{
	const int *modes = side ? t->cm : t->rm;
	int64_t pos = 1;
	size_t len = 0;

	for (int j = 0; j < (side ? t->nc : t->nr); j++) {
		int k = modes[j];
		int w = snprintf(out + len, n - len, "%s(%s / %lld%s %% %lld%s) * %lld%s", len ? " + " : "",
				 narrow ? "(unsigned)x" : "x", (long long)pos, narrow ? "u" : "LL", (long long)m->size[k],
				 narrow ? "u" : "LL", (long long)m->div[k], narrow ? "u" : "LL");
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
		pos *= m->size[k];
	}
	return 0;
}

/* slot of tile row rl, column cl (strings); -1 when out is too small */
static int slot(int xor_, const char *rl, const char *cl, char *out, size_t n)
{
	int k = xor_ ? snprintf(out, n, "(%s) * 32 + ((%s) ^ (%s))", rl, cl, rl)
		     : snprintf(out, n, "(%s) * 33 + (%s)", rl, cl);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}

/*
 * The walk's window for a load tile (rule D3's read density is counted in a window): a block loads 32 x eb bytes
 * of each of its rows, and the rest of the row's 256 B groups is loaded by the blocks TR, 2 TR, .. later (the next
 * column tiles), resident beside it (a wave holds hundreds of blocks). The model's default window, 32 blocks of
 * 32x8, cuts a group where (k - 1) TR blocks pass it (k = 256 / (32 eb) blocks a group): the tile's loads are then
 * priced as sparse reads they are not (4 B tiles at TR = 16 / 32 measured as the 8 B and 16 B tiles of the same
 * bytes, predicted 5-15 % slower; docs/log/2026-12-03-g84.md). There, two windows of half the sampled warps (128
 * blocks), the same warps sampled. Store tiles load rows that the next block continues, 8 B and wider rows are
 * whole groups: the default window (0).
 */
static int tile_window(const struct tr *t, int eb, int ld)
{
	int64_t k = eb < 8 ? 256 / (32 * eb) : 1, span = (k - 1) * t->TR * 8; /* warps, 8 a block */

	/* rows of pitch 0 (a broadcast) are one row read by every block of the column: L2 serves them (rule D6) */
	return ld && t->P > 0 && k > 1 && span > 0 ? SG_WALK_WARPS / 2 : 0;
}

static int tile_rule(const struct gm_suggest *s, struct gm_rewrite *r, int xor_)
{
	struct tr t;

	memset(&t, 0, sizeof(t));
	int eb = s->in.a.elem_bytes, ld = s->in.a.op == GM_OP_LOAD;
	char a[240], b[16];    /* b: "ty + %d", a: a slot of two or three of them */

	snprintf(r->change, sizeof(r->change), "32x32 shared tile, %s, block 32x8, %d rows a thread: both global "
		 "sides coalesced", xor_ ? "XOR-swizzled slots (col ^ row)" : "pitch 33 (padded)", TILE_ILP);
	if (!transpose_of(s, r, &t))
		return 0;
	int64_t TC = (t.C + 31) / 32;
	r->block[0] = 32;
	r->block[1] = 8;
	r->block[2] = 1;
	r->threads = t.TR * TC * 256;
	r->round_trips = 1;
	r->window_warps = tile_window(&t, eb, ld);
	/* E side rows along ty (coalesced on c = tx), g side rows along tx */
	char e_idx[256], g_idx[GM_SUGGEST_PATS / 2][256], cx[64], rx[64];
	snprintf(e_idx, sizeof(e_idx), "%lld + %lld * ((bx %% %lld) * 32 + ty) + (bx / %lld) * 32 + tx",
		 (long long)s->map.offset, (long long)t.P, (long long)t.TR, (long long)t.TR);
	snprintf(rx, sizeof(rx), "(bx %% %lld) * 32 + tx", (long long)t.TR);
	/* the g side: one pattern repeated 8 columns apart; where the threads come in another order (general) the
	 * step is not constant, so each of the TILE_ILP rows of columns is a pattern of its own */
	int ng = t.general ? TILE_ILP : 1;
	for (int j = 0; j < ng; j++) {
		snprintf(cx, sizeof(cx), "(bx / %lld) * 32 + ty + %d", (long long)t.TR, 8 * j);
		if (g_of(&s->map, &t, rx, t.general ? cx : "(bx / %lld) * 32 + ty", g_idx[j], sizeof(g_idx[j])))
			return sg_no(r, "the thread order of the original is too long to describe");
	}
	if (!t.general)
		snprintf(g_idx[0], sizeof(g_idx[0]), "(bx %% %lld) * 32 + tx + %lld * ((bx / %lld) * 32 + ty)",
			 (long long)t.TR, (long long)t.R, (long long)t.TR);
	/* the side loaded first: E for load, g for store */
	if (ld) /* rows of pitch 0 (a broadcast) read one address TILE_ILP times: the compiler loads it once */
		sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, t.P ? TILE_ILP : 1, 8 * t.P * eb, "%s", e_idx);
	else
		for (int j = 0; j < ng; j++)
			sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, t.general ? 1 : TILE_ILP, 8 * t.R * eb, "%s", g_idx[j]);
	for (int j = 0; j < TILE_ILP; j++) {
		snprintf(b, sizeof(b), "ty + %d", 8 * j);
		/* load: tile[r_local = ty+8j][c_local = tx]; store: tile[tx][ty+8j] */
		if (slot(xor_, ld ? b : "tx", ld ? "tx" : b, a, sizeof(a)))
			return sg_no(r, "the tile's slot expression is too long");
		sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, 1, 0, "%s", a);
		if (slot(xor_, ld ? "tx" : b, ld ? b : "tx", a, sizeof(a)))
			return sg_no(r, "the tile's slot expression is too long");
		sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", a);
	}
	if (ld)
		for (int j = 0; j < ng; j++)
			sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, t.general ? 1 : TILE_ILP, 8 * t.R * eb, "%s", g_idx[j]);
	else
		sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, TILE_ILP, 8 * t.P * eb, "%s", e_idx);
	/* the kernel: 32-bit indices where every index a thread forms fits (the ladder measured 64-bit index
	   arithmetic costing bandwidth; a 2D launch's g, digits of r and c, is a long sequence of 64-bit divisions
	   a store), the row's part of g once a thread, bounds checked only where the tiles are ragged */
	char s1[240], s2[240], gr[600], gc[600];
	int64_t TCb = (t.C + 31) / 32, last = s->map.offset + t.P * (t.TR * 32) + TCb * 32;
	int narrow = s->map.offset >= 0 && last <= INT32_MAX && s->in.n <= INT32_MAX;
	int ragged = t.R % 32 || t.C % 32;
	const char *I = narrow ? "int" : "long long", *L = narrow ? "" : "LL";
	if (slot(xor_, "ty + j", "tx", s1, sizeof(s1)) || slot(xor_, "tx", "ty + j", s2, sizeof(s2)))
		return sg_no(r, "the tile's slot expression is too long");
	if (t.general) {
		if (g_side(&s->map, &t, 0, narrow, gr, sizeof(gr)) || g_side(&s->map, &t, 1, narrow, gc, sizeof(gc)))
			return sg_no(r, "the thread order of the original is too long to describe");
		sg_src(r, "static __device__ __forceinline__ %s tile_gr(%s x) { return %s; }\n"
		       "static __device__ __forceinline__ %s tile_gc(%s x) { return %s; }\n", I, I, gr, I, I, gc);
	}
	const char *G = t.general ? "gr_ + tile_gc(c)" : "r + R * c", *ok = ragged ? "r < R && c < C" : "1";
	sg_src(r, "%s  __shared__ T sm[32 * 33];\n  typedef %s I;\n"
	    "  const I tr = (I)(blockIdx.x %% %lldu), tc = (I)(blockIdx.x / %lldu);\n"
	    "  const int tx = threadIdx.x, ty = threadIdx.y;\n"
	    "  const I R = %lld%s, C = %lld%s, P = %lld%s, E0 = %lld%s;\n  (void)R; (void)C;\n", sg_head, I,
	    (long long)t.TR, (long long)t.TR, (long long)t.R, L, (long long)t.C, L, (long long)t.P, L,
	    (long long)s->map.offset, L);
	sg_src(r, t.general ? "  const I gr_ = tile_gr(tr * 32 + tx);\n" : "");
	if (ld)
		sg_src(r, "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const I r = tr * 32 + ty + j, c = tc * 32 + tx;\n"
		    "    if (%s) sm[%s] = in[E0 + P * r + c];\n  }\n  __syncthreads();\n"
		    "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const I r = tr * 32 + tx, c = tc * 32 + ty + j;\n"
		    "    if (%s) out[%s] = sm[%s];\n  }\n}\n", ok, s1, ok, G, s2);
	else
		sg_src(r, "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const I r = tr * 32 + tx, c = tc * 32 + ty + j;\n"
		    "    if (%s) sm[%s] = in[%s];\n  }\n  __syncthreads();\n"
		    "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const I r = tr * 32 + ty + j, c = tc * 32 + tx;\n"
		    "    if (%s) out[E0 + P * r + c] = sm[%s];\n  }\n}\n", ok, s2, G, ok, s1);
	return 1;
}

int sg_rule_tile_padded(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return tile_rule(s, r, 0);
}

int sg_rule_tile_xor(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return tile_rule(s, r, 1);
}

/* ---- the 64x64 tile with 16 B accesses (the ladder's v5_vec16) ---------------------- */

/*
 * A transpose as "A to B": element (a, b) of A (a < NA rows at pitch PA from OA, b < NB consecutive) goes to
 * B[OB + PB * b + a]. Load (out[g] = in[E0 + P*r + c], g = r + R*c): A = in (a = r, b = c, pitch P, offset E0),
 * B = out (pitch R). Store (out[E0 + P*r + c] = in[g]): A = in (a = c, b = r, pitch R), B = out (pitch P,
 * offset E0). v5_vec16's layout: thread (tx, ty) loads the 4x4 block at a-quad rq = 2*ty + tx/16, b-quad
 * cq = tx%16 (four 16 B loads, one per A row), transposes it in registers into four 16 B slots of the tile's
 * b rows 4cq..4cq+3, slot rq ^ (cq%8) (each quarter-warp phase of STS.128/LDS.128 on 8 distinct bank groups);
 * after the barrier each warp stores two 256 B pieces of B rows with 16 B stores. NA, NB, PA, OA, PB, OB are
 * multiples of 4, so a vector lies wholly inside the matrix or wholly outside (the ragged tiles' guard).
 */
int sg_rule_tile_wide(const struct gm_suggest *s, struct gm_rewrite *r)
{
	struct tr t;

	memset(&t, 0, sizeof(t));
	int eb = s->in.a.elem_bytes, ld = s->in.a.op == GM_OP_LOAD;
	int64_t E0 = s->map.offset;

	snprintf(r->change, sizeof(r->change), "64x64 shared tile, block 32x8, 16 B loads and stores on both global "
		 "sides (4x4 blocks transposed in registers, XOR-swizzled 16 B slots)");
	if (!transpose_of(s, r, &t))
		return 0;
	if (t.general)
		return sg_no(r, "the threads come in another order than the matrix's (a 2D launch, a batch): the 64x64 "
			  "tile is built for rows of consecutive threads");
	if (eb != 4)
		return sg_no(r, "%d B elements: the 16 B vectors are built for 4 elements of 4 B", eb);
	if (t.R % 4 || t.C % 4 || t.P % 4 || E0 % 4 || E0 < 0)
		return sg_no(r, "a %lld x %lld transpose at pitch %lld, offset %lld: 16 B accesses need all four multiples "
			  "of 4", (long long)t.R, (long long)t.C, (long long)t.P, (long long)E0);
	int64_t NA = ld ? t.R : t.C, NB = ld ? t.C : t.R, PA = ld ? t.P : t.R, OA = ld ? E0 : 0;
	int64_t PB = ld ? t.R : t.P, OB = ld ? 0 : E0;
	int64_t TA = (NA + 63) / 64, TB = (NB + 63) / 64;
	/* 32-bit indices where every index a thread forms (a tile's rows past the edge included) fits */
	int narrow = OA + PA * (TA * 64) + NB <= INT32_MAX && OB + PB * (TB * 64) + NA <= INT32_MAX;
	r->block[0] = 32;
	r->block[1] = 8;
	r->block[2] = 1;
	r->threads = TA * TB * 256;
	r->round_trips = 1;
	/* the patterns in 16 B units: A loaded (4 rows a step), the tile's STS.128 and LDS.128, B stored (16 rows
	 * a step) */
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 4, PA * eb,
	       "%lld + %lld * ((bx %% %lld) * 64 + 4 * (2 * ty + tx / 16)) + (bx / %lld) * 16 + tx %% 16",
	       (long long)(OA / 4), (long long)(PA / 4), (long long)TA, (long long)TA);
	for (int j = 0; j < 4; j++)
		sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, 16, 1, 0,
		       "(4 * (tx %% 16) + %d) * 16 + ((2 * ty + tx / 16) ^ (tx %% 8))", j);
	for (int k = 0; k < 4; k++)
		sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, 16, 1, 0,
		       "(%d + 2 * ty + tx / 16) * 16 + ((tx %% 16) ^ ((%d + 2 * ty + tx / 16) / 4 %% 8))", 16 * k, 16 * k);
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, 16, 4, 16 * PB * eb,
	       "%lld + %lld * ((bx / %lld) * 64 + 2 * ty + tx / 16) + (bx %% %lld) * 16 + tx %% 16", (long long)(OB / 4),
	       (long long)(PB / 4), (long long)TA, (long long)TA);
	/* the kernel */
	const char *I = narrow ? "int" : "long long", *L = narrow ? "" : "LL";
	sg_src(r, "%s  typedef %s I;\n  __shared__ __align__(16) uint4 sm[64 * 16];\n"
	    "  const int tx = threadIdx.x, ty = threadIdx.y;\n"
	    "  const I ta = (I)(blockIdx.x %% %lldu), tb = (I)(blockIdx.x / %lldu);\n"
	    "  const I NA = %lld%s, NB = %lld%s, PA = %lld%s, OA = %lld%s, PB = %lld%s, OB = %lld%s;\n"
	    "  const I a0 = ta * 64, b0 = tb * 64;\n"
	    "  const int cq = tx & 15, rq = 2 * ty + (tx >> 4), sw = rq ^ (cq & 7);\n"
	    "  if (a0 + 4 * rq < NA && b0 + 4 * cq < NB) {\n"
	    "    const T *p = in + (OA + PA * (a0 + 4 * rq) + b0 + 4 * cq);\n"
	    "    const uint4 v0 = *(const uint4 *)p, v1 = *(const uint4 *)(p + PA);\n"
	    "    const uint4 v2 = *(const uint4 *)(p + 2 * PA), v3 = *(const uint4 *)(p + 3 * PA);\n"
	    "    sm[(4 * cq + 0) * 16 + sw] = make_uint4(v0.x, v1.x, v2.x, v3.x);\n"
	    "    sm[(4 * cq + 1) * 16 + sw] = make_uint4(v0.y, v1.y, v2.y, v3.y);\n"
	    "    sm[(4 * cq + 2) * 16 + sw] = make_uint4(v0.z, v1.z, v2.z, v3.z);\n"
	    "    sm[(4 * cq + 3) * 16 + sw] = make_uint4(v0.w, v1.w, v2.w, v3.w);\n  }\n  __syncthreads();\n"
	    "  const int q = tx & 15;\n#pragma unroll\n  for (int k = 0; k < 4; k++) {\n"
	    "    const int c = 16 * k + 2 * ty + (tx >> 4);\n"
	    "    if (b0 + c < NB && a0 + 4 * q < NA)\n"
	    "      *(uint4 *)(out + (OB + PB * (b0 + c) + a0 + 4 * q)) = sm[c * 16 + (q ^ ((c >> 2) & 7))];\n  }\n}\n",
	    sg_head, I, (long long)TA, (long long)TA, (long long)NA, L, (long long)NB, L, (long long)PA, L, (long long)OA, L,
	    (long long)PB, L, (long long)OB, L);
	return 1;
}

/* ---- staging a block's span through shared memory --------------------------------- */

int sg_rule_stage_span(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_access *a = &s->in.a;
	int64_t tpb = sg_tpb_of(a->block), blocks = (s->in.n + tpb - 1) / tpb, maxspan = 0;
	double sum = 0;
	int counted = 0, eb = a->elem_bytes;
	struct gm_expr *e = NULL;
	struct gm_expr_error err;
	char call[96];

	snprintf(r->change, sizeof(r->change), "each block loads the span of in its threads need, coalesced, into "
		 "shared memory, then gathers from it");
	if (!sg_needs_global(s, r))
		return 0;
	if (a->op != GM_OP_LOAD)
		return sg_no(r, "stores: a block's scattered stores cannot be staged without knowing who writes what");
	if (s->waste < 1.5)
		return sg_no(r, "the loads are already coalesced (%.1f sectors a warp, %d at least)", s->sectors_per_warp,
			  eb);
	if (gm_expr_parse(a->index, &e, &err))
		return sg_no(r, "EXPR cannot be evaluated");
	for (int k = 0; k < SPAN_BLOCKS && k < blocks; k++) {
		int64_t b = blocks <= SPAN_BLOCKS ? k : k * (blocks - 1) / (SPAN_BLOCKS - 1), lo = INT64_MAX, hi = INT64_MIN, v;
		for (int64_t g = b * tpb; g < (b + 1) * tpb && g < s->in.n; g++)
			if (!sg_eval(e, a, s->in.n, g, &v)) {
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		if (hi < lo)
			continue;
		maxspan = hi - lo + 1 > maxspan ? hi - lo + 1 : maxspan;
		sum += (double)(hi - lo + 1);
		counted++;
	}
	gm_expr_free(e);
	if (!counted || maxspan * eb > SG_SMEM_MAX)
		return sg_no(r, "a block's span is %lld elements (%lld KiB), past %d KiB of shared memory",
			  (long long)maxspan, (long long)(maxspan * eb / 1024), SG_SMEM_MAX / 1024);
	int64_t S = (int64_t)(sum / counted + 0.5), it = (S + tpb - 1) / tpb;
	double sectors_b = s->sectors_per_warp * 32.0 * (double)((tpb + 31) / 32);
	if (2.0 * (double)S * eb > sectors_b)
		return sg_no(r, "a block's span (%lld B) is not half the sectors its loads touch (%.0f B): staging "
			  "reads nearly as much", (long long)(S * eb), sectors_b);
	sg_block1(r, (int)tpb);
	r->threads = s->in.n;
	/* the span loaded in a loop of run-time length, then a barrier: its trips by the iterations a thread runs (the
	   original has no such loop, so nothing cancels them in the speedup; dev sets' spans of 12-16 iterations ran
	   2.0-2.3x their time priced at two trips) */
	r->round_trips = sg_fill_trips(S, tpb);
	r->barrier_phases = 1; /* the block's range (a warp reduction, shared atomics), then a barrier: rule T9 */
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, (int)it, tpb * eb, "bx * %lld + tid", (long long)S);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, (int)it, tpb * eb, "tid");
	sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", a->index);
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, 1, 0, "gid");
	memcpy(r->block, a->block, sizeof(r->block)); /* EXPR's tid, lane, warp keep their values */
	sg_idx_call(s, "g", call, sizeof(call));
	sg_src(r, "%s  __shared__ T sm[%lld];\n  __shared__ long long lo_, hi_;\n"
	    "  const long long per = blockDim.x * blockDim.y * blockDim.z;\n"
	    "  const int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;\n"
	    "  const long long g = blockIdx.x * per + tid;\n"
	    "  if (tid == 0) { lo_ = 0x7fffffffffffffffLL; hi_ = -0x7fffffffffffffffLL; }\n  __syncthreads();\n"
	    "  const long long i = g < n_arg ? %s : 0;\n"
	    /* the block's range: a warp reduction, then one shared atomic a warp (whole warps only) */
	    "  long long a = g < n_arg ? i : 0x7fffffffffffffffLL, b = g < n_arg ? i : -0x7fffffffffffffffLL;\n"
	    "%s"
	    "  if ((tid & %d) == 0) { atomicMin(&lo_, a); atomicMax(&hi_, b); }\n  __syncthreads();\n"
	    "  const long long lo = lo_, span = hi_ - lo_ + 1;\n"
	    "  if (span > %lldLL) { if (g < n_arg) out[g] = in[i]; return; }\n"
	    "  for (long long k = tid; k < span; k += per) sm[k] = in[lo + k];\n  __syncthreads();\n"
	    "  if (g < n_arg) out[g] = sm[i - lo];\n}\n", sg_head, (long long)maxspan, call,
	    tpb % 32 ? "" : "  for (int d = 16; d > 0; d >>= 1) {\n"
	    "    const long long x = __shfl_xor_sync(0xffffffffu, a, d), y = __shfl_xor_sync(0xffffffffu, b, d);\n"
	    "    a = x < a ? x : a; b = y > b ? y : b;\n  }\n", tpb % 32 ? 0 : 31, (long long)maxspan);
	return 1;
}
