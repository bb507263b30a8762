/* stubs.c - no kernels in a build without CUDA: one NULL entry point per line of families.def. */
#include <stddef.h>
#include "families/kernels.h"

#define GM_FAMILY(name) \
	const struct gm_family_ops *gm_##name##_ops(void) { return NULL; }
#include "families/families.def"
#undef GM_FAMILY
int gm_remnants_child_main(int argc, char **argv) { (void)argc; (void)argv; return 1; }
#include "gpumem/jit.h"
const struct gm_family_ops *gm_jit_ops(void) { return NULL; }
void gm_jit_set(const struct gm_jit_spec *spec, struct gm_jit_info *info) { (void)spec; (void)info; }
gm_status gm_jit_source(const struct gm_jit_spec *spec, char *buf, size_t n)
{
	(void)spec; (void)buf; (void)n;
	return gm_fail(GM_ERR_NO_DEVICE, "this gpumem was built without CUDA: explain --run needs it");
}
