/*
 * test_roofline_clock.c - the roofline's compute ceilings at the clock the run measured (issue 36 item 5):
 * with a case that noted sm_clock_mhz (as the hierarchy and smem cases do), the FP64 limit is the one at
 * that clock and the max-clock attribute's limit stands beside it in how; without one, the attribute's.
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
#include "families/roofline/roofline_shapes.h"
#include "planted.h"

static struct gm_case_result *plant_case(struct gm_run_result *r, const char *name, double v)
{
	struct gm_case_result *cr = gm_result_add(r);

	assert_non_null(cr);
	snprintf(cr->name, sizeof(cr->name), "%s", name);
	snprintf(cr->family, sizeof(cr->family), "%.*s", (int)(strchr(name, '.') - name), name);
	cr->status = GM_CASE_OK;
	cr->value.median = v;
	return cr;
}

static void h200_run(struct gm_run_result *r)
{
	gm_result_init(r);
	r->have_device = 1;
	r->dev.cc_major = 9;
	r->dev.sm_count = 132;
	r->dev.sm_clock_khz = 1980000;
}

static void test_limit_at_run_clock(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	const double at_attr = 132 * 64 * 2 * 1.98e9 * 1e-12; /* 33.45 TFLOP/s */

	(void)st;
	h200_run(&r);
	plant_case(&r, "roofline.fma_fp64", 33.6); /* 100.5 % of the attribute's limit */
	gm_result_note(plant_case(&r, "hierarchy.l1_v3_0032k", 1), "sm_clock_mhz", GM_UNIT_RATIO, 1995);
	gm_family_roofline.derive(&r);
	d = find(&r, "roofline.fma_fp64");
	assert_non_null(d);
	assert_true(fabs(d->reference - at_attr * 1995.0 / 1980.0) < 1e-6);
	assert_true(d->value <= d->reference); /* no longer above its limit */
	assert_string_equal(d->reference_what, "CUDA guide: SMs x 64 FMA/clk x 2 x run clock");
	assert_non_null(strstr(d->how, "limit at 1995 MHz (run); at the max clock attribute (1980 MHz): 33.45"));
	gm_result_release(&r);

	h200_run(&r); /* no measured clock: the attribute's limit */
	plant_case(&r, "roofline.fma_fp64", 33.0);
	gm_family_roofline.derive(&r);
	d = find(&r, "roofline.fma_fp64");
	assert_non_null(d);
	assert_true(fabs(d->reference - at_attr) < 1e-6);
	assert_string_equal(d->reference_what, "CUDA guide: SMs x 64 FMA/clk x 2 x max clock");
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_at_run_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
