/*
 * cases.c - the copy family's case table: streaming copies at 4, 8 and 16 bytes
 * per access, one element per thread vs grid-stride with 4 loads in flight,
 * read-only and write-only streams, and cudaMemcpy device-to-device as the
 * reference. Kernels: src/families/copy/copy.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"


static const struct {
	int mode, eb, ilp, streaming, quick;
	const char *label, *desc;
	int pitch; /* COPY_PAGES: the rows' pitch in elements (0: COPY_PAGES_PITCH) */
} variants[] = {
	{ COPY_ONE, 4, 1, 0, 0, "v0_b4", "copy, 4 B per thread, one element per thread" },
	{ COPY_ONE, 8, 1, 0, 0, "v1_b8", "copy, 8 B per thread, one element per thread" },
	{ COPY_ONE, 16, 1, 0, 0, "v2_b16", "copy, 16 B per thread, one element per thread" },
	{ COPY_ILP, 4, 4, 0, 0, "v3_b4_ilp4", "copy, 4 B, grid-stride, 4 loads in flight per thread" },
	{ COPY_ILP, 8, 4, 0, 0, "v4_b8_ilp4", "copy, 8 B, grid-stride, 4 loads in flight per thread" },
	{ COPY_ILP, 16, 4, 0, 1, "v5_b16_ilp4", "copy, 16 B, grid-stride, 4 loads in flight per thread" },
	{ COPY_ILP, 16, 8, 0, 0, "v6_b16_ilp8", "copy, 16 B, grid-stride, 8 loads in flight per thread" },
	{ COPY_ILP, 16, 4, 1, 0, "v7_b16_ilp4_cs", "copy, 16 B, 4 in flight, streaming cache hints" },
	{ COPY_TILE, 4, 4, 0, 0, "v8_b4_tile4", "copy, 4 B, one tile of 4 elements per thread per block" },
	{ COPY_TILE, 16, 4, 0, 1, "v9_b16_tile4", "copy, 16 B, one tile of 4 elements per thread per block" },
	{ READ_TILE, 16, 4, 0, 1, "read_b16_tile4", "read-only stream, 16 B, one tile per block" },
	{ WRITE_TILE, 16, 4, 0, 1, "write_b16_tile4", "write-only stream, 16 B, one tile per block" },
	{ COPY_READ, 4, 4, 0, 0, "read_b4_ilp4", "read-only stream, 4 B, grid-stride, 4 in flight" },
	{ COPY_READ, 16, 4, 0, 0, "read_b16_ilp4", "read-only stream, 16 B, grid-stride, 4 in flight" },
	{ COPY_READ, 16, 8, 0, 0, "read_b16_ilp8", "read-only stream, 16 B, grid-stride, 8 in flight" },
	{ COPY_WRITE, 4, 4, 0, 0, "write_b4_ilp4", "write-only stream, 4 B, grid-stride, 4 in flight" },
	{ COPY_WRITE, 16, 4, 0, 0, "write_b16_ilp4", "write-only stream, 16 B, grid-stride, 4 in flight" },
	{ COPY_WRITE, 16, 8, 1, 0, "write_b16_ilp8_cs", "write-only stream, 16 B, 8 in flight, streaming hint" },
	{ COPY_ONE_L2, 4, 1, 0, 0, "table_b4", "copy, 4 B per thread, one element per thread from a 4 MiB table (L2)" },
	{ COPY_LINES_L2, 4, 1, 0, 0, "lines_b4", "as table_b4, lanes 128 B apart: 32 lines of L2 a request" },
	{ COPY_ONE_L2_BIG, 4, 1, 0, 0, "table_blk1024_b4",
	  "as table_b4 in blocks of 1024: the round trip L2 serves, not hidden by the rate the SMs start blocks" },
	{ COPY_LINES_L1, 4, 1, 0, 0, "lines_l1_b4",
	  "copy, 4 B per thread, a column walk over 32 rows of a 4 KiB table: 32 lines of L1 a request" },
	{ COPY_PAGES, 4, 1, 0, 0, "pages_b4",
	  "copy, 4 B per thread, a column walk over 256 rows 4 MiB + 128 B apart: each lane in a 2 MiB page of its own" },
	{ COPY_PAGES, 4, 1, 0, 0, "pages_2m_b4", "as pages_b4, rows 2 MiB + 128 B apart: the request's pages neighbours",
	  COPY_PAGES_PITCH_2M },
	{ COPY_PAGES, 4, 1, 0, 0, "pages_2m_al_b4",
	  "as pages_b4, rows exactly 2 MiB apart: the request's lines on the same low address bits", COPY_PAGES_PITCH_2M_AL },
	{ COPY_PAGES, 4, 1, 0, 0, "pages_spread_b4",
	  "as pages_b4, rows 3.84 MiB apart: the request's lanes spread over their pages' offsets", COPY_PAGES_PITCH_SPREAD },
	{ COPY_PAGES, 4, 1, 0, 0, "pages_16m_b4", "as pages_b4, rows 16 MiB + 128 B apart: the request's pages far apart",
	  COPY_PAGES_PITCH_16M },
	{ COPY_SCATTER, 4, 1, 0, 0, "scatter_b4",
	  "copy, 4 B per thread, the 32 warps of a block each store into the same 32 lines (lanes 128 B apart)" },
	{ COPY_SCATTER_FAR, 4, 1, 0, 0, "scatter_far_b4",
	  "as scatter_b4, the block's 32 lines 1 KiB + 128 B apart (9 blocks interleaved): the request's lines spaced" },
	{ COPY_SPARSE_ST, 16, 1, 0, 0, "sparse_st_b16",
	  "copy, 16 B per thread, pairs of lanes store whole 32 B sectors 256 B apart, nothing between them: DRAM's "
	  "sparse writes" },
	{ COPY_COLSTORE, 4, 1, 0, 0, "colstore_b4",
	  "copy, 4 B per thread, a column walk of the stores over 1024 rows 512 KiB + 128 B apart: each lane alone in "
	  "a line it writes partly, the request's lines far apart" },
	{ COPY_COLSTORE, 16, 1, 0, 0, "colstore_b16", "as colstore_b4 with 16 B elements (rows 512 KiB + 128 B apart)" },
	{ COPY_SCATTER_BLOCKS, 4, 1, 0, 0, "scatter_blocks_b4",
	  "copy, 4 B per thread, the 8 pieces of each sector stored by 8 consecutive blocks (lanes 32 B apart)" },
	{ COPY_ONE_SMALL, 4, 1, 0, 0, "blk64_b4",
	  "copy, 4 B per thread, one element per thread, blocks of 64 threads: the rate the SMs start blocks" },
	{ COPY_ONE_BIG, 4, 1, 0, 0, "blk1024_b4",
	  "copy, 4 B per thread, one element per thread, blocks of 1024: a block ends with its slowest warp" },
	{ COPY_ONE_START, 4, 1, 0, 0, "start_b4",
	  "copy, 4 B per thread, one element per thread, over 8 waves of resident threads: a launch's start-up" },
	{ COPY_ONE_FLOOR, 4, 1, 0, 0, "floor_b4",
	  "copy, 4 B per thread, one block of 256 threads timed back to back: the least a launch takes" },
	{ COPY_MEMCPY, 16, 1, 0, 1, "memcpy_d2d", "cudaMemcpyAsync device-to-device (reference)" },
};

static int copy_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		int mode = variants[i].mode, eb = variants[i].eb;
		int version = mode <= COPY_ILP || mode == COPY_TILE ? i : -1;

		gm_case_begin(c, &gm_family_copy, version, GM_KIND_DRAM, variants[i].quick,
			      variants[i].desc, "%s", variants[i].label);
		gm_case_param_add(c, "mode", mode);
		gm_case_param_add(c, "elem_bytes", eb);
		gm_case_param_add(c, "ilp", variants[i].ilp);
		if (variants[i].streaming)
			gm_case_param_add(c, "streaming", 1);
		if (variants[i].pitch) /* pages_b4 keeps its params as committed runs have them */
			gm_case_param_add(c, "pitch", variants[i].pitch);
		if (mode == COPY_MEMCPY)
			continue;
		/* copy_one, copy_one_table: one element per thread, no loop (rule T2) */
		c->round_trips = mode == COPY_ONE || mode == COPY_ONE_START || mode == COPY_ONE_FLOOR || mode == COPY_ONE_SMALL || mode == COPY_ONE_BIG ||
				 mode == COPY_ONE_L2 || mode == COPY_LINES_L2 || mode == COPY_SCATTER ||
				 mode == COPY_SCATTER_BLOCKS || mode == COPY_PAGES || mode == COPY_ONE_L2_BIG ||
				 mode == COPY_LINES_L1 || mode == COPY_COLSTORE || mode == COPY_SCATTER_FAR ||
				 mode == COPY_SPARSE_ST;
		/* first access of warp 0: a tile block owns ilp * 256 elements */
		char table[96];
		const char *idx = mode >= COPY_TILE && mode <= WRITE_TILE ? "bx*4*bdx + tid" : "bx*bdx + tid";

		snprintf(table, sizeof(table), mode == COPY_LINES_L2 ? "((bx*bdx + tid) * 32) %% %d" : "(bx*bdx + tid) %% %d",
			 COPY_TABLE_ELEMS);
		if (mode == COPY_ONE_L2 || mode == COPY_LINES_L2 || mode == COPY_ONE_L2_BIG)
			idx = table;
		if (mode == COPY_LINES_L1) {
			snprintf(table, sizeof(table), "((bx*bdx + tid) %% %d) * %d + ((bx*bdx + tid) / %d) %% %d", COPY_L1_ROWS,
				 COPY_L1_ROWS, COPY_L1_ROWS, COPY_L1_ROWS);
			idx = table;
		}
		if (mode == COPY_PAGES) {
			int pitch = variants[i].pitch ? variants[i].pitch : COPY_PAGES_PITCH;

			snprintf(table, sizeof(table), "((bx*bdx + tid) %% %d) * %d + ((bx*bdx + tid) / %d) %% %d",
				 COPY_PAGES_ROWS, pitch, COPY_PAGES_ROWS, pitch);
			idx = table;
		}
		if (mode == COPY_SCATTER) {
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, COPY_SCATTER_BLOCK, 1, 0,
					    "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, COPY_SCATTER_BLOCK, 1, 0,
					    "bx*1024 + (tid%%32)*32 + tid/32");
			continue;
		}
		if (mode == COPY_SCATTER_FAR) {
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, COPY_SCATTER_BLOCK, 1, 0,
					    "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, COPY_SCATTER_BLOCK, 1, 0,
					    "(bx/%d)*%d + ((tid%%32)*%d + bx%%%d)*32 + tid/32", COPY_SCATTER_FAR_G,
					    COPY_SCATTER_FAR_G * 1024, COPY_SCATTER_FAR_G, COPY_SCATTER_FAR_G);
			continue;
		}
		if (mode == COPY_COLSTORE) {
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, eb, COPY_BLOCK, 1, 0, "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, eb, COPY_BLOCK, 1, 0,
					    "((bx*bdx + tid) %% %d) * %d + (bx*bdx + tid) / %d", COPY_COLSTORE_ROWS,
					    COPY_COLSTORE_PITCH_BYTES / eb, COPY_COLSTORE_ROWS);
			continue;
		}
		if (mode == COPY_SPARSE_ST) {
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, eb, COPY_BLOCK, 1, 0, "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, eb, COPY_BLOCK, 1, 0,
					    "((bx*bdx + tid) / %d) * %d + (bx*bdx + tid) %% %d", COPY_SPARSE_RUN,
					    COPY_SPARSE_STEP, COPY_SPARSE_RUN);
			continue;
		}
		if (mode == COPY_SCATTER_BLOCKS) {
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, COPY_BLOCK, 1, 0, "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, COPY_BLOCK, 1, 0,
					    "(bx/8)*2048 + tid*8 + bx%%8");
			continue;
		}
		if (mode == COPY_ONE_SMALL || mode == COPY_ONE_BIG || mode == COPY_ONE_L2_BIG) {
			int bt = mode == COPY_ONE_SMALL ? COPY_SMALL_BLOCK : COPY_BIG_BLOCK;

			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, bt, 1, 0, "%s",
					    mode == COPY_ONE_L2_BIG ? idx : "bx*bdx + tid");
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, bt, 1, 0, "bx*bdx + tid");
			continue;
		}
		if (mode != COPY_WRITE && mode != WRITE_TILE)
			gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, eb, 256, 1, 0, "%s", idx);
		if (mode != COPY_READ && mode != READ_TILE)
			gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, eb, 256, 1, 0, "%s",
					    mode == COPY_ONE_L2 || mode == COPY_LINES_L2 || mode == COPY_PAGES ||
							    mode == COPY_LINES_L1 ? "bx*bdx + tid"
												  : idx);
	}
	return n;
}

const struct gm_family gm_family_copy = {
	"copy", "streaming copy, read-only and write-only at 4/8/16 B per access vs cudaMemcpy",
	copy_enumerate, gm_copy_ops,
};
