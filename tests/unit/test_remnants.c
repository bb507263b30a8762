/* test_remnants.c - the remnants family's table, its unit, run --scrub, the
 * second-process entry point refusing a call that is not its own, and the
 * tools that read runs over the committed one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "gpumem/bench.h"
#include "gpumem/units.h"
#include "cli/cli.h"
#include "families/remnants/remnants_shapes.h"

static void test_cases(void **state)
{
	int n, seen = 0, quick = 0, full = 0;
	const struct gm_case *c = gm_registry_cases(&n);

	(void)state;
	for (int i = 0; i < n; i++) {
		if (strcmp(c[i].family->name, "remnants"))
			continue;
		seen++;
		quick += c[i].quick;
		full += c[i].full;
		/* not bandwidth: the launch model and the DRAM bound leave them alone */
		assert_int_equal(c[i].kind, GM_KIND_MEASURE);
		assert_int_equal(c[i].timing, GM_TIME_SELF);
		assert_int_equal(c[i].npatterns, 0);
		if (gm_case_param(&c[i], "method", -1) == RM_SCRUB_COST) {
			assert_int_equal(c[i].unit, GM_UNIT_US);
			continue;
		}
		assert_int_equal(c[i].unit, GM_UNIT_FRACTION);
		assert_int_equal(c[i].nextras, 4);
		assert_string_equal(c[i].extras[2].name, "scrubbed");
		assert_true(gm_case_param(&c[i], "bytes", 0) % 8 == 0 && gm_case_param(&c[i], "bytes2", 0) % 8 == 0);
	}
	assert_true(seen >= 14);
	assert_int_equal(quick, 1);
	assert_true(full >= 1); /* proc_exit starts a process per trial */
}

static void test_unit(void **state)
{
	enum gm_unit u;

	(void)state;
	assert_string_equal(gm_unit_name(GM_UNIT_FRACTION), "fraction");
	assert_int_equal(gm_unit_parse("fraction", &u), GM_OK);
	assert_int_equal(u, GM_UNIT_FRACTION);
	assert_false(gm_unit_higher_is_better(GM_UNIT_FRACTION)); /* fewer remnants is better */
}

static void test_scrub_option(void **state)
{
	const char *with[] = { "run", "remnants", "--scrub" };
	const char *without[] = { "run", "remnants" };
	struct gm_run_args a;
	char err[256];

	(void)state;
	assert_int_equal(gm_run_args_parse(3, (char **)with, &a, err, sizeof(err)), GM_OK);
	assert_int_equal(a.scrub, 1);
	gm_run_args_free(&a);
	assert_int_equal(gm_run_args_parse(2, (char **)without, &a, err, sizeof(err)), GM_OK);
	assert_int_equal(a.scrub, 0);
	gm_run_args_free(&a);
	gm_gpu_set_scrub(1);
#ifdef GPUMEM_HAVE_CUDA
	assert_int_equal(gm_gpu_scrub_on(), 1);
#endif
	gm_gpu_set_scrub(0);
	assert_int_equal(gm_gpu_scrub_on(), 0);
	gm_gpu_free(NULL);
	gm_gpu_free_host(NULL, 16);
}

/* The second-process mode with a wrong argument count or no GPU behind it ends with a status, silently. */
static void test_child_entry(void **state)
{
	char cmd[1024], out[256];
	const char *bin = getenv("GPUMEM_BIN");
	FILE *p;
	size_t len;
	int st;

	(void)state;
	if (!bin)
		skip();
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", bin, RM_CHILD_COMMAND);
	p = popen(cmd, "r");
	assert_non_null(p);
	len = fread(out, 1, sizeof(out) - 1, p);
	st = pclose(p);
	assert_int_equal(len, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) != 0);
}

/* report (table, CSV, HTML), predict and compare over the committed H100 run: the fraction cases pass through. */
static void test_tools_over_run(void **state)
{
	static const char *const cmds[] = {
		"report '%s/%s'", "report '%s/%s' --csv", "predict '%s/%s'", "compare '%s/%s' '%s/%s'",
		"report '%s/%s' -o /dev/null",
	};
	const char *bin = getenv("GPUMEM_BIN"), *src = getenv("GPUMEM_SRC");
	const char *run = "tests/fixtures/runs/h100/remnants.json";
	char args[2048], cmd[4096];

	(void)state;
	if (!bin || !src)
		skip();
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(args, sizeof(args), cmds[i], src, run, src, run);
		snprintf(cmd, sizeof(cmd), "'%s' %s >/dev/null 2>&1", bin, args);
		int st = system(cmd);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			fail_msg("'%s' exited %d", args, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_unit),
		cmocka_unit_test(test_scrub_option),
		cmocka_unit_test(test_child_entry),
		cmocka_unit_test(test_tools_over_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
