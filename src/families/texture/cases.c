/*
 * cases.c - the texture family's case table: a column walk of a 4096^2 uint32 image (2D-local, not
 * coalesced reads) with default loads, __ldg, a texture over pitched memory
 * and a texture over a CUDA array. Unit: GB/s of useful bytes (4 B read +
 * 4 B written per pixel). derive(): the best texture's speed-up over default
 * loads. Kernels: src/families/texture/texture.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

static const struct {
	int mode, quick;
	const char *label, *desc;
} variants[] = {
	{ TX_PLAIN, 1, "v0_plain", "column walk of a 4096^2 uint32 image, default loads, cudaMallocPitch" },
	{ TX_LDG, 0, "v1_ldg", "same, __ldg (ld.global.nc)" },
	{ TX_TEX_PITCH, 0, "v2_tex_pitch", "same, tex2D on a texture object over the pitched memory" },
	{ TX_TEX_ARRAY, 1, "v3_tex_array", "same, tex2D on a texture object over a CUDA array" },
};

static int texture_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;

	for (int k = 0; k < 4; k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		gm_case_begin(c, &gm_family_texture, k, GM_KIND_MEASURE, variants[k].quick, variants[k].desc, "%s",
			      variants[k].label);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "storage", variants[k].mode);
		gm_case_param_add(c, "dim", TX_DIM);
	}
	return 4;
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void texture_derive(struct gm_run_result *r)
{
	double plain = ok_value(r, "texture.v0_plain"), a = ok_value(r, "texture.v2_tex_pitch"),
	       b = ok_value(r, "texture.v3_tex_array");
	double best = a > b ? a : b;

	if (plain <= 0 || best <= 0)
		return;
	struct gm_derived *x = gm_result_derive(r, "texture", "texture.speedup");
	if (!x)
		return;
	snprintf(x->level, sizeof(x->level), "texture");
	snprintf(x->quantity, sizeof(x->quantity), "speed-up");
	x->unit = GM_UNIT_RATIO;
	x->value = best / plain;
	snprintf(x->how, sizeof(x->how), "GB/s of texture.%s / texture.v0_plain, column walk",
		 a > b ? "v2_tex_pitch" : "v3_tex_array");
}

const struct gm_family gm_family_texture = {
	"texture", "texture objects (pitched, CUDA array) vs plain and __ldg loads for a column walk of an image",
	texture_enumerate, gm_texture_ops, texture_derive,
};
