/*
 * constant.cu - the constant cache under divergent addresses (gpumem run constant).
 *
 * Each thread makes CN_ITERS dependent-free loads from a 4 KiB table; in
 * iteration k lane l reads word (k * 5 + (l mod d) * 32) mod 1024, so a warp
 * touches exactly d distinct words, each in its own 128 B line.
 *   cD   the table is __constant__: the constant cache serves one address per
 *        pass, d distinct addresses are replayed d times.
 *   gD   the same reads from a global array with default loads (L1): d
 *        distinct lines are d sectors of one request.
 * Grid: 8 blocks of 256 threads per SM (64 warps per SM).
 * Validation: every output word (the thread's sum) against the closed form,
 * which depends only on the lane and d (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

#define CN_THREADS 256
#define CN_BLOCKS_PER_SM 8
#define CN_TSEED(s) ((s) ^ 0xc0de5u)

__constant__ uint32_t cn_table[CN_WORDS];

__host__ __device__ __forceinline__ uint32_t cn_index(int k, int lane, int d)
{
	return (uint32_t)(k * 5 + (lane % d) * 32) & (CN_WORDS - 1);
}

template <int GLOBAL> __global__ void cn_kernel(const uint32_t *g, int d, uint32_t *out)
{
	int lane = threadIdx.x & 31;
	uint32_t acc = 0;

#pragma unroll 8
	for (int k = 0; k < CN_ITERS; k++)
		acc += GLOBAL ? g[cn_index(k, lane, d)] : cn_table[cn_index(k, lane, d)];
	out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = acc;
}

struct cn_expect {
	uint32_t seed;
	int d;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		uint32_t acc = 0;
		for (int k = 0; k < CN_ITERS; k++)
			acc += gm_hash(CN_TSEED(seed), cn_index(k, (int)(w % CN_THREADS) & 31, d));
		return acc;
	}
};

struct cn_state {
	int global, d;
	unsigned blocks;
	size_t n;
	uint32_t *g, *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void cn_release(void *state)
{
	struct cn_state *s = (struct cn_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->g);
	gm_gpu_free(s->out);
	free(s);
}

static gm_status cn_upload(struct cn_state *s)
{
	uint32_t host[CN_WORDS];

	for (int j = 0; j < CN_WORDS; j++)
		host[j] = gm_hash(CN_TSEED(s->seed), (uint64_t)j);
	GM_CU(cudaMemcpyToSymbol(cn_table, host, sizeof(host)));
	GM_CU(cudaMemcpy(s->g, host, sizeof(host), cudaMemcpyHostToDevice));
	return GM_OK;
}

static gm_status cn_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct cn_state *s = (struct cn_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->global = (int)gm_case_param(c, "global", 0);
	s->d = (int)gm_case_param(c, "distinct", 1);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->blocks = (unsigned)(cfg->dev->sm_count * CN_BLOCKS_PER_SM);
	s->n = (size_t)s->blocks * CN_THREADS;
	st = gm_gpu_alloc((void **)&s->g, CN_WORDS * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, s->n * 4);
	if (!st)
		st = cn_upload(s);
	if (st) {
		cn_release(s);
		return st;
	}
	/* headline: ns per warp-level load on one SM = launch time / (warp loads per SM) */
	t->ops = (double)CN_BLOCKS_PER_SM * (CN_THREADS / 32) * CN_ITERS;
	t->bytes_useful = (double)s->n * CN_ITERS * 4;
	t->working_set = (int64_t)(CN_WORDS * 4 + s->n * 4);
	*state = s;
	return GM_OK;
}

static gm_status cn_launch(void *state)
{
	struct cn_state *s = (struct cn_state *)state;

	if (s->global)
		cn_kernel<1><<<s->blocks, CN_THREADS, 0, gm_stream()>>>(s->g, s->d, s->out);
	else
		cn_kernel<0><<<s->blocks, CN_THREADS, 0, gm_stream()>>>(s->g, s->d, s->out);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status cn_verify(void *state, char *why, size_t n)
{
	struct cn_state *s = (struct cn_state *)state;
	cn_expect want = { s->seed, s->d };
	gm_status st = gm_poison(s->out, s->n * 4);

	if (!st)
		st = cn_launch(s);
	if (!st)
		st = gm_validate(s->out, s->n, want, s->seed, s->dev, why, n);
	return st;
}

static const struct gm_family_ops cn_ops = { cn_prepare, cn_launch, cn_verify, cn_release };

extern "C" const struct gm_family_ops *gm_constant_ops(void)
{
	return &cn_ops;
}
