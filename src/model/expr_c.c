/*
 * expr_c.c - an index expression as CUDA C source (gm_expr_to_c), for the
 * kernels `explain --run` generates around it. The text is parsed first, so
 * only the language's tokens are emitted: numbers as 64-bit literals and
 * variables as 64-bit signed locals (gm_expr_c_prelude declares them), so the
 * arithmetic is the model's.
 */
#include <stdio.h>
#include <string.h>
#include "model/expr_internal.h"

const char *gm_expr_c_prelude(void)
{
	return "const long long tx_ = threadIdx.x, ty_ = threadIdx.y, tz_ = threadIdx.z;\n"
	       "const long long bx_ = blockIdx.x, by_ = blockIdx.y, bz_ = blockIdx.z;\n"
	       "const long long bdx_ = blockDim.x, bdy_ = blockDim.y, bdz_ = blockDim.z;\n"
	       "const long long tid_ = tx_ + ty_ * bdx_ + tz_ * bdx_ * bdy_;\n"
	       "const long long lane_ = tid_ % 32, warp_ = tid_ / 32;\n"
	       "const long long gid_ = bx_ * (bdx_ * bdy_ * bdz_) + tid_, n_ = n_arg;\n";
}

static int emit(char *out, size_t n, size_t *len, const char *fmt, const char *s, long long v)
{
	int k = s ? snprintf(out + *len, n - *len, fmt, s) : snprintf(out + *len, n - *len, fmt, v);

	if (k < 0 || (size_t)k >= n - *len)
		return -1;
	*len += (size_t)k;
	return 0;
}

gm_status gm_expr_to_c(const char *text, char *out, size_t n, struct gm_expr_error *err)
{
	struct gm_expr *e = NULL;
	struct gm_token tok;
	size_t pos = 0, len = 0;
	gm_status s = gm_expr_parse(text, &e, err);

	gm_expr_free(e);
	if (s)
		return s;
	if (n == 0)
		return GM_ERR_INVALID_ARG;
	out[0] = '\0';
	for (;;) {
		char piece[8];
		int rc;
		if (gm_lex(text, pos, &tok, err) < 0)
			return GM_ERR_PARSE; /* cannot happen after a clean parse */
		if (tok.kind == GM_TOK_END)
			break;
		if (tok.kind == GM_TOK_NUM) {
			rc = emit(out, n, &len, "%lldLL ", NULL, (long long)tok.value);
		} else if (tok.kind == GM_TOK_IDENT) {
			const char *c = gm_var_c_name(gm_var_slot(text + tok.pos, tok.len));
			rc = c ? emit(out, n, &len, "%s ", c, 0) : -1;
		} else {
			if (tok.len >= sizeof(piece))
				return GM_ERR_INVALID_ARG;
			memcpy(piece, text + tok.pos, tok.len);
			piece[tok.len] = '\0';
			rc = emit(out, n, &len, "%s ", piece, 0);
		}
		if (rc < 0)
			return GM_ERR_INVALID_ARG;
		pos = tok.pos + tok.len;
	}
	if (len > 0)
		out[len - 1] = '\0';
	return GM_OK;
}
