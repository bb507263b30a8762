/*
 * hier_shapes.h - constants the hierarchy, latency and smem case tables
 * (src/families/<name>/cases.c) share with their kernels. Plain C.
 */
#ifndef GPUMEM_KERNELS_HIER_SHAPES_H
#define GPUMEM_KERNELS_HIER_SHAPES_H

/* hierarchy modes */
#define HIER_L1_READ 0   /* per-SM footprint: block b re-reads its own buffer, ld.global.ca */
#define HIER_L2_READ 1   /* whole-GPU footprint, ordered sweep: each line read by one SM per pass, ld.global.cg */
#define HIER_WRITE 2     /* whole-GPU footprint, st.global (write-back hint; L1 is write-through) */
#define HIER_L2_SHARED 3 /* whole-GPU footprint read whole by every block (one per SM): data shared by all SMs, ld.global.cg */
/* l1 kernel versions (case parameter "ver"): 1 = 16 B loads, slot index wrapped per load;
 * 2-8 = whole passes, pointer walk with immediate offsets: 2, 3, 4 = 16 / 8 / 4 B ld.global.ca,
 * 4 loads a step; 5 = 16 B ld.global.nc; 6 = 8 B ld.global.ca, 8 a step; 7 = 4 B ld.global.nc,
 * 8 a step (the shape of gpu-benches' gpu-cache); 8 = 16 B ld.global.ca, 8 a step; 9 = 8 B ld.global.ca,
 * 8 a step at immediate offsets from a 32-bit byte offset of the block's buffer (v6 with a 32-bit wrap:
 * 1.7 non-load instructions a load instead of 2.3; footprints of a multiple of 64 KiB). */
#define HIER_L1_VERS 9
#define HIER_L1_LAUNCH_GB 64 /* l1: about this many GB read per launch (~2 ms at L1 bandwidth); case param launch_gb */
#define HIER_L1_VER 3    /* the version of the l1_* series (the capacity knee) */
#define HIER_BLOCK 1024  /* threads per block */
#define HIER_ILP 4       /* independent 16 B loads in flight per thread (l2/wr: 16 KiB chunks per block) */
#define HIER_SUM_GROUPS 128 /* l2: counters = groups x 32 warps, block B adds into group B mod this */

/* latency: which slots of the footprint the chase visits */
#define LAT_ALL 0
#define LAT_NEAR 1       /* lines the probe found fast from the chasing SM */
#define LAT_FAR 2        /* lines the probe found slow */
#define LAT_HINT_CA 0    /* ld.global.ca: L1 may serve */
#define LAT_HINT_CG 1    /* ld.global.cg: L2 and below */

/* smem */
#define SMEM_BLOCK 1024
#define SMEM_BYTES_PER_BLOCK (32 * 1024)
#define SMEM_LAT_SLOTS 1024

#endif
