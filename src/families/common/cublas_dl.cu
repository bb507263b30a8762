/* cublas_dl.cu - cuBLAS through dlopen: see cublas_dl.h. */
#include <dlfcn.h>
#include <stdio.h>
#include "families/common/common.cuh"
#include "families/common/cublas_dl.h"

static struct gm_cublas blas;
static int tried, ok;
static char reason[160];

const struct gm_cublas *gm_cublas_load(char *why, size_t n)
{
	static const char *const names[] = {
		"libcublas.so.13", "libcublas.so", "/usr/local/cuda/lib64/libcublas.so.13",
		"/usr/local/cuda/targets/x86_64-linux/lib/libcublas.so.13",
	};
	void *lib = NULL;

	if (!tried) {
		tried = 1;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !lib; i++)
			lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (lib) {
			*(void **)&blas.create = dlsym(lib, "cublasCreate_v2");
			*(void **)&blas.destroy = dlsym(lib, "cublasDestroy_v2");
			*(void **)&blas.set_stream = dlsym(lib, "cublasSetStream_v2");
			*(void **)&blas.sgemv = dlsym(lib, "cublasSgemv_v2");
			*(void **)&blas.sgemm = dlsym(lib, "cublasSgemm_v2");
			*(void **)&blas.gemmex = dlsym(lib, "cublasGemmEx");
			ok = blas.create && blas.destroy && blas.set_stream && blas.sgemv && blas.sgemm && blas.gemmex;
			snprintf(reason, sizeof(reason), "cuBLAS loaded but lacks cublasSgemv_v2/Sgemm_v2/GemmEx");
		} else {
			snprintf(reason, sizeof(reason), "cuBLAS not available (libcublas.so.13 not found)");
		}
	}
	if (!ok)
		snprintf(why, n, "%s", reason);
	return ok ? &blas : NULL;
}

gm_status gm_cublas_handle(void **handle)
{
	cublasHandle_t h;
	char why[160];

	*handle = NULL;
	if (!gm_cublas_load(why, sizeof(why)))
		return gm_fail(GM_ERR_UNSUPPORTED, "%s", why);
	if (blas.create(&h) != CUBLAS_STATUS_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cublasCreate failed");
	*handle = h;
	if (blas.set_stream(h, gm_stream()) != CUBLAS_STATUS_SUCCESS)
		return gm_fail(GM_ERR_CUDA, "cublasSetStream failed");
	return GM_OK;
}

void gm_cublas_free(void *handle)
{
	if (handle)
		blas.destroy((cublasHandle_t)handle);
}
