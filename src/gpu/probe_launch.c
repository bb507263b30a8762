/*
 * probe_launch.c - launching the built-in probe kernels (generated from
 * tests/gpu/patterns.tsv by tests/gpu/probe_gen.c) for selftest --counters.
 * Every kernel takes (gbuf, sink, smem_bytes) and runs as one block.
 */
#include <string.h>
#include <cuda_runtime_api.h>
#include "gpumem/probe.h"
#include "probe_kernels.h"

#define SINK_BYTES (1024 * 4)

static unsigned char *gbuf;
static unsigned int *sink;

int gm_probe_count(void)
{
	return gm_probe_npatterns;
}

void gm_probe_get(int i, struct gm_probe_desc *d)
{
	const struct gm_probe_pattern *p = &gm_probe_patterns[i];

	memset(d, 0, sizeof(*d));
	d->id = p->id;
	d->name = p->name;
	d->space = p->space;
	d->op = p->op;
	d->elem_bytes = p->elem_bytes;
	memcpy(d->block, p->block, sizeof(d->block));
	d->warp = p->warp;
	d->base = p->base;
	d->active = p->active;
	d->index = p->index;
	d->note = p->note;
}

static gm_status check(cudaError_t e, const char *what)
{
	return e == cudaSuccess ? GM_OK : gm_fail(GM_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

gm_status gm_probe_buffers(size_t gbytes)
{
	gm_status s;

	if ((s = check(cudaMalloc((void **)&gbuf, gbytes), "cudaMalloc probe buffer")) ||
	    (s = check(cudaMalloc((void **)&sink, SINK_BYTES), "cudaMalloc probe sink")) ||
	    (s = check(cudaMemset(gbuf, 0, gbytes), "cudaMemset")) ||
	    (s = check(cudaMemset(sink, 0, SINK_BYTES), "cudaMemset")))
		return s;
	return check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

void gm_probe_buffers_free(void)
{
	cudaFree(gbuf);
	cudaFree(sink);
	gbuf = NULL;
	sink = NULL;
}

gm_status gm_probe_launch_fn(void *launch)
{
	const struct gm_probe_launch *l = launch;
	const struct gm_probe_pattern *p = &gm_probe_patterns[l->i];
	dim3 grid = { 1, 1, 1 };
	dim3 block = { (unsigned)p->block[0], (unsigned)p->block[1], (unsigned)p->block[2] };
	long long smem_arg = (long long)l->smem;
	void *args[] = { &gbuf, &sink, &smem_arg };
	gm_status s = check(cudaLaunchKernel(p->kernel, grid, block, args, l->smem, 0), p->name);

	return s ? s : check(cudaDeviceSynchronize(), p->name);
}
