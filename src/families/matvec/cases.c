/*
 * cases.c - the matvec family's case table: the matvec family: y = A x with A (16384 x 16384, row-major)
 * far larger than the L2, from one thread per row (uncoalesced) to a warp per
 * four rows with 16-byte loads, in float and half, against cuBLAS SGEMV; and
 * the transposed product y = A^T x, whose natural access is the column walk.
 * Kernels: src/families/matvec/matvec.cu. derive() sets the best version against the
 * HBM read stream of the same run and against cuBLAS.
 * See src/families/matvec/README.md.
 */
#include <stdio.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/matvec/matvec_shapes.h"

static const struct {
	int mode, eb, quick;
	const char *label, *desc, *index;
} variants[] = {
	{ MV_THREAD_ROW, 4, 0, "v0_thread_row", "y = A x, one thread per row (lanes a row apart)",
	  "(bx*bdx + tid)*16384" },
	{ MV_WARP_ROW, 4, 0, "v1_warp_row", "y = A x, a warp per row, lanes on consecutive columns",
	  "lane" },
	{ MV_WARP_ROW_SMEM, 4, 0, "v2_warp_row_smemx", "y = A x, a warp per row, x tiled in shared memory",
	  "lane" },
	{ MV_WARP_ROW_VEC4, 16, 0, "v3_warp_row_vec4", "y = A x, a warp per row, 16-byte loads", "lane" },
	{ MV_WARP_ROWS4, 16, 1, "v4_warp_rows4_vec4", "y = A x, a warp per 4 rows, 16-byte loads", "lane" },
	{ MV_HALF_ROWS4, 16, 0, "v5_half_rows4", "y = A x in half (float sums), a warp per 4 rows, 16-byte loads",
	  "lane" },
	{ MV_WARP_ROWS4_U2, 16, 0, "v6_rows4_unroll2", "y = A x, a warp per 4 rows, 8 16-byte loads in flight",
	  "lane" },
	{ MV_BLOCK_ROWS4, 16, 0, "v7_block_rows4", "y = A x, a block per 4 rows swept in memory order",
	  "bx*16384 + tid" },
	{ MV_CUBLAS, 4, 1, "ref_cublas", "cublasSgemv, y = A x (reference)", NULL },
	{ MV_T_WARP_COL, 4, 0, "t0_warp_col", "y = A^T x, a warp per output: the column walk",
	  "lane*16384 + gid/32" },
	{ MV_T_THREAD_COL, 4, 0, "t1_thread_col", "y = A^T x, a thread per column over 256 rows, atomics",
	  "bx*bdx + tid" },
	{ MV_T_VEC4, 16, 0, "t2_vec4", "y = A^T x, 4 columns per thread, 16-byte loads, atomics",
	  "bx*bdx + tid" },
	{ MV_T_CUBLAS, 4, 0, "tref_cublas", "cublasSgemv, y = A^T x (reference)", NULL },
};
#define NVARIANTS ((int)(sizeof(variants) / sizeof(variants[0])))

static int matvec_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;

	for (int i = 0; i < NVARIANTS; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		int mode = variants[i].mode, cublas = mode == MV_CUBLAS || mode == MV_T_CUBLAS;
		int half = mode == MV_HALF_ROWS4;

		gm_case_begin(c, &gm_family_matvec, cublas ? -1 : i, GM_KIND_DRAM, variants[i].quick,
			      variants[i].desc, "%s", variants[i].label);
		gm_case_param_add(c, "mode", mode);
		gm_case_param_add(c, "rows", MV_ROWS);
		gm_case_param_add(c, "cols", MV_COLS);
		gm_case_param_add(c, "elem_bytes", half ? 2 : 4);
		if (variants[i].index)
			gm_case_pattern_add(c, "load A", GM_SPACE_GLOBAL, GM_OP_LOAD, variants[i].eb, MV_BLOCK, 1, 0,
					    "%s", variants[i].index);
		/* the walks whose warps share A's pieces declare their loops (launch model rule R) */
		if (mode == MV_THREAD_ROW)
			gm_case_pattern_repeat(c, MV_COLS, 1);
		else if (mode == MV_BLOCK_ROWS4) /* 4 rows of 4096 float4, thread t reads t + 256 m */
			gm_case_pattern_repeat(c, 4 * (MV_COLS / 4) / MV_BLOCK, MV_BLOCK);
		else if (mode == MV_T_WARP_COL)
			gm_case_pattern_repeat(c, MV_ROWS / 32, (int64_t)32 * MV_COLS);
	}
	return NVARIANTS;
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

/* The best own version of one product (prefix "matvec.v" or "matvec.t"). */
static double best_of(const struct gm_run_result *r, char prefix, const char **name)
{
	double best = 0;

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *cr = &r->cases[i];
		if (strncmp(cr->name, "matvec.", 7) || cr->name[7] != prefix || cr->status != GM_CASE_OK)
			continue;
		if (cr->value.median > best) {
			best = cr->value.median;
			*name = cr->name;
		}
	}
	return best;
}

static void derive_one(struct gm_run_result *r, char prefix, const char *what, const char *ref_case)
{
	const char *name = NULL, *hbm_case = "copy.read_b16_tile4";
	double best = best_of(r, prefix, &name), cublas = ok_value(r, ref_case), hbm = ok_value(r, hbm_case);
	char dn[64];
	struct gm_derived *x;

	if (best <= 0)
		return;
	snprintf(dn, sizeof(dn), "matvec.%s_best_vs_hbm_read", what);
	if (hbm > 0 && (x = gm_result_derive(r, "matvec", dn))) {
		x->unit = GM_UNIT_PCT;
		x->value = 100.0 * best / hbm;
		snprintf(x->how, sizeof(x->how), "%s (%.0f GB/s) / %s (%.0f GB/s), same run", name, best, hbm_case,
			 hbm);
	}
	snprintf(dn, sizeof(dn), "matvec.%s_best_vs_cublas", what);
	if (cublas > 0 && (x = gm_result_derive(r, "matvec", dn))) {
		x->unit = GM_UNIT_RATIO;
		x->value = best / cublas;
		snprintf(x->how, sizeof(x->how), "%s (%.0f GB/s) / %s (%.0f GB/s), same run", name, best, ref_case,
			 cublas);
	}
}

static void matvec_derive(struct gm_run_result *r)
{
	derive_one(r, 'v', "ax", "matvec.ref_cublas");
	derive_one(r, 't', "atx", "matvec.tref_cublas");
}

const struct gm_family gm_family_matvec = {
	"matvec", "y = A x and A^T x with A far past the L2: naive to vectorized, float and half, vs cuBLAS",
	matvec_enumerate, gm_matvec_ops, matvec_derive,
};
