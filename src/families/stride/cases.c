/*
 * cases.c - the stride family's case table: the stride family's cases: a gather out[i] = in[i*S] that
 * reads 4, 8 or 16 B elements S elements apart (S = 1..32, 48, 64, 128) and
 * writes them densely, so the read side's sectors per request grow with S
 * while the write side stays perfectly coalesced. Kernels: src/families/stride/stride.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"

static const int elem_sizes[] = { 4, 8, 16 };
static const int strides[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	48, 64, 128,
};

#define N_ELEM ((int)(sizeof(elem_sizes) / sizeof(elem_sizes[0])))
#define N_STRIDE ((int)(sizeof(strides) / sizeof(strides[0])))

/* The --quick suite: both ends of the 1/S regime, the knee, far past it, and 16 B. */
static int stride_is_quick(int eb, int s)
{
	return (eb == 4 && (s == 1 || s == 4 || s == 8 || s == 32)) || (eb == 16 && s == 1);
}

static void stride_case(struct gm_case *c, int eb, int s)
{
	char desc[120];

	snprintf(desc, sizeof(desc), "gather out[i] = in[i*%d], %d B elements, %d loads in flight per thread",
		 s, eb, STRIDE_ILP);
	/* zero-padded so that names sort by element size, then stride */
	gm_case_begin(c, &gm_family_stride, 0, GM_KIND_DRAM, stride_is_quick(eb, s), desc,
		      "b%02d_s%03d", eb, s);
	gm_case_param_add(c, "elem_bytes", eb);
	gm_case_param_add(c, "stride", s);
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, eb, STRIDE_BLOCK, 1, 0,
			    "(bx*%d*bdx + tid)*%d", STRIDE_ILP, s);
	gm_case_pattern_repeat(c, STRIDE_ILP, (int64_t)STRIDE_BLOCK * s);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, eb, STRIDE_BLOCK, 1, 0,
			    "bx*%d*bdx + tid", STRIDE_ILP);
	gm_case_pattern_repeat(c, STRIDE_ILP, STRIDE_BLOCK);
}

static int stride_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int i = 0;

	for (int e = 0; e < N_ELEM; e++)
		for (int k = 0; k < N_STRIDE; k++, i++)
			stride_case(gm_case_slot(out, max, i, &scratch), elem_sizes[e], strides[k]);
	return i;
}

const struct gm_family gm_family_stride = {
	"stride", "strided gather out[i] = in[i*S]: S = 1..32, 48, 64, 128 at 4, 8 and 16 B per element",
	stride_enumerate, gm_stride_ops,
};
