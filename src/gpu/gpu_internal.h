/*
 * gpu_internal.h - the one CUDA-check macro, shared by the device layer and
 * the kernel files. Keeps the failing expression, file and line, and turns
 * the cudaError_t into a gm_status (nothing here prints or exits).
 */
#ifndef GPUMEM_GPU_INTERNAL_H
#define GPUMEM_GPU_INTERNAL_H

#include <cuda_runtime_api.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

gm_status gm_cuda_status(cudaError_t e, const char *expr, const char *file, int line);

#ifdef __cplusplus
}
#endif

/* Evaluate a CUDA runtime call; on failure return a status from the function. */
#define GM_CU(expr)                                                              \
	do {                                                                     \
		cudaError_t gm_e_ = (expr);                                      \
		if (gm_e_ != cudaSuccess)                                        \
			return gm_cuda_status(gm_e_, #expr, __FILE__, __LINE__); \
	} while (0)

/* Same, for the launch that just happened (cudaGetLastError). */
#define GM_CU_LAUNCH() GM_CU(cudaGetLastError())

#endif
