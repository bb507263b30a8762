/* test_cli.c - option parsing, and the binary's error paths on a machine
 * without a GPU (exit codes, one-line messages, no output file left). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/options.h"

#include "run_bin.h"

static int parse(const char *const *argv, int argc, struct gm_run_args *a, char *err)
{
	return gm_run_args_parse(argc, (char **)argv, a, err, 256);
}

static void test_parse_ok(void **state)
{
	const char *argv[] = { "run", "copy", "--json", "a.json", "--csv=b.csv", "--reps", "5",
			       "--size", "512M", "--device", "1", "--quick", "stride.b4" };
	struct gm_run_args a;
	char err[256];

	(void)state;
	assert_int_equal(parse(argv, 13, &a, err), GM_OK);
	assert_string_equal(a.json_path, "a.json");
	assert_string_equal(a.csv_path, "b.csv");
	assert_int_equal(a.reps, 5);
	assert_true(a.size == 512ull << 20);
	assert_int_equal(a.device, 1);
	assert_int_equal(a.quick, 1);
	assert_int_equal(a.nselectors, 2);
	assert_string_equal(a.selectors[1], "stride.b4");
	gm_run_args_free(&a);
}

static void test_parse_errors(void **state)
{
	static const struct { const char *argv[4]; int argc; const char *needle; } rows[] = {
		{ { "run", "--reps", "0" }, 3, "--reps" },
		{ { "run", "--reps", "x" }, 3, "--reps" },
		{ { "run", "--size", "12Q" }, 3, "--size" },
		{ { "run", "--size", "-4G" }, 3, "--size" },
		{ { "run", "--json" }, 2, "needs a value" },
		{ { "run", "--frobnicate" }, 2, "unknown option '--frobnicate'" },
		{ { "run", "--device", "-1" }, 3, "--device" },
		{ { "run", "--json", "x", "--csv" }, 4, "needs a value" },
	};
	struct gm_run_args a;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse(rows[i].argv, rows[i].argc, &a, err), GM_ERR_INVALID_ARG);
		if (!strstr(err, rows[i].needle))
			fail_msg("row %zu: '%s' lacks '%s'", i, err, rows[i].needle);
	}
	const char *same[] = { "run", "--json", "x", "--csv", "x" };
	assert_int_equal(parse(same, 5, &a, err), GM_ERR_INVALID_ARG);
}

static void test_binary_usage(void **state)
{
	char out[8192];

	(void)state;
	assert_int_equal(run_bin("", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("--version", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "gpumem "));
	assert_int_equal(run_bin("--help", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "explain"));
	assert_int_equal(run_bin("frob", out, sizeof(out)), GM_EXIT_USAGE);
	assert_non_null(strstr(out, "unknown command 'frob'"));
	assert_int_equal(run_bin("run --help", out, sizeof(out)), 0);
	assert_int_equal(run_bin("run --size 12Q", out, sizeof(out)), GM_EXIT_USAGE);
	assert_non_null(strstr(out, "error: --size"));
}

static void test_binary_list(void **state)
{
	static char out[1 << 20]; /* the whole list: a reader that stops early kills it with SIGPIPE */

	(void)state;
	assert_int_equal(run_bin("list", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "copy.memcpy_d2d"));
	assert_non_null(strstr(out, "transpose."));
	assert_non_null(strstr(out, "banks."));
	assert_int_equal(run_bin("list stride", out, sizeof(out)), 0);
	assert_null(strstr(out, "copy."));
	assert_int_equal(run_bin("list nosuch", out, sizeof(out)), GM_EXIT_USAGE);
}

static void test_binary_unknown_benchmark(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_bin("run copi", out, sizeof(out)), GM_EXIT_USAGE);
	assert_non_null(strstr(out, "error: no benchmark matches 'copi'"));
	assert_non_null(strstr(out, "did you mean 'copy'"));
}

static void test_binary_unwritable_output(void **state)
{
	char out[4096];

	(void)state;
	/* the path is checked before the device is even looked for */
	assert_int_equal(run_bin("run copy --json /nonexistent-dir/r.json", out, sizeof(out)), GM_EXIT_IO);
	assert_non_null(strstr(out, "error: cannot write '/nonexistent-dir/r.json'"));
	assert_int_equal(run_bin("run copy --csv /nonexistent-dir/r.csv", out, sizeof(out)), GM_EXIT_IO);
}

static int have_gpu(void)
{
	char out[4096];
	return run_bin("info", out, sizeof(out)) == 0;
}

static void test_binary_no_gpu(void **state)
{
	char out[4096];
	struct stat st;

	(void)state;
	if (have_gpu())
		skip();
	unlink("/tmp/gm_cli_nogpu.json");
	assert_int_equal(run_bin("info", out, sizeof(out)), GM_EXIT_NO_DEVICE);
	assert_non_null(strstr(out, "error: "));
	assert_int_equal(run_bin("run copy --json /tmp/gm_cli_nogpu.json", out, sizeof(out)),
			 GM_EXIT_NO_DEVICE);
	assert_non_null(strstr(out, "error: "));
	/* one line, and no half-written or temporary file left behind */
	assert_non_null(strchr(out, '\n'));
	assert_null(strchr(strchr(out, '\n') + 1, '\n'));
	assert_int_equal(stat("/tmp/gm_cli_nogpu.json", &st), -1);
	assert_int_equal(system("ls /tmp/gm_cli_nogpu.json.* >/dev/null 2>&1"), 512);
}

/* explain --run: bad combinations refused with one line; --source shows the kernel without a GPU. */
/* Under compute-sanitizer or ncu (the variables their injection sets, seen on an H100) the run says so. */
static void test_tool_note(void **state)
{
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	unsetenv("NV_SANITIZER_INJECTION_TRANSPORT_TYPE");
	unsetenv("NV_SANITIZER_INJECTION_PORT_BASE");
	unsetenv("NV_NSIGHT_INJECTION_TRANSPORT_TYPE");
	unsetenv("NV_NSIGHT_INJECTION_PORT_BASE");
	assert_null(gm_cli_tool());
	setenv("NV_SANITIZER_INJECTION_PORT_BASE", "49152", 1);
	assert_string_equal(gm_cli_tool(), "compute-sanitizer");
	gm_cli_tool_note(f);
	fclose(f);
	assert_non_null(strstr(buf, "timed under compute-sanitizer"));
	unsetenv("NV_SANITIZER_INJECTION_PORT_BASE");
	setenv("NV_NSIGHT_INJECTION_TRANSPORT_TYPE", "uds", 1);
	assert_non_null(strstr(gm_cli_tool(), "Nsight"));
	unsetenv("NV_NSIGHT_INJECTION_TRANSPORT_TYPE");
}

static void test_explain_run_args(void **state)
{
	char out[65536];
	int rc;

	(void)state;
	assert_int_equal(run_bin("explain --reps 5 gid", out, sizeof(out)), GM_EXIT_USAGE);
	assert_non_null(strstr(out, "go with --run"));
	assert_int_equal(run_bin("explain --run --space shared --op store lane", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("explain --run --op store --type short gid", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("explain --run --op store --hint nc gid", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("explain --run --n 0 gid", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("explain --run --hint xx gid", out, sizeof(out)), GM_EXIT_USAGE);
	assert_int_equal(run_bin("explain --run 'gid +'", out, sizeof(out)), GM_EXIT_USAGE);
	rc = run_bin("explain --run --source --type double 'n - 1 - gid'", out, sizeof(out));
	if (rc == GM_EXIT_NO_DEVICE) /* a build without CUDA says so */
		return;
	assert_int_equal(rc, GM_EXIT_OK);
	assert_non_null(strstr(out, "gm_x_run"));
	assert_non_null(strstr(out, "(n_ - 1LL - gid_)"));
}

/* The option table drives the parser: values, flags, operands in order, the caller's argv untouched. */
static void test_opts_table(void **state)
{
	const char *argv[] = { "run", "copy", "--reps=3", "stride", "--quick", "--", "--literal" };
	char *copy[7];
	struct gm_run_args a;
	char err[256];

	(void)state;
	memcpy(copy, argv, sizeof(argv));
	assert_int_equal(gm_run_args_parse(7, copy, &a, err, sizeof(err)), GM_OK);
	assert_int_equal(a.reps, 3);
	assert_int_equal(a.quick, 1);
	assert_int_equal(a.nselectors, 3);
	assert_string_equal(a.selectors[0], "copy");
	assert_string_equal(a.selectors[1], "stride");
	assert_string_equal(a.selectors[2], "--literal");
	gm_run_args_free(&a);
	for (int i = 0; i < 7; i++) /* run records its command line from argv: never permuted */
		assert_ptr_equal(copy[i], argv[i]);
	const char *help[] = { "run", "--help", "--frobnicate" };
	assert_int_equal(gm_run_args_parse(3, (char **)help, &a, err, sizeof(err)), GM_OK);
	assert_int_equal(a.help, 1);
	gm_run_args_free(&a);
	/* every table: options named once, a short letter is the row's key, ids >= 256 otherwise */
	for (int c = 0; c < gm_ncommands; c++) {
		const struct gm_cmd_doc *d = gm_commands[c].doc;
		int has_help = 0;

		for (const struct gm_opt *o = d->opts; o->name || o->help; o++) {
			assert_non_null(o->help);
			if (o->key <= 0)
				continue;
			has_help |= o->key == 'h';
			assert_true(o->short_name ? o->key == o->short_name : o->key >= 256);
			for (const struct gm_opt *p = o + 1; p->name || p->help; p++)
				if (p->key > 0 && (!strcmp(o->name, p->name) || p->key == o->key))
					fail_msg("%s: option '%s' twice", d->name, o->name);
		}
		if (!has_help)
			fail_msg("%s has no --help row", d->name);
	}
}

/* "\\fB\\-\\-name\\fR" with the name's hyphens escaped, as the manual writes an option. */
static void roff_name(char *buf, size_t n, const char *name)
{
	size_t k = (size_t)snprintf(buf, n, "\\fB\\-\\-");

	for (; *name && k + 4 < n; name++) {
		if (*name == '-')
			buf[k++] = '\\';
		buf[k++] = *name;
	}
	snprintf(buf + k, n - k, "\\fR");
}

/* --help, the manual page and the completion come from the same tables. */
static void test_help_man_completion(void **state)
{
	static char out[262144], man[262144], help[16384];
	char args[64];

	(void)state;
	assert_int_equal(run_bin("help --man", man, sizeof(man)), 0);
	assert_non_null(strstr(man, ".TH GPUMEM 1"));
	for (int c = 0; c < gm_ncommands; c++) {
		const struct gm_cmd_doc *d = gm_commands[c].doc;
		char want[96];

		snprintf(args, sizeof(args), "%s --help", d->name);
		assert_int_equal(run_bin(args, help, sizeof(help)), 0);
		snprintf(args, sizeof(args), "help %s", d->name);
		assert_int_equal(run_bin(args, out, sizeof(out)), 0);
		assert_string_equal(out, help);
		snprintf(want, sizeof(want), ".SS \"gpumem %s\"", d->name);
		if (!strstr(man, want))
			fail_msg("the manual has no '%s'", want);
		for (const struct gm_opt *o = d->opts; o->name || o->help; o++) {
			char flag[64], roff[80];

			if (o->key <= 0)
				continue;
			snprintf(flag, sizeof(flag), "--%s", o->name);
			roff_name(roff, sizeof(roff), o->name);
			if (!strstr(help, flag) || !strstr(man, roff))
				fail_msg("%s %s: missing from --help or the manual", d->name, flag);
		}
	}
	assert_int_equal(run_bin("help --completion", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "complete -F _gpumem gpumem"));
	assert_non_null(strstr(out, "--all-devices"));
	assert_int_equal(run_bin("help nosuch", out, sizeof(out)), GM_EXIT_USAGE);
	assert_non_null(strstr(out, "unknown command 'nosuch'"));
	assert_int_equal(run_bin("help", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "calibrate"));
}

/* Refusals of the commands that parsed by hand: same messages, same exit codes. */
static void test_option_errors(void **state)
{
	static const struct { const char *args; int rc; const char *needle; } rows[] = {
		{ "info --bogus", 2, "unknown option '--bogus' for info" },
		{ "info stray", 2, "unknown option 'stray' for info" },
		{ "list --bogus", 2, "no benchmark matches '--bogus'" },
		{ "compare a.json", 2, "compare needs two JSON files" },
		{ "compare a b c", 2, "compare takes two run files, not 'c' too" },
		{ "compare a b --threshold", 2, "--threshold needs a percentage" },
		{ "compare a b --frob", 2, "unknown option '--frob' (see 'gpumem compare --help')" },
		{ "report", 2, "report needs a JSON file" },
		{ "report a.json -o", 2, "'-o' needs a file name" },
		{ "report a.json b.json", 2, "several runs need -o FILE.html" },
		{ "fleet --threshold", 2, "option '--threshold' needs a value" },
		{ "fleet --threshold=0 x.json", 2, "--threshold: '0' is not a number in (0, 1000]" },
		{ "selftest", 2, "selftest needs --counters" },
		{ "selftest --counters --device x", 2, "--device: " },
		{ "selftest -x", 2, "unknown option '-x' (see 'gpumem selftest --help')" },
		{ "calibrate --bogus", 2, "unknown option '--bogus'; see 'gpumem calibrate --help'" },
		{ "calibrate --from", 2, "option needs a value: '--from'" },
		{ "calibrate stray", 2, "unexpected argument 'stray'" },
		{ "predict", 2, "one run file expected" },
		{ "predict x.json --self --profile p.json", 2, "--profile and --self both given" },
		{ "explain", 2, "no index expression" },
		{ "explain --type", 2, "option '--type' needs a value; see 'gpumem explain --help'" },
		{ "explain --bogus lane", 2, "unknown option '--bogus'; see 'gpumem explain --help'" },
		{ "explain lane tid", 2, "unexpected argument 'tid'" },
		{ "explain --space x lane", 2, "invalid value 'x' for --space: use global or shared" },
		{ "run --json", 2, "option '--json' needs a value (see 'gpumem run --help')" },
	};
	char out[8192];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc = run_bin(rows[i].args, out, sizeof(out));

		if (rc != rows[i].rc || !strstr(out, rows[i].needle))
			fail_msg("gpumem %s: exit %d, '%s' (want %d, '%s')", rows[i].args, rc, out, rows[i].rc,
				 rows[i].needle);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok), cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_binary_usage), cmocka_unit_test(test_binary_list),
		cmocka_unit_test(test_binary_unknown_benchmark),
		cmocka_unit_test(test_binary_unwritable_output), cmocka_unit_test(test_binary_no_gpu),
		cmocka_unit_test(test_tool_note),
		cmocka_unit_test(test_explain_run_args),
		cmocka_unit_test(test_opts_table), cmocka_unit_test(test_help_man_completion),
		cmocka_unit_test(test_option_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
