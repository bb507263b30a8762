/*
 * test_roofline.c - the roofline family's derived results from planted case
 * values: ceilings against the theoretical rate of the device, the stream
 * bandwidth from the lowest intensity, the ridge point, and each sweep
 * point's share of the roof. No GPU.
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

static void plant_name(struct gm_run_result *r, const char *name, double v)
{
	struct gm_case_result *cr = gm_result_add(r);
	assert_non_null(cr);
	snprintf(cr->name, sizeof(cr->name), "%s", name);
	cr->status = GM_CASE_OK;
	cr->value.median = v;
}

/* An empty run on an H100 SXM: 132 SMs, cc 9.0, 1980 MHz, 3352 GB/s. */
static void h100_run(struct gm_run_result *r)
{
	gm_result_init(r);
	r->have_device = 1;
	r->dev.cc_major = 9;
	r->dev.cc_minor = 0;
	r->dev.sm_count = 132;
	r->dev.sm_clock_khz = 1980000;
	r->dev.peak_gbs = 3352;
}

static void test_ceilings_ridge_and_roof(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	h100_run(&r);
	plant_name(&r, "roofline.fma_fp32", 60.0);
	plant_name(&r, "roofline.fma_fp64", 30.0);
	plant_name(&r, "roofline.ai_k1", 0.75);    /* 0.25 flop/B -> 3000 GB/s */
	plant_name(&r, "roofline.ai_k64", 40.0);   /* 16 flop/B: roof 48 TFLOP/s */
	plant_name(&r, "roofline.ai_k256", 54.0);  /* 64 flop/B: roof 60 TFLOP/s */
	gm_family_roofline.derive(&r);

	d = find(&r, "roofline.fma_fp32");
	assert_non_null(d);
	assert_string_equal(d->level, "FP32");
	assert_int_equal(d->unit, GM_UNIT_TFLOPS);
	/* 132 SMs x 128 lanes x 2 flops x 1.98 GHz = 66.9 TFLOP/s */
	assert_true(fabs(d->reference - 66.908) < 0.01);
	d = find(&r, "roofline.fma_fp64");
	assert_non_null(d);
	assert_true(fabs(d->reference - 33.454) < 0.01);
	assert_null(find(&r, "roofline.fma_fp16x2")); /* not run: nothing derived */

	d = find(&r, "roofline.stream_bandwidth");
	assert_non_null(d);
	assert_true(fabs(d->value - 3000) < 1e-6);
	assert_true(fabs(d->reference - 3352) < 1e-6);
	d = find(&r, "roofline.ridge_fp32");
	assert_non_null(d);
	assert_int_equal(d->unit, GM_UNIT_FLOP_BYTE);
	assert_true(fabs(d->value - 20.0) < 1e-9);
	d = find(&r, "roofline.ai_k64_of_roof");
	assert_non_null(d);
	assert_true(fabs(d->value - 100.0 * 40 / 48) < 1e-9);
	d = find(&r, "roofline.ai_k256_of_roof");
	assert_non_null(d);
	assert_true(fabs(d->value - 90.0) < 1e-9);
	gm_result_release(&r);
}

/*
 * The paired 16-bit ceilings on cc 9.0: the CUDA guide's 256 FMA results per
 * SM per clock, 132 x 256 x 2 x 1.98 GHz = 133.8 TFLOP/s (half of it is the
 * FMA pipe's HFMA2, the rest HFMA2.MMA); A100's BF16 is half its FP16.
 */
static void test_half_pairs_reference(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	char what[48];
	(void)st;

	h100_run(&r);
	plant_name(&r, "roofline.fma_fp16x2", 95.0);
	plant_name(&r, "roofline.fma_bf16x2", 94.0);
	gm_family_roofline.derive(&r);
	d = find(&r, "roofline.fma_fp16x2");
	assert_non_null(d);
	assert_string_equal(d->level, "FP16");
	assert_true(fabs(d->reference - 133.8163) < 1e-3);
	assert_string_equal(d->reference_what, "CUDA guide: SMs x 256 FMA/clk x 2 x max clock");
	d = find(&r, "roofline.fma_bf16x2");
	assert_non_null(d);
	assert_string_equal(d->level, "BF16");
	assert_true(fabs(d->reference - 133.8163) < 1e-3);
	assert_true(fabs(gm_roofline_fma_peak(&r.dev, ROOF_FP32, what, sizeof(what)) - 66.9082) < 1e-3);
	assert_string_equal(what, "CUDA guide: SMs x 128 FMA/clk x 2 x max clock");
	assert_true(fabs(gm_roofline_fma_peak(&r.dev, ROOF_FP64, NULL, 0) - 33.4541) < 1e-3);
	struct gm_device_info a100 = r.dev;
	gm_result_release(&r);

	/* A100 SXM: 108 SMs at 1410 MHz, FP16 78.0, BF16 39.0 TFLOP/s (whitepaper) */
	a100.cc_major = 8;
	a100.sm_count = 108;
	a100.sm_clock_khz = 1410000;
	assert_true(fabs(gm_roofline_fma_peak(&a100, ROOF_FP16, what, sizeof(what)) - 77.9674) < 1e-3);
	assert_string_equal(what, "whitepaper: SMs x 256 FMA/clk x 2 x max clock");
	assert_true(fabs(gm_roofline_fma_peak(&a100, ROOF_BF16, NULL, 0) - 38.9837) < 1e-3);
	a100.cc_major = 99;
	assert_true(gm_roofline_fma_peak(&a100, ROOF_FP16, what, sizeof(what)) == 0);
	assert_string_equal(what, "");
}

static void test_unknown_device_has_no_reference(void **st)
{
	struct gm_run_result r;
	(void)st;

	gm_result_init(&r);
	r.have_device = 1;
	r.dev.cc_major = 99;
	r.dev.sm_count = 10;
	r.dev.sm_clock_khz = 1000000;
	plant_name(&r, "roofline.fma_fp32", 1.0);
	gm_family_roofline.derive(&r);
	assert_int_equal(r.nderived, 1);
	assert_true(r.derived[0].reference == 0);
	gm_result_release(&r);
}

/* gemm: best own version against cuBLAS per shape (and the best FFMA one), references excluded; tensor ceilings labelled. */
static void test_gemm_derive(void **st)
{
	struct gm_run_result r;
	const struct gm_derived *d;
	(void)st;

	h100_run(&r);
	plant_name(&r, "gemm.v4_vec_8192", 36.0);
	plant_name(&r, "gemm.v6_warptile_8192", 45.0);
	plant_name(&r, "gemm.v21_3xtf32_8192", 55.0);
	plant_name(&r, "gemm.ref_cublas_8192", 50.0);
	plant_name(&r, "gemm.tc_fp16_cublas_8192", 700.0);
	gm_family_gemm.derive(&r);
	d = find(&r, "gemm.best_vs_cublas_8192"); /* the best version, the tensor cores' v21 among them */
	assert_non_null(d);
	assert_true(fabs(d->value - 110.0) < 1e-9);
	assert_non_null(strstr(d->how, "v21_3xtf32_8192"));
	d = find(&r, "gemm.best_ffma_vs_cublas_8192"); /* the best on the CUDA cores, as cuBLAS's SGEMM */
	assert_non_null(d);
	assert_true(fabs(d->value - 90.0) < 1e-9);
	assert_non_null(strstr(d->how, "v6_warptile_8192"));
	d = find(&r, "gemm.tc_fp16_cublas_8192");
	assert_non_null(d);
	assert_string_equal(d->level, "FP16 tensor");
	assert_true(fabs(d->reference - 132 * 4096 * 1.98e9 * 1e-12) < 1e-6);
	assert_null(find(&r, "gemm.best_vs_cublas_4096"));
	int n8192 = 0;  /* 8192^3 sits in two tiers: derived once */
	for (int i = 0; i < r.nderived; i++)
		n8192 += !strcmp(r.derived[i].name, "gemm.best_vs_cublas_8192");
	assert_int_equal(n8192, 1);
	assert_null(find(&r, "gemm.v6_warptile_of_cublas")); /* per-version shares: 4096^3 only */
	gm_result_release(&r);

	/* 4096^3: every version's share of cuBLAS and its modelled L2 intensity (tile 128: 31.5 flop/B) */
	h100_run(&r);
	plant_name(&r, "gemm.v9_grouped_4096", 46.0);
	plant_name(&r, "gemm.ref_cublas_4096", 50.0);
	gm_family_gemm.derive(&r);
	d = find(&r, "gemm.v9_grouped_of_cublas");
	assert_non_null(d);
	assert_true(fabs(d->value - 92.0) < 1e-9);
	d = find(&r, "gemm.v9_grouped_l2_intensity");
	assert_non_null(d);
	assert_true(fabs(d->value - 8192.0 / 260.0) < 1e-9); /* 2MNK / (4MNK (2/128) + 4MN) */
	assert_null(find(&r, "gemm.ref_cublas_of_cublas"));
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ceilings_ridge_and_roof),
		cmocka_unit_test(test_half_pairs_reference),
		cmocka_unit_test(test_unknown_device_has_no_reference),
		cmocka_unit_test(test_gemm_derive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
