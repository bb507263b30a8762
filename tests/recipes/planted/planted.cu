/*
 * planted.cu - the planted family's kernels (gpumem run planted): v0 writes out[i] = f(i) with one
 * 4-byte store a thread. Validation: every word against the closed form (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"

#define PL_THREADS 256

struct pl_expect {
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t i) const { return gm_hash(seed, (uint64_t)i); }
};

__global__ void pl_fill(uint32_t *out, size_t n, uint32_t seed)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = pl_expect{ seed }(i);
}

struct pl_state {
	uint32_t *out, seed;
	size_t n;
	const struct gm_device_info *dev;
};

static void pl_release(void *state)
{
	struct pl_state *s = (struct pl_state *)state;

	if (s)
		gm_gpu_free(s->out);
	free(s);
}

static gm_status pl_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct pl_state *s = (struct pl_state *)calloc(1, sizeof(*s));
	gm_status st;

	(void)c;
	if (!s)
		return GM_ERR_NOMEM;
	s->n = (size_t)(cfg->array_bytes / 4);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gm_gpu_alloc((void **)&s->out, s->n * 4);
	if (st) {
		pl_release(s);
		return st;
	}
	t->bytes_useful = (double)s->n * 4; /* written once: docs/METHODOLOGY.md's byte convention */
	t->working_set = (int64_t)(s->n * 4);
	*state = s;
	return GM_OK;
}

static gm_status pl_launch(void *state)
{
	struct pl_state *s = (struct pl_state *)state;

	pl_fill<<<(unsigned)((s->n + PL_THREADS - 1) / PL_THREADS), PL_THREADS, 0, gm_stream()>>>(s->out, s->n,
												  s->seed);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status pl_verify(void *state, char *why, size_t n)
{
	struct pl_state *s = (struct pl_state *)state;
	gm_status st = gm_poison(s->out, s->n * 4);

	if (!st)
		st = pl_launch(s);
	if (!st)
		st = gm_validate(s->out, s->n, pl_expect{ s->seed }, s->seed, s->dev, why, n);
	return st;
}

static const struct gm_family_ops pl_ops = { pl_prepare, pl_launch, pl_verify, pl_release };

extern "C" const struct gm_family_ops *gm_planted_ops(void)
{
	return &pl_ops;
}
