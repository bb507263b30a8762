/*
 * transfer.cu - host <-> device copies (gpumem run transfer).
 *
 * Versions (all reference measurements of the platform, no numbered kernels):
 *   pinned_*        cudaMemcpyAsync on page-locked memory (cudaMallocHost): the
 *                   copy engine DMAs straight from/to the buffer.
 *   pageable_*      cudaMemcpy on malloc memory: the driver stages through its
 *                   own pinned buffers; host-timed (the call blocks).
 *   wc_h2d          write-combined pinned memory: uncached on the CPU side, may
 *                   cross PCIe faster; only H2D (CPU reads of WC memory crawl).
 *   registered_*    malloc memory pinned afterwards with cudaHostRegister.
 *   mapped_kernel_* zero-copy: a grid-stride kernel reads or writes the host
 *                   buffer through its mapped device pointer (no copy engine).
 *   *_bidir         both directions at once on two streams.
 *   lat_* / 4 KiB   small copies: us per copy, launch and DMA setup dominate.
 * Every direction is validated word by word before it is timed: H2D on the
 * device (gm_validate), D2H on the CPU (every host word against gm_hash).
 */
#include "kernels/xfer_common.cuh"
#include "kernels/kernels.h"

__global__ void xf_copy_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		out[i] = in[i];
}

struct xfer_state {
	int mem, dir, engine;
	size_t bytes;
	struct xf_host h_in, h_out;     /* H2D source, D2H destination */
	uint32_t *d_in, *d_out;         /* D2H source, H2D destination */
	cudaStream_t s2;
	cudaEvent_t fork, join;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static int has_h2d(const struct xfer_state *s) { return s->dir != XF_D2H; }
static int has_d2h(const struct xfer_state *s) { return s->dir != XF_H2D; }

static void xfer_release(void *state)
{
	struct xfer_state *s = (struct xfer_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	if (s->s2) {
		cudaStreamSynchronize(s->s2);
		cudaStreamDestroy(s->s2);
	}
	if (s->fork)
		cudaEventDestroy(s->fork);
	if (s->join)
		cudaEventDestroy(s->join);
	xf_host_free(&s->h_in);
	xf_host_free(&s->h_out);
	gm_gpu_free(s->d_in);
	gm_gpu_free(s->d_out);
	free(s);
}

static gm_status xfer_alloc(struct xfer_state *s)
{
	gm_status st = GM_OK;

	if (has_h2d(s)) {
		st = xf_host_alloc(&s->h_in, s->bytes, s->mem);
		if (!st)
			st = gm_gpu_alloc((void **)&s->d_out, s->bytes);
		if (!st)
			xf_fill_host((uint32_t *)s->h_in.p, s->bytes / 4, s->seed);
	}
	if (!st && has_d2h(s)) {
		st = xf_host_alloc(&s->h_out, s->bytes, s->mem);
		if (!st)
			st = gm_gpu_alloc((void **)&s->d_in, s->bytes);
		if (!st)
			st = gm_fill_random(s->d_in, s->bytes / 4, s->seed);
	}
	if (!st && s->dir == XF_BIDIR) {
		GM_CU(cudaStreamCreateWithFlags(&s->s2, cudaStreamNonBlocking));
		GM_CU(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming));
		GM_CU(cudaEventCreateWithFlags(&s->join, cudaEventDisableTiming));
	}
	if (!st)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	return st;
}

static gm_status xfer_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			      struct gm_traffic *t)
{
	struct xfer_state *s = (struct xfer_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mem = (int)gm_case_param(c, "mem", XF_PINNED);
	s->dir = (int)gm_case_param(c, "dir", XF_H2D);
	s->engine = (int)gm_case_param(c, "engine", XF_CE);
	s->bytes = (size_t)gm_case_param(c, "bytes", 1 << 20);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = xfer_alloc(s);
	if (st) {
		xfer_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->bytes * (s->dir == XF_BIDIR ? 2 : 1);
	t->ops = 1;
	t->working_set = (int64_t)t->bytes_useful;
	*state = s;
	return GM_OK;
}

/* One direction on stream st. */
static gm_status one_way(struct xfer_state *s, int d2h, cudaStream_t st)
{
	if (s->engine == XF_KERNEL)
		return d2h ? xf_copy_launch(s->d_in, s->h_out.dev, s->bytes, s->dev, st)
			   : xf_copy_launch(s->h_in.dev, s->d_out, s->bytes, s->dev, st);
	if (d2h)
		GM_CU(cudaMemcpyAsync(s->h_out.p, s->d_in, s->bytes, cudaMemcpyDeviceToHost, st));
	else
		GM_CU(cudaMemcpyAsync(s->d_out, s->h_in.p, s->bytes, cudaMemcpyHostToDevice, st));
	return GM_OK;
}

static gm_status xfer_launch(void *state)
{
	struct xfer_state *s = (struct xfer_state *)state;
	gm_status st;

	if (s->dir != XF_BIDIR) {
		st = one_way(s, s->dir == XF_D2H, gm_stream());
		/* host-timed: return only when the copy is complete */
		if (!st && s->mem == XF_PAGEABLE)
			GM_CU(cudaStreamSynchronize(gm_stream()));
		return st;
	}
	GM_CU(cudaEventRecord(s->fork, gm_stream()));
	GM_CU(cudaStreamWaitEvent(s->s2, s->fork, 0));
	st = one_way(s, 1, s->s2);
	if (!st)
		st = one_way(s, 0, gm_stream());
	if (st)
		return st;
	GM_CU(cudaEventRecord(s->join, s->s2));
	GM_CU(cudaStreamWaitEvent(gm_stream(), s->join, 0));
	if (s->mem == XF_PAGEABLE)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	return GM_OK;
}

static gm_status xfer_verify(void *state, char *why, size_t n)
{
	struct xfer_state *s = (struct xfer_state *)state;
	size_t nw = s->bytes / 4;
	gm_status st = GM_OK;

	if (has_h2d(s))
		st = gm_poison(s->d_out, s->bytes);
	if (!st && has_d2h(s))
		memset(s->h_out.p, GM_POISON_BYTE, s->bytes);
	if (!st)
		st = xfer_launch(s);
	if (!st)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	if (!st && has_h2d(s))
		st = gm_validate(s->d_out, nw, gm_make_gather(gm_identity_map(), 1, s->seed), s->seed, s->dev, why, n);
	if (!st && has_d2h(s))
		st = xf_check_host((const uint32_t *)s->h_out.p, nw, s->seed, "device-to-host", why, n);
	return st;
}

static void xfer_annotate(void *state, struct gm_case_result *cr)
{
	struct xfer_state *s = (struct xfer_state *)state;
	const struct xf_host *h = has_h2d(s) ? &s->h_in : &s->h_out;

	xf_note_link(cr, s->dev, h->p);
	if (s->h_in.fell_back || s->h_out.fell_back)
		gm_result_note(cr, "pinned_fallback", GM_UNIT_RATIO, 1);
}

static const struct gm_family_ops xfer_ops = {
	xfer_prepare, xfer_launch, xfer_verify, xfer_release, NULL, NULL, xfer_annotate,
};

extern "C" const struct gm_family_ops *gm_transfer_ops(void)
{
	return &xfer_ops;
}
