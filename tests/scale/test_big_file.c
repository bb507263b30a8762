/*
 * test_big_file.c - a run file of about 100 MB (generated here with the JSON
 * writer) is read by `gpumem report` and `gpumem compare` in bounded memory:
 * each must succeed and stay under 3 GiB of resident memory. The times are
 * printed, never asserted (a busy machine is not a slow gpumem; the time
 * targets are in scripts/bench/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gpumem/io.h"
#include "gpumem/result.h"

static char BIG_PATH_BUF[64], HTML_BUF[64];
#define BIG_PATH BIG_PATH_BUF
#define BIG_BYTES (100L << 20)
#define SAMPLES 20

static void fill_case(struct gm_case_result *c, int i)
{
	snprintf(c->name, sizeof(c->name), "stride.b04_s%06d", i);
	snprintf(c->family, sizeof(c->family), "stride");
	snprintf(c->label, sizeof(c->label), "b04_s%06d", i);
	snprintf(c->param_keys[0], sizeof(c->param_keys[0]), "stride");
	c->params[0].key = c->param_keys[0];
	c->params[0].value = i % 4096;
	c->nparams = 1;
	c->kind = GM_KIND_DRAM;
	c->unit = GM_UNIT_GBS;
	c->status = GM_CASE_OK;
	c->verified = 1;
	c->nsamples = SAMPLES;
	c->samples_ms = calloc(SAMPLES, sizeof(double));
	for (int k = 0; k < SAMPLES; k++)
		c->samples_ms[k] = 1.0 + 0.001 * ((i + k) % 7);
	gm_stats_compute(c->samples_ms, SAMPLES, &c->ms);
	c->traffic.bytes_useful = c->traffic.bytes_hw = 4294967296.0;
	c->value.median = c->gbs_median = 4294967296.0 / (c->ms.median * 1e-3) / 1e9;
	c->value.min = c->gbs_min = c->value.max = c->gbs_max = c->value.median;
}

/* Write run documents until the file passes BIG_BYTES; returns the case count. */
static int write_big(void)
{
	struct gm_run_result r;
	FILE *f;
	long size = 0;
	int n = 20000;

	for (;;) {
		gm_result_init(&r);
		snprintf(r.tool_version, sizeof(r.tool_version), "test");
		for (int i = 0; i < n; i++)
			fill_case(gm_result_add(&r), i);
		f = fopen(BIG_PATH, "w");
		assert_non_null(f);
		assert_int_equal(gm_json_write(f, &r), GM_OK);
		size = ftell(f);
		fclose(f);
		gm_result_release(&r);
		if (size >= BIG_BYTES)
			return n;
		n = (int)((double)n * BIG_BYTES / size * 1.02) + 1;
	}
}

/* Run cmd; wall seconds and the children's peak resident memory in MiB. */
static int timed(const char *cmd, double *secs, long *rss_mib)
{
	struct timespec a, b;
	struct rusage ru;
	int st;

	clock_gettime(CLOCK_MONOTONIC, &a);
	st = system(cmd);
	clock_gettime(CLOCK_MONOTONIC, &b);
	getrusage(RUSAGE_CHILDREN, &ru);
	*secs = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
	*rss_mib = ru.ru_maxrss / 1024;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_big_file(void **state)
{
	/* own paths: several builds may run this test at once */
	char cmd[1024];
	double s;
	long rss;
	int n = (snprintf(BIG_PATH_BUF, sizeof(BIG_PATH_BUF), "/tmp/gm_big_run.%d.json", (int)getpid()),
		 snprintf(HTML_BUF, sizeof(HTML_BUF), "/tmp/gm_big_report.%d.html", (int)getpid()), write_big());
	const char *bin = getenv("GPUMEM_BIN");

	(void)state;
	assert_non_null(bin);
	snprintf(cmd, sizeof(cmd), "'%s' report %s -o %s >/dev/null", bin, BIG_PATH, HTML_BUF);
	assert_int_equal(timed(cmd, &s, &rss), 0);
	printf("report of a %d-case run file (>= 100 MiB): %.1f s, peak %ld MiB\n", n, s, rss);
	assert_true(rss < 3072);
	snprintf(cmd, sizeof(cmd), "'%s' compare %s %s >/dev/null", bin, BIG_PATH, BIG_PATH);
	assert_int_equal(timed(cmd, &s, &rss), 0);
	printf("compare of two such files: %.1f s, peak %ld MiB (largest child so far)\n", s, rss);
	assert_true(rss < 3072);
	unlink(BIG_PATH);
	unlink(HTML_BUF);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_big_file) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
