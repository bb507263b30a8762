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

/* Run the gpumem binary with args; capture stdout+stderr into out. */
static int run_bin(const char *args, char *out, size_t n)
{
	char cmd[1024];
	FILE *p;
	size_t len;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", getenv("GPUMEM_BIN"), args);
	p = popen(cmd, "r");
	assert_non_null(p);
	len = fread(out, 1, n - 1, p);
	out[len] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

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
	char out[65536];

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok), cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_binary_usage), cmocka_unit_test(test_binary_list),
		cmocka_unit_test(test_binary_unknown_benchmark),
		cmocka_unit_test(test_binary_unwritable_output), cmocka_unit_test(test_binary_no_gpu),
		cmocka_unit_test(test_tool_note),
		cmocka_unit_test(test_explain_run_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
