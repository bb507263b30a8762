/*
 * kernels.h - entry points of the kernel families (src/families/<name>/<name>.cu).
 * One declaration per line of families.def; in a build without CUDA, stubs.c returns NULL for each.
 */
#ifndef GPUMEM_KERNELS_H
#define GPUMEM_KERNELS_H

#include "gpumem/bench.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_FAMILY(name) const struct gm_family_ops *gm_##name##_ops(void);
#include "families/families.def"
#undef GM_FAMILY

/*
 * gpumem run as the second process of the remnants family's proc_* cases
 * (argv: RM_CHILD_COMMAND, socket fd, device; src/families/remnants/remnants.cu): it
 * answers requests on the socket and returns the exit status.
 */
int gm_remnants_child_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
