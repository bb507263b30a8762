/*
 * transpose_rows.cuh - the two float4-on-both-sides kernels of the transpose
 * ladder for ragged matrices, v8_shear and v9_rows (and v10_rows8, v9 capped at
 * 32 registers; src/families/transpose/README.md),
 * included once by transpose.cu where its helpers (BIG, TR_SECTOR_FLOATS,
 * row_lead, ...) are defined: one translation unit, the SASS of one file.
 */

/*
 * v8_shear: 16 B accesses on both sides of a ragged matrix, every global
 * access of a whole float4 inside one sector-aligned window. Element (r, c)
 * belongs to tile column j = floor((c - h_r) / 64) (the load windows of
 * copy_b16: row r from its first sector boundary h_r = row_lead(r)) and tile
 * row i = floor((r + g_c) / 64) (the store windows of v7: output row c from
 * its first sector boundary, g_c = (c*R) mod 8); column 0 also owns the
 * heads c < h_r, the last column the row's rest. Block (i, j) loads rows
 * 64i - 8 .. 64i + 63 over their windows with float4 (a row above the tile
 * only where some g_c reaches it: 8 - gcd(R, 8) rows), writes each float to
 * the padded shared tile T[r - 64i + 8][c - 64j - h_r + 8] (heads at 1..7),
 * and after the barrier writes output rows c = 64j .. 64j + 70 over their
 * windows [64i - g_c, 64i + 64 - g_c) with float4, each float read from the
 * column of its own input row's shift. Where a window is cut (a matrix edge)
 * or shared with the neighbouring tile column (output rows c with c - 64j <
 * 7 or >= 64: some of their rows r belong to tile column j - 1 or j + 1), a
 * float4 is stored as its owned floats one by one. blockIdx.x = tile column:
 * the two blocks that write parts of those shared sectors run side by side.
 * When R and C are multiples of 8 nothing is shifted or shared and this is a
 * 64x64 tile with float4 on both sides and 4 B shared accesses.
 */
#define SH_ROWS (BIG + TR_SECTOR_FLOATS)      /* 72: 8 rows above the tile */
#define SH_PITCH (BIG + TR_SECTOR_FLOATS + 1) /* 73: heads at 1..7, odd pitch */

__global__ void __launch_bounds__(256, 6) tr_shear(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	__shared__ float t[SH_ROWS * SH_PITCH];
	int tx = threadIdx.x, ty = threadIdx.y;
	int j = blockIdx.x, i = blockIdx.y;
	bool firstc = j == 0, lastc = j == gridDim.x - 1;
	int q = tx & 15, slot = 2 * ty + (tx >> 4), tid = ty * TILE + tx;
	int rtop = i * BIG - TR_SECTOR_FLOATS; /* input row of shared row 0 */
	int need = TR_SECTOR_FLOATS - tr_shift_max(R); /* first shared row any window reaches */

	/* loads: shared row s = slot + 16k, float4 q of its row's window */
	float4 v[5];
	int n[5];
#pragma unroll
	for (int k = 0; k < 5; k++) {
		int s = slot + 16 * k, r = rtop + s;
		int h = row_lead(r, C);
		int lo = j * BIG + h + 4 * q, hi = lastc ? C : min(C, j * BIG + BIG + h);
		n[k] = s < SH_ROWS && s >= need && r >= 0 && r < R ? max(0, min(4, hi - lo)) : 0;
		const float *p = in + (size_t)r * C + lo;
		if (n[k] == 4)
			v[k] = __ldg(static_cast<const float4 *>(__builtin_assume_aligned(p, 16)));
		else {
			v[k].x = n[k] > 0 ? __ldg(p) : 0.f;
			v[k].y = n[k] > 1 ? __ldg(p + 1) : 0.f;
			v[k].z = n[k] > 2 ? __ldg(p + 2) : 0.f;
		}
	}
	/* tile column 0: the heads [0, h_r), 8 slots a row */
	float hv[3];
	bool hp[3];
	int hs = tid & 7;
#pragma unroll
	for (int m = 0; m < 3; m++) {
		int s = tid / 8 + 32 * m, r = rtop + s;
		hp[m] = firstc && s < SH_ROWS && s >= need && r >= 0 && r < R && hs < row_lead(r, C);
		hv[m] = hp[m] ? __ldg(in + (size_t)r * C + hs) : 0.f;
	}
#pragma unroll
	for (int k = 0; k < 5; k++) {
		float *d = t + (slot + 16 * k) * SH_PITCH + TR_SECTOR_FLOATS + 4 * q;
		if (n[k] > 0)
			d[0] = v[k].x;
		if (n[k] > 1)
			d[1] = v[k].y;
		if (n[k] > 2)
			d[2] = v[k].z;
		if (n[k] > 3)
			d[3] = v[k].w;
	}
#pragma unroll
	for (int m = 0; m < 3; m++)
		if (hp[m]) {
			int s = tid / 8 + 32 * m;
			t[s * SH_PITCH + TR_SECTOR_FLOATS - row_lead(rtop + s, C) + hs] = hv[m];
		}
	__syncthreads();
	/* stores: output row c = 64j + cc, cc = slot + 16k, float4 q of its window from 64i - g_c */
#pragma unroll
	for (int k = 0; k < 5; k++) {
		int cc = slot + 16 * k, c = j * BIG + cc;
		if (cc >= BIG + TR_SECTOR_FLOATS - 1 || c >= C)
			continue;
		int g = (int)(((long long)c * R) & (TR_SECTOR_FLOATS - 1));
		int rl = i * BIG - g + 4 * q;
		float w[4];
		bool own[4];
		bool all = true;
#pragma unroll
		for (int e = 0; e < 4; e++) {
			int r = rl + e, h = row_lead(r, C), d = cc - h; /* c - 64j - h_r */
			own[e] = r >= 0 && r < R && (d >= 0 || firstc) && (d < BIG || lastc);
			all = all && own[e];
			w[e] = own[e] ? t[(r - rtop) * SH_PITCH + TR_SECTOR_FLOATS + d] : 0.f;
		}
		float *p = out + (size_t)c * R + rl;
		if (all)
			*static_cast<float4 *>(__builtin_assume_aligned(p, 16)) = make_float4(w[0], w[1], w[2], w[3]);
		else
#pragma unroll
			for (int e = 0; e < 4; e++)
				if (own[e])
					p[e] = w[e];
	}
}

/*
 * v9_rows: v8 with whole output rows per block. v8's tile columns split
 * output rows 64j .. 64j + 6 between two blocks (each writes part of every
 * sector there, float by float: 23 % more L2 write sectors on the ragged
 * shape) and its shared tile read 4x the ideal wavefronts. Here block (i, j)
 * writes output rows c = 64j .. 64j + 63 over their whole windows [64i -
 * g_c, 64i + 64 - g_c) (g_c = (c*R) mod 8, v7's shift: every window starts
 * on a sector; no sector is written by two blocks) and so needs input
 * columns [64j, 64j + 64) of rows 64i - 8 .. 64i + 63: it loads each row's
 * 18 float4 from 8 floats before its window, [64j + h_r - 8, 64j + h_r +
 * 64) (h_r = row_lead(r): sector aligned), 8 floats more than it keeps
 * (the neighbour block loads them too: L2 hits when it runs beside it).
 * The shared tile keeps column v = c - 64j + 8 of row s = r - 64i + 8 at
 * word s*97 + v + v/32 + s/32 (scalar stores; odd pitch and skews chosen by
 * counting wavefronts on the ragged shape: ~1.4 per store and 2 per load
 * instruction, against v8's 2 and 4).
 */
#define RW_PITCH 97

__device__ __forceinline__ int rw_word(int s, int v)
{
	return s * RW_PITCH + v + (v >> 5) + (s >> 5);
}

/*
 * The launch order of v9-v16's tiles (ORDER). ROWS_ALONG (v9-v12): blockIdx.x
 * along the tile columns, (i, j) = (blockIdx.y, blockIdx.x): blocks launched
 * together read adjacent pieces of the same 72 input rows and write pieces
 * of every output row, 64 tile rows apart. ROWS_DOWN (v13-v15): blockIdx.x
 * down the tile rows, (i, j) = (blockIdx.x, blockIdx.y), as v5-v7: blocks
 * launched together write adjacent windows of the same 64 output rows, as
 * the copy does, so an output line that two windows share is completed by
 * the next block in launch order, not 256 launches later; their reads are
 * split that way instead (src/families/transpose/README.md, "third pass").
 * ROWS_PANEL (v16): a 3D grid (ROWS_PANEL_P, tile columns, panels), so the
 * launch order runs down a panel of ROWS_PANEL_P tile rows, one tile column
 * after the other, then the next panel: both neighbours of a tile are at
 * most ROWS_PANEL_P launches away, but for the tile rows at a panel's edge
 * (1 in ROWS_PANEL_P), whose output lines are completed a panel (~2,000
 * launches) later. The tile rows past the last (the rest of the last panel)
 * run and store nothing: 64i >= R + tr_shift_max(R) puts every output
 * window of theirs at or past R (an early exit there costs ptxas a 4 B
 * spill under the 40 registers).
 */
enum { ROWS_ALONG = 0, ROWS_DOWN = 1, ROWS_PANEL = 2, ROWS_GROUP4 = 3, ROWS_GROUP8 = 4 };
#define ROWS_PANEL_P 8
/*
 * ROWS_GROUP4, ROWS_GROUP8 (v17, v18): a 2D grid (tile rows x W, ceil(tile
 * columns / W)), W = 4 or 8 (rows_group_w), whose launch order runs across a
 * group of W tile columns, then down to the next tile row, then to the next
 * group: blockIdx.x = i * W + (j mod W), blockIdx.y = j / W. A tile's write
 * neighbour (i + 1, j) is W launches away (v13: 1), its read neighbour
 * (i, j + 1) 1 launch away inside a group (v13: a whole column of tiles, ~256
 * launches), at a group's edge (1 in W) a group (~W x 256 launches) away.
 * Blocks of the last group past the last tile column store nothing
 * (transpose_lean.cuh: tr_rows_group returns at once).
 */
__host__ __device__ constexpr int rows_group_w(int order)
{
	return order == ROWS_GROUP8 ? 8 : 4;
}

template <int ORDER> __device__ __forceinline__ int2 rows_ij()
{
	if (ORDER == ROWS_ALONG)
		return make_int2(blockIdx.y, blockIdx.x);
	if (ORDER == ROWS_DOWN)
		return make_int2(blockIdx.x, blockIdx.y);
	if (ORDER == ROWS_GROUP4 || ORDER == ROWS_GROUP8)
		return make_int2(blockIdx.x / rows_group_w(ORDER),
				 blockIdx.y * rows_group_w(ORDER) + blockIdx.x % rows_group_w(ORDER));
	return make_int2(blockIdx.z * ROWS_PANEL_P + blockIdx.x, blockIdx.y);
}

/* v9's tile (i, j) with every bound checked: v9 and v13 themselves, and the edge tiles of v11/v12/v14/v22 */
__device__ __forceinline__ void rows_tile_at(const float *__restrict__ in, float *__restrict__ out, int R, int C,
					     float *t, int i, int j)
{
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE + tx;
	int rtop = i * BIG - TR_SECTOR_FLOATS; /* input row of shared row 0 */
	int need = TR_SECTOR_FLOATS - tr_shift_max(R); /* first shared row any window reaches */
	int cend = min(C, j * BIG + BIG);
	long long total = (long long)R * C;

	/* loads: slot idx = tid + 256 m -> shared row idx / 18, float4 idx % 18 of the row's 72 floats */
	float4 v[6];
	int cb[6]; /* the float4's first column, or INT_MIN when none of it is kept */
#pragma unroll
	for (int m = 0; m < 6; m++) {
		int idx = tid + 256 * m, s = idx / 18, k = idx - 18 * (idx / 18);
		int r = rtop + s;
		int c = j * BIG + row_lead(r, C) - TR_SECTOR_FLOATS + 4 * k;
		bool keep = s < SH_ROWS && s >= need && r >= 0 && r < R && c + 4 > j * BIG && c < cend;
		long long f = (long long)r * C + c;
		cb[m] = keep ? c : INT_MIN;
		if (keep && f >= 0 && f + 4 <= total)
			v[m] = __ldg(static_cast<const float4 *>(__builtin_assume_aligned(in + f, 16)));
		else if (keep) {
			v[m].x = f >= 0 && f < total ? __ldg(in + f) : 0.f;
			v[m].y = f + 1 >= 0 && f + 1 < total ? __ldg(in + f + 1) : 0.f;
			v[m].z = f + 2 >= 0 && f + 2 < total ? __ldg(in + f + 2) : 0.f;
			v[m].w = f + 3 >= 0 && f + 3 < total ? __ldg(in + f + 3) : 0.f;
		}
	}
#pragma unroll
	for (int m = 0; m < 6; m++) {
		if (cb[m] == INT_MIN)
			continue;
		int s = (tid + 256 * m) / 18, v0 = cb[m] - j * BIG + TR_SECTOR_FLOATS;
		float e4[4] = { v[m].x, v[m].y, v[m].z, v[m].w };
#pragma unroll
		for (int e = 0; e < 4; e++)
			if (v0 + e >= TR_SECTOR_FLOATS && cb[m] + e < cend)
				t[rw_word(s, v0 + e)] = e4[e];
	}
	__syncthreads();
	/* stores: output row c = 64j + cc, cc = slot + 16k, float4 q of its window from 64i - g_c */
	int q = tx & 15, slot = 2 * ty + (tx >> 4);
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int cc = slot + 16 * k, c = j * BIG + cc;
		if (c >= C)
			continue;
		int g = (int)(((long long)c * R) & (TR_SECTOR_FLOATS - 1));
		int rl = i * BIG - g + 4 * q, s0 = TR_SECTOR_FLOATS - g + 4 * q;
		float w[4];
#pragma unroll
		for (int e = 0; e < 4; e++)
			w[e] = t[rw_word(s0 + e, cc + TR_SECTOR_FLOATS)];
		float *p = out + (size_t)c * R + rl;
		if (rl >= 0 && rl + 4 <= R)
			*static_cast<float4 *>(__builtin_assume_aligned(p, 16)) = make_float4(w[0], w[1], w[2], w[3]);
		else
#pragma unroll
			for (int e = 0; e < 4; e++)
				if (rl + e >= 0 && rl + e < R)
					p[e] = w[e];
	}
}


/* v9's tile of the block, in the launch order ORDER */
template <int ORDER = ROWS_ALONG>
__device__ __forceinline__ void rows_tile(const float *__restrict__ in, float *__restrict__ out, int R, int C, float *t)
{
	int2 ij = rows_ij<ORDER>();

	rows_tile_at(in, out, R, C, t, ij.x, ij.y);
}
/*
 * v9_rows (MINB = 6: 40 registers, 6 blocks an SM) and v10_rows8, the same
 * code capped at 32 registers (MINB = 8) so that 8 blocks fit an SM (the
 * 28,960 B of shared memory a block, the 1 KB reserve included, fit 8 times
 * in 228 KB); v13_down and v16_panel: v9 in the orders ROWS_DOWN and ROWS_PANEL.
 */
template <int MINB, int ORDER = ROWS_ALONG>
__global__ void __launch_bounds__(256, MINB) tr_rows(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	__shared__ float t[SH_ROWS * RW_PITCH];
	rows_tile<ORDER>(in, out, R, C, t);
}
