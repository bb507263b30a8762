/*
 * Regressions of the hardening work (issue 22, docs/HARDENING.md): each bug a
 * fuzzer or the sanitizer build found, checked in any build (the replay tests
 * fuzz_replay_* run the inputs themselves; under ASan/UBSan they also catch
 * the memory and undefined-behaviour side).
 *   - gm_multi_read of a plain run that fails to read leaves no devices (it leaked one);
 *   - JSON numbers past an integer field's range read as the nearest end of it
 *     (the C conversion was undefined): run documents and device blocks;
 *   - a profile's integer field past 1e9 is refused with the field named, and a
 *     number below 1e-6 (a denormal bandwidth made the launch model's prediction NaN).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpumem/fleet.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"
#include "gpumem/result.h"

static const char run_head[] =
	"{\"schema\": \"gpumem-run\", \"schema_version\": 2, \"tool_version\": \"0.1.0\", \"command\": \"\",";

static void test_multi_read_failed_single(void **state)
{
	char path[] = "/tmp/gm_harden_XXXXXX";
	int fd = mkstemp(path);
	struct gm_multi_run m;
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	/* a plain run whose case lacks its fields: not readable */
	fprintf(f, "%s \"cases\": [{\"name\": \"copy.v1_b8\", \"status\": \"ok\"}]}", run_head);
	fclose(f);
	assert_int_not_equal(gm_multi_read(path, &m), GM_OK);
	assert_int_equal(m.n, 0);
	assert_null(m.pl);
	assert_null(m.runs);
	remove(path);
}

static void test_run_numbers_out_of_range(void **state)
{
	char text[2048];
	struct gm_run_result r;

	(void)state;
	snprintf(text, sizeof(text),
		 "%s \"seed\": -5e300, \"array_bytes\": 1e300, \"reps\": 1e300, \"warmup\": -1e300,"
		 " \"device\": {\"index\": 1e300, \"sm_count\": -1e300, \"l2_bytes\": 1e300,"
		 " \"total_mem\": 9.3e18},"
		 " \"cases\": []}",
		 run_head);
	assert_int_equal(gm_json_read_text(text, &r), GM_OK);
	assert_int_equal(r.seed, 0);
	assert_int_equal(r.reps, INT_MAX);
	assert_int_equal(r.warmup, INT_MIN);
	assert_true(r.array_bytes > 0);
	if (r.have_device) {
		assert_int_equal(r.dev.index, INT_MAX);
		assert_int_equal(r.dev.sm_count, INT_MIN);
		assert_true(r.dev.l2_bytes > 0 && r.dev.total_mem > 0);
	}
	gm_result_release(&r);
}

static void test_block_numbers_out_of_range(void **state)
{
	char text[2048];
	struct gm_placement p;
	struct gm_run_result r;

	(void)state;
	snprintf(text, sizeof(text),
		 "{\"rank\": 1e300, \"device\": -1e300, \"pcie_gen\": 3, \"exit_code\": 1e20,"
		 " \"telemetry\": {\"samples\": 1e300, \"max_processes\": -1e300, \"ecc_corrected\": 1e300,"
		 " \"throttle_reasons\": -5},"
		 " \"run\": %s \"cases\": []}}",
		 run_head);
	memset(&p, 0, sizeof(p));
	gm_result_init(&r);
	assert_int_equal(gm_multi_block_load(text, &p, &r), GM_OK);
	assert_int_equal(p.rank, INT_MAX);
	assert_int_equal(p.device, INT_MIN);
	assert_int_equal(p.pcie_gen, 3);
	assert_int_equal(p.exit_code, INT_MAX);
	assert_int_equal(p.tel.samples, INT_MAX);
	assert_int_equal(p.tel.max_processes, INT_MIN);
	assert_true(p.tel.ecc_corrected > 0);
	assert_int_equal(p.tel.throttle_reasons, 0);
	gm_result_release(&r);
}

static void test_profile_int_too_large(void **state)
{
	struct gm_profile p, q;
	char why[512], *text = NULL, *at;
	size_t len = 0;
	FILE *m;

	(void)state;
	assert_int_equal(gm_profile_builtin(0, &p), GM_OK);
	m = open_memstream(&text, &len);
	assert_non_null(m);
	assert_int_equal(gm_profile_write(m, &p), GM_OK);
	fclose(m);
	at = strstr(text, "\"sm_count\":");
	assert_non_null(at);
	{
		/* sm_count: 1e12 (it is an int) */
		char *doc = malloc(len + 32), *end = strpbrk(at, ",}");
		assert_non_null(doc);
		assert_non_null(end);
		snprintf(doc, len + 32, "%.*s\"sm_count\": 1e12%s", (int)(at - text), text, end);
		why[0] = 0;
		assert_int_equal(gm_profile_parse(doc, "big.json", &q, why, sizeof(why)), GM_ERR_PARSE);
		assert_non_null(strstr(why, "big.json"));
		assert_non_null(strstr(why, "'sm_count'"));
		free(doc);
	}
	at = strstr(text, "\"l2_read_gbs\":");
	assert_non_null(at);
	{
		/* a denormal bandwidth: the launch model's time was infinite, its prediction NaN */
		char *doc = malloc(len + 32), *end = strpbrk(at, ",}");
		assert_non_null(doc);
		assert_non_null(end);
		snprintf(doc, len + 32, "%.*s\"l2_read_gbs\": 881e-320%s", (int)(at - text), text, end);
		why[0] = 0;
		assert_int_equal(gm_profile_parse(doc, "tiny.json", &q, why, sizeof(why)), GM_ERR_PARSE);
		assert_non_null(strstr(why, "'l2_read_gbs'"));
		free(doc);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_multi_read_failed_single),
		cmocka_unit_test(test_run_numbers_out_of_range),
		cmocka_unit_test(test_block_numbers_out_of_range),
		cmocka_unit_test(test_profile_int_too_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
