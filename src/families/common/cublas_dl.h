/*
 * cublas_dl.h - cuBLAS loaded at run time (dlopen), so the binary starts where
 * libcublas is absent; the cases that need it are skipped with the reason.
 * Used by the matvec and gemm families for their reference cases.
 */
#ifndef GPUMEM_KERNELS_CUBLAS_DL_H
#define GPUMEM_KERNELS_CUBLAS_DL_H

#include <cublas_api.h>
#include "gpumem/status.h"

struct gm_cublas {
	cublasStatus_t (*create)(cublasHandle_t *);
	cublasStatus_t (*destroy)(cublasHandle_t);
	cublasStatus_t (*set_stream)(cublasHandle_t, cudaStream_t);
	cublasStatus_t (*sgemv)(cublasHandle_t, cublasOperation_t, int, int, const float *, const float *, int,
				const float *, int, const float *, float *, int);
	cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
				const float *, int, const float *, int, const float *, float *, int);
	cublasStatus_t (*gemmex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
				 const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,
				 cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
};

/* The loaded library (loaded on first call), or NULL with the reason in why. */
const struct gm_cublas *gm_cublas_load(char *why, size_t n);

/* A handle on the harness stream; GM_ERR_CUDA when cuBLAS refuses. */
gm_status gm_cublas_handle(void **handle);

/* Destroy a handle from gm_cublas_handle (NULL: nothing). */
void gm_cublas_free(void *handle);

#endif
