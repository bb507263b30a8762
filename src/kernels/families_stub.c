/* families_stub.c - no kernels in a build without CUDA. */
#include <stddef.h>
#include "kernels/kernels.h"

const struct gm_family_ops *gm_copy_ops(void) { return NULL; }
const struct gm_family_ops *gm_stride_ops(void) { return NULL; }
const struct gm_family_ops *gm_offset_ops(void) { return NULL; }
const struct gm_family_ops *gm_transpose_ops(void) { return NULL; }
const struct gm_family_ops *gm_banks_ops(void) { return NULL; }
const struct gm_family_ops *gm_rowcol_ops(void) { return NULL; }
const struct gm_family_ops *gm_hierarchy_ops(void) { return NULL; }
const struct gm_family_ops *gm_latency_ops(void) { return NULL; }
const struct gm_family_ops *gm_smem_ops(void) { return NULL; }
