/*
 * cases.c - the alloc family's case table: the cost of device allocation: cudaMalloc + cudaFree against
 * cudaMallocAsync + cudaFreeAsync from a memory pool whose release threshold
 * is unset (0: memory goes back to the driver at each synchronisation) or set
 * (UINT64_MAX: the pool keeps it), from 256 B to 1 GiB; and what an
 * allocation that cannot be met costs and returns. Host-timed, us per
 * allocate + free pair. Ops: src/families/alloc/alloc.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

static const struct {
	long long bytes;
	int full;
	const char *label;
} sizes[] = {
	{ 256, 0, "256b" }, { 65536, 1, "64k" }, { 2 << 20, 0, "2m" }, { 64 << 20, 1, "64m" }, { 1ll << 30, 0, "1g" },
};

static const struct {
	int method, quick_size;   /* quick: the size index that is in --quick, -1 none */
	const char *label, *desc;
} methods[] = {
	{ AL_MALLOC, 2, "malloc", "cudaMalloc + cudaFree" },
	{ AL_POOL, -1, "pool", "cudaMallocAsync + cudaFreeAsync, pool release threshold 0 (unset), sync after" },
	{ AL_POOL_KEEP, -1, "poolkeep", "cudaMallocAsync + cudaFreeAsync, pool release threshold UINT64_MAX" },
};

#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))
#define NMETHODS ((int)(sizeof(methods) / sizeof(methods[0])))

static int alloc_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int k = 0;

	for (int m = 0; m < NMETHODS; m++) {
		for (int i = 0; i < NSIZES; i++, k++) {
			struct gm_case *c = gm_case_slot(out, max, k, &scratch);
			char desc[120];
			snprintf(desc, sizeof(desc), "%s, %s, us per pair", methods[m].desc, sizes[i].label);
			gm_case_begin(c, &gm_family_alloc, -1, GM_KIND_MEASURE, methods[m].quick_size == i, desc,
				      "%s_%s", methods[m].label, sizes[i].label);
			gm_case_measure(c, GM_UNIT_US, GM_TIME_HOST);
			c->full = sizes[i].full;
			gm_case_param_add(c, "method", methods[m].method);
			gm_case_param_add(c, "bytes", sizes[i].bytes);
		}
	}
	struct gm_case *c = gm_case_slot(out, max, k++, &scratch);
	gm_case_begin(c, &gm_family_alloc, -1, GM_KIND_MEASURE, 0,
		      "cudaMalloc of twice the device memory: its cost, error, nothing leaked, next allocation works",
		      "too_big");
	gm_case_measure(c, GM_UNIT_US, GM_TIME_HOST);
	gm_case_param_add(c, "method", AL_TOO_BIG);
	return k;
}

const struct gm_family gm_family_alloc = {
	"alloc", "cudaMalloc/cudaFree vs stream-ordered pool allocation, 256 B to 1 GiB; a failed allocation",
	alloc_enumerate, gm_alloc_ops,
};
