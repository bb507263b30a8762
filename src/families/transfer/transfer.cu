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
 *
 * Placement (docs/METHODOLOGY.md "Host transfers"): prepare narrows the thread
 * to the GPU's local CPUs and prefers its NUMA node for new pages
 * (src/gpu/affinity.c) before any host buffer is allocated or first touched;
 * release puts both back. One launch is `copies` copies (param), so a sample
 * of the large cases moves 0.5-4 GiB and averages the platform's short stalls.
 * Both ways (*_bidir) is self-timed: both streams start at one event, each
 * records an event after its m-th (k/2) and its last copy only, and each
 * direction's rate counts its first m copies, which must end while the other
 * direction still runs (xf_both_ways; a sample where one direction ran more
 * than 2x slower, a dip of the host link, is taken again, at most twice).
 */
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"
#include "gpu/affinity.h"

__global__ void xf_copy_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		out[i] = in[i];
}

#define XF_MAX_COPIES 64

struct xfer_state {
	int mem, dir, engine, copies;
	size_t bytes;
	struct gm_affinity aff;
	cudaEvent_t ev_a[3], ev_b[3];   /* bidir: start, end of copy m, end of copy k (xf_both_ways) */
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
	for (int i = 0; i < 3; i++) {
		if (s->ev_a[i])
			cudaEventDestroy(s->ev_a[i]);
		if (s->ev_b[i])
			cudaEventDestroy(s->ev_b[i]);
	}
	xf_host_free(&s->h_in);
	xf_host_free(&s->h_out);
	gm_gpu_free(s->d_in);
	gm_gpu_free(s->d_out);
	gm_affinity_restore(&s->aff);
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
		if (!st && (s->h_out.kind == XF_PAGEABLE || s->h_out.kind == XF_REGISTERED))
			memset(s->h_out.p, 0, s->bytes);   /* first touch here, on the GPU's CPUs and node */
		if (!st)
			st = gm_gpu_alloc((void **)&s->d_in, s->bytes);
		if (!st)
			st = gm_fill_random(s->d_in, s->bytes / 4, s->seed);
	}
	if (!st && s->dir == XF_BIDIR) {
		GM_CU(cudaStreamCreateWithFlags(&s->s2, cudaStreamNonBlocking));
		GM_CU(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming));
		GM_CU(cudaEventCreateWithFlags(&s->join, cudaEventDisableTiming));
		for (int i = 0; i < 3 && !st; i++) {
			GM_CU(cudaEventCreate(&s->ev_a[i]));
			GM_CU(cudaEventCreate(&s->ev_b[i]));
		}
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
	s->copies = (int)gm_case_param(c, "copies", 1);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	if (s->copies < (s->dir == XF_BIDIR ? 2 : 1) || s->copies > XF_MAX_COPIES) {
		int lo = s->dir == XF_BIDIR ? 2 : 1;
		free(s);
		return gm_fail(GM_ERR_INVALID_ARG, "transfer: copies %d outside %d..%d", (int)gm_case_param(c, "copies", 1),
			       lo, XF_MAX_COPIES);
	}
	/* before any host page is allocated or touched: the GPU's CPUs and memory node */
	gm_affinity_pin(s->dev->pci_domain, s->dev->pci_bus, s->dev->pci_device, &s->aff);
	st = xfer_alloc(s);
	if (st) {
		xfer_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->bytes * s->copies * (s->dir == XF_BIDIR ? 2 : 1);
	t->ops = s->copies;
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
		st = GM_OK;
		for (int i = 0; i < s->copies && !st; i++)
			st = one_way(s, s->dir == XF_D2H, gm_stream());
		/* host-timed: return only when the copies are complete */
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

/*
 * Both ways, one sample: H2D on the case stream (a), D2H on s2 (b), both
 * released by one event, `copies` copies each, an event after the m-th and the
 * last copy of each stream. values: [0] both directions' GB/s summed, [1] H2D,
 * [2] D2H (xf_both_ways).
 */
static gm_status xfer_sample(void *state, double *v)
{
	struct xfer_state *s = (struct xfer_state *)state;
	double ta[3], tb[3];
	cudaStream_t a = gm_stream();
	gm_status st = GM_OK;
	int k = s->copies, m = xf_both_ways_m(k);

	if (s->dir != XF_BIDIR)
		return gm_fail(GM_ERR_INVALID_ARG, "transfer: self-timed only both ways");
	for (int attempt = 0; attempt < 3; attempt++) {
		GM_CU(cudaEventRecord(s->ev_a[0], a));
		GM_CU(cudaStreamWaitEvent(s->s2, s->ev_a[0], 0));
		GM_CU(cudaEventRecord(s->ev_b[0], s->s2));
		for (int i = 1; i <= k && !st; i++) {
			st = one_way(s, 0, a);
			if (!st && (i == m || i == k))
				GM_CU(cudaEventRecord(s->ev_a[i == m ? 1 : 2], a));
			if (!st)
				st = one_way(s, 1, s->s2);
			if (!st && (i == m || i == k))
				GM_CU(cudaEventRecord(s->ev_b[i == m ? 1 : 2], s->s2));
		}
		if (st)
			return st;
		GM_CU(cudaStreamSynchronize(s->s2));
		GM_CU(cudaStreamSynchronize(a));
		for (int i = 0; i < 3; i++) {
			float ms;
			GM_CU(cudaEventElapsedTime(&ms, s->ev_a[0], s->ev_a[i]));
			ta[i] = ms;
			GM_CU(cudaEventElapsedTime(&ms, s->ev_a[0], s->ev_b[i]));
			tb[i] = ms;
		}
		if (xf_both_ways(ta, tb, m, (double)s->bytes, &v[1], &v[2])) {
			v[0] = v[1] + v[2];
			return GM_OK;
		}
	}
	return gm_fail(GM_ERR_INVALID_ARG,
		       "both ways: H2D %.1f and D2H %.1f GB/s, more than 2x apart in 3 samples in a row: %d of %d copies "
		       "did not end while the other direction ran", v[1], v[2], m, k);
}

static void xfer_annotate(void *state, struct gm_case_result *cr)
{
	struct xfer_state *s = (struct xfer_state *)state;
	const struct xf_host *h = has_h2d(s) ? &s->h_in : &s->h_out;

	/*
	 * GM_MAX_NOTES = 8: the runner's attempts, spread_pct, unstable, then the CPUs the thread ran on
	 * (or pinned_fallback, which must never be dropped), the buffer's NUMA node and the PCIe link
	 * (gen, width, GB/s; the GPU's node and pcie_cur_gen do not fit: the environment block has them).
	 */
	if (s->h_in.fell_back || s->h_out.fell_back)
		gm_result_note(cr, "pinned_fallback", GM_UNIT_RATIO, 1);
	else
		gm_result_note(cr, "cpus_used", GM_UNIT_RATIO, s->aff.used_cpus);
	gm_result_note(cr, "buffer_numa_node", GM_UNIT_RATIO, xf_numa_node_of(h->p));
	xf_note_link_ex(cr, s->dev, NULL, 0);
}

static const struct gm_family_ops xfer_ops = {
	xfer_prepare, xfer_launch, xfer_verify, xfer_release, NULL, xfer_sample, xfer_annotate,
};

extern "C" const struct gm_family_ops *gm_transfer_ops(void)
{
	return &xfer_ops;
}
