/*
 * transpose_lean.cuh - v11_lean and v12_async of the transpose ladder
 * (src/families/transpose/README.md): v9_rows's tiles, windows and shared layout,
 * with the interior tiles on a path of their own. Included once by
 * transpose.cu after transpose_rows.cuh (rows_tile, rw_word, row_lead, BIG,
 * TR_SECTOR_FLOATS, SH_ROWS, RW_PITCH).
 *
 * v9 checks every access against every edge of the matrix (rows before 0
 * and past R, the last float4 of the array, the last tile column, output
 * windows cut at 0 and R) and computes its offsets in 64 bits: 1,104 SASS
 * instructions, 248 of them ISETP, 735 warp instructions a warp against the
 * copy's 119. A tile (i, j) with i >= 1, 64i + 64 < R and j below the last
 * tile column needs none of those checks: its input rows 64i - 8 .. 64i + 63
 * exist and are not the last, every float4 of its windows lies inside the
 * array, its output windows [64i - g_c, 64i + 64 - g_c) lie inside [0, R),
 * and every offset fits 32 bits (the matrix is at most 1 GiB, 2^28 floats).
 * Such a tile keeps only the window tests that select what it owns (the
 * float4 that hold columns [64j, 64j + 64), the rows some window reaches).
 * The other tiles (the first and the last tile row, the last tile column:
 * about 1 % of them) run v9's code. The branch is uniform in a block.
 * MINB: v11 = v9's 6 blocks an SM (40 registers), v12 = 8 (32 registers); v14/v15: below.
 */
/* column - 64j of the first float of float4 k of row r's window, which starts 8 floats before the row's first sector */
__device__ __forceinline__ int lean_u(int r, int C, int k)
{
	return (int)((0u - (unsigned)r * (unsigned)C) & (TR_SECTOR_FLOATS - 1)) - TR_SECTOR_FLOATS + 4 * k;
}

/*
 * The stores of both lean tiles: output row c = 64j + cc, whole float4 windows from 64i - g_c, all inside [0, R);
 * word(s, cc) is the shared word of the window's row s, output row cc (each tile keeps its own layout).
 */
template <class Word>
__device__ __forceinline__ void lean_store(float *__restrict__ out, const float *t, int R, int c0, int i, Word word)
{
	int tx = threadIdx.x, ty = threadIdx.y;
	int q = tx & 15, slot = 2 * ty + (tx >> 4);
	float *tile_out = out + (size_t)c0 * R; /* output row 64j */
#pragma unroll
	for (int k = 0; k < 4; k++) {
		int cc = slot + 16 * k, c = c0 + cc;
		int g = (int)(((unsigned)c * (unsigned)R) & (TR_SECTOR_FLOATS - 1));
		int rl = i * BIG - g + 4 * q, s0 = TR_SECTOR_FLOATS - g + 4 * q;
		float w[4];
#pragma unroll
		for (int e = 0; e < 4; e++)
			w[e] = t[word(s0 + e, cc)];
		*reinterpret_cast<float4 *>(tile_out + (cc * R + rl)) = make_float4(w[0], w[1], w[2], w[3]);
	}
}

/*
 * WHOLE (v19, v20): each kept float4 is written to shared memory whole, its 1-7 floats outside the tile's
 * columns [64j, 64j + 64) included, with no test per float. They land in the row's own words: a kept float4
 * covers columns v0 .. v0 + 3 of the window, 5 <= v0 <= 71, words 97s + (s >> 5) + 5 .. 97s + (s >> 5) + 76
 * (rw_word), all below row s + 1's first word (97s + 97) and none read by the stores (v = cc + 8 in [8, 72)).
 * v15's per-float test and address cost ~9 SASS instructions a float (an S2R of the shared window's base
 * under each predicate among them): ~300 of its 520 on the interior path.
 */
enum { LEAN_PER_FLOAT = 0, LEAN_WHOLE = 1, LEAN_STS = 2 };

template <int WHOLE = LEAN_PER_FLOAT>
__device__ __forceinline__ void lean_tile(const float *__restrict__ in, float *__restrict__ out, int R, int C, float *t,
					  int i, int j)
{
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE + tx;
	int rtop = i * BIG - TR_SECTOR_FLOATS;
	int need = TR_SECTOR_FLOATS - tr_shift_max(R);
	int c0 = j * BIG;
	unsigned sbase = (unsigned)__cvta_generic_to_shared(t);

	if (WHOLE == LEAN_STS)
		asm volatile("" : "+r"(sbase)); /* held, not converted again under each float's test */

	/* loads: as v9, shared row s = idx / 18, float4 k = idx % 18; u = the float4's first column - 64j */
	const float *tile_in = in + ((size_t)rtop * C + c0); /* row rtop, column 64j: offsets below in 32 bits */
	float4 v[6];
	int u[6]; /* INT_MIN when none of it is kept */
#pragma unroll
	for (int m = 0; m < 6; m++) {
		int idx = tid + 256 * m, s = idx / 18, k = idx - 18 * s;
		int uu = lean_u(rtop + s, C, k);
		bool keep = s < SH_ROWS && s >= need && uu + 4 > 0 && uu < BIG;
		u[m] = keep ? uu : INT_MIN;
		if (keep)
			v[m] = __ldg(reinterpret_cast<const float4 *>(tile_in + (s * C + uu)));
	}
#pragma unroll
	for (int m = 0; m < 6; m++) {
		if (u[m] == INT_MIN)
			continue;
		int s = (tid + 256 * m) / 18, v0 = u[m] + TR_SECTOR_FLOATS;
		float e4[4] = { v[m].x, v[m].y, v[m].z, v[m].w };
		if (WHOLE == LEAN_STS) {
			/* v24: v15's test per float, the store by st.shared at the tile's shared address taken once
			   (C++'s generic store made ptxas convert the address again under each predicate: S2R, LEA) */
			unsigned row = sbase + 4u * ((unsigned)s * RW_PITCH + ((unsigned)s >> 5));
#pragma unroll
			for (int e = 0; e < 4; e++) {
				unsigned vv = (unsigned)(v0 + e);
				if (v0 + e >= TR_SECTOR_FLOATS && v0 + e < BIG + TR_SECTOR_FLOATS)
					asm volatile("st.shared.f32 [%0], %1;" ::"r"(row + 4u * (vv + (vv >> 5))), "f"(e4[e])
						     : "memory");
			}
		} else if (WHOLE == LEAN_WHOLE) {
			/* rw_word(s, v0 + e) with the row's part once: unsigned, so that no shift rounds toward 0 */
			unsigned us = (unsigned)s, uv = (unsigned)v0;
			float *row = t + (us * RW_PITCH + (us >> 5));
#pragma unroll
			for (unsigned e = 0; e < 4; e++)
				row[uv + e + ((uv + e) >> 5)] = e4[e];
		} else {
#pragma unroll
			for (int e = 0; e < 4; e++)
				if (v0 + e >= TR_SECTOR_FLOATS && v0 + e < BIG + TR_SECTOR_FLOATS)
					t[rw_word(s, v0 + e)] = e4[e];
		}
	}
	__syncthreads();
	lean_store(out, t, R, c0, i, [](int s, int cc) { return rw_word(s, cc + TR_SECTOR_FLOATS); });
}

/*
 * v22_lean3_x4, v23_lean2_x4 (src/families/transpose/README.md, "eighth pass"): a block runs ROWS_PER tiles down a tile column,
 * (i0 + t, j) for t < ROWS_PER, one after the other. What v15 computes for each tile and does not depend on
 * the tile row is computed once: a load slot's shared row, float4 and column offset (lean_u of row r and of
 * row r + 64 agree: 64 C is a multiple of 8), its offset from the tile's first input float, and the store
 * side's output row offsets (they depend on the column). Per tile: 6 loads, the 24 tested shared stores, a
 * barrier, v15's stores, a barrier before the next tile overwrites the shared tile. Edge tiles run v9's code.
 */
template <int ROWS_PER>
__device__ __forceinline__ void lean_tiles(const float *__restrict__ in, float *__restrict__ out, int R, int C,
					   float *t, int i0, int j, int nj)
{
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE + tx;
	int need = TR_SECTOR_FLOATS - tr_shift_max(R);
	int c0 = j * BIG, nti = (R + tr_shift_max(R) + BIG - 1) / BIG; /* gdown's tile rows */
	unsigned sbase = (unsigned)__cvta_generic_to_shared(t);
	int off[6];        /* load slot m: offset of its float4 from the tile's first input float (-1: none) */
	unsigned wa[6][4]; /* the shared address of each of its floats, ~0 where the float is not the tile's */

#pragma unroll
	for (int m = 0; m < 6; m++) {
		int idx = tid + 256 * m, s = idx / 18, k = idx - 18 * s;
		int uu = lean_u(i0 * BIG - TR_SECTOR_FLOATS + s, C, k);
		bool keep = s < SH_ROWS && s >= need && uu + 4 > 0 && uu < BIG;
		off[m] = keep ? s * C + uu : -1;
		asm volatile("" : "+r"(off[m])); /* kept in a register, not computed again for every tile */
#pragma unroll
		for (int e = 0; e < 4; e++) {
			int vv = uu + TR_SECTOR_FLOATS + e;
			wa[m][e] = keep && vv >= TR_SECTOR_FLOATS && vv < BIG + TR_SECTOR_FLOATS ? sbase + 4u * rw_word(s, vv)
												   : ~0u;
			asm volatile("" : "+r"(wa[m][e]));
		}
	}
#pragma unroll 1
	for (int tt = 0; tt < ROWS_PER; tt++) {
		int i = i0 + tt;

		if (i >= nti)
			break; /* past the last tile row (uniform in the block) */
		if (i >= 1 && i * BIG + BIG < R && j + 1 < nj) {
			const float *tile_in = in + ((size_t)(i * BIG - TR_SECTOR_FLOATS) * C + c0);
			float4 v[6];
#pragma unroll
			for (int m = 0; m < 6; m++)
				if (off[m] >= 0)
					v[m] = __ldg(reinterpret_cast<const float4 *>(tile_in + off[m]));
#pragma unroll
			for (int m = 0; m < 6; m++) {
				float e4[4] = { v[m].x, v[m].y, v[m].z, v[m].w };
#pragma unroll
				for (int e = 0; e < 4; e++)
					if (wa[m][e] != ~0u)
						asm volatile("st.shared.f32 [%0], %1;" ::"r"(wa[m][e]), "f"(e4[e]) : "memory");
			}
			__syncthreads();
			lean_store(out, t, R, c0, i, [](int s, int cc) { return rw_word(s, cc + TR_SECTOR_FLOATS); });
		} else {
			rows_tile_at(in, out, R, C, t, i, j);
		}
		__syncthreads(); /* every store read the shared tile before the next tile writes it */
	}
}

/*
 * v9's checked tile as a call of its own, for the edge tiles of v11 and v12:
 * its registers (40 in v9) are then spent only where it runs (under v12's
 * cap of 32 it spills, on the edge tiles alone) and the interior path keeps
 * its own allocation.
 */
__device__ __noinline__ void rows_tile_call(const float *__restrict__ in, float *__restrict__ out, int R, int C, float *t)
{
	rows_tile(in, out, R, C, t);
}

/*
 * v12_async: the interior tile of v11 with its loads copied global ->
 * shared by cp.async (LDGSTS, 16 B, L1 bypassed): no register holds the
 * data in flight and no STS is issued, so the kernel fits 32 registers
 * and 8 blocks an SM (the shared tile's limit), each with its ~17 KB of
 * loads in flight. cp.async needs 16 B aligned shared destinations, so row
 * s keeps its window as loaded, float4 k at word as_word(s) + 4k (the
 * window starts 8 floats before the row's first sector boundary h_r), and
 * element (r, c) is word as_word(s) + c - 64j + 8 - h_r. Row offsets that
 * are multiples of 4 words leave 8 banks to the 32 lanes of a shared load
 * on the ragged shape (h_r = s mod 8 there): 4 wavefronts per LDS instead
 * of v9's 2 (2 on square and a8; counted for pitches 72-128 and skews of
 * (s >> a) * b & 7 or XOR: none does better on the ragged shape, and it cannot:
 * h_r = s mod 8 there and the two output rows of a warp are one row apart,
 * so all 32 lanes fall on one residue mod 4); the cp.async stores take 4
 * (the ideal for 16 B). The shared-memory pipe stays far from its limit
 * (about 700 of the ~2,700 cycles a tile has at copy speed).
 */
#define AS_PITCH 72

__device__ __forceinline__ int as_word(int s)
{
	return s * AS_PITCH + 4 * (s >> 3); /* skews grow with s: rows never overlap (71 * 72 + 32 + 72 words) */
}

__device__ __forceinline__ void cp_async16(float *smem, const float *gmem)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(smem);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a), "l"(gmem) : "memory");
}

__device__ __forceinline__ void async_tile(const float *__restrict__ in, float *__restrict__ out, int R, int C, float *t,
					   int i, int j)
{
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE + tx;
	int rtop = i * BIG - TR_SECTOR_FLOATS;
	int need = TR_SECTOR_FLOATS - tr_shift_max(R);
	int c0 = j * BIG;
	const float *tile_in = in + ((size_t)rtop * C + c0);

#pragma unroll
	for (int m = 0; m < 6; m++) {
		int idx = tid + 256 * m, s = idx / 18, k = idx - 18 * s;
		int r = rtop + s;
		int uu = lean_u(r, C, k);
		if (s < SH_ROWS && s >= need && uu + 4 > 0 && uu < BIG)
			cp_async16(t + as_word(s) + 4 * k, tile_in + (s * C + uu));
	}
	asm volatile("cp.async.wait_all;\n" ::: "memory");
	__syncthreads();
	lean_store(out, t, R, c0, i, [=](int s, int cc) { return as_word(s) + cc - lean_u(rtop + s, C, 0); });
}

template <int MINB>
__global__ void __launch_bounds__(256, MINB) tr_rows_async(const float *__restrict__ in, float *__restrict__ out, int R,
							  int C)
{
	__shared__ __align__(16) float t[SH_ROWS * RW_PITCH];
	int i = blockIdx.y, j = blockIdx.x;

	if (i >= 1 && i * BIG + BIG < R && j + 1 < (int)gridDim.x)
		async_tile(in, out, R, C, t, i, j);
	else
		rows_tile_call(in, out, R, C, t);
}

/*
 * v11_lean (MINB 6, blockIdx.x along the tile columns), v14_lean_down (v11
 * launched down the tile rows: ROWS_DOWN, transpose_rows.cuh) and v15_lean5_down
 * (v14 with MINB 5: 48 registers, no spills; at 40 ptxas spills 12 B);
 * v19_whole5 (v15 with WHOLE: each kept float4 stored to shared memory
 * whole, no test per float) and v20_whole6 (v19 under 40 registers, 6
 * blocks an SM): src/families/transpose/README.md, "fifth pass"; v21_lean4_down
 * (v15 at 4 blocks an SM, 61 registers), "seventh pass".
 */
template <int MINB, int ORDER = ROWS_ALONG, int WHOLE = LEAN_PER_FLOAT>
__global__ void __launch_bounds__(256, MINB) tr_rows_lean(const float *__restrict__ in, float *__restrict__ out, int R,
							 int C)
{
	__shared__ float t[SH_ROWS * RW_PITCH];
	static_assert(ORDER == ROWS_ALONG || ORDER == ROWS_DOWN, "tr_rows_lean: v11's or v13's order");
	int i = ORDER == ROWS_DOWN ? blockIdx.x : blockIdx.y, j = ORDER == ROWS_DOWN ? blockIdx.y : blockIdx.x;

	if (i >= 1 && i * BIG + BIG < R && j + 1 < (int)(ORDER == ROWS_DOWN ? gridDim.y : gridDim.x))
		lean_tile<WHOLE>(in, out, R, C, t, i, j);
	else
		rows_tile<ORDER>(in, out, R, C, t);
}

/*
 * v17_group4 and v18_group8 (src/families/transpose/README.md, "fourth pass"):
 * v15's kernel (v11's tiles, 48 registers, 5 blocks an SM) launched in
 * ROWS_GROUP4's or ROWS_GROUP8's order (transpose_rows.cuh): across a group
 * of 4 or 8 tile columns, then down the tile rows. On the a8 and ragged
 * shapes a 256 B window of an input row starts inside a 128 B line (the
 * pitch is not a multiple of 128 B), so the lines at its ends are shared with
 * the windows of tile columns j - 1 and j + 1; in v13-v15's order those are
 * read a column of tiles (~256 launches, ~2 us on an H200) apart, as v9's
 * output lines were written. Here 3 of 4 (7 of 8) such read neighbours run 1
 * launch apart, and the write neighbour (i + 1, j) 4 (8) launches apart; the
 * square has no split line. (A 40-register form of the interior tile for 6
 * blocks an SM, its kept float4 in a bit mask and the edge tiles a call of
 * their own, spilled 68 B under ptxas: not kept.)
 */
template <int MINB, int ORDER>
__global__ void __launch_bounds__(256, MINB) tr_rows_group(const float *__restrict__ in, float *__restrict__ out, int R,
							  int C)
{
	__shared__ float t[SH_ROWS * RW_PITCH];
	static_assert(ORDER == ROWS_GROUP4 || ORDER == ROWS_GROUP8, "tr_rows_group: a group order");
	int2 ij = rows_ij<ORDER>();
	int i = ij.x, j = ij.y, nj = (C + BIG - 1) / BIG;

	if (j >= nj)
		return; /* the last group's columns past the matrix (uniform in the block) */
	if (i >= 1 && i * BIG + BIG < R && j + 1 < nj)
		lean_tile(in, out, R, C, t, i, j);
	else
		rows_tile<ORDER>(in, out, R, C, t);
}

/* v22 (MINB 3), v23 (MINB 2): LEAN_ROWS_PER tiles a block down a tile column (lean_tiles) */
#define LEAN_ROWS_PER 4
template <int MINB>
__global__ void __launch_bounds__(256, MINB) tr_rows_lean_x(const float *__restrict__ in, float *__restrict__ out, int R,
							   int C)
{
	__shared__ float t[SH_ROWS * RW_PITCH];

	lean_tiles<LEAN_ROWS_PER>(in, out, R, C, t, blockIdx.x * LEAN_ROWS_PER, blockIdx.y, gridDim.y);
}
