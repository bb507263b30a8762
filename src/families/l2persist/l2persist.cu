/*
 * l2persist.cu - the L2 access-policy window (gpumem run l2persist).
 *
 * One kernel, four settings around it. Each launch streams 768 MiB once
 * (3 coalesced 16 B loads per iteration) and re-reads a 16 MiB hot set
 * (one 16 B load per iteration, hot[i mod nh]): between two reads of a hot
 * line 48 MiB of stream and the 16 MiB hot set pass through the 50 MiB L2,
 * so under plain LRU the hot set is mostly evicted before it is reused.
 *   off      no window, persisting limit untouched: the baseline.
 *   nolimit  window over the hot set with hitRatio 1, persisting limit set
 *            to 0: the window alone, without a carve-out to persist into.
 *   off and nolimit matter apart: the limit a context starts with need not
 *   be 0 (9.375 MiB on the H100 with driver 580 measured here).
 *   hNNN     limit cudaLimitPersistingL2CacheSize = hot bytes, window
 *            (launch attribute cudaLaunchAttributeAccessPolicyWindow) over
 *            the hot set with hitRatio NNN %, hitProp Persisting, missProp
 *            Streaming.
 * Release resets the persisting lines (cudaCtxResetPersistingL2Cache) and
 * puts the limit back to what prepare found, also after a failure or SIGINT.
 * Validation: the uint32 sum (wrapping) of every word read, against the
 * CPU sum of the gm_hash closed form.
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"
#include "families/common/host_ref.h"
#include "gpumem/result.h"
#include <string.h>

#define LP_THREADS 256

/* Like GM_CU, but records the failure in st instead of returning (prepare/verify clean up). */
#define LP_TRY(st, expr)                                                          \
	do {                                                                      \
		cudaError_t lp_e_ = (st) ? cudaSuccess : (expr);                 \
		if (lp_e_ != cudaSuccess)                                         \
			(st) = gm_cuda_status(lp_e_, #expr, __FILE__, __LINE__);  \
	} while (0)

__device__ __forceinline__ uint32_t lp_add(uint4 v) { return v.x + v.y + v.z + v.w; }

__global__ void lp_kernel(const uint4 *__restrict__ stream, size_t n3, const uint4 *__restrict__ hot, size_t nh,
			  uint32_t *sum)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	uint32_t acc = 0;

	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n3; i += stride)
		acc += lp_add(stream[i]) + lp_add(stream[i + n3]) + lp_add(stream[i + 2 * n3]) + lp_add(hot[i % nh]);
	for (int off = 16; off > 0; off >>= 1)
		acc += __shfl_down_sync(0xffffffffu, acc, off);
	if ((threadIdx.x & 31) == 0)
		atomicAdd(sum, acc);
}

struct lp_state {
	int ratio;                 /* percent, LP_OFF, LP_NOLIMIT */
	uint4 *stream, *hot;
	size_t n3, nh;             /* iterations, hot uint4s */
	uint32_t *sum;
	uint32_t seed;
	size_t old_limit;
	int limit_changed;
	size_t limit_set;
	const struct gm_device_info *dev;
};

static void lp_release(void *state)
{
	struct lp_state *s = (struct lp_state *)state;

	if (!s)
		return;
	if (s->ratio != LP_OFF)
		(void)cudaCtxResetPersistingL2Cache();
	if (s->limit_changed)
		(void)cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, s->old_limit);
	(void)cudaGetLastError();
	gm_gpu_free(s->stream);
	gm_gpu_free(s->hot);
	gm_gpu_free(s->sum);
	free(s);
}

static size_t lp_window_max(void)
{
	int v = 0;

	if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxAccessPolicyWindowSize, 0) != cudaSuccess) {
		(void)cudaGetLastError();
		return 0;
	}
	return (size_t)v;
}

static size_t lp_hot_bytes(const struct gm_device_info *dev)
{
	size_t b = (size_t)LP_HOT_BYTES, w = lp_window_max();

	if (dev->persisting_l2_max_bytes > 0 && (size_t)dev->persisting_l2_max_bytes < b)
		b = (size_t)dev->persisting_l2_max_bytes;
	if (w > 0 && w < b)
		b = w;
	return b / (1 << 20) * (1 << 20);
}

static gm_status lp_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int ratio = (int)gm_case_param(c, "hit_ratio_pct", LP_OFF);

	if (ratio == LP_OFF)
		return GM_OK;
	if (cfg->dev->persisting_l2_max_bytes <= 0) {
		snprintf(why, n, "the device has no persisting L2 (persistingL2CacheMaxSize = 0)");
		return GM_ERR_UNSUPPORTED;
	}
	if (lp_window_max() == 0) {
		snprintf(why, n, "the device has no access-policy window (accessPolicyMaxWindowSize = 0)");
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static gm_status lp_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct lp_state *s = (struct lp_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->ratio = (int)gm_case_param(c, "hit_ratio_pct", LP_OFF);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	s->nh = lp_hot_bytes(cfg->dev) / 16;
	s->n3 = (size_t)LP_STREAM_BYTES / 16 / LP_STREAM_PER_HOT;
	st = gm_gpu_alloc((void **)&s->stream, s->n3 * LP_STREAM_PER_HOT * 16);
	if (!st)
		st = gm_gpu_alloc((void **)&s->hot, s->nh * 16);
	if (!st)
		st = gm_gpu_alloc((void **)&s->sum, 4);
	if (!st)
		st = gm_fill_random((uint32_t *)s->stream, s->n3 * LP_STREAM_PER_HOT * 4, s->seed);
	if (!st)
		st = gm_fill_random((uint32_t *)s->hot, s->nh * 4, s->seed ^ 0x4071u);
	if (!st && s->ratio != LP_OFF) {
		LP_TRY(st, cudaDeviceGetLimit(&s->old_limit, cudaLimitPersistingL2CacheSize));
		s->limit_changed = !st;
		LP_TRY(st, cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, s->ratio == LP_NOLIMIT ? 0 : s->nh * 16));
		LP_TRY(st, cudaDeviceGetLimit(&s->limit_set, cudaLimitPersistingL2CacheSize));
	}
	if (!st && s->ratio != LP_OFF)
		LP_TRY(st, cudaCtxResetPersistingL2Cache());
	if (st) {
		lp_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->n3 * 16 * (LP_STREAM_PER_HOT + 1);
	t->working_set = (int64_t)(s->n3 * LP_STREAM_PER_HOT * 16 + s->nh * 16);
	*state = s;
	return GM_OK;
}

static gm_status lp_launch(void *state)
{
	struct lp_state *s = (struct lp_state *)state;
	cudaLaunchConfig_t cfg;
	cudaLaunchAttribute attr;

	memset(&cfg, 0, sizeof(cfg));
	memset(&attr, 0, sizeof(attr));
	cfg.gridDim = dim3(gm_resident_blocks(s->dev, LP_THREADS));
	cfg.blockDim = dim3(LP_THREADS);
	cfg.stream = gm_stream();
	if (s->ratio != LP_OFF) {
		attr.id = cudaLaunchAttributeAccessPolicyWindow;
		attr.val.accessPolicyWindow.base_ptr = s->hot;
		attr.val.accessPolicyWindow.num_bytes = s->nh * 16;
		attr.val.accessPolicyWindow.hitRatio = s->ratio == LP_NOLIMIT ? 1.0f : s->ratio / 100.0f;
		attr.val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
		attr.val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
		cfg.attrs = &attr;
		cfg.numAttrs = 1;
	}
	GM_CU(cudaMemsetAsync(s->sum, 0, 4, cfg.stream));
	GM_CU(cudaLaunchKernelEx(&cfg, lp_kernel, (const uint4 *)s->stream, s->n3, (const uint4 *)s->hot, s->nh,
				 s->sum));
	return GM_OK;
}

/* CPU sum of the words one launch reads (every core: 768 MiB of stream words a case, a new seed each case). */
static uint32_t lp_expected(const struct lp_state *s)
{
	size_t nsw = s->n3 * LP_STREAM_PER_HOT * 4, nhw = s->nh * 4, head = (s->n3 % s->nh) * 4;
	uint32_t stream, hot_all, hot_head;

	gm_hash_sums(s->seed, 0, 0, nsw, 1, &stream);
	gm_hash_sums(s->seed ^ 0x4071u, 0, 0, nhw, 1, &hot_all);
	gm_hash_sums(s->seed ^ 0x4071u, 0, 0, head < nhw ? head : nhw, 1, &hot_head);
	return stream + hot_all * (uint32_t)(s->n3 / s->nh) + hot_head;
}

static gm_status lp_verify(void *state, char *why, size_t n)
{
	struct lp_state *s = (struct lp_state *)state;
	uint32_t got = 0, want;
	gm_status st = gm_poison(s->sum, 4);

	if (!st)
		st = lp_launch(s);
	LP_TRY(st, cudaStreamSynchronize(gm_stream()));
	LP_TRY(st, cudaMemcpy(&got, s->sum, 4, cudaMemcpyDeviceToHost));
	if (st)
		return st;
	want = lp_expected(s);
	if (got != want) {
		snprintf(why, n, "sum of the words read is 0x%08x, expected 0x%08x", got, want);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return GM_OK;
}

static void lp_annotate(void *state, struct gm_case_result *cr)
{
	struct lp_state *s = (struct lp_state *)state;

	gm_result_note(cr, "hot_bytes", GM_UNIT_BYTES, (double)(s->nh * 16));
	gm_result_note(cr, "persisting_limit_set", GM_UNIT_BYTES, (double)s->limit_set);
	gm_result_note(cr, "window_max", GM_UNIT_BYTES, (double)lp_window_max());
}

static const struct gm_family_ops lp_ops = { lp_prepare, lp_launch, lp_verify, lp_release, lp_supported, NULL,
					     lp_annotate };

extern "C" const struct gm_family_ops *gm_l2persist_ops(void)
{
	return &lp_ops;
}
