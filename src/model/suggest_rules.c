/*
 * suggest_rules.c - the rewrites of `explain --suggest`, one table entry each
 * (docs/SUGGEST.md): name, what it changes, applicability (why_not in one line
 * when it does not apply), the rewritten launch's access patterns for the
 * launch model, the CUDA source of its timed kernel gm_x_run. The shared-memory
 * tiles are suggest_tiles.c's; the pieces every rule uses, suggest_kit.c's.
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

#define WORK_ILP 4          /* elements a thread moves in the block/work rewrite */
/*
 * block_work: thread t's elements lie WORK_SPAN apart, inside the range of WORK_ILP x WORK_SPAN elements its 32
 * blocks of 256 share, so that a wave of resident threads reads (and writes) one range, as a copy does. With a
 * thread's elements n / WORK_ILP apart (until h40s) a wave read four ranges and wrote four. H200, development
 * patterns of dev-s39 (results/nvidia-h200/suggest-bw-e199448/): elements 256 apart in a block's 1024 took up to
 * 14 % less time than n / 4 apart, and 0-10 % less than this form; but each of their patterns covers a quarter of
 * every 1024 elements, which rule D3 (the density of each pattern) takes for a sparse read where EXPR splits the
 * range (m49: 2.04x predicted, 2.33x measured). WORK_SPAN is the model's window (256 warps): each element's
 * pattern covers whole ranges of it, and D3 sees the density the four have together.
 */
#define WORK_SPAN 8192

typedef int (*rule_fn)(const struct gm_suggest *s, struct gm_rewrite *r);

/* ---- thread order -------------------------------------------------------------- */

static int rule_thread_order(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_index_map *m = &s->map;
	char g[512] = "", e[512] = "";
	int ord[GM_SUGGEST_MODES];
	int64_t D = 1;

	snprintf(r->change, sizeof(r->change), "threads take gids in the order of their EXPR values: consecutive "
		 "lanes %s consecutive elements", s->in.a.op == GM_OP_LOAD ? "load" : "store");
	if (!sg_needs_global(s, r) || !sg_needs_map(s, r))
		return 0;
	if (m->nmodes < 2)
		return sg_no(r, "EXPR has one mode (stride %lld): every order of the threads spaces the lanes alike",
			  (long long)(m->nmodes ? m->stride[0] : 0));
	sg_sorted_modes(m, ord);
	if (ord[0] == 0)
		return sg_no(r, "lanes already take the mode of smallest stride (%lld elements)", (long long)m->stride[0]);
	if (!sg_covers_n(s))
		return sg_no(r, "n (%lld) is no whole number of the map's periods: the reordering is not a permutation",
			  (long long)s->in.n);
	for (int j = 0; j < m->nmodes; j++) {
		int k = ord[j];
		size_t lg = strlen(g), le = strlen(e);
		char dig[96];
		/* the last digit runs to the end of the launch: no modulo (rule D7 reads one as periodic) */
		if (j == m->nmodes - 1)
			snprintf(dig, sizeof(dig), "(gid / %lld)", (long long)D);
		else
			snprintf(dig, sizeof(dig), "(gid / %lld %% %lld)", (long long)D, (long long)m->size[k]);
		snprintf(g + lg, sizeof(g) - lg, "%s%s * %lld", j ? " + " : "", dig, (long long)m->div[k]);
		snprintf(e + le, sizeof(e) - le, " + %s * %lld", dig, (long long)m->stride[k]);
		D *= m->size[k];
	}
	char ex[600];
	snprintf(ex, sizeof(ex), "%lld%s", (long long)m->offset, e);
	sg_block1(r, 256);
	r->threads = s->in.n;
	r->round_trips = 1;
	sg_sides(s, r, s->in.a.elem_bytes, 1, 0, 0, ex, g);
	/* the kernel: the original's thread from the map's digits, in 32-bit arithmetic where they fit; its EXPR as the
	   original computes it (the map is checked on sampled threads only: an index from it could leave the array) */
	int narrow = s->in.n + 256 <= INT32_MAX;
	char kg[640], call[96];
	if (sg_order_c(m, ord, "t", narrow, kg, sizeof(kg)))
		return sg_no(r, "the index map is too long to describe");
	sg_idx_call(s, "(long long)g", call, sizeof(call));
	sg_src(r, "%s  typedef %s U;\n  const U t = (U)blockIdx.x * blockDim.x + threadIdx.x;\n"
	    "  if ((long long)t >= n_arg) return;\n  const U g = %s;\n  const long long i = %s;\n  %s\n}\n",
	    sg_head, narrow ? "unsigned" : "unsigned long long", kg, call, sg_move_stmt(s));
	return 1;
}

/* ---- wider elements ------------------------------------------------------------- */

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
	if (!sg_needs_global(s, r) || !sg_needs_map(s, r))
		return 0;
	if (eb >= 16)
		return sg_no(r, "elements are 16 B already, the widest access");
	if (!(V = wide_v(s, &rev)))
		return sg_no(r, "consecutive threads do not move consecutive, aligned elements, in order or reversed (first "
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
		return sg_no(r, "the index map is too long to describe");
	snprintf(r->change, sizeof(r->change), "each thread moves %d consecutive elements with one %d B load and "
		 "one %d B store%s", V, V * eb, V * eb, rev ? ", reversed in registers (the index runs down)" : "");
	sg_block1(r, 256);
	r->threads = s->in.n / V;
	r->round_trips = 1;
	sg_sides(s, r, V * eb, 1, 0, 0, e, "gid");
	sg_idx_call(s, "g", call, sizeof(call));
	sg_src(r, "%s  typedef %s W;\n  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	    "  const long long g = t * %d;\n  if (g >= n_arg) return;\n  const long long i = %s;\n", sg_head,
	    sg_word_of(V * eb), V, call);
	if (rev) {
		char low[32];
		snprintf(low, sizeof(low), "i - %d", V - 1);
		sg_src(r, wide_reversed_src, V, ld ? low : "g", V, V - 1, ld ? "g" : low);
	} else
		sg_src(r, ld ? "  *(W *)(out + g) = *(const W *)(in + i);\n}\n"
			  : "  *(W *)(out + i) = *(const W *)(in + g);\n}\n");
	return 1;
}

/* ---- block size and work per thread ---------------------------------------------- */

static int rule_block_work(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const char *lim = s->rows[0].pred.limited_by;
	int eb = s->in.a.elem_bytes;
	int64_t T;

	snprintf(r->change, sizeof(r->change), "blocks of 256, %d elements a thread (all loads issued before "
		 "the stores)", WORK_ILP);
	if (!sg_needs_global(s, r) || !sg_needs_map(s, r))
		return 0;
	if (!lim || (strcmp(lim, "blocks") && strcmp(lim, "latency")))
		return sg_no(r, "the model says the original is limited by %s, not by blocks or latency", lim ? lim : "?");
	/* thread t's elements are WORK_SPAN apart inside the range of WORK_ILP x WORK_SPAN that its 32 blocks share */
	T = (s->in.n + WORK_ILP * WORK_SPAN - 1) / (WORK_ILP * WORK_SPAN) * WORK_SPAN;
	sg_block1(r, 256);
	r->threads = T;
	r->round_trips = 1;
	for (int k = 0; k < WORK_ILP; k++) {
		char g[96], e[600];
		snprintf(g, sizeof(g), "((gid / %d) * %d + %d + gid %% %d)", WORK_SPAN, WORK_ILP * WORK_SPAN,
			 k * WORK_SPAN, WORK_SPAN);
		if (gm_index_map_expr(&s->map, g, 1, e, sizeof(e)) < 0)
			return sg_no(r, "the index map is too long to describe");
		sg_sides(s, r, eb, 1, 0, 0, e, g);
	}
	/* the threads' arithmetic in 32 bits where it fits; EXPR as the original computes it (the map is checked on
	   sampled threads only: an index from it could leave the array) */
	int narrow = WORK_ILP * T + 256 <= INT32_MAX;
	char call[96];
	sg_idx_call(s, "(long long)g", call, sizeof(call));
	sg_src(r, "%s  typedef %s U;\n  const U t = (U)blockIdx.x * blockDim.x + threadIdx.x;\n"
	    "  const U t0 = t / %du * %du + t %% %du;\n  T v[%d]; long long at[%d];\n"
	    "#pragma unroll\n  for (int k = 0; k < %d; k++) {\n    const U g = t0 + k * %du;\n"
	    "    if ((long long)g < n_arg) { const long long i = %s; %s }\n  }\n"
	    "#pragma unroll\n  for (int k = 0; k < %d; k++)\n    if ((long long)(t0 + k * %du) < n_arg) out[at[k]] = v[k];\n}\n",
	    sg_head, narrow ? "unsigned" : "unsigned long long", WORK_SPAN, WORK_ILP * WORK_SPAN, WORK_SPAN, WORK_ILP,
	    WORK_ILP, WORK_ILP, WORK_SPAN, call,
	    s->in.a.op == GM_OP_LOAD ? "v[k] = in[i]; at[k] = g;" : "v[k] = in[g]; at[k] = i;", WORK_ILP, WORK_SPAN);
	return 1;
}

/* ---- cache hints ------------------------------------------------------------------ */

static int rule_cache_hint(const struct gm_suggest *s, struct gm_rewrite *r)
{
	const struct gm_launch_out *o = &s->rows[0].pred;
	int reuse = o->l2_reuse_bytes > 0 || o->l1_load_sectors > 1.05 * o->l2_load_sectors;

	snprintf(r->change, sizeof(r->change), "cache hint on the EXPR side");
	if (!sg_needs_global(s, r))
		return 0;
	if (s->in.hint)
		return sg_no(r, "the original already carries a hint");
	if (s->in.a.op == GM_OP_STORE)
		return sg_no(r, "stores: the model has no reuse of the output that a hint would keep or spare");
	if (!reuse)
		return sg_no(r, "the model finds no sector read twice: no reuse for a hint to keep");
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
	if (!sg_needs_global(s, r) || !sg_needs_map(s, r))
		return 0;
	for (int k = 0; k < m->nmodes; k++) {
		contiguous |= m->stride[k] == 1;
		if (m->stride[k] != 1 && m->stride[k] != 0 && m->stride[k] * eb % 32)
			return sg_no(r, "rows are %lld B apart, no multiple of 32: one base cannot align them all",
				  (long long)(m->stride[k] * eb));
	}
	if (!contiguous)
		return sg_no(r, "no mode reads consecutive elements: alignment changes no sector count");
	if (((off % 32) + 32) % 32 == 0)
		return sg_no(r, "EXPR's first element (offset %lld B) already starts a sector", (long long)off);
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

	sg_sorted_modes(m, ord);
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
	if (!sg_needs_global(s, r))
		return 0;
	if (s->waste < 1.5)
		return sg_no(r, "the %s are already coalesced (%.1f sectors a warp, %d at least)", ld ? "loads" : "stores",
			  s->sectors_per_warp, eb);
	if (!ld && !m->known)
		return sg_no(r, "stores: %s, so no compact array can be shown to hold the original's out", m->why);
	if (!ld && !map_injective(m))
		return sg_no(r, "stores: two threads write one element of out; a compact array would keep both");
	if (m->known && m->nmodes >= 2) {
		int ord[GM_SUGGEST_MODES];
		sg_sorted_modes(m, ord);
		if (m->stride[ord[0]] == 1 || m->stride[ord[0]] == -1)
			return sg_no(r, "a kernel-side rewrite reaches the same coalescing (a mode of EXPR is consecutive)");
	}
	/* the kernel becomes a copy: moved 16 B a thread where n allows (the wide rule's access) */
	int V = 16 / eb;
	while (V > 1 && s->in.n % V)
		V /= 2;
	sg_block1(r, 256);
	r->threads = s->in.n / V;
	r->round_trips = 1;
	r->layout = 1;
	sg_sides(s, r, V * eb, 1, 0, 0, "gid", "gid");
	if (ld)
		snprintf(r->change, sizeof(r->change), "in stored in the order the threads read it (lay[gid] = "
			 "in[EXPR(gid)], structure of arrays): the kernel becomes a copy, %d B a thread", V * eb);
	else
		snprintf(r->change, sizeof(r->change), "out kept compact, the layout its consumer reads (cp[gid] = "
			 "what out[EXPR(gid)] holds): the kernel becomes a copy, %d B a thread", V * eb);
	sg_src(r, "%s  typedef %s W; /* %s */\n"
	    "  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	    "  if (t * %d < n_arg) ((W *)out)[t] = ((const W *)in)[t];\n}\n", sg_head, V > 1 ? sg_word_of(V * eb) : "T",
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
	int64_t tpb = sg_tpb_of(a->block), S = s->tile_elems, it = (S + tpb - 1) / tpb;
	char expr_c[2048], f[64];

	snprintf(r->change, sizeof(r->change), xor_ ? "tile slot i ^ (i / %d %% %d): a row of 128 B XOR-swizzled "
		 "by its row number" : "tile slot i + i / %d: one element of padding after every 128 B", W, W);
	if (a->space != GM_SPACE_SHARED)
		return sg_no(r, "a shared-memory rewrite (--space shared)");
	w.warp = 0;
	memset(w.block_idx, 0, sizeof(w.block_idx));
	w.n_threads = s->in.n;
	if (gm_model_predict(&w, &p, &err) != GM_OK)
		return sg_no(r, "the warp model cannot evaluate EXPR: %.120s", err.msg);
	if (p.shared.bank_conflicts == 0)
		return sg_no(r, "no bank conflict (%lld wavefronts, the ideal)", (long long)p.shared.wavefronts);
	if ((S + S / W + W) * eb > SG_SMEM_MAX)
		return sg_no(r, "the tile with its padding (%lld B) is past 48 KiB", (long long)((S + S / W + W) * eb));
	if (gm_expr_to_c(a->index, expr_c, sizeof(expr_c), &err))
		return sg_no(r, "EXPR does not translate to C");
	if (xor_)
		snprintf(f, sizeof(f), "((%%s) ^ ((%%s) / %d %% %d))", W, W);
	else
		snprintf(f, sizeof(f), "((%%s) + (%%s) / %d)", W);
	char fi[1200], ft[64];
	snprintf(fi, sizeof(fi), f, a->index, a->index);
	snprintf(ft, sizeof(ft), f, "tid", "tid");
	memcpy(r->block, a->block, sizeof(r->block));
	r->threads = s->in.n;
	r->round_trips = SG_FILL_LOOP_TRIPS; /* the original's frame: a tile loop, then a barrier */
	r->smem_padded = 1;
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_LOAD, eb, (int)it, tpb * eb, "bx*%lld + tid", (long long)S);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_STORE, eb, (int)it, tpb * eb, "%s", ft);
	sg_pat(r, GM_SPACE_SHARED, GM_OP_LOAD, eb, 1, 0, "%s", fi);
	sg_pat(r, GM_SPACE_GLOBAL, GM_OP_STORE, eb, 1, 0, "gid");
	sg_src(r, "extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, "
	    "long long tile) {\n  extern __shared__ __align__(16) unsigned char smem_[];\n  T *tile_ = (T *)smem_;\n%s",
	    gm_expr_c_prelude());
	if (xor_)
		sg_src(r, "#define F_(i) ((i) ^ ((i) / %d %% %d))\n", W, W);
	else
		sg_src(r, "#define F_(i) ((i) + (i) / %d)\n", W);
	sg_src(r, "  const long long per_ = bdx_ * bdy_ * bdz_;\n"
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

/* ---- the table ---------------------------------------------------------------------- */

static const struct {
	const char *name;
	rule_fn build;
} rules[] = {
	{ "thread_order", rule_thread_order },
	{ "tile_padded", sg_rule_tile_padded },
	{ "tile_xor", sg_rule_tile_xor },
	{ "tile_wide", sg_rule_tile_wide },
	{ "stage_span", sg_rule_stage_span },
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
	if (r->applies && r->pats_lost) {
		r->applies = 0;
		snprintf(r->why_not, sizeof(r->why_not), "an access pattern of the rewritten launch does not fit the "
			 "model's room (%d patterns of %d characters)", GM_SUGGEST_PATS, GM_SUGGEST_IDX - 1);
	}
}
