/*
 * overlap.cu - the chunked copy/compute pipeline (gpumem run overlap).
 *
 * Versions:
 *   stage_*    each stage alone over the 32 chunks: H2D copies, the kernel, D2H copies.
 *   streams1   chunk c: H2D, kernel, D2H, all on one stream: nothing overlaps.
 *   streams2..4 chunk c goes to stream c % S: the copy engines (one per
 *              direction on H100) and the SMs work on different chunks at once.
 * The kernel applies OV_LCG_ITERS steps of x = 1664525 x + 1013904223 to each
 * word in place: exact integer work, a closed form per word for validation,
 * long enough that it takes about as long as a chunk's copy.
 * Validation: the output (pinned host memory) is copied back and checked word
 * by word on the device against the same LCG, 4096 words again on the CPU.
 */
#include "families/common/xfer_common.cuh"
#include "families/kernels.h"

#define OV_MAX_STREAMS 4

__host__ __device__ __forceinline__ uint32_t ov_lcg(uint32_t x, int iters)
{
	for (int i = 0; i < iters; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

__global__ void ov_kernel(uint32_t *p, size_t n, int iters)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = ov_lcg(p[i], iters);
}

struct ov_expect {
	uint32_t seed;
	int iters;
	__host__ __device__ uint32_t operator()(size_t w) const { return ov_lcg(gm_hash(seed, w), iters); }
};

struct ov_state {
	int mode, nstreams;
	size_t bytes, chunk;
	struct xf_host h_in, h_out;
	uint32_t *d_buf, *d_check;
	cudaStream_t s[OV_MAX_STREAMS];
	cudaEvent_t fork, join[OV_MAX_STREAMS];
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void ov_release(void *state)
{
	struct ov_state *s = (struct ov_state *)state;

	if (!s)
		return;
	cudaStreamSynchronize(gm_stream());
	for (int i = 0; i < OV_MAX_STREAMS; i++) {
		if (s->s[i]) {
			cudaStreamSynchronize(s->s[i]);
			cudaStreamDestroy(s->s[i]);
		}
		if (s->join[i])
			cudaEventDestroy(s->join[i]);
	}
	if (s->fork)
		cudaEventDestroy(s->fork);
	xf_host_free(&s->h_in);
	xf_host_free(&s->h_out);
	gm_gpu_free(s->d_buf);
	gm_gpu_free(s->d_check);
	free(s);
}

static gm_status ov_alloc(struct ov_state *s)
{
	gm_status st = xf_host_alloc(&s->h_in, s->bytes, XF_PINNED);

	if (!st)
		st = xf_host_alloc(&s->h_out, s->bytes, XF_PINNED);
	if (!st)
		st = gm_gpu_alloc((void **)&s->d_buf, s->bytes);
	if (!st)
		st = gm_gpu_alloc((void **)&s->d_check, s->bytes);
	if (st)
		return st;
	xf_fill_host((uint32_t *)s->h_in.p, s->bytes / 4, s->seed);
	GM_CU(cudaMemcpy(s->d_buf, s->h_in.p, s->bytes, cudaMemcpyHostToDevice));
	GM_CU(cudaEventCreateWithFlags(&s->fork, cudaEventDisableTiming));
	for (int i = 0; i < s->nstreams; i++) {
		GM_CU(cudaStreamCreateWithFlags(&s->s[i], cudaStreamNonBlocking));
		GM_CU(cudaEventCreateWithFlags(&s->join[i], cudaEventDisableTiming));
	}
	return GM_OK;
}

static gm_status ov_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct ov_state *s = (struct ov_state *)calloc(1, sizeof(*s));
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "mode", OV_PIPE);
	s->nstreams = (int)gm_case_param(c, "streams", 1);
	s->bytes = (size_t)gm_case_param(c, "bytes", OV_BYTES);
	s->chunk = s->bytes / OV_CHUNKS;
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = ov_alloc(s);
	if (st) {
		ov_release(s);
		return st;
	}
	t->bytes_useful = t->bytes_hw = (double)s->bytes;
	t->working_set = (int64_t)(2 * s->bytes);
	*state = s;
	return GM_OK;
}

static gm_status ov_chunk(struct ov_state *s, size_t c, cudaStream_t st)
{
	size_t off = c * s->chunk;
	char *hin = (char *)s->h_in.p + off, *hout = (char *)s->h_out.p + off;
	uint32_t *d = s->d_buf + off / 4;
	unsigned grid = gm_resident_blocks(s->dev, 256);

	if (s->mode == OV_PIPE || s->mode == OV_STAGE_H2D)
		GM_CU(cudaMemcpyAsync(d, hin, s->chunk, cudaMemcpyHostToDevice, st));
	if (s->mode == OV_PIPE || s->mode == OV_STAGE_KERNEL) {
		/* a chunk uses the whole GPU when alone; streams share it */
		ov_kernel<<<grid, 256, 0, st>>>(d, s->chunk / 4, OV_LCG_ITERS);
		GM_CU_LAUNCH();
	}
	if (s->mode == OV_PIPE || s->mode == OV_STAGE_D2H)
		GM_CU(cudaMemcpyAsync(hout, d, s->chunk, cudaMemcpyDeviceToHost, st));
	return GM_OK;
}

static gm_status ov_launch(void *state)
{
	struct ov_state *s = (struct ov_state *)state;
	gm_status st = GM_OK;

	GM_CU(cudaEventRecord(s->fork, gm_stream()));
	for (int i = 0; i < s->nstreams; i++)
		GM_CU(cudaStreamWaitEvent(s->s[i], s->fork, 0));
	for (size_t c = 0; c < OV_CHUNKS && !st; c++)
		st = ov_chunk(s, c, s->s[c % s->nstreams]);
	for (int i = 0; i < s->nstreams; i++) {
		GM_CU(cudaEventRecord(s->join[i], s->s[i]));
		GM_CU(cudaStreamWaitEvent(gm_stream(), s->join[i], 0));
	}
	return st;
}

static gm_status ov_verify(void *state, char *why, size_t n)
{
	struct ov_state *s = (struct ov_state *)state;
	size_t nw = s->bytes / 4;
	ov_expect e = { s->seed, OV_LCG_ITERS };
	gm_status st;

	if (s->mode == OV_STAGE_H2D) {
		st = gm_poison(s->d_buf, s->bytes);
		if (!st)
			st = ov_launch(s);
		if (st)
			return st;
		GM_CU(cudaStreamSynchronize(gm_stream()));
		return gm_validate(s->d_buf, nw, gm_make_gather(gm_identity_map(), 1, s->seed), s->seed, s->dev, why, n);
	}
	/* the kernel and D2H stages start from the input on the device */
	GM_CU(cudaMemcpy(s->d_buf, s->h_in.p, s->bytes, cudaMemcpyHostToDevice));
	if (s->mode == OV_STAGE_KERNEL) {
		st = ov_launch(s);
		if (st)
			return st;
		GM_CU(cudaStreamSynchronize(gm_stream()));
		return gm_validate(s->d_buf, nw, e, s->seed, s->dev, why, n);
	}
	if (s->mode == OV_STAGE_D2H) {
		memset(s->h_out.p, GM_POISON_BYTE, s->bytes);
		st = ov_launch(s);
		if (st)
			return st;
		GM_CU(cudaStreamSynchronize(gm_stream()));
		return xf_check_host((const uint32_t *)s->h_out.p, nw, s->seed, "D2H stage", why, n);
	}
	memset(s->h_out.p, GM_POISON_BYTE, s->bytes);
	st = ov_launch(s);
	if (st)
		return st;
	GM_CU(cudaStreamSynchronize(gm_stream()));
	GM_CU(cudaMemcpy(s->d_check, s->h_out.p, s->bytes, cudaMemcpyHostToDevice));
	return gm_validate(s->d_check, nw, e, s->seed, s->dev, why, n);
}

static void ov_annotate(void *state, struct gm_case_result *cr)
{
	struct ov_state *s = (struct ov_state *)state;
	int engines = -1, dev = 0;

	if (cudaGetDevice(&dev) == cudaSuccess &&
	    cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, dev) == cudaSuccess)
		gm_result_note(cr, "copy_engines", GM_UNIT_RATIO, engines);
	gm_result_note(cr, "lcg_iters", GM_UNIT_RATIO, OV_LCG_ITERS);
	if (s->h_in.fell_back || s->h_out.fell_back)   /* pageable copies do not overlap: the row must say */
		gm_result_note(cr, "pinned_fallback", GM_UNIT_RATIO, 1);
	xf_note_link(cr, s->dev, s->h_in.p);
}

static const struct gm_family_ops ov_ops = {
	ov_prepare, ov_launch, ov_verify, ov_release, NULL, NULL, ov_annotate,
};

extern "C" const struct gm_family_ops *gm_overlap_ops(void)
{
	return &ov_ops;
}
