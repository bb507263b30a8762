/*
 * transpose_big.cuh - v25_big128, v26_tall128 and v27_wide128 of the transpose ladder
 * (src/families/transpose/README.md, "eleventh pass"): v9's windows on tiles larger than 64 x 64. Included once by
 * transpose.cu after transpose_lean.cuh (BIG, TILE, TR_SECTOR_FLOATS, tr_shift_max).
 *
 * Why: on the H200 the ragged transposes are bound by L2's throughput (tenth pass: v15 runs L2 at 93.7 % with
 * 22 % more read sectors than the copy). Those extra sectors are the margins that let every output window start on
 * a sector: a tile of TR input rows and TC columns loads the TR + 7 rows its output windows [TR*i - g_c, TR*i + TR
 * - g_c) reach (g_c = (c*R) mod 8), and of each row the float4 from the one that holds column TC*j, TC/4 + 1 of them
 * where the row does not start on 16 B. Read sectors a tile against the copy's, ragged shape: (TR + 7) / TR x
 * (TC/4 + 1) / (TC/4) = 1.248 at 64 x 64 (v15), 1.187 at 128 x 64, 1.178 at 64 x 128, 1.121 at 128 x 128.
 *
 * Block (i, j) (blockIdx.x = i: down the tile rows, v13-v15's order) holds input rows TR*i - 8 + s, s < TR + 8,
 * columns TC*j + v, v < TC, at shared word s*P + s/32 + v + v/32 (odd P, the skews of v9: ~1.5 wavefronts a
 * scalar store, ~1.9 a load on the ragged shape, counted). Its NT threads load the float4 slots of rows s >=
 * 8 - tr_shift_max(R), TC/4 + 1 a row, NB a thread at a time (a batch: NB float4 in flight, stored to shared
 * memory, then the next; the versions size NB for one batch, as v15), every access checked against the matrix
 * (the interior-only fast path of v11 bought nothing on the H200: tenth pass, instructions do not count there).
 * After the barrier output row c = TC*j + cc writes its window [TR*i - g_c, TR*i + TR - g_c) as TR/4 float4, cut
 * at 0 and R; TR/4 lanes a row (one row a warp at TR = 128, two at 64). Shared memory is dynamic: 73 KB a block
 * at 128 x 128 (512 threads, 2 blocks an SM), 38-39 KB at 128 x 64 and 64 x 128 (256 threads, 4 blocks an SM).
 */
template <int TR, int TC, int P, int NT> struct big_shape {
	static constexpr int slots = TC / 4 + 1;          /* float4 a row */
	static constexpr int rows = TR + TR_SECTOR_FLOATS; /* shared rows */
	static constexpr int words = (rows - 1) * P + (rows - 1) / 32 + TC + TC / 32;
	static_assert(P % 2 == 1 && P >= TC + TC / 32, "big_shape: an odd pitch that holds a row and its skews");
	static_assert(TC * (TR / 4) % NT == 0 && NT % TILE == 0, "big_shape: whole store passes, whole warps");
};

__device__ __forceinline__ int big_word(int s, int v, int P)
{
	return s * P + (s >> 5) + v + (v >> 5);
}

template <int TR, int TC, int P, int NT, int NB, int MINB>
__global__ void __launch_bounds__(NT, MINB) tr_big(const float *__restrict__ in, float *__restrict__ out, int R, int C)
{
	extern __shared__ float t[];
	typedef big_shape<TR, TC, P, NT> S;
	constexpr int Q = TR / 4; /* float4 an output window */
	int tid = threadIdx.y * TILE + threadIdx.x;
	int i = blockIdx.x, j = blockIdx.y;
	int need = TR_SECTOR_FLOATS - tr_shift_max(R); /* first shared row any window reaches */
	int rtop = i * TR - TR_SECTOR_FLOATS, c0 = j * TC, ncol = min(C - c0, TC);
	int nslot = (S::rows - need) * S::slots;
	int total = R * C; /* < 2^28: the matrix is at most 1 GiB, so every offset fits 32 bits */

#pragma unroll 1
	for (int base = 0; base < nslot; base += NT * NB) {
		float4 v[NB];
		int sv[NB]; /* shared row * 256 + (the float4's first column - c0 + 3), or -1: nothing kept */
#pragma unroll
		for (int m = 0; m < NB; m++) {
			int idx = base + tid + NT * m, s = need + idx / S::slots, k = idx % S::slots;
			int r = rtop + s;
			int u = 4 * k - (int)(((unsigned)r * (unsigned)C) & 3u); /* column - c0, from -3 */
			bool keep = idx < nslot && r >= 0 && r < R && u < ncol;
			int f = r * C + c0 + u; /* 16 B aligned, >= 0 */
			sv[m] = keep ? s * 256 + u + 3 : -1;
			if (keep && f + 4 <= total)
				v[m] = __ldg(reinterpret_cast<const float4 *>(in + f));
			else if (keep) { /* the array's last float4 */
				v[m].x = __ldg(in + f);
				v[m].y = f + 1 < total ? __ldg(in + f + 1) : 0.f;
				v[m].z = f + 2 < total ? __ldg(in + f + 2) : 0.f;
				v[m].w = 0.f;
			}
		}
#pragma unroll
		for (int m = 0; m < NB; m++) {
			if (sv[m] < 0)
				continue;
			int s = sv[m] >> 8, u = (sv[m] & 255) - 3;
			float e4[4] = { v[m].x, v[m].y, v[m].z, v[m].w };
#pragma unroll
			for (int e = 0; e < 4; e++)
				if (u + e >= 0 && u + e < ncol)
					t[big_word(s, u + e, P)] = e4[e];
		}
	}
	__syncthreads();
#pragma unroll
	for (int k = 0; k < TC * Q / NT; k++) {
		int it = tid + NT * k, q = it % Q, cc = it / Q;
		if (cc >= ncol)
			continue;
		int c = c0 + cc;
		int g = (int)(((unsigned)c * (unsigned)R) & (TR_SECTOR_FLOATS - 1));
		int rl = i * TR - g + 4 * q, s0 = TR_SECTOR_FLOATS - g + 4 * q;
		float w[4];
#pragma unroll
		for (int e = 0; e < 4; e++)
			w[e] = t[big_word(s0 + e, cc, P)];
		int o = c * R + rl;
		if (rl >= 0 && rl + 4 <= R)
			*reinterpret_cast<float4 *>(out + o) = make_float4(w[0], w[1], w[2], w[3]);
		else
#pragma unroll
			for (int e = 0; e < 4; e++)
				if (rl + e >= 0 && rl + e < R)
					out[o + e] = w[e];
	}
}

/*
 * The kernel's dynamic shared memory and carveout, set before its first launch: the carveout the MINB blocks need
 * (their tiles and the 1 KB each reserves), no more, so that the rest of the SM's 256 KB stays L1. The first build
 * (b75e33a) asked for the largest carveout (228 KB, leaving 28 KB of L1) and ran at 87-91 % of the copy on the
 * square shape, where v15 (145 KB of tiles: a 164 KB carveout, 92 KB of L1) runs at 98 %: the L1 data store also
 * holds the lines of the loads in flight (v10_rows8, 8 blocks at ~229 KB, 59 %; cp.async's v12, 84 %).
 */
template <int TR, int TC, int P, int NT, int NB, int MINB>
static gm_status big_launch(const float *in, float *out, int R, int C, cudaStream_t st)
{
	static int ready;
	const int bytes = (int)(sizeof(float) * big_shape<TR, TC, P, NT>::words);
	auto k = tr_big<TR, TC, P, NT, NB, MINB>;

	if (!ready) {
		int dev, per_sm;
		GM_CU(cudaGetDevice(&dev));
		GM_CU(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
		int pct = (int)(((long long)MINB * (bytes + 1024) * 100 + per_sm - 1) / per_sm);
		GM_CU(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
		GM_CU(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, pct < 100 ? pct : 100));
		ready = 1;
	}
	dim3 grid((unsigned)((R + tr_shift_max(R) + TR - 1) / TR), (unsigned)((C + TC - 1) / TC));
	k<<<grid, dim3(TILE, NT / TILE), bytes, st>>>(in, out, R, C);
	GM_CU_LAUNCH();
	return GM_OK;
}
