/*
 * trace_fix_whole.c - the start every whole-kernel fix shares (rules GC and U1, trace_atomic_use.c; rule DU,
 * trace_fix_dup.c; block_reduce's priced fixes, trace_fix_reduce.c; rule store_once, trace_fix_stores.c; rule LT,
 * trace_fix_lone.c; record_lanes and its kin, trace_fix_fields.c): instruction at's fix cleared and set to the
 * kernel's speedup s over its ninstr instructions; and the scratch copy of a kernel that rules LT, RR and ST price
 * their fixed kernels on (tf_kernel_copy). A leaf: it calls no other file of the analysis
 * (tests/link_cycles.py).
 */
#include <stdlib.h>
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

int tf_kernel_copy(const struct gm_trace_kernel *k, struct gm_trace_kernel *k2, struct gm_trace_insn **ins2,
		   struct gm_trace_instr **in2)
{
	size_t n = (size_t)(k->nins > 0 ? k->nins : 1);

	*k2 = *k;
	*ins2 = malloc(sizeof(**ins2) * n);
	*in2 = malloc(sizeof(**in2) * n);
	if (!*ins2 || !*in2) {
		free(*ins2);
		free(*in2);
		*ins2 = NULL, *in2 = NULL;
		return -1;
	}
	for (int i = 0; i < k->nins; i++)
		(*ins2)[i] = k->ins[i], (*in2)[i] = *k->ins[i].in, (*ins2)[i].in = &(*in2)[i];
	k2->ins = *ins2;
	return 0;
}
