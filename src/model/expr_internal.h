/*
 * expr_internal.h - the compiled form of an index expression (private).
 *
 * The parser turns the text into a short stack-machine program once; the
 * evaluator runs it per lane. Jumps only go forward, so every instruction runs
 * at most once and evaluation cannot loop.
 */
#ifndef GPUMEM_MODEL_EXPR_INTERNAL_H
#define GPUMEM_MODEL_EXPR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/model.h"

/* Most values the evaluator ever holds at once; the parser rejects more. */
#define GM_EXPR_STACK (GM_EXPR_MAX_DEPTH + 16)

enum gm_tok {
	GM_TOK_END, GM_TOK_NUM, GM_TOK_IDENT, GM_TOK_LPAREN, GM_TOK_RPAREN,
	GM_TOK_QUEST, GM_TOK_COLON,
	GM_TOK_PLUS, GM_TOK_MINUS, GM_TOK_STAR, GM_TOK_SLASH, GM_TOK_PERCENT,
	GM_TOK_SHL, GM_TOK_SHR, GM_TOK_AMP, GM_TOK_PIPE, GM_TOK_CARET,
	GM_TOK_TILDE, GM_TOK_BANG,
	GM_TOK_LT, GM_TOK_LE, GM_TOK_GT, GM_TOK_GE, GM_TOK_EQ, GM_TOK_NE,
	GM_TOK_ANDAND, GM_TOK_OROR,
};

struct gm_token {
	enum gm_tok kind;
	size_t pos;       /* byte offset of the first character */
	size_t len;       /* bytes of text */
	int64_t value;    /* GM_TOK_NUM */
};

enum gm_opcode {
	GM_OP_CONST, GM_OP_VAR,                /* push arg / push variable arg */
	GM_OP_NEG, GM_OP_NOT, GM_OP_BNOT,      /* unary - ! ~ */
	GM_OP_BOOL,                            /* x -> (x != 0) */
	GM_OP_ADD, GM_OP_SUB, GM_OP_MUL, GM_OP_DIV, GM_OP_MOD,
	GM_OP_SHL, GM_OP_SHR, GM_OP_AND, GM_OP_OR, GM_OP_XOR,
	GM_OP_LT, GM_OP_LE, GM_OP_GT, GM_OP_GE, GM_OP_EQ, GM_OP_NE,
	GM_OP_JZ, GM_OP_JNZ,                   /* pop; jump to arg if (not) zero */
	GM_OP_JMP,                             /* jump to arg */
};

struct gm_insn {
	enum gm_opcode op;
	size_t pos;       /* source byte offset, for error carets */
	int64_t arg;      /* constant, variable slot or jump target */
};

struct gm_expr {
	struct gm_insn *code;
	size_t n, cap;
	size_t max_stack; /* deepest stack the program reaches */
};

/* Lexer: read the token at text[pos]. Returns -1 with err set on bad input. */
int gm_lex(const char *text, size_t pos, struct gm_token *tok,
	   struct gm_expr_error *err);

/* Variables: slot of a name, or -1; value of a slot. */
int gm_var_slot(const char *name, size_t len);
int64_t gm_var_value(const struct gm_thread_vars *v, int slot);
/* The C variable of a slot (gm_expr_to_c). */
const char *gm_var_c_name(int slot);
/* The accepted names, for "unknown variable" messages. */
const char *gm_var_names(void);

#endif
