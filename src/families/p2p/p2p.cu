/*
 * p2p.cu - GPU to GPU copies (gpumem run p2p). The peer is the next visible
 * device after the harness device.
 *
 *   ce_write      cudaMemcpyPeerAsync local -> peer (the copy engines).
 *   ce_bidir      local -> peer and peer -> local at once on two streams.
 *   kernel_read   a grid-stride kernel on this GPU loads the peer's buffer
 *                 through peer access and stores locally.
 *   kernel_write  loads locally, stores into the peer's buffer.
 *   ce_read       cudaMemcpyPeerAsync peer -> local, issued here (a pull).
 *   kernel_bidir  each GPU's kernel writes into the other at once (this GPU's
 *                 on the harness stream, the peer's on a stream of the peer):
 *                 the link carries both directions, driven by both GPUs' SMs.
 *   lat_ce_4k     a 4 KiB peer copy: us per copy.
 * supported(): one GPU -> skipped "one GPU"; no peer access between the two
 * -> skipped "peer access not possible". prepare enables peer access (both
 * ways) when it was not, release disables exactly what it enabled.
 * Validation: every destination word checked on this GPU (through peer
 * access for the peer's buffer) before timing.
 */
#include <dlfcn.h>
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"

struct p2p_state {
	int mode, cur, peer;
	size_t bytes;
	uint32_t *src, *dst;            /* local source, peer destination */
	uint32_t *psrc, *ldst;          /* peer source, local destination (read / bidir) */
	int enabled_here, enabled_there;
	cudaStream_t s2;
	cudaEvent_t fork, join;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static gm_status p2p_supported(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n)
{
	int count = 0, cur = 0, can = 0;

	(void)c;
	(void)cfg;
	if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
		snprintf(why, n, "one GPU visible (%d): no peer to copy to", count);
		return GM_ERR_UNSUPPORTED;
	}
	GM_CU(cudaGetDevice(&cur));
	GM_CU(cudaDeviceCanAccessPeer(&can, cur, (cur + 1) % count));
	if (!can) {
		snprintf(why, n, "peer access between GPU %d and GPU %d not possible", cur, (cur + 1) % count);
		return GM_ERR_UNSUPPORTED;
	}
	return GM_OK;
}

/* cudaMalloc on the peer, leaving the current device as it was. */
static gm_status peer_alloc(struct p2p_state *s, uint32_t **p)
{
	cudaError_t e;

	GM_CU(cudaSetDevice(s->peer));
	e = cudaMalloc((void **)p, s->bytes);
	GM_CU(cudaSetDevice(s->cur));
	if (e != cudaSuccess) {
		(void)cudaGetLastError();
		return gm_fail(GM_ERR_TOO_LARGE, "peer allocation of %zu bytes failed: %s", s->bytes,
			       cudaGetErrorString(e));
	}
	return GM_OK;
}

static void p2p_release(void *state)
{
	struct p2p_state *s = (struct p2p_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	if (s->mode == P2P_KERNEL_BIDIR)
		cudaSetDevice(s->peer);
	if (s->s2) {
		cudaStreamSynchronize(s->s2);
		cudaStreamDestroy(s->s2);
	}
	if (s->join)
		cudaEventDestroy(s->join);
	cudaSetDevice(s->cur);
	if (s->fork)
		cudaEventDestroy(s->fork);
	gm_gpu_free(s->src);
	gm_gpu_free(s->ldst);
	if (s->dst || s->psrc || s->enabled_there) {
		cudaSetDevice(s->peer);
		gm_gpu_free_here(s->dst); /* run --scrub: zeroed on the peer first */
		gm_gpu_free_here(s->psrc);
		if (s->enabled_there)
			cudaDeviceDisablePeerAccess(s->cur);
		cudaSetDevice(s->cur);
	}
	if (s->enabled_here)
		cudaDeviceDisablePeerAccess(s->peer);
	(void)cudaGetLastError();
	free(s);
}

/* Enable peer access from a to b unless it already was; *mine = 1 when we did. */
static gm_status enable_peer(int a, int b, int *mine)
{
	cudaError_t e;

	GM_CU(cudaSetDevice(a));
	e = cudaDeviceEnablePeerAccess(b, 0);
	if (e == cudaErrorPeerAccessAlreadyEnabled)
		(void)cudaGetLastError();
	else if (e != cudaSuccess)
		return gm_cuda_status(e, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
	else
		*mine = 1;
	return GM_OK;
}

/* Modes that move data from the peer into this GPU (a peer source and a local destination). */
static int needs_pull(int mode)
{
	return mode == P2P_CE_BIDIR || mode == P2P_KERNEL_READ || mode == P2P_CE_READ || mode == P2P_KERNEL_BIDIR;
}

/* Modes that move data from this GPU into the peer. */
static int needs_push(int mode)
{
	return mode != P2P_KERNEL_READ && mode != P2P_CE_READ;
}

static gm_status p2p_setup(struct p2p_state *s)
{
	gm_status st = enable_peer(s->cur, s->peer, &s->enabled_here);

	if (!st)
		st = enable_peer(s->peer, s->cur, &s->enabled_there);
	GM_CU(cudaSetDevice(s->cur));
	if (!st)
		st = gm_gpu_alloc((void **)&s->src, s->bytes);
	if (!st)
		st = peer_alloc(s, &s->dst);
	if (!st && needs_pull(s->mode)) {
		st = peer_alloc(s, &s->psrc);
		if (!st)
			st = gm_gpu_alloc((void **)&s->ldst, s->bytes);
	}
	if (!st)
		st = gm_fill_random(s->src, s->bytes / 4, s->seed);
	if (!st && s->psrc)
		st = gm_fill_random(s->psrc, s->bytes / 4, s->seed ^ 0x9e37u);
	if (!st && (s->mode == P2P_CE_BIDIR || s->mode == P2P_KERNEL_BIDIR)) {
		/* kernel_bidir: the second stream and its event live on the peer */
		int on = s->mode == P2P_KERNEL_BIDIR ? s->peer : s->cur;
		GM_CU(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming));
		GM_CU(cudaSetDevice(on));
		cudaError_t e = cudaStreamCreateWithFlags(&s->s2, cudaStreamNonBlocking);
		if (e == cudaSuccess)
			e = cudaEventCreateWithFlags(&s->join, cudaEventDisableTiming);
		GM_CU(cudaSetDevice(s->cur));
		GM_CU(e);
	}
	if (!st)
		GM_CU(cudaStreamSynchronize(gm_stream()));
	return st;
}

static gm_status p2p_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			     struct gm_traffic *t)
{
	struct p2p_state *s = (struct p2p_state *)calloc(1, sizeof(*s));
	int count = 0;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", P2P_CE_WRITE);
	s->bytes = (size_t)gm_case_param(c, "bytes", 1 << 20);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	if (cudaGetDevice(&s->cur) != cudaSuccess || cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
		free(s);
		return gm_fail(GM_ERR_UNSUPPORTED, "one GPU visible: no peer");
	}
	s->peer = (s->cur + 1) % count;
	st = p2p_setup(s);
	if (st) {
		p2p_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->bytes * (s->mode == P2P_CE_BIDIR || s->mode == P2P_KERNEL_BIDIR ? 2 : 1);
	t->ops = 1;
	t->working_set = (int64_t)t->bytes_useful;
	*state = s;
	return GM_OK;
}

static gm_status p2p_launch(void *state)
{
	struct p2p_state *s = (struct p2p_state *)state;
	cudaStream_t st = gm_stream();

	switch (s->mode) {
	case P2P_KERNEL_READ:
		return xf_copy_launch(s->psrc, s->ldst, s->bytes, s->dev, st);
	case P2P_KERNEL_WRITE:
		return xf_copy_launch(s->src, s->dst, s->bytes, s->dev, st);
	case P2P_CE_READ:
		GM_CU(cudaMemcpyPeerAsync(s->ldst, s->cur, s->psrc, s->peer, s->bytes, st));
		return GM_OK;
	case P2P_CE_BIDIR:
	case P2P_KERNEL_BIDIR: {
		gm_status r = GM_OK;
		GM_CU(cudaEventRecord(s->fork, st));
		if (s->mode == P2P_CE_BIDIR) {
			GM_CU(cudaStreamWaitEvent(s->s2, s->fork, 0));
			GM_CU(cudaMemcpyPeerAsync(s->ldst, s->cur, s->psrc, s->peer, s->bytes, s->s2));
			GM_CU(cudaMemcpyPeerAsync(s->dst, s->peer, s->src, s->cur, s->bytes, st));
			GM_CU(cudaEventRecord(s->join, s->s2));
		} else {
			/* the peer writes into this GPU while this GPU writes into the peer */
			GM_CU(cudaSetDevice(s->peer));
			cudaError_t e = cudaStreamWaitEvent(s->s2, s->fork, 0);
			r = e == cudaSuccess ? xf_copy_launch(s->psrc, s->ldst, s->bytes, s->dev, s->s2) : GM_OK;
			if (e == cudaSuccess && !r)
				e = cudaEventRecord(s->join, s->s2);
			GM_CU(cudaSetDevice(s->cur));
			GM_CU(e);
			if (!r)
				r = xf_copy_launch(s->src, s->dst, s->bytes, s->dev, st);
		}
		GM_CU(cudaStreamWaitEvent(st, s->join, 0));
		return r;
	}
	default:
		GM_CU(cudaMemcpyPeerAsync(s->dst, s->peer, s->src, s->cur, s->bytes, st));
		return GM_OK;
	}
}

static gm_status p2p_verify(void *state, char *why, size_t n)
{
	struct p2p_state *s = (struct p2p_state *)state;
	size_t nw = s->bytes / 4;
	int to_peer = needs_push(s->mode), to_local = needs_pull(s->mode);
	gm_status st = GM_OK;

	if (to_peer)
		st = gm_poison(s->dst, s->bytes);
	if (!st && to_local)
		st = gm_poison(s->ldst, s->bytes);
	if (!st)
		st = p2p_launch(s);
	if (!st && cudaStreamSynchronize(gm_stream()) != cudaSuccess)
		st = gm_fail(GM_ERR_CUDA, "p2p: synchronising the validation launch failed");
	if (!st && to_peer)
		st = gm_validate(s->dst, nw, gm_make_gather(gm_identity_map(), 1, s->seed), s->seed, s->dev, why, n);
	if (!st && to_local)
		st = gm_validate(s->ldst, nw, gm_make_gather(gm_identity_map(), 1, s->seed ^ 0x9e37u), s->seed ^ 0x9e37u,
				 s->dev, why, n);
	return st;
}

/* Active NVLink links of a device by NVML (loaded at run time); -1 unknown. */
static int nvlink_links(int dev)
{
	typedef int (*init_fn)(void);
	typedef int (*by_bus_fn)(const char *, void **);
	typedef int (*state_fn)(void *, unsigned, int *);
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	char bus[32];
	void *h = NULL;
	int links = -1;

	if (!lib)
		return -1;
	init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
	by_bus_fn by_bus = (by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	state_fn lstate = (state_fn)dlsym(lib, "nvmlDeviceGetNvLinkState");
	int (*shut)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
	if (init && by_bus && lstate && shut && init() == 0) {
		if (cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess && by_bus(bus, &h) == 0) {
			links = 0;
			for (unsigned l = 0; l < 18; l++) {
				int active = 0;
				if (lstate(h, l, &active) == 0 && active)
					links++;
			}
		}
		shut();
	}
	dlclose(lib);
	return links;
}

static void p2p_annotate(void *state, struct gm_case_result *cr)
{
	struct p2p_state *s = (struct p2p_state *)state;
	int rank = -1, atomics = -1;

	gm_result_note(cr, "peer_device", GM_UNIT_RATIO, s->peer);
	gm_result_note(cr, "peer_access_enabled", GM_UNIT_RATIO, 1);
	gm_result_note(cr, "enabled_by_case", GM_UNIT_RATIO, s->enabled_here);
	if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, s->cur, s->peer) == cudaSuccess)
		gm_result_note(cr, "p2p_perf_rank", GM_UNIT_RATIO, rank);
	if (cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, s->cur, s->peer) == cudaSuccess)
		gm_result_note(cr, "p2p_native_atomics", GM_UNIT_RATIO, atomics);
	gm_result_note(cr, "nvlink_links", GM_UNIT_RATIO, nvlink_links(s->cur));
}

static const struct gm_family_ops p2p_ops = {
	p2p_prepare, p2p_launch, p2p_verify, p2p_release, p2p_supported, NULL, p2p_annotate,
};

extern "C" const struct gm_family_ops *gm_p2p_ops(void)
{
	return &p2p_ops;
}
