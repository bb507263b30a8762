/*
 * alloc.cu - allocation cost (gpumem run alloc). Host-timed: a launch does
 * AL_PAIRS allocate + free pairs and returns when they are complete.
 *
 *   malloc_*    cudaMalloc + cudaFree: both synchronise with the device; the
 *               driver maps and unmaps pages each time.
 *   pool_*      cudaMallocAsync + cudaFreeAsync from a pool created for the
 *               case, release threshold 0: freed memory returns to the driver
 *               at the synchronisation that ends each launch.
 *   poolkeep_*  the same pool with release threshold UINT64_MAX: after the
 *               first launch every allocation is served from the pool.
 *   too_big     cudaMalloc of twice the device memory: must return
 *               cudaErrorMemoryAllocation quickly, leave free memory as it
 *               was, leave no sticky error, and the next allocation works.
 * Validation: each allocation is written (memset) and read back once before
 * timing; free memory before and after is recorded (notes).
 */
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"

struct al_state {
	int method, pairs;
	size_t bytes;
	cudaMemPool_t pool;
	size_t free_before, total;
	cudaError_t too_big_err;
};

static void al_release(void *state)
{
	struct al_state *s = (struct al_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	if (s->pool)
		cudaMemPoolDestroy(s->pool);
	free(s);
}

static gm_status al_pool_create(struct al_state *s)
{
	return gm_pool_create(&s->pool, s->method == AL_POOL_KEEP ? UINT64_MAX : 0);
}

static gm_status al_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct al_state *s = (struct al_state *)calloc(1, sizeof(*s));
	gm_status st = GM_OK;

	(void)cfg;
	if (!s)
		return GM_ERR_NOMEM;
	s->method = (int)gm_case_param(c, "method", AL_MALLOC);
	s->bytes = (size_t)gm_case_param(c, "bytes", 256);
	s->pairs = s->bytes >= (64u << 20) ? 2 : 16;
	cudaError_t e = cudaMemGetInfo(&s->free_before, &s->total);
	if (e != cudaSuccess) {
		free(s);
		return gm_cuda_status(e, "cudaMemGetInfo", __FILE__, __LINE__);
	}
	if (s->method == AL_TOO_BIG) {
		s->bytes = 2 * s->total;
		s->pairs = 1;
	} else if (s->bytes + (256u << 20) > s->free_before) {
		free(s);
		return gm_fail(GM_ERR_TOO_LARGE, "allocation of %zu bytes needs more than the %zu bytes free", s->bytes,
			       s->free_before);
	}
	if (s->method == AL_POOL || s->method == AL_POOL_KEEP)
		st = al_pool_create(s);
	if (st) {
		al_release(s);
		return st;
	}
	t->ops = s->pairs;
	t->working_set = s->method == AL_TOO_BIG ? 0 : (int64_t)s->bytes;
	*state = s;
	return GM_OK;
}

static gm_status al_launch(void *state)
{
	struct al_state *s = (struct al_state *)state;
	void *p = NULL;

	for (int i = 0; i < s->pairs; i++) {
		if (s->method == AL_TOO_BIG) {
			s->too_big_err = cudaMalloc(&p, s->bytes);
			(void)cudaGetLastError();
			if (s->too_big_err == cudaSuccess)
				cudaFree(p);
		} else if (s->method == AL_MALLOC) {
			GM_CU(cudaMalloc(&p, s->bytes));
			GM_CU(cudaFree(p));
		} else {
			GM_CU(cudaMallocFromPoolAsync(&p, s->bytes, s->pool, gm_stream()));
			GM_CU(cudaFreeAsync(p, gm_stream()));
		}
	}
	if (s->method == AL_POOL || s->method == AL_POOL_KEEP)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	return GM_OK;
}

/* One allocation of the case's kind, written and read back. */
static gm_status al_check_one(struct al_state *s, char *why, size_t n)
{
	void *p = NULL;
	unsigned char got[2] = { 0, 0 };
	const char *what = "cudaMemsetAsync";
	cudaError_t e, f;

	if (s->method == AL_MALLOC)
		GM_CU(cudaMalloc(&p, s->bytes));
	else
		GM_CU(cudaMallocFromPoolAsync(&p, s->bytes, s->pool, gm_stream()));
	e = cudaMemsetAsync(p, 0x5a, s->bytes, gm_stream());
	if (e == cudaSuccess && (what = "cudaMemcpyAsync") != NULL)
		e = cudaMemcpyAsync(&got[0], p, 1, cudaMemcpyDeviceToHost, gm_stream());
	if (e == cudaSuccess)
		e = cudaMemcpyAsync(&got[1], (char *)p + s->bytes - 1, 1, cudaMemcpyDeviceToHost, gm_stream());
	if (e == cudaSuccess && (what = "cudaStreamSynchronize") != NULL)
		e = cudaStreamSynchronize(gm_stream());
	/* freed on every path: a failed check must not keep the allocation (and its pool's memory, found by the fault walk) */
	if (s->method == AL_MALLOC) {
		f = cudaFree(p);
	} else {
		f = cudaFreeAsync(p, gm_stream());
		if (f == cudaSuccess)
			f = cudaStreamSynchronize(gm_stream());
	}
	if (e == cudaSuccess && f != cudaSuccess) {
		e = f;
		what = s->method == AL_MALLOC ? "cudaFree" : "cudaFreeAsync";
	}
	if (e != cudaSuccess)
		return gm_cuda_status(e, what, __FILE__, __LINE__);
	if (got[0] != 0x5a || got[1] != 0x5a) {
		snprintf(why, n, "allocation of %zu bytes read back 0x%02x/0x%02x, expected 0x5a", s->bytes, got[0],
			 got[1]);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return GM_OK;
}

static gm_status al_verify(void *state, char *why, size_t n)
{
	struct al_state *s = (struct al_state *)state;
	size_t fr = 0, tot = 0;
	void *p = NULL;
	gm_status st;

	if (s->method != AL_TOO_BIG)
		return al_check_one(s, why, n);
	st = al_launch(s);
	if (st)
		return st;
	if (s->too_big_err != cudaErrorMemoryAllocation) {
		snprintf(why, n, "cudaMalloc of %zu bytes returned %s, expected cudaErrorMemoryAllocation", s->bytes,
			 cudaGetErrorName(s->too_big_err));
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	if (cudaPeekAtLastError() != cudaSuccess) {
		snprintf(why, n, "the failed allocation left a sticky error: %s", cudaGetErrorName(cudaGetLastError()));
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	GM_CU(cudaMemGetInfo(&fr, &tot));
	if (fr + (64u << 20) < s->free_before) {
		snprintf(why, n, "free memory fell from %zu to %zu bytes after a failed allocation", s->free_before, fr);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	GM_CU(cudaMalloc(&p, 1 << 20));
	GM_CU(cudaFree(p));
	return GM_OK;
}

static void al_annotate(void *state, struct gm_case_result *cr)
{
	struct al_state *s = (struct al_state *)state;
	size_t fr = 0, tot = 0;

	gm_result_note(cr, "free_before", GM_UNIT_BYTES, (double)s->free_before);
	if (cudaMemGetInfo(&fr, &tot) == cudaSuccess)
		gm_result_note(cr, "free_after", GM_UNIT_BYTES, (double)fr);
	if (s->method == AL_TOO_BIG) {
		gm_result_note(cr, "requested", GM_UNIT_BYTES, (double)s->bytes);
		gm_result_note(cr, "cuda_error", GM_UNIT_RATIO, (double)s->too_big_err);
	}
}

static const struct gm_family_ops al_ops = {
	al_prepare, al_launch, al_verify, al_release, NULL, NULL, al_annotate,
};

extern "C" const struct gm_family_ops *gm_alloc_ops(void)
{
	return &al_ops;
}
