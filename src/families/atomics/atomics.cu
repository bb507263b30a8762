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
#include "gpumem/parallel.h"

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

/*
 * The CPU reference on every core: element i goes to bin (i / r) % nb (r = 1 but for lanes), so the elements
 * are runs of r on one bin, run g on bin g % nb: a grid of cycles (nb runs each) by bins. Each item sums a block
 * of it: a range of bins (of 64 ranges) when there are many bins, else also a range of cycles, into its own
 * row of partial sums; the rows are added after. Sums wrap mod 2^32 and the float sums count ones exactly, so
 * the order changes nothing.
 */
#define AT_REF_ITEMS 64
struct at_ref {
	const struct at_state *s;
	size_t r, nb, ncycles, nbparts, ncparts;
	uint32_t *sum;   /* ncparts rows of nb */
	double *ones;
};

static void at_ref_item(void *arg, void *state, int k)
{
	struct at_ref *a = (struct at_ref *)arg;
	size_t bp = (size_t)k % a->nbparts, cp = (size_t)k / a->nbparts;
	size_t b0 = a->nb * bp / a->nbparts, b1 = a->nb * (bp + 1) / a->nbparts;
	size_t c0 = a->ncycles * cp / a->ncparts, c1 = a->ncycles * (cp + 1) / a->ncparts;
	uint32_t *sum = a->sum + cp * a->nb;
	double *ones = a->ones + cp * a->nb;

	(void)state;
	/* bin by bin, its sum in registers: the rows of a few bins share cache lines between threads */
	for (size_t b = b0; b < b1; b++) {
		uint32_t x = 0;
		uint64_t n1 = 0;
		for (size_t c = c0; c < c1; c++)
			for (size_t i = (c * a->nb + b) * a->r, e = i + a->r; i < e && i < a->s->n; i++) {
				uint32_t h = gm_hash(a->s->seed, i);
				x += h;
				n1 += h & 1u;
			}
		sum[b] = x;
		ones[b] = (double)n1;
	}
}

/* want[b] and wantf[b] for every bin (nb of them), from the closed form; GM_ERR_NOMEM without the rows */
static gm_status at_reference(const struct at_state *s, uint32_t *want, double *wantf)
{
	struct at_ref a;

	a.s = s;
	a.r = s->mode == AT_LANES ? s->r : 1;
	a.nb = out_count(s);
	a.ncycles = ((s->n + a.r - 1) / a.r + a.nb - 1) / a.nb;
	a.nbparts = a.nb < AT_REF_ITEMS ? a.nb : AT_REF_ITEMS;
	a.ncparts = AT_REF_ITEMS / a.nbparts;
	a.sum = (uint32_t *)calloc(a.ncparts * a.nb, 4);
	a.ones = (double *)calloc(a.ncparts * a.nb, sizeof(double));
	if (!a.sum || !a.ones) {
		free(a.sum);
		free(a.ones);
		return GM_ERR_NOMEM;
	}
	gm_parallel_for((int)(a.nbparts * a.ncparts), gm_cores(), NULL, NULL, at_ref_item, &a);
	for (size_t p = 0; p < a.ncparts; p++)
		for (size_t b = 0; b < a.nb; b++) {
			want[b] += a.sum[p * a.nb + b];
			wantf[b] += a.ones[p * a.nb + b];
		}
	free(a.sum);
	free(a.ones);
	return GM_OK;
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
	if (!st)
		st = at_reference(s, want, wantf);
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
