/*
 * cases.c - the transpose family's case table: the transpose family's cases: out[c][r] = in[r][c] for a
 * float matrix, the ladder's versions (v0-v27) plus three plain copies of
 * the same matrix as ceilings (copy_b16_line is the best copy of the
 * unaligned shapes), each on three shapes: square; ragged (side-17
 * rows by side-33 cols: partial tiles, rows that start inside a sector, no
 * float4 in the transposes; copy_b16 shifts each row's pieces to a sector);
 * a8 (side-24 by side-40: partial tiles, rows 32 B aligned). Kernels:
 * src/families/transpose/transpose.cu.
 *
 * Parameters: rows, cols (the nominal shape, at side 16384 = a 1 GiB array;
 * a smaller run shifts both by the same amount), tile (32 or 64) and vec
 * (bytes per global access on the fast path). The declared patterns are
 * those of warp 0 with the nominal pitches.
 */
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/shapes.h"

enum { SM_NONE, SM_UNPADDED, SM_PADDED, SM_XOR, SM_VEC };

/*
 * trips: the times a thread waits for its global loads on the path the
 * declared patterns describe (the scalar path of v5 and copy_b16), read from
 * the sm_90 SASS by scripts/lab/sass_round_trips.py (launch model rule T2;
 * results/nvidia-h200/launch/gpu-c764c0e/round_trips.txt).
 */
static const struct {
	int version, tile, by, vec, smem, quick, trips;
	const char *label, *desc;
} variants[] = {
	{ 0, 32, 32, 4, SM_NONE, 1, 1, "v0_naive", "naive: coalesced row read, column write (1 sector/element)" },
	{ 1, 32, 32, 4, SM_UNPADDED, 0, 1, "v1_tiled", "32x32 smem tile, unpadded: 32-way conflict on the column read" },
	{ 2, 32, 32, 4, SM_PADDED, 1, 1, "v2_padded", "32x32 smem tile padded to 33: conflict-free, block 32x32" },
	{ 3, 32, 8, 4, SM_PADDED, 0, 1, "v3_padded_4r", "padded tile, block 32x8, 4 rows per thread" },
	{ 4, 32, 8, 4, SM_XOR, 0, 1, "v4_xor", "XOR-swizzled tile (col ^ row), block 32x8, 4 rows per thread" },
	{ 5, 64, 8, 16, SM_VEC, 1, 3, "v5_vec16",
	  "64x64 tile, float4 both sides, 4x4 register transpose, swizzled smem" },
	{ 6, 128, 8, 4, SM_PADDED, 0, 3, "v6_tall",
	  "128x32 padded tile, 16 rows per thread, warps write 512 B of an output row" },
	{ 7, 128, 8, 4, SM_PADDED, 0, 3, "v7_shift",
	  "v6 with each output row's pieces shifted to start on a sector: no sector split between blocks" },
	{ 8, 64, 8, 16, SM_PADDED, 0, 0, "v8_shear",
	  "float4 both sides of a ragged matrix: load windows from each input row's sector, store windows from each output row's" },
	{ 9, 64, 8, 16, SM_PADDED, 0, 0, "v9_rows",
	  "v8 with whole output rows per block: no output sector written by two blocks; 8 more input floats a row" },
	{ 10, 64, 8, 16, SM_PADDED, 0, 0, "v10_rows8",
	  "v9 capped at 32 registers: 8 blocks an SM instead of 6 (ptxas spills 44 B)" },
	{ 11, 64, 8, 16, SM_PADDED, 0, 0, "v11_lean",
	  "v9 with the interior tiles unchecked (32-bit offsets, no edge tests); edge tiles v9's code" },
	{ 12, 64, 8, 16, SM_PADDED, 0, 0, "v12_async",
	  "v11's interior tiles loaded global -> shared by cp.async (no data registers, no STS): 32 registers, 8 blocks an SM" },
	{ 13, 64, 8, 16, SM_PADDED, 0, 0, "v13_down",
	  "v9 launched down the tile rows: blocks launched together write adjacent windows of the same output rows" },
	{ 14, 64, 8, 16, SM_PADDED, 0, 0, "v14_lean_down", "v11 launched down the tile rows (v13's order)" },
	{ 15, 64, 8, 16, SM_PADDED, 0, 0, "v15_lean5_down",
	  "v14 under 48 registers: no spills (v11/v14 spill 12 B at 40), 5 blocks an SM instead of 6" },
	{ 16, 64, 8, 16, SM_PADDED, 0, 0, "v16_panel",
	  "v9 launched down panels of 8 tile rows, one tile column after the other: both neighbours of a tile a few launches away" },
	{ 17, 64, 8, 16, SM_PADDED, 0, 0, "v17_group4",
	  "v15 launched across groups of 4 tile columns, then down: split input lines read 1 launch apart (3 in 4)" },
	{ 18, 64, 8, 16, SM_PADDED, 0, 0, "v18_group8", "v17 with groups of 8 tile columns (7 in 8)" },
	{ 19, 64, 8, 16, SM_PADDED, 0, 0, "v19_whole5",
	  "v15 with each kept float4 stored to shared memory whole, no test per float (48 registers, 5 blocks an SM)" },
	{ 20, 64, 8, 16, SM_PADDED, 0, 0, "v20_whole6", "v19 under 40 registers: 6 blocks an SM, no spills" },
	{ 21, 64, 8, 16, SM_PADDED, 0, 0, "v21_lean4_down", "v15 at 4 blocks an SM: 61 registers, 4 % fewer SASS" },
	{ 22, 64, 8, 16, SM_PADDED, 0, 0, "v22_lean3_x4",
	  "v15's tiles, 4 a block down a tile column: the index work that does not depend on the tile row done once" },
	{ 23, 64, 8, 16, SM_PADDED, 0, 0, "v23_lean2_x4", "v22 at 2 blocks an SM (128 registers)" },
	{ 24, 64, 8, 16, SM_PADDED, 0, 0, "v24_sts5",
	  "v15 with its tested shared stores by st.shared at an address taken once (no S2R under each test)" },
	{ 25, 128, 16, 16, SM_PADDED, 0, 0, "v25_big128",
	  "v9's windows on 128x128 tiles: half the margin sectors of v15 (1.12x the copy's reads), every access checked, 512 threads, 2 blocks an SM" },
	{ 26, 128, 8, 16, SM_PADDED, 0, 0, "v26_tall128", "v25's kernel on 128x64 tiles (128 input rows, 64 columns), 256 threads, 4 blocks an SM" },
	{ 27, 64, 8, 16, SM_PADDED, 0, 0, "v27_wide128", "v25's kernel on 64x128 tiles (64 input rows, 128 columns), 256 threads, 4 blocks an SM" },
	{ -1, 32, 8, 4, SM_NONE, 0, 2, "copy_b4", "plain copy of the matrix, v3's grid (32x8, 4 B): ceiling" },
	{ -1, 64, 8, 16, SM_NONE, 1, 4, "copy_b16", "plain copy of the matrix, v5's grid (float4, pieces from each row's first sector): ceiling" },
	{ -2, 64, 8, 16, SM_NONE, 0, 4, "copy_b16_line",
	  "copy_b16 with each row's pieces from its first 128 B line: every interior piece two whole lines" },
};

static const struct {
	int drows, dcols;
	const char *suffix;
} shapes[] = {
	{ 0, 0, "" },
	{ 17, 33, "_ragged" },
	{ 24, 40, "_a8" },
};

#define NVAR ((int)(sizeof(variants) / sizeof(variants[0])))
#define NSHAPE ((int)(sizeof(shapes) / sizeof(shapes[0])))

/*
 * Scalar kernels, warp 0 = tile row ty, 32 columns. v5 runs its blocks down
 * the input rows (blockIdx.x = tile row), so bx and by trade places there.
 */
static void scalar_patterns(struct gm_case *c, int v, int R, int C)
{
	int t = variants[v].tile, by = variants[v].by;
	int pitch = variants[v].smem == SM_UNPADDED ? 32 : t + 1;
	const char *tr = variants[v].version == 5 ? "bx" : "by", *tc = variants[v].version == 5 ? "by" : "bx";
	/* fewer thread rows than tile rows: each thread repeats its row t / by times, by rows apart, and
	   a tile wider than the 32 threads of a row t / 32 times, 32 columns apart */
	int it = by < t ? t / by : 1, ih = t / 32;

	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, 32, by, 0,
			    "(%s*%d + ty)*%d + %s*%d + tx", tr, t, C, tc, t);
	gm_case_pattern_repeat2(c, it, (int64_t)by * C, ih, 32);
	if (variants[v].version < 0) {
		gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, 32, by, 0,
				    "(%s*%d + ty)*%d + %s*%d + tx", tr, t, C, tc, t);
		gm_case_pattern_repeat2(c, it, (int64_t)by * C, ih, 32);
		return;
	}
	if (variants[v].smem == SM_NONE) {
		gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, 32, by, 0,
				    "(bx*%d + tx)*%d + by*%d + ty", t, R, t);
		return;
	}
	if (variants[v].smem == SM_XOR) {
		/* the later rows' XOR differs, their banks are as conflict-free: repeated as a shift */
		gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, by, 0,
				    "ty*32 + (tx ^ ty)");
		gm_case_pattern_repeat(c, it, (int64_t)by * 32);
		gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, by, 0,
				    "tx*32 + (ty ^ tx)");
		gm_case_pattern_repeat(c, it, by);
	} else {
		gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, by, 0,
				    "ty*%d + tx", pitch);
		gm_case_pattern_repeat2(c, it, (int64_t)by * pitch, ih, 32);
		gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, by, 0,
				    "tx*%d + ty", pitch);
		gm_case_pattern_repeat2(c, it, by, ih, 32 * pitch);
	}
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, 32, by, 0,
			    "(%s*%d + ty)*%d + %s*%d + tx", tc, t, R, tr, t);
	gm_case_pattern_repeat2(c, it, (int64_t)by * R, ih, 32);
}

/*
 * float4 fast path (rows and cols multiples of 4): thread (tx,ty) owns quad
 * column cq = tx&15 and quad row rq = 2*ty + (tx>>4) of the 64x64 tile;
 * indices in float4 units, the first of the four loads/stores. v5's tile
 * row is bx, copy_b16's is by.
 */
static void vec_patterns(struct gm_case *c, int v, int R, int C)
{
	const char *rq = "(2*ty + (tx>>4))";

	if (variants[v].version == -2) {
		/* copy_b16_line: row r's pieces start at its first line boundary, float (r*C + 31) / 32 * 32 */
		gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, 8, 0,
				    "((by*64 + 4*%s)*%d + 31)/32*8 + bx*16 + (tx&15)", rq, C);
		gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, 8, 0,
				    "((by*64 + 4*%s)*%d + 31)/32*8 + bx*16 + (tx&15)", rq, C);
		return;
	}
	if (variants[v].version < 0) {
		/* copy_b16: row r's pieces start at its first sector boundary, float (r*C + 7) / 8 * 8 */
		gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, 8, 0,
				    "((by*64 + 4*%s)*%d + 7)/8*2 + bx*16 + (tx&15)", rq, C);
		gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, 8, 0,
				    "((by*64 + 4*%s)*%d + 7)/8*2 + bx*16 + (tx&15)", rq, C);
		return;
	}
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, 8, 0,
			    "(bx*64 + 4*%s)*%d + by*16 + (tx&15)", rq, C / 4);
	gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 16, 32, 8, 0,
			    "4*(tx&15)*16 + (%s ^ (tx&7))", rq);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 16, 32, 8, 0,
			    "%s*16 + ((tx&15) ^ ((%s>>2)&7))", rq, rq);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, 8, 0,
			    "(by*64 + %s)*%d + bx*16 + (tx&15)", rq, R / 4);
}

/*
 * v6, v7: tile row bx (`rows` input rows), tile column by (32 columns). v7's
 * extra load of the 8 rows above the tile is empty for warp 0 (and for every
 * warp when R is a multiple of 8), and warp 0's output rows (multiples of 8)
 * are not shifted.
 */
static void tall_patterns(struct gm_case *c, int rows, int R, int C)
{
	/* loads: rows ty + 8j of the tile; stores: output rows ty + 8i, 32-column pieces k (the kernel's loops) */
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 4, 32, 8, 0,
			    "(bx*%d + ty)*%d + by*32 + tx", rows, C);
	gm_case_pattern_repeat(c, rows / 8, (int64_t)8 * C);
	gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, 8, 0, "ty*33 + tx");
	gm_case_pattern_repeat(c, rows / 8, 8 * 33);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, 8, 0, "tx*33 + ty");
	gm_case_pattern_repeat2(c, 4, 8, rows / 32, 32 * 33);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 4, 32, 8, 0,
			    "(by*32 + ty)*%d + bx*%d + tx", R, rows);
	gm_case_pattern_repeat2(c, 4, (int64_t)8 * R, rows / 32, 32);
}

/*
 * v8: block (tile row by, tile column bx), blockIdx.x = tile column. Warp 0's
 * rows (shared rows 0-1 are above the tile: empty for warp 0 when, as at the
 * nominal pitches, row 64by - 8 starts on a sector) load float4 from each
 * row's first sector boundary, as copy_b16; its output rows 64bx and
 * 64bx + 1 store float4 from 64by - g_c (g = 0 for output row 0).
 */
static void shear_patterns(struct gm_case *c, int R, int C)
{
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, 8, 0,
			    "((by*64 + 2*ty + (tx>>4))*%d + 7)/8*2 + bx*16 + (tx&15)", C);
	gm_case_pattern_repeat(c, 4, (int64_t)16 * C / 4);
	gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, 8, 0,
			    "(2*ty + (tx>>4))*73 + 8 + 4*(tx&15)");
	gm_case_pattern_repeat(c, 4, 1);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, 8, 0,
			    "(8 + 4*(tx&15))*73 + 8 + 2*ty + (tx>>4)");
	gm_case_pattern_repeat(c, 4, 73);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, 8, 0,
			    "(bx*64 + 2*ty + (tx>>4))*%d + by*16 + (tx&15)", R / 4);
	gm_case_pattern_repeat(c, 4, (int64_t)16 * R / 4);
}

/*
 * v9: as v8, but the load window starts 8 floats before each row's sector
 * boundary (18 float4) and the shared tile is word s*97 + v + v/32 + s/32 (row
 * s of the 72, column v = c - 64bx + 8); warp 0 stores output rows 64bx and
 * 64bx + 1 from 64by - g_c. The load pattern is declared from the tile's
 * first row and the window's sector (block 0's rows above the tile and the 8
 * floats before its windows lie before the array).
 */
static void rows_patterns(struct gm_case *c, int R, int C, int version)
{
	/* v13-v16, v19-v24 run blockIdx.x down the tile rows: bx and by trade places (v16 only inside a panel
	   of 8 tile rows: declared as v13); v17/v18 across groups of 4/8 tile columns, then down (bx = 4i + j%4) */
	int group = version == 17 || version == 18;
	const char *ti = group ? (version == 17 ? "(bx/4)" : "(bx/8)") : version >= 13 ? "bx" : "by";
	const char *tj = group ? (version == 17 ? "(by*4 + bx%4)" : "(by*8 + bx%8)") : version >= 13 ? "by" : "bx";

	/* a block's 256 threads load slot f = ty*32 + tx (+ 256 per step): tile row f/18, float4 f%18
	   (transpose_rows.cuh); until 2026-11-26 the patterns said tx, so the 8 warps read one address set */
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, 8, 0,
			    "((%s*64 + ((ty*32 + tx)/18))*%d + 7)/8*2 + %s*16 + (ty*32 + tx)%%18", ti, C, tj);
	gm_case_pattern_repeat(c, 6, (int64_t)256 / 18 * C / 4);
	gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, 8, 0,
			    "((ty*32 + tx)/18)*97 + 4*((ty*32 + tx)%%18) + (4*((ty*32 + tx)%%18)) / 32");
	gm_case_pattern_repeat(c, 4, 1);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, 8, 0,
			    "(8 + 4*(tx&15))*97 + (8 + 4*(tx&15))/32 + 8 + 2*ty + (tx>>4)");
	gm_case_pattern_repeat(c, 4, 97);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, 8, 0,
			    "(%s*64 + 2*ty + (tx>>4))*%d + %s*16 + (tx&15)", tj, R / 4, ti);
	gm_case_pattern_repeat(c, 4, (int64_t)16 * R / 4);
}

/* v25-v27 (transpose_big.cuh, transpose.cu's big_launch): input rows and columns a tile, shared pitch, threads */
static void big_dims(int version, int *tr, int *tc, int *pitch, int *nt)
{
	*tr = version == 27 ? 64 : 128;
	*tc = version == 26 ? 64 : 128;
	*pitch = version == 26 ? 69 : 135;
	*nt = version == 25 ? 512 : 256;
}

/*
 * v25-v27: block (tile row bx, tile column by) of TR x TC; its NT threads load slot f = ty*32 + tx (+ NT a step)
 * of the rows' float4 from the one holding column TC*by, TC/4 + 1 a row (declared from the tile's first row, as
 * v9), store them to shared word s*P + s/32 + v + v/32, and write output row TC*by + f/(TR/4), float4 f % (TR/4)
 * of its window (g = 0 for warp 0's rows at the nominal pitches).
 */
static void big_patterns(struct gm_case *c, int R, int C, int version)
{
	int tr, tc, p, nt;

	big_dims(version, &tr, &tc, &p, &nt);
	int slots = tc / 4 + 1, q = tr / 4, steps = ((tr + 7) * slots + nt - 1) / nt, passes = tc * q / nt, by = nt / 32;
	gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, 32, by, 0,
			    "((bx*%d + (ty*32 + tx)/%d)*%d)/4 + by*%d + (ty*32 + tx)%%%d", tr, slots, C, tc / 4, slots);
	gm_case_pattern_repeat(c, steps, (int64_t)nt / slots * C / 4);
	gm_case_pattern_add(c, "smem store", GM_SPACE_SHARED, GM_OP_STORE, 4, 32, by, 0,
			    "((ty*32 + tx)/%d)*%d + 4*((ty*32 + tx)%%%d) + (4*((ty*32 + tx)%%%d))/32", slots, p, slots,
			    slots);
	gm_case_pattern_repeat2(c, 4, 1, steps, (int64_t)nt / slots * p);
	gm_case_pattern_add(c, "smem load", GM_SPACE_SHARED, GM_OP_LOAD, 4, 32, by, 0,
			    "(8 + 4*((ty*32 + tx)%%%d))*%d + (8 + 4*((ty*32 + tx)%%%d))/32 + (ty*32 + tx)/%d", q, p, q, q);
	gm_case_pattern_repeat2(c, 4, p, passes, nt / q);
	gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, 32, by, 0,
			    "(by*%d + (ty*32 + tx)/%d)*%d + bx*%d + (ty*32 + tx)%%%d", tc, q, R / 4, q, q);
	gm_case_pattern_repeat(c, passes, (int64_t)nt / q * (R / 4));
}

static void tr_case(struct gm_case *c, int v, int s)
{
	int R = TR_NOMINAL_SIDE - shapes[s].drows, C = TR_NOMINAL_SIDE - shapes[s].dcols;

	gm_case_begin(c, &gm_family_transpose, variants[v].version, GM_KIND_DRAM,
		      variants[v].quick && s == 0, variants[v].desc, "%s%s", variants[v].label,
		      shapes[s].suffix);
	gm_case_param_add(c, "rows", R);
	gm_case_param_add(c, "cols", C);
	gm_case_param_add(c, "tile", variants[v].tile);
	gm_case_param_add(c, "vec", variants[v].vec);
	if (variants[v].version == -2)
		gm_case_param_add(c, "align", 32); /* copy_b16_line: floats its pieces start at a multiple of */
	/* transpose.cu's grids: v5-v7, v13-v16, v19-v21 run blockIdx.x down the input rows (v7's and
	   v13-v21's windows reach up to tr_shift_max(R) rows further), the others along its columns */
	int down = R + (variants[v].version == 7 ? tr_shift_max(R) : 0);
	int group = variants[v].version == 17 || variants[v].version == 18;
	c->grid_x = group ? (R + tr_shift_max(R) + 63) / 64 * (variants[v].version == 17 ? 4 : 8)
		    : variants[v].version >= 13 ? (R + tr_shift_max(R) + 63) / 64
		    : variants[v].version >= 8 ? (C + 63) / 64
		    : variants[v].version >= 5 ? (down + variants[v].tile - 1) / variants[v].tile
					     : (C + variants[v].tile - 1) / variants[v].tile;
	/* v8-v24 (gshear, gdown, ggroup4/8 in transpose.cu): their threads load a 72-row window in 6 steps of 256
	   float4 slots, more than the tile's useful bytes, so the model is given the kernel's grid (v16's panels
	   as v13's grid; v22's and v23's blocks, 4 tiles each, as v15's grid of tiles) */
	if (variants[v].version >= 8) {
		int64_t tr = (R + tr_shift_max(R) + 63) / 64, tc = (C + 63) / 64;
		c->grid_y = group ? (tc + (variants[v].version == 17 ? 3 : 7)) / (variants[v].version == 17 ? 4 : 8)
			: variants[v].version >= 13 ? tc : tr;
	}
	/* float4 needs 16 B aligned rows; otherwise the scalar 64x65 path runs */
	/* each block runs one tile and ends: its threads' round trips (not declared for the float4
	   patterns, which describe a quarter of a thread) */
	c->round_trips = variants[v].trips;
	if (variants[v].version == 4 && s != 0)
		c->full = 1; /* see v9 below */
	if (variants[v].version >= 25) {
		int tr, tc, p, nt;
		big_dims(variants[v].version, &tr, &tc, &p, &nt);
		c->grid_x = (R + tr_shift_max(R) + tr - 1) / tr;
		c->grid_y = (C + tc - 1) / tc;
		big_patterns(c, R, C, variants[v].version);
		/* issue 25 item 5 (transpose.md, eleventh pass): v25_big128 is the best transpose of the ragged and a8
		   shapes on the H200 (96.7-96.8 / 97.1 % of the line copy where v15 ran 94.8-94.9 / 95.3-95.5 %), in the
		   default suite there; v26, v27 and v25's square (98.1 %, v15's figure) --full */
		c->full = !(variants[v].version == 25 && s != 0);
	} else if (variants[v].version >= 10) {
		/* candidates of issue 25 item 5 (transpose.md): --full, but v15_lean5_down on the ragged shape, the best
		   there on both GPUs (2026-11-26: 95.8 % of its copy on an H100, 94.9 % on an H200; v9 95.0 / 83.0 %),
		   which the default suite runs in v9_rows_ragged's place */
		rows_patterns(c, R, C, variants[v].version);
		c->full = !(variants[v].version == 15 && s == 1);
	} else if (variants[v].version == 9) {
		rows_patterns(c, R, C, 9);
		/* --full on every shape since 2026-11-26 (v15_lean5_down_ragged runs in the default suite instead;
		   v4_xor's ragged and a8 cases are --full too: within 0.5 % of v3 there) */
		c->full = 1;
	} else if (variants[v].version == 8) {
		shear_patterns(c, R, C);
		/* --full only: slower than v7 on the ragged shape, v5's figure on the others (transpose.md) */
		c->full = 1;
	} else if (variants[v].version >= 6)
		tall_patterns(c, variants[v].tile, R, C);
	else if (variants[v].vec == 16 && (variants[v].version < 0 || (R % 4 == 0 && C % 4 == 0))) {
		vec_patterns(c, v, R, C);
		c->round_trips = 0;
		/* copy_b16_line: the best copy of the ragged and a8 shapes (0.8-1.0 % over copy_b16 on both GPUs,
		   transpose.md "sixth pass"), in the default suite there; on the square shape, copy_b16's path (--full) */
		c->full = variants[v].version == -2 && s == 0;
	} else
		scalar_patterns(c, v, R, C);
}

static int tr_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int i = 0;

	for (int v = 0; v < NVAR; v++)
		for (int s = 0; s < NSHAPE; s++, i++)
			tr_case(gm_case_slot(out, max, i, &scratch), v, s);
	return i;
}

const struct gm_family gm_family_transpose = {
	"transpose", "float matrix transpose: naive, smem tiles (unpadded, padded, XOR), float4 vs plain copy",
	tr_enumerate, gm_transpose_ops,
};
