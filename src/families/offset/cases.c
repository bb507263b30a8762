/*
 * cases.c - the offset family's case table: the offset family's cases: a 4 B copy shifted by 0..32
 * elements on the read side (out[i] = in[i + off]) or on the write side
 * (out[i + off] = in[i]), so one side of every warp access starts off*4 bytes
 * past a 128 B line. Kernels: src/families/offset/offset.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"

/* --quick: aligned and one element off on each side, plus sector-aligned (8) on the read side. */
static int offset_is_quick(int side, int off)
{
	return off == 0 || off == 1 || (side == SIDE_READ && off == 8);
}

static void offset_case(struct gm_case *c, int side, int off)
{
	char desc[120];
	int64_t rbase = side == SIDE_READ ? off * 4 : 0;
	int64_t wbase = side == SIDE_WRITE ? off * 4 : 0;

	if (side == SIDE_READ)
		snprintf(desc, sizeof(desc), "copy out[i] = in[i + %d], 4 B elements: reads %d B past alignment",
			 off, off * 4);
	else
		snprintf(desc, sizeof(desc), "copy out[i + %d] = in[i], 4 B elements: writes %d B past alignment",
			 off, off * 4);
	gm_case_begin(c, &gm_family_offset, 0, GM_KIND_DRAM, offset_is_quick(side, off), desc,
		      "%s_o%02d", side == SIDE_READ ? "rd" : "wr", off);
	gm_case_param_add(c, "side", side);
	gm_case_param_add(c, "offset", off);
	/* the shift is declared as a byte base, the index stays the plain thread index */
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, OFFSET_BLOCK, 1, rbase,
			    "bx*%d*bdx + tid", OFFSET_ILP);
	gm_case_pattern_repeat(c, OFFSET_ILP, OFFSET_BLOCK);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, OFFSET_BLOCK, 1, wbase,
			    "bx*%d*bdx + tid", OFFSET_ILP);
	gm_case_pattern_repeat(c, OFFSET_ILP, OFFSET_BLOCK);
}

static int offset_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int i = 0;

	for (int side = SIDE_READ; side <= SIDE_WRITE; side++)
		for (int off = 0; off <= OFFSET_MAX; off++, i++)
			offset_case(gm_case_slot(out, max, i, &scratch), side, off);
	return i;
}

const struct gm_family gm_family_offset = {
	"offset", "misaligned 4 B copy: read side or write side shifted by 0..32 elements",
	offset_enumerate, gm_offset_ops,
};
