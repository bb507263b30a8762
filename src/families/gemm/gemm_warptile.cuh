/*
 * gemm_warptile.cuh - the SGEMM ladder's warp-tiled versions v6 .. v9, the lean loops v11 .. v14 (with
 * the split last wave) and v20 (v9 with its last wave stream-K), with their launchers. Included once, by
 * gemm.cu, after the state, the cp.async helpers and v0 .. v5 (one translation unit: the same code as when
 * they stood in gemm.cu).
 */
#ifndef GPUMEM_KERNELS_GEMM_WARPTILE_CUH
#define GPUMEM_KERNELS_GEMM_WARPTILE_CUH
/*
 * ---- v6 .. v9: warp tiles ----
 * Block 128 x 128 (WT_BM x 128), BK 16, NT threads; the warps form (NT/32/WARPS_N) x WARPS_N
 * warp tiles of WM x WN. Lanes form LM x LN with LN = WN / (4 FN): lane
 * (lm, ln) = (lane / LN, lane % LN) owns the float4 rows wm + lm*4 + f*LM*4
 * (f < FM) and float4 columns wn + ln*4 + g*LN*4 (g < FN). Per k a warp reads
 * FM groups of LM distinct float4 of A and FN groups of LN of B, contiguous
 * and broadcast: no bank conflicts.
 *  v6: 256 threads, 2 x 4 warps of 64 x 32, 8 x 8 per thread, 2 blocks per SM.
 *  v7: 128 threads, 2 x 2 warps of 64 x 64, 8 x 16 per thread (fewer shared
 *      loads per FMA), 2 blocks per SM.
 *  v8: v7 with three cp.async stages.
 *  v9: v8 with grouped tile order (GROUP > 0): blocks that run together cover
 *      GROUP tile rows by a few tile columns, so the A and B panels they share
 *      are still in L2 (the order cuBLAS and CUTLASS use).
 */
#define WT_BK 16
#define WT_BM 128

/*
 * ORDER, the order of a k step's FFMAs over the thread tile (v16..v18, issue 25: ptxas sets the operand-reuse
 * flags and allocates the registers from it): 0, rows i then columns j (v6..v9); 1, rows with the columns
 * serpentine (odd rows right to left, so the turn keeps its B operand); 2, columns with the rows serpentine;
 * 3, pairs of rows, within each pair the two rows alternate per column and the columns run serpentine per pair.
 * UK, how many of a k-tile's BK steps are unrolled (v19: 8 of 16, a loop of two halves; the k-loop's code halves).
 */
/*
 * The tile of v6 .. v9 (and of v20's tail segments): k-tiles [kb, ke) of tile (tm, tn), stored at out + (orow +
 * r) * ldo + ocol + c (v6 .. v9: C's tile; v20's tail: a partial tile in the workspace). Forced inline, so that
 * v6 .. v9 compile to the SASS they had as one kernel (checked: v9's 3480 instructions, 251 registers).
 */
template <int NT, int WARPS_N, int FN, int STAGES, int BK, int ORDER, int UK>
__device__ __forceinline__ void wt_tile(const float *A, const float *B, float *out, int ldo, int orow, int ocol,
					int lda, int ldb, int tm, int tn, int kb, int ke)
{
	constexpr int WARPS_M = NT / 32 / WARPS_N, WM = WT_BM / WARPS_M, WN = 128 / WARPS_N;
	constexpr int LN = WN / (4 * FN), LM = 32 / LN, FM = WM / (LM * 4), LDA = WT_BM + 4;
	extern __shared__ __align__(16) float smem[];
	float (*At)[BK][LDA] = (float (*)[BK][LDA])smem;
	float (*Bs)[BK][128] = (float (*)[BK][128])(smem + STAGES * BK * LDA);
	const int t = threadIdx.x, warp = t / 32, lane = t % 32;
	const int wm = (warp / WARPS_N) * WM, wn = (warp % WARPS_N) * WN, lm = lane / LN, ln = lane % LN;
	const float *a = A + (size_t)tm * WT_BM * lda, *b = B + tn * 128;
	float acc[FM * 4][FN * 4] = { { 0 } }, ra[FM * 4], rb[FN * 4];
	/* A: scalars, k fastest (lanes read 64 contiguous bytes of a row), stored transposed; B: float4 */
	auto load = [&](int st, int k0) {
#pragma unroll
		for (int i = 0; i < WT_BM * BK / NT; i++) {
			int e = t + NT * i, m = e / BK, k = e % BK;
			cp_async4(&At[st][k][m], a + (size_t)m * lda + k0 + k);
		}
#pragma unroll
		for (int i = 0; i < 32 * BK / NT; i++) {
			int e = t + NT * i, k = e / 32, n4 = e % 32;
			cp_async16(&Bs[st][k][n4 * 4], b + (size_t)(k0 + k) * ldb + n4 * 4);
		}
	};

	/* STAGES - 1 tiles in flight before the first is used; one (maybe empty) group committed per step */
#pragma unroll
	for (int st = 0; st < STAGES - 1; st++) {
		if (kb + st < ke)
			load(st, (kb + st) * BK);
		cp_async_commit();
	}
	for (int kt = kb; kt < ke; kt++) {
		const int st = (kt - kb) % STAGES, nx = kt + STAGES - 1;
		cp_async_wait<STAGES - 2>();
		__syncthreads(); /* tile kt landed for all; everyone is done with the stage nx overwrites */
		if (nx < ke)
			load((nx - kb) % STAGES, nx * BK);
		cp_async_commit();
#pragma unroll UK
		for (int k = 0; k < BK; k++) {
#pragma unroll
			for (int f = 0; f < FM; f++)
				*(float4 *)&ra[4 * f] = *(const float4 *)&At[st][k][wm + f * LM * 4 + lm * 4];
#pragma unroll
			for (int g = 0; g < FN; g++)
				*(float4 *)&rb[4 * g] = *(const float4 *)&Bs[st][k][wn + g * LN * 4 + ln * 4];
			constexpr int TI = FM * 4, TJ = FN * 4;
			if (ORDER == 1) {
#pragma unroll
				for (int i = 0; i < TI; i++)
#pragma unroll
					for (int jj = 0; jj < TJ; jj++) {
						const int j = (i & 1) ? TJ - 1 - jj : jj;
						acc[i][j] += ra[i] * rb[j];
					}
			} else if (ORDER == 2) {
#pragma unroll
				for (int j = 0; j < TJ; j++)
#pragma unroll
					for (int ii = 0; ii < TI; ii++) {
						const int i = (j & 1) ? TI - 1 - ii : ii;
						acc[i][j] += ra[i] * rb[j];
					}
			} else if (ORDER == 3) {
#pragma unroll
				for (int i = 0; i < TI; i += 2)
#pragma unroll
					for (int jj = 0; jj < TJ; jj++) {
						const int j = ((i / 2) & 1) ? TJ - 1 - jj : jj;
						const int i0 = (jj & 1) ? i + 1 : i, i1 = (jj & 1) ? i : i + 1;
						acc[i0][j] += ra[i0] * rb[j];
						acc[i1][j] += ra[i1] * rb[j];
					}
			} else {
#pragma unroll
				for (int i = 0; i < TI; i++)
#pragma unroll
					for (int j = 0; j < TJ; j++)
						acc[i][j] += ra[i] * rb[j];
			}
		}
	}
#pragma unroll
	for (int i = 0; i < FM * 4; i++) {
		int row = orow + wm + (i / 4) * LM * 4 + lm * 4 + i % 4;
		float *c = out + (size_t)row * ldo + ocol + wn + ln * 4;
#pragma unroll
		for (int g = 0; g < FN; g++)
			*(float4 *)(c + g * LN * 4) = make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2],
								  acc[i][4 * g + 3]);
	}
}

/* v9's order (GROUP > 0; row-major without): tile bid of a grid tiles_n wide, GROUP tile rows at a time, down the rows first within a group */
template <int GROUP> __device__ __forceinline__ int2 wt_tile_of(int bid, int tiles_n, int tiles_m)
{
	if (GROUP <= 0)
		return make_int2(bid / tiles_n, bid % tiles_n);
	const int per = GROUP * tiles_n, first = bid / per * GROUP, rows = min(GROUP, tiles_m - first);
	return make_int2(first + (bid % per) % rows, (bid % per) / rows);
}

template <int NT, int WARPS_N, int FN, int MINB, int STAGES, int GROUP, int BK = WT_BK, int ORDER = 0, int UK = BK>
__global__ void __launch_bounds__(NT, MINB) gemm_warptile(const float *A, const float *B, float *C, int Kp,
							   int lda, int ldb, int ldc)
{
	const int2 tt = GROUP > 0 ? wt_tile_of<GROUP>(blockIdx.y * gridDim.x + blockIdx.x, gridDim.x, gridDim.y)
				  : make_int2(blockIdx.y, blockIdx.x);

	wt_tile<NT, WARPS_N, FN, STAGES, BK, ORDER, UK>(A, B, C, ldc, tt.x * WT_BM, tt.y * 128, lda, ldb, tt.x, tt.y, 0,
							Kp / BK);
}

/*
 * v20_streamk (issue 25): v9's tiles with the last partial wave run stream-K. A grid of T tiles runs in waves of R
 * resident blocks; when T mod R tiles are left for the last wave, R - T mod R block slots idle through it (4096^3:
 * 1024 tiles, R = 264, a fourth wave of 232 tiles; 8192^3: 136 of 264; 3001^3: 48 of 264). Where the last wave is
 * at most half full (sk_plan_for), gemm_sk_full runs the first T - T mod R tiles of v9's order (v9's tile, a block
 * each); gemm_sk_tail runs the rest on exactly R blocks, block b taking the tail's k-tiles [b L / R, (b + 1) L / R)
 * of L = (T mod R) x nk in order, tile after tile, so that every block does the same work: a range covers parts of
 * at most two tiles (L / R < nk), each written as a partial tile to its slot (2 b, 2 b + 1) of the workspace W;
 * gemm_sk_sum adds each tail tile's partials into C in block order (a summation order the Freivalds check covers,
 * as v12's).
 */
struct sk_plan {
	int tiles_n, tiles_m; /* the tile grid (v9's gridDim) */
	int dp_tiles;         /* tiles of the full waves, in v9's order */
	int resident;         /* R: blocks of the tail launch */
	long long iters;      /* L: the tail's k-tiles */
};


/* v20's full waves: block b is tile b of v9's order */
template <int NT, int WARPS_N, int FN, int MINB, int STAGES, int GROUP, int BK = WT_BK, int ORDER = 0, int UK = BK>
__global__ void __launch_bounds__(NT, MINB) gemm_sk_full(const float *A, const float *B, float *C, int Kp, int lda,
							  int ldb, int ldc, struct sk_plan sk)
{
	const int2 tt = wt_tile_of<GROUP>(blockIdx.x, sk.tiles_n, sk.tiles_m);

	wt_tile<NT, WARPS_N, FN, STAGES, BK, ORDER, UK>(A, B, C, ldc, tt.x * WT_BM, tt.y * 128, lda, ldb, tt.x, tt.y,
							0, Kp / BK);
}

/* v20's tail: R blocks of v9's tile, block b over the tail's k-tiles [b L / R, (b + 1) L / R) */
template <int NT, int WARPS_N, int FN, int MINB, int STAGES, int GROUP, int BK = WT_BK, int ORDER = 0, int UK = BK>
__global__ void __launch_bounds__(NT, MINB) gemm_sk_tail(const float *A, const float *B, float *W, int Kp, int lda,
							  int ldb, struct sk_plan sk)
{
	const int nk = Kp / BK;
	long long pos = (long long)blockIdx.x * sk.iters / sk.resident;
	const long long end = (long long)(blockIdx.x + 1) * sk.iters / sk.resident;

	for (int seg = 0; pos < end; seg++) {
		const int kb = (int)(pos % nk), ke = (int)min((long long)nk, kb + end - pos);
		const int2 tt = wt_tile_of<GROUP>(sk.dp_tiles + (int)(pos / nk), sk.tiles_n, sk.tiles_m);
		if (seg > 0) {
			cp_async_wait<0>();
			__syncthreads(); /* the last segment's readers are done with every stage */
		}
		wt_tile<NT, WARPS_N, FN, STAGES, BK, ORDER, UK>(A, B, W + ((size_t)blockIdx.x * 2 + seg) * WT_BM * 128, 128,
								0, 0, lda, ldb, tt.x, tt.y, kb, ke);
		pos += ke - kb;
	}
}

/*
 * v20's tail tiles from their partials (gemm_sk_tail above): a warp per tile row, tile dp_tiles + blockIdx.x / 128; the
 * blocks whose k-ranges meet the tile, in block order, each its slot 2 b + (the tile - the tile its range starts in).
 */
__global__ void __launch_bounds__(32) gemm_sk_sum(const float *W, float *C, int ldc, int nk, struct sk_plan sk)
{
	const int i = blockIdx.x / WT_BM, row = blockIdx.x % WT_BM;
	const long long lo = (long long)i * nk, hi = lo + nk, R = sk.resident, L = sk.iters;
	long long b = lo * R / L; /* begin(b) = b L / R <= lo; then the last such b */
	while (b + 1 < R && (b + 1) * L / R <= lo)
		b++;
	float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
	for (; b < R && b * L / R < hi; b++) {
		const long long beg = b * L / R, end = (b + 1) * L / R;
		if (end <= beg || end <= lo)
			continue; /* an empty range */
		const float4 v = ((const float4 *)(W + ((size_t)b * 2 + (size_t)(i - beg / nk)) * WT_BM * 128 +
						   row * 128))[threadIdx.x];
		sum.x += v.x;
		sum.y += v.y;
		sum.z += v.z;
		sum.w += v.w;
	}
	const int2 tt = wt_tile_of<8>(sk.dp_tiles + i, sk.tiles_n, sk.tiles_m);
	((float4 *)(C + ((size_t)tt.x * WT_BM + row) * ldc + tt.y * 128))[threadIdx.x] = sum;
}

/*
 * ---- v11: v9 with lean tile loads ----
 * v9's main loop holds 2048 FFMA and 291 other instructions per k-tile, 161
 * of them integer address arithmetic: each of a thread's 16 A elements lies
 * in another row (m = t/16 + 8i), so each cp.async needs its own 64-bit
 * address, and the stage index is a modulo. Here a thread copies 4 rows x 4
 * k of A: rows r + 32 s (r = warp*8 + lane%8), k = kg + 4 j (kg = lane/8),
 * so its 16 global addresses are 4 row pointers plus immediates (4 lanes of
 * a row read 16 contiguous bytes), and its shared-memory addresses one base
 * plus immediates. The transposed rows are 136 floats apart: lanes kg and
 * kg + 1 land 8 banks apart, so the 32 stores of a warp hit 32 banks. B
 * keeps v9's float4 copies from one running pointer. Stages rotate by
 * counters. Same blocks (128 threads, 2 x 2 warps of 64 x 64, 8 x 16 per
 * thread), three stages, grouped order.
 */
#define LN_STAGES 3
#define LN_GROUP 8

/* Row stride of the transposed A tile: 136 for the 4 x 4 copies (conflict-free), v9's 132 for v9's rows. */
static __host__ __device__ constexpr int lean_lda(int rows16)
{
	return rows16 ? WT_BM + 4 : WT_BM + 8;
}

static size_t lean_smem(int rows16)
{
	return (size_t)LN_STAGES * WT_BK * (lean_lda(rows16) + 128) * sizeof(float);
}

/*
 * The tiles from tile0 on, in v9's grouped order; with split > 1 each tile is
 * split pieces along K (the k-tiles [p nk / split, (p + 1) nk / split)), and
 * piece p of tile tile0 + i writes its 128 x 128 partial sums to
 * W + (i split + p) 128 x 128 instead of C.
 */
template <int ROWS16>
__global__ void __launch_bounds__(128, 2) gemm_lean(const float *A, const float *B, float *C, int Kp, int lda,
						     int ldb, int ldc, int tiles_m, int tile0, int split, float *W)
{
	constexpr int WM = 64, WN = 64, LN = 4, LM = 8, FM = 2, FN = 4, LN_LDA = lean_lda(ROWS16);
	constexpr int A_STAGE = WT_BK * LN_LDA, B_STAGE = WT_BK * 128;
	extern __shared__ __align__(16) float smem[];
	float *As0 = smem, *Bs0 = smem + LN_STAGES * A_STAGE;
	const int t = threadIdx.x, warp = t / 32, lane = t % 32, nkt = Kp / WT_BK;
	const int wm = (warp / 2) * WM, wn = (warp % 2) * WN, lm = lane / LN, ln = lane % LN;
	const int piece = blockIdx.x % split, bid = tile0 + blockIdx.x / split, tiles_n = ldb / 128;
	const int kt0 = piece * nkt / split, nk = (piece + 1) * nkt / split - kt0;
	const int per = LN_GROUP * tiles_n, first = bid / per * LN_GROUP, rows = min(LN_GROUP, tiles_m - first);
	const int tm = first + (bid % per) % rows, tn = (bid % per) / rows;
	/*
	 * this thread's copies of A: v11, rows ar + 32 s, k = kg + 4 j; v13 (ROWS16), v9's rows t/16 + 8 i
	 * at k = t%16 (a half-warp reads 64 contiguous bytes of a row); B: rows t/32 + 4 i, float4 column t%32
	 */
	const int ar = ROWS16 ? t / 16 : warp * 8 + lane % 8, kg = ROWS16 ? t % 16 : lane / 8;
	const float *pa = A + ((size_t)tm * WT_BM + ar) * lda + kg + kt0 * WT_BK;
	const float *pb = B + (size_t)(kt0 * WT_BK + t / 32) * ldb + tn * 128 + (t % 32) * 4;
	const size_t a32 = (size_t)32 * lda, a8 = (size_t)8 * lda, b4 = (size_t)4 * ldb, b16 = (size_t)WT_BK * ldb;
	float *sa = As0 + kg * LN_LDA + ar, *sb = Bs0 + (t / 32) * 128 + (t % 32) * 4;
	float acc[FM * 4][FN * 4] = { { 0 } }, ra[FM * 4], rb[FN * 4];
	auto load = [&](int soff_a, int soff_b) {
		if (ROWS16) {
			const float *g = pa;
#pragma unroll
			for (int i = 0; i < 16; i++) {
				cp_async4(sa + soff_a + 8 * i, g);
				g += a8;
			}
		} else {
#pragma unroll
			for (int s4 = 0; s4 < 4; s4++) {
				const float *g = pa + s4 * a32;
#pragma unroll
				for (int j = 0; j < 4; j++)
					cp_async4(sa + soff_a + 4 * j * LN_LDA + 32 * s4, g + 4 * j);
			}
		}
#pragma unroll
		for (int i = 0; i < 4; i++)
			cp_async16(sb + soff_b + 4 * i * 128, pb + i * b4);
		pa += WT_BK;
		pb += b16;
	};

	int ld_a = 0, ld_b = 0; /* the stage the next load fills */
#pragma unroll
	for (int st = 0; st < LN_STAGES - 1; st++) {
		if (st < nk) {
			load(ld_a, ld_b);
			ld_a += A_STAGE;
			ld_b += B_STAGE;
		}
		cp_async_commit();
	}
	int cur_a = 0, cur_b = 0; /* the stage computed now */
	for (int kt = 0; kt < nk; kt++) {
		cp_async_wait<LN_STAGES - 2>();
		__syncthreads(); /* tile kt landed for all; everyone is done with the stage the next load overwrites */
		if (kt + LN_STAGES - 1 < nk) {
			if (ld_a == LN_STAGES * A_STAGE) {
				ld_a = 0;
				ld_b = 0;
			}
			load(ld_a, ld_b);
			ld_a += A_STAGE;
			ld_b += B_STAGE;
		}
		cp_async_commit();
		const float *at = As0 + cur_a, *bt = Bs0 + cur_b;
#pragma unroll
		for (int k = 0; k < WT_BK; k++) {
#pragma unroll
			for (int f = 0; f < FM; f++)
				*(float4 *)&ra[4 * f] = *(const float4 *)&at[k * LN_LDA + wm + f * LM * 4 + lm * 4];
#pragma unroll
			for (int g = 0; g < FN; g++)
				*(float4 *)&rb[4 * g] = *(const float4 *)&bt[k * 128 + wn + g * LN * 4 + ln * 4];
#pragma unroll
			for (int i = 0; i < FM * 4; i++)
#pragma unroll
				for (int j = 0; j < FN * 4; j++)
					acc[i][j] += ra[i] * rb[j];
		}
		cur_a += A_STAGE;
		cur_b += B_STAGE;
		if (cur_a == LN_STAGES * A_STAGE) {
			cur_a = 0;
			cur_b = 0;
		}
	}
	float *c0 = C + (size_t)tm * WT_BM * ldc + tn * 128;
	if (split > 1) {
		c0 = W + ((size_t)(blockIdx.x / split) * split + piece) * WT_BM * 128;
		ldc = 128;
	}
#pragma unroll
	for (int i = 0; i < FM * 4; i++) {
		int row = wm + (i / 4) * LM * 4 + lm * 4 + i % 4;
		float *c = c0 + (size_t)row * ldc + wn + ln * 4;
#pragma unroll
		for (int g = 0; g < FN; g++)
			*(float4 *)(c + g * LN * 4) = make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2],
								  acc[i][4 * g + 3]);
	}
}

/* C's tiles tile0, tile0 + 1, ... = the sum of their split partials in W, in piece order: a warp per tile row. */
__global__ void __launch_bounds__(32) gemm_split_sum(const float *W, float *C, int ldc, int tiles_m, int tile0,
						       int split)
{
	const int i = blockIdx.x / WT_BM, row = blockIdx.x % WT_BM, bid = tile0 + i, tiles_n = ldc / 128;
	const int per = LN_GROUP * tiles_n, first = bid / per * LN_GROUP, rows = min(LN_GROUP, tiles_m - first);
	const int tm = first + (bid % per) % rows, tn = (bid % per) / rows;
	const float4 *w = (const float4 *)(W + (size_t)i * split * WT_BM * 128 + row * 128) + threadIdx.x;
	float4 sum = w[0];

	for (int p = 1; p < split; p++) {
		float4 v = w[(size_t)p * WT_BM * 128 / 4];
		sum.x += v.x;
		sum.y += v.y;
		sum.z += v.z;
		sum.w += v.w;
	}
	((float4 *)(C + ((size_t)tm * WT_BM + row) * ldc + tn * 128))[threadIdx.x] = sum;
}

/*
 * ---- v12: v11 with the last partial wave split along K ----
 * A grid of T tiles runs in waves of R = SMs x resident blocks per SM; when
 * the last wave holds only T mod R tiles, most SMs idle through it (3001^3:
 * 576 tiles, R = 264, a third wave of 48 tiles). v12 runs the full waves as
 * v11, then splits each tile of the last wave into S = R / (T mod R) pieces
 * along K (at least 4 k-tiles each), which run at once and write partial
 * tiles to a workspace, and sums the pieces into C in a fixed order. With
 * T mod R > R / 2 nothing is split (S = 1): v12 is v11.
 *
 * v13 and v14 are v11 and v12 with v9's rows per thread (ROWS16: a thread
 * copies rows t/16 + 8 i at k = t%16, a half-warp 64 contiguous bytes of a
 * row; A rows 132 floats apart as in v9). On the H100 (4096^3) v9 46.6,
 * v11 43.5, v13 43.8 TFLOP/s: 40 % fewer non-FMA instructions per k-tile
 * did not make the kernel faster; at 3001^3 v14 41.9 against cuBLAS 42.9
 * (v9 35.1): the split last wave is what pays there
 * (results/nvidia-h100-80gb-hbm3/compute/issue25/).
 */
struct lean_plan {
	int tiles, full, tail, split;
};

template <int ROWS16> static gm_status lean_plan_for(const struct gemm_state *s, int split_tail, struct lean_plan *p)
{
	static int opted, per_sm;
	const size_t smem = lean_smem(ROWS16);

	if (!opted) {
		GM_CU(cudaFuncSetAttribute(gemm_lean<ROWS16>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		GM_CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_lean<ROWS16>, 128, smem));
		opted = 1;
	}
	const int resident = per_sm * (s->dev && s->dev->sm_count > 0 ? s->dev->sm_count : 1);
	p->tiles = (s->Np / 128) * (s->Mp / WT_BM);
	p->full = p->tiles;
	p->tail = 0;
	p->split = 1;
	const int tail = p->tiles % resident, max_split = s->Kp / WT_BK / 4;
	if (split_tail && resident > 0 && tail > 0 && resident / tail > 1 && max_split > 1) {
		p->tail = tail;
		p->full = p->tiles - tail;
		p->split = resident / tail < max_split ? resident / tail : max_split;
	}
	return GM_OK;
}

/* Workspace bytes v12 or v14 needs for a state's shape (0: no split). */
template <int ROWS16> static size_t lean_work_bytes(const struct gemm_state *s)
{
	struct lean_plan p;

	if (lean_plan_for<ROWS16>(s, 1, &p))
		return 0;
	return p.split > 1 ? (size_t)p.tail * p.split * WT_BM * 128 * sizeof(float) : 0;
}

template <int ROWS16> static gm_status lean_launch(const struct gemm_state *s, int split_tail)
{
	struct lean_plan p;
	const int tiles_m = s->Mp / WT_BM;
	const size_t smem = lean_smem(ROWS16);
	gm_status e = lean_plan_for<ROWS16>(s, split_tail, &p);

	if (e)
		return e;
	if (p.full > 0) {
		gemm_lean<ROWS16><<<p.full, 128, smem, gm_stream()>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np,
								      tiles_m, 0, 1, NULL);
		GM_CU_LAUNCH();
	}
	if (p.tail > 0) {
		gemm_lean<ROWS16><<<p.tail * p.split, 128, smem, gm_stream()>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np,
										s->Np, tiles_m, p.full, p.split, s->W);
		GM_CU_LAUNCH();
		gemm_split_sum<<<p.tail * WT_BM, 32, 0, gm_stream()>>>(s->W, s->C, s->Np, tiles_m, p.full, p.split);
		GM_CU_LAUNCH();
	}
	return GM_OK;
}

/* Shared memory of a warp-tile kernel with S stages; above 48 KiB it needs the opt-in. */
static size_t wt_smem(int stages, int bk)
{
	return (size_t)stages * bk * (WT_BM + 4 + 128) * sizeof(float);
}

template <int NT, int WARPS_N, int FN, int MINB, int STAGES, int GROUP, int BK = WT_BK, int ORDER = 0, int UK = BK>
static gm_status wt_launch(const struct gemm_state *s)
{
	static int opted;
	auto k = gemm_warptile<NT, WARPS_N, FN, MINB, STAGES, GROUP, BK, ORDER, UK>;
	const size_t smem = wt_smem(STAGES, BK);

	if (!opted && smem > 48 * 1024) {
		GM_CU(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		opted = 1;
	}
	k<<<dim3(s->Np / 128, s->Mp / WT_BM), NT, smem, gm_stream()>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np);
	return GM_OK;
}

/* ---- v20_streamk: v9's kernel, its last partial wave as a stream-K launch (gemm_sk_* above) ---- */
#define SK_V9 128, 2, 4, 2, 3, 8, WT_BK, 0, WT_BK

/* v20's plan for a state's shape: the full waves, the tail and R (blocks of v9's kernel an SM x SMs) */
static gm_status sk_plan_for(const struct gemm_state *s, struct sk_plan *p)
{
	static int opted, per_sm;
	const size_t smem = wt_smem(3, WT_BK);

	if (!opted) {
		GM_CU(cudaFuncSetAttribute(gemm_sk_full<SK_V9>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		GM_CU(cudaFuncSetAttribute(gemm_sk_tail<SK_V9>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
		GM_CU(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gemm_sk_tail<SK_V9>, 128, smem));
		opted = 1;
	}
	const int tiles = (s->Np / 128) * (s->Mp / WT_BM), nk = s->Kp / WT_BK;
	p->tiles_n = s->Np / 128;
	p->tiles_m = s->Mp / WT_BM;
	p->resident = per_sm * (s->dev && s->dev->sm_count > 0 ? s->dev->sm_count : 1);
	/* the tail stream-K only when the last wave is at most half full (v12's rule): measured at every shape first
	   (s15-6d996b3), a last wave of 232 of 264 tiles (4096^3) lost 0.8 % and one of 256 (32768 x 128 x 1024, no full
	   wave) 12 % to the pieces and the launch between, one of 136 (8192^3) gained 0.5 %, one of 48 (3001^3) 25 % */
	const int tail = p->resident > 0 ? tiles % p->resident : 0, split = tail > 0 && 2 * tail <= p->resident;
	p->dp_tiles = split ? tiles - tail : tiles;
	p->iters = split ? (long long)tail * nk : 0; /* tail < R: a block's range (< nk k-tiles) meets at most two tiles */
	return GM_OK;
}

/* Workspace bytes v20 needs: two partial tiles a block of the tail launch (0: no tail) */
static size_t sk_work_bytes(const struct gemm_state *s)
{
	struct sk_plan p;

	if (sk_plan_for(s, &p) || p.iters == 0)
		return 0;
	return (size_t)p.resident * 2 * WT_BM * 128 * sizeof(float);
}

static gm_status sk_launch(const struct gemm_state *s)
{
	struct sk_plan p;
	const size_t smem = wt_smem(3, WT_BK);
	gm_status e = sk_plan_for(s, &p);

	if (e)
		return e;
	if (p.iters == 0) /* no tail to split: v9 itself */
		return wt_launch<SK_V9>(s);
	if (p.dp_tiles > 0) {
		gemm_sk_full<SK_V9><<<p.dp_tiles, 128, smem, gm_stream()>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np,
									     p);
		GM_CU_LAUNCH();
	}
	if (p.iters > 0) {
		if (!s->W)
			return gm_fail(GM_ERR_INVALID_ARG, "v20_streamk: no workspace for a tail of %lld k-tiles", p.iters);
		gemm_sk_tail<SK_V9><<<p.resident, 128, smem, gm_stream()>>>(s->A, s->B, s->W, s->Kp, s->Kp, s->Np, p);
		GM_CU_LAUNCH();
		const int tail = p.tiles_n * p.tiles_m - p.dp_tiles;
		gemm_sk_sum<<<tail * WT_BM, 32, 0, gm_stream()>>>(s->W, s->C, s->Np, s->Kp / WT_BK, p);
		GM_CU_LAUNCH();
	}
	return GM_OK;
}

#endif
