/*
 * test_explain.c - `gpumem explain` as a user runs it: exit codes, key
 * output lines, error lines on stderr, and --json that parses with the
 * expected keys. Runs the binary named by $GPUMEM_BIN.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>
#include <jansson.h>

enum stream { OUT, ERR };

struct run {
	int code;
	char out[1 << 16];
	char err[1 << 12];
};

/* Read everything `cmd` writes to stdout into buf; returns the exit code. */
static int capture(const char *cmd, char *buf, size_t cap)
{
	FILE *f = popen(cmd, "r");
	size_t n = 0, got;
	int st;

	assert_non_null(f);
	while ((got = fread(buf + n, 1, cap - 1 - n, f)) > 0)
		n += got;
	buf[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Run `gpumem explain ARGS`, stdout and stderr kept apart. */
static void run_explain(const char *args, struct run *r)
{
	const char *bin = getenv("GPUMEM_BIN");
	char cmd[1024], errfile[] = "/tmp/gm_explain_errXXXXXX";
	FILE *f;
	size_t n;
	int fd = mkstemp(errfile);

	assert_true(fd >= 0);
	snprintf(cmd, sizeof(cmd), "'%s' explain %s 2>%s", bin, args, errfile);
	r->code = capture(cmd, r->out, sizeof(r->out));
	f = fdopen(fd, "r");
	assert_non_null(f);
	n = fread(r->err, 1, sizeof(r->err) - 1, f);
	r->err[n] = '\0';
	fclose(f);
	remove(errfile);
}

static int have_binary(void)
{
	const char *bin = getenv("GPUMEM_BIN");

	return bin && *bin;
}

static const struct {
	const char *args;
	int code;
	enum stream where;
	const char *want;    /* substring of that stream */
} cases[] = {
	{ "lane", 0, OUT, "verdict: coalesced: 4 sectors per request, the minimum" },
	{ "lane", 0, OUT, "requests           1" },
	{ "'lane*2'", 0, OUT, "sectors (32 B)     8   (fewest possible 4)" },
	{ "'lane*2'", 0, OUT, "verdict: stride 2 elements touches 2x the sectors" },
	{ "'lane*2'", 0, OUT, "  16     32      128       4     1" },
	{ "--base 4 lane", 0, OUT, "misaligned by 4 B: 5 sectors instead of 4" },
	{ "--type double lane", 0, OUT, "coalesced: 8 sectors" },
	{ "--type float4 lane", 0, OUT, "lines (128 B)      4" },
	{ "--type 'long long' lane", 0, OUT, "8 B elements (long long)" },
	{ "--bytes 16 lane", 0, OUT, "16 B elements," },
	{ "--type char lane", 0, OUT, "sectors (32 B)     1" },
	{ "--block 16,2 'ty*1024+tx'", 0, OUT, "block 16x2x1" },
	{ "--block 48 --warp 1 tid", 0, OUT, "16 lanes, 16 active" },
	{ "--active 'lane<4' lane", 0, OUT, "32 lanes, 4 active" },
	{ "--active 'lane<4' lane", 0, OUT, "  20      -        -       -     -" },
	{ "--block-idx 2 'bx*32+lane'", 0, OUT, "blockIdx (2,0,0)" },
	{ "--op store 'lane*2'", 0, OUT, "global store" },
	{ "--space shared lane", 0, OUT, "conflict-free: 1 wavefront" },
	{ "--space shared 'lane*32'", 0, OUT, "verdict: 32-way bank conflict: 32 wavefronts instead of 1; pad the row to 33 elements" },
	{ "--space shared 'lane*32'", 0, OUT, "bank conflicts     31" },
	{ "--space shared 7", 0, OUT, "broadcast: all lanes read one word, 1 wavefront" },
	{ "--space shared --type float4 'lane*32'", 0, OUT, "wavefronts         32   (ideal 4)" },
	{ "--space shared --type double lane", 0, OUT, "bank conflicts     0" },
	{ "-- -lane+31", 0, OUT, "coalesced" },
	{ "--help", 0, OUT, "usage: gpumem explain" },
	{ "-h", 0, OUT, "--active EXPR" },
	/* errors: one line on stderr, exit 2 */
	{ "'lane*(2+'", 2, ERR, "error: syntax error at byte 8: unexpected end of expression\n    lane*(2+\n            ^\n" },
	{ "'lane $ 3'", 2, ERR, "    lane $ 3\n         ^\n" },
	{ "foo", 2, ERR, "error: unknown variable 'foo'; known: lane" },
	{ "'100/(lane-5)+100'", 2, ERR, "error: division by zero at lane 5\n" },
	{ "--active 'lane <' lane", 2, ERR, "(in --active)" },
	{ "--active '1/(lane-9)' lane", 2, ERR, "division by zero at lane 9 (in --active)" },
	{ "--type foo lane", 2, ERR, "error: unknown type 'foo'" },
	{ "--bytes 3 lane", 2, ERR, "error: element size 3 B is not 1, 2, 4, 8 or 16" },
	{ "--bytes x lane", 2, ERR, "error: invalid value 'x' for --bytes" },
	{ "--block 64,32 lane", 2, ERR, "the limit is 1024" },
	{ "--block 1,2,3,4 lane", 2, ERR, "invalid value '1,2,3,4' for --block" },
	{ "--block 16, lane", 2, ERR, "invalid value '16,' for --block" },
	{ "--warp 9 lane", 2, ERR, "error: warp 9 is outside the block" },
	{ "--space sharde lane", 2, ERR, "error: invalid value 'sharde' for --space: use global or shared" },
	{ "--op lod lane", 2, ERR, "use load or store" },
	{ "--base 2 lane", 2, ERR, "error: misaligned address 2 at lane 0" },
	{ "--base -8 lane", 2, ERR, "error: negative address -8 at lane 0" },
	{ "--base 12abc lane", 2, ERR, "invalid value '12abc' for --base" },
	{ "--nope lane", 2, ERR, "error: unknown option '--nope'" },
	{ "--warp", 2, ERR, "needs a value" },
	{ "", 2, ERR, "error: no index expression" },
	{ "lane lane", 2, ERR, "error: unexpected argument 'lane'" },
	{ "--type int --bytes 4 lane", 2, ERR, "--type and --bytes both given" },
};

static void test_cases(void **state)
{
	static struct run r;
	size_t k;
	int failed = 0;

	(void)state;
	if (!have_binary())
		skip();
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const char *text;

		run_explain(cases[k].args, &r);
		text = cases[k].where == OUT ? r.out : r.err;
		if (r.code != cases[k].code || !strstr(text, cases[k].want)) {
			print_error("explain %s: exit %d, want %d and '%s'\n--- stdout:\n%s--- stderr:\n%s\n",
				    cases[k].args, r.code, cases[k].code, cases[k].want,
				    r.out, r.err);
			failed++;
		}
		/* errors print nothing on stdout; output prints nothing on stderr */
		if (cases[k].code != 0 && r.out[0] != '\0') {
			print_error("explain %s: stdout not empty on error\n", cases[k].args);
			failed++;
		}
		if (cases[k].code == 0 && r.err[0] != '\0') {
			print_error("explain %s: stderr not empty: %s\n", cases[k].args, r.err);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

static void test_error_is_one_line(void **state)
{
	static struct run r;

	(void)state;
	if (!have_binary())
		skip();
	run_explain("--warp 9 lane", &r);
	assert_int_equal(r.code, 2);
	assert_non_null(strchr(r.err, '\n'));
	assert_string_equal(strchr(r.err, '\n'), "\n");
}

static json_t *explain_json(const char *args)
{
	static struct run r;
	json_error_t jerr;
	json_t *doc;

	run_explain(args, &r);
	assert_int_equal(r.code, 0);
	doc = json_loads(r.out, 0, &jerr);
	if (!doc)
		fail_msg("explain %s: bad JSON at line %d: %s\n%s", args, jerr.line,
			 jerr.text, r.out);
	return doc;
}

static void assert_keys(json_t *doc, const char *const *keys)
{
	for (; *keys; keys++)
		if (!json_object_get(doc, *keys))
			fail_msg("JSON lacks key '%s'", *keys);
}

static const char *const input_keys[] = {
	"space", "op", "elem_bytes", "block", "warp", "block_idx", "base",
	"active", "expr", "verdict", "lanes", NULL,
};

static void test_json_global(void **state)
{
	static const char *const keys[] = {
		"requests", "sectors", "lines", "bytes_requested",
		"bytes_transferred", "efficiency_pct", "type", NULL,
	};
	json_t *doc, *lanes;

	(void)state;
	if (!have_binary())
		skip();
	doc = explain_json("--json --base 32 'lane*2'");
	assert_keys(doc, input_keys);
	assert_keys(doc, keys);
	assert_string_equal(json_string_value(json_object_get(doc, "space")), "global");
	assert_string_equal(json_string_value(json_object_get(doc, "type")), "float");
	assert_string_equal(json_string_value(json_object_get(doc, "expr")), "lane*2");
	assert_true(json_is_null(json_object_get(doc, "active")));
	assert_int_equal(json_integer_value(json_object_get(doc, "sectors")), 8);
	assert_int_equal(json_integer_value(json_object_get(doc, "bytes_transferred")), 256);
	assert_int_equal(json_integer_value(json_object_get(doc, "base")), 32);
	lanes = json_object_get(doc, "lanes");
	assert_int_equal(json_array_size(lanes), 32);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(lanes, 3), "addr")), 56);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(lanes, 3), "sector")), 1);
	json_decref(doc);
}

static void test_json_shared(void **state)
{
	static const char *const keys[] = {
		"wavefronts", "ideal_wavefronts", "bank_conflicts", "max_ways", NULL,
	};
	json_t *doc, *lane;

	(void)state;
	if (!have_binary())
		skip();
	doc = explain_json("--json --space shared --bytes 8 --block 40 --warp 1 "
			   "--active 'lane != 3' 'lane*32'");
	assert_keys(doc, input_keys);
	assert_keys(doc, keys);
	assert_null(json_object_get(doc, "type")); /* --bytes: no type name */
	assert_int_equal(json_integer_value(json_object_get(doc, "elem_bytes")), 8);
	assert_int_equal(json_integer_value(json_object_get(doc, "warp")), 1);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(doc, "block"), 0)), 40);
	assert_string_equal(json_string_value(json_object_get(doc, "active")), "lane != 3");
	assert_int_equal(json_array_size(json_object_get(doc, "lanes")), 8);
	assert_int_equal(json_integer_value(json_object_get(doc, "wavefronts")), 7);
	assert_int_equal(json_integer_value(json_object_get(doc, "bank_conflicts")), 6);
	lane = json_array_get(json_object_get(doc, "lanes"), 3);
	assert_true(json_is_false(json_object_get(lane, "active")));
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_error_is_one_line),
		cmocka_unit_test(test_json_global),
		cmocka_unit_test(test_json_shared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
