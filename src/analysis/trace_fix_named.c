/*
 * trace_fix_named.c - the fixes of two of the verdict's named patterns (trace_named.c, docs/TRACE.md "Named
 * patterns") that a measured device rate prices:
 *   - rule host_copy: a kernel reading mapped host memory (the document's "memory": "host") reads it from device
 *     memory instead, copied there once: the launch model's prediction, which prices every access as device memory,
 *     is the fixed kernel (before rule NF's floor raised it, trace_floor.c); the measured time over it the speedup
 *     (the copy itself is the program's, once).
 *   - rule constant_global: a __constant__ table indexed by lane-varying values (the document's
 *     constant_lane_loads) read from global memory (__ldg) or shared memory: the measured time less the constant
 *     cache's serialisation at 32 addresses a warp (tk_const_lane_ms, a bound: the trace cannot sample an LDC's
 *     addresses), no faster than the launch model's prediction of the kernel's traced accesses; where rule NF's
 *     floor (that serialisation) raised the prediction, the prediction over the one before it.
 * The fix is put on the host instruction with the most bytes, or for the table on the instruction with the most
 * traffic: the change is at the table's declaration, which the trace does not list.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

static void put(struct gm_trace_insn *x, double s, double share, const char *rule, const char *change,
		const char *words, const char *sketch)
{
	struct gm_trace_fix *fx = &x->fix;

	memset(fx, 0, sizeof(*fx));
	fx->have = 1;
	fx->worth = s >= GM_TRACE_WORTH;
	fx->ninstr = 1;
	fx->share = share;
	fx->pattern_speedup = fx->kernel_speedup = s;
	snprintf(fx->rewrite, sizeof(fx->rewrite), "%s", rule);
	snprintf(fx->change, sizeof(fx->change), "%s", change);
	snprintf(fx->words, sizeof(fx->words), "%s", words);
	snprintf(fx->sketch, sizeof(fx->sketch), "%s", sketch);
}

static int host_copy(struct gm_trace_kernel *k)
{
	int lead;
	double b = tk_host_bytes(k, &lead), t = b / TK_MAPPED_GBS * 1e-6;
	char words[400];

	if (lead < 0 || !k->pred_ok || !(k->pred.time_ms > 0) || !(k->time_ms > 0))
		return -1;
	snprintf(words, sizeof(words), "the kernel reads %.1f MB of mapped (zero-copy) host memory, each access across "
		 "the host link (%.0f GB/s: %.4f ms): copy the buffer to device memory once and read it there, or use "
		 "managed memory prefetched with cudaMemPrefetchAsync", b / 1e6, TK_MAPPED_GBS, t);
	put(&k->ins[lead], k->time_ms / (k->nf_model_ms > 0 ? k->nf_model_ms : k->pred.time_ms), fmin(1, t / k->time_ms),
	    "host_copy",
	    "the buffer in device memory (copied once) instead of mapped host memory", words,
	    "cudaMalloc(&d_buf, bytes);\ncudaMemcpy(d_buf, h_buf, bytes, cudaMemcpyHostToDevice);   // once\n"
	    "kernel<<<grid, block>>>(d_buf, ...);   // was the mapped host pointer");
	return lead;
}

static int constant_global(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double t = tk_const_lane_ms(k, prof, GM_WARP_SIZE);
	char words[400];

	if (t <= 0 || !k->pred_ok || !(k->pred.time_ms > 0) || !(k->time_ms > 0) || !k->norder)
		return -1;
	/* rule NF raised the prediction to the table's serial time: the prediction over the one before it; else the
	   measured time less that bound, no faster than the prediction */
	double s = k->nf_model_ms > 0 ? k->pred.time_ms / k->nf_model_ms : k->time_ms / fmax(k->time_ms - t, k->pred.time_ms);
	snprintf(words, sizeof(words), "a __constant__ table is indexed by lane-varying values (%d LDC with a per-lane "
		 "index): the constant cache serves a warp's distinct addresses one after another, up to %.4f ms at 32 a "
		 "warp (a bound: the trace cannot sample them); read the table from global memory through the read-only "
		 "path (const __restrict__, __ldg) or stage it in shared memory", k->l->const_lane, t);
	put(&k->ins[k->order[0]], s, fmin(1, t / k->time_ms), "constant_global",
	    "the lane-indexed __constant__ table read from global memory (__ldg) or shared memory", words,
	    "__global__ void kernel(const float *__restrict__ table, ...)   // was __constant__ float table[N]\n"
	    "{ float v = __ldg(&table[col]); ... }");
	return k->order[0];
}

int tf_named(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int at = host_copy(k);

	return at >= 0 ? at : constant_global(k, prof);
}
