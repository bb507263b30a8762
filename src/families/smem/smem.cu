/*
 * smem.cu - shared-memory bandwidth and latency (gpumem run smem).
 *
 * Versions:
 *   v0 bw_ld128  each block (1024 threads, 2 per SM) copies 32 KiB of random
 *                words into shared memory, then every thread reads 16 B slots
 *                (tid + k*1024) mod n with ld.shared.v4 (asm volatile: never
 *                merged), 4 in flight: a warp's LDS.128 covers 512 consecutive
 *                bytes, 4 wavefronts, no conflict. Sums are checked against the
 *                closed form {m mod n : m < 1024 c} on the CPU.
 *   v1 bw_ld64, v2 bw_ld32  the same with 8 B and 4 B loads (2 and 1 wavefronts).
 *   latency      one thread chases a random cycle (Sattolo) of 1024 shared
 *                words holding shared addresses: ld.shared.u32 r, [r].
 * Thread 0 of block 0 records clock64/%globaltimer: the SM clock under load.
 */
#include <string.h>
#include "families/common/common.cuh"
#include "gpumem/result.h"
#include "families/common/hier_common.cuh"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

#define SMEM_LOADS 8192          /* per thread per launch (bandwidth) */
#define SMEM_LAT_STEPS 16384

struct smem_state {
	int mode, eb;
	unsigned grid;
	uint32_t *in, *sums;
	struct hier_clock *clk;
	uint32_t *perm_d;            /* latency: next index of each slot */
	unsigned long long *lat_d;   /* latency: cycles, ns, final index */
	uint32_t *perm;
	uint32_t seed;
	const struct gm_device_info *dev;
};

template <int EB> struct lds;
template <> struct lds<16> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t x, y, z, w;
		asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a));
		return x + y + z + w;
	}
};
template <> struct lds<8> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t x, y;
		asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
		return x + y;
	}
};
template <> struct lds<4> {
	static __device__ __forceinline__ uint32_t ld(uint32_t a)
	{
		uint32_t x;
		asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));
		return x;
	}
};

template <int EB>
__global__ void __launch_bounds__(SMEM_BLOCK, 2)
smem_bw(const uint32_t *in, uint32_t *sums, struct hier_clock *clk)
{
	__shared__ uint4 tile[SMEM_BYTES_PER_BLOCK / 16];
	const uint32_t n = SMEM_BYTES_PER_BLOCK / EB;
	const uint32_t *src = in + (size_t)blockIdx.x * (SMEM_BYTES_PER_BLOCK / 4);
	uint32_t base = (uint32_t)__cvta_generic_to_shared(tile), pos = threadIdx.x % n;
	uint32_t acc[4] = { 0 };
	const bool timer = blockIdx.x == 0 && threadIdx.x == 0;

	if (timer) {
		clk->t0 = hier_globaltimer();
		clk->c0 = hier_clock64();
	}
	for (uint32_t w = threadIdx.x; w < SMEM_BYTES_PER_BLOCK / 4; w += blockDim.x)
		((uint32_t *)tile)[w] = src[w];
	__syncthreads();
	for (int j = 0; j < SMEM_LOADS; j += 4) {
#pragma unroll
		for (int u = 0; u < 4; u++) {
			acc[u] += lds<EB>::ld(base + pos * EB);
			pos += SMEM_BLOCK % n;
			pos = pos >= n ? pos - n : pos;
		}
	}
	sums[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
	if (timer) {
		clk->c1 = hier_clock64();
		clk->t1 = hier_globaltimer();
	}
}

__global__ void smem_lat(const uint32_t *perm, unsigned steps, unsigned long long *out)
{
	__shared__ uint32_t s[SMEM_LAT_SLOTS];
	uint32_t base = (uint32_t)__cvta_generic_to_shared(s), a;
	unsigned long long c0, c1, t0, t1;

	for (int i = threadIdx.x; i < SMEM_LAT_SLOTS; i += blockDim.x)
		s[i] = base + 4 * perm[i];
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	a = base;
	for (int i = 0; i < SMEM_LAT_SLOTS; i++)   /* warm */
		asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
	t0 = hier_globaltimer();
	c0 = hier_clock64();
#pragma unroll 8
	for (unsigned i = 0; i < steps; i++)
		asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
	out[2] = (a - base) / 4;    /* waits for the last load */
	c1 = hier_clock64();
	t1 = hier_globaltimer();
	out[0] = c1 - c0;
	out[1] = t1 - t0;
}

static gm_status smem_launch(void *state)
{
	struct smem_state *s = (struct smem_state *)state;

	if (s->eb == 16)
		smem_bw<16><<<s->grid, SMEM_BLOCK, 0, gm_stream()>>>(s->in, s->sums, s->clk);
	else if (s->eb == 8)
		smem_bw<8><<<s->grid, SMEM_BLOCK, 0, gm_stream()>>>(s->in, s->sums, s->clk);
	else
		smem_bw<4><<<s->grid, SMEM_BLOCK, 0, gm_stream()>>>(s->in, s->sums, s->clk);
	GM_CU_LAUNCH();
	return GM_OK;
}

static void smem_release(void *state)
{
	struct smem_state *s = (struct smem_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->in);
	gm_gpu_free(s->sums);
	gm_gpu_free(s->clk);
	gm_gpu_free(s->perm_d);
	gm_gpu_free(s->lat_d);
	free(s->perm);
	free(s);
}

static gm_status smem_prepare_lat(struct smem_state *s)
{
	uint64_t r = 0x9E3779B97F4A7C15ull ^ s->seed;
	uint32_t order[SMEM_LAT_SLOTS];
	gm_status st;

	s->perm = (uint32_t *)malloc(SMEM_LAT_SLOTS * 4);
	if (!s->perm)
		return GM_ERR_NOMEM;
	for (uint32_t i = 0; i < SMEM_LAT_SLOTS; i++)
		order[i] = i;
	for (uint32_t i = SMEM_LAT_SLOTS - 1; i > 0; i--) {   /* Sattolo: one cycle */
		uint32_t j, t;
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		j = (uint32_t)(r % i);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t i = 0; i < SMEM_LAT_SLOTS; i++)
		s->perm[order[i]] = order[(i + 1) % SMEM_LAT_SLOTS];
	if ((st = gm_gpu_alloc((void **)&s->perm_d, SMEM_LAT_SLOTS * 4)) || (st = gm_gpu_alloc((void **)&s->lat_d, 3 * 8)))
		return st;
	GM_CU(cudaMemcpy(s->perm_d, s->perm, SMEM_LAT_SLOTS * 4, cudaMemcpyHostToDevice));
	GM_CU(cudaDeviceSynchronize());
	return GM_OK;
}

static gm_status smem_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct smem_state *s = (struct smem_state *)calloc(1, sizeof(*s));
	size_t threads, words;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	*state = s;
	s->dev = cfg->dev;
	s->seed = cfg->seed;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->eb = (int)gm_case_param(c, "elem_bytes", 16);
	if (s->mode == 1) {
		t->ops = SMEM_LAT_STEPS;
		return smem_prepare_lat(s);
	}
	s->grid = 2u * (unsigned)(cfg->sanitize ? 1 : cfg->dev->sm_count); /* run --sanitize: one SM's two blocks */
	threads = (size_t)s->grid * SMEM_BLOCK;
	words = (size_t)s->grid * SMEM_BYTES_PER_BLOCK / 4;
	if ((st = gm_gpu_alloc((void **)&s->in, words * 4)) || (st = gm_gpu_alloc((void **)&s->sums, threads * 4)) ||
	    (st = gm_gpu_alloc((void **)&s->clk, sizeof(*s->clk))) || (st = gm_fill_random(s->in, words, s->seed)))
		return st;
	t->bytes_useful = t->bytes_hw = (double)threads * SMEM_LOADS * s->eb;
	t->working_set = (int64_t)(words * 4);
	return GM_OK;
}

static gm_status smem_verify(void *state, char *why, size_t n)
{
	struct smem_state *s = (struct smem_state *)state;
	size_t threads = (size_t)s->grid * SMEM_BLOCK;
	uint32_t slots = SMEM_BYTES_PER_BLOCK / s->eb, wps = s->eb / 4;
	uint32_t *h;
	gm_status st = GM_OK;

	if (s->mode == 1) {
		unsigned long long out[3];
		uint32_t p = 0;
		smem_lat<<<1, 256, 0, gm_stream()>>>(s->perm_d, SMEM_LAT_STEPS, s->lat_d);
		GM_CU_LAUNCH();
		GM_CU(cudaStreamSynchronize(gm_stream()));   /* the harness stream does not block the legacy one */
		GM_CU(cudaMemcpy(out, s->lat_d, sizeof(out), cudaMemcpyDeviceToHost));
		for (unsigned i = 0; i < SMEM_LAT_SLOTS + SMEM_LAT_STEPS; i++)
			p = s->perm[p];
		if (out[2] != p) {
			snprintf(why, n, "shared chase ended at slot %llu, expected %u", out[2], p);
			return gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
		return GM_OK;
	}
	if ((st = gm_poison(s->sums, threads * 4)) || (st = smem_launch(s)))
		return st;
	GM_CU(cudaStreamSynchronize(gm_stream()));
	h = (uint32_t *)malloc(threads * 4);
	if (!h)
		return GM_ERR_NOMEM;
	cudaError_t e = cudaMemcpy(h, s->sums, threads * 4, cudaMemcpyDeviceToHost);
	if (e != cudaSuccess) {
		free(h);
		return gm_cuda_status(e, "cudaMemcpy(checksums)", __FILE__, __LINE__);
	}
	for (unsigned b = 0; b < s->grid && !st; b++) {
		unsigned long long m = (unsigned long long)SMEM_BLOCK * SMEM_LOADS;
		uint64_t first = (uint64_t)b * (SMEM_BYTES_PER_BLOCK / 4);
		uint32_t all = 0, part = 0, got = 0, r = (uint32_t)(m % slots), want;
		for (uint32_t w = 0; w < slots * wps; w++) {
			uint32_t v = gm_hash(s->seed, first + w);
			all += v;
			part += w < r * wps ? v : 0;
		}
		want = (uint32_t)(m / slots) * all + part;
		for (size_t i = 0; i < SMEM_BLOCK; i++)
			got += h[b * SMEM_BLOCK + i];
		if (got != want) {
			snprintf(why, n, "checksum of block %u is 0x%08x, expected 0x%08x", b, got, want);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	free(h);
	return st;
}

static gm_status smem_sample(void *state, double *values)
{
	struct smem_state *s = (struct smem_state *)state;
	unsigned long long out[3];

	smem_lat<<<1, 256, 0, gm_stream()>>>(s->perm_d, SMEM_LAT_STEPS, s->lat_d);
	GM_CU_LAUNCH();
	GM_CU(cudaMemcpyAsync(out, s->lat_d, sizeof(out), cudaMemcpyDeviceToHost, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	values[0] = (double)out[0] / SMEM_LAT_STEPS;
	values[1] = (double)out[1] / SMEM_LAT_STEPS;
	values[2] = out[1] ? (double)out[0] / (double)out[1] * 1e3 : 0;
	return GM_OK;
}

static void smem_annotate(void *state, struct gm_case_result *cr)
{
	struct smem_state *s = (struct smem_state *)state;
	struct hier_clock k;

	if (s->mode == 0 && cudaMemcpy(&k, s->clk, sizeof(k), cudaMemcpyDeviceToHost) == cudaSuccess)
		gm_result_note(cr, "sm_clock_mhz", GM_UNIT_RATIO, hier_clock_mhz(&k));
}

static gm_status smem_launch_any(void *state)
{
	struct smem_state *s = (struct smem_state *)state;
	return s->mode == 1 ? gm_fail(GM_ERR_INVALID_ARG, "smem.latency is self-timed") : smem_launch(state);
}

static const struct gm_family_ops smem_ops = { smem_prepare, smem_launch_any, smem_verify, smem_release,
					       NULL, smem_sample, smem_annotate };

extern "C" const struct gm_family_ops *gm_smem_ops(void)
{
	return &smem_ops;
}
