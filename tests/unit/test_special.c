/*
 * test_special.c - derived results of the l2persist, cachehints, constant,
 * local, carveout and texture families from planted case values: the best
 * hitRatio over no window, the constant cache's slope over distinct
 * addresses, the local-memory slowdown, the carve-out loss, the best texture.
 * Failed cases are left out. No GPU.
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
#include "gpumem/result.h"
#include "planted.h"

static void test_l2persist_best_ratio(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	plant(&r, "l2persist", "off", 100);
	plant(&r, "l2persist", "nolimit", 500);     /* not a hitRatio case: ignored */
	plant(&r, "l2persist", "h050", 110);
	plant(&r, "l2persist", "h100", 125);
	plant(&r, "l2persist", "h075", 900)->status = GM_CASE_FAILED;
	gm_family_l2persist.derive(&r);
	d = find(&r, "l2persist.speedup");
	assert_non_null(d);
	assert_string_equal(d->level, "L2");
	assert_true(fabs(d->value - 1.25) < 1e-12);
	assert_non_null(strstr(d->how, "h100"));
	gm_result_release(&r);
}

static void test_constant_slope_and_slowdown(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	for (int d = 1; d <= 32; d *= 2) {
		char label[8];
		snprintf(label, sizeof(label), "c%02d", d);
		plant(&r, "constant", label, 0.5 + 2.0 * d)->unit = GM_UNIT_NS;   /* exactly linear */
	}
	gm_family_constant.derive(&r);
	d = find(&r, "constant.per_address");
	assert_non_null(d);
	assert_string_equal(d->level, "constant");
	assert_true(fabs(d->value - 2.0) < 1e-9);
	d = find(&r, "constant.divergent_slowdown");
	assert_non_null(d);
	assert_true(fabs(d->value - 64.5 / 2.5) < 1e-9);
	gm_result_release(&r);
}

static void test_local_carveout_texture(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	plant(&r, "local", "v0_local", 700);
	plant(&r, "local", "v1_regs", 350);
	plant(&r, "carveout", "ws160k_c000", 300);
	plant(&r, "carveout", "ws160k_c100", 100);
	plant(&r, "texture", "v0_plain", 100);
	plant(&r, "texture", "v2_tex_pitch", 110);
	plant(&r, "texture", "v3_tex_array", 130);
	gm_family_local.derive(&r);
	gm_family_carveout.derive(&r);
	gm_family_texture.derive(&r);
	d = find(&r, "local.slowdown");
	assert_non_null(d);
	assert_true(fabs(d->value - 2.0) < 1e-12);
	d = find(&r, "carveout.l1_loss");
	assert_non_null(d);
	assert_string_equal(d->level, "L1");
	assert_true(fabs(d->value - 3.0) < 1e-12);
	d = find(&r, "texture.speedup");
	assert_non_null(d);
	assert_true(fabs(d->value - 1.3) < 1e-12);
	assert_non_null(strstr(d->how, "v3_tex_array"));
	gm_result_release(&r);
}

static void test_cachehints_only_ok_cases(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	plant(&r, "cachehints", "big_ld_default", 100);
	plant(&r, "cachehints", "big_ld_cs", 104);
	plant(&r, "cachehints", "big_ld_lu", 150)->status = GM_CASE_FAILED;
	plant(&r, "cachehints", "table_ld_cs", 200);   /* no table_ld_default: no table result */
	gm_family_cachehints.derive(&r);
	d = find(&r, "cachehints.best_vs_default_big");
	assert_non_null(d);
	assert_true(fabs(d->value - 1.04) < 1e-12);
	assert_null(find(&r, "cachehints.best_vs_default_table"));
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l2persist_best_ratio),
		cmocka_unit_test(test_constant_slope_and_slowdown),
		cmocka_unit_test(test_local_carveout_texture),
		cmocka_unit_test(test_cachehints_only_ok_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
