/*
 * suggest_rules.c - the rewrites of `explain --suggest`, one table entry each
 * (docs/SUGGEST.md): name, what it changes, applicability (why_not in one line
 * when it does not apply), the rewritten launch's access patterns for the
 * launch model, the CUDA source of its timed kernel gm_x_run.
 *
 * The kernels live in jit.cu's frame: T is the element, index_of(g, n, bdx,
 * bdy, bdz) the original's EXPR for its thread g, and the checker compares
 * every output element with what the original computes. A rewrite that
 * computes EXPR from the index map (the tiles) is checked the same way.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/suggest_internal.h"

#define TILE_ILP 4          /* rows a thread moves in the 2D tile (block 32 x 8), the ladder's v3 */
#define WORK_ILP 4          /* elements a thread moves in the block/work rewrite */
#define SPAN_MAX_BYTES (48 * 1024)
#define SPAN_BLOCKS 64      /* blocks whose span is evaluated */

typedef int (*rule_fn)(const struct gm_suggest *s, struct gm_rewrite *r);

static int no(struct gm_rewrite *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why_not, sizeof(r->why_not), fmt, ap);
	va_end(ap);
	return 0;
}

static int src(struct gm_rewrite *r, const char *fmt, ...)
{
	size_t len = strlen(r->src);
	va_list ap;

	va_start(ap, fmt);
	int k = vsnprintf(r->src + len, sizeof(r->src) - len, fmt, ap);
	va_end(ap);
	return k < 0 || (size_t)k >= sizeof(r->src) - len ? -1 : 0;
}

static const char *head =
	"extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, "
	"long long tile) {\n  (void)tile;\n";

/* index_of() with the original's block: EXPR of thread g, as the original computes it. */
static void idx_call(const struct gm_suggest *s, const char *g, char *out, size_t n)
{
	const int *b = s->in.a.block;

	snprintf(out, n, "index_of(%s, n_arg, %d, %d, %d)", g, b[0], b[1], b[2]);
}

static int64_t tpb_of(const int b[3])
{
	return (int64_t)b[0] * b[1] * b[2];
}

static void block1(struct gm_rewrite *r, int x)
{
	r->block[0] = x;
	r->block[1] = r->block[2] = 1;
}

static int needs_global(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return s->in.a.space == GM_SPACE_GLOBAL ? 1 : no(r, "a global-memory rewrite; EXPR indexes a shared tile");
}

static int needs_map(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return s->map.known ? 1 : no(r, "%s", s->map.why);
}

/* The EXPR side and the gid side of a launch that moves element g to/from EXPR(g). */
static void sides(const struct gm_suggest *s, struct gm_rewrite *r, int eb, int iters, int64_t e_step,
		  int64_t g_step, const char *e_idx, const char *g_idx)
{
	enum gm_op op = s->in.a.op;

	sg_pat(r, GM_SPACE_GLOBAL, op, eb, iters, e_step, "%s", e_idx);
	sg_pat(r, GM_SPACE_GLOBAL, op == GM_OP_LOAD ? GM_OP_STORE : GM_OP_LOAD, eb, iters, g_step, "%s", g_idx);
}

/* out[g] = in[i] (load) or out[i] = in[g] (store), C source. */
static const char *move_stmt(const struct gm_suggest *s)
{
	return s->in.a.op == GM_OP_LOAD ? "out[g] = in[i];" : "out[i] = in[g];";
}

/* ---- thread order -------------------------------------------------------------- */

/* The modes by |stride| (0 first): the order that puts consecutive EXPR values on consecutive threads. */
static void sorted_modes(const struct gm_index_map *m, int ord[GM_SUGGEST_MODES])
{
	for (int k = 0; k < m->nmodes; k++)
		ord[k] = k;
	for (int i = 1; i < m->nmodes; i++)
		for (int j = i; j > 0; j--) {
			int64_t a = m->stride[ord[j]] < 0 ? -m->stride[ord[j]] : m->stride[ord[j]];
			int64_t b = m->stride[ord[j - 1]] < 0 ? -m->stride[ord[j - 1]] : m->stride[ord[j - 1]];
			if (a >= b)
				break;
			int t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
}

static int covers_n(const struct gm_suggest *s)
{
	const struct gm_index_map *m = &s->map;
	int last = m->nmodes - 1;

	return m->nmodes > 0 && m->div[last] * m->size[last] == s->in.n;
}

static int rule_thread_order(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_index_map *m = &s->map;
	char g[512] = "", e[512] = "", c_g[640] = "", call[96];
	int ord[GM_SUGGEST_MODES];
	int64_t D = 1;

	snprintf(r->change, sizeof(r->change), "threads take gids in the order of their EXPR values: consecutive "
		 "lanes %s consecutive elements", s->in.a.op == GM_OP_LOAD ? "load" : "store");
	if (!needs_global(s, r) || !needs_map(s, r))
		return 0;
	if (m->nmodes < 2)
		return no(r, "EXPR has one mode (stride %lld): every order of the threads spaces the lanes alike",
			  (long long)(m->nmodes ? m->stride[0] : 0));
	sorted_modes(m, ord);
	if (ord[0] == 0)
		return no(r, "lanes already take the mode of smallest stride (%lld elements)", (long long)m->stride[0]);
	if (!covers_n(s))
		return no(r, "n (%lld) is no whole number of the map's periods: the reordering is not a permutation",
			  (long long)s->in.n);
	for (int j = 0; j < m->nmodes; j++) {
		int k = ord[j];
		size_t lg = strlen(g), le = strlen(e), lc = strlen(c_g);
		char dig[96];
		/* the last digit runs to the end of the launch: no modulo (rule D7 reads one as periodic) */
		if (j == m->nmodes - 1)
			snprintf(dig, sizeof(dig), "(gid / %lld)", (long long)D);
		else
			snprintf(dig, sizeof(dig), "(gid / %lld %% %lld)", (long long)D, (long long)m->size[k]);
		snprintf(g + lg, sizeof(g) - lg, "%s%s * %lld", j ? " + " : "", dig, (long long)m->div[k]);
		snprintf(e + le, sizeof(e) - le, " + %s * %lld", dig, (long long)m->stride[k]);
		snprintf(c_g + lc, sizeof(c_g) - lc, "%s(t / %lldLL %% %lldLL) * %lldLL", j ? " + " : "", (long long)D,
			 (long long)m->size[k], (long long)m->div[k]);
		D *= m->size[k];
	}
	char ex[600];
	snprintf(ex, sizeof(ex), "%lld%s", (long long)m->offset, e);
	block1(r, 256);
	r->threads = s->in.n;
	r->round_trips = 1;
	sides(s, r, s->in.a.elem_bytes, 1, 0, 0, ex, g);
	idx_call(s, "g", call, sizeof(call));
	src(r, "%s  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	    "  if (t >= n_arg) return;\n  const long long g = %s;\n  const long long i = %s;\n  %s\n}\n",
	    head, c_g, call, move_stmt(s));
	return 1;
}

/* ---- the 2D tile of a transpose --------------------------------------------------- */

struct tr { int kr, kc; int64_t R, C, P, TR; };

/* A transpose: one mode consecutive in gid (rows R, EXPR pitch P), the other consecutive in EXPR (C). */
static int transpose_of(const struct gm_suggest *s, struct gm_rewrite *r, struct tr *t)
{
	const struct gm_index_map *m = &s->map;

	if (!needs_global(s, r) || !needs_map(s, r))
		return 0;
	if (m->nmodes != 2 || m->div[0] != 1 || m->stride[1] != 1)
		return no(r, "not a transpose: needs two modes, the first consecutive in gid, the second in EXPR "
			  "(found %d mode%s)", m->nmodes, m->nmodes == 1 ? "" : "s");
	/* loads may read an element twice in any order; stores to overlapping rows would race */
	if (m->stride[0] < m->size[1] && s->in.a.op == GM_OP_STORE)
		return no(r, "stores: rows of %lld elements overlap at a pitch of %lld (two threads write one element)",
			  (long long)m->size[1], (long long)m->stride[0]);
	if (!covers_n(s))
		return no(r, "n (%lld) is no whole number of rows", (long long)s->in.n);
	if (m->size[0] < 32 || m->size[1] < 32)
		return no(r, "a %lld x %lld matrix: a 32 x 32 tile would stay mostly empty", (long long)m->size[0],
			  (long long)m->size[1]);
	t->kr = 0;
	t->kc = 1;
	t->R = m->size[0];
	t->C = m->size[1];
	t->P = m->stride[0];
	t->TR = (t->R + 31) / 32;
	return 1;
}

/* slot of tile row rl, column cl (strings); -1 when out is too small */
static int slot(int xor_, const char *rl, const char *cl, char *out, size_t n)
{
	int k = xor_ ? snprintf(out, n, "(%s) * 32 + ((%s) ^ (%s))", rl, cl, rl)
		     : snprintf(out, n, "(%s) * 33 + (%s)", rl, cl);

	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static int tile_rule(const struct gm_suggest *s, struct gm_rewrite *r, int xor_)
{
	struct tr t = { 0, 0, 0, 0, 0, 0 };
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
	/* E side rows along ty (coalesced on c = tx), g side rows along tx */
	char e_idx[200], g_idx[200];
	snprintf(e_idx, sizeof(e_idx), "%lld + %lld * ((bx %% %lld) * 32 + ty) + (bx / %lld) * 32 + tx",
		 (long long)s->map.offset, (long long)t.P, (long long)t.TR, (long long)t.TR);
	snprintf(g_idx, sizeof(g_idx), "(bx %% %lld) * 32 + tx + %lld * ((bx / %lld) * 32 + ty)", (long long)t.TR,
		 (long long)t.R, (long long)t.TR);
	/* the side loaded first: E for load, g for store */
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, TILE_ILP, (ld ? 8 * t.P : 8 * t.R) * eb, "%s", ld ? e_idx : g_idx);
	for (int j = 0; j < TILE_ILP; j++) {
		snprintf(b, sizeof(b), "ty + %d", 8 * j);
		/* load: tile[r_local = ty+8j][c_local = tx]; store: tile[tx][ty+8j] */
		if (slot(xor_, ld ? b : "tx", ld ? "tx" : b, a, sizeof(a)))
			return no(r, "the tile's slot expression is too long");
		sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, 1, 0, "%s", a);
		if (slot(xor_, ld ? "tx" : b, ld ? b : "tx", a, sizeof(a)))
			return no(r, "the tile's slot expression is too long");
		sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", a);
	}
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, TILE_ILP, (ld ? 8 * t.R : 8 * t.P) * eb, "%s", ld ? g_idx : e_idx);
	/* the kernel */
	char s1[240], s2[240];
	if (slot(xor_, "ty + j", "tx", s1, sizeof(s1)) || slot(xor_, "tx", "ty + j", s2, sizeof(s2)))
		return no(r, "the tile's slot expression is too long");
	src(r, "%s  __shared__ T sm[32 * 33];\n"
	    "  const long long tr = blockIdx.x %% %lldLL, tc = blockIdx.x / %lldLL;\n"
	    "  const int tx = threadIdx.x, ty = threadIdx.y;\n"
	    "  const long long R = %lldLL, C = %lldLL, P = %lldLL, E0 = %lldLL;\n", head, (long long)t.TR,
	    (long long)t.TR, (long long)t.R, (long long)t.C, (long long)t.P, (long long)s->map.offset);
	if (ld)
		src(r, "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const long long r = tr * 32 + ty + j, c = tc * 32 + tx;\n"
		    "    if (r < R && c < C) sm[%s] = in[E0 + P * r + c];\n  }\n  __syncthreads();\n"
		    "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const long long r = tr * 32 + tx, c = tc * 32 + ty + j;\n"
		    "    if (r < R && c < C) out[r + R * c] = sm[%s];\n  }\n}\n", s1, s2);
	else
		src(r, "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const long long r = tr * 32 + tx, c = tc * 32 + ty + j;\n"
		    "    if (r < R && c < C) sm[%s] = in[r + R * c];\n  }\n  __syncthreads();\n"
		    "#pragma unroll\n  for (int j = 0; j < 32; j += 8) {\n"
		    "    const long long r = tr * 32 + ty + j, c = tc * 32 + tx;\n"
		    "    if (r < R && c < C) out[E0 + P * r + c] = sm[%s];\n  }\n}\n", s2, s1);
	return 1;
}

static int rule_tile_padded(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return tile_rule(s, r, 0);
}

static int rule_tile_xor(const struct gm_suggest *s, struct gm_rewrite *r)
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
static int rule_tile_wide(const struct gm_suggest *s, struct gm_rewrite *r)
{
	struct tr t = { 0, 0, 0, 0, 0, 0 };
	int eb = s->in.a.elem_bytes, ld = s->in.a.op == GM_OP_LOAD;
	int64_t E0 = s->map.offset;

	snprintf(r->change, sizeof(r->change), "64x64 shared tile, block 32x8, 16 B loads and stores on both global "
		 "sides (4x4 blocks transposed in registers, XOR-swizzled 16 B slots)");
	if (!transpose_of(s, r, &t))
		return 0;
	if (eb != 4)
		return no(r, "%d B elements: the 16 B vectors are built for 4 elements of 4 B", eb);
	if (t.R % 4 || t.C % 4 || t.P % 4 || E0 % 4 || E0 < 0)
		return no(r, "a %lld x %lld transpose at pitch %lld, offset %lld: 16 B accesses need all four multiples "
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
	src(r, "%s  typedef %s I;\n  __shared__ __align__(16) uint4 sm[64 * 16];\n"
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
	    head, I, (long long)TA, (long long)TA, (long long)NA, L, (long long)NB, L, (long long)PA, L, (long long)OA, L,
	    (long long)PB, L, (long long)OB, L);
	return 1;
}

/* ---- staging a block's span through shared memory --------------------------------- */

static int rule_stage_span(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_access *a = &s->in.a;
	int64_t tpb = tpb_of(a->block), blocks = (s->in.n + tpb - 1) / tpb, maxspan = 0;
	double sum = 0;
	int counted = 0, eb = a->elem_bytes;
	struct gm_expr *e = NULL;
	struct gm_expr_error err;
	char call[96];

	snprintf(r->change, sizeof(r->change), "each block loads the span of in its threads need, coalesced, into "
		 "shared memory, then gathers from it");
	if (!needs_global(s, r))
		return 0;
	if (a->op != GM_OP_LOAD)
		return no(r, "stores: a block's scattered stores cannot be staged without knowing who writes what");
	if (s->waste < 1.5)
		return no(r, "the loads are already coalesced (%.1f sectors a warp, %d at least)", s->sectors_per_warp,
			  eb);
	if (gm_expr_parse(a->index, &e, &err))
		return no(r, "EXPR cannot be evaluated");
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
	if (!counted || maxspan * eb > SPAN_MAX_BYTES)
		return no(r, "a block's span is %lld elements (%lld KiB), past %d KiB of shared memory",
			  (long long)maxspan, (long long)(maxspan * eb / 1024), SPAN_MAX_BYTES / 1024);
	int64_t S = (int64_t)(sum / counted + 0.5), it = (S + tpb - 1) / tpb;
	double sectors_b = s->sectors_per_warp * 32.0 * (double)((tpb + 31) / 32);
	if (2.0 * (double)S * eb > sectors_b)
		return no(r, "a block's span (%lld B) is not half the sectors its loads touch (%.0f B): staging "
			  "reads nearly as much", (long long)(S * eb), sectors_b);
	block1(r, (int)tpb);
	r->threads = s->in.n;
	r->round_trips = 1;
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, (int)it, tpb * eb, "bx * %lld + tid", (long long)S);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, (int)it, tpb * eb, "tid");
	sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", a->index);
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, 1, 0, "gid");
	memcpy(r->block, a->block, sizeof(r->block)); /* EXPR's tid, lane, warp keep their values */
	idx_call(s, "g", call, sizeof(call));
	src(r, "%s  __shared__ T sm[%lld];\n  __shared__ long long lo_, hi_;\n"
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
	    "  if (g < n_arg) out[g] = sm[i - lo];\n}\n", head, (long long)maxspan, call,
	    tpb % 32 ? "" : "  for (int d = 16; d > 0; d >>= 1) {\n"
	    "    const long long x = __shfl_xor_sync(0xffffffffu, a, d), y = __shfl_xor_sync(0xffffffffu, b, d);\n"
	    "    a = x < a ? x : a; b = y > b ? y : b;\n  }\n", tpb % 32 ? 0 : 31, (long long)maxspan);
	return 1;
}

/* ---- wider elements ------------------------------------------------------------- */

static const char *word_of(int bytes)
{
	return bytes == 2 ? "unsigned short" : bytes == 4 ? "unsigned" : bytes == 8 ? "uint2" : "uint4";
}

/*
 * The widest V (<= 16 B) for which V consecutive threads move V consecutive, V-aligned elements: in order
 * (first mode stride 1, *rev = 0), or reversed (stride -1, *rev = 1: thread g's element is the top of its
 * vector, which starts V - 1 elements below it).
 */
static int wide_v(const struct gm_suggest *s, int *rev)
{
	const struct gm_index_map *m = &s->map;
	int eb = s->in.a.elem_bytes;

	*rev = m->nmodes > 0 && m->stride[0] == -1;
	for (int V = 16 / eb; V >= 2; V /= 2) {
		int64_t first = *rev ? m->offset - (V - 1) : m->offset;
		int ok = m->nmodes > 0 && m->div[0] == 1 && (m->stride[0] == 1 || m->stride[0] == -1) &&
			 m->size[0] % V == 0 && first % V == 0 && first >= 0 && s->in.n % V == 0;
		for (int k = 1; ok && k < m->nmodes; k++)
			ok = m->stride[k] % V == 0;
		if (ok)
			return V;
	}
	return 0;
}

/* The reversed vector move: one V-wide load, its elements reversed in registers, one V-wide store. */
static const char *const wide_reversed_src =
	"  union { W w; T e[%d]; } a, b;\n"
	"  a.w = *(const W *)(in + %s);\n"
	"#pragma unroll\n  for (int j = 0; j < %d; j++) b.e[j] = a.e[%d - j];\n"
	"  *(W *)(out + %s) = b.w;\n}\n";

static int rule_wide(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_index_map *m = &s->map;
	int eb = s->in.a.elem_bytes, V, rev, ld = s->in.a.op == GM_OP_LOAD;
	char call[96], e[512];

	snprintf(r->change, sizeof(r->change), "each thread moves several consecutive elements with one vector "
		 "load and one vector store");
	if (!needs_global(s, r) || !needs_map(s, r))
		return 0;
	if (eb >= 16)
		return no(r, "elements are 16 B already, the widest access");
	if (!(V = wide_v(s, &rev)))
		return no(r, "consecutive threads do not move consecutive, aligned elements, in order or reversed (first "
			  "mode: %lld elements at stride %lld, offset %lld)", (long long)(m->nmodes ? m->size[0] : 0),
			  (long long)(m->nmodes ? m->stride[0] : 0), (long long)m->offset);
	struct gm_index_map w = *m;
	w.size[0] /= V;
	w.stride[0] = rev ? -V : V; /* a vector a step: V elements (the map's units, divided by V below) */
	if (rev)
		w.offset -= V - 1; /* the lowest vector's first element */
	for (int k = 1; k < w.nmodes; k++)
		w.div[k] /= V;
	if (gm_index_map_expr(&w, "gid", V, e, sizeof(e)) < 0)
		return no(r, "the index map is too long to describe");
	snprintf(r->change, sizeof(r->change), "each thread moves %d consecutive elements with one %d B load and "
		 "one %d B store%s", V, V * eb, V * eb, rev ? ", reversed in registers (the index runs down)" : "");
	block1(r, 256);
	r->threads = s->in.n / V;
	r->round_trips = 1;
	sides(s, r, V * eb, 1, 0, 0, e, "gid");
	idx_call(s, "g", call, sizeof(call));
	src(r, "%s  typedef %s W;\n  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	    "  const long long g = t * %d;\n  if (g >= n_arg) return;\n  const long long i = %s;\n", head,
	    word_of(V * eb), V, call);
	if (rev) {
		char low[32];
		snprintf(low, sizeof(low), "i - %d", V - 1);
		src(r, wide_reversed_src, V, ld ? low : "g", V, V - 1, ld ? "g" : low);
	} else
		src(r, ld ? "  *(W *)(out + g) = *(const W *)(in + i);\n}\n"
			  : "  *(W *)(out + i) = *(const W *)(in + g);\n}\n");
	return 1;
}

/* ---- block size and work per thread ---------------------------------------------- */

static int rule_block_work(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const char *lim = s->rows[0].pred.limited_by;
	int eb = s->in.a.elem_bytes;
	int64_t T;
	char call[96];

	snprintf(r->change, sizeof(r->change), "blocks of 256, %d elements a thread (all loads issued before "
		 "the stores)", WORK_ILP);
	if (!needs_global(s, r) || !needs_map(s, r))
		return 0;
	if (!lim || (strcmp(lim, "blocks") && strcmp(lim, "latency")))
		return no(r, "the model says the original is limited by %s, not by blocks or latency", lim ? lim : "?");
	T = (s->in.n + WORK_ILP - 1) / WORK_ILP;
	block1(r, 256);
	r->threads = T;
	r->round_trips = 1;
	for (int k = 0; k < WORK_ILP; k++) {
		char g[64], e[600];
		snprintf(g, sizeof(g), "(gid + %lld)", (long long)(k * T));
		if (gm_index_map_expr(&s->map, g, 1, e, sizeof(e)) < 0)
			return no(r, "the index map is too long to describe");
		sides(s, r, eb, 1, 0, 0, e, g);
	}
	idx_call(s, "g", call, sizeof(call));
	src(r, "%s  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x, T_ = %lldLL;\n"
	    "  T v[%d]; long long at[%d];\n"
	    "#pragma unroll\n  for (int k = 0; k < %d; k++) {\n    const long long g = t + k * T_;\n"
	    "    if (g < n_arg) { const long long i = %s; %s }\n  }\n"
	    "#pragma unroll\n  for (int k = 0; k < %d; k++)\n    if (t + k * T_ < n_arg) out[at[k]] = v[k];\n}\n",
	    head, (long long)T, WORK_ILP, WORK_ILP, WORK_ILP, call,
	    s->in.a.op == GM_OP_LOAD ? "v[k] = in[i]; at[k] = g;" : "v[k] = in[g]; at[k] = i;", WORK_ILP);
	return 1;
}

/* ---- cache hints ------------------------------------------------------------------ */

static int rule_cache_hint(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_launch_out *o = &s->rows[0].pred;
	int reuse = o->l2_reuse_bytes > 0 || o->l1_load_sectors > 1.05 * o->l2_load_sectors;

	snprintf(r->change, sizeof(r->change), "cache hint on the EXPR side");
	if (!needs_global(s, r))
		return 0;
	if (s->in.hint)
		return no(r, "the original already carries a hint");
	if (s->in.a.op == GM_OP_STORE)
		return no(r, "stores: the model has no reuse of the output that a hint would keep or spare");
	if (!reuse)
		return no(r, "the model finds no sector read twice: no reuse for a hint to keep");
	r->hint = 4; /* GM_HINT_NC */
	if (o->l2_reuse_bytes > 0)
		snprintf(r->change, sizeof(r->change), "loads through the read-only path (__ldg): the model finds %.3g B "
			 "of loads served again by L2", o->l2_reuse_bytes);
	else
		snprintf(r->change, sizeof(r->change), "loads through the read-only path (__ldg): the model finds %.3g of "
			 "%.3g load sectors served again by L1", o->l1_load_sectors - o->l2_load_sectors,
			 o->l1_load_sectors);
	for (int k = 0; k < s->rows[0].npats; k++) {
		const struct gm_rewrite *o0 = &s->rows[0];
		sg_pat(r, o0->pats[k].space, o0->pats[k].op, o0->pats[k].elem_bytes, o0->rep[k].iters,
		       o0->rep[k].step_bytes, "%s", o0->idx[k]);
	}
	memcpy(r->block, s->rows[0].block, sizeof(r->block));
	r->threads = s->in.n;
	r->round_trips = 1;
	snprintf(r->note, sizeof(r->note), "the launch model has no rule for hints: predicted as the original");
	return 1;
}

/* ---- alignment -------------------------------------------------------------------- */

static int rule_align(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_index_map *m = &s->map;
	int eb = s->in.a.elem_bytes, contiguous = 0;
	int64_t off = m->offset * eb;

	snprintf(r->change, sizeof(r->change), "the array EXPR indexes starts so that its first element read "
		 "begins a 128 B line");
	if (!needs_global(s, r) || !needs_map(s, r))
		return 0;
	for (int k = 0; k < m->nmodes; k++) {
		contiguous |= m->stride[k] == 1;
		if (m->stride[k] != 1 && m->stride[k] != 0 && m->stride[k] * eb % 32)
			return no(r, "rows are %lld B apart, no multiple of 32: one base cannot align them all",
				  (long long)(m->stride[k] * eb));
	}
	if (!contiguous)
		return no(r, "no mode reads consecutive elements: alignment changes no sector count");
	if (((off % 32) + 32) % 32 == 0)
		return no(r, "EXPR's first element (offset %lld B) already starts a sector", (long long)off);
	int64_t pad = ((-off) % 128 + 128) % 128;
	snprintf(r->change, sizeof(r->change), "%s starts %lld B past a 128 B boundary, so element %lld (the first "
		 "EXPR reaches) begins a line", s->in.a.op == GM_OP_LOAD ? "in" : "out", (long long)pad,
		 (long long)m->offset);
	if (s->in.a.op == GM_OP_LOAD)
		r->in_pad_bytes = pad;
	else
		r->out_pad_bytes = pad;
	for (int k = 0; k < s->rows[0].npats; k++) {
		const struct gm_rewrite *o0 = &s->rows[0];
		sg_pat(r, o0->pats[k].space, o0->pats[k].op, o0->pats[k].elem_bytes, 1, 0, "%s", o0->idx[k]);
	}
	r->pats[0].base = pad;
	memcpy(r->block, s->in.a.block, sizeof(r->block));
	r->threads = s->in.n;
	r->round_trips = 1;
	return 1;
}

/* ---- data layout ------------------------------------------------------------------ */

/* No two gids reach the same EXPR: sorted by |stride|, each mode steps past the span of the smaller ones. */
static int map_injective(const struct gm_index_map *m)
{
	int ord[GM_SUGGEST_MODES];
	int64_t span = 0;

	sorted_modes(m, ord);
	for (int j = 0; j < m->nmodes; j++) {
		int64_t st = m->stride[ord[j]] < 0 ? -m->stride[ord[j]] : m->stride[ord[j]];
		if (m->size[ord[j]] > 1 && st <= span)
			return 0;
		span += st * (m->size[ord[j]] - 1);
	}
	return 1;
}

/*
 * Loads: in stored in the order the threads read it (lay[gid] = in[EXPR(gid)]), converted once. Stores: out
 * kept compact (cp[gid] holds what the original stores at out[EXPR(gid)], the layout its consumer reads),
 * scattered to the strided layout once where a consumer needs that. Either way the kernel becomes a copy and
 * the conversion, one launch of the original's access, is stated beside the row and counted in its headline
 * speedup and rank, unless the user says the data can live in the new layout (in.layout_free).
 */
static int rule_layout(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_index_map *m = &s->map;
	int eb = s->in.a.elem_bytes, ld = s->in.a.op == GM_OP_LOAD;

	snprintf(r->change, sizeof(r->change), ld ? "in stored in the order the threads read it (lay[gid] = "
		 "in[EXPR(gid)], structure of arrays): the kernel becomes a copy" : "out kept compact (cp[gid] = "
		 "what out[EXPR(gid)] holds): the kernel becomes a copy");
	if (!needs_global(s, r))
		return 0;
	if (s->waste < 1.5)
		return no(r, "the %s are already coalesced (%.1f sectors a warp, %d at least)", ld ? "loads" : "stores",
			  s->sectors_per_warp, eb);
	if (!ld && !m->known)
		return no(r, "stores: %s, so no compact array can be shown to hold the original's out", m->why);
	if (!ld && !map_injective(m))
		return no(r, "stores: two threads write one element of out; a compact array would keep both");
	if (m->known && m->nmodes >= 2) {
		int ord[GM_SUGGEST_MODES];
		sorted_modes(m, ord);
		if (m->stride[ord[0]] == 1 || m->stride[ord[0]] == -1)
			return no(r, "a kernel-side rewrite reaches the same coalescing (a mode of EXPR is consecutive)");
	}
	/* the kernel becomes a copy: moved 16 B a thread where n allows (the wide rule's access) */
	int V = 16 / eb;
	while (V > 1 && s->in.n % V)
		V /= 2;
	block1(r, 256);
	r->threads = s->in.n / V;
	r->round_trips = 1;
	r->layout = 1;
	sides(s, r, V * eb, 1, 0, 0, "gid", "gid");
	if (ld) {
		snprintf(r->change, sizeof(r->change), "in stored in the order the threads read it (lay[gid] = "
			 "in[EXPR(gid)], structure of arrays): the kernel becomes a copy, %d B a thread", V * eb);
		snprintf(r->note, sizeof(r->note), "conversion once: one launch of the original (predicted %.3f ms) "
			 "writes lay; %s", s->rows[0].pred.time_ms, s->in.layout_free ? "left out (--layout-free)" :
			 "in the speedup (--layout-free: the data lives in this layout)");
	} else {
		snprintf(r->change, sizeof(r->change), "out kept compact, the layout its consumer reads (cp[gid] = "
			 "what out[EXPR(gid)] holds): the kernel becomes a copy, %d B a thread", V * eb);
		snprintf(r->note, sizeof(r->note), "conversion once, where out must stay strided: one launch of the "
			 "original (predicted %.3f ms) scatters cp; %s", s->rows[0].pred.time_ms, s->in.layout_free ?
			 "left out (--layout-free)" : "in the speedup (--layout-free: the data lives in this layout)");
	}
	src(r, "%s  typedef %s W; /* %s */\n"
	    "  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	    "  if (t * %d < n_arg) ((W *)out)[t] = ((const W *)in)[t];\n}\n", head, V > 1 ? word_of(V * eb) : "T",
	    ld ? "in is lay, the converted array" : "out is cp, the compact array", V);
	return 1;
}

/* ---- shared memory: padding and XOR swizzle ---------------------------------------- */

static int smem_rule(const struct gm_suggest *s, struct gm_rewrite *r, int xor_)
{
	const struct gm_access *a = &s->in.a;
	struct gm_prediction p;
	struct gm_expr_error err;
	struct gm_access w = *a;
	int eb = a->elem_bytes, W = 128 / eb;
	int64_t tpb = tpb_of(a->block), S = s->tile_elems, it = (S + tpb - 1) / tpb;
	char expr_c[2048], f[64];

	snprintf(r->change, sizeof(r->change), xor_ ? "tile slot i ^ (i / %d %% %d): a row of 128 B XOR-swizzled "
		 "by its row number" : "tile slot i + i / %d: one element of padding after every 128 B", W, W);
	if (a->space != GM_SPACE_SHARED)
		return no(r, "a shared-memory rewrite (--space shared)");
	w.warp = 0;
	memset(w.block_idx, 0, sizeof(w.block_idx));
	w.n_threads = s->in.n;
	if (gm_model_predict(&w, &p, &err) != GM_OK)
		return no(r, "the warp model cannot evaluate EXPR: %.120s", err.msg);
	if (p.shared.bank_conflicts == 0)
		return no(r, "no bank conflict (%lld wavefronts, the ideal)", (long long)p.shared.wavefronts);
	if ((S + S / W + W) * eb > SPAN_MAX_BYTES)
		return no(r, "the tile with its padding (%lld B) is past 48 KiB", (long long)((S + S / W + W) * eb));
	if (gm_expr_to_c(a->index, expr_c, sizeof(expr_c), &err))
		return no(r, "EXPR does not translate to C");
	if (xor_)
		snprintf(f, sizeof(f), "((%%s) ^ ((%%s) / %d %% %d))", W, W);
	else
		snprintf(f, sizeof(f), "((%%s) + (%%s) / %d)", W);
	char fi[1200], ft[64];
	snprintf(fi, sizeof(fi), f, a->index, a->index);
	snprintf(ft, sizeof(ft), f, "tid", "tid");
	memcpy(r->block, a->block, sizeof(r->block));
	r->threads = s->in.n;
	r->round_trips = 1;
	r->smem_padded = 1;
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, (int)it, tpb * eb, "bx*%lld + tid", (long long)S);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, (int)it, tpb * eb, "%s", ft);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", fi);
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, 1, 0, "gid");
	src(r, "extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, "
	    "long long tile) {\n  extern __shared__ __align__(16) unsigned char smem_[];\n  T *tile_ = (T *)smem_;\n%s",
	    gm_expr_c_prelude());
	if (xor_)
		src(r, "#define F_(i) ((i) ^ ((i) / %d %% %d))\n", W, W);
	else
		src(r, "#define F_(i) ((i) + (i) / %d)\n", W);
	src(r, "  const long long per_ = bdx_ * bdy_ * bdz_;\n"
	    "  for (long long k = tid_; k < tile; k += per_) tile_[F_(k)] = in[bx_ * tile + k];\n"
	    "  __syncthreads();\n  if (gid_ >= n_) return;\n  const long long i = (%s);\n"
	    "  out[gid_] = tile_[F_(i)];\n}\n#undef F_\n", expr_c);
	return 1;
}

static int rule_smem_pad(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return smem_rule(s, r, 0);
}

static int rule_smem_xor(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return smem_rule(s, r, 1);
}

/* ---- the rows a rule appends -------------------------------------------------- */

int sg_pat(struct gm_rewrite *r, enum gm_space sp, enum gm_op op, int eb, int iters, int64_t step_bytes,
	   const char *fmt, ...)
{
	va_list ap;
	int k = r->npats;

	if (k >= GM_SUGGEST_PATS)
		return -1;
	va_start(ap, fmt);
	int len = vsnprintf(r->idx[k], sizeof(r->idx[k]), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(r->idx[k]))
		return -1;
	memset(&r->pats[k], 0, sizeof(r->pats[k]));
	r->pats[k].space = sp;
	r->pats[k].op = op;
	r->pats[k].elem_bytes = eb;
	r->rep[k] = (struct gm_repeat){ iters, step_bytes, 1, 0 };
	r->npats++;
	return 0;
}

/* ---- the table ---------------------------------------------------------------------- */

static const struct {
	const char *name;
	rule_fn build;
} rules[] = {
	{ "thread_order", rule_thread_order },
	{ "tile_padded", rule_tile_padded },
	{ "tile_xor", rule_tile_xor },
	{ "tile_wide", rule_tile_wide },
	{ "stage_span", rule_stage_span },
	{ "wide", rule_wide },
	{ "block_work", rule_block_work },
	{ "cache_hint", rule_cache_hint },
	{ "align", rule_align },
	{ "layout", rule_layout },
	{ "smem_pad", rule_smem_pad },
	{ "smem_xor", rule_smem_xor },
};

/* every rule gets a row beside the original's: a table past the rows' room stops the build, never a rule */
_Static_assert(sizeof(rules) / sizeof(rules[0]) + 1 <= GM_SUGGEST_MAX,
	       "the rewrite table has more rules than struct gm_suggest has rows: raise GM_SUGGEST_MAX");

const char *gm_suggest_rule_name(int k)
{
	return k >= 0 && k < (int)(sizeof(rules) / sizeof(rules[0])) ? rules[k].name : NULL;
}

void sg_rule_build(int k, const struct gm_suggest *s, struct gm_rewrite *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", rules[k].name);
	r->hint = s->in.hint;
	r->applies = rules[k].build(s, r);
	if (r->applies && strlen(r->src) + 1 >= sizeof(r->src)) {
		r->applies = 0;
		snprintf(r->why_not, sizeof(r->why_not), "the generated kernel is too long");
	}
}
