/*
 * common.cuh - what every kernel family shares: the random-input hash, input
 * fill, output poison, launch geometry and the validation machinery.
 *
 * Data convention: every buffer is an array of 32-bit words. Input word w of a
 * case holds gm_hash(seed, w) (random bits, a new seed each run). A kernel that
 * moves elements of E bytes moves E/4 words each; so an output element d
 * that should hold input element s must hold words gm_hash(seed, s*E/4 + k).
 * A Map functor (callable on host and device) gives s for each d, or -1
 * where the output must stay poisoned; gm_gather turns it into the expected
 * word. Validation checks EVERY output word on the device against that
 * closed form, then re-checks a random sample of words on the CPU with the
 * same functor, so a broken device checker cannot pass a wrong kernel.
 */
#ifndef GPUMEM_KERNELS_COMMON_CUH
#define GPUMEM_KERNELS_COMMON_CUH

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "gpumem/bench.h"
#include "gpu/gpu_internal.h"

#define GM_POISON_BYTE 0xA5
#define GM_POISON_WORD 0xA5A5A5A5u
#define GM_CPU_SAMPLES 4096

/* splitmix64 finaliser folded to 32 bits: random-looking, cheap, exact on host and device. */
__host__ __device__ __forceinline__ uint32_t gm_hash(uint32_t seed, uint64_t i)
{
	uint64_t z = i + 0x9E3779B97F4A7C15ull * (uint64_t)(seed | 1u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (uint32_t)(z ^ (z >> 31));
}

static inline cudaStream_t gm_stream(void)
{
	return (cudaStream_t)gm_gpu_stream();
}

/* Blocks for a grid-stride kernel: enough resident threads to fill the GPU. */
static inline unsigned gm_resident_blocks(const struct gm_device_info *d, int block)
{
	int per_sm = d->max_threads_per_sm > 0 ? d->max_threads_per_sm / block : 8;
	return (unsigned)(d->sm_count * (per_sm > 0 ? per_sm : 1));
}

static inline unsigned gm_blocks_for(size_t n, int block)
{
	return (unsigned)((n + (size_t)block - 1) / (size_t)block);
}

__global__ void gm_fill_kernel(uint32_t *p, size_t nwords, uint32_t seed);

/* Fill nwords of p with gm_hash(seed, w). */
gm_status gm_fill_random(uint32_t *p, size_t nwords, uint32_t seed);

/* Poison bytes of p (before the validation launch). */
gm_status gm_poison(void *p, size_t bytes);

/* Result of a device-wide check. */
struct gm_check {
	unsigned long long bad;      /* mismatching words */
	unsigned long long first;    /* first mismatching word index */
};

/*
 * Expected word of an output that gathers input elements: output element d
 * holds input element map(d) (or stays poisoned where map(d) < 0).
 */
template <class Map>
struct gm_gather {
	Map map;
	int wpe;        /* 32-bit words per element: E / 4 */
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		long long s = map(w / wpe);
		return s < 0 ? GM_POISON_WORD : gm_hash(seed, (uint64_t)s * wpe + w % wpe);
	}
};

/* The map of a plain copy: output element d holds input element d. */
struct gm_identity_map {
	__host__ __device__ long long operator()(size_t d) const { return (long long)d; }
};

template <class Map>
static inline gm_gather<Map> gm_make_gather(Map m, int wpe, uint32_t seed)
{
	gm_gather<Map> g = { m, wpe, seed };
	return g;
}

template <class Expect>
__global__ void gm_check_kernel(const uint32_t *out, size_t nwords, Expect want, struct gm_check *res)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < nwords; w += stride) {
		if (out[w] != want(w)) {
			atomicAdd(&res->bad, 1ull);
			atomicMin(&res->first, (unsigned long long)w);
		}
	}
}

gm_status gm_check_alloc(struct gm_check **dev_res);

/* A cudaMallocAsync pool of device memory on the current device, keeping up to release_threshold bytes. */
gm_status gm_pool_create(cudaMemPool_t *pool, uint64_t release_threshold);
gm_status gm_check_finish(struct gm_check *dev_res, const uint32_t *out, char *why, size_t n, int *ok);

__global__ void gm_gather_words(const uint32_t *out, const size_t *idx, uint32_t *got, int n);

/* CPU re-check of GM_CPU_SAMPLES random output words (and the last one). */
template <class Expect>
gm_status gm_check_sample(const uint32_t *out, size_t nwords, Expect want, uint32_t seed,
			  char *why, size_t n, int *ok)
{
	static size_t idx[GM_CPU_SAMPLES];
	static uint32_t got[GM_CPU_SAMPLES];
	void *d_idx = NULL, *d_got = NULL;
	cudaError_t e;

	for (int i = 0; i < GM_CPU_SAMPLES; i++)
		idx[i] = i == 0 ? nwords - 1 : gm_hash(seed ^ 0x5eedu, i) % nwords;
	e = cudaMalloc(&d_idx, sizeof(idx));
	if (e == cudaSuccess)
		e = cudaMalloc(&d_got, sizeof(got));
	if (e == cudaSuccess)
		e = cudaMemcpy(d_idx, idx, sizeof(idx), cudaMemcpyHostToDevice);
	if (e == cudaSuccess) {
		gm_gather_words<<<GM_CPU_SAMPLES / 256, 256>>>(out, (const size_t *)d_idx, (uint32_t *)d_got,
							       GM_CPU_SAMPLES);
		e = cudaGetLastError();
	}
	if (e == cudaSuccess)
		e = cudaMemcpy(got, d_got, sizeof(got), cudaMemcpyDeviceToHost);
	gm_gpu_free(d_idx);
	gm_gpu_free(d_got);
	if (e != cudaSuccess)
		return gm_cuda_status(e, "cpu sample check", __FILE__, __LINE__);
	for (int i = 0; i < GM_CPU_SAMPLES && *ok; i++) {
		if (got[i] != want(idx[i])) {
			snprintf(why, n, "cpu check: word %zu is 0x%08x, expected 0x%08x", idx[i], got[i],
				 want(idx[i]));
			*ok = 0;
		}
	}
	return GM_OK;
}

/*
 * Check every output word on the device against want(w), then a random
 * sample on the CPU. GM_ERR_VALIDATION with `why` filled when anything is
 * wrong. Called after the validation launch (stream-ordered).
 */
template <class Expect>
gm_status gm_validate(const uint32_t *out, size_t nwords, Expect want, uint32_t seed,
		      const struct gm_device_info *dev, char *why, size_t n)
{
	struct gm_check *res;
	int ok = 1;
	gm_status s = gm_check_alloc(&res);
	if (s)
		return s;
	gm_check_kernel<<<gm_resident_blocks(dev, 256), 256, 0, gm_stream()>>>(out, nwords, want, res);
	s = gm_check_finish(res, out, why, n, &ok);
	if (!s && ok)
		s = gm_check_sample(out, nwords, want, seed, why, n, &ok);
	if (!s && !ok)
		s = gm_fail(GM_ERR_VALIDATION, "%s", why);
	return s;
}

#endif
