/*
 * expr_parse.c - index-expression text -> stack-machine program.
 *
 * Recursive descent with precedence climbing, emitting code as it goes:
 *
 *   cond    := binary(1) [ '?' cond ':' cond ]
 *   binary  := unary { op binary(prec(op) + 1) }     (left associative)
 *   unary   := ('+' | '-' | '~' | '!') unary | primary
 *   primary := number | variable | '(' cond ')'
 *
 * C precedence, lowest first: || && | ^ & (== !=) (< <= > >=) (<< >>) (+ -) (* / %).
 * && || and ?: short-circuit through forward jumps, as in C, so
 * "lane != 0 && 64 / lane" is fine on lane 0.
 * Every descent counts against GM_EXPR_MAX_DEPTH, which bounds both the C
 * stack here and the value stack at evaluation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/expr_internal.h"

struct parser {
	const char *text;
	struct gm_token tok;
	struct gm_expr *e;
	struct gm_expr_error *err;
	int depth;
	int nomem;
};

static const struct {
	enum gm_tok tok;
	int prec;
	enum gm_opcode op;
} binops[] = {
	{ GM_TOK_OROR, 1, GM_OP_JNZ }, { GM_TOK_ANDAND, 2, GM_OP_JZ },
	{ GM_TOK_PIPE, 3, GM_OP_OR }, { GM_TOK_CARET, 4, GM_OP_XOR },
	{ GM_TOK_AMP, 5, GM_OP_AND },
	{ GM_TOK_EQ, 6, GM_OP_EQ }, { GM_TOK_NE, 6, GM_OP_NE },
	{ GM_TOK_LT, 7, GM_OP_LT }, { GM_TOK_LE, 7, GM_OP_LE },
	{ GM_TOK_GT, 7, GM_OP_GT }, { GM_TOK_GE, 7, GM_OP_GE },
	{ GM_TOK_SHL, 8, GM_OP_SHL }, { GM_TOK_SHR, 8, GM_OP_SHR },
	{ GM_TOK_PLUS, 9, GM_OP_ADD }, { GM_TOK_MINUS, 9, GM_OP_SUB },
	{ GM_TOK_STAR, 10, GM_OP_MUL }, { GM_TOK_SLASH, 10, GM_OP_DIV },
	{ GM_TOK_PERCENT, 10, GM_OP_MOD },
};

static int parse_cond(struct parser *ps);

static int fail_at(struct parser *ps, size_t pos, const char *what)
{
	ps->err->pos = pos;
	ps->err->lane = -1;
	snprintf(ps->err->msg, sizeof(ps->err->msg),
		 "syntax error at byte %zu: %s", pos, what);
	return -1;
}

static int advance(struct parser *ps)
{
	return gm_lex(ps->text, ps->tok.pos + ps->tok.len, &ps->tok, ps->err);
}

/* Append one instruction; returns its index or -1 when out of memory. */
static long emit(struct parser *ps, enum gm_opcode op, size_t pos, int64_t arg)
{
	struct gm_expr *e = ps->e;

	if (e->n == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 32;
		struct gm_insn *code = realloc(e->code, cap * sizeof(*code));

		if (!code) {
			ps->nomem = 1;
			return -1;
		}
		e->code = code;
		e->cap = cap;
	}
	e->code[e->n].op = op;
	e->code[e->n].pos = pos;
	e->code[e->n].arg = arg;
	return (long)e->n++;
}

/* Point the jump at index j to the next instruction to be emitted. */
static void patch(struct parser *ps, long j)
{
	ps->e->code[j].arg = (int64_t)ps->e->n;
}

static int too_deep(struct parser *ps)
{
	snprintf(ps->err->msg, sizeof(ps->err->msg),
		 "expression nested too deeply (more than %d levels) at byte %zu",
		 GM_EXPR_MAX_DEPTH, ps->tok.pos);
	ps->err->pos = ps->tok.pos;
	ps->err->lane = -1;
	return -1;
}

static int enter(struct parser *ps)
{
	return ++ps->depth > GM_EXPR_MAX_DEPTH ? too_deep(ps) : 0;
}

static int expect(struct parser *ps, enum gm_tok kind, const char *what)
{
	if (ps->tok.kind != kind) {
		char msg[64];

		snprintf(msg, sizeof(msg), "expected %s%s", what,
			 ps->tok.kind == GM_TOK_END ? " before the end" : "");
		return fail_at(ps, ps->tok.pos, msg);
	}
	return advance(ps);
}

static int unknown_variable(struct parser *ps)
{
	int len = ps->tok.len > 20 ? 20 : (int)ps->tok.len;

	ps->err->pos = ps->tok.pos;
	ps->err->lane = -1;
	snprintf(ps->err->msg, sizeof(ps->err->msg),
		 "unknown variable '%.*s%s'; known: %s", len,
		 ps->text + ps->tok.pos, ps->tok.len > 20 ? "..." : "",
		 gm_var_names());
	return -1;
}

static int parse_primary(struct parser *ps)
{
	struct gm_token t = ps->tok;
	int rc;

	switch (t.kind) {
	case GM_TOK_NUM:
		if (emit(ps, GM_OP_CONST, t.pos, t.value) < 0)
			return -1;
		return advance(ps);
	case GM_TOK_IDENT:
		rc = gm_var_slot(ps->text + t.pos, t.len);
		if (rc < 0)
			return unknown_variable(ps);
		if (emit(ps, GM_OP_VAR, t.pos, rc) < 0)
			return -1;
		return advance(ps);
	case GM_TOK_LPAREN:
		if (advance(ps) < 0 || parse_cond(ps) < 0)
			return -1;
		return expect(ps, GM_TOK_RPAREN, "')'");
	case GM_TOK_END:
		return fail_at(ps, t.pos, "unexpected end of expression");
	default:
		return fail_at(ps, t.pos, "expected a number, a variable or '('");
	}
}

static int parse_unary(struct parser *ps)
{
	struct gm_token t = ps->tok;
	enum gm_opcode op;

	switch (t.kind) {
	case GM_TOK_MINUS: op = GM_OP_NEG; break;
	case GM_TOK_TILDE: op = GM_OP_BNOT; break;
	case GM_TOK_BANG: op = GM_OP_NOT; break;
	case GM_TOK_PLUS: op = GM_OP_JMP; break; /* unary + emits nothing */
	default: return parse_primary(ps);
	}
	if (enter(ps) < 0 || advance(ps) < 0 || parse_unary(ps) < 0)
		return -1;
	ps->depth--;
	if (op == GM_OP_JMP)
		return 0;
	return emit(ps, op, t.pos, 0) < 0 ? -1 : 0;
}

static int find_binop(enum gm_tok kind)
{
	int k;

	for (k = 0; k < (int)(sizeof(binops) / sizeof(binops[0])); k++)
		if (binops[k].tok == kind)
			return k;
	return -1;
}

static int parse_binary(struct parser *ps, int min_prec);

/*
 * a && b:  a; JZ F; b; BOOL; JMP E; F: CONST 0; E:
 * a || b:  a; JNZ T; b; BOOL; JMP E; T: CONST 1; E:
 */
static int parse_logical(struct parser *ps, int k, size_t pos)
{
	long jcond, jend;

	jcond = emit(ps, binops[k].op, pos, 0);
	if (jcond < 0 || parse_binary(ps, binops[k].prec + 1) < 0)
		return -1;
	if (emit(ps, GM_OP_BOOL, pos, 0) < 0)
		return -1;
	jend = emit(ps, GM_OP_JMP, pos, 0);
	if (jend < 0)
		return -1;
	patch(ps, jcond);
	if (emit(ps, GM_OP_CONST, pos, binops[k].op == GM_OP_JNZ) < 0)
		return -1;
	patch(ps, jend);
	return 0;
}

static int parse_binary(struct parser *ps, int min_prec)
{
	if (enter(ps) < 0 || parse_unary(ps) < 0)
		return -1;
	for (;;) {
		int k = find_binop(ps->tok.kind);
		size_t pos = ps->tok.pos;
		int rc;

		if (k < 0 || binops[k].prec < min_prec)
			break;
		if (advance(ps) < 0)
			return -1;
		if (binops[k].tok == GM_TOK_ANDAND || binops[k].tok == GM_TOK_OROR)
			rc = parse_logical(ps, k, pos);
		else if ((rc = parse_binary(ps, binops[k].prec + 1)) == 0)
			rc = emit(ps, binops[k].op, pos, 0) < 0 ? -1 : 0;
		if (rc < 0)
			return -1;
	}
	ps->depth--;
	return 0;
}

/* c ? x : y:  c; JZ F; x; JMP E; F: y; E: */
static int parse_cond(struct parser *ps)
{
	long jelse, jend;
	size_t pos;

	if (parse_binary(ps, 1) < 0)
		return -1;
	if (ps->tok.kind != GM_TOK_QUEST)
		return 0;
	pos = ps->tok.pos;
	if (enter(ps) < 0 || advance(ps) < 0)
		return -1;
	jelse = emit(ps, GM_OP_JZ, pos, 0);
	if (jelse < 0 || parse_cond(ps) < 0 ||
	    expect(ps, GM_TOK_COLON, "':' of '?:'") < 0)
		return -1;
	jend = emit(ps, GM_OP_JMP, pos, 0);
	if (jend < 0)
		return -1;
	patch(ps, jelse);
	if (parse_cond(ps) < 0)
		return -1;
	patch(ps, jend);
	ps->depth--;
	return 0;
}

static int stack_effect(enum gm_opcode op)
{
	switch (op) {
	case GM_OP_CONST: case GM_OP_VAR:
		return 1;
	case GM_OP_NEG: case GM_OP_NOT: case GM_OP_BNOT: case GM_OP_BOOL:
	case GM_OP_JMP:
		return 0;
	default: /* binary operators and conditional jumps pop one */
		return -1;
	}
}

/*
 * Deepest value stack the program reaches. Jumps go forward only, so one
 * pass that carries each depth to the jump target sees every path.
 */
static int measure_stack(struct gm_expr *e)
{
	long *at = malloc((e->n + 1) * sizeof(*at));
	size_t pc, max = 0;
	long d = 0;

	if (!at)
		return -1;
	for (pc = 0; pc <= e->n; pc++)
		at[pc] = -1;
	at[0] = 0;
	for (pc = 0; pc < e->n; pc++) {
		d = at[pc] >= 0 ? at[pc] : d;
		d += stack_effect(e->code[pc].op);
		if ((size_t)d > max)
			max = (size_t)d;
		if (e->code[pc].op >= GM_OP_JZ)
			at[e->code[pc].arg] = d;
		if (e->code[pc].op != GM_OP_JMP)
			at[pc + 1] = d;
	}
	e->max_stack = max;
	free(at);
	return 0;
}

static gm_status parse_fail(struct parser *ps, gm_status s)
{
	if (ps->nomem) {
		s = GM_ERR_NOMEM;
		snprintf(ps->err->msg, sizeof(ps->err->msg),
			 "out of memory parsing the expression");
	}
	gm_expr_free(ps->e);
	return s;
}

static gm_status parse_checks(struct parser *ps, const char *text)
{
	size_t len = strlen(text);

	if (len > GM_EXPR_MAX_LEN) {
		ps->err->pos = GM_EXPR_MAX_LEN;
		snprintf(ps->err->msg, sizeof(ps->err->msg),
			 "expression too long (%zu bytes, the limit is %d)",
			 len, GM_EXPR_MAX_LEN);
		return GM_ERR_PARSE;
	}
	if (gm_lex(text, 0, &ps->tok, ps->err) < 0)
		return GM_ERR_PARSE;
	if (ps->tok.kind == GM_TOK_END) {
		ps->err->pos = ps->tok.pos;
		snprintf(ps->err->msg, sizeof(ps->err->msg), "empty expression");
		return GM_ERR_PARSE;
	}
	return GM_OK;
}

gm_status gm_expr_parse(const char *text, struct gm_expr **out,
			struct gm_expr_error *err)
{
	struct gm_expr_error dummy;
	struct parser ps = { 0 };
	gm_status s;

	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	err->lane = -1;
	if (!out || !text)
		return GM_ERR_INVALID_ARG;
	*out = NULL;
	ps.text = text;
	ps.err = err;
	s = parse_checks(&ps, text);
	if (s != GM_OK)
		return s;
	ps.e = calloc(1, sizeof(*ps.e));
	if (!ps.e)
		return GM_ERR_NOMEM;
	if (parse_cond(&ps) < 0)
		return parse_fail(&ps, GM_ERR_PARSE);
	if (ps.tok.kind != GM_TOK_END) {
		fail_at(&ps, ps.tok.pos, "unexpected text after the expression");
		return parse_fail(&ps, GM_ERR_PARSE);
	}
	if (measure_stack(ps.e) < 0) {
		ps.nomem = 1;
		return parse_fail(&ps, GM_ERR_NOMEM);
	}
	if (ps.e->max_stack > GM_EXPR_STACK) {
		too_deep(&ps);
		return parse_fail(&ps, GM_ERR_PARSE);
	}
	*out = ps.e;
	return GM_OK;
}

void gm_expr_free(struct gm_expr *e)
{
	if (!e)
		return;
	free(e->code);
	free(e);
}
