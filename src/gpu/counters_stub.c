/* counters_stub.c - the counters API in a build without CUDA: never available. */
#include <stddef.h>
#include "gpumem/counters.h"

gm_status gm_counters_open(enum gm_counters_set set, struct gm_counters_session **out)
{
	(void)set;
	*out = NULL;
	return gm_fail(GM_ERR_NO_DEVICE, "counters off: gpumem was built without CUDA");
}

int gm_counters_passes(const struct gm_counters_session *s)
{
	(void)s;
	return 0;
}

gm_status gm_counters_collect(struct gm_counters_session *s, gm_status (*launch)(void *state), void *state,
			      struct gm_counters *out)
{
	(void)s;
	(void)launch;
	(void)state;
	out->state = GM_COUNTERS_ERROR;
	return GM_ERR_NO_DEVICE;
}

void gm_counters_close(struct gm_counters_session *s)
{
	(void)s;
}
