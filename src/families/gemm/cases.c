/*
 * cases.c - the gemm family's case table: the SGEMM ladder: C = A B in FP32 from a naive kernel through
 * shared-memory tiles, 1D and 2D register blocking, 16-byte loads with a
 * transposed A tile, cp.async double buffering and warp tiles, with cuBLAS
 * SGEMM as the reference in the same run. Square 1024..8192, a size that is
 * no multiple of any tile (3001) and a tall-skinny product. Kernels:
 * src/families/gemm/gemm.cu. derive() gives each version's modelled traffic from
 * L2 to the SMs, its intensity, and the best version against cuBLAS.
 * See src/families/gemm/README.md.
 */
#include <stdio.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/gemm/gemm_shapes.h"

static const char *const mode_label[GEMM_NMODES] = {
	"v0_naive", "v1_smem32", "v2_block1d", "v3_block2d", "v4_vec", "v5_dbuf", "v6_warptile", "v7_warptile8x16", "v8_warptile8x16_s3",
	"v9_grouped", "v10_tma", "v11_lean", "v12_splittail",
	"v13_lean_rows", "v14_splittail_rows", "v15_bk8",
	"v16_serp", "v17_cols", "v18_pairs", "v19_loop8", "v20_streamk", "v21_3xtf32",
	"ref_cublas",
	"tc_fp16_cublas", "tc_bf16_cublas",
};
static const char *const mode_desc[GEMM_NMODES] = {
	"SGEMM, a thread per element, operands from global memory",
	"SGEMM, 32 x 32 shared-memory tiles",
	"SGEMM, 64 x 64 tiles, 8 results per thread in a column",
	"SGEMM, 128 x 128 tiles, 8 x 8 results per thread",
	"SGEMM, 2D blocking, 16-byte loads, A tile transposed",
	"SGEMM, 2D blocking, two stages filled by cp.async",
	"SGEMM, warp tiles 64 x 32, BK 16, cp.async double buffering",
	"SGEMM, warp tiles 64 x 64, 8 x 16 per thread, 128 threads",
	"SGEMM, as v7 with three cp.async stages",
	"SGEMM, as v8 with grouped tile order (8 tile rows share panels in L2)",
	"SGEMM, as v9 with tiles loaded by Hopper's TMA into mbarrier stages (sm_90)",
	"SGEMM, as v9 with lean tile loads (4 rows x 4 k of A per thread, immediate offsets)",
	"SGEMM, as v11 with the last partial wave split along K",
	"SGEMM, as v11 with v9's rows per thread (a half-warp copies 64 contiguous bytes of a row of A)",
	"SGEMM, as v13 with the last partial wave split along K",
	"SGEMM, as v9 with k-tiles of 8 in six stages (half the unrolled loop: 18 KiB of code, as cuBLAS's)",
	"SGEMM, as v9 with the FFMAs of a k step in rows, columns serpentine (operand reuse, register banks)",
	"SGEMM, as v9 with the FFMAs of a k step in columns, rows serpentine",
	"SGEMM, as v9 with the FFMAs of a k step in row pairs alternating per column, serpentine per pair",
	"SGEMM, as v9 with a k-tile's 16 steps as a loop over two unrolled halves of 8 (half the code)",
	"SGEMM, as v9 with a last wave at most half full run stream-K (every resident block an equal k-range across tiles)",
	"FP32 GEMM on the tensor cores: each operand split big + small TF32, three mma a product (3xTF32), "
	"accuracy checked against cublasSgemm's",
	"cublasSgemm (reference)",
	"cublasGemmEx FP16 in, FP32 accumulate: tensor-core ceiling (not an FP32 GEMM)",
	"cublasGemmEx BF16 in, FP32 accumulate: tensor-core ceiling (not an FP32 GEMM)",
};

/* Block tile rows and columns of each version (0: none), for the modelled traffic. */
static const int mode_tile_m[GEMM_NMODES] = { 0, 32, 64, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 0, 0 };
static const int mode_tile_n[GEMM_NMODES] = { 0, 32, 64, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 0, 0 };

/* Every version of the ladder, and the ladder's warp-tile versions; with the cuBLAS reference. */
#define LADDER ((1u << GEMM_CUBLAS) - 1u)
#define WARPTILES ((1u << GEMM_WARPTILE) | (1u << GEMM_WARPTILE16) | (1u << GEMM_WARPTILE16_S3) | \
		   (1u << GEMM_WT_GROUPED) | (1u << GEMM_TMA) | (1u << GEMM_LEAN_ROWS_SPLIT))
/* v11..v13: at 4096^3 in the default tier (LADDER), at 8192^3 and 3001^3 with --full; v15..v18 with --full only
   (the default suite's time) */
#define LEAN_STEPS ((1u << GEMM_LEAN) | (1u << GEMM_LEAN_SPLIT) | (1u << GEMM_LEAN_ROWS))
/* v16..v18 (the FFMA order over the thread tile) and v19 (the k steps' loop): with --full only */
#define ORDERS ((1u << GEMM_WT_SERP) | (1u << GEMM_WT_COLS) | (1u << GEMM_WT_PAIRS) | (1u << GEMM_WT_LOOP8))
/* v20 (stream-K tail): in the default tier at 3001^3, where its last wave is split (102 % of cuBLAS on an H100);
   at 4096^3, 8192^3 and the tall shape it runs v9's launch (its rule), so there --full only */
#define STREAMK (1u << GEMM_WT_STREAMK)
#define REF (1u << GEMM_CUBLAS)
/* v21 (3xTF32, the tensor cores): beside v9 and cuBLAS at every default shape */
#define TF32X3 (1u << GEMM_TF32X3)

enum { TIER_DEFAULT = 0, TIER_QUICK = 1, TIER_FULL = 2 };

static const struct {
	int m, n, k;
	unsigned modes;          /* bit per mode */
	int tier;
	unsigned quick_modes;    /* in --quick */
} shapes[] = {
	{ 4096, 4096, 4096, (LADDER & ~(1u << GEMM_WT_BK8) & ~ORDERS & ~STREAMK) | REF, TIER_DEFAULT, (1u << GEMM_WARPTILE) | (1u << GEMM_CUBLAS) },
	{ 8192, 8192, 8192, WARPTILES | TF32X3 | REF | (1u << GEMM_TC_FP16) | (1u << GEMM_TC_BF16), TIER_DEFAULT, 0 },
	{ 3001, 3001, 3001, WARPTILES | STREAMK | TF32X3 | REF, TIER_DEFAULT, 0 },
	{ 32768, 128, 1024, WARPTILES | TF32X3 | REF, TIER_DEFAULT, 0 },
	{ 1024, 1024, 1024, LADDER | REF, TIER_FULL, 0 },
	{ 2048, 2048, 2048, LADDER | REF, TIER_FULL, 0 },
	{ 8192, 8192, 8192, (1u << GEMM_NAIVE) | (1u << GEMM_SMEM) | (1u << GEMM_BLOCK1D) | (1u << GEMM_BLOCK2D) |
	  (1u << GEMM_VEC) | (1u << GEMM_DBUF) | LEAN_STEPS, TIER_FULL, 0 },
	{ 3001, 3001, 3001, (1u << GEMM_SMEM) | LEAN_STEPS | ORDERS, TIER_FULL, 0 },
	{ 4096, 4096, 4096, (1u << GEMM_WT_BK8) | ORDERS | STREAMK, TIER_FULL, 0 },
	{ 8192, 8192, 8192, (1u << GEMM_WT_BK8) | ORDERS | STREAMK, TIER_FULL, 0 },
	{ 32768, 128, 1024, STREAMK, TIER_FULL, 0 },
};
#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

static void shape_label(char *buf, size_t n, int s)
{
	if (shapes[s].m == shapes[s].n && shapes[s].n == shapes[s].k)
		snprintf(buf, n, "%d", shapes[s].m);
	else
		snprintf(buf, n, "%dx%dx%d", shapes[s].m, shapes[s].n, shapes[s].k);
}

static int gemm_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int n = 0;

	for (int s = 0; s < NSHAPES; s++) {
		char sl[32];
		shape_label(sl, sizeof(sl), s);
		for (int m = 0; m < GEMM_NMODES; m++) {
			if (!(shapes[s].modes & (1u << m)))
				continue;
			struct gm_case *c = gm_case_slot(out, max, n++, &scratch);
			gm_case_begin(c, &gm_family_gemm, m >= GEMM_CUBLAS ? -1 : m, GM_KIND_MEASURE,
				      (shapes[s].quick_modes >> m) & 1, mode_desc[m], "%s_%s", mode_label[m], sl);
			gm_case_measure(c, GM_UNIT_TFLOPS, GM_TIME_EVENTS);
			c->full = shapes[s].tier == TIER_FULL;
			gm_case_param_add(c, "mode", m);
			gm_case_param_add(c, "m", shapes[s].m);
			gm_case_param_add(c, "n", shapes[s].n);
			gm_case_param_add(c, "k", shapes[s].k);
		}
	}
	return n;
}

/*
 * Bytes a version requests from L2 for C = A B (M x K by K x N): a block
 * tile TM x TN reads (TM + TN) K floats per TM x TN outputs, so
 * 4 M N K (1 / TM + 1 / TN); the
 * naive kernel requests per warp and k one float of A (broadcast) and 32 of
 * B; plus C written once.
 */
static double modelled_bytes(int mode, double m, double n, double k)
{
	if (mode == GEMM_NAIVE)
		return m * n / 32 * k * 4 * 33 + 4 * m * n;
	return 4 * m * n * k * (1.0 / mode_tile_m[mode] + 1.0 / mode_tile_n[mode]) + 4 * m * n;
}

/* Dense FP16/BF16 tensor-core flops per SM per clock, from NVIDIA's whitepapers. */
static int tc_flops_per_sm(int major, int minor)
{
	if (major == 8 && minor == 0)
		return 2048;  /* A100 */
	if (major == 9 && minor == 0)
		return 4096;  /* H100, H200 */
	return 0;
}

/* The tensor-core ceilings the cuBLAS references reach, for the spec sheet and the roofline. */
static void derive_tensor(struct gm_run_result *r)
{
	static const struct {
		int mode;
		const char *level;
	} tc[] = { { GEMM_TC_FP16, "FP16 tensor" }, { GEMM_TC_BF16, "BF16 tensor" } };

	for (size_t i = 0; i < sizeof(tc) / sizeof(tc[0]); i++) {
		char name[64];
		snprintf(name, sizeof(name), "gemm.%s_8192", mode_label[tc[i].mode]);
		const struct gm_case_result *cr = gm_result_find(r, name);
		struct gm_derived *x;
		if (!cr || cr->status != GM_CASE_OK || !(x = gm_result_derive(r, "gemm", name)))
			continue;
		snprintf(x->level, sizeof(x->level), "%s", tc[i].level);
		snprintf(x->quantity, sizeof(x->quantity), "cuBLAS GEMM 8192^3");
		x->unit = GM_UNIT_TFLOPS;
		x->value = cr->value.median;
		int f = r->have_device ? tc_flops_per_sm(r->dev.cc_major, r->dev.cc_minor) : 0;
		if (f > 0 && r->dev.sm_clock_khz > 0) {
			x->reference = (double)r->dev.sm_count * f * r->dev.sm_clock_khz * 1e3 * 1e-12;
			snprintf(x->reference_what, sizeof(x->reference_what), "SMs x %d flops/clk (dense) x max clock",
				 f);
		}
		snprintf(x->how, sizeof(x->how), "case %s: cublasGemmEx, FP32 accumulate, labelled tensor cores", name);
	}
}

/* gemm.WHAT_vs_cublas_SHAPE: the version's TFLOP/s over cuBLAS's of the same run, in percent (none without both). */
static void derive_best(struct gm_run_result *r, const char *what, const char *shape, const char *best_name,
			double best, const char *kind, double cublas)
{
	char name[64];
	struct gm_derived *x;

	if (!(best > 0 && cublas > 0))
		return;
	snprintf(name, sizeof(name), "gemm.%s_vs_cublas_%s", what, shape);
	if (!(x = gm_result_derive(r, "gemm", name)))
		return;
	x->unit = GM_UNIT_PCT;
	x->value = 100.0 * best / cublas;
	snprintf(x->how, sizeof(x->how), "%s (%.2f TFLOP/s%s) / cuBLAS (%.2f TFLOP/s), same run", best_name, best,
		 kind, cublas);
}

static void gemm_derive(struct gm_run_result *r)
{
	derive_tensor(r);
	for (int s = 0; s < NSHAPES; s++) {
		char sl[32], name[64];
		double best = 0, cublas = 0, best_ffma = 0;
		const char *best_name = NULL, *best_ffma_name = NULL;

		shape_label(sl, sizeof(sl), s);
		int seen = 0;  /* a shape in two tiers: its cases are found by name the first time */
		for (int e = 0; e < s; e++)
			seen |= shapes[e].m == shapes[s].m && shapes[e].n == shapes[s].n && shapes[e].k == shapes[s].k;
		if (seen)
			continue;
		snprintf(name, sizeof(name), "gemm.%s_%s", mode_label[GEMM_CUBLAS], sl);
		const struct gm_case_result *ref = gm_result_find(r, name);
		if (ref && ref->status == GM_CASE_OK)
			cublas = ref->value.median;
		for (int m = 0; m < GEMM_CUBLAS; m++) {
			snprintf(name, sizeof(name), "gemm.%s_%s", mode_label[m], sl);
			const struct gm_case_result *cr = gm_result_find(r, name);
			if (!cr || cr->status != GM_CASE_OK)
				continue;
			if (cr->value.median > best) {
				best = cr->value.median;
				best_name = cr->name;
			}
			if (m != GEMM_TF32X3 && cr->value.median > best_ffma) { /* FP32 FFMA on the CUDA cores, as cuBLAS's */
				best_ffma = cr->value.median;
				best_ffma_name = cr->name;
			}
			if (shapes[s].m != 4096 || shapes[s].n != 4096)
				continue;
			struct gm_derived *x;
			snprintf(name, sizeof(name), "gemm.%s_of_cublas", mode_label[m]);
			if (cublas > 0 && (x = gm_result_derive(r, "gemm", name))) {
				x->unit = GM_UNIT_PCT;
				x->value = 100.0 * cr->value.median / cublas;
				snprintf(x->how, sizeof(x->how), "4096^3: %s (%.2f TFLOP/s) / cuBLAS (%.2f TFLOP/s), same run",
					 cr->name, cr->value.median, cublas);
			}
			snprintf(name, sizeof(name), "gemm.%s_l2_intensity", mode_label[m]);
			if ((x = gm_result_derive(r, "gemm", name))) {
				x->unit = GM_UNIT_FLOP_BYTE;
				x->value = 2.0 * 4096 * 4096 * 4096 / modelled_bytes(m, 4096, 4096, 4096);
				snprintf(x->how, sizeof(x->how),
					 "4096^3: 2MNK / modelled bytes requested from L2 (tile %d x %d)",
					 mode_tile_m[m], mode_tile_n[m]);
			}
		}
		derive_best(r, "best", sl, best_name, best, "", cublas);
		derive_best(r, "best_ffma", sl, best_ffma_name, best_ffma, ", FP32 FFMA", cublas);
	}
}

const struct gm_family gm_family_gemm = {
	"gemm", "SGEMM ladder: naive, shared tiles, register blocking, vector loads, cp.async, warp tiles vs cuBLAS",
	gemm_enumerate, gm_gemm_ops, gemm_derive,
};
