/*
 * local.cu - local memory vs registers (gpumem run local).
 *
 * Each of 2^20 threads keeps a 32-word array a[] and does 64 steps of
 *   j = x mod 32; a[j] += x; x = (x ^ a[j]) * 1664525 + 1013904223
 * then writes x ^ a[0] ^ ... ^ a[31].
 *   v0 local  a[j] with j known only at run time: the compiler places a[] in
 *             local memory (per-thread, in L1/L2/HBM), every step is a
 *             dependent local load + store.
 *   v1 regs   the same steps with a[] fully unrolled (a select over 32
 *             registers per step): no local memory.
 * The compiler's view of each kernel (cudaFuncGetAttributes: localSizeBytes,
 * numRegs) is recorded as notes of the case.
 * Validation: every output word against the closed form (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"
#include "gpumem/result.h"

#define LM_BLOCK 256

__host__ __device__ __forceinline__ uint32_t lm_step(uint32_t x, uint32_t aj)
{
	return (x ^ aj) * 1664525u + 1013904223u;
}

__global__ void lm_local(uint32_t seed, uint32_t *out)
{
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t a[LM_ELEMS];
	uint32_t x = gm_hash(seed, tid), r;

	for (int j = 0; j < LM_ELEMS; j++)
		a[j] = x ^ (j * 0x9E3779B9u);
	for (int it = 0; it < LM_ITERS; it++) {
		uint32_t j = x % LM_ELEMS;
		a[j] += x;
		x = lm_step(x, a[j]);
	}
	r = x;
	for (int j = 0; j < LM_ELEMS; j++)
		r ^= a[j];
	out[tid] = r;
}

__global__ void lm_regs(uint32_t seed, uint32_t *out)
{
	uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t a[LM_ELEMS];
	uint32_t x = gm_hash(seed, tid), r;

#pragma unroll
	for (int j = 0; j < LM_ELEMS; j++)
		a[j] = x ^ (j * 0x9E3779B9u);
	for (int it = 0; it < LM_ITERS; it++) {
		uint32_t j = x % LM_ELEMS, aj = 0;
#pragma unroll
		for (int q = 0; q < LM_ELEMS; q++) {
			if (q == (int)j)
				a[q] += x;
			aj = q == (int)j ? a[q] : aj;
		}
		x = lm_step(x, aj);
	}
	r = x;
#pragma unroll
	for (int j = 0; j < LM_ELEMS; j++)
		r ^= a[j];
	out[tid] = r;
}

struct lm_expect {
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		uint32_t a[LM_ELEMS], x = gm_hash(seed, w), r;
		for (int j = 0; j < LM_ELEMS; j++)
			a[j] = x ^ (j * 0x9E3779B9u);
		for (int it = 0; it < LM_ITERS; it++) {
			uint32_t j = x % LM_ELEMS;
			a[j] += x;
			x = lm_step(x, a[j]);
		}
		r = x;
		for (int j = 0; j < LM_ELEMS; j++)
			r ^= a[j];
		return r;
	}
};

struct lm_state {
	int regs;
	uint32_t *out;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void lm_release(void *state)
{
	struct lm_state *s = (struct lm_state *)state;

	if (!s)
		return;
	gm_gpu_free(s->out);
	free(s);
}

static gm_status lm_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct lm_state *s = (struct lm_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->regs = (int)gm_case_param(c, "regs", 0);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gm_gpu_alloc((void **)&s->out, (size_t)LM_THREADS * 4);
	if (st) {
		lm_release(s);
		return st;
	}
	t->bytes_useful = (double)LM_THREADS * 4;
	t->working_set = (int64_t)LM_THREADS * 4;
	*state = s;
	return GM_OK;
}

static gm_status lm_launch(void *state)
{
	struct lm_state *s = (struct lm_state *)state;

	if (s->regs)
		lm_regs<<<LM_THREADS / LM_BLOCK, LM_BLOCK, 0, gm_stream()>>>(s->seed, s->out);
	else
		lm_local<<<LM_THREADS / LM_BLOCK, LM_BLOCK, 0, gm_stream()>>>(s->seed, s->out);
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status lm_verify(void *state, char *why, size_t n)
{
	struct lm_state *s = (struct lm_state *)state;
	lm_expect want = { s->seed };
	gm_status st = gm_poison(s->out, (size_t)LM_THREADS * 4);

	if (!st)
		st = lm_launch(s);
	if (!st)
		st = gm_validate(s->out, (size_t)LM_THREADS, want, s->seed, s->dev, why, n);
	return st;
}

static void lm_annotate(void *state, struct gm_case_result *cr)
{
	struct lm_state *s = (struct lm_state *)state;
	struct cudaFuncAttributes fa;

	if (cudaFuncGetAttributes(&fa, s->regs ? (const void *)lm_regs : (const void *)lm_local) != cudaSuccess) {
		(void)cudaGetLastError();
		return;
	}
	gm_result_note(cr, "local_bytes_per_thread", GM_UNIT_BYTES, (double)fa.localSizeBytes);
	gm_result_note(cr, "registers_per_thread", GM_UNIT_RATIO, (double)fa.numRegs);
}

static const struct gm_family_ops lm_ops = { lm_prepare, lm_launch, lm_verify, lm_release, NULL, NULL,
					     lm_annotate };

extern "C" const struct gm_family_ops *gm_local_ops(void)
{
	return &lm_ops;
}
