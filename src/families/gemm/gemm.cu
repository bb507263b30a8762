/*
 * gemm.cu - the SGEMM ladder (cases: src/families/gemm/cases.c): C = A B, row-major
 * M x K times K x N, each version one step from naive towards cuBLAS. v0 .. v5 stand here;
 * the warp-tiled v6 .. v9, v11 .. v20 in gemm_warptile.cuh, the TMA's v10 in gemm_tma.cuh, the tensor
 * cores' v21 in gemm_tf32.cuh, the checks in gemm_check.cuh (all included below: one translation unit);
 * this file keeps the data, cuBLAS and dispatch.
 *
 * Storage: every matrix is allocated padded with zeros to multiples of
 * GEMM_PAD_M (M), GEMM_PAD_N (N) and GEMM_PAD_K (K); leading dimensions are the padded
 * sizes. The naive and shared-tile versions compute exactly M x N x K with
 * bounds checks; the tiled versions compute the padded product (the zeros add
 * nothing, exactly) and pay for the padding, which a size that is no multiple
 * of any tile shows. Flops are counted as 2 M N K for every version.
 *
 * Validation: A and B hold k/128 (k random in [-128, 127]): every product is
 * exact in float, every K-term sum exact in double. Freivalds' check compares
 * C r with A (B r) in double for two random integer vectors r, row by row,
 * within gamma_K (|A| (|B| |r|)), which bounds the float rounding of C for any
 * summation order; 256 random elements are checked one by one on the device
 * against their exact value, and 8 of them on the CPU from the generator
 * (gemm_check.cuh; v21 also on full-mantissa operands against cuBLAS's error).
 */
#include <math.h>
#include <string.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda.h>            /* CUtensorMap and its enums only: the driver is reached through cudart */
#include "families/common/common.cuh"
#include "families/common/cublas_dl.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/gemm/gemm_shapes.h"

#define GEMM_SAMPLES 256
#define GEMM_CPU_SAMPLES 8

struct gemm_state {
	int mode;
	int M, N, K, Mp, Np, Kp;
	float *A, *B, *C;
	void *A16, *B16;                 /* tensor-core references: A and B in half or bfloat16 */
	double *u, *ua, *v, *va, *w;     /* Freivalds vectors */
	int *r;
	uint32_t seed;
	void *blas;
	const struct gm_device_info *dev;
	CUtensorMap tmA, tmB;            /* v10: TMA descriptors of A and B */
	float *W;                        /* v12: partial tiles of the split last wave */
	double err, err_cublas;          /* v21: largest error on full-mantissa operands, its and cuBLAS's (-1: none) */
};

static __host__ __device__ __forceinline__ float gemm_val(uint32_t seed, uint64_t i)
{
	return (float)((int)(gm_hash(seed, i) & 255u) - 128) / 128.0f;
}

static __host__ __device__ __forceinline__ uint32_t seed_b(uint32_t seed)
{
	return seed ^ 0x00b0b0b0u;
}

/* ---- v0: naive ---- */

__global__ void gemm_naive(const float *A, const float *B, float *C, int M, int N, int K, int lda, int ldb,
			   int ldc)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= M || col >= N)
		return;
	float s = 0;
	for (int k = 0; k < K; k++)
		s += A[(size_t)row * lda + k] * B[(size_t)k * ldb + col];
	C[(size_t)row * ldc + col] = s;
}

/* ---- v1: 32 x 32 shared-memory tiles ---- */

__global__ void gemm_smem(const float *A, const float *B, float *C, int M, int N, int K, int lda, int ldb,
			  int ldc)
{
	__shared__ float As[32][32], Bs[32][33];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
	float s = 0;

	for (int k0 = 0; k0 < K; k0 += 32) {
		As[ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * lda + k0 + tx] : 0.0f;
		Bs[ty][tx] = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * ldb + col] : 0.0f;
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 32; k++)
			s += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	if (row < M && col < N)
		C[(size_t)row * ldc + col] = s;
}

/* ---- v2: 64 x 64 tiles, BK 8, 8 results per thread down a column (512 threads) ---- */

__global__ void __launch_bounds__(512) gemm_block1d(const float *A, const float *B, float *C, int Kp, int lda,
						    int ldb, int ldc)
{
	__shared__ float As[64][8], Bs[8][64];
	const int t = threadIdx.x, col = t % 64, rg = t / 64;
	const float *a = A + (size_t)blockIdx.y * 64 * lda, *b = B + blockIdx.x * 64;
	float acc[8] = { 0 };

	for (int k0 = 0; k0 < Kp; k0 += 8) {
		As[t / 8][t % 8] = a[(size_t)(t / 8) * lda + k0 + t % 8];
		Bs[t / 64][t % 64] = b[(size_t)(k0 + t / 64) * ldb + t % 64];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 8; k++) {
			float bv = Bs[k][col];
#pragma unroll
			for (int i = 0; i < 8; i++)
				acc[i] += As[rg * 8 + i][k] * bv;
		}
		__syncthreads();
	}
	float *c = C + (size_t)(blockIdx.y * 64 + rg * 8) * ldc + blockIdx.x * 64 + col;
#pragma unroll
	for (int i = 0; i < 8; i++)
		c[(size_t)i * ldc] = acc[i];
}

/* ---- v3: 128 x 128 tiles, BK 8, 8 x 8 results per thread (256 threads) ---- */

__global__ void __launch_bounds__(256) gemm_block2d(const float *A, const float *B, float *C, int Kp, int lda,
						    int ldb, int ldc)
{
	__shared__ float As[128][8], Bs[8][128];
	const int t = threadIdx.x, tr = t / 16, tc = t % 16;
	const float *a = A + (size_t)blockIdx.y * 128 * lda, *b = B + blockIdx.x * 128;
	float acc[8][8] = { { 0 } }, ra[8], rb[8];

	for (int k0 = 0; k0 < Kp; k0 += 8) {
#pragma unroll
		for (int i = 0; i < 4; i++) {
			int e = t + 256 * i;
			As[e / 8][e % 8] = a[(size_t)(e / 8) * lda + k0 + e % 8];
			Bs[e / 128][e % 128] = b[(size_t)(k0 + e / 128) * ldb + e % 128];
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 8; k++) {
#pragma unroll
			for (int i = 0; i < 8; i++) {
				ra[i] = As[tr * 8 + i][k];
				rb[i] = Bs[k][tc * 8 + i];
			}
#pragma unroll
			for (int i = 0; i < 8; i++)
#pragma unroll
				for (int j = 0; j < 8; j++)
					acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < 8; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			C[(size_t)(blockIdx.y * 128 + tr * 8 + i) * ldc + blockIdx.x * 128 + tc * 8 + j] = acc[i][j];
}

/* ---- v4: v3 with 16-byte loads and the A tile transposed (row stride 132: no store conflicts) ---- */

#define AT_LD 132

/* Eight k of a 128 x 128 tile: thread (tr, tc) adds its 8 x 8 products, fragments read as float4. */
static __device__ __forceinline__ void fma_8x8(const float (*At)[AT_LD], const float (*Bs)[128], int tr, int tc,
					       float acc[8][8])
{
	float ra[8], rb[8];
#pragma unroll
	for (int k = 0; k < 8; k++) {
		*(float4 *)&ra[0] = *(const float4 *)&At[k][tr * 8];
		*(float4 *)&ra[4] = *(const float4 *)&At[k][tr * 8 + 4];
		*(float4 *)&rb[0] = *(const float4 *)&Bs[k][tc * 8];
		*(float4 *)&rb[4] = *(const float4 *)&Bs[k][tc * 8 + 4];
#pragma unroll
		for (int i = 0; i < 8; i++)
#pragma unroll
			for (int j = 0; j < 8; j++)
				acc[i][j] += ra[i] * rb[j];
	}
}

/* A thread's 8 x 8 results to C (c = its first element), as float4. */
static __device__ __forceinline__ void store_8x8(float *c, int ldc, const float acc[8][8])
{
#pragma unroll
	for (int i = 0; i < 8; i++) {
		*(float4 *)(c + (size_t)i * ldc) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
		*(float4 *)(c + (size_t)i * ldc + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
	}
}

__global__ void __launch_bounds__(256) gemm_vec(const float *A, const float *B, float *C, int Kp, int lda,
						int ldb, int ldc)
{
	__shared__ __align__(16) float At[8][AT_LD];
	__shared__ __align__(16) float Bs[8][128];
	const int t = threadIdx.x, tr = t / 16, tc = t % 16;
	const float *a = A + (size_t)blockIdx.y * 128 * lda, *b = B + blockIdx.x * 128;
	float acc[8][8] = { { 0 } };

	for (int k0 = 0; k0 < Kp; k0 += 8) {
		float4 av = *(const float4 *)(a + (size_t)(t / 2) * lda + k0 + (t % 2) * 4);
		At[(t % 2) * 4 + 0][t / 2] = av.x;
		At[(t % 2) * 4 + 1][t / 2] = av.y;
		At[(t % 2) * 4 + 2][t / 2] = av.z;
		At[(t % 2) * 4 + 3][t / 2] = av.w;
		*(float4 *)&Bs[t / 32][(t % 32) * 4] = *(const float4 *)(b + (size_t)(k0 + t / 32) * ldb + (t % 32) * 4);
		__syncthreads();
		fma_8x8(At, Bs, tr, tc, acc);
		__syncthreads();
	}
	store_8x8(C + (size_t)(blockIdx.y * 128 + tr * 8) * ldc + blockIdx.x * 128 + tc * 8, ldc, acc);
}

/* ---- cp.async helpers (sm_80+) ---- */

static __device__ __forceinline__ void cp_async4(void *smem, const void *gmem)
{
	unsigned s = (unsigned)__cvta_generic_to_shared(smem);
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(gmem));
}

static __device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
	unsigned s = (unsigned)__cvta_generic_to_shared(smem);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}

static __device__ __forceinline__ void cp_async_commit(void)
{
	asm volatile("cp.async.commit_group;\n" ::);
}

/* Wait until at most n committed groups are still in flight. */
template <int n> static __device__ __forceinline__ void cp_async_wait(void)
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(n));
}

/* ---- v5: v4 with two stages: cp.async fills one while the other is computed ---- */

__global__ void __launch_bounds__(256, 2) gemm_dbuf(const float *A, const float *B, float *C, int Kp, int lda,
						 int ldb, int ldc)
{
	__shared__ __align__(16) float At[2][8][AT_LD];
	__shared__ __align__(16) float Bs[2][8][128];
	const int t = threadIdx.x, tr = t / 16, tc = t % 16;
	const float *a = A + (size_t)blockIdx.y * 128 * lda, *b = B + blockIdx.x * 128;
	float acc[8][8] = { { 0 } };
	/* A: 4 scalars per thread, k fastest (lanes read 32 contiguous bytes of a row), stored transposed */
	auto load = [&](int st, int k0) {
#pragma unroll
		for (int i = 0; i < 4; i++) {
			int e = t + 256 * i, m = e / 8, k = e % 8;
			cp_async4(&At[st][k][m], a + (size_t)m * lda + k0 + k);
		}
		cp_async16(&Bs[st][t / 32][(t % 32) * 4], b + (size_t)(k0 + t / 32) * ldb + (t % 32) * 4);
		cp_async_commit();
	};

	load(0, 0);
	for (int k0 = 0, st = 0; k0 < Kp; k0 += 8, st ^= 1) {
		if (k0 + 8 < Kp) {
			load(st ^ 1, k0 + 8);
			cp_async_wait<1>();
		} else {
			cp_async_wait<0>();
		}
		__syncthreads();
		fma_8x8(At[st], Bs[st], tr, tc, acc);
		__syncthreads();
	}
	store_8x8(C + (size_t)(blockIdx.y * 128 + tr * 8) * ldc + blockIdx.x * 128 + tc * 8, ldc, acc);
}

#include "families/gemm/gemm_warptile.cuh"   /* v6 .. v9, v11 .. v14 */
#include "families/gemm/gemm_tma.cuh"        /* v10 */
#include "families/gemm/gemm_tf32.cuh"       /* v21 */

/* ---- launch ---- */

/* The cuBLAS references: row-major C = A B is column-major C^T = B^T A^T. */
static gm_status gemm_cublas(struct gemm_state *s)
{
	const struct gm_cublas *cb = gm_cublas_load(NULL, 0);
	cublasHandle_t h = (cublasHandle_t)s->blas;
	const float one = 1, zero = 0;
	cublasStatus_t b;

	if (s->mode == GEMM_CUBLAS) {
		b = cb->sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s->N, s->M, s->K, &one, s->B, s->Np, s->A, s->Kp, &zero,
			      s->C, s->Np);
	} else {
		cudaDataType t = s->mode == GEMM_TC_FP16 ? CUDA_R_16F : CUDA_R_16BF;
		b = cb->gemmex(h, CUBLAS_OP_N, CUBLAS_OP_N, s->N, s->M, s->K, &one, s->B16, t, s->Np, s->A16, t, s->Kp,
			       &zero, s->C, CUDA_R_32F, s->Np, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
	}
	if (b != CUBLAS_STATUS_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cuBLAS %s failed (status %d)",
			       s->mode == GEMM_CUBLAS ? "cublasSgemm" : "cublasGemmEx", (int)b);
	return GM_OK;
}

static gm_status gemm_launch(void *state)
{
	struct gemm_state *s = (struct gemm_state *)state;
	cudaStream_t st = gm_stream();
	dim3 tiles128(s->Np / 128, s->Mp / 128);

	switch (s->mode) {
	case GEMM_NAIVE:
		gemm_naive<<<dim3((s->N + 31) / 32, (s->M + 7) / 8), dim3(32, 8), 0, st>>>(
			s->A, s->B, s->C, s->M, s->N, s->K, s->Kp, s->Np, s->Np);
		break;
	case GEMM_SMEM:
		gemm_smem<<<dim3((s->N + 31) / 32, (s->M + 31) / 32), dim3(32, 32), 0, st>>>(
			s->A, s->B, s->C, s->M, s->N, s->K, s->Kp, s->Np, s->Np);
		break;
	case GEMM_BLOCK1D:
		gemm_block1d<<<dim3(s->Np / 64, s->Mp / 64), 512, 0, st>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np,
									   s->Np);
		break;
	case GEMM_BLOCK2D:
		gemm_block2d<<<tiles128, 256, 0, st>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np);
		break;
	case GEMM_VEC:
		gemm_vec<<<tiles128, 256, 0, st>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np);
		break;
	case GEMM_DBUF:
		gemm_dbuf<<<tiles128, 256, 0, st>>>(s->A, s->B, s->C, s->Kp, s->Kp, s->Np, s->Np);
		break;
	case GEMM_WARPTILE:
		if (gm_status w = wt_launch<256, 4, 2, 2, 2, 0>(s))
			return w;
		break;
	case GEMM_WARPTILE16:
		if (gm_status w = wt_launch<128, 2, 4, 2, 2, 0>(s))
			return w;
		break;
	case GEMM_WARPTILE16_S3:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 0>(s))
			return w;
		break;
	case GEMM_WT_GROUPED:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 8>(s))
			return w;
		break;
	case GEMM_WT_BK8:
		if (gm_status w = wt_launch<128, 2, 4, 2, 6, 8, 8>(s))
			return w;
		break;
	case GEMM_WT_SERP:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 8, WT_BK, 1>(s))
			return w;
		break;
	case GEMM_WT_COLS:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 8, WT_BK, 2>(s))
			return w;
		break;
	case GEMM_WT_PAIRS:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 8, WT_BK, 3>(s))
			return w;
		break;
	case GEMM_WT_LOOP8:
		if (gm_status w = wt_launch<128, 2, 4, 2, 3, 8, WT_BK, 0, 8>(s))
			return w;
		break;
	case GEMM_WT_STREAMK:
		if (gm_status w = sk_launch(s))
			return w;
		break;
	case GEMM_TMA:
		return tma_launch_kv<2>(s);
	case GEMM_TF32X3:
		if (gm_status w = tx_launch(s))
			return w;
		break;
	case GEMM_LEAN:
		return lean_launch<0>(s, 0);
	case GEMM_LEAN_SPLIT:
		return lean_launch<0>(s, 1);
	case GEMM_LEAN_ROWS:
		return lean_launch<1>(s, 0);
	case GEMM_LEAN_ROWS_SPLIT:
		return lean_launch<1>(s, 1);
	case GEMM_CUBLAS:
	case GEMM_TC_FP16:
	case GEMM_TC_BF16:
		return gemm_cublas(s);
	default:
		return gm_fail(GM_ERR_INVALID_ARG, "gemm: unknown mode %d", s->mode);
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

/* ---- data and validation ---- */

/* The 16-bit copy of a float matrix (its values k/128 are exact in half and bfloat16). */
__global__ void gemm_to16(const float *src, void *dst, size_t n, int bf16)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		if (bf16)
			((__nv_bfloat16 *)dst)[i] = __float2bfloat16_rn(src[i]);
		else
			((__half *)dst)[i] = __float2half_rn(src[i]);
	}
}

/* rows x cols of val(seed, r * cols + c) inside a zero-padded rows_p x cols_p matrix */
__global__ void gemm_fill(float *p, int rows, int cols, int rows_p, int cols_p, uint32_t seed)
{
	size_t n = (size_t)rows_p * cols_p, stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		int r = (int)(i / cols_p), c = (int)(i % cols_p);
		p[i] = r < rows && c < cols ? gemm_val(seed, (uint64_t)r * cols + c) : 0.0f;
	}
}

static void gemm_release(void *state)
{
	struct gemm_state *s = (struct gemm_state *)state;

	if (!s)
		return;
	gm_cublas_free(s->blas);
	gm_gpu_free(s->A);
	gm_gpu_free(s->B);
	gm_gpu_free(s->C);
	gm_gpu_free(s->A16);
	gm_gpu_free(s->B16);
	gm_gpu_free(s->W);
	gm_gpu_free(s->u);
	gm_gpu_free(s->ua);
	gm_gpu_free(s->v);
	gm_gpu_free(s->va);
	gm_gpu_free(s->w);
	gm_gpu_free(s->r);
	free(s);
}

static gm_status gemm_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	if (gm_case_param(c, "mode", 0) == GEMM_TMA && cfg->dev && cfg->dev->cc_major < 9) {
		snprintf(why, n, "needs the tensor memory accelerator (compute capability 9.0 or later), device has %d.%d",
			 cfg->dev->cc_major, cfg->dev->cc_minor);
		return GM_ERR_UNSUPPORTED;
	}
	if (gm_case_param(c, "mode", 0) == GEMM_TF32X3 && cfg->dev && cfg->dev->cc_major < 8) {
		snprintf(why, n, "needs TF32 tensor cores (compute capability 8.0 or later), device has %d.%d",
			 cfg->dev->cc_major, cfg->dev->cc_minor);
		return GM_ERR_UNSUPPORTED;
	}
	if (gm_case_param(c, "mode", 0) >= GEMM_CUBLAS && !gm_cublas_load(why, n))
		return GM_ERR_UNSUPPORTED;
	return GM_OK;
}

static int round_up(int x, int m)
{
	return (x + m - 1) / m * m;
}

static gm_status gemm_alloc(struct gemm_state *s)
{
	size_t mp = (size_t)s->Mp, np = (size_t)s->Np, kp = (size_t)s->Kp;
	gm_status st = gm_gpu_alloc((void **)&s->A, mp * kp * 4);

	if (!st)
		st = gm_gpu_alloc((void **)&s->B, kp * np * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->C, mp * np * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->u, kp * 8);
	if (!st)
		st = gm_gpu_alloc((void **)&s->ua, kp * 8);
	if (!st)
		st = gm_gpu_alloc((void **)&s->v, mp * 8);
	if (!st)
		st = gm_gpu_alloc((void **)&s->va, mp * 8);
	if (!st)
		st = gm_gpu_alloc((void **)&s->w, mp * 8);
	if (!st)
		st = gm_gpu_alloc((void **)&s->r, np * sizeof(int));
	if (st)
		return st;
	unsigned g = gm_resident_blocks(s->dev, 256);
	gemm_fill<<<g, 256, 0, gm_stream()>>>(s->A, s->M, s->K, s->Mp, s->Kp, s->seed);
	gemm_fill<<<g, 256, 0, gm_stream()>>>(s->B, s->K, s->N, s->Kp, s->Np, seed_b(s->seed));
	GM_CU_LAUNCH();
	if (s->mode == GEMM_TC_FP16 || s->mode == GEMM_TC_BF16) {
		int bf = s->mode == GEMM_TC_BF16;
		gm_status st2 = gm_gpu_alloc(&s->A16, mp * kp * 2);
		if (!st2)
			st2 = gm_gpu_alloc(&s->B16, kp * np * 2);
		if (st2)
			return st2;
		gemm_to16<<<g, 256, 0, gm_stream()>>>(s->A, s->A16, mp * kp, bf);
		gemm_to16<<<g, 256, 0, gm_stream()>>>(s->B, s->B16, kp * np, bf);
		GM_CU_LAUNCH();
	}
	return GM_OK;
}

static gm_status gemm_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct gemm_state *s = (struct gemm_state *)calloc(1, sizeof(*s));
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->M = (int)gm_case_param(c, "m", 1024);
	s->N = (int)gm_case_param(c, "n", 1024);
	s->K = (int)gm_case_param(c, "k", 1024);
	if (cfg->sanitize) { /* run --sanitize: a few tiles, the same remainder past every tile (<= 128) */
		s->M = s->M > 512 ? 384 + s->M % 128 : s->M;
		s->N = s->N > 512 ? 384 + s->N % 128 : s->N;
		s->K = s->K > 512 ? 384 + s->K % 128 : s->K;
	}
	s->Mp = round_up(s->M, GEMM_PAD_M);
	s->Np = round_up(s->N, GEMM_PAD_N);
	s->Kp = round_up(s->K, GEMM_PAD_K);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gemm_alloc(s);
	if (!st && s->mode == GEMM_TMA)
		st = tma_prepare(s);
	if (!st && s->mode == GEMM_LEAN_SPLIT && lean_work_bytes<0>(s) > 0)
		st = gm_gpu_alloc((void **)&s->W, lean_work_bytes<0>(s));
	if (!st && s->mode == GEMM_LEAN_ROWS_SPLIT && lean_work_bytes<1>(s) > 0)
		st = gm_gpu_alloc((void **)&s->W, lean_work_bytes<1>(s));
	if (!st && s->mode == GEMM_WT_STREAMK && sk_work_bytes(s) > 0)
		st = gm_gpu_alloc((void **)&s->W, sk_work_bytes(s));
	if (!st && s->mode >= GEMM_CUBLAS)
		st = gm_cublas_handle(&s->blas);
	/* v21's accuracy is judged against cublasSgemm's on the same operands, where cuBLAS loads */
	if (!st && s->mode == GEMM_TF32X3 && gm_cublas_load(NULL, 0))
		st = gm_cublas_handle(&s->blas);
	s->err = s->err_cublas = -1;
	if (st) {
		gemm_release(s);
		return st;
	}
	/* each operand once: what a perfect cache would move */
	t->bytes_useful = t->bytes_hw = 4.0 * ((double)s->M * s->K + (double)s->K * s->N + (double)s->M * s->N);
	t->ops = 2.0 * s->M * s->N * s->K;
	t->working_set = (int64_t)(4 * ((size_t)s->Mp * s->Kp + (size_t)s->Kp * s->Np + (size_t)s->Mp * s->Np));
	*state = s;
	return GM_OK;
}

#include "families/gemm/gemm_check.cuh"   /* validation: Freivalds, samples, the CPU, v21's accuracy */

static const struct gm_family_ops gemm_ops = { gemm_prepare, gemm_launch, gemm_verify, gemm_release,
					       gemm_supported, NULL, gemm_annotate };

extern "C" const struct gm_family_ops *gm_gemm_ops(void)
{
	return &gemm_ops;
}
