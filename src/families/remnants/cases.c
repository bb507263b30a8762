/*
 * cases.c - the remnants family's case table: what a new allocation can read of what a freed one left:
 * marker words written, the buffer freed, a new one allocated (same size,
 * smaller, larger; a cudaMallocAsync pool on the same stream, another stream,
 * after a trim; a second context; a second process; pinned host memory) and
 * the share of the markers it holds counted; with and without scrubbing on
 * free (run --scrub). And what scrubbing costs, us per GiB zeroed. Not a
 * bandwidth: the unit is a fraction (0 to 1). Ops: src/families/remnants/remnants.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/remnants/remnants_shapes.h"

#define MIB (1ll << 20)

static const struct {
	int method;
	long long bytes, bytes2;  /* written, allocated again */
	int quick, full;          /* full: only with --full or named (the default suite keeps a few seconds' worth) */
	const char *label, *desc;
} cases[] = {
	{ RM_MALLOC, 64 * MIB, 64 * MIB, 1, 0, "same_64m", "cudaMalloc 64 MiB, free, cudaMalloc 64 MiB" },
	{ RM_MALLOC, 64 << 10, 64 << 10, 0, 0, "same_64k", "cudaMalloc 64 KiB, free, cudaMalloc 64 KiB" },
	{ RM_MALLOC, 64 * MIB, 16 * MIB, 0, 1, "smaller_16m", "cudaMalloc 64 MiB, free, cudaMalloc 16 MiB" },
	{ RM_MALLOC, 64 * MIB, 256 * MIB, 0, 1, "larger_256m", "cudaMalloc 64 MiB, free, cudaMalloc 256 MiB" },
	{ RM_MALLOC, 64 << 10, 16 << 10, 0, 1, "smaller_16k", "cudaMalloc 64 KiB, free, cudaMalloc 16 KiB" },
	{ RM_MALLOC, 64 << 10, 1 * MIB, 0, 1, "larger_1m", "cudaMalloc 64 KiB, free, cudaMalloc 1 MiB" },
	{ RM_POOL_SAME, 64 * MIB, 64 * MIB, 0, 0, "pool_same_stream",
	  "cudaMallocAsync pool, free and allocate again on one stream" },
	{ RM_POOL_OTHER, 64 * MIB, 64 * MIB, 0, 1, "pool_other_stream",
	  "cudaMallocAsync pool, free on one stream, sync, allocate on another" },
	{ RM_POOL_TRIM, 64 * MIB, 64 * MIB, 0, 1, "pool_trim",
	  "cudaMallocAsync pool, free, sync, trim to 0, allocate" },
	{ RM_CTX, 64 << 10, 64 << 10, 0, 1, "ctx_other_64k",
	  "cudaMalloc 64 KiB, free in the primary context, allocate in a second (cuCtxCreate)" },
	{ RM_PROC_FREE, 64 * MIB, 64 * MIB, 0, 1, "proc_free", "free here, a second live process allocates 64 MiB" },
	{ RM_PROC_EXIT, 64 * MIB, 64 * MIB, 0, 1, "proc_exit",
	  "a second process writes 64 MiB and exits, this one allocates (a process per trial)" },
	{ RM_PROC_SELF, 64 << 10, 64 << 10, 0, 1, "proc_self_64k",
	  "in a second process: cudaMalloc, free, cudaMalloc 64 KiB" },
	{ RM_PROC_ENV, 64 << 10, 64 << 10, 0, 1, "proc_env_no_reuse_64k",
	  "proc_self_64k with CUDA_DISABLE_MEMORY_REUSE=1 in its environment" },
	{ RM_PINNED, 16 * MIB, 16 * MIB, 0, 1, "pinned_16m", "cudaMallocHost 16 MiB, cudaFreeHost, cudaMallocHost" },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static int remnants_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int k = 0;

	for (int i = 0; i < NCASES; i++, k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		char desc[120];
		snprintf(desc, sizeof(desc), "%s: fraction of markers seen", cases[i].desc);
		gm_case_begin(c, &gm_family_remnants, -1, GM_KIND_MEASURE, cases[i].quick, desc, "%s", cases[i].label);
		gm_case_measure(c, GM_UNIT_FRACTION, GM_TIME_SELF);
		c->full = cases[i].full;
		gm_case_extra_add(c, "seen_bytes", GM_UNIT_BYTES);
		gm_case_extra_add(c, "in_place", GM_UNIT_FRACTION);
		gm_case_extra_add(c, "scrubbed", GM_UNIT_FRACTION);
		gm_case_extra_add(c, "zero", GM_UNIT_FRACTION);
		gm_case_param_add(c, "method", cases[i].method);
		gm_case_param_add(c, "bytes", cases[i].bytes);
		gm_case_param_add(c, "bytes2", cases[i].bytes2);
	}
	struct gm_case *c = gm_case_slot(out, max, k++, &scratch);
	gm_case_begin(c, &gm_family_remnants, -1, GM_KIND_MEASURE, 0,
		      "zeroing a 1 GiB buffer before its free (run --scrub), us per GiB", "scrub_cost_1g");
	gm_case_measure(c, GM_UNIT_US, GM_TIME_SELF);
	gm_case_extra_add(c, "free_us", GM_UNIT_US);
	gm_case_extra_add(c, "scrubbed_free_us", GM_UNIT_US);
	gm_case_extra_add(c, "zero_gbs", GM_UNIT_GBS);
	gm_case_param_add(c, "method", RM_SCRUB_COST);
	gm_case_param_add(c, "bytes", 1ll << 30);
	return k;
}

const struct gm_family gm_family_remnants = {
	"remnants", "what a new allocation reads of a freed one (sizes, pools, contexts, processes, pinned); --scrub",
	remnants_enumerate, gm_remnants_ops,
};
