/*
 * trace_fix_computed.c - rule by_index (docs/TRACE.md, "The fix"), the fix of rule CS's computed gathers
 * (trace_computed.c): their addresses are arithmetic on the thread's own index, so the order the threads read in is
 * the program's and the data can be stored in it (a table indexed by the thread's index, built once: a dense array
 * for a hash map of dense keys, the permutation applied where the data is written), or the work sorted or
 * partitioned by destination. Priced as each computed access replaced by one coalesced access of its size at gid,
 * once a warp (its probe loop gone), at an exact map, rule R2's trips of the fixed kernel, its start and drain and its
 * issue floor; the measured time over it the speedup, as rule row_index's (trace_fix_chain.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define CS_MAX 16   /* computed accesses priced at once, at most */

int tf_by_index(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[CS_MAX];
	struct gm_launch_out o;
	char why[200], w[96];
	int n = 0, lead = -1;
	double warps = ceil((double)k->threads / GM_WARP_SIZE), share = 0;

	for (int i = 0; i < k->nins && n < CS_MAX; i++)
		if (tk_computed_scattered(&k->ins[i])) {
			sw[n++] = (struct tk_swap){ .ins = i, .expr = "gid", .iters = 1 };
			lead = lead < 0 || k->ins[i].bytes > k->ins[lead].bytes ? i : lead;
			share += k->ins[i].time_share;
		}
	if (!n || !prof || !k->pred_ok || !(k->time_ms > 0))
		return -1;
	struct gm_trace_kernel k2;
	struct gm_trace_insn *ins2;
	struct gm_trace_instr *in2;
	if (tf_kernel_copy(k, &k2, &ins2, &in2))
		return -1;
	/* the fixed kernel: each access once a warp, coalesced; its map exact (not a gather's stand-in, so rule R2
	   does not take its address for an earlier load's data and start a second round trip at it) */
	for (int q = 0; q < n; q++) {
		in2[sw[q].ins].executions = warps;
		ins2[sw[q].ins].fit.approx = 0;
	}
	int bad = tk_predict(&k2, prof, TK_WITH_TRIPS, sw, n, &o, why, sizeof(why)) || !(o.time_ms > 0);
	if (!bad)
		tk_start_drain(prof, &o);   /* as in the kernel's own prediction (rule S2) */
	double s = bad ? 0 : k->time_ms / fmax(o.time_ms, tk_floor_free_ms(&k2, prof, 1));
	free(ins2), free(in2);
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, n, s);
	fx->share = fmin(1, share);
	for (int q = 0; q < n; q++)
		if (sw[q].ins != lead)
			k->ins[sw[q].ins].fix.same_as = lead + 1;
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "by_index");
	snprintf(fx->change, sizeof(fx->change), "data in the threads' order: %d computed access%s (%s), each "
		 "coalesced at the thread's index (%d B)", n, n > 1 ? "es" : "", w, k->ins[lead].in->size);
	snprintf(fx->words, sizeof(fx->words), "the addresses are arithmetic on the thread's own index (%s), so the "
		 "order is the program's: store the data in the order the threads read it (a table indexed by the "
		 "thread's index, built once: a dense array in place of a hash map of dense keys, the permutation applied "
		 "where the data is written), or sort or partition the work by destination", k->ins[lead].computed == 3 ?
		 "a polynomial of it, its lanes' elements say" : "a hash or a permutation; no load before them returns data");
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: h = hash(i); while (tab[h].key != i) h = next(h); v = tab[h].val;\n"
		 "// once, where the table is built: lay[i] = the value slot_of(i) holds\n"
		 "v = lay[i];   // one coalesced load a thread");
	return lead;
}
