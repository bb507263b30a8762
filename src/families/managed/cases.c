/*
 * cases.c - the managed family's case table: unified memory (cudaMallocManaged): a kernel reading 64 MiB
 * that the CPU wrote last, by page faults, after cudaMemPrefetchAsync (CUDA 13
 * location argument), and under the advice SetReadMostly,
 * SetPreferredLocation(device) and SetAccessedBy(device) with the data
 * preferring the host; and the ping-pong (CPU writes, GPU reads and writes,
 * CPU reads) against explicit cudaMalloc + copies. Ops: src/families/managed/managed.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

#define MiB (1ll << 20)

static const struct {
	int mode, quick, full;
	long long bytes;
	const char *label, *desc;
} variants[] = {
	{ MG_FAULT, 1, 0, 64 * MiB, "fault", "GPU reads 64 MiB the CPU wrote last: page faults migrate it" },
	{ MG_PREFETCH, 0, 0, 64 * MiB, "prefetch", "cudaMemPrefetchAsync to the GPU, then the same read (both timed)" },
	{ MG_READMOSTLY, 0, 1, 64 * MiB, "readmostly", "advice SetReadMostly: faults make read-only copies on the GPU" },
	{ MG_PREFERRED, 0, 1, 64 * MiB, "preferred_gpu", "advice SetPreferredLocation(GPU), CPU wrote last, GPU reads" },
	{ MG_ACCESSED_BY, 0, 0, 64 * MiB, "accessed_by", "preferred location host + SetAccessedBy(GPU): GPU reads over PCIe" },
	{ MG_PINGPONG, 0, 1, 64 * MiB, "pingpong_64m", "managed: CPU writes 64 MiB, GPU reads+writes, CPU reads (host-timed)" },
	{ MG_EXPLICIT, 0, 1, 64 * MiB, "explicit_64m", "explicit: CPU writes pinned, H2D, kernel, D2H, CPU reads (host-timed)" },
	{ MG_PINGPONG, 0, 1, 1024 * MiB, "pingpong_1g", "managed: CPU writes 1 GiB, GPU reads+writes, CPU reads (host-timed)" },
	{ MG_EXPLICIT, 0, 1, 1024 * MiB, "explicit_1g", "explicit: CPU writes 1 GiB pinned, H2D, kernel, D2H, CPU reads" },
};

static int managed_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		int pp = variants[i].mode >= MG_PINGPONG;

		gm_case_begin(c, &gm_family_managed, -1, GM_KIND_MEASURE, variants[i].quick, variants[i].desc, "%s",
			      variants[i].label);
		gm_case_measure(c, GM_UNIT_GBS, pp ? GM_TIME_HOST : GM_TIME_SELF);
		c->full = variants[i].full;
		gm_case_param_add(c, "mode", variants[i].mode);
		gm_case_param_add(c, "bytes", variants[i].bytes);
	}
	return n;
}

const struct gm_family gm_family_managed = {
	"managed", "unified memory: faults, prefetch, advice; CPU/GPU ping-pong vs explicit copies",
	managed_enumerate, gm_managed_ops,
};
