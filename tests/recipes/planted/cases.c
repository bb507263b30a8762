/*
 * cases.c - the planted family's case table: the smallest complete family, the template that
 * CONTRIBUTING.md's "Add a family" recipe copies and that tests/recipes/family.sh plants into a copy of
 * the tree to prove the recipe. One case: fill an array with a closed form, 4 bytes a thread, in GB/s.
 * Kernels: planted.cu.
 */
#include "families/family.h"
#include "families/kernels.h"

static int planted_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	struct gm_case *c = gm_case_slot(out, max, 0, &scratch);

	gm_case_begin(c, &gm_family_planted, 0, GM_KIND_MEASURE, 1, "fill: out[i] = f(i), 4 B a thread",
		      "fill_b4");
	gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
	gm_case_pattern_add(c, "out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, 256, 1, 0, "gid");
	return 1;
}

const struct gm_family gm_family_planted = {
	"planted", "the recipe's template: a closed-form fill, 4 B a thread",
	planted_enumerate, gm_planted_ops,
};
