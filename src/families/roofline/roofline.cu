/*
 * roofline.cu - kernels of the roofline family (cases: src/families/roofline/cases.c).
 *
 * Ceilings (v0..v3): every thread of a resident grid runs ROOF_CHAINS
 * independent chains x <- fma(x, a, c) for ROOF_ITERS iterations in FP32,
 * FP64, FP16 pairs or BF16 pairs. a = -1 and c = 3 arrive as kernel
 * arguments, so the compiler cannot fold the chain, and the values stay
 * small integers: two steps give x back exactly (x -> 3 - x -> x), so after
 * an even number of steps each thread's sum of chains is known in closed
 * form and every thread's output is checked.
 *
 * The pairs' a and c arrive as two whole 32-bit pairs (their bits), not as
 * floats converted on the device: from a float the compiler knows both
 * halves are equal and packs a and c into one register read with the
 * .H0_H0 / .H1_H1 swizzles, a form only the FMA pipe's HFMA2 takes. On
 * sm_90 that pipe does half of the SM's paired-FMA rate; the other half is
 * HFMA2.MMA on the MMA pipe, which ptxas interleaves only when the operands
 * are plain registers (src/families/roofline/README.md, SASS in the results).
 *
 * Intensity sweep: out[i] = k steps of the same chain on each float of
 * in[i] (float4 per thread, one element per thread): 8 bytes and 2k flops
 * per float. Inputs are small integers, so odd k gives 3 - x, even k gives x.
 */
#include <string.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/roofline/roofline_shapes.h"

struct roof_state {
	int type;            /* enum roof_type; sweep cases are FP32 with k > 0 */
	int k;               /* FMAs per float in the sweep; 0 for a ceiling */
	unsigned grid;
	size_t n4;           /* sweep: float4 elements per array */
	float *in, *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static __host__ __device__ __forceinline__ uint32_t f2u(float f)
{
#ifdef __CUDA_ARCH__
	return __float_as_uint(f);
#else
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
#endif
}

/*
 * One FMA chain step and the fold to float, per arithmetic type. arg is the
 * type a and c travel in as kernel arguments (the pairs: their 32 bits).
 */
template <typename T> struct roof_arith;

template <> struct roof_arith<float> {
	typedef float arg;
	static __device__ float make(float x) { return x; }
	static __device__ float from_arg(arg x) { return x; }
	static __host__ arg to_arg(float x) { return x; }
	static __device__ float fma(float x, float a, float c) { return fmaf(x, a, c); }
	static __device__ float fold(float x) { return x; }
};

template <> struct roof_arith<double> {
	typedef float arg;
	static __device__ double make(float x) { return x; }
	static __device__ double from_arg(arg x) { return x; }
	static __host__ arg to_arg(float x) { return x; }
	static __device__ double fma(double x, double a, double c) { return ::fma(x, a, c); }
	static __device__ float fold(double x) { return (float)x; }
};

template <> struct roof_arith<__half2> {
	typedef uint32_t arg;
	static __device__ __half2 make(float x) { return __float2half2_rn(x); }
	static __device__ __half2 from_arg(arg x)
	{
		__half2_raw r;
		r.x = (unsigned short)(x & 0xffffu);
		r.y = (unsigned short)(x >> 16);
		return __half2(r);
	}
	static __host__ arg to_arg(float x)
	{
		__half_raw h = __half(__float2half_rn(x));
		return (uint32_t)h.x * 0x10001u;
	}
	static __device__ __half2 fma(__half2 x, __half2 a, __half2 c) { return __hfma2(x, a, c); }
	static __device__ float fold(__half2 x) { return __low2float(x) + __high2float(x); }
};

template <> struct roof_arith<__nv_bfloat162> {
	typedef uint32_t arg;
	static __device__ __nv_bfloat162 make(float x) { return __float2bfloat162_rn(x); }
	static __device__ __nv_bfloat162 from_arg(arg x)
	{
		__nv_bfloat162_raw r;
		r.x = (unsigned short)(x & 0xffffu);
		r.y = (unsigned short)(x >> 16);
		return __nv_bfloat162(r);
	}
	static __host__ arg to_arg(float x)
	{
		__nv_bfloat16_raw h = __nv_bfloat16(__float2bfloat16_rn(x));
		return (uint32_t)h.x * 0x10001u;
	}
	static __device__ __nv_bfloat162 fma(__nv_bfloat162 x, __nv_bfloat162 a, __nv_bfloat162 c)
	{
		return __hfma2(x, a, c);
	}
	static __device__ float fold(__nv_bfloat162 x) { return __low2float(x) + __high2float(x); }
};

static constexpr int roof_unroll = ROOF_UNROLL; /* #pragma unroll expands no macro */

template <typename T>
__global__ void __launch_bounds__(ROOF_BLOCK)
	roof_fma(float *out, int iters, typename roof_arith<T>::arg fa, typename roof_arith<T>::arg fc)
{
	typedef roof_arith<T> A;
	const size_t gid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	const T a = A::from_arg(fa), c = A::from_arg(fc);
	T x[ROOF_CHAINS];

#pragma unroll
	for (int j = 0; j < ROOF_CHAINS; j++)
		x[j] = A::make((float)((gid + j) & 7));
#pragma unroll roof_unroll
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int j = 0; j < ROOF_CHAINS; j++)
			x[j] = A::fma(x[j], a, c);
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < ROOF_CHAINS; j++)
		s += A::fold(x[j]);
	out[gid] = s;
}

template <typename T> static void roof_fma_launch(const struct roof_state *s, cudaStream_t st)
{
	typedef roof_arith<T> A;
	roof_fma<T><<<s->grid, ROOF_BLOCK, 0, st>>>(s->out, ROOF_ITERS, A::to_arg(-1.0f), A::to_arg(3.0f));
}

/* Expected output of thread w after an even number of steps: its chains' starting values. */
struct fma_expect {
	int pairs;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		float s = 0;
		for (int j = 0; j < ROOF_CHAINS; j++)
			s += (float)((w + j) & 7);
		return f2u(pairs ? 2 * s : s);
	}
};

__global__ void roof_sweep(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4, int k,
			   float a, float c)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i >= n4)
		return;
	float4 v = in[i];
	for (int j = 0; j < k; j++) {
		v.x = fmaf(v.x, a, c);
		v.y = fmaf(v.y, a, c);
		v.z = fmaf(v.z, a, c);
		v.w = fmaf(v.w, a, c);
	}
	out[i] = v;
}

static __host__ __device__ __forceinline__ float sweep_input(uint32_t seed, size_t w)
{
	return (float)(gm_hash(seed, w) & 1023u);
}

__global__ void roof_fill(float *p, size_t nwords, uint32_t seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < nwords; w += stride)
		p[w] = sweep_input(seed, w);
}

struct sweep_expect {
	uint32_t seed;
	int k;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		float x = sweep_input(seed, w);
		return f2u(k & 1 ? 3.0f - x : x);
	}
};

static gm_status roof_launch(void *state)
{
	struct roof_state *s = (struct roof_state *)state;
	cudaStream_t st = gm_stream();

	if (s->k > 0)
		roof_sweep<<<gm_blocks_for(s->n4, ROOF_BLOCK), ROOF_BLOCK, 0, st>>>(
			(const float4 *)s->in, (float4 *)s->out, s->n4, s->k, -1.0f, 3.0f);
	else if (s->type == ROOF_FP32)
		roof_fma_launch<float>(s, st);
	else if (s->type == ROOF_FP64)
		roof_fma_launch<double>(s, st);
	else if (s->type == ROOF_FP16)
		roof_fma_launch<__half2>(s, st);
	else
		roof_fma_launch<__nv_bfloat162>(s, st);
	GM_CU_LAUNCH();
	return GM_OK;
}

static void roof_release(void *state)
{
	struct roof_state *s = (struct roof_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

static gm_status roof_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct roof_state *s = (struct roof_state *)calloc(1, sizeof(*s));
	gm_status st;

	*state = NULL;
	if (!s)
		return GM_ERR_NOMEM;
	s->type = (int)gm_case_param(c, "type", ROOF_FP32);
	s->k = (int)gm_case_param(c, "fma_per_elem", 0);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->grid = gm_resident_blocks(cfg->dev, ROOF_BLOCK);
	if (s->k > 0) {
		size_t bytes = (size_t)ROOF_SWEEP_MIB << 20;
		s->n4 = bytes / 16;
		st = gm_gpu_alloc((void **)&s->in, bytes);
		if (!st)
			st = gm_gpu_alloc((void **)&s->out, bytes);
		if (!st) {
			roof_fill<<<gm_resident_blocks(cfg->dev, 256), 256, 0, gm_stream()>>>(s->in, bytes / 4,
											 s->seed);
			cudaError_t e = cudaGetLastError();
			st = e == cudaSuccess ? GM_OK : gm_cuda_status(e, "roofline fill", __FILE__, __LINE__);
		}
		t->bytes_useful = t->bytes_hw = 2.0 * bytes;
		t->ops = 2.0 * s->k * (bytes / 4);
		t->working_set = (int64_t)(2 * bytes);
	} else {
		size_t threads = (size_t)s->grid * ROOF_BLOCK;
		st = gm_gpu_alloc((void **)&s->out, threads * sizeof(float));
		t->ops = (double)threads * ROOF_ITERS * ROOF_CHAINS * (s->type >= ROOF_FP16 ? 4 : 2);
		t->working_set = (int64_t)(threads * sizeof(float));
	}
	if (st) {
		roof_release(s);
		return st;
	}
	*state = s;
	return GM_OK;
}

static gm_status roof_verify(void *state, char *why, size_t n)
{
	struct roof_state *s = (struct roof_state *)state;
	size_t nwords = s->k > 0 ? s->n4 * 4 : (size_t)s->grid * ROOF_BLOCK;
	gm_status st = gm_poison(s->out, nwords * 4);

	if (!st)
		st = roof_launch(s);
	if (st)
		return st;
	if (s->k > 0) {
		sweep_expect e = { s->seed, s->k };
		return gm_validate((const uint32_t *)s->out, nwords, e, s->seed, s->dev, why, n);
	}
	fma_expect e = { s->type >= ROOF_FP16 };
	return gm_validate((const uint32_t *)s->out, nwords, e, s->seed, s->dev, why, n);
}

static const struct gm_family_ops roof_ops = { roof_prepare, roof_launch, roof_verify, roof_release };

extern "C" const struct gm_family_ops *gm_roofline_ops(void)
{
	return &roof_ops;
}
