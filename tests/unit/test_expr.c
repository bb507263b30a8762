/*
 * test_expr.c - the index-expression language: values (one row per case,
 * evaluated at lane 5 of a 32x4x2 block in blockIdx (3,2,1), warp 1) and
 * errors (status, byte position, message).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gpumem/model.h"

static const struct gm_thread_vars vars = {
	.lane = 5, .warp = 1, .tid = 37,
	.tx = 5, .ty = 1, .tz = 0,
	.bx = 3, .by = 2, .bz = 1,
	.bdx = 32, .bdy = 4, .bdz = 2,
};

static const struct {
	const char *text;
	int64_t want;
} values[] = {
	/* literals */
	{ "0", 0 }, { "42", 42 }, { "0x1F", 31 }, { "0XfF", 255 },
	{ "9223372036854775807", INT64_MAX }, { "0x7fffffffffffffff", INT64_MAX },
	{ "  7 \t\n", 7 },
	/* every operator */
	{ "7 + 3", 10 }, { "7 - 3", 4 }, { "7 * 3", 21 }, { "7 / 3", 2 },
	{ "7 % 3", 1 }, { "1 << 4", 16 }, { "256 >> 4", 16 }, { "12 & 10", 8 },
	{ "12 | 10", 14 }, { "12 ^ 10", 6 }, { "~0", -1 }, { "~5", -6 },
	{ "!0", 1 }, { "!7", 0 }, { "-5", -5 }, { "+5", 5 }, { "- -5", 5 },
	{ "-+-+1", 1 }, { "!!9", 1 },
	{ "1 < 2", 1 }, { "2 < 1", 0 }, { "2 <= 2", 1 }, { "3 <= 2", 0 },
	{ "3 > 2", 1 }, { "2 > 3", 0 }, { "2 >= 2", 1 }, { "1 >= 2", 0 },
	{ "4 == 4", 1 }, { "4 == 5", 0 }, { "4 != 5", 1 }, { "4 != 4", 0 },
	{ "2 && 3", 1 }, { "2 && 0", 0 }, { "0 && 1", 0 },
	{ "0 || 0", 0 }, { "0 || 7", 1 }, { "5 || 0", 1 },
	{ "1 ? 10 : 20", 10 }, { "0 ? 10 : 20", 20 },
	/* precedence and associativity, as C */
	{ "1 - 2 - 3", -4 }, { "2 * 3 + 4", 10 }, { "2 + 3 * 4", 14 },
	{ "1 << 2 + 1", 8 }, { "(1 << 2) + 1", 5 }, { "100 / 10 / 5", 2 },
	{ "2 * 3 % 4", 2 }, { "1 + 2 == 3", 1 }, { "1 < 2 == 1", 1 },
	{ "6 & 3 == 3", 0 }, { "5 & 3 | 8 ^ 1", 9 }, { "1 | 2 ^ 3 & 4", 3 },
	{ "1 || 0 && 0", 1 }, { "-2 * 3", -6 }, { "~1 + 1", -1 },
	{ "0 ? 1 : 0 ? 2 : 3", 3 }, { "1 ? 2 : 3 ? 4 : 5", 2 },
	{ "0 ? 1 : 1 ? 2 : 3", 2 }, { "1 ? 0 ? 7 : 8 : 9", 8 },
	{ "1 + (0 ? 5 : 6) * 2", 13 }, { "((((3))))", 3 },
	/* C division and modulo on negatives: truncation toward zero */
	{ "-7 / 2", -3 }, { "7 / -2", -3 }, { "-7 / -2", 3 },
	{ "-7 % 2", -1 }, { "7 % -2", 1 }, { "-7 % -2", -1 },
	{ "-8 >> 1", -4 }, { "-1 >> 63", -1 }, { "-1 << 63", INT64_MIN },
	{ "1 << 62", (int64_t)1 << 62 },
	{ "-9223372036854775807 - 1", INT64_MIN },
	/* short-circuit skips faults, as in C */
	{ "0 && 1 / 0", 0 }, { "1 || 1 / 0", 1 }, { "1 ? 2 : 1 / 0", 2 },
	{ "lane != 5 && 64 / (lane - 5)", 0 },
	/* variables */
	{ "lane", 5 }, { "warp", 1 }, { "tid", 37 },
	{ "threadIdx.x", 5 }, { "threadIdx.y", 1 }, { "threadIdx.z", 0 },
	{ "tx", 5 }, { "ty", 1 }, { "tz", 0 },
	{ "blockIdx.x", 3 }, { "blockIdx.y", 2 }, { "blockIdx.z", 1 },
	{ "bx", 3 }, { "by", 2 }, { "bz", 1 },
	{ "blockDim.x", 32 }, { "blockDim.y", 4 }, { "blockDim.z", 2 },
	{ "bdx", 32 }, { "bdy", 4 }, { "bdz", 2 },
	{ "blockIdx.x * blockDim.x + threadIdx.x", 101 },
	{ "ty*bdx+tx", 37 }, { "lane*33 + (lane ^ 3)", 171 },
};

static void test_values(void **state)
{
	size_t k;
	int failed = 0;

	(void)state;
	for (k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
		struct gm_expr *e = NULL;
		struct gm_expr_error err;
		int64_t got = 0;
		gm_status s = gm_expr_parse(values[k].text, &e, &err);

		if (s == GM_OK)
			s = gm_expr_eval(e, &vars, &got, &err);
		if (s != GM_OK || got != values[k].want) {
			print_error("'%s': status %d (%s) value %lld, want %lld\n",
				    values[k].text, (int)s, err.msg, (long long)got,
				    (long long)values[k].want);
			failed++;
		}
		gm_expr_free(e);
	}
	assert_int_equal(failed, 0);
}

static const struct {
	const char *text;
	gm_status status;
	long pos;              /* expected err.pos; -1 = do not check */
	const char *msg;       /* substring of err.msg */
} errors[] = {
	/* syntax, with the byte position of the fault */
	{ "", GM_ERR_PARSE, 0, "empty expression" },
	{ "   ", GM_ERR_PARSE, 3, "empty expression" },
	{ "1 +", GM_ERR_PARSE, 3, "syntax error at byte 3: unexpected end" },
	{ "(1 + 2", GM_ERR_PARSE, 6, "expected ')'" },
	{ "1 + 2)", GM_ERR_PARSE, 5, "unexpected text after the expression" },
	{ "1 2", GM_ERR_PARSE, 2, "unexpected text" },
	{ "lane @ 2", GM_ERR_PARSE, 5, "unexpected character '@'" },
	{ "lane\x01", GM_ERR_PARSE, 4, "unexpected byte 0x01" },
	{ "* 2", GM_ERR_PARSE, 0, "expected a number, a variable or '('" },
	{ "1 ? 2", GM_ERR_PARSE, 5, "expected ':'" },
	{ "1 ? 2 ; 3", GM_ERR_PARSE, 6, "unexpected character ';'" },
	{ "()", GM_ERR_PARSE, 1, "expected a number" },
	{ "0x", GM_ERR_PARSE, 0, "hex literal without digits" },
	{ "010", GM_ERR_PARSE, 0, "octal" },
	{ "12ab", GM_ERR_PARSE, 2, "invalid character in number" },
	{ "9223372036854775808", GM_ERR_PARSE, 0, "does not fit in 64 bits" },
	{ "0x10000000000000000", GM_ERR_PARSE, 0, "does not fit" },
	{ "lane = 2", GM_ERR_PARSE, 5, "unexpected character '='" },
	/* unknown variables name themselves and list the known ones */
	{ "foo + 1", GM_ERR_PARSE, 0, "unknown variable 'foo'; known: lane warp tid" },
	{ "1 + threadIdx.w", GM_ERR_PARSE, 4, "unknown variable 'threadIdx.w'" },
	{ "gridDim.x", GM_ERR_PARSE, 0, "blockDim.x/y/z" },
	{ "abcdefghijklmnopqrstuvwxyz", GM_ERR_PARSE, 0, "'abcdefghijklmnopqrst...'" },
	/* evaluation faults name the lane (5) */
	{ "1 / 0", GM_ERR_EVAL, 2, "division by zero at lane 5" },
	{ "64 / (lane - 5)", GM_ERR_EVAL, 3, "division by zero at lane 5" },
	{ "1 % 0", GM_ERR_EVAL, 2, "modulo by zero at lane 5" },
	{ "1 << 64", GM_ERR_EVAL, 2, "shift count 64 outside 0..63 at lane 5" },
	{ "1 << -1", GM_ERR_EVAL, 2, "shift count -1" },
	{ "1 >> 64", GM_ERR_EVAL, 2, "shift count 64" },
	{ "1 << 63", GM_ERR_EVAL, 2, "overflow in '<<'" },
	{ "3 << 62", GM_ERR_EVAL, 2, "overflow" },
	{ "9223372036854775807 + 1", GM_ERR_EVAL, 20, "signed 64-bit overflow in '+' at lane 5" },
	{ "-9223372036854775807 - 2", GM_ERR_EVAL, 21, "overflow in '-'" },
	{ "4611686018427387904 * 2", GM_ERR_EVAL, 20, "overflow in '*'" },
	{ "(-9223372036854775807 - 1) / -1", GM_ERR_EVAL, 27, "overflow in '/'" },
	{ "(-9223372036854775807 - 1) % -1", GM_ERR_EVAL, 27, "overflow in '%'" },
	{ "-(-9223372036854775807 - 1)", GM_ERR_EVAL, 0, "overflow in 'unary -'" },
};

static void test_errors(void **state)
{
	size_t k;
	int failed = 0;

	(void)state;
	for (k = 0; k < sizeof(errors) / sizeof(errors[0]); k++) {
		struct gm_expr *e = NULL;
		struct gm_expr_error err;
		int64_t got;
		gm_status s = gm_expr_parse(errors[k].text, &e, &err);

		if (s == GM_OK)
			s = gm_expr_eval(e, &vars, &got, &err);
		if (s != errors[k].status || !strstr(err.msg, errors[k].msg) ||
		    (errors[k].pos >= 0 && err.pos != (size_t)errors[k].pos) ||
		    (s == GM_ERR_EVAL && err.lane != 5) ||
		    (s == GM_ERR_PARSE && (e != NULL || err.lane != -1))) {
			print_error("'%s': status %d pos %zu lane %d '%s'; want %d pos %ld '%s'\n",
				    errors[k].text, (int)s, err.pos, err.lane, err.msg,
				    (int)errors[k].status, errors[k].pos, errors[k].msg);
			failed++;
		}
		gm_expr_free(e);
	}
	assert_int_equal(failed, 0);
}

static char *repeat(const char *head, const char *unit, int n, const char *tail)
{
	size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(tail) + 1;
	char *s = malloc(len);
	int k;

	assert_non_null(s);
	strcpy(s, head);
	for (k = 0; k < n; k++)
		strcat(s, unit);
	strcat(s, tail);
	return s;
}

static gm_status parse_eval(const char *text, int64_t *out, struct gm_expr_error *err)
{
	struct gm_expr *e;
	gm_status s = gm_expr_parse(text, &e, err);

	if (s == GM_OK)
		s = gm_expr_eval(e, &vars, out, err);
	gm_expr_free(e);
	return s;
}

static void test_depth_and_length(void **state)
{
	struct gm_expr_error err;
	int64_t v = 0;
	char *open = repeat("", "(", 99, "1");
	char *ok = repeat(open, ")", 99, "");
	char *deep = repeat("", "(", 3000, "1");
	char *neg = repeat("", "-", 300, "1");
	char *sum = repeat("1", "+1", 1500, "");
	char *tern = repeat("1", "?1:0", 300, "");
	char *lng = repeat("", "1", GM_EXPR_MAX_LEN + 1, "");

	(void)state;
	assert_int_equal(parse_eval(ok, &v, &err), GM_OK);
	assert_int_equal(v, 1);
	assert_int_equal(parse_eval(deep, &v, &err), GM_ERR_PARSE);
	assert_non_null(strstr(err.msg, "nested too deeply"));
	assert_int_equal(parse_eval(neg, &v, &err), GM_ERR_PARSE);
	assert_non_null(strstr(err.msg, "nested too deeply"));
	/* long flat chains are not deep */
	assert_int_equal(parse_eval(sum, &v, &err), GM_OK);
	assert_int_equal(v, 1501);
	assert_int_equal(parse_eval(tern, &v, &err), GM_ERR_PARSE);
	assert_int_equal(parse_eval(lng, &v, &err), GM_ERR_PARSE);
	assert_non_null(strstr(err.msg, "too long"));
	free(open);
	free(ok);
	free(deep);
	free(neg);
	free(sum);
	free(tern);
	free(lng);
}

static void test_reuse_and_null(void **state)
{
	struct gm_expr *e;
	struct gm_expr_error err;
	struct gm_thread_vars v = vars;
	int64_t got;
	int lane;

	(void)state;
	assert_int_equal(gm_expr_parse("lane * 2 + warp", &e, &err), GM_OK);
	for (lane = 0; lane < 32; lane++) {
		v.lane = lane;
		assert_int_equal(gm_expr_eval(e, &v, &got, NULL), GM_OK);
		assert_int_equal(got, 2 * lane + 1);
	}
	assert_int_equal(gm_expr_eval(e, NULL, &got, &err), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_expr_eval(NULL, &v, &got, &err), GM_ERR_INVALID_ARG);
	gm_expr_free(e);
	gm_expr_free(NULL);
	assert_int_equal(gm_expr_parse(NULL, &e, &err), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_expr_parse("1", NULL, &err), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_expr_parse("1 +", &e, NULL), GM_ERR_PARSE);
	assert_null(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth_and_length),
		cmocka_unit_test(test_reuse_and_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
