/*
 * managed.cu - unified memory (gpumem run managed).
 *
 * Self-timed cases (one sample: untimed CPU write of every word (seed ^ w), so the pages
 * live on the host; then CUDA events around what the GPU does):
 *   fault         a kernel reads every word (XOR-reduced): each first touch of
 *                 a page faults and the driver migrates it.
 *   prefetch      cudaMemPrefetchAsync({Device, dev}) then the same kernel.
 *   readmostly    SetReadMostly: the faults make read-only copies on the GPU;
 *                 the CPU write of the next sample invalidates them.
 *   preferred_gpu SetPreferredLocation(device), then the CPU write and the read.
 *   accessed_by   SetPreferredLocation(host) + SetAccessedBy(device): the GPU
 *                 maps the host pages and reads them over PCIe, no migration.
 * Host-timed ping-pong (one launch = CPU writes every word (seed ^ w), kernel does
 * x = 3x + 1 on every word, CPU reads every word):
 *   pingpong_*    in managed memory, migrations both ways by faults.
 *   explicit_*    pinned host buffer + cudaMalloc + cudaMemcpyAsync both ways.
 * GB/s = the buffer's bytes / time (one pass of the data set).
 * Validation: the XOR of what the kernel read against the CPU's XOR; the
 * ping-pong's output word by word on the CPU.
 */
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"

__global__ void mg_xor_kernel(const uint32_t *__restrict__ p, size_t n, uint32_t *sink)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	uint32_t acc = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		acc ^= p[i];
	for (int off = 16; off > 0; off >>= 1)
		acc ^= __shfl_down_sync(0xffffffffu, acc, off);
	if ((threadIdx.x & 31) == 0)
		atomicXor(sink, acc);
}

__global__ void mg_step_kernel(uint32_t *p, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = 3u * p[i] + 1u;
}

struct mg_state {
	int mode, dev_id;
	size_t bytes, nw;
	uint32_t *m;                 /* managed buffer (or device buffer for explicit) */
	struct xf_host h;            /* explicit: pinned host buffer */
	uint32_t *sink;              /* device word */
	uint32_t want_xor, got_xor;
	cudaEvent_t e0, e1;
	uint32_t seed;
	int round;
	const struct gm_device_info *dev;
};

static struct cudaMemLocation mg_loc(int type, int id)
{
	struct cudaMemLocation l;
	l.type = (enum cudaMemLocationType)type;
	l.id = id;
	return l;
}

static gm_status mg_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int dev = 0, cma = 0;
	size_t fr = 0, tot = 0;
	long long bytes = gm_case_param(c, "bytes", 64 << 20);

	(void)cfg;
	GM_CU(cudaGetDevice(&dev));
	GM_CU(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev));
	GM_CU(cudaMemGetInfo(&fr, &tot));
	if (!cma && gm_case_param(c, "mode", 0) != MG_EXPLICIT) {
		snprintf(why, n, "no concurrent managed access on this device/OS (page-fault migration)");
		return GM_ERR_UNSUPPORTED;
	}
	if ((size_t)bytes + (512u << 20) > fr) {
		snprintf(why, n, "%lld bytes of managed memory exceed the %zu bytes free on the GPU", bytes, fr);
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

static void mg_release(void *state)
{
	struct mg_state *s = (struct mg_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	gm_gpu_free_here(s->m); /* run --scrub: zeroed first */
	xf_host_free(&s->h);
	gm_gpu_free(s->sink);
	if (s->e0)
		cudaEventDestroy(s->e0);
	if (s->e1)
		cudaEventDestroy(s->e1);
	free(s);
}

static gm_status mg_advise(struct mg_state *s)
{
	struct cudaMemLocation d = mg_loc(cudaMemLocationTypeDevice, s->dev_id);
	struct cudaMemLocation h = mg_loc(cudaMemLocationTypeHost, 0);

	if (s->mode == MG_READMOSTLY)
		GM_CU(cudaMemAdvise(s->m, s->bytes, cudaMemAdviseSetReadMostly, d));
	if (s->mode == MG_PREFERRED)
		GM_CU(cudaMemAdvise(s->m, s->bytes, cudaMemAdviseSetPreferredLocation, d));
	if (s->mode == MG_ACCESSED_BY) {
		GM_CU(cudaMemAdvise(s->m, s->bytes, cudaMemAdviseSetPreferredLocation, h));
		GM_CU(cudaMemAdvise(s->m, s->bytes, cudaMemAdviseSetAccessedBy, d));
	}
	return GM_OK;
}

static gm_status mg_alloc(struct mg_state *s)
{
	gm_status st;

	GM_CU(cudaGetDevice(&s->dev_id));
	GM_CU(cudaEventCreate(&s->e0));
	GM_CU(cudaEventCreate(&s->e1));
	st = gm_gpu_alloc((void **)&s->sink, 4);
	if (st)
		return st;
	if (s->mode == MG_EXPLICIT) {
		st = xf_host_alloc(&s->h, s->bytes, XF_PINNED);
		return st ? st : gm_gpu_alloc((void **)&s->m, s->bytes);
	}
	GM_CU(cudaMallocManaged((void **)&s->m, s->bytes, cudaMemAttachGlobal));
	return mg_advise(s);
}

static gm_status mg_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct mg_state *s = (struct mg_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", MG_FAULT);
	s->bytes = (size_t)gm_case_param(c, "bytes", 64 << 20);
	s->nw = s->bytes / 4;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = mg_alloc(s);
	if (st) {
		mg_release(s);
		return st;
	}
	for (size_t w = 0; w < s->nw; w++)
		s->want_xor ^= s->seed ^ (uint32_t)w;
	t->bytes_useful = t->bytes_hw = (double)s->bytes;
	t->working_set = (int64_t)s->bytes;
	*state = s;
	return GM_OK;
}

/* Self-timed read: CPU writes (untimed), then the GPU part between events. */
static gm_status mg_read_once(struct mg_state *s, float *ms)
{
	cudaStream_t st = gm_stream();
	unsigned grid = gm_resident_blocks(s->dev, 256);

	for (size_t w = 0; w < s->nw; w++)      /* the CPU writes last: pages move to the host */
		s->m[w] = s->seed ^ (uint32_t)w;
	GM_CU(cudaMemsetAsync(s->sink, 0, 4, st));
	GM_CU(cudaEventRecord(s->e0, st));
	if (s->mode == MG_PREFETCH)
		GM_CU(cudaMemPrefetchAsync(s->m, s->bytes, mg_loc(cudaMemLocationTypeDevice, s->dev_id), 0, st));
	mg_xor_kernel<<<grid, 256, 0, st>>>(s->m, s->nw, s->sink);
	GM_CU_LAUNCH();
	GM_CU(cudaEventRecord(s->e1, st));
	GM_CU(cudaMemcpyAsync(&s->got_xor, s->sink, 4, cudaMemcpyDeviceToHost, st));
	GM_CU(cudaStreamSynchronize(st));
	GM_CU(cudaEventElapsedTime(ms, s->e0, s->e1));
	return GM_OK;
}

static gm_status mg_sample(void *state, double *values)
{
	struct mg_state *s = (struct mg_state *)state;
	float ms = 0;
	gm_status st = mg_read_once(s, &ms);

	if (st)
		return st;
	if (s->got_xor != s->want_xor)
		return gm_fail(GM_ERR_VALIDATION, "managed read: xor 0x%08x, expected 0x%08x", s->got_xor, s->want_xor);
	values[0] = ms > 0 ? s->bytes / (ms * 1e-3) / 1e9 : 0;
	return GM_OK;
}

/* Host-timed ping-pong: CPU writes, GPU x = 3x + 1, CPU reads. */
static gm_status mg_launch(void *state)
{
	struct mg_state *s = (struct mg_state *)state;
	cudaStream_t st = gm_stream();
	uint32_t *cpu = s->mode == MG_EXPLICIT ? (uint32_t *)s->h.p : s->m;
	uint32_t acc = 0;

	for (size_t w = 0; w < s->nw; w++)      /* a plain store stream: seed ^ w */
		cpu[w] = s->seed ^ (uint32_t)w;
	if (s->mode == MG_EXPLICIT)
		GM_CU(cudaMemcpyAsync(s->m, cpu, s->bytes, cudaMemcpyHostToDevice, st));
	mg_step_kernel<<<gm_resident_blocks(s->dev, 256), 256, 0, st>>>(s->m, s->nw);
	GM_CU_LAUNCH();
	if (s->mode == MG_EXPLICIT)
		GM_CU(cudaMemcpyAsync(cpu, s->m, s->bytes, cudaMemcpyDeviceToHost, st));
	GM_CU(cudaStreamSynchronize(st));
	for (size_t w = 0; w < s->nw; w++)
		acc ^= cpu[w];
	s->got_xor = acc;
	return GM_OK;
}

static gm_status mg_verify(void *state, char *why, size_t n)
{
	struct mg_state *s = (struct mg_state *)state;
	gm_status st;

	if (s->mode < MG_PINGPONG) {
		float ms;
		st = mg_read_once(s, &ms);
		if (!st && s->got_xor != s->want_xor) {
			snprintf(why, n, "xor of the managed buffer read by the GPU is 0x%08x, expected 0x%08x", s->got_xor,
				 s->want_xor);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
		return st;
	}
	st = mg_launch(s);
	const uint32_t *cpu = s->mode == MG_EXPLICIT ? (const uint32_t *)s->h.p : s->m;
	for (size_t w = 0; !st && w < s->nw; w++) {
		uint32_t want = 3u * (s->seed ^ (uint32_t)w) + 1u;
		if (cpu[w] != want) {
			snprintf(why, n, "ping-pong word %zu is 0x%08x, expected 0x%08x", w, cpu[w], want);
			st = gm_fail(GM_ERR_VALIDATION, "%s", why);
		}
	}
	return st;
}

static const struct gm_family_ops mg_ops = {
	mg_prepare, mg_launch, mg_verify, mg_release, mg_supported, mg_sample, NULL,
};

extern "C" const struct gm_family_ops *gm_managed_ops(void)
{
	return &mg_ops;
}
