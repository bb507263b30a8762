/*
 * matvec.cu - kernels of the matvec family (cases: src/families/matvec/cases.c).
 *
 * Data: A is MV_ROWS x MV_COLS row-major, A[i] = k/128 and x[j] = k'/128
 * for random k, k' in [-128, 127] (exact in half and float). Every product is
 * exact in float and every sum exact in double, so the double reference is
 * the exact answer in any order. A float result y of K-term sums must lie
 * within gamma_K = K u / (1 - K u) (u = 2^-24) of it, relative to the sum of
 * the terms' magnitudes; that bound holds for every summation order (atomics,
 * cuBLAS). Every output is checked on the device, a sample of rows on the CPU.
 *
 * cuBLAS is loaded at run time (dlopen), so the binary starts without it; the
 * reference cases are skipped with the reason when it cannot be loaded.
 */
#include <math.h>
#include <string.h>
#include <cuda_fp16.h>
#include "families/common/common.cuh"
#include "families/common/cublas_dl.h"
#include "families/kernels.h"
#include "families/matvec/matvec_shapes.h"

#define MV_CPU_ROWS 32

struct mv_state {
	int mode;
	int transposed;          /* y = A^T x */
	size_t rows, cols;
	void *A;                 /* float or half */
	void *x;                 /* float or half */
	float *y;
	double *ref, *mag;       /* exact results and sums of |terms| */
	uint32_t seed;
	void *blas;              /* cublasHandle_t */
	const struct gm_device_info *dev;
};

static __host__ __device__ __forceinline__ float mv_val(uint32_t seed, uint64_t i)
{
	return (float)((int)(gm_hash(seed, i) & 255u) - 128) / 128.0f;
}

static __host__ __device__ __forceinline__ uint32_t x_seed(uint32_t seed)
{
	return seed ^ 0x0000beefu;
}

/* ---- y = A x ---- */

__device__ __forceinline__ float warp_sum(float s)
{
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	return s;
}

__global__ void mv_thread_row(const float *__restrict__ A, const float *__restrict__ x, float *y, int rows,
			      int cols)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0;
	for (int j = 0; j < cols; j++)
		s += A[(size_t)r * cols + j] * x[j];
	y[r] = s;
}

__global__ void mv_warp_row(const float *__restrict__ A, const float *__restrict__ x, float *y, int rows,
			    int cols)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (r >= rows)
		return;
	float s = 0;
	for (int j = lane; j < cols; j += 32)
		s += A[(size_t)r * cols + j] * x[j];
	s = warp_sum(s);
	if (lane == 0)
		y[r] = s;
}

__global__ void mv_warp_row_smem(const float *__restrict__ A, const float *__restrict__ x, float *y, int rows,
				 int cols)
{
	__shared__ float xs[MV_SMEM_TILE];
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	float s = 0;

	for (int t = 0; t < cols; t += MV_SMEM_TILE) {
		__syncthreads();
		for (int j = threadIdx.x; j < MV_SMEM_TILE && t + j < cols; j += blockDim.x)
			xs[j] = x[t + j];
		__syncthreads();
		if (r < rows)
			for (int j = lane; j < MV_SMEM_TILE && t + j < cols; j += 32)
				s += A[(size_t)r * cols + t + j] * xs[j];
	}
	s = warp_sum(s);
	if (r < rows && lane == 0)
		y[r] = s;
}

__device__ __forceinline__ float vdot(float4 a, float4 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

__global__ void mv_warp_row_vec4(const float4 *__restrict__ A, const float4 *__restrict__ x, float *y,
				 int rows, int cols4)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (r >= rows)
		return;
	float s = 0;
	for (int j = lane; j < cols4; j += 32)
		s += vdot(A[(size_t)r * cols4 + j], x[j]);
	s = warp_sum(s);
	if (lane == 0)
		y[r] = s;
}

/* 8 halves of A and of x as one 16-byte load each, products summed in float. */
__device__ __forceinline__ float vdot(uint4 a, uint4 b)
{
	const __half2 *ha = (const __half2 *)&a, *hb = (const __half2 *)&b;
	float s = 0;
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float2 fa = __half22float2(ha[k]), fb = __half22float2(hb[k]);
		s += fa.x * fb.x + fa.y * fb.y;
	}
	return s;
}

/*
 * A warp per 4 rows (rows a multiple of 4): 4 independent 16-byte loads per
 * step; V = float4 (float) or uint4 (8 halves), colsv = columns / elements per V.
 */
template <typename V>
__global__ void mv_rows4(const V *__restrict__ A, const V *__restrict__ x, float *y, int rows, int colsv)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 4, lane = threadIdx.x & 31;
	if (r >= rows)
		return;
	float s[4] = { 0, 0, 0, 0 };
	const V *a = A + (size_t)r * colsv;
	for (int j = lane; j < colsv; j += 32) {
		V xv = x[j], v[4];
#pragma unroll
		for (int k = 0; k < 4; k++)
			v[k] = a[(size_t)k * colsv + j];
#pragma unroll
		for (int k = 0; k < 4; k++)
			s[k] += vdot(v[k], xv);
	}
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float t = warp_sum(s[k]);
		if (lane == 0)
			y[r + k] = t;
	}
}

/*
 * v6: as v4 with two steps of the column loop in flight: 8 independent
 * 16-byte loads of A per lane (colsv a multiple of 64).
 */
__global__ void mv_rows4_u2(const float4 *__restrict__ A, const float4 *__restrict__ x, float *y, int rows,
			    int colsv)
{
	int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 4, lane = threadIdx.x & 31;
	if (r >= rows)
		return;
	float s[4] = { 0, 0, 0, 0 };
	const float4 *a = A + (size_t)r * colsv;
	for (int j = lane; j < colsv; j += 64) {
		float4 x0 = x[j], x1 = x[j + 32], v0[4], v1[4];
#pragma unroll
		for (int k = 0; k < 4; k++) {
			v0[k] = a[(size_t)k * colsv + j];
			v1[k] = a[(size_t)k * colsv + j + 32];
		}
#pragma unroll
		for (int k = 0; k < 4; k++)
			s[k] += vdot(v0[k], x0) + vdot(v1[k], x1);
	}
#pragma unroll
	for (int k = 0; k < 4; k++) {
		float t = warp_sum(s[k]);
		if (lane == 0)
			y[r + k] = t;
	}
}

/*
 * v7: a block per 4 rows, swept in memory order: the block's 8 warps read
 * consecutive 512-byte pieces of one row at a time, so the whole GPU walks
 * few DRAM pages at once (as the read stream does), 4 loads in flight per
 * lane; the warps' partial sums meet in shared memory. A resident grid
 * strides over the row groups.
 */
__global__ void __launch_bounds__(MV_BLOCK) mv_block_rows4(const float4 *__restrict__ A,
							   const float4 *__restrict__ x, float *y, int rows,
							   int colsv)
{
	__shared__ float part[MV_BLOCK / 32][4];
	const int t = threadIdx.x, lane = t & 31, warp = t / 32;

	for (int r = blockIdx.x * 4; r < rows; r += gridDim.x * 4) {
		float s[4] = { 0, 0, 0, 0 };
#pragma unroll
		for (int k = 0; k < 4; k++) {
			const float4 *a = A + (size_t)(r + k) * colsv;
#pragma unroll 4
			for (int j = t; j < colsv; j += MV_BLOCK)
				s[k] += vdot(a[j], x[j]);
		}
#pragma unroll
		for (int k = 0; k < 4; k++) {
			float v = warp_sum(s[k]);
			if (lane == 0)
				part[warp][k] = v;
		}
		__syncthreads();
		if (t < 4) {
			float v = 0;
			for (int w = 0; w < MV_BLOCK / 32; w++)
				v += part[w][t];
			y[r + t] = v;
		}
		__syncthreads();
	}
}

/* ---- y = A^T x ---- */

/* A warp per output column: lanes walk down the column, a row apart. */
__global__ void mv_t_warp_col(const float *__restrict__ A, const float *__restrict__ x, float *y, int rows,
			      int cols)
{
	int c = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if (c >= cols)
		return;
	float s = 0;
	for (int i = lane; i < rows; i += 32)
		s += A[(size_t)i * cols + c] * x[i];
	s = warp_sum(s);
	if (lane == 0)
		y[c] = s;
}

/* A thread per column over MV_T_CHUNK rows (grid.y chunks), partial sums added atomically. */
__global__ void mv_t_thread_col(const float *__restrict__ A, const float *__restrict__ x, float *y, int rows,
				int cols)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x, i0 = blockIdx.y * MV_T_CHUNK;
	if (c >= cols)
		return;
	float s = 0;
	for (int i = i0; i < i0 + MV_T_CHUNK && i < rows; i++)
		s += A[(size_t)i * cols + c] * x[i];
	atomicAdd(&y[c], s);
}

__global__ void mv_t_vec4(const float4 *__restrict__ A, const float *__restrict__ x, float *y, int rows,
			  int cols4)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x, i0 = blockIdx.y * MV_T_CHUNK;
	if (c >= cols4)
		return;
	float4 s = make_float4(0, 0, 0, 0);
	for (int i = i0; i < i0 + MV_T_CHUNK && i < rows; i++) {
		float4 a = A[(size_t)i * cols4 + c];
		float xi = x[i];
		s.x += a.x * xi;
		s.y += a.y * xi;
		s.z += a.z * xi;
		s.w += a.w * xi;
	}
	atomicAdd(&y[4 * c], s.x);
	atomicAdd(&y[4 * c + 1], s.y);
	atomicAdd(&y[4 * c + 2], s.z);
	atomicAdd(&y[4 * c + 3], s.w);
}

/* ---- data, reference, check ---- */

__global__ void mv_fill(void *p, size_t n, uint32_t seed, int half)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		float v = mv_val(seed, i);
		if (half)
			((__half *)p)[i] = __float2half_rn(v);
		else
			((float *)p)[i] = v;
	}
}

/* Exact result and sum of |terms| of each output, in double, from the generator. */
__global__ void mv_reference(double *ref, double *mag, size_t rows, size_t cols, int transposed, uint32_t seed)
{
	size_t nout = transposed ? cols : rows, len = transposed ? rows : cols;
	int o = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
	if ((size_t)o >= nout)
		return;
	double s = 0, m = 0;
	for (size_t k = lane; k < len; k += 32) {
		size_t ai = transposed ? k * cols + o : (size_t)o * cols + k;
		double t = (double)mv_val(seed, ai) * mv_val(x_seed(seed), k);
		s += t;
		m += fabs(t);
	}
	for (int d = 16; d > 0; d >>= 1) {
		s += __shfl_xor_sync(0xffffffffu, s, d);
		m += __shfl_xor_sync(0xffffffffu, m, d);
	}
	if (lane == 0) {
		ref[o] = s;
		mag[o] = m;
	}
}

static __host__ __device__ __forceinline__ int mv_close(float got, double want, double mag, size_t terms)
{
	double u = ldexp(1.0, -24), g = terms * u / (1 - terms * u);
	return fabs((double)got - want) <= g * mag;
}

__global__ void mv_check(const float *y, const double *ref, const double *mag, size_t n, size_t terms,
			 struct gm_check *res)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
		if (!mv_close(y[i], ref[i], mag[i], terms)) {
			atomicAdd(&res->bad, 1ull);
			atomicMin(&res->first, (unsigned long long)i);
		}
	}
}

static size_t mv_nout(const struct mv_state *s)
{
	return s->transposed ? s->cols : s->rows;
}

static size_t mv_terms(const struct mv_state *s)
{
	return s->transposed ? s->rows : s->cols;
}

static gm_status mv_launch(void *state)
{
	struct mv_state *s = (struct mv_state *)state;
	cudaStream_t st = gm_stream();
	int R = (int)s->rows, C = (int)s->cols;
	const float one = 1, zero = 0;
	unsigned warps_grid = gm_blocks_for((size_t)mv_nout(s) * 32, MV_BLOCK);
	dim3 tgrid;

	switch (s->mode) {
	case MV_THREAD_ROW:
		mv_thread_row<<<gm_blocks_for(R, MV_BLOCK), MV_BLOCK, 0, st>>>((const float *)s->A,
									      (const float *)s->x, s->y, R, C);
		break;
	case MV_WARP_ROW:
		mv_warp_row<<<warps_grid, MV_BLOCK, 0, st>>>((const float *)s->A, (const float *)s->x, s->y, R, C);
		break;
	case MV_WARP_ROW_SMEM:
		mv_warp_row_smem<<<warps_grid, MV_BLOCK, 0, st>>>((const float *)s->A, (const float *)s->x, s->y, R,
								  C);
		break;
	case MV_WARP_ROW_VEC4:
		mv_warp_row_vec4<<<warps_grid, MV_BLOCK, 0, st>>>((const float4 *)s->A, (const float4 *)s->x, s->y,
								  R, C / 4);
		break;
	case MV_WARP_ROWS4:
		mv_rows4<float4><<<gm_blocks_for((size_t)R * 8, MV_BLOCK), MV_BLOCK, 0, st>>>(
			(const float4 *)s->A, (const float4 *)s->x, s->y, R, C / 4);
		break;
	case MV_WARP_ROWS4_U2:
		mv_rows4_u2<<<gm_blocks_for((size_t)R * 8, MV_BLOCK), MV_BLOCK, 0, st>>>(
			(const float4 *)s->A, (const float4 *)s->x, s->y, R, C / 4);
		break;
	case MV_BLOCK_ROWS4: {
		unsigned groups = (unsigned)(R / 4), g = gm_resident_blocks(s->dev, MV_BLOCK);
		mv_block_rows4<<<groups < g ? groups : g, MV_BLOCK, 0, st>>>((const float4 *)s->A,
									    (const float4 *)s->x, s->y, R, C / 4);
		break;
	}
	case MV_HALF_ROWS4:
		mv_rows4<uint4><<<gm_blocks_for((size_t)R * 8, MV_BLOCK), MV_BLOCK, 0, st>>>(
			(const uint4 *)s->A, (const uint4 *)s->x, s->y, R, C / 8);
		break;
	case MV_T_WARP_COL:
		mv_t_warp_col<<<warps_grid, MV_BLOCK, 0, st>>>((const float *)s->A, (const float *)s->x, s->y, R, C);
		break;
	case MV_T_THREAD_COL:
	case MV_T_VEC4:
		GM_CU(cudaMemsetAsync(s->y, 0, (size_t)C * sizeof(float), st));
		tgrid = dim3(gm_blocks_for(s->mode == MV_T_VEC4 ? C / 4 : C, MV_BLOCK),
			     (unsigned)((R + MV_T_CHUNK - 1) / MV_T_CHUNK));
		if (s->mode == MV_T_VEC4)
			mv_t_vec4<<<tgrid, MV_BLOCK, 0, st>>>((const float4 *)s->A, (const float *)s->x, s->y, R,
							      C / 4);
		else
			mv_t_thread_col<<<tgrid, MV_BLOCK, 0, st>>>((const float *)s->A, (const float *)s->x, s->y,
								    R, C);
		break;
	case MV_CUBLAS:
	case MV_T_CUBLAS: {
		/* row-major A is column-major A^T (C x R, lda C) */
		cublasOperation_t op = s->mode == MV_CUBLAS ? CUBLAS_OP_T : CUBLAS_OP_N;
		cublasStatus_t b = gm_cublas_load(NULL, 0)->sgemv((cublasHandle_t)s->blas, op, C, R, &one,
								   (const float *)s->A, C, (const float *)s->x, 1,
								   &zero, s->y, 1);
		if (b != CUBLAS_STATUS_SUCCESS)
			return gm_fail(GM_ERR_CUDA, "cublasSgemv failed (status %d)", (int)b);
		return GM_OK;
	}
	default:
		return gm_fail(GM_ERR_INVALID_ARG, "matvec: unknown mode %d", s->mode);
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static void mv_release(void *state)
{
	struct mv_state *s = (struct mv_state *)state;

	if (!s)
		return;
	gm_cublas_free(s->blas);
	gm_gpu_free(s->A);
	gm_gpu_free(s->x);
	gm_gpu_free(s->y);
	gm_gpu_free(s->ref);
	gm_gpu_free(s->mag);
	free(s);
}

static gm_status mv_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int mode = (int)gm_case_param(c, "mode", 0);
	(void)cfg;
	if ((mode == MV_CUBLAS || mode == MV_T_CUBLAS) && !gm_cublas_load(why, n))
		return GM_ERR_UNSUPPORTED;
	return GM_OK;
}

static gm_status mv_alloc(struct mv_state *s, int half)
{
	size_t eb = half ? 2 : 4, nx = s->transposed ? s->rows : s->cols;
	gm_status st = gm_gpu_alloc(&s->A, s->rows * s->cols * eb);

	if (!st)
		st = gm_gpu_alloc(&s->x, nx * eb);
	if (!st)
		st = gm_gpu_alloc((void **)&s->y, mv_nout(s) * sizeof(float));
	if (!st)
		st = gm_gpu_alloc((void **)&s->ref, mv_nout(s) * sizeof(double));
	if (!st)
		st = gm_gpu_alloc((void **)&s->mag, mv_nout(s) * sizeof(double));
	if (st)
		return st;
	unsigned g = gm_resident_blocks(s->dev, 256);
	mv_fill<<<g, 256, 0, gm_stream()>>>(s->A, s->rows * s->cols, s->seed, half);
	mv_fill<<<g, 256, 0, gm_stream()>>>(s->x, nx, x_seed(s->seed), half);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status mv_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct mv_state *s = (struct mv_state *)calloc(1, sizeof(*s));
	int half;
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->rows = (size_t)gm_case_param(c, "rows", MV_ROWS);
	s->cols = (size_t)gm_case_param(c, "cols", MV_COLS);
	s->transposed = s->mode >= MV_T_WARP_COL && s->mode <= MV_T_CUBLAS;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	half = s->mode == MV_HALF_ROWS4;
	st = mv_alloc(s, half);
	if (!st && (s->mode == MV_CUBLAS || s->mode == MV_T_CUBLAS))
		st = gm_cublas_handle(&s->blas);
	if (st) {
		mv_release(s);
		return st;
	}
	double eb = half ? 2 : 4, nx = (double)(s->transposed ? s->rows : s->cols);
	t->bytes_useful = t->bytes_hw = eb * s->rows * s->cols + eb * nx + 4.0 * mv_nout(s);
	t->ops = 2.0 * s->rows * s->cols;
	t->working_set = (int64_t)t->bytes_useful;
	*state = s;
	return GM_OK;
}

/* The CPU recomputes MV_CPU_ROWS outputs exactly and checks the device's reference and result. */
static gm_status mv_cpu_check(struct mv_state *s, char *why, size_t n)
{
	size_t nout = mv_nout(s), len = mv_terms(s);
	gm_status st = GM_OK;

	for (int k = 0; k < MV_CPU_ROWS && !st; k++) {
		size_t o = k == 0 ? nout - 1 : gm_hash(s->seed ^ 0xc0ffeeu, k) % nout;
		double want = 0, mag = 0, ref;
		float got;
		for (size_t j = 0; j < len; j++) {
			size_t ai = s->transposed ? j * s->cols + o : o * s->cols + j;
			double t = (double)mv_val(s->seed, ai) * mv_val(x_seed(s->seed), j);
			want += t;
			mag += fabs(t);
		}
		GM_CU(cudaMemcpy(&ref, s->ref + o, sizeof(ref), cudaMemcpyDeviceToHost));
		GM_CU(cudaMemcpy(&got, s->y + o, sizeof(got), cudaMemcpyDeviceToHost));
		if (ref != want) {
			snprintf(why, n, "cpu check: reference of output %zu is %.17g, expected %.17g", o, ref, want);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		} else if (!mv_close(got, want, mag, len)) {
			snprintf(why, n, "cpu check: output %zu is %.9g, expected %.17g (bound %.3g)", o, got, want,
				 mag * len * ldexp(1.0, -24));
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	return st;
}

static gm_status mv_verify(void *state, char *why, size_t n)
{
	struct mv_state *s = (struct mv_state *)state;
	size_t nout = mv_nout(s);
	struct gm_check *res;
	int ok = 1;
	gm_status st = gm_poison(s->y, nout * sizeof(float));

	if (!st)
		st = mv_launch(s);
	if (st)
		return st;
	mv_reference<<<gm_blocks_for(nout * 32, 256), 256, 0, gm_stream()>>>(s->ref, s->mag, s->rows, s->cols,
									     s->transposed, s->seed);
	GM_CU_LAUNCH();
	st = gm_check_alloc(&res);
	if (st)
		return st;
	mv_check<<<gm_resident_blocks(s->dev, 256), 256, 0, gm_stream()>>>(s->y, s->ref, s->mag, nout,
									   mv_terms(s), res);
	st = gm_check_finish(res, (const uint32_t *)s->y, why, n, &ok);
	if (!st && !ok)
		return gm_fail(GM_ERR_VALIDATION, "%s (outside the gamma_K bound)", why);
	return st ? st : mv_cpu_check(s, why, n);
}

static const struct gm_family_ops mv_ops = { mv_prepare, mv_launch, mv_verify, mv_release, mv_supported };

extern "C" const struct gm_family_ops *gm_matvec_ops(void)
{
	return &mv_ops;
}
