/*
 * suggest_kit.c - the pieces `explain --suggest`'s rules build their rows from: a refusal with its reason
 * (sg_no), the kernel's source (sg_src, sg_head), the original's EXPR as a call (sg_idx_call), the rewritten
 * launch's shape and patterns (sg_block1, sg_sides, sg_pat), and what most rules check first (sg_needs_global,
 * sg_needs_map, sg_covers_n). Shared by suggest_rules.c and suggest_tiles.c (suggest_internal.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "model/suggest_internal.h"

int sg_no(struct gm_rewrite *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why_not, sizeof(r->why_not), fmt, ap);
	va_end(ap);
	return 0;
}

int sg_src(struct gm_rewrite *r, const char *fmt, ...)
{
	size_t len = strlen(r->src);
	va_list ap;

	va_start(ap, fmt);
	int k = vsnprintf(r->src + len, sizeof(r->src) - len, fmt, ap);
	va_end(ap);
	return k < 0 || (size_t)k >= sizeof(r->src) - len ? -1 : 0;
}

const char *const sg_head =
	"extern \"C\" __global__ void gm_x_run(const T *__restrict__ in, T *__restrict__ out, long long n_arg, "
	"long long tile) {\n  (void)tile;\n";

/* index_of() with the original's block: EXPR of thread g, as the original computes it. */
void sg_idx_call(const struct gm_suggest *s, const char *g, char *out, size_t n)
{
	const int *b = s->in.a.block;

	snprintf(out, n, "index_of(%s, n_arg, %d, %d, %d)", g, b[0], b[1], b[2]);
}

int64_t sg_tpb_of(const int b[3])
{
	return (int64_t)b[0] * b[1] * b[2];
}

void sg_block1(struct gm_rewrite *r, int x)
{
	r->block[0] = x;
	r->block[1] = r->block[2] = 1;
}

int sg_needs_global(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return s->in.a.space == GM_SPACE_GLOBAL ? 1 : sg_no(r, "a global-memory rewrite; EXPR indexes a shared tile");
}

int sg_needs_map(const struct gm_suggest *s, struct gm_rewrite *r)
{
	return s->map.known ? 1 : sg_no(r, "%s", s->map.why);
}

/* The EXPR side and the gid side of a launch that moves element g to/from EXPR(g). */
void sg_sides(const struct gm_suggest *s, struct gm_rewrite *r, int eb, int iters, int64_t e_step,
		  int64_t g_step, const char *e_idx, const char *g_idx)
{
	enum gm_op op = s->in.a.op;

	sg_pat(r, GM_SPACE_GLOBAL, op, eb, iters, e_step, "%s", e_idx);
	sg_pat(r, GM_SPACE_GLOBAL, op == GM_OP_LOAD ? GM_OP_STORE : GM_OP_LOAD, eb, iters, g_step, "%s", g_idx);
}

/* out[g] = in[i] (load) or out[i] = in[g] (store), C source. */
const char *sg_move_stmt(const struct gm_suggest *s)
{
	return s->in.a.op == GM_OP_LOAD ? "out[g] = in[i];" : "out[i] = in[g];";
}

/* The modes by |stride| (0 first): the order that puts consecutive EXPR values on consecutive threads. */
void sg_sorted_modes(const struct gm_index_map *m, int ord[GM_SUGGEST_MODES])
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

int sg_covers_n(const struct gm_suggest *s)
{
	const struct gm_index_map *m = &s->map;
	int last = m->nmodes - 1;

	return m->nmodes > 0 && m->div[last] * m->size[last] == s->in.n;
}

/* "(v / div % size) * times" with the type's literals */
static int term(char *out, size_t n, int first, const char *v, int64_t div, int64_t size, int64_t times, int narrow)
{
	const char *u = narrow ? "u" : "LL";

	return snprintf(out, n, "%s(%s / %lld%s %% %lld%s) * %lld%s", first ? "" : " + ", v, (long long)div, u,
			(long long)size, u, (long long)times, u);
}

int sg_order_c(const struct gm_index_map *m, const int ord[GM_SUGGEST_MODES], const char *v, int narrow, char *out,
	       size_t n)
{
	size_t len = 0;
	int64_t D = 1;
	int k = 0;

	for (int j = 0; j < m->nmodes && k >= 0 && (size_t)k < n - len; j++) {
		len += (size_t)k;
		k = term(out + len, n - len, j == 0, v, D, m->size[ord[j]], m->div[ord[j]], narrow);
		D *= m->size[ord[j]];
	}
	return k < 0 || (size_t)k >= n - len ? -1 : 0;
}

const char *sg_word_of(int bytes)
{
	return bytes == 2 ? "unsigned short" : bytes == 4 ? "unsigned" : bytes == 8 ? "uint2" : "uint4";
}

/* ---- the rows a rule appends -------------------------------------------------- */

int sg_pat(struct gm_rewrite *r, enum gm_space sp, enum gm_op op, int eb, int iters, int64_t step_bytes,
	   const char *fmt, ...)
{
	va_list ap;
	int k = r->npats;

	if (k >= GM_SUGGEST_PATS) {
		r->pats_lost = 1;
		return -1;
	}
	va_start(ap, fmt);
	int len = vsnprintf(r->idx[k], sizeof(r->idx[k]), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(r->idx[k])) {
		r->pats_lost = 1; /* a launch without this pattern would be predicted (until 2026-11-30 it was) */
		return -1;
	}
	memset(&r->pats[k], 0, sizeof(r->pats[k]));
	r->pats[k].space = sp;
	r->pats[k].op = op;
	r->pats[k].elem_bytes = eb;
	r->rep[k] = (struct gm_repeat){ iters, step_bytes, 1, 0 };
	r->npats++;
	return 0;
}

int sg_fill_trips(int64_t span, int64_t tpb)
{
	int64_t lo = tpb > 0 ? span / tpb : 0, hi = tpb > 0 ? (span + tpb - 1) / tpb : 0, t = 0;

	for (int64_t it = lo; it <= hi; it++)
		t = it % 4 + it / 4 > t ? it % 4 + it / 4 : t;
	return t > SG_FILL_LOOP_TRIPS ? (int)t : SG_FILL_LOOP_TRIPS;
}
