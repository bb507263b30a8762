/* collect.c - placeholder until the collector lands (the header is the contract). */
#include "gpumem/trace_collect.h"

void gm_trace_opts_init(struct gm_trace_opts *o)
{
	o->kernel_regex = 0;
	o->launch_skip = 0;
	o->launch_count = 1;
	o->sample_warps = 64;
	o->timeout_s = 0;
	o->device = -1;
	o->time_pass = 1;
	o->lib_path = 0;
}

gm_status gm_trace_find_lib(const char *exe_path, char *buf, unsigned long n)
{
	(void)exe_path;
	if (n)
		buf[0] = 0;
	return gm_fail(GM_ERR_NO_DEVICE, "trace collector not built yet");
}

gm_status gm_trace_collect(const struct gm_trace_opts *o, const char *const *argv, const char *out_path,
                           struct gm_trace_run *run)
{
	(void)o; (void)argv; (void)out_path;
	run->outcome = GM_TRACE_NO_LIBRARY;
	return gm_fail(GM_ERR_NO_DEVICE, "trace collector not built yet");
}

const char *gm_trace_outcome_name(enum gm_trace_outcome oc)
{
	static const char *const names[] = {"ok", "no program", "no library", "not permitted", "timed out",
	                                    "no kernels", "program failed"};
	return (unsigned)oc < sizeof(names) / sizeof(names[0]) ? names[oc] : "unknown";
}
