/*
 * remnants.cu - what a new allocation can read of what a freed one left
 * (gpumem run remnants). A trial writes marker words into a buffer, frees
 * it, allocates again and counts the markers the new buffer holds.
 *
 * Marker: 64-bit word w of a trial with tag t holds (t << 32) | w. A hit is
 * a word whose high half is t: unique to this trial (every trial draws a new
 * tag, so no earlier trial or case counts; random data matches with
 * probability 2^-32 a word); it is "in place" when its low half is its own
 * word index. fraction = markers seen / the markers the new buffer could
 * hold (min(written, allocated) words).
 *
 * A sample is two trials: one as the run is set (headline; --scrub zeroes
 * every free) and one with the free scrubbed (gm_gpu_free, gm_gpu_free_async
 * or gm_gpu_free_host with scrubbing forced on: the one path --scrub takes).
 * Extras: seen_bytes, in_place (share of the seen markers at their own
 * offset), scrubbed (the second trial's fraction), zero (share of the new
 * buffer's words that are 0 in the first: what the driver handed over
 * cleared, as opposed to someone else's data).
 *
 *   same_*, smaller_*, larger_*  cudaMalloc, write, gm_gpu_free, cudaMalloc
 *            (the same, a quarter or four times the size), count.
 *   pool_same   a cudaMallocAsync pool (release threshold UINT64_MAX: it keeps
 *            its memory, as a framework's cache does): allocate, write, free
 *            and allocate again on one stream with no synchronisation.
 *   pool_other  free on the harness stream, synchronise, allocate on another.
 *   pool_trim   free, synchronise, cudaMemPoolTrimTo(pool, 0), allocate.
 *   ctx_other   free in the primary context, allocate in a second context of
 *            the same device (driver cuCtxCreate through cudart's entry
 *            points; the runtime uses whichever context is current), copied
 *            to pinned host memory and counted on the CPU.
 *   proc_free   free here; a second gpumem process (started once per case:
 *            /proc/self/exe __remnants-child, a socket between) allocates
 *            and counts.
 *   proc_exit   a new second process per trial writes, frees only when
 *            scrubbing, and exits; this one allocates and counts.
 *   proc_self_64k  the second process frees and allocates again itself;
 *   proc_env_no_reuse_64k  the same with CUDA_DISABLE_MEMORY_REUSE=1 in its environment
 *            (a claimed switch: measured, not trusted).
 *   pinned_*    cudaMallocHost, CPU-written markers, gm_gpu_free_host,
 *            cudaMallocHost, counted on the CPU.
 *   scrub_cost_* time of the zeroing a scrubbed free adds (cudaMemsetAsync of
 *            the whole allocation and its wait), us per GiB, beside the
 *            cudaFree it precedes.
 * Validation: the marker writer and counter find every marker of a written
 * buffer in place and none of another tag (device, host copy and the second
 * process's path); gm_gpu_zero_alloc of a pointer inside a buffer leaves no
 * marker of it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <cudaTypedefs.h>
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/remnants/remnants_shapes.h"
#include "gpumem/result.h"

extern char **environ;

#define RM_BLOCK 256
#define RM_CHILD_TIMEOUT_MS 20000
#define RM_ENV_REUSE "CUDA_DISABLE_MEMORY_REUSE"

__global__ void rm_write_kernel(uint64_t *p, size_t n, uint32_t tag)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < n; w += stride)
		p[w] = (uint64_t)tag << 32 | (uint32_t)w;
}

/*
 * cnt[0] += words whose high half is tag, cnt[1] += those of them at their own
 * index, cnt[2] += words that are 0 (what the driver handed over zeroed).
 */
__global__ void rm_count_kernel(const uint64_t *p, size_t n, uint32_t tag, unsigned long long *cnt)
{
	__shared__ unsigned long long s_cnt[3];
	unsigned long long seen = 0, in = 0, zero = 0;
	size_t stride = (size_t)gridDim.x * blockDim.x;

	if (threadIdx.x < 3)
		s_cnt[threadIdx.x] = 0;
	__syncthreads();
	for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < n; w += stride) {
		uint64_t v = p[w];
		zero += v == 0;
		if ((uint32_t)(v >> 32) == tag) {
			seen++;
			in += (uint32_t)v == (uint32_t)w;
		}
	}
	if (seen) {
		atomicAdd(&s_cnt[0], seen);
		atomicAdd(&s_cnt[1], in);
	}
	if (zero)
		atomicAdd(&s_cnt[2], zero);
	__syncthreads();
	if (threadIdx.x < 3 && s_cnt[threadIdx.x])
		atomicAdd(&cnt[threadIdx.x], s_cnt[threadIdx.x]);
}

/* GM_CU as an expression: GM_OK, or the failure's status (for a path that must still free what it holds). */
#define RM_CU(expr) rm_cu((expr), #expr, __LINE__)
static gm_status rm_cu(cudaError_t e, const char *expr, int line)
{
	return e == cudaSuccess ? GM_OK : gm_cuda_status(e, expr, __FILE__, line);
}

struct rm_obs {
	double seen, in_place;   /* marker words */
	double zero;             /* words of the new buffer that are 0 */
};

/* What writing and counting on the device need, in this process or the second. */
struct rm_dev {
	unsigned blocks;
	unsigned long long *cnt;   /* device: seen, in place, zero */
};

/* A new tag for every trial of the process: markers of earlier trials never count. */
static uint32_t rm_tag(uint32_t seed)
{
	static uint32_t trials;
	uint32_t t;

	do
		t = gm_hash(seed ^ 0x52454d4eu, trials++);
	while (t == 0 || t == 0xffffffffu || t == GM_POISON_WORD);
	return t;
}

static gm_status rm_dev_init(struct rm_dev *k)
{
	int dev = 0, sms = 0;

	GM_CU(cudaGetDevice(&dev));
	GM_CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	k->blocks = (unsigned)(sms > 0 ? sms : 1) * 8;
	GM_CU(cudaMalloc((void **)&k->cnt, 3 * sizeof(*k->cnt)));
	return GM_OK;
}

static gm_status rm_write(const struct rm_dev *k, void *p, size_t bytes, uint32_t tag, cudaStream_t st)
{
	rm_write_kernel<<<k->blocks, RM_BLOCK, 0, st>>>((uint64_t *)p, bytes / 8, tag);
	GM_CU_LAUNCH();
	GM_CU(cudaStreamSynchronize(st));
	return GM_OK;
}

static gm_status rm_count(const struct rm_dev *k, const void *p, size_t bytes, uint32_t tag, cudaStream_t st,
			  struct rm_obs *o)
{
	unsigned long long h[3] = { 0, 0, 0 };

	GM_CU(cudaMemsetAsync(k->cnt, 0, sizeof(h), st));
	rm_count_kernel<<<k->blocks, RM_BLOCK, 0, st>>>((const uint64_t *)p, bytes / 8, tag, k->cnt);
	GM_CU_LAUNCH();
	GM_CU(cudaMemcpyAsync(h, k->cnt, sizeof(h), cudaMemcpyDeviceToHost, st));
	GM_CU(cudaStreamSynchronize(st));
	o->seen = (double)h[0];
	o->in_place = (double)h[1];
	o->zero = (double)h[2];
	return GM_OK;
}

static void rm_write_host(uint64_t *p, size_t n, uint32_t tag)
{
	for (size_t w = 0; w < n; w++)
		p[w] = (uint64_t)tag << 32 | (uint32_t)w;
}

static void rm_count_host(const uint64_t *p, size_t n, uint32_t tag, struct rm_obs *o)
{
	size_t seen = 0, in = 0, zero = 0;

	for (size_t w = 0; w < n; w++) {
		zero += p[w] == 0;
		if ((uint32_t)(p[w] >> 32) == tag) {
			seen++;
			in += (uint32_t)p[w] == (uint32_t)w;
		}
	}
	o->seen = (double)seen;
	o->in_place = (double)in;
	o->zero = (double)zero;
}

/* The frees of the device layer with scrubbing forced on (scrub) or as the run set it. */
static void rm_free(void *p, int scrub)
{
	int was = gm_gpu_scrub_on();

	gm_gpu_set_scrub(was || scrub);
	gm_gpu_free(p);
	gm_gpu_set_scrub(was);
}

static gm_status rm_free_async(void *p, size_t bytes, cudaStream_t st, int scrub)
{
	int was = gm_gpu_scrub_on();
	gm_status s;

	gm_gpu_set_scrub(was || scrub);
	s = gm_gpu_free_async(p, bytes, st);
	gm_gpu_set_scrub(was);
	return s;
}

static void rm_free_host(void *p, size_t bytes, int scrub)
{
	int was = gm_gpu_scrub_on();

	gm_gpu_set_scrub(was || scrub);
	gm_gpu_free_host(p, bytes);
	gm_gpu_set_scrub(was);
}

/* cudaMalloc bytes, write the markers of tag, wait; the caller frees *p. */
static gm_status rm_dev_write(const struct rm_dev *k, size_t bytes, uint32_t tag, void **p)
{
	gm_status s;

	*p = NULL;
	GM_CU(cudaMalloc(p, bytes));
	s = rm_write(k, *p, bytes, tag, gm_stream());
	if (s) {
		cudaFree(*p);
		*p = NULL;
	}
	return s;
}

/* cudaMalloc bytes, count the markers of tag in them, free them (as the run set it). */
static gm_status rm_dev_read(const struct rm_dev *k, size_t bytes, uint32_t tag, struct rm_obs *o)
{
	void *p = NULL;
	gm_status s;

	GM_CU(cudaMalloc(&p, bytes));
	s = rm_count(k, p, bytes, tag, gm_stream(), o);
	rm_free(p, 0);
	return s;
}

#include "families/remnants/remnants_proc.cuh" /* the second process */

/* ---- a second context in this process (driver API through cudart) ---- */

struct rm_driver {
	PFN_cuCtxCreate_v12050 create;
	PFN_cuCtxDestroy_v4000 destroy;
	PFN_cuCtxPushCurrent_v4000 push;
	PFN_cuCtxPopCurrent_v4000 pop;
	PFN_cuDeviceGet_v2000 get;
};

static gm_status rm_driver_load(struct rm_driver *d)
{
	static const struct {
		const char *name;
		unsigned version;
		size_t off;
	} fn[] = {
		{ "cuCtxCreate", 12050, offsetof(struct rm_driver, create) },
		{ "cuCtxDestroy", 4000, offsetof(struct rm_driver, destroy) },
		{ "cuCtxPushCurrent", 4000, offsetof(struct rm_driver, push) },
		{ "cuCtxPopCurrent", 4000, offsetof(struct rm_driver, pop) },
		{ "cuDeviceGet", 2000, offsetof(struct rm_driver, get) },
	};

	for (size_t i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
		void **slot = (void **)((char *)d + fn[i].off);
		cudaError_t e = cudaGetDriverEntryPointByVersion(fn[i].name, slot, fn[i].version, cudaEnableDefault,
								 &q);
		if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*slot) {
			(void)cudaGetLastError();
			return gm_fail(GM_ERR_UNSUPPORTED, "the driver gives no %s (version %u)", fn[i].name,
				       fn[i].version);
		}
	}
	return GM_OK;
}

/* ---- the cases ---- */

struct rm_state {
	int method, dev_index;
	size_t bytes, bytes2;        /* written, allocated again */
	uint32_t seed;
	struct rm_dev k;
	cudaMemPool_t pool;
	cudaStream_t other;
	struct rm_driver drv;
	CUcontext ctx;
	uint64_t *stage;             /* pinned, portable: ctx_other's copy for the CPU count */
	struct rm_child child;
	double child_ms;             /* the latest second process's start (proc_*) */
};

static void rm_release(void *state)
{
	struct rm_state *s = (struct rm_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	rm_child_stop(&s->child);
	if (s->ctx)
		s->drv.destroy(s->ctx);
	if (s->other)
		cudaStreamDestroy(s->other);
	if (s->pool)
		cudaMemPoolDestroy(s->pool);
	if (s->stage)
		cudaFreeHost(s->stage);
	gm_gpu_free(s->k.cnt);
	free(s);
}

static gm_status rm_pool_create(struct rm_state *s)
{
	gm_status st = gm_pool_create(&s->pool, UINT64_MAX);

	if (st)
		return st;
	if (s->method == RM_POOL_OTHER)
		GM_CU(cudaStreamCreateWithFlags(&s->other, cudaStreamNonBlocking));
	return GM_OK;
}

static gm_status rm_ctx_create(struct rm_state *s, int dev_index)
{
	CUdevice dev = 0;
	CUcontext prev = NULL;
	CUresult r;
	gm_status st = rm_driver_load(&s->drv);

	if (st)
		return st;
	r = s->drv.get(&dev, dev_index);
	if (r == CUDA_SUCCESS)
		r = s->drv.create(&s->ctx, NULL, 0, dev);
	if (r != CUDA_SUCCESS) {
		s->ctx = NULL;
		return gm_fail(GM_ERR_UNSUPPORTED, "cuCtxCreate of a second context failed (CUresult %d)", (int)r);
	}
	s->drv.pop(&prev); /* cuCtxCreate made it current: back to the primary context */
	GM_CU(cudaHostAlloc((void **)&s->stage, s->bytes2, cudaHostAllocPortable));
	return GM_OK;
}

static gm_status rm_prepare_kind(struct rm_state *s)
{
	switch (s->method) {
	case RM_POOL_SAME:
	case RM_POOL_OTHER:
	case RM_POOL_TRIM:
		return rm_pool_create(s);
	case RM_CTX:
		return rm_ctx_create(s, s->dev_index);
	case RM_PROC_FREE:
	case RM_PROC_SELF:
	case RM_PROC_ENV: {
		gm_status st = rm_child_start(&s->child, s->dev_index, s->method == RM_PROC_ENV);
		s->child_ms = s->child.start_ms;
		return st;
	}
	default:
		return GM_OK;
	}
}

static gm_status rm_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct rm_state *s = (struct rm_state *)calloc(1, sizeof(*s));
	size_t fr = 0, tot = 0;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->child.fd = -1;
	s->method = (int)gm_case_param(c, "method", RM_MALLOC);
	s->bytes = (size_t)gm_case_param(c, "bytes", 64 << 20);
	s->bytes2 = (size_t)gm_case_param(c, "bytes2", (int64_t)s->bytes);
	s->seed = cfg->seed;
	s->dev_index = cfg->dev ? cfg->dev->index : 0;
	if (s->method == RM_SCRUB_COST && cfg->array_bytes && cfg->array_bytes < s->bytes)
		s->bytes = s->bytes2 = cfg->array_bytes / 8 * 8;
	st = RM_CU(cudaMemGetInfo(&fr, &tot));
	if (!st && s->bytes + s->bytes2 + (256u << 20) > fr)
		st = gm_fail(GM_ERR_TOO_LARGE, "needs %zu bytes of device memory, %zu free", s->bytes + s->bytes2, fr);
	if (!st)
		st = rm_dev_init(&s->k);
	if (!st)
		st = rm_prepare_kind(s);
	if (st) {
		rm_release(s);
		return st;
	}
	t->working_set = (int64_t)(s->bytes > s->bytes2 ? s->bytes : s->bytes2);
	*state = s;
	return GM_OK;
}

static gm_status rm_trial_pool(struct rm_state *s, uint32_t tag, int scrub, struct rm_obs *o)
{
	cudaStream_t s1 = gm_stream(), s2 = s->method == RM_POOL_OTHER ? s->other : s1;
	void *a = NULL, *b = NULL;
	gm_status st;

	GM_CU(cudaMallocFromPoolAsync(&a, s->bytes, s->pool, s1));
	st = rm_write(&s->k, a, s->bytes, tag, s1);
	if (!st)
		st = rm_free_async(a, s->bytes, s1, scrub);
	else
		cudaFreeAsync(a, s1);
	if (!st && s->method != RM_POOL_SAME)
		st = RM_CU(cudaStreamSynchronize(s1));
	if (!st && s->method == RM_POOL_TRIM)
		st = RM_CU(cudaMemPoolTrimTo(s->pool, 0));
	if (st)
		return st;
	GM_CU(cudaMallocFromPoolAsync(&b, s->bytes2, s->pool, s2));
	st = rm_count(&s->k, b, s->bytes2, tag, s2, o);
	if (!st)
		st = rm_free_async(b, s->bytes2, s2, 0);
	else
		cudaFreeAsync(b, s2);
	cudaStreamSynchronize(s2);
	return st;
}

static gm_status rm_trial_ctx(struct rm_state *s, uint32_t tag, int scrub, struct rm_obs *o)
{
	CUcontext prev = NULL;
	void *p = NULL;
	cudaError_t e;
	gm_status st = rm_dev_write(&s->k, s->bytes, tag, &p);

	if (st)
		return st;
	rm_free(p, scrub);
	p = NULL;
	if (s->drv.push(s->ctx) != CUDA_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cuCtxPushCurrent of the second context failed");
	e = cudaMalloc(&p, s->bytes2);
	if (e == cudaSuccess)
		e = cudaMemcpy(s->stage, p, s->bytes2, cudaMemcpyDeviceToHost);
	if (p)
		cudaFree(p); /* in the second context: the harness stream of a scrubbed free is not its own */
	s->drv.pop(&prev);
	if (e != cudaSuccess)
		return gm_cuda_status(e, "allocation or copy in the second context", __FILE__, __LINE__);
	rm_count_host(s->stage, s->bytes2 / 8, tag, o);
	return GM_OK;
}

static gm_status rm_trial_pinned(struct rm_state *s, uint32_t tag, int scrub, struct rm_obs *o)
{
	void *p = NULL;

	GM_CU(cudaMallocHost(&p, s->bytes));
	rm_write_host((uint64_t *)p, s->bytes / 8, tag);
	rm_free_host(p, s->bytes, scrub);
	p = NULL;
	GM_CU(cudaMallocHost(&p, s->bytes2));
	rm_count_host((const uint64_t *)p, s->bytes2 / 8, tag, o);
	rm_free_host(p, s->bytes2, 0);
	return GM_OK;
}

/* A new second process writes the markers and exits; this one allocates and counts. */
static gm_status rm_trial_exit(struct rm_state *s, uint32_t tag, int scrub, struct rm_obs *o)
{
	struct rm_child ch;
	struct rm_obs ignored;
	gm_status st = rm_child_start(&ch, s->dev_index, 0);

	if (st)
		return st;
	s->child_ms = ch.start_ms;
	st = rm_child_ask(&ch, "write", tag, s->bytes, scrub || gm_gpu_scrub_on(), &ignored);
	close(ch.fd);
	ch.fd = -1;
	if (rm_reap(&ch, 10000) && !st)
		st = gm_fail(GM_ERR_CUDA, "the second process did not end after writing");
	if (st)
		return st;
	return rm_dev_read(&s->k, s->bytes2, tag, o);
}

static gm_status rm_trial(struct rm_state *s, int scrub, struct rm_obs *o)
{
	uint32_t tag = rm_tag(s->seed);
	void *p = NULL;
	gm_status st;

	memset(o, 0, sizeof(*o));
	switch (s->method) {
	case RM_POOL_SAME:
	case RM_POOL_OTHER:
	case RM_POOL_TRIM:
		return rm_trial_pool(s, tag, scrub, o);
	case RM_CTX:
		return rm_trial_ctx(s, tag, scrub, o);
	case RM_PINNED:
		return rm_trial_pinned(s, tag, scrub, o);
	case RM_PROC_SELF:
	case RM_PROC_ENV:
		return rm_child_ask(&s->child, "self", tag, s->bytes, scrub || gm_gpu_scrub_on(), o);
	case RM_PROC_EXIT:
		return rm_trial_exit(s, tag, scrub, o);
	default:
		break;
	}
	st = rm_dev_write(&s->k, s->bytes, tag, &p);
	if (st)
		return st;
	rm_free(p, scrub);
	if (s->method == RM_PROC_FREE)
		return rm_child_ask(&s->child, "read", tag, s->bytes2, 0, o);
	return rm_dev_read(&s->k, s->bytes2, tag, o);
}

/* scrub_cost: the zeroing a scrubbed free adds, us per GiB; extras: a plain free, a scrubbed one (us), GB/s. */
static gm_status rm_sample_cost(struct rm_state *s, double *v)
{
	void *a = NULL, *b = NULL;
	double t0, t1, t2, t3, t4, gib = (double)s->bytes / (1u << 30);
	gm_status st;

	GM_CU(cudaMalloc(&a, s->bytes));
	GM_CU(cudaMemsetAsync(a, 0x5a, s->bytes, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	t0 = rm_now_ms();
	st = gm_gpu_zero_alloc(a);
	t1 = rm_now_ms();
	cudaFree(a);
	t2 = rm_now_ms();
	if (st)
		return st;
	GM_CU(cudaMalloc(&b, s->bytes));
	GM_CU(cudaMemsetAsync(b, 0x5a, s->bytes, gm_stream()));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	t3 = rm_now_ms();
	GM_CU(cudaFree(b));
	t4 = rm_now_ms();
	v[0] = (t1 - t0) * 1e3 / gib;
	v[1] = (t4 - t3) * 1e3;
	v[2] = (t2 - t0) * 1e3;
	v[3] = t1 > t0 ? (double)s->bytes / ((t1 - t0) * 1e-3) / 1e9 : 0;
	return GM_OK;
}

static gm_status rm_sample(void *state, double *v)
{
	struct rm_state *s = (struct rm_state *)state;
	struct rm_obs a, b;
	double possible = (double)((s->bytes < s->bytes2 ? s->bytes : s->bytes2) / 8);
	gm_status st;

	if (s->method == RM_SCRUB_COST)
		return rm_sample_cost(s, v);
	st = rm_trial(s, 0, &a);
	if (!st)
		st = rm_trial(s, 1, &b);
	if (st)
		return st;
	v[0] = a.seen / possible;
	v[1] = a.seen * 8;
	v[2] = a.seen > 0 ? a.in_place / a.seen : 0;
	v[3] = b.seen / possible;
	v[4] = a.zero / (double)(s->bytes2 / 8);
	return GM_OK;
}

static gm_status rm_launch(void *state)
{
	double v[1 + GM_MAX_EXTRAS];

	return rm_sample(state, v);
}

/* gm_gpu_zero_alloc of a pointer inside a marked buffer leaves none of its markers. */
static gm_status rm_verify_zero(struct rm_state *s, char *why, size_t n)
{
	const size_t bytes = 4u << 20;
	uint32_t tag = rm_tag(s->seed);
	struct rm_obs o = { 0, 0 };
	void *p = NULL;
	gm_status st = rm_dev_write(&s->k, bytes, tag, &p);

	if (!st)
		st = gm_gpu_zero_alloc((char *)p + 4096);
	if (!st)
		st = rm_count(&s->k, p, bytes, tag, gm_stream(), &o);
	cudaFree(p);
	if (!st && o.seen != 0) {
		snprintf(why, n, "after zeroing, %.0f of %zu marker words remain", o.seen, bytes / 8);
		st = gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return st;
}

/* The markers of tag, written into bytes by the path the case reads with, counted for tag and other. */
static gm_status rm_verify_count(struct rm_state *s, uint32_t tag, uint32_t other, struct rm_obs *a,
				 struct rm_obs *b)
{
	size_t bytes = s->bytes < s->bytes2 ? s->bytes : s->bytes2;
	struct rm_child ch;
	void *p = NULL;
	gm_status st;

	if (s->method == RM_PINNED) {
		GM_CU(cudaMallocHost(&p, bytes));
		rm_write_host((uint64_t *)p, bytes / 8, tag);
		rm_count_host((const uint64_t *)p, bytes / 8, tag, a);
		rm_count_host((const uint64_t *)p, bytes / 8, other, b);
		gm_gpu_free_host(p, bytes);
		return GM_OK;
	}
	if (s->method >= RM_PROC_FREE && s->method <= RM_PROC_ENV) {
		int temp = s->child.fd < 0;
		st = temp ? rm_child_start(&ch, s->dev_index, 0) : GM_OK;
		if (!temp)
			ch = s->child;
		if (!st)
			st = rm_child_ask(&ch, "check", tag, bytes, 0, a);
		if (temp)
			rm_child_stop(&ch);
		return st;
	}
	st = rm_dev_write(&s->k, bytes, tag, &p);
	if (st)
		return st;
	if (s->method == RM_CTX) {
		st = RM_CU(cudaMemcpy(s->stage, p, bytes, cudaMemcpyDeviceToHost));
		if (!st) {
			rm_count_host(s->stage, bytes / 8, tag, a);
			rm_count_host(s->stage, bytes / 8, other, b);
		}
	} else {
		st = rm_count(&s->k, p, bytes, tag, gm_stream(), a);
		if (!st)
			st = rm_count(&s->k, p, bytes, other, gm_stream(), b);
	}
	rm_free(p, 0);
	return st;
}

static gm_status rm_verify(void *state, char *why, size_t n)
{
	struct rm_state *s = (struct rm_state *)state;
	uint32_t tag = rm_tag(s->seed), other = rm_tag(s->seed);
	double words = (double)((s->bytes < s->bytes2 ? s->bytes : s->bytes2) / 8);
	struct rm_obs a = { 0, 0 }, b = { 0, 0 };
	gm_status st;

	if (s->method == RM_SCRUB_COST)
		return rm_verify_zero(s, why, n);
	st = rm_verify_count(s, tag, other, &a, &b);
	if (st)
		return st;
	if (a.seen != words || a.in_place != words || b.seen != 0) {
		snprintf(why, n, "a buffer of %.0f marker words counted %.0f (%.0f in place), %.0f of another tag",
			 words, a.seen, a.in_place, b.seen);
		return gm_fail(GM_ERR_VALIDATION, "%s", why);
	}
	return GM_OK;
}

static void rm_annotate(void *state, struct gm_case_result *cr)
{
	struct rm_state *s = (struct rm_state *)state;

	gm_result_note(cr, "scrub_on_free", GM_UNIT_RATIO, gm_gpu_scrub_on());
	gm_result_note(cr, "written_bytes", GM_UNIT_BYTES, (double)s->bytes);
	if (s->method != RM_SCRUB_COST)
		gm_result_note(cr, "allocated_bytes", GM_UNIT_BYTES, (double)s->bytes2);
	if (s->child_ms > 0)
		gm_result_note(cr, "child_start_us", GM_UNIT_US, s->child_ms * 1e3);
}

/*
 * run --sanitize: the trials read memory they did not write, on purpose, so initcheck would flag every word.
 * They run under the tools that check something else (GPUMEM_SANITIZER=memcheck, racecheck or synccheck, as
 * scripts/gpu_session.sh's sanitize_all sets it; the second processes run under the tool too); with the
 * variable unset or initcheck, only scrub_cost runs there.
 */
static gm_status rm_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	const char *tool = getenv("GPUMEM_SANITIZER");
	int reads_unwritten = gm_case_param(c, "method", RM_MALLOC) != RM_SCRUB_COST;

	if (cfg->sanitize && reads_unwritten && (!tool || !*tool || !strcmp(tool, "initcheck"))) {
		snprintf(why, n, "reads memory it did not write, on purpose: not run under --sanitize with initcheck "
			 "(GPUMEM_SANITIZER unset or initcheck)");
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static const struct gm_family_ops rm_ops = {
	rm_prepare, rm_launch, rm_verify, rm_release, rm_supported, rm_sample, rm_annotate,
};

extern "C" const struct gm_family_ops *gm_remnants_ops(void)
{
	return &rm_ops;
}
