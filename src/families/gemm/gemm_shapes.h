/*
 * gemm_shapes.h - constants the gemm case table (src/families/gemm/cases.c) and
 * its kernels (src/families/gemm/gemm.cu) share. Pure C.
 */
#ifndef GPUMEM_GEMM_SHAPES_H
#define GPUMEM_GEMM_SHAPES_H

/* Kernel version (case parameter "mode"), from naive to best. */
enum gemm_mode {
	GEMM_NAIVE = 0,     /* a thread per C element, operands from global memory */
	GEMM_SMEM,          /* 32 x 32 shared-memory tiles */
	GEMM_BLOCK1D,       /* 64 x 64 tiles, 8 results per thread in a column */
	GEMM_BLOCK2D,       /* 128 x 128 tiles, 8 x 8 results per thread */
	GEMM_VEC,           /* 2D blocking + 16-byte loads, A tile transposed in shared memory */
	GEMM_DBUF,          /* + two stages filled by cp.async while the other is computed */
	GEMM_WARPTILE,      /* + warp tiles (64 x 32 per warp), conflict-free fragments, BK 16 */
	GEMM_WARPTILE16,    /* warp tiles of 64 x 64, 8 x 16 results per thread, 128 threads */
	GEMM_WARPTILE16_S3, /* the same with three cp.async stages (dynamic shared memory, 49 KiB) */
	GEMM_WT_GROUPED,    /* v8 with grouped tile order: blocks running together share A and B panels in L2 */
	GEMM_TMA,           /* v9 on Hopper: tiles loaded by the tensor memory accelerator (TMA), mbarrier stages */
	GEMM_LEAN,          /* v9 with lean tile loads: 4 rows x 4 k of A per thread, addresses by immediates */
	GEMM_LEAN_SPLIT,    /* v11 with the last partial wave split along K (partials summed in a second kernel) */
	GEMM_LEAN_ROWS,     /* v9's rows per thread (a half-warp reads 64 B of a row), v11's addressing by immediates */
	GEMM_LEAN_ROWS_SPLIT, /* v13 with the last partial wave split along K, as v12 */
	GEMM_WT_BK8,        /* v9 with k-tiles of 8 in six stages: half the unrolled loop (instruction fetch) */
	GEMM_WT_SERP,       /* v9 with the FFMAs in rows, columns serpentine (operand reuse, register banks) */
	GEMM_WT_COLS,       /* v9 with the FFMAs in columns, rows serpentine */
	GEMM_WT_PAIRS,      /* v9 with the FFMAs in pairs of rows alternating per column, serpentine per pair */
	GEMM_WT_LOOP8,      /* v9 with a k-tile's 16 steps as a loop over two unrolled halves (half the code) */
	GEMM_WT_STREAMK,    /* v9 with its last partial wave run stream-K: R blocks, equal k-ranges across tiles */
	GEMM_TF32X3,        /* FP32 on the tensor cores: each operand big + small TF32, three mma a product (3xTF32) */
	GEMM_CUBLAS,        /* cublasSgemm (reference) */
	GEMM_TC_FP16,       /* cublasGemmEx, FP16 inputs, FP32 accumulate: the tensor cores (ceiling) */
	GEMM_TC_BF16,       /* cublasGemmEx, BF16 inputs, FP32 accumulate: the tensor cores (ceiling) */
	GEMM_NMODES
};

/* Tiled versions run on operands padded with zeros to these multiples. */
#define GEMM_PAD_M 128
#define GEMM_PAD_N 128
#define GEMM_PAD_K 16

#endif
