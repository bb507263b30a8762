/*
 * roofline_shapes.h - constants the roofline case table (src/families/roofline/cases.c)
 * and its kernels (src/families/roofline/roofline.cu) share. Pure C.
 */
#ifndef GPUMEM_ROOFLINE_SHAPES_H
#define GPUMEM_ROOFLINE_SHAPES_H

/* Arithmetic of a ceiling case (case parameter "type"). */
enum roof_type {
	ROOF_FP32 = 0,   /* fmaf: 2 flops per lane */
	ROOF_FP64 = 1,   /* fma: 2 flops per lane */
	ROOF_FP16 = 2,   /* __hfma2 on half2: 4 flops per lane */
	ROOF_BF16 = 3,   /* __hfma2 on nv_bfloat162: 4 flops per lane */
	ROOF_NTYPES
};

#define ROOF_BLOCK 256        /* threads per block, every roofline kernel */
#define ROOF_CHAINS 16        /* independent FMA chains per thread (ceilings): 8 leave the H100 FP64 units 8 % short */
#define ROOF_ITERS 8192       /* iterations of the chain loop per launch (even): ~2 ms, so launch gaps stay < 0.2 % */
#define ROOF_UNROLL 16        /* chain-loop unroll: 16 x 16 FMAs per 3 loop instructions (1.2 % of the issue slots) */
#define ROOF_SWEEP_MIB 256    /* per-array working set of the intensity sweep */

#include <stddef.h>

struct gm_device_info;

#ifdef __cplusplus
extern "C" {
#endif
/*
 * The FMA ceiling of type t (enum roof_type) on device d in TFLOP/s: SMs x
 * FMA results per SM per clock x 2 flops x max SM clock, 0 where the device
 * is not in the table. what (n bytes) gets the formula and its source.
 * Defined in src/families/roofline/cases.c.
 */
double gm_roofline_fma_peak(const struct gm_device_info *d, int t, char *what, size_t n);
#ifdef __cplusplus
}
#endif

#endif
