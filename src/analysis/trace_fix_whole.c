/*
 * trace_fix_whole.c - the start every whole-kernel fix shares (rules GC and U1, trace_atomic_use.c; rule DU,
 * trace_fix_dup.c; block_reduce's priced fixes, trace_fix_reduce.c; rule store_once, trace_fix_stores.c; rule LT,
 * trace_fix_lone.c; record_lanes and its kin, trace_fix_fields.c): instruction at's fix cleared and set to the
 * kernel's speedup s over its ninstr instructions. A leaf: it calls no other file of the analysis
 * (tests/link_cycles.py).
 */
#include <string.h>
#include "analysis/trace_internal.h"

struct gm_trace_fix *tf_whole_fix(struct gm_trace_kernel *k, int at, int ninstr, double s)
{
	struct gm_trace_fix *fx = &k->ins[at].fix;

	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = ninstr;
	fx->share = 1;
	fx->pattern_speedup = fx->kernel_speedup = s;
	return fx;
}
