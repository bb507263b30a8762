/*
 * atomics.cu - reductions with atomics (gpumem run atomics).
 *
 * Versions (2^24 elements, uint32 or float):
 *   v0 one     every thread atomicAdd(&sum, x): all on one address; the L2
 *              serialises them (the compiler may aggregate a warp's adds to a
 *              uniform address into one: that is part of what is measured).
 *   v1 spread  atomicAdd(&bins[i % 4096], x): 4096 addresses, contention per
 *              address drops, every element is still one L2 atomic.
 *   v2 block   warp shuffle reduction, one shared-memory atomic per warp, one
 *              global atomic per block (grid-stride, resident blocks).
 *   v3 lanes   atomicAdd(&bins[(i / r) % B], x): r lanes of a warp on each
 *              address (r = 1 .. 32), B bins; B = 2^20 keeps every warp on
 *              its own addresses, a small B puts all warps on few (the
 *              device constant of the trace's atomics: gpumem run atomics.u32_lanes).
 * Input: uint32 words gm_hash(seed, i) (sums wrap mod 2^32, exact); float
 * values (gm_hash & 1) in {0, 1}, so every partial sum <= 2^24 is exact in
 * float and the order of the atomics cannot change the result. The launch
 * clears the sum (a 16 KiB memset, part of the time) then reduces.
 * Validation: the sum (or every bin) against a CPU sum of the closed form.
 */
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"

#define AT_BLOCK_THREADS 256

template <typename T> __device__ __forceinline__ T at_val(const uint32_t *in, size_t i);
template <> __device__ __forceinline__ uint32_t at_val<uint32_t>(const uint32_t *in, size_t i) { return in[i]; }
template <> __device__ __forceinline__ float at_val<float>(const uint32_t *in, size_t i)
{
	return (float)(in[i] & 1u);
}

template <typename T> __global__ void at_one(const uint32_t *__restrict__ in, size_t n, T *sum)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(sum, at_val<T>(in, i));
}

template <typename T> __global__ void at_spread(const uint32_t *__restrict__ in, size_t n, T *bins)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(&bins[i % AT_BINS], at_val<T>(in, i));
}

template <typename T> __global__ void at_lanes(const uint32_t *__restrict__ in, size_t n, T *bins, unsigned r,
					       unsigned nbins)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)   /* r and nbins are run-time values: the compiler cannot see lanes on one address */
		atomicAdd(&bins[(i / r) % nbins], at_val<T>(in, i));
}

template <typename T> __global__ void at_block(const uint32_t *__restrict__ in, size_t n, T *sum)
{
	__shared__ T block_sum;
	T v = 0;
	size_t stride = (size_t)gridDim.x * blockDim.x;

	if (threadIdx.x == 0)
		block_sum = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		v += at_val<T>(in, i);
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	__syncthreads();
	if ((threadIdx.x & 31) == 0)
		atomicAdd(&block_sum, v);
	__syncthreads();
	if (threadIdx.x == 0)
		atomicAdd(sum, block_sum);
}

struct at_state {
	int mode, is_float;
	unsigned r, nbins;   /* lanes: r lanes an address, nbins bins */
	size_t n;
	uint32_t *in;
	void *out;           /* one value or AT_BINS bins */
	uint32_t seed;
	const struct gm_device_info *dev;
};

static size_t out_count(const struct at_state *s)
{
	return s->mode == AT_SPREAD ? AT_BINS : s->mode == AT_LANES ? s->nbins : 1;
}

static size_t out_bytes(const struct at_state *s) { return out_count(s) * 4; }

/* the bin of element i */
static size_t out_bin(const struct at_state *s, size_t i)
{
	return s->mode == AT_LANES ? (i / s->r) % s->nbins : i % out_count(s);
}

static void at_release(void *state)
{
	struct at_state *s = (struct at_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

static gm_status at_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct at_state *s = (struct at_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", AT_ONE);
	s->is_float = (int)gm_case_param(c, "float", 0);
	s->n = (size_t)gm_case_param(c, "elems", AT_ELEMS);
	s->r = (unsigned)gm_case_param(c, "r", 1);
	s->nbins = (unsigned)gm_case_param(c, "bins", AT_LANES_BINS);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gm_gpu_alloc((void **)&s->in, s->n * 4);
	if (!st)
		st = gm_gpu_alloc(&s->out, out_bytes(s));
	if (!st)
		st = gm_fill_random(s->in, s->n, s->seed);
	if (st) {
		at_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->n * 4;
	t->ops = (double)s->n;
	t->working_set = (int64_t)(s->n * 4);
	*state = s;
	return GM_OK;
}

template <typename T> static gm_status at_run(struct at_state *s)
{
	T *out = (T *)s->out;
	cudaStream_t st = gm_stream();

	GM_CU(cudaMemsetAsync(s->out, 0, out_bytes(s), st));
	if (s->mode == AT_ONE)
		at_one<T><<<gm_blocks_for(s->n, AT_BLOCK_THREADS), AT_BLOCK_THREADS, 0, st>>>(s->in, s->n, out);
	else if (s->mode == AT_SPREAD)
		at_spread<T><<<gm_blocks_for(s->n, AT_BLOCK_THREADS), AT_BLOCK_THREADS, 0, st>>>(s->in, s->n, out);
	else if (s->mode == AT_LANES)
		at_lanes<T><<<gm_blocks_for(s->n, AT_BLOCK_THREADS), AT_BLOCK_THREADS, 0, st>>>(s->in, s->n, out, s->r,
												   s->nbins);
	else
		at_block<T><<<gm_resident_blocks(s->dev, AT_BLOCK_THREADS), AT_BLOCK_THREADS, 0, st>>>(s->in, s->n,
												   out);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status at_launch(void *state)
{
	struct at_state *s = (struct at_state *)state;

	return s->is_float ? at_run<float>(s) : at_run<uint32_t>(s);
}

static gm_status at_verify(void *state, char *why, size_t n)
{
	struct at_state *s = (struct at_state *)state;
	size_t nb = out_count(s);
	uint32_t *got = (uint32_t *)malloc(nb * 4), *want = (uint32_t *)calloc(nb, 4);
	double *wantf = (double *)calloc(nb, sizeof(double));
	gm_status st = got && want && wantf ? GM_OK : GM_ERR_NOMEM;

	if (!st)
		st = gm_poison(s->out, out_bytes(s));
	if (!st)
		st = at_launch(s);
	/* the launch is on the harness stream, which does not order with cudaMemcpy's */
	cudaError_t e = cudaSuccess;
	if (!st && (e = cudaStreamSynchronize(gm_stream())) != cudaSuccess)
		st = gm_cuda_status(e, "cudaStreamSynchronize(validation launch)", __FILE__, __LINE__);
	if (!st && (e = cudaMemcpy(got, s->out, nb * 4, cudaMemcpyDeviceToHost)) != cudaSuccess)
		st = gm_cuda_status(e, "cudaMemcpy(result)", __FILE__, __LINE__);
	for (size_t i = 0; !st && i < s->n; i++) {
		uint32_t x = gm_hash(s->seed, i);
		want[out_bin(s, i)] += x;
		wantf[out_bin(s, i)] += (double)(x & 1u);
	}
	for (size_t b = 0; !st && b < nb; b++) {
		float gf;
		memcpy(&gf, &got[b], 4);
		int bad = s->is_float ? (double)gf != wantf[b] : got[b] != want[b];
		if (bad) {
			if (s->is_float)
				snprintf(why, n, "sum %zu is %.1f, expected %.1f", b, (double)gf, wantf[b]);
			else
				snprintf(why, n, "sum %zu is %u, expected %u", b, got[b], want[b]);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	free(got);
	free(want);
	free(wantf);
	return st;
}

static const struct gm_family_ops at_ops = { at_prepare, at_launch, at_verify, at_release };

extern "C" const struct gm_family_ops *gm_atomics_ops(void)
{
	return &at_ops;
}
