/*
 * texture.cu - texture objects vs plain and __ldg loads (gpumem run texture).
 *
 * A 4096 x 4096 uint32 image is read by a column walk: thread (x, y) writes
 * out[y][x] = img[x][y], so a warp's 32 reads fall in 32 different rows (32
 * lines, not coalesced) while the next warps reuse those lines: 2D-local,
 * not coalesced. Output writes are coalesced. Block 32 x 8.
 *   v0 plain      default loads from pitched memory (cudaMallocPitch)
 *   v1 ldg        __ldg from the same pitched memory
 *   v2 tex_pitch  a texture object over the pitched memory (Pitch2D)
 *   v3 tex_array  a texture object over a CUDA array (block-linear layout)
 * Point sampling, unnormalised coordinates, element reads (exact words).
 * Validation: every output word against the closed form (gm_validate).
 */
#include "families/common/common.cuh"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

#define TX_BX 32
#define TX_BY 8

template <int MODE>
__global__ void tx_kernel(const uint32_t *img, size_t pitch_words, cudaTextureObject_t tex, uint32_t *out)
{
	int x = blockIdx.x * TX_BX + threadIdx.x, y = blockIdx.y * TX_BY + threadIdx.y;
	uint32_t v;

	if (MODE == TX_PLAIN)
		v = img[(size_t)x * pitch_words + y];
	else if (MODE == TX_LDG)
		v = __ldg(img + (size_t)x * pitch_words + y);
	else
		v = tex2D<uint32_t>(tex, (float)y + 0.5f, (float)x + 0.5f);
	out[(size_t)y * TX_DIM + x] = v;
}

struct tx_expect {
	uint32_t seed;
	__host__ __device__ uint32_t operator()(size_t w) const
	{
		size_t y = w / TX_DIM, x = w % TX_DIM;
		return gm_hash(seed, x * TX_DIM + y);
	}
};

struct tx_state {
	int mode;
	uint32_t *dense, *pitched, *out;
	size_t pitch;
	cudaArray_t arr;
	cudaTextureObject_t tex;
	uint32_t seed;
	const struct gm_device_info *dev;
};

static void tx_release(void *state)
{
	struct tx_state *s = (struct tx_state *)state;

	if (!s)
		return;
	if (s->tex)
		cudaDestroyTextureObject(s->tex);
	/* run --scrub: the array gets the zeroed dense image before it goes (an array has no memset) */
	if (s->arr && s->dense && gm_gpu_scrub_on() && gm_gpu_zero_alloc(s->dense) == GM_OK)
		(void)cudaMemcpy2DToArray(s->arr, 0, 0, s->dense, TX_DIM * sizeof(uint32_t), TX_DIM * sizeof(uint32_t),
					  TX_DIM, cudaMemcpyDeviceToDevice);
	if (s->arr)
		cudaFreeArray(s->arr);
	gm_gpu_free(s->pitched);
	(void)cudaGetLastError();
	gm_gpu_free(s->dense);
	gm_gpu_free(s->out);
	free(s);
}

static gm_status tx_storage(struct tx_state *s)
{
	size_t row = (size_t)TX_DIM * 4;
	cudaChannelFormatDesc ch = cudaCreateChannelDesc<uint32_t>();
	struct cudaResourceDesc rd;
	struct cudaTextureDesc td;

	/* the copies are ordered after the fill (harness stream) and complete before the first launch */
	GM_CU(cudaMallocPitch((void **)&s->pitched, &s->pitch, row, TX_DIM));
	GM_CU(cudaMemcpy2DAsync(s->pitched, s->pitch, s->dense, row, row, TX_DIM, cudaMemcpyDeviceToDevice,
				gm_stream()));
	memset(&rd, 0, sizeof(rd));
	memset(&td, 0, sizeof(td));
	if (s->mode == TX_TEX_ARRAY) {
		GM_CU(cudaMallocArray(&s->arr, &ch, TX_DIM, TX_DIM));
		GM_CU(cudaMemcpy2DToArrayAsync(s->arr, 0, 0, s->dense, row, row, TX_DIM, cudaMemcpyDeviceToDevice,
					       gm_stream()));
		rd.resType = cudaResourceTypeArray;
		rd.res.array.array = s->arr;
	} else {
		rd.resType = cudaResourceTypePitch2D;
		rd.res.pitch2D.devPtr = s->pitched;
		rd.res.pitch2D.desc = ch;
		rd.res.pitch2D.width = TX_DIM;
		rd.res.pitch2D.height = TX_DIM;
		rd.res.pitch2D.pitchInBytes = s->pitch;
	}
	td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
	td.filterMode = cudaFilterModePoint;
	td.readMode = cudaReadModeElementType;
	td.normalizedCoords = 0;
	if (s->mode >= TX_TEX_PITCH)
		GM_CU(cudaCreateTextureObject(&s->tex, &rd, &td, NULL));
	GM_CU(cudaStreamSynchronize(gm_stream()));
	return GM_OK;
}

static gm_status tx_prepare(const struct gm_case *c, const struct gm_run_cfg *cfg, void **state,
			    struct gm_traffic *t)
{
	struct tx_state *s = (struct tx_state *)calloc(1, sizeof(*s));
	size_t n = (size_t)TX_DIM * TX_DIM;
	gm_status st;

	if (!s)
		return GM_ERR_NOMEM;
	s->mode = (int)gm_case_param(c, "storage", TX_PLAIN);
	s->seed = cfg->seed;
	s->dev = cfg->dev;
	st = gm_gpu_alloc((void **)&s->dense, n * 4);
	if (!st)
		st = gm_gpu_alloc((void **)&s->out, n * 4);
	if (!st)
		st = gm_fill_random(s->dense, n, s->seed);
	if (!st)
		st = tx_storage(s);
	if (st) {
		tx_release(s);
		return st;
	}
	t->bytes_useful = (double)n * 8;
	t->working_set = (int64_t)(n * 12);
	*state = s;
	return GM_OK;
}

static gm_status tx_launch(void *state)
{
	struct tx_state *s = (struct tx_state *)state;
	dim3 grid(TX_DIM / TX_BX, TX_DIM / TX_BY), block(TX_BX, TX_BY);
	size_t pw = s->pitch / 4;
	cudaStream_t st = gm_stream();

	switch (s->mode) {
	case TX_LDG: tx_kernel<TX_LDG><<<grid, block, 0, st>>>(s->pitched, pw, s->tex, s->out); break;
	case TX_TEX_PITCH: tx_kernel<TX_TEX_PITCH><<<grid, block, 0, st>>>(s->pitched, pw, s->tex, s->out); break;
	case TX_TEX_ARRAY: tx_kernel<TX_TEX_ARRAY><<<grid, block, 0, st>>>(s->pitched, pw, s->tex, s->out); break;
	default: tx_kernel<TX_PLAIN><<<grid, block, 0, st>>>(s->pitched, pw, s->tex, s->out); break;
	}
	GM_CU_LAUNCH();
	return GM_OK;
}

static gm_status tx_verify(void *state, char *why, size_t n)
{
	struct tx_state *s = (struct tx_state *)state;
	tx_expect want = { s->seed };
	gm_status st = gm_poison(s->out, (size_t)TX_DIM * TX_DIM * 4);

	if (!st)
		st = tx_launch(s);
	if (!st)
		st = gm_validate(s->out, (size_t)TX_DIM * TX_DIM, want, s->seed, s->dev, why, n);
	return st;
}

static const struct gm_family_ops tx_ops = { tx_prepare, tx_launch, tx_verify, tx_release };

extern "C" const struct gm_family_ops *gm_texture_ops(void)
{
	return &tx_ops;
}
