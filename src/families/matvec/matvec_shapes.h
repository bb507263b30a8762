/*
 * matvec_shapes.h - constants the matvec case table (src/families/matvec/cases.c)
 * and its kernels (src/families/matvec/matvec.cu) share. Pure C.
 */
#ifndef GPUMEM_MATVEC_SHAPES_H
#define GPUMEM_MATVEC_SHAPES_H

/* Kernel version (case parameter "mode"). */
enum mv_mode {
	MV_THREAD_ROW = 0,  /* y = A x, one thread per row: lanes 64 KiB apart */
	MV_WARP_ROW,        /* a warp per row, lanes on consecutive columns */
	MV_WARP_ROW_SMEM,   /* a warp per row, x staged through shared memory in tiles */
	MV_WARP_ROW_VEC4,   /* a warp per row, 16-byte loads of A and x */
	MV_WARP_ROWS4,      /* a warp per 4 rows, 16-byte loads: 4 loads in flight */
	MV_HALF_ROWS4,      /* as MV_WARP_ROWS4 with A and x in half, float sums */
	MV_CUBLAS,          /* cublasSgemv (reference) */
	MV_T_WARP_COL,      /* y = A^T x, a warp per output: the column walk */
	MV_T_THREAD_COL,    /* y = A^T x, a thread per column over a chunk of rows, atomics */
	MV_T_VEC4,          /* as MV_T_THREAD_COL, 4 columns per thread, 16-byte loads */
	MV_T_CUBLAS,        /* cublasSgemv, the transposed product (reference) */
	MV_WARP_ROWS4_U2,   /* as MV_WARP_ROWS4 with two column steps in flight: 8 loads per lane */
	MV_BLOCK_ROWS4,     /* a block per 4 rows swept in memory order, partial sums in shared memory */
};

#define MV_ROWS 16384          /* A is MV_ROWS x MV_COLS, row-major */
#define MV_COLS 16384          /* 1 GiB of float, 20x the H100's L2 */
#define MV_BLOCK 256
#define MV_SMEM_TILE 4096      /* floats of x per shared-memory tile */
#define MV_T_CHUNK 256         /* rows per block of the transposed kernels */

#endif
