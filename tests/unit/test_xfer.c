/*
 * test_xfer.c - derived results of the transfer, overlap, atomics and p2p
 * families from planted case values: best pinned copies against the PCIe
 * link of the case's notes, overlap efficiency against the slowest stage and
 * the serial sum, the block-reduction speed-up, the NVLink level. No GPU.
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

static void test_transfer_best_pinned_against_link(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	struct gm_case_result *a = plant(&r, "transfer", "pinned_h2d", 50);
	gm_result_note(a, "pcie_gen", GM_UNIT_RATIO, 5);
	gm_result_note(a, "pcie_width", GM_UNIT_RATIO, 16);
	gm_result_note(a, "pcie_link_gbs", GM_UNIT_GBS, 63.0);
	plant(&r, "transfer", "sweep_pinned_h2d_1g", 55);      /* the best H2D, no notes */
	plant(&r, "transfer", "pageable_h2d", 80);             /* not pinned: ignored */
	plant(&r, "transfer", "pinned_d2h", 54)->status = GM_CASE_FAILED;
	gm_family_transfer.derive(&r);
	d = find(&r, "transfer.best_pinned_h2d");
	assert_non_null(d);
	assert_string_equal(d->level, "PCIe");
	assert_true(d->value == 55);
	assert_non_null(strstr(d->how, "sweep_pinned_h2d_1g"));
	assert_null(find(&r, "transfer.best_pinned_d2h"));    /* its only case failed */
	gm_result_release(&r);
}

static void test_overlap_efficiency(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	plant(&r, "overlap", "stage_h2d", 50);
	plant(&r, "overlap", "stage_kernel", 100);
	plant(&r, "overlap", "stage_d2h", 50);
	plant(&r, "overlap", "streams1", 20);
	plant(&r, "overlap", "streams3", 45);
	plant(&r, "transfer", "pinned_bidir", 80);
	gm_family_overlap.derive(&r);
	d = find(&r, "overlap.efficiency_streams3");
	assert_non_null(d);
	assert_true(fabs(d->value - 90.0) < 1e-9);               /* 45 / slowest 50 */
	d = find(&r, "overlap.speedup_streams1");
	assert_non_null(d);
	assert_true(fabs(d->value - 20.0 / 20.0) < 1e-9);         /* serial: 1/(1/50+1/100+1/50) = 20 */
	assert_null(find(&r, "overlap.efficiency_streams2"));
	d = find(&r, "overlap.efficiency_vs_bidir");
	assert_non_null(d);
	assert_true(fabs(d->value - 112.5) < 1e-9);              /* 45 / (80 / 2) */
	gm_result_release(&r);
}

static void test_atomics_speedup_and_p2p_level(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	gm_result_init(&r);
	plant(&r, "atomics", "f32_one", 2);
	plant(&r, "atomics", "f32_block", 2000);
	gm_family_atomics.derive(&r);
	d = find(&r, "atomics.speedup_f32_vs_one");
	assert_non_null(d);
	assert_true(fabs(d->value - 1000) < 1e-9);
	assert_null(find(&r, "atomics.speedup_u32_vs_one"));

	struct gm_case_result *p = plant(&r, "p2p", "ce_write", 390);
	gm_result_note(p, "nvlink_links", GM_UNIT_RATIO, 18);
	plant(&r, "p2p", "ce_bidir", 700)->status = GM_CASE_SKIPPED;
	gm_family_p2p.derive(&r);
	d = find(&r, "p2p.peer_bandwidth");
	assert_non_null(d);
	assert_string_equal(d->level, "NVLink");
	assert_true(fabs(d->reference - 450) < 1e-9);
	assert_null(find(&r, "p2p.peer_bidir_bandwidth"));
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transfer_best_pinned_against_link),
		cmocka_unit_test(test_overlap_efficiency),
		cmocka_unit_test(test_atomics_speedup_and_p2p_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
