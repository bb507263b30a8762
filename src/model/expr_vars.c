/*
 * expr_vars.c - the names an index expression may use, one table.
 */
#include <string.h>
#include "model/expr_internal.h"

#define VAR(name, field) { name, offsetof(struct gm_thread_vars, field) }

static const struct {
	const char *name;
	size_t offset;
} vars[] = {
	VAR("lane", lane), VAR("warp", warp), VAR("tid", tid),
	VAR("threadIdx.x", tx), VAR("threadIdx.y", ty), VAR("threadIdx.z", tz),
	VAR("tx", tx), VAR("ty", ty), VAR("tz", tz),
	VAR("blockIdx.x", bx), VAR("blockIdx.y", by), VAR("blockIdx.z", bz),
	VAR("bx", bx), VAR("by", by), VAR("bz", bz),
	VAR("blockDim.x", bdx), VAR("blockDim.y", bdy), VAR("blockDim.z", bdz),
	VAR("bdx", bdx), VAR("bdy", bdy), VAR("bdz", bdz),
	VAR("gid", gid), VAR("n", n),
};

int gm_var_slot(const char *name, size_t len)
{
	int k;

	for (k = 0; k < (int)(sizeof(vars) / sizeof(vars[0])); k++) {
		if (strlen(vars[k].name) == len &&
		    strncmp(vars[k].name, name, len) == 0)
			return k;
	}
	return -1;
}

int64_t gm_var_value(const struct gm_thread_vars *v, int slot)
{
	const char *p = (const char *)v + vars[slot].offset;
	int64_t x;

	memcpy(&x, p, sizeof(x));
	return x;
}

const char *gm_var_names(void)
{
	return "lane warp tid tx ty tz bx by bz bdx bdy bdz gid n "
	       "threadIdx.x/y/z blockIdx.x/y/z blockDim.x/y/z";
}

/* The C name of a slot: the short name with a trailing underscore. */
const char *gm_var_c_name(int slot)
{
	static const char *const cname[] = {
		"lane_", "warp_", "tid_", "tx_", "ty_", "tz_", "tx_", "ty_", "tz_",
		"bx_", "by_", "bz_", "bx_", "by_", "bz_", "bdx_", "bdy_", "bdz_", "bdx_", "bdy_", "bdz_",
		"gid_", "n_",
	};
	return slot >= 0 && slot < (int)(sizeof(cname) / sizeof(cname[0])) ? cname[slot] : NULL;
}
