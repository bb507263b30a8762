/* test_registry.c - the case table: unique names, selection, hints, and every
 * declared pattern accepted by the model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/bench.h"
#include "gpumem/profile.h"

static void test_names_unique_and_complete(void **state)
{
	int n;
	const struct gm_case *c = gm_registry_cases(&n);

	(void)state;
	assert_true(n > 100);
	for (int i = 0; i < n; i++) {
		assert_non_null(c[i].family);
		assert_true(strlen(c[i].desc) > 0);
		assert_int_equal(strncmp(c[i].name, c[i].family->name, strlen(c[i].family->name)), 0);
		for (int j = i + 1; j < n; j++)
			assert_string_not_equal(c[i].name, c[j].name);
	}
}

static void test_every_family_has_quick_cases(void **state)
{
	int n;
	const struct gm_case *c = gm_registry_cases(&n);

	(void)state;
	for (int f = 0; gm_families[f]; f++) {
		int quick = 0;
		for (int i = 0; i < n; i++)
			quick += c[i].family == gm_families[f] && c[i].quick;
		assert_true(quick >= 1 && quick <= 6);
	}
}

static void test_patterns_accepted_by_model(void **state)
{
	int n;
	const struct gm_case *c = gm_registry_cases(&n);

	(void)state;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < c[i].npatterns; k++) {
			const struct gm_pattern *p = &c[i].patterns[k];
			struct gm_access a = { p->space, p->op, p->elem_bytes, { p->block[0], p->block[1], p->block[2] },
					       { 0, 0, 0 }, p->warp, p->base, p->index, NULL };
			struct gm_prediction pr;
			struct gm_expr_error err;
			gm_status s = gm_model_predict(&a, &pr, &err);
			if (s)
				fail_msg("%s pattern '%s': %s", c[i].name, p->index, err.msg);
		}
	}
}

/* A case naming blockIdx.y declares its kernel's gridDim.x (rowcol.cu, transpose.cu). */
static void test_grid_widths(void **state)
{
	static const struct {
		const char *name;
		int64_t grid_x;
	} want[] = {
		{ "rowcol.w4096_cols", 4096 / 32 },
		{ "rowcol.w4097_packed_rows", 4097 / 32 + 1 },
		{ "transpose.v3_padded_4r", 16384 / 32 },           /* g32: columns / 32 */
		{ "transpose.v3_padded_4r_ragged", 16351 / 32 + 1 },
		{ "transpose.v5_vec16_ragged", 16367 / 64 + 1 },     /* g64t: rows / 64 */
		{ "transpose.v6_tall_a8", 16360 / 128 + 1 },         /* gtall: rows / 128 */
		{ "transpose.v7_shift_ragged", (16367 + 7) / 128 + 1 }, /* gshift: (rows + 7) / 128 */
		{ "transpose.v7_shift", 16384 / 128 },               /* rows a multiple of 8: no shift */
		{ "transpose.copy_b16", 16384 / 64 },                /* g64: columns / 64 */
	};
	int n;
	const struct gm_case *c = gm_registry_cases(&n);

	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		int i = 0;

		while (i < n && strcmp(c[i].name, want[k].name))
			i++;
		assert_true(i < n);
		assert_int_equal(c[i].grid_x, want[k].grid_x);
	}
}

static void test_select(void **state)
{
	int n, bad, count = 0;
	unsigned char *sel;
	const char *fam[] = { "copy" }, *prefix[] = { "copy.v" }, *exact[] = { "copy.memcpy_d2d" };
	const char *nope[] = { "copy", "nosuch" };

	(void)state;
	gm_registry_cases(&n);
	sel = calloc((size_t)n, 1);
	assert_int_equal(gm_registry_select(fam, 1, 0, sel, &bad), GM_OK);
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_true(count >= 8);
	assert_int_equal(gm_registry_select(prefix, 1, 0, sel, &bad), GM_OK);
	assert_int_equal(gm_registry_select(exact, 1, 0, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_int_equal(count, 1);
	assert_int_equal(gm_registry_select(nope, 2, 0, sel, &bad), GM_ERR_NOT_FOUND);
	assert_int_equal(bad, 1);
	/* default and quick suites */
	const struct gm_case *all = gm_registry_cases(&n);
	int full_only = 0;
	for (int i = 0; i < n; i++)
		full_only += all[i].full;
	assert_int_equal(gm_registry_select(NULL, 0, 0, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_int_equal(count, n - full_only);
	assert_int_equal(gm_registry_select(NULL, 0, 2, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_int_equal(count, n);
	assert_int_equal(gm_registry_select(NULL, 0, 1, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_true(count > 5 && count < 80);
	/* quick + selector: the family's quick cases; a non-quick exact name still runs */
	const char *qsel[] = { "stride" }, *qexact[] = { "copy.v0_b4" };
	assert_int_equal(gm_registry_select(qsel, 1, 1, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_true(count >= 1 && count <= 6);
	assert_int_equal(gm_registry_select(qexact, 1, 1, sel, &bad), GM_OK);
	count = 0;
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_int_equal(count, 1);
	free(sel);
}

/* calibrate's selectors pick exactly the series its profile is derived from (src/bench/calibration_cases.c) */
static int selected(const struct gm_case *all, const unsigned char *sel, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(all[i].name, name))
			return sel[i];
	fail_msg("no case '%s'", name);
	return 0;
}

static void test_calibrate_select(void **state)
{
	int n, bad, nsel = 0, count = 0;
	const struct gm_case *all = gm_registry_cases(&n);
	unsigned char *sel = calloc((size_t)n, 1);

	(void)state;
	while (gm_calibrate_selectors[nsel])
		nsel++;
	assert_int_equal(gm_registry_select(gm_calibrate_selectors, nsel, GM_TIER_DEFAULT, sel, &bad), GM_OK);
	for (int i = 0; i < n; i++)
		count += sel[i];
	assert_int_equal(count, 75); /* copy.floor_b4 (m62) the 69th, copy.colstore_b4 and _b16 (m66), copy.pages_spread_b4 (m74),
					copy.scatter_far_b4 (s75), copy.sparse_st_b16 (m78), stride.b16_s016 (m82) */
	assert_true(selected(all, sel, n, "hierarchy.l1_0032k") && selected(all, sel, n, "hierarchy.l1_0512k"));
	assert_true(selected(all, sel, n, "hierarchy.l1v9x16_0128k"));
	assert_true(selected(all, sel, n, "hierarchy.l2_0512k") && selected(all, sel, n, "hierarchy.l2_256m"));
	assert_true(selected(all, sel, n, "hierarchy.wr_1024k") && selected(all, sel, n, "hierarchy.wr_256m"));
	assert_false(selected(all, sel, n, "hierarchy.l1v1_0128k") || selected(all, sel, n, "hierarchy.l2sh_0512k"));
	assert_true(selected(all, sel, n, "copy.pages_16m_b4") && selected(all, sel, n, "latency.hbm_128m"));
	assert_true(selected(all, sel, n, "copy.sparse_st_b16"));
	assert_true(selected(all, sel, n, "stride.b16_s016")); /* read_quarter_gbs (rule D3 at 256 B) */
	assert_true(selected(all, sel, n, "copy.pages_spread_b4") && selected(all, sel, n, "copy.scatter_far_b4"));
	/* the trace's one-address atomics (rule X; the float one on 2^20 elements) */
	assert_true(selected(all, sel, n, "atomics.u32_one"));
	/* rule A's turns: each warp's lanes on one address of its own (the prefix selects no other case) */
	assert_true(selected(all, sel, n, "atomics.u32_lanes32") && !selected(all, sel, n, "atomics.u32_lanes16"));
	assert_true(selected(all, sel, n, "atomics.f32_one_1m") && !selected(all, sel, n, "atomics.f32_one"));
	/* wave_l2_ns in blocks of 1024, rule T11's L1 rate (h47m) */
	assert_true(selected(all, sel, n, "copy.table_blk1024_b4") && selected(all, sel, n, "copy.lines_l1_b4"));
	free(sel);
}

static void test_suggest(void **state)
{
	const char *out[4];
	int k;

	(void)state;
	k = gm_registry_suggest("copi", out, 4);
	assert_true(k >= 1);
	assert_string_equal(out[0], "copy");
	k = gm_registry_suggest("transpoze", out, 4);
	assert_true(k >= 1);
	assert_string_equal(out[0], "transpose");
	assert_int_equal(gm_registry_suggest("zzzzzzzzzzzzzzzzzz", out, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_unique_and_complete),
		cmocka_unit_test(test_every_family_has_quick_cases),
		cmocka_unit_test(test_patterns_accepted_by_model), cmocka_unit_test(test_grid_widths),
		cmocka_unit_test(test_select), cmocka_unit_test(test_calibrate_select),
		cmocka_unit_test(test_suggest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
