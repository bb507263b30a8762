/*
 * carveout.cu - the shared-memory carve-out and the L1 (gpumem run carveout).
 *
 * One block of 1024 threads per SM re-reads its own working set (48 or
 * 160 KiB of uint32, coalesced, default loads that L1 may keep) 64 times and
 * writes one sum per thread. The kernel uses no shared memory; only the
 * function attribute cudaFuncAttributePreferredSharedMemoryCarveout changes
 * between cases (0 % = the largest L1, 50 %, 100 % = the largest shared
 * memory, leaving the smallest L1). Release puts the attribute back to
 * cudaSharedmemCarveoutDefault (-1), also after a failure or SIGINT.
 * Validation: every thread's sum against the closed form (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"
#include "gpumem/result.h"

__global__ void __launch_bounds__(CV_THREADS) cv_kernel(const uint32_t *in, size_t ws_words, uint32_t *out)
{
	const uint32_t *mine = in + blockIdx.x * ws_words;
	uint32_t acc = 0;

	for (int p = 0; p < CV_PASSES; p++)
		for (size_t w = threadIdx.x; w < ws_words; w += CV_THREADS)
			acc += mine[w];
	out[blockIdx.x * (size_t)CV_THREADS + threadIdx.x] = acc;
}

struct cv_expect {
	uint32_t seed;
	size_t ws_words;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		size_t b = w / CV_THREADS, t = w % CV_THREADS;
		uint32_t acc = 0;
		for (size_t i = t; i < ws_words; i += CV_THREADS)
			acc += gm_hash(seed, b * ws_words + i);
		return acc * CV_PASSES;
	}
};

struct cv_state {
	int pct, attr_set;
	size_t ws_words, n;
	unsigned blocks;
	uint32_t *in, *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void cv_release(void *state)
{
	struct cv_state *s = (struct cv_state *)state;

	if (!s)
		return;
	if (s->attr_set)
		(void)cudaFuncSetAttribute(cv_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
					   cudaSharedmemCarveoutDefault);
	(void)cudaGetLastError();
	gm_gpu_free(s->in);
	gm_gpu_free(s->out);
	free(s);
}

static gm_status cv_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct cv_state *s = (struct cv_state *)calloc(1, sizeof(*s));
	gm_status st;
	cudaError_t e;

	if (!s)
		return GM_ERR_NOMEM;
	s->pct = (int)gm_case_param(c, "carveout_pct", 0);
	s->ws_words = (size_t)gm_case_param(c, "ws_bytes", 48 << 10) / 4;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->blocks = (unsigned)cfg->dev->sm_count;
	s->n = (size_t)s->blocks * CV_THREADS;
	st = gm_gpu_alloc((void **)&s->in, s->blocks * s->ws_words * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, s->n * 4);
	if (!st)
		st = gm_fill_random(s->in, s->blocks * s->ws_words, s->seed);
	if (!st) {
		s->attr_set = 1;
		e = cudaFuncSetAttribute(cv_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, s->pct);
		if (e != cudaSuccess)
			st = gm_cuda_status(e, "cudaFuncSetAttribute(carveout)", __FILE__, __LINE__);
	}
	if (st) {
		cv_release(s);
		return st;
	}
	t->bytes_useful = (double)s->blocks * s->ws_words * 4 * CV_PASSES;
	t->working_set = (int64_t)(s->blocks * s->ws_words * 4);
	*state = s;
	return GM_OK;
}

static gm_status cv_launch(void *state)
{
	struct cv_state *s = (struct cv_state *)state;

	cv_kernel<<<s->blocks, CV_THREADS, 0, gm_stream()>>>(s->in, s->ws_words, s->out);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status cv_verify(void *state, char *why, size_t n)
{
	struct cv_state *s = (struct cv_state *)state;
	cv_expect want = { s->seed, s->ws_words };
	gm_status st = gm_poison(s->out, s->n * 4);

	if (!st)
		st = cv_launch(s);
	if (!st)
		st = gm_validate(s->out, s->n, want, s->seed, s->dev, why, n);
	return st;
}

static void cv_annotate(void *state, struct gm_case_result *cr)
{
	struct cv_state *s = (struct cv_state *)state;

	gm_result_note(cr, "ws_bytes_per_sm", GM_UNIT_BYTES, (double)(s->ws_words * 4));
	gm_result_note(cr, "carveout_pct", GM_UNIT_PCT, (double)s->pct);
}

static const struct gm_family_ops cv_ops = { cv_prepare, cv_launch, cv_verify, cv_release, NULL, NULL,
					     cv_annotate };

extern "C" const struct gm_family_ops *gm_carveout_ops(void)
{
	return &cv_ops;
}
