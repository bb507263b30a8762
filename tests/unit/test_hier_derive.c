/*
 * test_hier_derive.c - the hierarchy and latency families' derived results
 * on synthetic runs: both L2 read regimes (l2_* one SM a line, l2sh_* all
 * SMs a line) with their own lines, the l1 series taken from the version
 * the spec sheet uses, and the TLB rule (a reach and miss latency only for a
 * latency step of 10 % or more, else "no miss regime up to" the largest
 * footprint, the footprint of a self-sized case read from its note).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"
#include "families/family.h"
#include "families/common/hier_shapes.h"

#define MB (1024.0 * 1024)

static struct gm_case_result *add(struct gm_run_result *r, const char *family, const char *label, double value)
{
	struct gm_case_result *c = gm_result_add(r);

	snprintf(c->family, sizeof(c->family), "%s", family);
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->name, sizeof(c->name), "%s.%s", family, label);
	c->status = GM_CASE_OK;
	c->value.median = value;
	return c;
}

static void param(struct gm_case_result *c, const char *key, int64_t v)
{
	snprintf(c->param_keys[c->nparams], sizeof(c->param_keys[0]), "%s", key);
	c->params[c->nparams].key = c->param_keys[c->nparams];
	c->params[c->nparams++].value = v;
}

static const struct gm_derived *find(const struct gm_run_result *r, const char *name)
{
	for (int i = 0; i < r->nderived; i++)
		if (!strcmp(r->derived[i].name, name))
			return &r->derived[i];
	return NULL;
}

static void test_sort(void **st)
{
	double x[] = { 8, 1, 4, 2 }, y[] = { 80, 10, 40, 20 };
	(void)st;
	gm_curve_sort(x, y, 4);
	for (int i = 0; i < 4; i++)
		assert_true(x[i] * 10 == y[i] && (i == 0 || x[i] > x[i - 1]));
}

static void hier_series(struct gm_run_result *r, const char *pre, int mode, int ver, const double *mib,
			const double *gbs, int n)
{
	for (int i = 0; i < n; i++) {
		char label[32];
		snprintf(label, sizeof(label), "%s_%07.0fk", pre, mib[i] * 1024);
		struct gm_case_result *c = add(r, "hierarchy", label, gbs[i]);
		param(c, "mode", mode);
		param(c, "footprint", (int64_t)(mib[i] * MB));
		if (mode == HIER_L1_READ)
			param(c, "ver", ver);
	}
}

static void test_l2_two_regimes(void **st)
{
	static const double mib[] = { 4, 8, 16, 24, 32, 40, 48, 64, 128 };
	static const double own[] = { 7600, 7650, 7640, 7700, 7600, 4000, 3300, 3250, 3200 };
	static const double all[] = { 10500, 10600, 10550, 10500, 10400, 6000, 4000, 3500, 3400 };
	static const double l1k[] = { 0.0625, 0.125, 0.1875 };
	static const double l1v[] = { 33000, 33100, 33050 };
	static const double l1old[] = { 30000, 30100, 30050 };
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;
	gm_result_init(&r);
	hier_series(&r, "l2", HIER_L2_READ, 0, mib, own, 9);
	hier_series(&r, "l2sh", HIER_L2_SHARED, 0, mib, all, 9);
	hier_series(&r, "l1", HIER_L1_READ, HIER_L1_VER, l1k, l1v, 3);
	hier_series(&r, "l1old", HIER_L1_READ, HIER_L1_VER == 1 ? 2 : 1, l1k, l1old, 3);
	gm_family_hierarchy.derive(&r);
	assert_non_null(d = find(&r, "hierarchy.l2_read_bw"));
	assert_true(fabs(d->value - 7640) < 60);
	assert_non_null(strstr(d->quantity, "1 SM"));
	assert_non_null(d = find(&r, "hierarchy.l2_shared_read_bw"));
	assert_true(fabs(d->value - 10500) < 100);
	assert_non_null(strstr(d->quantity, "all SMs"));
	assert_non_null(strstr(d->how, "4.0-32.0 MiB"));
	assert_non_null(d = find(&r, "hierarchy.l2_shared_capacity"));
	assert_true(d->value > 32 * MB && d->value < 48 * MB);
	/* the l1 read bandwidth: the best version's plateau (here the l1_* series' own) */
	assert_non_null(d = find(&r, "hierarchy.l1_read_bw"));
	assert_true(fabs(d->value - 33050) < 60);
	gm_result_release(&r);
}

static void test_l1_best_version(void **st)
{
	/* l1_* (HIER_L1_VER) knees at 256 KiB; version 7 reads faster on the plateau, and a point of it past
	 * the knee does not count */
	static const double kib[] = { 32, 64, 128, 192, 224, 256, 288, 384 };
	static const double main_gbs[] = { 32500, 32600, 32700, 32650, 32600, 25000, 24000, 23000 };
	static const double v7k[] = { 128, 192, 512 };
	static const double v7[] = { 33100, 33200, 40000 };
	double mib[8], v7m[3];
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;
	for (int i = 0; i < 8; i++)
		mib[i] = kib[i] / 1024;
	for (int i = 0; i < 3; i++)
		v7m[i] = v7k[i] / 1024;
	gm_result_init(&r);
	hier_series(&r, "l1", HIER_L1_READ, HIER_L1_VER, mib, main_gbs, 8);
	hier_series(&r, "l1v7", HIER_L1_READ, HIER_L1_VER == 7 ? 6 : 7, v7m, v7, 3);
	gm_family_hierarchy.derive(&r);
	assert_non_null(d = find(&r, "hierarchy.l1_read_bw"));
	assert_true(fabs(d->value - 33150) < 1);
	assert_non_null(strstr(d->how, HIER_L1_VER == 7 ? "v6" : "v7"));
	assert_non_null(d = find(&r, "hierarchy.l1_capacity"));
	assert_true(d->value > 224 * 1024 && d->value < 256 * 1024);
	gm_result_release(&r);
}

static void test_l1_gradual_fall(void **st)
{
	/* the l1_* series of an H100 run (tests/fixtures/launch/h100-suite.json.gz, 2026-11-25): hits end
	 * gradually past 224 KiB; the capacity lies between the last plateau point and the first one below,
	 * never past the 256 KiB of the SM (a half-way knee over the whole fall put it at 305 KiB) */
	static const double kib[] = { 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384, 512 };
	static const double gbs[] = { 33232, 33232, 33225, 33146, 33209, 33127, 33203, 31379, 31145, 26493, 23029, 10077 };
	double mib[12];
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;
	for (int i = 0; i < 12; i++)
		mib[i] = kib[i] / 1024;
	gm_result_init(&r);
	hier_series(&r, "l1", HIER_L1_READ, HIER_L1_VER, mib, gbs, 12);
	gm_family_hierarchy.derive(&r);
	assert_non_null(d = find(&r, "hierarchy.l1_capacity"));
	assert_true(d->value > 224 * 1024 && d->value <= 256 * 1024);
	assert_non_null(strstr(d->how, "between 224 and 256 KiB"));
	assert_non_null(d = find(&r, "hierarchy.l1_read_bw"));
	assert_true(fabs(d->value - 33209) < 30);
	gm_result_release(&r);
}

static void tlb_case(struct gm_run_result *r, const char *label, double mib, double stride_mib, double cycles)
{
	struct gm_case_result *c = add(r, "latency", label, cycles);
	param(c, "footprint", (int64_t)(mib * MB));
	param(c, "stride", (int64_t)(stride_mib * MB));
}

static void test_tlb_small_steps_are_no_regime(void **st)
{
	/* the H100's 2 MiB chase: 267.6 -> 290 cycles from 8 MiB to 8 GiB in steps of 3-5 % */
	static const double mib[] = { 8, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192 };
	static const double cyc[] = { 267.6, 278, 280, 281, 283, 285.1, 288, 289, 290, 290 };
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;
	gm_result_init(&r);
	for (int i = 0; i < 10; i++)
		tlb_case(&r, "tlb_x", mib[i], 2, cyc[i]);
	tlb_case(&r, "tlb32m_1024m", 1024, 32, 289);
	tlb_case(&r, "tlb32m_8192m", 8192, 32, 291);
	tlb_case(&r, "tlb64k_0016m", 16, 1.0 / 16, 900); /* not a TLB series: ignored */
	gm_family_latency.derive(&r);
	for (int i = 0; i < r.nderived; i++)
		assert_null(strstr(r.derived[i].name, "reach"));
	assert_non_null(d = find(&r, "latency.tlb_no_regime_up_to"));
	assert_true(fabs(d->value - 8192 * MB) < 1);
	assert_non_null(d = find(&r, "latency.tlb_hit_cycles"));
	gm_result_release(&r);
}

static void test_tlb_step_found(void **st)
{
	/* a 25 % step between 16 and 32 GiB on 32 MiB strides; the self-sized case (footprint 0) sits at 71 GiB */
	struct gm_run_result r;
	const struct gm_derived *d;
	struct gm_case_result *c;
	(void)st;
	gm_result_init(&r);
	tlb_case(&r, "tlb_0008m", 8, 2, 270);
	tlb_case(&r, "tlb_1024m", 1024, 2, 280);
	c = add(&r, "latency", "tlb32m_most", 360);
	param(c, "footprint", 0);
	param(c, "stride", (int64_t)(32 * MB));
	snprintf(c->notes[0].name, sizeof(c->notes[0].name), "footprint_bytes");
	c->notes[0].median = 71.0 * 1024 * MB;
	c->nnotes = 1;
	tlb_case(&r, "tlb32m_1024m", 1024, 32, 285);
	tlb_case(&r, "tlb32m_8192m", 8192, 32, 287);
	tlb_case(&r, "tlb32m_16384m", 16384, 32, 288);
	tlb_case(&r, "tlb32m_32768m", 32768, 32, 359);
	tlb_case(&r, "tlb32m_65536m", 65536, 32, 361);
	gm_family_latency.derive(&r);
	assert_null(find(&r, "latency.tlb_no_regime_up_to"));
	assert_null(find(&r, "latency.tlb_s2m_1_reach"));
	assert_non_null(d = find(&r, "latency.tlb_s32m_1_reach"));
	assert_true(d->value > 16384 * MB && d->value < 32768 * MB);
	assert_non_null(d = find(&r, "latency.tlb_s32m_1_miss_cycles"));
	assert_true(fabs(d->value - 360) < 2);
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_l2_two_regimes),
		cmocka_unit_test(test_l1_best_version),
		cmocka_unit_test(test_l1_gradual_fall),
		cmocka_unit_test(test_tlb_small_steps_are_no_regime),
		cmocka_unit_test(test_tlb_step_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
