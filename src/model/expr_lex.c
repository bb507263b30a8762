/*
 * expr_lex.c - tokens of the index-expression language.
 *
 * Numbers are decimal or 0x hex and must fit in int64_t; a leading 0 is
 * refused rather than read as octal, so "010" cannot silently mean 8.
 * Identifiers may contain dots ("threadIdx.x"); the parser resolves them.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "model/expr_internal.h"

/* Longest operators first so "<<" wins over "<". */
static const struct {
	const char *text;
	enum gm_tok kind;
} punct[] = {
	{ "<<", GM_TOK_SHL }, { ">>", GM_TOK_SHR }, { "<=", GM_TOK_LE },
	{ ">=", GM_TOK_GE }, { "==", GM_TOK_EQ }, { "!=", GM_TOK_NE },
	{ "&&", GM_TOK_ANDAND }, { "||", GM_TOK_OROR },
	{ "(", GM_TOK_LPAREN }, { ")", GM_TOK_RPAREN }, { "?", GM_TOK_QUEST },
	{ ":", GM_TOK_COLON }, { "+", GM_TOK_PLUS }, { "-", GM_TOK_MINUS },
	{ "*", GM_TOK_STAR }, { "/", GM_TOK_SLASH }, { "%", GM_TOK_PERCENT },
	{ "&", GM_TOK_AMP }, { "|", GM_TOK_PIPE }, { "^", GM_TOK_CARET },
	{ "~", GM_TOK_TILDE }, { "!", GM_TOK_BANG }, { "<", GM_TOK_LT },
	{ ">", GM_TOK_GT },
};

static int lex_fail(struct gm_expr_error *err, size_t pos, const char *what)
{
	err->pos = pos;
	err->lane = -1;
	snprintf(err->msg, sizeof(err->msg), "syntax error at byte %zu: %s",
		 pos, what);
	return -1;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static int digit_value(int c)
{
	if (isdigit(c))
		return c - '0';
	return tolower(c) - 'a' + 10;
}

/* Accumulate digits in base 10 or 16; -1 on int64_t overflow. */
static int read_digits(const char *s, size_t *i, int base, int64_t *out)
{
	int64_t v = 0;

	while (base == 16 ? isxdigit((unsigned char)s[*i]) :
			    isdigit((unsigned char)s[*i])) {
		int d = digit_value((unsigned char)s[*i]);

		if (v > (INT64_MAX - d) / base)
			return -1;
		v = v * base + d;
		(*i)++;
	}
	*out = v;
	return 0;
}

static int lex_number(const char *s, size_t pos, struct gm_token *tok,
		      struct gm_expr_error *err)
{
	size_t i = pos;
	int base = 10;

	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
		if (!isxdigit((unsigned char)s[i]))
			return lex_fail(err, pos, "hex literal without digits");
	} else if (s[i] == '0' && isdigit((unsigned char)s[i + 1])) {
		return lex_fail(err, pos, "leading zero (octal literals are not supported)");
	}
	if (read_digits(s, &i, base, &tok->value) < 0)
		return lex_fail(err, pos, "number does not fit in 64 bits");
	if (is_ident_char((unsigned char)s[i]) || s[i] == '.')
		return lex_fail(err, i, "invalid character in number");
	tok->kind = GM_TOK_NUM;
	tok->len = i - pos;
	return 0;
}

/* name or name.member ("threadIdx.x") */
static void lex_ident(const char *s, size_t pos, struct gm_token *tok)
{
	size_t i = pos;

	while (is_ident_char((unsigned char)s[i]))
		i++;
	while (s[i] == '.' && is_ident_start((unsigned char)s[i + 1])) {
		i++;
		while (is_ident_char((unsigned char)s[i]))
			i++;
	}
	tok->kind = GM_TOK_IDENT;
	tok->len = i - pos;
}

static int lex_punct(const char *s, size_t pos, struct gm_token *tok,
		     struct gm_expr_error *err)
{
	char what[48];
	size_t k;

	for (k = 0; k < sizeof(punct) / sizeof(punct[0]); k++) {
		size_t len = strlen(punct[k].text);

		if (strncmp(s + pos, punct[k].text, len) == 0) {
			tok->kind = punct[k].kind;
			tok->len = len;
			return 0;
		}
	}
	if (isprint((unsigned char)s[pos]))
		snprintf(what, sizeof(what), "unexpected character '%c'", s[pos]);
	else
		snprintf(what, sizeof(what), "unexpected byte 0x%02x",
			 (unsigned char)s[pos]);
	return lex_fail(err, pos, what);
}

int gm_lex(const char *text, size_t pos, struct gm_token *tok,
	   struct gm_expr_error *err)
{
	while (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
	       text[pos] == '\r')
		pos++;
	memset(tok, 0, sizeof(*tok));
	tok->pos = pos;
	if (text[pos] == '\0') {
		tok->kind = GM_TOK_END;
		return 0;
	}
	if (isdigit((unsigned char)text[pos]))
		return lex_number(text, pos, tok, err);
	if (is_ident_start((unsigned char)text[pos])) {
		lex_ident(text, pos, tok);
		return 0;
	}
	return lex_punct(text, pos, tok, err);
}
