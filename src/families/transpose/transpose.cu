/*
 * transpose.cu - out[c][r] = in[r][c] for a rows x cols float matrix, from the
 * naive kernel to one within a few percent of a plain copy.
 *
 * Versions (gpumem run transpose):
 *   v0_naive     block 32x32, one element per thread: the read of a row is
 *                coalesced, the write of a column is not (1 sector per element,
 *                32 sectors per warp store, 8x the L2 write requests).
 *   v1_tiled     32x32 tile in shared memory: both global sides coalesced, but
 *                the column read of the unpadded tile puts all 32 lanes in one
 *                bank (32-way conflict, 32 wavefronts per warp load).
 *   v2_padded    the same tile with one float of padding per row (33): the
 *                column read walks the banks, conflict-free.
 *   v3_padded_4r block 32x8, each thread 4 rows: 4 loads in flight per thread
 *                and 4x fewer blocks/barriers; v1/v2 have one load in flight
 *                per thread and a 1024-thread barrier, too little to cover DRAM
 *                latency.
 *   v4_xor       v3 with an XOR-swizzled unpadded tile (column ^ row): also
 *                conflict-free, no wasted shared memory.
 *   v5_vec16     64x64 tile, block 32x8, 16 B accesses on both global sides:
 *                each thread loads a 4x4 block with four float4 row loads,
 *                transposes it in registers and stores four float4 (one per
 *                output row) into a swizzled shared tile; after the barrier
 *                each warp writes two full 256 B output-row pieces with float4.
 *                Why: 4x fewer memory instructions than v3, 8 blocks of 16 KB
 *                per SM keep 128 KB of loads in flight, the shared tile is only
 *                a float4 exchange (slot ^ (row/4 & 7) puts the 8 lanes of each
 *                quarter-warp phase of STS.128/LDS.128 on 8 distinct bank
 *                groups: conflict-free), and the blocks run down the input rows
 *                (blockIdx.x = tile row), so consecutive blocks write adjacent
 *                pieces of the same output rows: a sector shared by two pieces
 *                is completed in L2 at once (+12% on the ragged shape, where
 *                rows are not sector-aligned). Measured on an H100 it reached
 *                97% of copy_b16, where a shared-memory-free variant (the 4x4
 *                register blocks stored straight to global as 32 B pieces) gave
 *                90-92%. float4 needs rows and cols multiples of 4; a partial or
 *                unaligned tile takes a scalar padded 64x65 path with bounds
 *                checks, so the ragged shape measures that path.
 *   v6_tall      128x32 padded tile (block 32x8, 16 rows per thread); each warp
 *                writes 512 B of one output row and blocks walk along the
 *                output rows: aimed at the ragged shape, where v3-v5 lose 25-40%
 *                to output sectors split between blocks far apart in time.
 *                (256-row tiles were slower on every shape: 34.8 KB of shared
 *                memory per block; results/<gpu>/experiments/transpose-v7-tall256.)
 *   v7_shift     v6 with each output row's pieces shifted to start on a sector
 *                (tile row i holds input rows [128i - g_c, 128i + 128 - g_c) of
 *                output row c, g_c = (c*R) mod 8): on a ragged shape every
 *                output sector is written whole by one warp store, none is
 *                left for another block to complete.
 *                (v8_shift16, v7 with one float4 warp store per 128-float
 *                window, measured no faster on any shape and was removed:
 *                results/<gpu>/transpose/.)
 *   v8_shear     float4 on both sides of a ragged matrix: load windows from
 *                each input row's sector boundary (copy_b16's), store windows
 *                from each output row's (v7's); an element belongs to the
 *                block whose windows both hold it, so output rows at a tile
 *                column's edge are shared by two blocks (--full: slower than
 *                v7 on the ragged shape, v5's figure elsewhere).
 *   v9_rows      v8 with whole output rows per block (no output sector
 *                written by two blocks), each input row loaded from 8 floats
 *                before its window; the best transpose of the ragged shape.
 *   v10_rows8    v9 capped at 32 registers (8 blocks an SM; spills), --full.
 *   v11_lean     v9 with the interior tiles on a path without edge tests,
 *                --full (transpose_lean.cuh).
 *   v12_async    v11's interior tiles loaded global -> shared by cp.async:
 *                no data registers, no STS, 32 registers, --full.
 *   v13-v16      v9/v11's tiles in other launch orders (--full; transpose_rows.cuh).
 *   v17_group4   v15 (v11's tiles, 48 registers) launched across groups of 4
 *                tile columns, then down: the lines an unaligned input row's
 *                window shares with its neighbours' are read 1 launch apart
 *                (3 in 4), not a column of tiles apart, --full.
 *   v18_group8   v17 with groups of 8 tile columns, --full (transpose_lean.cuh).
 *   v19_whole5   v15 with each kept float4 written to shared memory whole
 *                (no test per float): ~40 % fewer instructions on the
 *                interior path, --full (transpose_lean.cuh).
 *   v20_whole6   v19 under 40 registers (6 blocks an SM), --full.
 *   v21_lean4_down  v15 at 4 blocks an SM (61 registers: 1,576 SASS in the
 *                kernel against 1,648), --full.
 *   v22_lean3_x4 v15's tiles, 4 a block down a tile column, what does not
 *                depend on the tile row computed once (each float's shared
 *                address kept); 3 blocks an SM, --full.
 *   v23_lean2_x4 v22 at 2 blocks an SM (128 registers), --full.
 *   v24_sts5     v15 with its tested shared stores by st.shared at the
 *                tile's address taken once: 1,560 SASS against 1,648, --full.
 *   v25_big128   v9's windows on 128x128 tiles (transpose_big.cuh): 1.121x the
 *                copy's read sectors on the ragged shape against v15's 1.248,
 *                every access checked, 73 KB of dynamic shared memory, 512
 *                threads, 2 blocks an SM, --full.
 *   v26_tall128  the same kernel on 128x64 tiles (1.187x), 4 blocks an SM, --full.
 *   v27_wide128  the same kernel on 64x128 tiles (1.178x), 4 blocks an SM, --full.
 *   copy_b4      reference: a plain copy of the same matrix with v3's grid
 *                (block 32x8, 32x32 tile, 4 B accesses, 4 rows per thread).
 *   copy_b16     reference: a plain copy with v5's grid and float4 accesses,
 *                each row's pieces from its first sector boundary (a ragged
 *                matrix is copied with whole sectors too); the best copy.
 *   copy_b16_line  copy_b16 with each row's pieces from its first 128 B line
 *                boundary (every interior piece two whole lines), --full.
 *
 * Shape: the square side S is the largest multiple of 64 with S*S*4 <= the
 * per-array size, capped at 1 GiB (S = 16384) so one launch stays near 1 ms.
 * Cases carry the nominal shape at S = 16384 (rows, cols); a smaller array
 * shifts both by the same amount. Shapes: square; ragged (S-17 rows by S-33
 * cols: partial tiles and rows that start anywhere inside a sector); a8
 * (S-24 by S-40: partial tiles, but every row 32 B aligned), which separates
 * the cost of partial tiles from that of unaligned rows.
 */
#include <limits.h>
#include <math.h>
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/shapes.h"

#define TR_MAX_BYTES ((size_t)1 << 30)
#define TILE 32
#define ROWS8 8   /* blockDim.y of the 4-rows-per-thread kernels */
#define BIG 64    /* v5 / copy_b16 tile side */
#define TR_LINE_FLOATS 32 /* a 128 B line: copy_b16_line starts its pieces there */

#define TALL 128  /* v6: input rows per tile (256 was slower: results/.../experiments) */

enum { K_V0, K_V1, K_V2, K_V3, K_V4, K_V5, K_V6, K_V7, K_V8, K_V9, K_V10, K_V11, K_V12, K_V13, K_V14, K_V15, K_V16, K_V17, K_V18, K_V19, K_V20, K_V21, K_V22, K_V23, K_V24, K_V25, K_V26, K_V27, K_COPY4, K_COPY16, K_COPY16L };

struct tr_state {
	int kernel;
	int rows, cols;
	float *in, *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

/* ---- v0 ---------------------------------------------------------------- */

__global__ void tr_naive(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	int c = blockIdx.x * TILE + threadIdx.x;
	int r = blockIdx.y * TILE + threadIdx.y;

	if (r < R && c < C)
		out[(size_t)c * R + r] = in[(size_t)r * C + c];
}

/* ---- v1 / v2: one element per thread, block 32x32 ----------------------- */

template <int PITCH>
__global__ void tr_tile32(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	__shared__ float t[TILE * PITCH];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;

	if (r < R && c < C)
		t[ty * PITCH + tx] = in[(size_t)r * C + c];
	__syncthreads();
	/* output row = input column bx*32+ty, output column = input row by*32+tx */
	c = blockIdx.x * TILE + ty;
	r = blockIdx.y * TILE + tx;
	if (r < R && c < C)
		out[(size_t)c * R + r] = t[tx * PITCH + ty];
}

/* ---- v3 / v4 / v6: block 32x8, tiles of 32 or 128 input rows ----------- */

/* Tile slot of element (row i, column j): padded (33) or XOR-swizzled (32). */
template <bool SWZ>
__device__ __forceinline__ int slot32(int i, int j)
{
	return SWZ ? i * TILE + (j ^ (i & (TILE - 1))) : i * (TILE + 1) + j;
}

/*
 * v3 / v4 / v6: an ROWS x 32 tile (input rows x columns), block 32x8, ROWS/8
 * loads per thread. Each warp writes ROWS consecutive floats of one output
 * row, 32 per store. ROWS_FAST: blockIdx.x walks down the input rows (along
 * the output rows) instead of across the input columns.
 *
 * v6 (ROWS 128, ROWS_FAST): when the output rows are not sector aligned (a
 * ragged shape), a sector split between two output pieces is completed by
 * the same warp a few instructions later, or by the next block, instead of
 * by a block 512 launches away; and 16 loads are in flight per thread.
 */
template <int ROWS, bool SWZ, bool ROWS_FAST>
__global__ void tr_tile(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	__shared__ float t[SWZ ? ROWS * TILE : ROWS * (TILE + 1)];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r0 = (ROWS_FAST ? blockIdx.x : blockIdx.y) * ROWS;
	int c0 = (ROWS_FAST ? blockIdx.y : blockIdx.x) * TILE;

#pragma unroll
	for (int j = 0; j < ROWS; j += ROWS8) {
		int r = r0 + ty + j, c = c0 + tx;
		if (r < R && c < C)
			t[slot32<SWZ>(ty + j, tx)] = in[(size_t)r * C + c];
	}
	__syncthreads();
#pragma unroll
	for (int i = 0; i < TILE; i += ROWS8) {
		int c = c0 + ty + i;
#pragma unroll
		for (int k = 0; k < ROWS; k += TILE) {
			int r = r0 + k + tx;
			if (r < R && c < C)
				out[(size_t)c * R + r] = t[slot32<SWZ>(k + tx, ty + i)];
		}
	}
}

__global__ void copy_tile32_4r(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	int c = blockIdx.x * TILE + threadIdx.x;
	int r0 = blockIdx.y * TILE + threadIdx.y;

#pragma unroll
	for (int j = 0; j < TILE; j += ROWS8) {
		int r = r0 + j;
		if (r < R && c < C)
			out[(size_t)r * C + c] = in[(size_t)r * C + c];
	}
}

/*
 * v7: v6's tall tile with every output piece starting at a sector boundary.
 * Output row c starts at float c*R, g_c = (c*R) mod 8 floats into a sector;
 * tile row i holds, of output row c, the input rows [128i - g_c, 128i + 128
 * - g_c), so each warp store of 32 floats is 4 whole sectors and no output
 * sector is shared between two blocks (a partial sector is left only where
 * an output row begins: one per row). The block loads input rows r0 - 8 ..
 * r0 + 127, each lane (input column c) only the rows of its own window, into
 * shared row s = r - r0 + 8: up to 7 rows above the tile are partly loaded
 * (8 - gcd(R, 8) rows; none when R is a multiple of 8). The input side stays
 * as in v6 (rows start anywhere in a sector): the loads of a ragged matrix
 * touch 5 sectors per 32 floats, as a plain copy's do.
 */
__global__ void tr_tall_shift(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	__shared__ float t[(TALL + TR_SECTOR_FLOATS) * (TILE + 1)];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r0 = blockIdx.x * TALL - TR_SECTOR_FLOATS; /* input row of shared row 0 */
	int c0 = blockIdx.y * TILE;
	int c = c0 + tx;
	int g = (int)(((long long)c * R) & (TR_SECTOR_FLOATS - 1));

#pragma unroll
	for (int j = 0; j < TALL + TR_SECTOR_FLOATS; j += ROWS8) {
		int sr = ty + j, r = r0 + sr;
		/* owned: s in [8 - g, 8 + TALL - g) */
		if (c < C && r >= 0 && r < R && sr + g >= TR_SECTOR_FLOATS && sr + g < TR_SECTOR_FLOATS + TALL)
			t[sr * (TILE + 1) + tx] = in[(size_t)r * C + c];
	}
	__syncthreads();
#pragma unroll
	for (int i = 0; i < TILE; i += ROWS8) {
		int co = c0 + ty + i;
		int go = (int)(((long long)co * R) & (TR_SECTOR_FLOATS - 1));
#pragma unroll
		for (int k = 0; k < TALL; k += TILE) {
			int sr = TR_SECTOR_FLOATS - go + k + tx, r = r0 + sr;
			if (co < C && r >= 0 && r < R)
				out[(size_t)co * R + r] = t[sr * (TILE + 1) + ty + i];
		}
	}
}

/* ---- v5 / copy_b16: 64x64 tile, block 32x8, float4 ---------------------- */

/*
 * Block tile mapping shared by v5 and copy_b16 (fast path): thread (tx, ty)
 * owns the 4x4 block at quad column cq = tx & 15 and quad row
 * rq = 2*ty + (tx >> 4); its k-th float4 load reads row 4*rq + k, so one
 * warp instruction covers two 256 B row segments.
 */
__device__ __forceinline__ bool big_tile_full(int R, int C, int tbx, int tby)
{
	return (R & 3) == 0 && (C & 3) == 0 && (tby + 1) * BIG <= R && (tbx + 1) * BIG <= C;
}

/* Partial or unaligned 64x64 tile: scalar, padded 64x65, bounds-checked. */
__device__ void tr_big_scalar(const float *__restrict__ in, float *__restrict__ out, int R, int C,
			      int tbx, int tby, float *t)
{
	int tx = threadIdx.x, ty = threadIdx.y;
	int r0 = tby * BIG, c0 = tbx * BIG;

#pragma unroll
	for (int j = 0; j < BIG; j += ROWS8)
#pragma unroll
		for (int h = 0; h < BIG; h += TILE) {
			int r = r0 + ty + j, c = c0 + tx + h;
			if (r < R && c < C)
				t[(ty + j) * (BIG + 1) + tx + h] = in[(size_t)r * C + c];
		}
	__syncthreads();
#pragma unroll
	for (int j = 0; j < BIG; j += ROWS8)
#pragma unroll
		for (int h = 0; h < BIG; h += TILE) {
			int c = c0 + ty + j, r = r0 + tx + h;
			if (r < R && c < C)
				out[(size_t)c * R + r] = t[(tx + h) * (BIG + 1) + ty + j];
		}
}

/*
 * Launched with blockIdx.x = tile row and blockIdx.y = tile column, so that
 * consecutive blocks write consecutive 256 B pieces of the same 64 output
 * rows (and read 64 rows further down the same input columns).
 */
__global__ void tr_vec16(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	/* 64 rows (output rows) x 16 float4 slots; the scalar path uses 64x65 floats */
	__shared__ __align__(16) float t[BIG * (BIG + 1)];
	float4 *t4 = reinterpret_cast<float4 *>(t);
	int tx = threadIdx.x, ty = threadIdx.y;
	int tbx = blockIdx.y, tby = blockIdx.x;

	if (!big_tile_full(R, C, tbx, tby)) {
		tr_big_scalar(in, out, R, C, tbx, tby, t);
		return;
	}
	int r0 = tby * BIG, c0 = tbx * BIG;
	int cq = tx & 15, rq = 2 * ty + (tx >> 4);
	const float *src = in + (size_t)(r0 + 4 * rq) * C + c0 + 4 * cq;
	float4 v0 = *reinterpret_cast<const float4 *>(src);
	float4 v1 = *reinterpret_cast<const float4 *>(src + (size_t)C);
	float4 v2 = *reinterpret_cast<const float4 *>(src + 2 * (size_t)C);
	float4 v3 = *reinterpret_cast<const float4 *>(src + 3 * (size_t)C);
	/* output row 4cq+k holds input column 4cq+k: rows 4rq..4rq+3 of it */
	int sw = rq ^ (cq & 7);
	t4[(4 * cq + 0) * 16 + sw] = make_float4(v0.x, v1.x, v2.x, v3.x);
	t4[(4 * cq + 1) * 16 + sw] = make_float4(v0.y, v1.y, v2.y, v3.y);
	t4[(4 * cq + 2) * 16 + sw] = make_float4(v0.z, v1.z, v2.z, v3.z);
	t4[(4 * cq + 3) * 16 + sw] = make_float4(v0.w, v1.w, v2.w, v3.w);
	__syncthreads();
	int s = tx & 15;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int c = 16 * k + 2 * ty + (tx >> 4);
		float4 o = t4[c * 16 + (s ^ ((c >> 2) & 7))];
		*reinterpret_cast<float4 *>(out + (size_t)(c0 + c) * R + r0 + 4 * s) = o;
	}
}

/* Floats from the start of row r (pitch C) to its first sector boundary. */
__device__ __forceinline__ int row_lead(int r, int C)
{
	return (int)(-((long long)r * C) & (TR_SECTOR_FLOATS - 1));
}

/* Floats from the start of row r to its first boundary of A floats (copy_b16: a sector, copy_b16_line: a line). */
template <int A> __device__ __forceinline__ int row_lead_a(int r, int C)
{
	return (int)(-((long long)r * C) & (A - 1));
}

/* The largest row_lead_a<A> of a pitch: tr_shift_max for A floats (itself for a sector: copy_b16's SASS unchanged). */
template <int A> __device__ __forceinline__ int shift_max_a(int pitch)
{
	long long low = (long long)pitch & -(long long)pitch;

	if (A == TR_SECTOR_FLOATS)
		return tr_shift_max(pitch);
	return low >= A || low == 0 ? 0 : A - (int)low;
}

/*
 * copy_b16: every row's float4 pieces start at its first sector boundary,
 * h_r = row_lead(r) floats in, so a ragged matrix is copied with 16 B
 * accesses too: tile column j copies columns [64j + h_r, 64j + 64 + h_r) of
 * each of its 64 rows, tile column 0 also the head [0, h_r), the last tile
 * column what is left of the row. When C is a multiple of 8, h_r = 0 and
 * this is the plain 64x64 tiling.
 *
 * Edge tiles (the last tile row and column, and column 0's heads) keep the
 * same float4 mapping with each access predicated: a float4 that passes the
 * window's end (the row's end) is copied as up to 3 floats, rows past R are
 * skipped, and every load of a thread is issued before its first store, so
 * an edge tile costs one round trip as an interior one does. (Until
 * 2026-11-25 a scalar path copied the edge tiles row by row and the heads
 * after the float4 stores: 8-9 round trips, nvcc keeps a store before the
 * next row's load; the last tile row ran as the grid's tail.)
 *
 * A: the boundary the pieces start at, in floats: TR_SECTOR_FLOATS (8,
 * copy_b16) or TR_LINE_FLOATS (32, copy_b16_line: every interior 256 B
 * piece two whole 128 B lines, none shared with the neighbouring tile
 * column; heads of up to 31 floats in 4 passes after the float4 stores, a
 * round trip each, in tile column 0 only). src/families/transpose/README.md,
 * "fifth pass".
 */
template <int A>
__global__ void __launch_bounds__(256, 8) copy_vec16(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	int tx = threadIdx.x, ty = threadIdx.y;
	int r0 = blockIdx.y * BIG, c0 = blockIdx.x * BIG;
	bool first = blockIdx.x == 0, last = blockIdx.x == gridDim.x - 1;
	int smax = shift_max_a<A>(C);
	bool inner = r0 + BIG <= R && (last ? smax == 0 && c0 + BIG == C : c0 + BIG + smax <= C);
	int cq = tx & 15, rq = 2 * ty + (tx >> 4);

	if (inner && !(first && smax)) {
		size_t o[4];
		float4 v[4];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			/* the row's first boundary: (r*C + A - 1) rounded down to A floats */
			o[k] = (((size_t)(r0 + 4 * rq + k) * C + A - 1) & ~(size_t)(A - 1)) + c0 + 4 * cq;
			v[k] = __ldg(static_cast<const float4 *>(__builtin_assume_aligned(in + o[k], 16)));
		}
#pragma unroll
		for (int k = 0; k < 4; k++)
			*static_cast<float4 *>(__builtin_assume_aligned(out + o[k], 16)) = v[k];
		return;
	}
	/* edge tile: float4 k of this thread covers floats [lo, lo + 4) of its row, n of them in the window;
	   kept live across the loads as e[k] = offset * 8 + n (offsets < 2^28: the matrix is at most 1 GiB) */
	float4 v[4];
	unsigned e[4];
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int r = r0 + 4 * rq + k, h = row_lead_a<A>(r, C);
		int lo = c0 + h + 4 * cq, hi = last ? C : min(C, c0 + BIG + h);
		int n = r < R ? max(0, min(4, hi - lo)) : 0;
		unsigned off = n ? (unsigned)(r * C + lo) : 0u;
		const float *p = in + off;
		e[k] = off * 8u + (unsigned)n;
		if (n == 4)
			v[k] = __ldg(static_cast<const float4 *>(__builtin_assume_aligned(p, 16)));
		else {
			v[k].x = n > 0 ? __ldg(p) : 0.f;
			v[k].y = n > 1 ? __ldg(p + 1) : 0.f;
			v[k].z = n > 2 ? __ldg(p + 2) : 0.f;
		}
	}
	/* tile column 0: the heads [0, h_r) of its 64 rows, A slots a row, two rows a thread a pass (A / 8 passes;
	   the first loaded with the float4) */
	int t = ty * TILE + tx, hs = t & (A - 1);
	float hv[2];
	int ho[2];
#pragma unroll
	for (int m = 0; m < 2; m++) {
		int r = r0 + t / A + 256 / A * m;
		ho[m] = first && r < R && hs < row_lead_a<A>(r, C) ? r * C + hs : -1;
		hv[m] = ho[m] >= 0 && A == TR_SECTOR_FLOATS ? __ldg(in + ho[m]) : 0.f;
	}
#pragma unroll
	for (int k = 0; k < 4; k++) {
		unsigned n = e[k] & 7u;
		float *p = out + (e[k] >> 3);
		if (n == 4)
			*static_cast<float4 *>(__builtin_assume_aligned(p, 16)) = v[k];
		else {
			if (n > 0)
				p[0] = v[k].x;
			if (n > 1)
				p[1] = v[k].y;
			if (n > 2)
				p[2] = v[k].z;
		}
	}
#pragma unroll
	for (int m = 0; m < 2; m++)
		if (ho[m] >= 0 && A == TR_SECTOR_FLOATS)
			out[ho[m]] = hv[m];
	/* copy_b16_line: every pass of its heads after the float4 (loaded with them, pass 0 spilled 12 B) */
#pragma unroll
	for (int pass = A == TR_SECTOR_FLOATS ? 1 : 0; pass < A / 8; pass++) {
#pragma unroll
		for (int m = 0; m < 2; m++) {
			int r = r0 + 512 / A * pass + t / A + 256 / A * m;
			ho[m] = first && r < R && hs < row_lead_a<A>(r, C) ? r * C + hs : -1;
			hv[m] = ho[m] >= 0 ? __ldg(in + ho[m]) : 0.f;
		}
#pragma unroll
		for (int m = 0; m < 2; m++)
			if (ho[m] >= 0)
				out[ho[m]] = hv[m];
	}
}

#include "families/transpose/transpose_rows.cuh" /* v8_shear, v9_rows, v10_rows8 */
#include "families/transpose/transpose_lean.cuh" /* v11_lean, v12_async */
#include "families/transpose/transpose_big.cuh"  /* v25-v27: tiles larger than 64 x 64 */

/* ---- ops --------------------------------------------------------------- */

static unsigned ceil_div(int n, int d)
{
	return (unsigned)((n + d - 1) / d);
}

static gm_status tr_launch(void *state)
{
	struct tr_state *s = (struct tr_state *)state;
	const float *in = s->in;
	float *out = s->out;
	int R = s->rows, C = s->cols;
	cudaStream_t st = gm_stream();
	dim3 g32(ceil_div(C, TILE), ceil_div(R, TILE)), g64(ceil_div(C, BIG), ceil_div(R, BIG));
	dim3 g64t(ceil_div(R, BIG), ceil_div(C, BIG)); /* v5: blockIdx.x walks down the input rows */
	dim3 gtall(ceil_div(R, TALL), ceil_div(C, TILE)); /* v6: likewise */
	dim3 gshift(ceil_div(R + tr_shift_max(R), TALL), ceil_div(C, TILE)); /* v7: windows up to 7 rows later */
	dim3 gshear(ceil_div(C, BIG), ceil_div(R + tr_shift_max(R), BIG)); /* v8: tile column fastest */
	dim3 gdown(ceil_div(R + tr_shift_max(R), BIG), ceil_div(C, BIG)); /* v13-v15: v9's tiles, tile row fastest */
	dim3 gpanel(ROWS_PANEL_P, ceil_div(C, BIG), ceil_div(gdown.x, ROWS_PANEL_P)); /* v16: panels of tile rows */
	dim3 ggroup4(gdown.x * 4, ceil_div((int)gdown.y, 4)), ggroup8(gdown.x * 8, ceil_div((int)gdown.y, 8)); /* v17, v18 */
	dim3 b32(TILE, TILE), b8(TILE, ROWS8);

	switch (s->kernel) {
	case K_V0: tr_naive<<<g32, b32, 0, st>>>(in, out, R, C); break;
	case K_V1: tr_tile32<TILE><<<g32, b32, 0, st>>>(in, out, R, C); break;
	case K_V2: tr_tile32<TILE + 1><<<g32, b32, 0, st>>>(in, out, R, C); break;
	case K_V3: tr_tile<TILE, false, false><<<g32, b8, 0, st>>>(in, out, R, C); break;
	case K_V4: tr_tile<TILE, true, false><<<g32, b8, 0, st>>>(in, out, R, C); break;
	case K_V5: tr_vec16<<<g64t, b8, 0, st>>>(in, out, R, C); break;
	case K_V6: tr_tile<TALL, false, true><<<gtall, b8, 0, st>>>(in, out, R, C); break;
	case K_V7: tr_tall_shift<<<gshift, b8, 0, st>>>(in, out, R, C); break;
	case K_V8: tr_shear<<<gshear, b8, 0, st>>>(in, out, R, C); break;
	case K_V9: tr_rows<6><<<gshear, b8, 0, st>>>(in, out, R, C); break;
	case K_V10: tr_rows<8><<<gshear, b8, 0, st>>>(in, out, R, C); break;
	case K_V11: tr_rows_lean<6><<<gshear, b8, 0, st>>>(in, out, R, C); break;
	case K_V12: tr_rows_async<8><<<gshear, b8, 0, st>>>(in, out, R, C); break;
	case K_V13: tr_rows<6, ROWS_DOWN><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V14: tr_rows_lean<6, ROWS_DOWN><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V15: tr_rows_lean<5, ROWS_DOWN><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V16: tr_rows<6, ROWS_PANEL><<<gpanel, b8, 0, st>>>(in, out, R, C); break;
	case K_V17: tr_rows_group<5, ROWS_GROUP4><<<ggroup4, b8, 0, st>>>(in, out, R, C); break;
	case K_V18: tr_rows_group<5, ROWS_GROUP8><<<ggroup8, b8, 0, st>>>(in, out, R, C); break;
	case K_V19: tr_rows_lean<5, ROWS_DOWN, LEAN_WHOLE><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V20: tr_rows_lean<6, ROWS_DOWN, LEAN_WHOLE><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V21: tr_rows_lean<4, ROWS_DOWN><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V22: tr_rows_lean_x<3><<<dim3(ceil_div((int)gdown.x, LEAN_ROWS_PER), gdown.y), b8, 0, st>>>(in, out, R, C); break;
	case K_V24: tr_rows_lean<5, ROWS_DOWN, LEAN_STS><<<gdown, b8, 0, st>>>(in, out, R, C); break;
	case K_V23: tr_rows_lean_x<2><<<dim3(ceil_div((int)gdown.x, LEAN_ROWS_PER), gdown.y), b8, 0, st>>>(in, out, R, C); break;
	/* v25-v27: one checked kernel, tiles of TR x TC, pitch P, NT threads, NB float4 a thread (one batch), MINB
	   blocks an SM */
	case K_V25: return big_launch<128, 128, 135, 512, 9, 2>(in, out, R, C, st);
	case K_V26: return big_launch<128, 64, 69, 256, 9, 4>(in, out, R, C, st);
	case K_V27: return big_launch<64, 128, 135, 256, 10, 4>(in, out, R, C, st);
	case K_COPY4: copy_tile32_4r<<<g32, b8, 0, st>>>(in, out, R, C); break;
	case K_COPY16: copy_vec16<TR_SECTOR_FLOATS><<<g64, b8, 0, st>>>(in, out, R, C); break;
	case K_COPY16L: copy_vec16<TR_LINE_FLOATS><<<g64, b8, 0, st>>>(in, out, R, C); break;
	default: return gm_fail(GM_ERR_INVALID_ARG, "transpose: unknown kernel %d", s->kernel);
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static void tr_release(void *state)
{
	struct tr_state *s = (struct tr_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

#include "families/transpose/transpose_bytes.cuh" /* tr_bytes_hw: the sectors each kernel touches */

/* Shape for this array size: side S = multiple of 64, nominal shape shifted by S - 16384. */
static gm_status tr_shape(const struct gm_case *c, size_t array_bytes, int *R, int *C)
{
	size_t b = array_bytes < TR_MAX_BYTES ? array_bytes : TR_MAX_BYTES;
	int side = ((int)sqrt((double)(b / 4))) & ~(BIG - 1);
	int64_t rn = gm_case_param(c, "rows", TR_NOMINAL_SIDE);
	int64_t cn = gm_case_param(c, "cols", TR_NOMINAL_SIDE);

	*R = (int)(rn - TR_NOMINAL_SIDE + side);
	*C = (int)(cn - TR_NOMINAL_SIDE + side);
	if (side < 4 * BIG || *R < BIG || *C < BIG)
		return gm_fail(GM_ERR_INVALID_ARG, "transpose: array of %zu bytes is too small", array_bytes);
	if (ceil_div(*R, TILE) > 65535 || ceil_div(*C, BIG) > 65535)
		return gm_fail(GM_ERR_INVALID_ARG, "transpose: %d x %d exceeds the grid", *R, *C);
	return GM_OK;
}

static int tr_kernel_of(const struct gm_case *c)
{
	if (c->version >= 0)
		return c->version;
	if (gm_case_param(c, "vec", 4) != 16)
		return K_COPY4;
	return gm_case_param(c, "align", TR_SECTOR_FLOATS) == TR_LINE_FLOATS ? K_COPY16L : K_COPY16;
}

static gm_status tr_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct tr_state *s = (struct tr_state *)calloc(1, sizeof(*s));
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->kernel = tr_kernel_of(c);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = tr_shape(c, cfg->array_bytes, &s->rows, &s->cols);
	size_t bytes = (size_t)s->rows * s->cols * 4;
	if (!st)
		st = gm_gpu_alloc((void **)&s->in, bytes);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, bytes);
	if (!st)
		st = gm_fill_random((uint32_t *)s->in, bytes / 4, s->seed);
	if (st) {
		tr_release(s);
		return st;
	}
	t->bytes_useful = 2.0 * (double)bytes;
	t->bytes_hw = tr_bytes_hw(s->kernel, s->rows, s->cols);
	t->working_set = (int64_t)(2 * bytes);
	*state = s;
	return GM_OK;
}

/* Output element d = c*rows + r holds input element r*cols + c. */
struct tr_map {
	long long rows, cols;
	__host__ __device__ long long operator()(size_t d) const
	{
		long long c = (long long)d / rows, r = (long long)d % rows;
		return r * cols + c;
	}
};

static gm_status tr_verify(void *state, char *why, size_t n)
{
	struct tr_state *s = (struct tr_state *)state;
	size_t words = (size_t)s->rows * s->cols;
	gm_status st = gm_poison(s->out, words * 4);

	if (!st)
		st = tr_launch(s);
	if (st)
		return st;
	if (s->kernel == K_COPY4 || s->kernel == K_COPY16 || s->kernel == K_COPY16L)
		return gm_validate((const uint32_t *)s->out, words, gm_make_gather(gm_identity_map(), 1, s->seed),
				   s->seed, s->dev, why, n);
	tr_map m = { s->rows, s->cols };
	return gm_validate((const uint32_t *)s->out, words, gm_make_gather(m, 1, s->seed), s->seed, s->dev,
			   why, n);
}

static const struct gm_family_ops tr_ops = { tr_prepare, tr_launch, tr_verify, tr_release };

extern "C" const struct gm_family_ops *gm_transpose_ops(void)
{
	return &tr_ops;
}
