/* test_results.c - JSON round trip, CSV shape, atomic output files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumem/io.h"

static void fill_result(struct gm_run_result *r)
{
	struct gm_case_result *c;

	gm_result_init(r);
	snprintf(r->command, sizeof(r->command), "gpumem run copy --json \"x.json\"");
	r->have_device = 1;
	snprintf(r->dev.name, sizeof(r->dev.name), "Test GPU \"quoted\"");
	r->dev.cc_major = 9;
	r->dev.sm_count = 132;
	r->dev.peak_gbs = 3352.32;
	r->dev.l2_bytes = 50331648;
	r->seed = 1234;
	r->reps = 3;
	c = gm_result_add(r);
	snprintf(c->name, sizeof(c->name), "copy.v2_b16");
	snprintf(c->family, sizeof(c->family), "copy");
	snprintf(c->param_keys[0], sizeof(c->param_keys[0]), "elem_bytes");
	c->params[0].key = c->param_keys[0];
	c->params[0].value = 16;
	c->nparams = 1;
	c->verified = 1;
	c->nsamples = 3;
	c->samples_ms = calloc(3, sizeof(double));
	c->samples_ms[0] = 2.5;
	c->samples_ms[1] = 2.25;
	c->samples_ms[2] = 2.75;
	gm_stats_compute(c->samples_ms, 3, &c->ms);
	c->traffic.bytes_useful = 8589934592.0;
	c->gbs_median = 3435.97;
	c->npred = 1;
	snprintf(c->pred[0].what, sizeof(c->pred[0].what), "load in");
	snprintf(c->pred[0].space, sizeof(c->pred[0].space), "global");
	c->pred[0].per_request = 16;
	c = gm_result_add(r);
	snprintf(c->name, sizeof(c->name), "stride.b4_s02");
	c->status = GM_CASE_FAILED;
	snprintf(c->message, sizeof(c->message), "validation failed: word 3");
}

static void test_json_round_trip(void **state)
{
	struct gm_run_result a, b;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fill_result(&a);
	assert_int_equal(gm_json_write(f, &a), GM_OK);
	fclose(f);
	assert_int_equal(gm_json_read(path, &b), GM_OK);
	assert_string_equal(b.command, a.command);
	assert_string_equal(b.dev.name, a.dev.name);
	assert_int_equal(b.dev.sm_count, 132);
	assert_int_equal(b.ncases, 2);
	assert_string_equal(b.cases[0].name, "copy.v2_b16");
	assert_int_equal(b.cases[0].nsamples, 3);
	assert_true(b.cases[0].samples_ms[1] == 2.25);
	assert_true(b.cases[0].ms.median == 2.5);
	assert_int_equal(b.cases[0].params[0].value, 16);
	assert_string_equal(b.cases[0].params[0].key, "elem_bytes");
	assert_true(b.cases[0].pred[0].per_request == 16);
	assert_int_equal(b.cases[1].status, GM_CASE_FAILED);
	assert_string_equal(b.cases[1].message, "validation failed: word 3");
	assert_int_equal(b.seed, 1234);
	gm_result_release(&a);
	gm_result_release(&b);
	unlink(path);
}

static void test_json_rejects_foreign(void **state)
{
	struct gm_run_result r;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(write(fd, "{\"a\": 1}", 8) == 8);
	close(fd);
	assert_int_equal(gm_json_read(path, &r), GM_ERR_PARSE);
	assert_int_equal(gm_json_read("/nonexistent/x.json", &r), GM_ERR_PARSE);
	unlink(path);
}

static void test_csv_rows(void **state)
{
	struct gm_run_result a;
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int lines = 0;

	(void)state;
	fill_result(&a);
	assert_int_equal(gm_csv_write(f, &a), GM_OK);
	fclose(f);
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	assert_non_null(strstr(buf, "copy.v2_b16,copy"));
	assert_non_null(strstr(buf, ",failed,"));
	gm_result_release(&a);
}

static void test_outfile_atomic(void **state)
{
	struct gm_outfile o;
	struct stat st;
	const char *path = "/tmp/gm_outfile_test.txt";

	(void)state;
	unlink(path);
	assert_int_equal(gm_outfile_open(&o, path), GM_OK);
	fputs("partial", o.f);
	assert_int_equal(stat(path, &st), -1); /* nothing visible before commit */
	gm_outfile_abort(&o);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(stat(o.tmp, &st), -1); /* temporary removed */
	assert_int_equal(gm_outfile_open(&o, path), GM_OK);
	fputs("whole", o.f);
	assert_int_equal(gm_outfile_commit(&o), GM_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((int)st.st_size, 5);
	unlink(path);
	assert_int_equal(gm_outfile_open(&o, "/nonexistent-dir/x.json"), GM_ERR_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_json_rejects_foreign),
		cmocka_unit_test(test_csv_rows), cmocka_unit_test(test_outfile_atomic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
