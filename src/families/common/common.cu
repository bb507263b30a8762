/* common.cu - input fill, poison and the device-check bookkeeping. */
#include <string.h>
#include "families/common/common.cuh"

__global__ void gm_fill_kernel(uint32_t *p, size_t nwords, uint32_t seed)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t w = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w < nwords; w += stride)
		p[w] = gm_hash(seed, w);
}

gm_status gm_fill_random(uint32_t *p, size_t nwords, uint32_t seed)
{
	gm_fill_kernel<<<4096, 256, 0, gm_stream()>>>(p, nwords, seed);
	GM_CU_LAUNCH();
	return GM_OK;
}

gm_status gm_poison(void *p, size_t bytes)
{
	GM_CU(cudaMemsetAsync(p, GM_POISON_BYTE, bytes, gm_stream()));
	return GM_OK;
}

gm_status gm_pool_create(cudaMemPool_t *pool, uint64_t release_threshold)
{
	cudaMemPoolProps p;
	int dev = 0;

	GM_CU(cudaGetDevice(&dev));
	memset(&p, 0, sizeof(p));
	p.allocType = cudaMemAllocationTypePinned;
	p.location.type = cudaMemLocationTypeDevice;
	p.location.id = dev;
	GM_CU(cudaMemPoolCreate(pool, &p));
	GM_CU(cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &release_threshold));
	return GM_OK;
}

gm_status gm_check_alloc(struct gm_check **dev_res)
{
	struct gm_check init = { 0, ~0ull };

	cudaError_t e;

	GM_CU(cudaMalloc((void **)dev_res, sizeof(**dev_res)));
	e = cudaMemcpyAsync(*dev_res, &init, sizeof(init), cudaMemcpyHostToDevice, gm_stream());
	if (e != cudaSuccess) {   /* the result buffer is freed here: gm_validate returns without it */
		gm_gpu_free(*dev_res);
		*dev_res = NULL;
		return gm_cuda_status(e, "cudaMemcpyAsync(check result)", __FILE__, __LINE__);
	}
	return GM_OK;
}

gm_status gm_check_finish(struct gm_check *dev_res, const uint32_t *out, char *why, size_t n, int *ok)
{
	struct gm_check r;
	uint32_t got = 0;
	cudaError_t e = cudaGetLastError();

	if (e == cudaSuccess)
		e = cudaMemcpyAsync(&r, dev_res, sizeof(r), cudaMemcpyDeviceToHost, gm_stream());
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(gm_stream());
	gm_gpu_free(dev_res);
	if (e != cudaSuccess)
		return gm_cuda_status(e, "validation kernel", __FILE__, __LINE__);
	*ok = r.bad == 0;
	if (!*ok) {
		GM_CU(cudaMemcpy(&got, out + r.first, sizeof(got), cudaMemcpyDeviceToHost));
		snprintf(why, n, "%llu wrong words; first at word %llu: 0x%08x%s",
			 r.bad, r.first, got,
			 got == GM_POISON_WORD ? " (never written)" : "");
	}
	return GM_OK;
}

__global__ void gm_gather_words(const uint32_t *out, const size_t *idx, uint32_t *got, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		got[i] = out[idx[i]];
}
