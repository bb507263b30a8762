/* probe_stub.c - no built-in probe kernels in a build without CUDA. */
#include <stddef.h>
#include <string.h>
#include "gpumem/probe.h"

int gm_probe_count(void)
{
	return 0;
}

void gm_probe_get(int i, struct gm_probe_desc *d)
{
	(void)i;
	memset(d, 0, sizeof(*d));
}

gm_status gm_probe_buffers(size_t gbytes)
{
	(void)gbytes;
	return gm_fail(GM_ERR_NO_DEVICE, "built without CUDA");
}

void gm_probe_buffers_free(void)
{
}

gm_status gm_probe_launch_fn(void *launch)
{
	(void)launch;
	return GM_ERR_NO_DEVICE;
}
