/*
 * gpu_cuda.c - the device layer on the CUDA runtime: device query, memory
 * with a free-memory check, the harness stream and event timers.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>  /* PFN_cuMemGetAddressRange: the driver is reached through cudart */
#include <nvtx3/nvToolsExt.h>
#include "gpumem/gpu.h"
#include "gpumem/result.h"
#include "gpumem/units.h"
#include "gpu/gpu_internal.h"

static cudaStream_t harness_stream;

gm_status gm_cuda_status(cudaError_t e, const char *expr, const char *file, int line)
{
	gm_status s = GM_ERR_CUDA;

	if (e == cudaErrorNoDevice)
		s = GM_ERR_NO_DEVICE;
	else if (e == cudaErrorInsufficientDriver || e == cudaErrorStubLibrary)
		s = GM_ERR_DRIVER;
	else if (e == cudaErrorMemoryAllocation)
		s = GM_ERR_TOO_LARGE;
	(void)cudaGetLastError(); /* clear a non-sticky error */
	return gm_fail(s, "%s: %s (%s:%d)", expr, cudaGetErrorString(e), file, line);
}

gm_status gm_gpu_count(int *n)
{
	int drv = 0;

	*n = 0;
	if (cudaDriverGetVersion(&drv) != cudaSuccess || drv == 0)
		return gm_fail(GM_ERR_NO_DEVICE, "no NVIDIA driver found: this command needs a CUDA GPU "
			       "(explain, list and report work without one)");
	if (drv < CUDART_VERSION)
		return gm_fail(GM_ERR_DRIVER, "driver supports CUDA %d.%d, gpumem needs %d.%d",
			       drv / 1000, drv % 1000 / 10, CUDART_VERSION / 1000,
			       CUDART_VERSION % 1000 / 10);
	GM_CU(cudaGetDeviceCount(n));
	if (*n == 0)
		return gm_fail(GM_ERR_NO_DEVICE, "no CUDA device visible");
	return GM_OK;
}

double gm_peak_gbs(int mem_clock_khz, int bus_width_bits)
{
	/* double data rate: two transfers per memory clock */
	return 2.0 * (double)mem_clock_khz * 1e3 * (double)bus_width_bits / 8.0 / 1e9;
}

static int attr(enum cudaDeviceAttr a, int dev)
{
	int v = -1;

	if (cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess)
		v = -1;
	return v;
}

/* PCIe link from NVML, loaded at run time: optional, -1 when absent. */
static void query_pcie(struct gm_device_info *d)
{
	typedef int (*init_fn)(void);
	typedef int (*by_bus_fn)(const char *, void **);
	typedef int (*link_fn)(void *, unsigned *);
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	char bus[32];
	void *h = NULL;
	unsigned gen = 0, width = 0;

	d->pcie_gen = d->pcie_width = -1;
	if (!lib)
		return;
	init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
	by_bus_fn by_bus = (by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	link_fn lgen = (link_fn)dlsym(lib, "nvmlDeviceGetCurrPcieLinkGeneration");
	link_fn lwid = (link_fn)dlsym(lib, "nvmlDeviceGetCurrPcieLinkWidth");
	int (*shut)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
	if (init && by_bus && lgen && lwid && shut && init() == 0) {
		if (cudaDeviceGetPCIBusId(bus, sizeof(bus), d->index) == cudaSuccess &&
		    by_bus(bus, &h) == 0) {
			if (lgen(h, &gen) == 0)
				d->pcie_gen = (int)gen;
			if (lwid(h, &width) == 0)
				d->pcie_width = (int)width;
		}
		shut();
	}
	dlclose(lib);
}

gm_status gm_gpu_open(int index, struct gm_device_info *d)
{
	struct cudaDeviceProp p;
	size_t fr = 0, tot = 0;
	int n;
	gm_status s = gm_gpu_count(&n);

	if (s)
		return s;
	if (index < 0 || index >= n)
		return gm_fail(GM_ERR_INVALID_ARG, "device %d does not exist (%d visible)", index, n);
	GM_CU(cudaSetDevice(index));
	GM_CU(cudaGetDeviceProperties(&p, index));
	memset(d, 0, sizeof(*d));
	d->index = index;
	snprintf(d->name, sizeof(d->name), "%s", p.name);
	d->cc_major = p.major;
	d->cc_minor = p.minor;
	d->sm_count = p.multiProcessorCount;
	d->sm_clock_khz = attr(cudaDevAttrClockRate, index);
	d->mem_clock_khz = attr(cudaDevAttrMemoryClockRate, index);
	d->bus_width_bits = attr(cudaDevAttrGlobalMemoryBusWidth, index);
	d->l2_bytes = p.l2CacheSize;
	d->persisting_l2_max_bytes = p.persistingL2CacheMaxSize;
	d->smem_per_sm = (int64_t)p.sharedMemPerMultiprocessor;
	d->smem_per_block_optin = (int64_t)p.sharedMemPerBlockOptin;
	d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
	d->ecc = p.ECCEnabled;
	d->pci_domain = p.pciDomainID;
	d->pci_bus = p.pciBusID;
	d->pci_device = p.pciDeviceID;
	{
		const unsigned char *u = (const unsigned char *)p.uuid.bytes;

		snprintf(d->uuid, sizeof(d->uuid),
			 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
			 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	}
	GM_CU(cudaDriverGetVersion(&d->driver_version));
	GM_CU(cudaRuntimeGetVersion(&d->runtime_version));
	GM_CU(cudaMemGetInfo(&fr, &tot));
	d->free_mem = (int64_t)fr;
	d->total_mem = (int64_t)tot;
	d->peak_gbs = gm_peak_gbs(d->mem_clock_khz, d->bus_width_bits);
	query_pcie(d);
	if (!harness_stream)
		GM_CU(cudaStreamCreateWithFlags(&harness_stream, cudaStreamNonBlocking));
	return GM_OK;
}

gm_status gm_gpu_mem_info(int64_t *free_bytes, int64_t *total_bytes)
{
	size_t fr, tot;

	GM_CU(cudaMemGetInfo(&fr, &tot));
	*free_bytes = (int64_t)fr;
	*total_bytes = (int64_t)tot;
	return GM_OK;
}

gm_status gm_gpu_alloc(void **p, size_t bytes)
{
	size_t fr, tot;
	/* leave room for the context's own allocations */
	const size_t reserve = 256u << 20;

	char need[32], avail[32];

	*p = NULL;
	GM_CU(cudaMemGetInfo(&fr, &tot));
	if (bytes + reserve > fr)
		return gm_fail(GM_ERR_TOO_LARGE, "needs %s of device memory, %s free",
			       gm_format_bytes((double)bytes, need, sizeof(need)),
			       gm_format_bytes((double)fr, avail, sizeof(avail)));
	GM_CU(cudaMalloc(p, bytes));
	return GM_OK;
}

/* run --scrub (gm_gpu_set_scrub): the one switch of every free below. */
static int scrub_on_free;

void gm_gpu_set_scrub(int on)
{
	scrub_on_free = on != 0;
}

int gm_gpu_scrub_on(void)
{
	return scrub_on_free;
}

/* cuMemGetAddressRange through cudart's entry point (no link to libcuda): the allocation p is in. */
static gm_status alloc_range(void *p, void **base, size_t *bytes)
{
	static PFN_cuMemGetAddressRange_v3020 range;
	enum cudaDriverEntryPointQueryResult q;
	CUdeviceptr b = 0;
	CUresult r;

	if (!range)
		GM_CU(cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", (void **)&range, 3020,
						       cudaEnableDefault, &q));
	if (!range)
		return gm_fail(GM_ERR_DRIVER, "the driver has no cuMemGetAddressRange");
	r = range(&b, bytes, (CUdeviceptr)(uintptr_t)p);
	if (r != CUDA_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cuMemGetAddressRange: error %d", (int)r);
	*base = (void *)(uintptr_t)b;
	return GM_OK;
}

gm_status gm_gpu_zero_alloc(void *p)
{
	void *base = NULL;
	size_t bytes = 0;
	gm_status s = alloc_range(p, &base, &bytes);

	if (s)
		return s;
	GM_CU(cudaMemsetAsync(base, 0, bytes, harness_stream));
	GM_CU(cudaStreamSynchronize(harness_stream));
	return GM_OK;
}

void gm_gpu_free(void *p)
{
	if (!p)
		return;
	/* a buffer that cannot be zeroed is still freed; the failure stays in gm_last_error() */
	if (scrub_on_free)
		(void)gm_gpu_zero_alloc(p);
	cudaFree(p);
}

void gm_gpu_free_here(void *p)
{
	void *base = NULL;
	size_t bytes = 0;

	if (!p)
		return;
	/* as gm_gpu_free: a buffer that cannot be zeroed is still freed, the failure stays in gm_last_error() */
	if (scrub_on_free && alloc_range(p, &base, &bytes) == GM_OK && cudaMemset(base, 0, bytes) != cudaSuccess)
		(void)gm_fail(GM_ERR_CUDA, "cudaMemset of a scrubbed free failed: %s", cudaGetErrorString(cudaGetLastError()));
	cudaFree(p);
}

gm_status gm_gpu_free_async(void *p, size_t bytes, void *stream)
{
	if (!p)
		return GM_OK;
	if (scrub_on_free)
		GM_CU(cudaMemsetAsync(p, 0, bytes, (cudaStream_t)stream));
	GM_CU(cudaFreeAsync(p, (cudaStream_t)stream));
	return GM_OK;
}

void gm_gpu_free_host(void *p, size_t bytes)
{
	if (!p)
		return;
	if (scrub_on_free)
		memset(p, 0, bytes);
	cudaFreeHost(p);
}

gm_status gm_gpu_sync(void)
{
	GM_CU(cudaStreamSynchronize(harness_stream));
	return GM_OK;
}

void *gm_gpu_stream(void)
{
	return harness_stream;
}

struct gm_timer {
	int n;
	cudaEvent_t ev[];
};

gm_status gm_timer_create(struct gm_timer **t, int marks)
{
	struct gm_timer *x;

	*t = NULL;
	if (marks < 2)
		return GM_ERR_INVALID_ARG;
	x = calloc(1, sizeof(*x) + sizeof(cudaEvent_t) * (size_t)marks);
	if (!x)
		return GM_ERR_NOMEM;
	for (int i = 0; i < marks; i++) {
		cudaError_t e = cudaEventCreate(&x->ev[i]);
		if (e != cudaSuccess) {
			gm_timer_destroy(x);
			return gm_cuda_status(e, "cudaEventCreate(timer)", __FILE__, __LINE__);
		}
		x->n++;
	}
	*t = x;
	return GM_OK;
}

gm_status gm_timer_mark(struct gm_timer *t, int i)
{
	if (i < 0 || i >= t->n)
		return GM_ERR_INVALID_ARG;
	GM_CU(cudaEventRecord(t->ev[i], harness_stream));
	return GM_OK;
}

gm_status gm_timer_between_ms(struct gm_timer *t, int i, int j, double *ms)
{
	float f = 0;

	if (i < 0 || j < 0 || i >= t->n || j >= t->n)
		return GM_ERR_INVALID_ARG;
	GM_CU(cudaEventSynchronize(t->ev[j]));
	GM_CU(cudaEventElapsedTime(&f, t->ev[i], t->ev[j]));
	*ms = f;
	return GM_OK;
}

void gm_timer_destroy(struct gm_timer *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n; i++)
		cudaEventDestroy(t->ev[i]);
	free(t);
}

gm_status gm_gpu_state_read(struct gm_device_state *st)
{
	size_t v = 0;

	memset(st, 0, sizeof(*st));
	GM_CU(cudaDeviceGetLimit(&v, cudaLimitPersistingL2CacheSize));
	st->persisting_l2_limit = (int64_t)v;
	st->valid = 1;
	return GM_OK;
}

void gm_gpu_range_push(const char *name)
{
	nvtxRangePushA(name);
}

void gm_gpu_range_pop(void)
{
	nvtxRangePop();
}

void gm_gpu_clear_error(void)
{
	(void)cudaGetLastError();
}

void gm_gpu_close(void)
{
	if (harness_stream) {
		cudaStreamSynchronize(harness_stream);
		cudaStreamDestroy(harness_stream);
		harness_stream = NULL;
	}
}
