/*
 * fault_cuda.c - fault injection in the CUDA runtime and the dlopen'd
 * libraries (test build only, -DGPUMEM_FAULT=ON; src/core/fault.h).
 *
 * Each wrapped runtime call (linked with --wrap=NAME, CMakeLists.txt) counts
 * itself in its class and either fails with a plausible error or calls the
 * real one. A failed call is also what the next cudaGetLastError or
 * cudaPeekAtLastError returns, as the runtime does for a failed launch.
 * The wrappers keep a ledger of what is live (device, managed and pinned
 * allocations, host registrations, pools, arrays, textures, events, streams,
 * libraries, peer access) and, at exit, report what is left, the device
 * memory and RSS against the first cudaMemGetInfo (after the context exists),
 * the persisting-L2 limit and every kernel carve-out that was changed.
 *
 * Kernel launches: cudaLaunchKernel, cudaLaunchKernelExC and __cudaLaunchKernel
 * (what CUDA 13's <<<>>> stubs call).
 *
 * dlsym is wrapped too: the NVRTC, cuBLAS, CUPTI and NVML entry points named
 * in dl_table get a forwarder that counts and fails in its class. The
 * forwarders pass 20 integer-class arguments through (x86-64 System V: every
 * wrapped entry point takes only pointers, integers and enums).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime_api.h>
#include "core/fault.h"

#if !defined(__x86_64__)
#error "the fault-injection build forwards dlsym'd calls with the x86-64 System V convention"
#endif

#define RA __builtin_return_address(0)

/* ---- the ledger ---- */
enum res { R_DEV, R_MANAGED, R_PINNED, R_REGISTERED, R_POOL, R_ARRAY, R_TEXTURE, R_EVENT, R_STREAM, R_LIBRARY,
	   R_PEER, R_BLAS, R_NVRTC, R_COUNT };
static const char *const res_names[R_COUNT] = {
	"device", "managed", "pinned", "registered", "pools", "arrays", "textures", "events", "streams",
	"libraries", "peer", "cublas", "nvrtc",
};
#define SLOTS 65536
static struct { uintptr_t key; size_t bytes; int kind; const char *case_name; const void *site; } live[SLOTS];
static long nlive[R_COUNT];
static size_t live_bytes[R_COUNT];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static cudaError_t pending;   /* what the next cudaGetLastError returns after an injected failure */

static unsigned slot_of(uintptr_t k)
{
	return (unsigned)((k >> 4) * 0x9E3779B97F4A7C15ull >> 48) % SLOTS;
}

static void ledger_add_at(int kind, uintptr_t key, size_t bytes, const void *site)
{
	if (!key || !gm_fault_on())
		return;
	pthread_mutex_lock(&mu);
	for (unsigned i = slot_of(key), n = 0; n < SLOTS; i = (i + 1) % SLOTS, n++)
		if (!live[i].key) {
			live[i].key = key;
			live[i].bytes = bytes;
			live[i].kind = kind;
			live[i].case_name = gm_fault_case_now();
			live[i].site = site;
			nlive[kind]++;
			live_bytes[kind] += bytes;
			break;
		}
	pthread_mutex_unlock(&mu);
}

#define ledger_add(kind, key, bytes) ledger_add_at(kind, key, bytes, RA)

static void ledger_del(uintptr_t key)
{
	if (!key || !gm_fault_on())
		return;
	pthread_mutex_lock(&mu);
	for (unsigned i = slot_of(key), n = 0; n < SLOTS && live[i].key; i = (i + 1) % SLOTS, n++)
		if (live[i].key == key) {
			nlive[live[i].kind]--;
			live_bytes[live[i].kind] -= live[i].bytes;
			/* backward-shift deletion keeps the probe chains whole */
			unsigned j = i;
			for (;;) {
				live[i].key = 0;
				for (;;) {
					j = (j + 1) % SLOTS;
					if (!live[j].key)
						goto done;
					unsigned h = slot_of(live[j].key);
					if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j)))
						break;
				}
				live[i] = live[j];
				i = j;
			}
		}
done:
	pthread_mutex_unlock(&mu);
}

static cudaError_t inject(int cls, const char *call, const void *site, cudaError_t e)
{
	if (!gm_fault_hit(cls, call, site))
		return cudaSuccess;
	pending = e;
	return e;
}

/* ---- state at the start (the first cudaMemGetInfo: gm_gpu_open, after the context exists) ---- */
static int have_base;
static size_t base_free;
static long base_rss_kb;
static size_t base_l2_limit;
#define MAX_FUNCS 256
static struct { const void *func; int carveout; } funcs[MAX_FUNCS];
static int nfuncs;

cudaError_t __real_cudaMemGetInfo(size_t *fr, size_t *tot);
cudaError_t __real_cudaGetLastError(void);
cudaError_t __real_cudaPeekAtLastError(void);
cudaError_t __real_cudaDeviceSynchronize(void);

static long rss_kb(void)
{
	long pages = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void at_exit(void)
{
	size_t fr = 0, tot = 0, l2 = 0;
	int changed = 0;

	fprintf(stderr, "gpumem-fault: left");
	for (int k = 0; k < R_COUNT; k++)
		fprintf(stderr, " %s=%ld", res_names[k], nlive[k]);
	fprintf(stderr, " bytes=%zu\n", live_bytes[R_DEV] + live_bytes[R_MANAGED] + live_bytes[R_PINNED] +
		live_bytes[R_REGISTERED]);
	for (int i = 0, shown = 0; i < SLOTS && shown < 12; i++)
		if (live[i].key) {
			Dl_info di;
			unsigned long off = live[i].site && dladdr(live[i].site, &di) && di.dli_fbase ?
				(unsigned long)((uintptr_t)live[i].site - (uintptr_t)di.dli_fbase) : 0;
			fprintf(stderr, "gpumem-fault: leak %s %zu B from case %s at +0x%lx\n", res_names[live[i].kind],
				live[i].bytes, live[i].case_name ? live[i].case_name : "?", off);
			shown++;
		}
	(void)__real_cudaDeviceSynchronize();
	(void)__real_cudaGetLastError();
	if (__real_cudaMemGetInfo(&fr, &tot) == cudaSuccess)
		fprintf(stderr, "gpumem-fault: memory device_delta=%lld rss_delta_kb=%ld\n",
			(long long)base_free - (long long)fr, rss_kb() - base_rss_kb);
	if (cudaDeviceGetLimit(&l2, cudaLimitPersistingL2CacheSize) != cudaSuccess)
		l2 = base_l2_limit;
	for (int i = 0; i < nfuncs; i++) {
		struct cudaFuncAttributes a;
		if (cudaFuncGetAttributes(&a, funcs[i].func) == cudaSuccess && a.preferredShmemCarveout != funcs[i].carveout)
			changed++;
	}
	fprintf(stderr, "gpumem-fault: state persisting_l2_before=%zu after=%zu carveouts_changed=%d\n",
		base_l2_limit, l2, changed);
}

cudaError_t __wrap_cudaMemGetInfo(size_t *fr, size_t *tot)
{
	cudaError_t e = __real_cudaMemGetInfo(fr, tot);

	if (e == cudaSuccess && !have_base && gm_fault_on()) {
		have_base = 1;
		base_free = *fr;
		base_rss_kb = rss_kb();
		if (cudaDeviceGetLimit(&base_l2_limit, cudaLimitPersistingL2CacheSize) != cudaSuccess)
			base_l2_limit = 0;
		atexit(at_exit); /* after the runtime's own: runs before its teardown */
	}
	return e;
}

cudaError_t __wrap_cudaGetLastError(void)
{
	cudaError_t p = pending, e = __real_cudaGetLastError();

	pending = cudaSuccess;
	return e != cudaSuccess ? e : p;
}

cudaError_t __wrap_cudaPeekAtLastError(void)
{
	cudaError_t e = __real_cudaPeekAtLastError();

	return e != cudaSuccess ? e : pending;
}

cudaError_t __real_cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
cudaError_t __wrap_cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
	if (attr == cudaFuncAttributePreferredSharedMemoryCarveout && gm_fault_on()) {
		int seen = 0;
		pthread_mutex_lock(&mu);
		for (int i = 0; i < nfuncs && !seen; i++)
			seen = funcs[i].func == func;
		if (!seen && nfuncs < MAX_FUNCS) {
			struct cudaFuncAttributes a;
			if (cudaFuncGetAttributes(&a, func) == cudaSuccess) {
				funcs[nfuncs].func = func;
				funcs[nfuncs++].carveout = a.preferredShmemCarveout;
			}
		}
		pthread_mutex_unlock(&mu);
	}
	return __real_cudaFuncSetAttribute(func, attr, value);
}

/* ---- allocation (injected failure: cudaErrorMemoryAllocation) ---- */
#define ALLOC_WRAP(cls, kind, name, params, args, ptr, bytes)                             \
	cudaError_t __real_##name params;                                                   \
	cudaError_t __wrap_##name params                                                    \
	{                                                                                   \
		cudaError_t e = inject(cls, #name, RA, cudaErrorMemoryAllocation);          \
		if (e)                                                                      \
			return e;                                                           \
		e = __real_##name args;                                                     \
		if (e == cudaSuccess)                                                       \
			ledger_add(kind, (uintptr_t)(ptr), bytes);                          \
		return e;                                                                   \
	}

ALLOC_WRAP(GM_FC_ALLOC, R_DEV, cudaMalloc, (void **p, size_t n), (p, n), *p, n)
ALLOC_WRAP(GM_FC_ALLOC, R_DEV, cudaMallocFromPoolAsync, (void **p, size_t n, cudaMemPool_t pool, cudaStream_t s),
	   (p, n, pool, s), *p, n)
ALLOC_WRAP(GM_FC_ALLOC, R_MANAGED, cudaMallocManaged, (void **p, size_t n, unsigned fl), (p, n, fl), *p, n)
ALLOC_WRAP(GM_FC_ALLOC, R_DEV, cudaMallocPitch, (void **p, size_t *pitch, size_t w, size_t h), (p, pitch, w, h), *p,
	   *pitch * h)
ALLOC_WRAP(GM_FC_ALLOC, R_ARRAY, cudaMallocArray,
	   (cudaArray_t *a, const struct cudaChannelFormatDesc *d, size_t w, size_t h, unsigned fl), (a, d, w, h, fl),
	   *a, 0)
ALLOC_WRAP(GM_FC_ALLOC, R_POOL, cudaMemPoolCreate, (cudaMemPool_t *pool, const struct cudaMemPoolProps *pp),
	   (pool, pp), *pool, 0)
ALLOC_WRAP(GM_FC_ALLOC, R_TEXTURE, cudaCreateTextureObject,
	   (cudaTextureObject_t *t, const struct cudaResourceDesc *r, const struct cudaTextureDesc *td,
	    const struct cudaResourceViewDesc *v), (t, r, td, v), *t, 0)
ALLOC_WRAP(GM_FC_PINNED, R_PINNED, cudaMallocHost, (void **p, size_t n), (p, n), *p, n)
ALLOC_WRAP(GM_FC_PINNED, R_PINNED, cudaHostAlloc, (void **p, size_t n, unsigned fl), (p, n, fl), *p, n)
ALLOC_WRAP(GM_FC_PINNED, R_REGISTERED, cudaHostRegister, (void *p, size_t n, unsigned fl), (p, n, fl), p, n)

/* ---- releases: never injected, only the ledger ---- */
#define FREE_WRAP(name, params, args, key)                                                \
	cudaError_t __real_##name params;                                                   \
	cudaError_t __wrap_##name params                                                    \
	{                                                                                   \
		cudaError_t e = __real_##name args;                                         \
		if (e == cudaSuccess)                                                       \
			ledger_del((uintptr_t)(key));                                       \
		return e;                                                                   \
	}

FREE_WRAP(cudaFree, (void *p), (p), p)
FREE_WRAP(cudaFreeAsync, (void *p, cudaStream_t s), (p, s), p)
FREE_WRAP(cudaFreeHost, (void *p), (p), p)
FREE_WRAP(cudaHostUnregister, (void *p), (p), p)
FREE_WRAP(cudaFreeArray, (cudaArray_t a), (a), a)
FREE_WRAP(cudaMemPoolDestroy, (cudaMemPool_t p), (p), p)
FREE_WRAP(cudaDestroyTextureObject, (cudaTextureObject_t t), (t), t)
FREE_WRAP(cudaEventDestroy, (cudaEvent_t ev), (ev), ev)
FREE_WRAP(cudaStreamDestroy, (cudaStream_t s), (s), s)
FREE_WRAP(cudaLibraryUnload, (cudaLibrary_t l), (l), l)

/* ---- calls that fail without side effects: launch, copy, event, stream, peer ---- */
#define CALL_WRAP(cls, err, name, params, args)                                           \
	cudaError_t __real_##name params;                                                   \
	cudaError_t __wrap_##name params                                                    \
	{                                                                                   \
		cudaError_t e = inject(cls, #name, RA, err);                                \
		return e ? e : __real_##name args;                                          \
	}

CALL_WRAP(GM_FC_LAUNCH, cudaErrorLaunchOutOfResources, cudaLaunchKernel,
	  (const void *f, dim3 g, dim3 b, void **a, size_t sm, cudaStream_t s), (f, g, b, a, sm, s))
CALL_WRAP(GM_FC_LAUNCH, cudaErrorLaunchOutOfResources, __cudaLaunchKernel,
	  (cudaKernel_t f, dim3 g, dim3 b, void **a, size_t sm, cudaStream_t s), (f, g, b, a, sm, s))
CALL_WRAP(GM_FC_LAUNCH, cudaErrorLaunchOutOfResources, cudaLaunchKernelExC,
	  (const cudaLaunchConfig_t *c, const void *f, void **a), (c, f, a))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpy, (void *d, const void *s, size_t n, enum cudaMemcpyKind k),
	  (d, s, n, k))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpyAsync,
	  (void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st), (d, s, n, k, st))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemset, (void *d, int v, size_t n), (d, v, n))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemsetAsync, (void *d, int v, size_t n, cudaStream_t st),
	  (d, v, n, st))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpyPeerAsync,
	  (void *d, int dd, const void *s, int sd, size_t n, cudaStream_t st), (d, dd, s, sd, n, st))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpy2DAsync,
	  (void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k, cudaStream_t st),
	  (d, dp, s, sp, w, h, k, st))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpy2DToArrayAsync,
	  (cudaArray_t d, size_t wo, size_t ho, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k,
	   cudaStream_t st), (d, wo, ho, s, sp, w, h, k, st))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemcpyToSymbol,
	  (const void *sym, const void *s, size_t n, size_t off, enum cudaMemcpyKind k), (sym, s, n, off, k))
CALL_WRAP(GM_FC_COPY, cudaErrorInvalidValue, cudaMemPrefetchAsync,
	  (const void *p, size_t n, struct cudaMemLocation loc, unsigned fl, cudaStream_t st), (p, n, loc, fl, st))
CALL_WRAP(GM_FC_EVENT, cudaErrorInvalidResourceHandle, cudaEventRecord, (cudaEvent_t ev, cudaStream_t s), (ev, s))
CALL_WRAP(GM_FC_EVENT, cudaErrorInvalidResourceHandle, cudaEventSynchronize, (cudaEvent_t ev), (ev))
CALL_WRAP(GM_FC_EVENT, cudaErrorInvalidResourceHandle, cudaEventElapsedTime, (float *ms, cudaEvent_t a, cudaEvent_t b),
	  (ms, a, b))
CALL_WRAP(GM_FC_STREAM, cudaErrorInvalidResourceHandle, cudaStreamSynchronize, (cudaStream_t s), (s))
CALL_WRAP(GM_FC_STREAM, cudaErrorInvalidResourceHandle, cudaDeviceSynchronize, (void), ())
CALL_WRAP(GM_FC_STREAM, cudaErrorInvalidResourceHandle, cudaStreamWaitEvent,
	  (cudaStream_t s, cudaEvent_t ev, unsigned fl), (s, ev, fl))
CALL_WRAP(GM_FC_PEER, cudaErrorInvalidDevice, cudaDeviceCanAccessPeer, (int *can, int dev, int peer), (can, dev, peer))

/* creations: injected (cudaErrorMemoryAllocation), recorded in the ledger */
ALLOC_WRAP(GM_FC_EVENT, R_EVENT, cudaEventCreate, (cudaEvent_t *ev), (ev), *ev, 0)
ALLOC_WRAP(GM_FC_EVENT, R_EVENT, cudaEventCreateWithFlags, (cudaEvent_t *ev, unsigned fl), (ev, fl), *ev, 0)
ALLOC_WRAP(GM_FC_STREAM, R_STREAM, cudaStreamCreateWithFlags, (cudaStream_t *s, unsigned fl), (s, fl), *s, 0)

cudaError_t __real_cudaLibraryLoadData(cudaLibrary_t *lib, const void *code, enum cudaJitOption *jo, void **jv,
				       unsigned nj, enum cudaLibraryOption *lo, void **lv, unsigned nl);
cudaError_t __wrap_cudaLibraryLoadData(cudaLibrary_t *lib, const void *code, enum cudaJitOption *jo, void **jv,
				       unsigned nj, enum cudaLibraryOption *lo, void **lv, unsigned nl)
{
	cudaError_t e = inject(GM_FC_COMPILE, "cudaLibraryLoadData", RA, cudaErrorInvalidKernelImage);

	if (e)
		return e;
	e = __real_cudaLibraryLoadData(lib, code, jo, jv, nj, lo, lv, nl);
	if (e == cudaSuccess)
		ledger_add(R_LIBRARY, (uintptr_t)*lib, 0);
	return e;
}

/* peer access: a key per (current device, peer) */
static uintptr_t peer_key(int peer)
{
	int cur = 0;

	cudaGetDevice(&cur);
	return 0x7000000000000000ull | (uintptr_t)(cur + 1) << 16 | (uintptr_t)(peer + 1);
}

cudaError_t __real_cudaDeviceEnablePeerAccess(int peer, unsigned fl);
cudaError_t __wrap_cudaDeviceEnablePeerAccess(int peer, unsigned fl)
{
	cudaError_t e = inject(GM_FC_PEER, "cudaDeviceEnablePeerAccess", RA, cudaErrorInvalidDevice);

	if (e)
		return e;
	e = __real_cudaDeviceEnablePeerAccess(peer, fl);
	if (e == cudaSuccess)
		ledger_add(R_PEER, peer_key(peer), 0);
	return e;
}

cudaError_t __real_cudaDeviceDisablePeerAccess(int peer);
cudaError_t __wrap_cudaDeviceDisablePeerAccess(int peer)
{
	cudaError_t e = __real_cudaDeviceDisablePeerAccess(peer);

	if (e == cudaSuccess)
		ledger_del(peer_key(peer));
	return e;
}

/* ---- dlsym: NVRTC, cuBLAS, CUPTI, NVML ---- */
typedef uintptr_t W;
typedef int (*fwd_fn)(W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W);
/* op: 1 creates (*arg0 is the new handle: ledger), 2 destroys arg0, 3 destroys *arg0; inject 0: never fails */
static struct dl_entry { const char *name; int cls, fail, op, res; fwd_fn real; } dl_table[] = {
	{ "nvrtcCreateProgram", GM_FC_COMPILE, 1 /* NVRTC_ERROR_OUT_OF_MEMORY */, 1, R_NVRTC, 0 },
	{ "nvrtcCompileProgram", GM_FC_COMPILE, 11 /* NVRTC_ERROR_INTERNAL_ERROR */, 0, 0, 0 },
	{ "nvrtcGetCUBIN", GM_FC_COMPILE, 4 /* NVRTC_ERROR_INVALID_PROGRAM */, 0, 0, 0 },
	{ "nvrtcGetCUBINSize", GM_FC_COMPILE, 4, 0, 0, 0 },
	{ "nvrtcDestroyProgram", -1, 0, 3, R_NVRTC, 0 },
	{ "cublasCreate_v2", GM_FC_BLAS, 3 /* CUBLAS_STATUS_ALLOC_FAILED */, 1, R_BLAS, 0 },
	{ "cublasDestroy_v2", -1, 0, 2, R_BLAS, 0 },
	{ "cublasSetStream_v2", GM_FC_BLAS, 1 /* CUBLAS_STATUS_NOT_INITIALIZED */, 0, 0, 0 },
	{ "cublasSgemm_v2", GM_FC_BLAS, 13 /* CUBLAS_STATUS_EXECUTION_FAILED */, 0, 0, 0 },
	{ "cublasGemmEx", GM_FC_BLAS, 13, 0, 0, 0 },
	{ "cublasSgemv_v2", GM_FC_BLAS, 13, 0, 0, 0 },
	{ "cuptiProfilerInitialize", GM_FC_CUPTI, 999 /* CUPTI_ERROR_UNKNOWN */, 0, 0, 0 },
	{ "cuptiProfilerHostInitialize", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiProfilerHostGetConfigImage", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiRangeProfilerEnable", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiRangeProfilerSetConfig", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiRangeProfilerStart", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiRangeProfilerStop", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiRangeProfilerDecodeData", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "cuptiProfilerHostEvaluateToGpuValues", GM_FC_CUPTI, 999, 0, 0, 0 },
	{ "nvmlInit_v2", GM_FC_NVML, 999 /* NVML_ERROR_UNKNOWN */, 0, 0, 0 },
	{ "nvmlDeviceGetHandleByPciBusId_v2", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetClockInfo", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetTemperature", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetPowerUsage", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetCurrPcieLinkGeneration", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetNvLinkState", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetCpuAffinity", GM_FC_NVML, 999, 0, 0, 0 },
	/* gpumem check's error counters (src/gpu/telemetry.c gm_tel_counters, the XID watch) */
	{ "nvmlDeviceGetTotalEccErrors", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetRemappedRows", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetRetiredPages", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetRetiredPagesPendingStatus", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetPcieReplayCounter", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetNvLinkErrorCounter", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetCurrentClocksEventReasons", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceGetCurrPcieLinkWidth", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlEventSetCreate", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlDeviceRegisterEvents", GM_FC_NVML, 999, 0, 0, 0 },
	{ "nvmlEventSetWait_v2", GM_FC_NVML, 999, 0, 0, 0 },
};
#define NDL ((int)(sizeof(dl_table) / sizeof(dl_table[0])))

#define FWD(i)                                                                                              \
	static int fwd_##i(W a, W b, W c, W d, W e, W f, W g, W h, W i_, W j, W k, W l, W m, W n, W o, W p, \
			   W q, W r, W s, W t)                                                              \
	{                                                                                                   \
		struct dl_entry *x = &dl_table[i];                                                          \
		if (x->cls >= 0 && gm_fault_hit(x->cls, x->name, RA))                                       \
			return x->fail;                                                                     \
		if (x->op >= 2 && a)                                                                        \
			ledger_del(x->op == 2 ? a : *(W *)a);                                               \
		int rc_ = x->real(a, b, c, d, e, f, g, h, i_, j, k, l, m, n, o, p, q, r, s, t);             \
		if (x->op == 1 && rc_ == 0 && a)                                                            \
			ledger_add(x->res, *(W *)a, 0);                                                     \
		return rc_;                                                                                 \
	}
FWD(0) FWD(1) FWD(2) FWD(3) FWD(4) FWD(5) FWD(6) FWD(7) FWD(8) FWD(9) FWD(10) FWD(11) FWD(12) FWD(13)
FWD(14) FWD(15) FWD(16) FWD(17) FWD(18) FWD(19) FWD(20) FWD(21) FWD(22) FWD(23) FWD(24) FWD(25) FWD(26) FWD(27)
FWD(28) FWD(29) FWD(30) FWD(31) FWD(32) FWD(33) FWD(34) FWD(35) FWD(36) FWD(37) FWD(38)
static const fwd_fn fwds[] = {
	fwd_0, fwd_1, fwd_2, fwd_3, fwd_4, fwd_5, fwd_6, fwd_7, fwd_8, fwd_9, fwd_10, fwd_11, fwd_12,
	fwd_13, fwd_14, fwd_15, fwd_16, fwd_17, fwd_18, fwd_19, fwd_20, fwd_21, fwd_22, fwd_23, fwd_24, fwd_25, fwd_26, fwd_27,
	fwd_28, fwd_29, fwd_30, fwd_31, fwd_32, fwd_33, fwd_34, fwd_35, fwd_36, fwd_37, fwd_38,
};
_Static_assert(sizeof(fwds) / sizeof(fwds[0]) == sizeof(dl_table) / sizeof(dl_table[0]), "one forwarder a name");

void *__real_dlsym(void *lib, const char *name);
void *__wrap_dlsym(void *lib, const char *name)
{
	void *p = __real_dlsym(lib, name);

	if (!p || !name || !gm_fault_on())
		return p;
	for (int i = 0; i < NDL; i++)
		if (!strcmp(dl_table[i].name, name)) {
			pthread_mutex_lock(&mu);
			*(void **)&dl_table[i].real = p;   /* one library per name: every dlopen gives the same */
			pthread_mutex_unlock(&mu);
			return (void *)fwds[i];
		}
	return p;
}

