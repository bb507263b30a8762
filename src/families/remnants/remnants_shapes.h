/*
 * remnants_shapes.h - what the case table (src/families/remnants/cases.c) and the
 * kernels (src/families/remnants/remnants.cu) of the remnants family share. Pure C.
 */
#ifndef GPUMEM_KERNELS_REMNANTS_SHAPES_H
#define GPUMEM_KERNELS_REMNANTS_SHAPES_H

/* How the freed buffer is obtained and where the new one comes from. */
enum {
	RM_MALLOC = 0,     /* cudaMalloc, free, cudaMalloc again in this process */
	RM_POOL_SAME,      /* cudaMallocAsync pool: free and allocate again on the same stream, no sync */
	RM_POOL_OTHER,     /* the pool: free on one stream, sync, allocate on another */
	RM_POOL_TRIM,      /* the pool: free, sync, cudaMemPoolTrimTo(0), allocate */
	RM_CTX,            /* free in the primary context, allocate in a second context (cuCtxCreate) */
	RM_PROC_FREE,      /* free here, a live second process allocates */
	RM_PROC_EXIT,      /* a second process writes and exits, this one allocates */
	RM_PROC_SELF,      /* a second process frees and allocates again itself */
	RM_PROC_ENV,       /* the same with CUDA_DISABLE_MEMORY_REUSE=1 in its environment */
	RM_PINNED,         /* cudaMallocHost, cudaFreeHost, cudaMallocHost again */
	RM_SCRUB_COST,     /* time to zero a buffer before its free, per GiB */
};

/* The command word that makes gpumem the second process of the RM_PROC_* cases. */
#define RM_CHILD_COMMAND "__remnants-child"

#endif
