/*
 * test_affinity.c - the pure-C pieces of host-transfer placement and
 * stability: CPU / node list parsing (sysfs local_cpulist, node/online), the
 * both-ways rate window of transfer's bidirectional cases, the stability
 * note a pinned line carries onto the spec sheet, and the between-processes
 * classes (src/core/stability.c) with their marks in the table and the JSON. No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/io.h"
#include "gpumem/result.h"
#include "gpu/affinity.h"
#include "families/common/xfer_shapes.h"
#include "planted.h"

#define WORD_BITS (8 * (int)sizeof(unsigned long))

static int has(const unsigned long *m, int c)
{
	return (m[c / WORD_BITS] >> (c % WORD_BITS)) & 1;
}

static void test_cpulist_ranges(void **st)
{
	unsigned long m[GM_AFF_WORDS];
	(void)st;

	assert_int_equal(gm_cpulist_parse("0-7,16-23\n", m, GM_AFF_MAX_CPUS), 16);
	assert_true(has(m, 0) && has(m, 7) && has(m, 16) && has(m, 23));
	assert_false(has(m, 8) || has(m, 15) || has(m, 24));
	assert_int_equal(gm_mask_count(m, GM_AFF_WORDS), 16);
	assert_int_equal(gm_cpulist_parse("3", m, GM_AFF_MAX_CPUS), 1);
	assert_true(has(m, 3));
	assert_int_equal(gm_cpulist_parse("0,0-1,1", m, GM_AFF_MAX_CPUS), 2);    /* overlaps count once */
	assert_int_equal(gm_cpulist_parse("64-127", m, GM_AFF_MAX_CPUS), 64);     /* crosses a word */
	assert_true(has(m, 64) && has(m, 127) && !has(m, 63));
	assert_int_equal(gm_cpulist_parse("\n", m, GM_AFF_MAX_CPUS), 0);         /* empty: no CPUs */
}

static void test_cpulist_malformed(void **st)
{
	unsigned long m[GM_AFF_WORDS];
	(void)st;

	assert_int_equal(gm_cpulist_parse("7-3", m, GM_AFF_MAX_CPUS), -1);
	assert_int_equal(gm_cpulist_parse("1,", m, GM_AFF_MAX_CPUS), -1);
	assert_int_equal(gm_cpulist_parse("a-b", m, GM_AFF_MAX_CPUS), -1);
	assert_int_equal(gm_cpulist_parse("1;2", m, GM_AFF_MAX_CPUS), -1);
	assert_int_equal(gm_cpulist_parse("-1", m, GM_AFF_MAX_CPUS), -1);
	assert_int_equal(gm_cpulist_parse("0-1024", m, GM_AFF_MAX_CPUS), -1);   /* beyond the mask */
	assert_int_equal(gm_cpulist_parse(NULL, m, GM_AFF_MAX_CPUS), -1);
}

/* Restore undoes nothing it did not do (a state with nothing changed). */
static void test_restore_untouched(void **st)
{
	struct gm_affinity a;
	(void)st;

	memset(&a, 0, sizeof(a));
	gm_affinity_restore(&a);
	gm_affinity_restore(&a);
	assert_int_equal(a.cpus_changed + a.policy_changed, 0);
}

static void test_both_ways_window(void **st)
{
	/* 8 copies of 1e9 B each way, m = 4: a (H2D) ends a copy every 25 ms, b (D2H) every 20 ms */
	double ta[] = { 0, 100, 200 }, tb[] = { 0.5, 80.5, 160.5 };
	double ga, gb;
	(void)st;

	assert_int_equal(xf_both_ways_m(8), 4);
	assert_int_equal(xf_both_ways_m(2), 1);
	assert_int_equal(xf_both_ways_m(3), 1);
	assert_int_equal(xf_both_ways_m(16), 8);
	/* a's 4th copy ends at 100 ms, b still runs until 160.5: both windows valid */
	assert_int_equal(xf_both_ways(ta, tb, 4, 1e9, &ga, &gb), 1);
	assert_true(fabs(ga - 4e9 / 100e6) < 1e-9);
	assert_true(fabs(gb - 4e9 / 80e6) < 1e-9);
	/* a dip: a 1.5x slower still fits (its 4th copy ends at 120, b's last at 160) */
	double tc[] = { 0, 120, 240 }, td[] = { 0, 80, 160 };
	assert_int_equal(xf_both_ways(tc, td, 4, 1e9, &ga, &gb), 1);
	/* a direction 2.5x slower: its 4th copy ends after the other's last: no valid window */
	double te[] = { 0, 200, 400 }, tf[] = { 0, 80, 160 };
	assert_int_equal(xf_both_ways(te, tf, 4, 1e9, &ga, &gb), 0);
}

static void set_param(struct gm_case_result *cr, const char *key, int64_t v)
{
	int i = cr->nparams++;
	snprintf(cr->param_keys[i], sizeof(cr->param_keys[i]), "%s", key);
	cr->params[i].key = cr->param_keys[i];
	cr->params[i].value = v;
}

static void test_stability_note_on_spec_sheet(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	char buf[4096] = "";
	(void)st;

	gm_result_init(&r);
	struct gm_case_result *a = plant(&r, "transfer", "pinned_h2d", 55.1);
	set_param(a, "cov_limit_bp", 100);
	a->ms.cov_pct = 0.31;
	gm_result_note(a, "attempts", GM_UNIT_RATIO, 1);
	gm_result_note(a, "unstable", GM_UNIT_RATIO, 0);
	struct gm_case_result *b = plant(&r, "transfer", "pinned_d2h", 52.0);
	set_param(b, "cov_limit_bp", 100);
	b->ms.cov_pct = 3.1;
	b->value.min = 48.0;
	b->value.max = 55.1;
	gm_result_note(b, "attempts", GM_UNIT_RATIO, 3);
	gm_result_note(b, "unstable", GM_UNIT_RATIO, 1);
	gm_family_transfer.derive(&r);

	d = find(&r, "transfer.best_pinned_h2d");
	assert_non_null(d);
	assert_non_null(strstr(d->how, "CoV 0.31 %"));
	assert_null(strstr(d->how, "unstable"));
	d = find(&r, "transfer.best_pinned_d2h");
	assert_non_null(d);
	assert_non_null(strstr(d->how, "unstable: CoV 3.10 % > 1 % after 3 attempts, samples 48.0-55.1 GB/s"));

	FILE *f = tmpfile();
	assert_non_null(f);
	assert_true(gm_spec_write(f, &r) >= 2);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "unstable: CoV 3.10 %"));
	assert_int_equal((int)(strstr(buf, "unstable:") - buf) > 0, 1);
	assert_null(strstr(strstr(buf, "unstable:") + 1, "unstable:"));        /* once: the D2H line only */
	gm_result_release(&r);
}

/* Each class by its mechanism; a plain kernel, the kernel stage of a pipeline and an L2 footprint far from
 * the capacity get none; the table marks the classed rows and counts them; the JSON names class and why. */
static void test_between_processes(void **st)
{
	struct gm_run_result r;
	const char *why = NULL;
	char buf[16384] = "";
	(void)st;

	gm_result_init(&r);
	r.have_device = 1;
	r.dev.l2_bytes = 50ll << 20;
	struct gm_case_result *host = plant(&r, "alloc", "malloc_256b", 57.0);
	host->timing = GM_TIME_HOST;
	plant(&r, "transfer", "pinned_h2d", 55.0)->timing = GM_TIME_EVENTS;
	plant(&r, "overlap", "stage_kernel", 58.0);
	plant(&r, "gemm", "tc_fp16_cublas_8192", 700.0);
	plant(&r, "gemm", "v9_grouped_8192", 47.0);
	plant(&r, "copy", "pages_b4", 510.0);
	plant(&r, "copy", "v2_b16", 3030.0);
	struct gm_case_result *near = plant(&r, "hierarchy", "l2_040m", 3900.0);
	near->traffic.working_set = 40ll << 20;
	struct gm_case_result *far = plant(&r, "hierarchy", "l2_016m", 7600.0);
	far->traffic.working_set = 16ll << 20;

	assert_string_equal(gm_between_processes(&r.cases[0], r.dev.l2_bytes, &why), "host");
	assert_non_null(strstr(why, "host-timed"));
	assert_string_equal(gm_between_processes(&r.cases[1], r.dev.l2_bytes, NULL), "link");
	assert_null(gm_between_processes(&r.cases[2], r.dev.l2_bytes, NULL));
	assert_string_equal(gm_between_processes(&r.cases[3], r.dev.l2_bytes, NULL), "power");
	assert_null(gm_between_processes(&r.cases[4], r.dev.l2_bytes, NULL));
	assert_string_equal(gm_between_processes(&r.cases[5], r.dev.l2_bytes, NULL), "placement");
	assert_null(gm_between_processes(&r.cases[6], r.dev.l2_bytes, NULL));
	assert_string_equal(gm_between_processes(near, r.dev.l2_bytes, &why), "placement");
	assert_non_null(strstr(why, "L2's capacity"));
	assert_null(gm_between_processes(near, 0, NULL));      /* L2 unknown: no footprint rule */
	assert_null(gm_between_processes(far, r.dev.l2_bytes, NULL));

	FILE *f = tmpfile();
	assert_non_null(f);
	gm_table_write(f, &r);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "~host\n"));
	assert_non_null(strstr(buf, "~placement\n"));
	assert_non_null(strstr(buf, "~host ~link ~power ~placement: 5 figures"));
	const char *v9 = strstr(buf, "gemm.v9_grouped_8192"), *eol = strchr(v9, '\n');
	assert_true(!memchr(v9, '~', (size_t)(eol - v9)));          /* its row carries no mark */

	f = tmpfile();
	assert_non_null(f);
	assert_int_equal(gm_json_write(f, &r), GM_OK);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "\"between_processes\""));
	assert_non_null(strstr(buf, "\"power\""));
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist_ranges),
		cmocka_unit_test(test_cpulist_malformed),
		cmocka_unit_test(test_restore_untouched),
		cmocka_unit_test(test_both_ways_window),
		cmocka_unit_test(test_stability_note_on_spec_sheet),
		cmocka_unit_test(test_between_processes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
