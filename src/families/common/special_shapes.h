/*
 * special_shapes.h - constants shared by the case tables (src/families/<name>/cases.c)
 * and the kernels of the l2persist, cachehints, constant and local families.
 */
#ifndef GPUMEM_KERNELS_SPECIAL_SHAPES_H
#define GPUMEM_KERNELS_SPECIAL_SHAPES_H

/* l2persist: a hot set re-read beside a stream; hitRatio in percent. */
#define LP_HOT_BYTES (16ll << 20)      /* hot set (capped at the persisting maximum) */
#define LP_STREAM_PER_HOT 3            /* 16 B stream loads per 16 B hot load */
#define LP_STREAM_BYTES (768ll << 20)  /* streamed once per launch */
#define LP_OFF (-1)                    /* no window, no carve-out */
#define LP_NOLIMIT (-2)                /* window hitRatio 1, persisting limit left at 0 */

/* cachehints: stream loads / stores with a cache hint, beside a reused table or alone. */
#define CH_STREAM_WORDS (64ll << 20)   /* 256 MiB of uint32 streamed in, 256 MiB out */
#define CH_TABLE_WORDS (4ll << 20)     /* 16 MiB table gathered at random (reused) */
#define CH_BIG_TABLE_WORDS (10ll << 20) /* 40 MiB: reuse distance near the L2 size */
enum { CH_LD_DEFAULT = 0, CH_LD_LDG, CH_LD_CG, CH_LD_CS, CH_LD_LU, CH_ST_CS, CH_ST_WT };

/* constant: warp reads with 1..32 distinct addresses per warp. */
#define CN_WORDS 1024                  /* 4 KiB constant / global table */
#define CN_ITERS 1024                  /* warp-level loads per thread per launch */

/* local: a per-thread array indexed by data (local memory) vs unrolled (registers). */
#define LM_ELEMS 32                    /* words in each thread's array */
#define LM_ITERS 64                    /* dynamic read-modify-writes per thread */
#define LM_THREADS (1 << 20)

/* texture: a column walk (transposed read) of a square uint32 image. */
#define TX_DIM 4096
enum { TX_PLAIN = 0, TX_LDG, TX_TEX_PITCH, TX_TEX_ARRAY };

/* carveout: a block per SM re-reads its own working set with a carve-out preference. */
#define CV_THREADS 1024
#define CV_PASSES 64                   /* passes over the working set per launch */

#endif
