/*
 * cases.c - the banks family's case table: the banks family's cases: shared-memory loads whose per-lane
 * index sets the bank conflicts. A stride sweep (lane*S, S = 1..32, 33, 64)
 * at 4, 8 and 16 B per element; broadcast and multicast; a 32x32 float tile
 * read by column (unpadded, padded, XOR-swizzled) and by row. Kernels:
 * src/families/banks/banks.cu.
 *
 * Parameters: elem_bytes, pattern (ids below, shared with banks.cu), stride,
 * group (cases comparable with each other: 4/8/16 = the sweep at that width
 * plus, at 4 B, broadcast and multicast; 32 = the tile reads) and ideal (1 on
 * the conflict-free case of the group, against which the runner reports the
 * slowdown). The declared pattern is access u = 0 of the kernel's loop.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define GROUP_TILE 32

static const int widths[] = { 4, 8, 16 };
static const int strides[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 64,
};

#define N_WIDTH ((int)(sizeof(widths) / sizeof(widths[0])))
#define N_STRIDE ((int)(sizeof(strides) / sizeof(strides[0])))

/* Non-sweep cases: 4 B elements; the tile reads column 1 first (banks.cu tile_col). */
static const struct {
	int pattern, version, group, ideal, quick;
	const char *label, *index, *desc;
} others[] = {
	{ PAT_BCAST, 0, 4, 0, 0, "bcast_b4", "0", "broadcast: all lanes read one word" },
	{ PAT_MC_DIV4, 0, 4, 0, 0, "mcast_div4", "lane/4", "multicast: 8 words, 4 lanes each, 8 banks" },
	{ PAT_MC_MOD4, 0, 4, 0, 0, "mcast_mod4", "lane%4", "multicast: 4 words, 8 lanes each, 4 banks" },
	{ PAT_MC_DIV4_S32, 0, 4, 0, 0, "mcast_div4_s32", "(lane/4)*32",
	  "multicast into one bank: 8 words, 4 lanes each, all in bank 0" },
	{ PAT_TILE_ROW, -1, GROUP_TILE, 1, 1, "tile_row", "1*32 + lane",
	  "32x32 float tile read by row: conflict-free reference" },
	{ PAT_TILE_COL, 0, GROUP_TILE, 0, 1, "tile_v0_col", "lane*32 + 1",
	  "32x32 float tile read by column, unpadded: 32-way conflict" },
	{ PAT_TILE_PAD, 1, GROUP_TILE, 0, 1, "tile_v1_col_pad", "lane*33 + 1",
	  "32x32 float tile (pitch 33) read by column: padded" },
	{ PAT_TILE_XOR, 2, GROUP_TILE, 0, 0, "tile_v2_col_xor", "lane*32 + (1 ^ lane)",
	  "32x32 float tile read by column, XOR-swizzled (col ^ row)" },
};

#define N_OTHER ((int)(sizeof(others) / sizeof(others[0])))

/* Quick: both ends of the 4 B sweep and the tile reads with their ideal (the row read). */
static int sweep_is_quick(int eb, int s)
{
	return eb == 4 && (s == 1 || s == 32);
}

static void sweep_case(struct gm_case *c, int eb, int s)
{
	char desc[120];

	snprintf(desc, sizeof(desc), "shared load of %d B elements, lane i reads element i*%d", eb, s);
	gm_case_begin(c, &gm_family_banks, 0, GM_KIND_SMEM, sweep_is_quick(eb, s), desc,
		      "b%02d_s%02d", eb, s);
	gm_case_param_add(c, "elem_bytes", eb);
	gm_case_param_add(c, "pattern", PAT_STRIDE);
	gm_case_param_add(c, "stride", s);
	gm_case_param_add(c, "group", eb);
	gm_case_param_add(c, "ideal", s == 1);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, eb, BK_BLOCK, 1, 0, "lane*%d", s);
}

static void other_case(struct gm_case *c, int k)
{
	gm_case_begin(c, &gm_family_banks, others[k].version, GM_KIND_SMEM, others[k].quick, others[k].desc,
		      "%s", others[k].label);
	gm_case_param_add(c, "elem_bytes", 4);
	gm_case_param_add(c, "pattern", others[k].pattern);
	gm_case_param_add(c, "stride", 0);
	gm_case_param_add(c, "group", others[k].group);
	gm_case_param_add(c, "ideal", others[k].ideal);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, BK_BLOCK, 1, 0, "%s",
			    others[k].index);
}

static int banks_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int i = 0;

	for (int w = 0; w < N_WIDTH; w++)
		for (int k = 0; k < N_STRIDE; k++, i++)
			sweep_case(gm_case_slot(out, max, i, &scratch), widths[w], strides[k]);
	for (int k = 0; k < N_OTHER; k++, i++)
		other_case(gm_case_slot(out, max, i, &scratch), k);
	return i;
}

const struct gm_family gm_family_banks = {
	"banks", "shared-memory bank conflicts: stride sweep at 4/8/16 B, broadcast, multicast, tile reads",
	banks_enumerate, gm_banks_ops,
};
