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
const struct gm_family_ops *gm_roofline_ops(void) { return NULL; }
const struct gm_family_ops *gm_matvec_ops(void) { return NULL; }
const struct gm_family_ops *gm_gemm_ops(void) { return NULL; }
const struct gm_family_ops *gm_transfer_ops(void) { return NULL; }
const struct gm_family_ops *gm_overlap_ops(void) { return NULL; }
const struct gm_family_ops *gm_alloc_ops(void) { return NULL; }
const struct gm_family_ops *gm_atomics_ops(void) { return NULL; }
const struct gm_family_ops *gm_managed_ops(void) { return NULL; }
const struct gm_family_ops *gm_p2p_ops(void) { return NULL; }
const struct gm_family_ops *gm_l2persist_ops(void) { return NULL; }
const struct gm_family_ops *gm_cachehints_ops(void) { return NULL; }
const struct gm_family_ops *gm_constant_ops(void) { return NULL; }
const struct gm_family_ops *gm_local_ops(void) { return NULL; }
const struct gm_family_ops *gm_carveout_ops(void) { return NULL; }
const struct gm_family_ops *gm_texture_ops(void) { return NULL; }
const struct gm_family_ops *gm_remnants_ops(void) { return NULL; }
int gm_remnants_child_main(int argc, char **argv) { (void)argc; (void)argv; return 1; }
#include "gpumem/jit.h"
const struct gm_family_ops *gm_jit_ops(void) { return NULL; }
void gm_jit_set(const struct gm_jit_spec *spec, struct gm_jit_info *info) { (void)spec; (void)info; }
gm_status gm_jit_source(const struct gm_jit_spec *spec, char *buf, size_t n)
{
	(void)spec; (void)buf; (void)n;
	return gm_fail(GM_ERR_NO_DEVICE, "this gpumem was built without CUDA: explain --run needs it");
}
