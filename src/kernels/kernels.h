/*
 * kernels.h - entry points of the kernel families (src/kernels/<name>.cu).
 * In a build without CUDA, families_stub.c returns NULL for each.
 */
#ifndef GPUMEM_KERNELS_H
#define GPUMEM_KERNELS_H

#include "gpumem/bench.h"

#ifdef __cplusplus
extern "C" {
#endif

const struct gm_family_ops *gm_copy_ops(void);
const struct gm_family_ops *gm_stride_ops(void);
const struct gm_family_ops *gm_offset_ops(void);
const struct gm_family_ops *gm_transpose_ops(void);
const struct gm_family_ops *gm_banks_ops(void);
const struct gm_family_ops *gm_rowcol_ops(void);
const struct gm_family_ops *gm_hierarchy_ops(void);
const struct gm_family_ops *gm_latency_ops(void);
const struct gm_family_ops *gm_smem_ops(void);
const struct gm_family_ops *gm_roofline_ops(void);
const struct gm_family_ops *gm_matvec_ops(void);
const struct gm_family_ops *gm_gemm_ops(void);
const struct gm_family_ops *gm_transfer_ops(void);
const struct gm_family_ops *gm_overlap_ops(void);
const struct gm_family_ops *gm_alloc_ops(void);
const struct gm_family_ops *gm_atomics_ops(void);
const struct gm_family_ops *gm_managed_ops(void);
const struct gm_family_ops *gm_p2p_ops(void);
const struct gm_family_ops *gm_l2persist_ops(void);
const struct gm_family_ops *gm_cachehints_ops(void);
const struct gm_family_ops *gm_constant_ops(void);
const struct gm_family_ops *gm_local_ops(void);
const struct gm_family_ops *gm_carveout_ops(void);
const struct gm_family_ops *gm_texture_ops(void);
const struct gm_family_ops *gm_remnants_ops(void);

/*
 * gpumem run as the second process of the remnants family's proc_* cases
 * (argv: RM_CHILD_COMMAND, socket fd, device; src/kernels/remnants.cu): it
 * answers requests on the socket and returns the exit status.
 */
int gm_remnants_child_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
