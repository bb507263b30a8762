/*
 * hierarchy.cu - bandwidth against working-set size (gpumem run hierarchy).
 *
 * Versions (one kernel, three modes; hier_shapes.h):
 *   l1_*  per-SM footprint: block b (one per SM, 1024 threads) re-reads its
 *         own buffer with ld.global.ca.v4 (16 B), 4 loads in flight per
 *         thread; the kernel asks for the max-L1 carve-out. Past the L1
 *         capacity the same loads go to L2.
 *   l2_*  whole-GPU footprint shared by all blocks (2 per SM), ld.global.cg
 *         (L1 bypassed): L2 while it fits, HBM beyond.
 *   wr_*  the same walk with 16 B stores.
 * A "team" (the block for l1, the grid for l2/wr) of T threads walks n
 * 16 B slots: thread g reads slots (g + k T) mod n for k < c, so the team
 * reads the multiset {m mod n : m < T c}; the per-thread sums are checked
 * against that closed form on the CPU (reads), or every written word is
 * checked (writes). Thread 0 of block 0 records clock64 and %globaltimer at
 * its start and end: the SM clock under this load, a note on the result.
 */
#include <string.h>
#include "kernels/common.cuh"
#include "gpumem/result.h"
#include "kernels/hier_common.cuh"
#include "kernels/hier_shapes.h"
#include "kernels/kernels.h"

struct hier_state {
	int mode;
	size_t footprint;        /* bytes per team */
	uint32_t n;              /* 16 B slots per team */
	unsigned grid;
	long long loads;         /* per thread, multiple of HIER_ILP */
	uint4 *buf;
	uint32_t *sums;          /* one per thread */
	unsigned *sms;           /* %smid of each block */
	struct hier_clock *clk;
	uint32_t seed;
	const struct gm_device_info *dev;
};

template <int MODE>
__global__ void __launch_bounds__(HIER_BLOCK, 2)
hier_kernel(uint4 *buf, uint32_t n, long long loads, uint32_t seed, uint32_t *sums, unsigned *sms,
	    struct hier_clock *clk)
{
	const bool per_block = MODE == HIER_L1_READ;
	const unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
	const unsigned long long T = per_block ? blockDim.x : (unsigned long long)gridDim.x * blockDim.x;
	uint4 *base = per_block ? buf + (size_t)blockIdx.x * n : buf;
	uint32_t pos = (uint32_t)((per_block ? threadIdx.x : g) % n), step = (uint32_t)(T % n);
	uint32_t acc[HIER_ILP] = { 0 };
	const bool timer = g == 0;

	if (timer) {
		clk->t0 = hier_globaltimer();
		clk->c0 = hier_clock64();
	}
	if (threadIdx.x == 0)
		sms[blockIdx.x] = hier_smid();
	for (long long j = 0; j < loads; j += HIER_ILP) {
#pragma unroll
		for (int u = 0; u < HIER_ILP; u++) {
			if (MODE == HIER_WRITE) {
				uint32_t w = 4 * pos;
				hier_st(base + pos, make_uint4(seed ^ w, seed ^ (w + 1), seed ^ (w + 2), seed ^ (w + 3)));
			} else {
				uint4 v = MODE == HIER_L1_READ ? hier_ld_ca(base + pos) : hier_ld_cg(base + pos);
				acc[u] += v.x + v.y + v.z + v.w;
			}
			pos += step;
			pos = pos >= n ? pos - n : pos;
		}
	}
	if (MODE != HIER_WRITE)
		sums[g] = acc[0] + acc[1] + acc[2] + acc[3];
	if (timer) {
		clk->c1 = hier_clock64();
		clk->t1 = hier_globaltimer();
	}
}

static gm_status hier_launch(void *state)
{
	struct hier_state *s = (struct hier_state *)state;

	switch (s->mode) {
	case HIER_L1_READ:
		hier_kernel<HIER_L1_READ><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n, s->loads, s->seed,
										   s->sums, s->sms, s->clk);
		break;
	case HIER_L2_READ:
		hier_kernel<HIER_L2_READ><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n, s->loads, s->seed,
										   s->sums, s->sms, s->clk);
		break;
	default:
		hier_kernel<HIER_WRITE><<<s->grid, HIER_BLOCK, 0, gm_stream()>>>(s->buf, s->n, s->loads, s->seed,
										 s->sums, s->sms, s->clk);
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static void hier_release(void *state)
{
	struct hier_state *s = (struct hier_state *)state;

	if (!s)
		return;
	/* the carve-out preference belongs to the kernel: put the default back */
	cudaFuncSetAttribute(hier_kernel<HIER_L1_READ>, cudaFuncAttributePreferredSharedMemoryCarveout,
			     cudaSharedmemCarveoutDefault);
	gm_gpu_free(s->buf);
	gm_gpu_free(s->sums);
	gm_gpu_free(s->sms);
	gm_gpu_free(s->clk);
	free(s);
}

static gm_status hier_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct hier_state *s = (struct hier_state *)calloc(1, sizeof(*s));
	size_t threads, total;
	double target;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	*state = s;
	s->dev = cfg->dev;
	s->seed = cfg->seed;
	s->mode = (int)gm_case_param(c, "mode", 0);
	s->footprint = (size_t)gm_case_param(c, "footprint", 1 << 20);
	if (s->footprint < 16 * 1024 || s->footprint % 16 || s->footprint / 16 > UINT32_MAX / 8)
		return gm_fail(GM_ERR_INVALID_ARG, "footprint %zu B: must be a multiple of 16 B from 16 KiB to 32 GiB",
			       s->footprint);
	s->n = (uint32_t)(s->footprint / 16);
	s->grid = (unsigned)cfg->dev->sm_count * (s->mode == HIER_L1_READ ? 1 : 2);
	threads = (size_t)s->grid * HIER_BLOCK;
	total = s->mode == HIER_L1_READ ? s->footprint * s->grid : s->footprint;
	/* about a millisecond per launch at the level's bandwidth */
	target = s->mode == HIER_L1_READ ? 16e9 : s->mode == HIER_L2_READ ? 8e9 : 4e9;
	s->loads = (long long)(target / (16.0 * threads));
	if (s->mode == HIER_WRITE && (size_t)s->loads * threads < s->n)
		s->loads = (long long)((s->n + threads - 1) / threads);
	s->loads = (s->loads + HIER_ILP - 1) / HIER_ILP * HIER_ILP;
	if ((st = gm_gpu_alloc((void **)&s->buf, total)) || (st = gm_gpu_alloc((void **)&s->sums, threads * 4)) ||
	    (st = gm_gpu_alloc((void **)&s->sms, s->grid * sizeof(unsigned))) ||
	    (st = gm_gpu_alloc((void **)&s->clk, sizeof(struct hier_clock))))
		return st;
	if (s->mode == HIER_L1_READ)
		GM_CU(cudaFuncSetAttribute(hier_kernel<HIER_L1_READ>, cudaFuncAttributePreferredSharedMemoryCarveout,
					   cudaSharedmemCarveoutMaxL1));
	if (s->mode != HIER_WRITE && (st = gm_fill_random((uint32_t *)s->buf, total / 4, s->seed)))
		return st;
	t->bytes_useful = t->bytes_hw = 16.0 * (double)threads * (double)s->loads;
	t->working_set = (int64_t)total;
	return GM_OK;
}

/* Sum of the 4 words of slots [from, to) of team b's buffer, as the kernel folds them (mod 2^32). */
static uint32_t slot_sum(uint32_t seed, uint64_t first_word, uint32_t from, uint32_t to)
{
	uint32_t s = 0;
	for (uint64_t w = first_word + 4ull * from; w < first_word + 4ull * to; w++)
		s += gm_hash(seed, w);
	return s;
}

static gm_status verify_reads(struct hier_state *s, char *why, size_t n)
{
	size_t threads = (size_t)s->grid * HIER_BLOCK;
	int teams = s->mode == HIER_L1_READ ? (int)s->grid : 1;
	size_t per_team = threads / teams;
	uint32_t *h = (uint32_t *)malloc(threads * 4);

	if (!h)
		return GM_ERR_NOMEM;
	if (cudaMemcpy(h, s->sums, threads * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
		free(h);
		return gm_fail(GM_ERR_CUDA, "copy of the checksums failed");
	}
	for (int b = 0; b < teams; b++) {
		unsigned long long m = (unsigned long long)per_team * (unsigned long long)s->loads;
		uint64_t first = (uint64_t)b * s->n * 4;
		uint32_t want = (uint32_t)(m / s->n) * slot_sum(s->seed, first, 0, s->n) +
				slot_sum(s->seed, first, 0, (uint32_t)(m % s->n));
		uint32_t got = 0;
		for (size_t i = 0; i < per_team; i++)
			got += h[b * per_team + i];
		if (got != want) {
			snprintf(why, n, "checksum of team %d is 0x%08x, expected 0x%08x", b, got, want);
			free(h);
			return gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	free(h);
	return GM_OK;
}

struct hier_written {
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t w) const { return seed ^ (uint32_t)w; }
};

static gm_status hier_verify(void *state, char *why, size_t n)
{
	struct hier_state *s = (struct hier_state *)state;
	gm_status st;

	if ((st = gm_poison(s->sums, (size_t)s->grid * HIER_BLOCK * 4)))
		return st;
	if (s->mode == HIER_WRITE && (st = gm_poison(s->buf, s->footprint)))
		return st;
	if ((st = hier_launch(s)))
		return st;
	GM_CU(cudaStreamSynchronize(gm_stream()));
	if (s->mode != HIER_WRITE)
		return verify_reads(s, why, n);
	hier_written want = { s->seed };
	return gm_validate((const uint32_t *)s->buf, s->footprint / 4, want, s->seed, s->dev, why, n);
}

/* The SM clock during the last launch, and how many blocks shared an SM (l1: must be 1). */
static void hier_annotate(void *state, struct gm_case_result *cr)
{
	struct hier_state *s = (struct hier_state *)state;
	struct hier_clock k;
	unsigned *sms = (unsigned *)calloc(s->grid, sizeof(unsigned));
	int most = 0;

	if (cudaMemcpy(&k, s->clk, sizeof(k), cudaMemcpyDeviceToHost) == cudaSuccess)
		gm_result_note(cr, "sm_clock_mhz", GM_UNIT_RATIO, hier_clock_mhz(&k));
	if (sms && cudaMemcpy(sms, s->sms, s->grid * sizeof(unsigned), cudaMemcpyDeviceToHost) == cudaSuccess) {
		for (unsigned i = 0; i < s->grid; i++) {
			int same = 0;
			for (unsigned j = 0; j < s->grid; j++)
				same += sms[j] == sms[i];
			most = same > most ? same : most;
		}
		gm_result_note(cr, "max_blocks_per_sm", GM_UNIT_RATIO, most);
	}
	free(sms);
}

static gm_status hier_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int64_t fp = gm_case_param(c, "footprint", 0);
	int64_t need = gm_case_param(c, "mode", 0) == HIER_L1_READ ? fp * cfg->dev->sm_count : fp;

	if (cfg->dev->total_mem > 0 && need > cfg->dev->total_mem / 2) {
		snprintf(why, n, "footprint %lld B exceeds half the device memory (%lld B)", (long long)need,
			 (long long)cfg->dev->total_mem);
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static const struct gm_family_ops hier_ops = { hier_prepare, hier_launch, hier_verify, hier_release,
					       hier_supported, NULL, hier_annotate };

extern "C" const struct gm_family_ops *gm_hierarchy_ops(void)
{
	return &hier_ops;
}
