/*
 * trace_fix_layout.c - the layout rewrite's reach (docs/TRACE.md, "The fix", rule row_layout): where suggest's best
 * rewrite of the leader is its layout (the data stored so that the lanes read consecutive elements), every other
 * global load and store whose map walks rows of the same shape (the same modes of the thread and block ids: a
 * thread's own row of K elements, `gid * K + c`, at any offset c and loop) is stored the same way by the same
 * change: a system-major batch `s * N + k` read and written at every k becomes `k * S + s` for all its arrays at once.
 * Each such access is priced at its ideal (consecutive lanes, its own loop), as the leader is. A field of another
 * size in the same records (the same array, the same modes in bytes: a double beside two floats of a 24 B record)
 * goes with them: the record's fields read the same sectors, so leaving one in the records leaves their bytes read.
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

/* the map's modes of the ids (not the loop's) equal, in any order, their strides in bytes (a of elements of sa
   bytes, b of sb) */
static int same_id_modes(const struct gm_trace_map *a, int sa, const struct gm_trace_map *b, int sb)
{
	int na = 0, nb = 0;

	for (int i = 0; i < a->nmodes; i++) {
		const struct gm_trace_mode *e = &a->mode[i];
		if (e->var == GM_TV_ITER || !e->stride)
			continue;
		int found = 0;
		na++;
		for (int j = 0; j < b->nmodes && !found; j++)
			found = b->mode[j].var == e->var && b->mode[j].div == e->div && b->mode[j].size == e->size &&
				b->mode[j].stride * sb == e->stride * sa;
		if (!found)
			return 0;
	}
	for (int j = 0; j < b->nmodes; j++)
		nb += b->mode[j].var != GM_TV_ITER && b->mode[j].stride;
	return na > 0 && na == nb;
}

int tf_row_layout(const struct gm_trace_kernel *k, int lead, struct tk_swap *sw, int nsw, int max, char *lines,
		  size_t ln)
{
	const struct gm_trace_insn *x = &k->ins[lead];
	size_t len = strlen(lines);

	if (!x->fit.map.known || x->fit.approx || x->in->space != GM_TS_GLOBAL ||
	    (x->fit.cls != GM_TC_STRIDED && x->fit.cls != GM_TC_COLUMN))
		return nsw;
	for (int j = 0; j < k->nins && nsw < max; j++) {
		const struct gm_trace_insn *y = &k->ins[j];
		int seen = 0, line_seen = 0;
		for (int q = 0; q < nsw; q++) {
			seen |= sw[q].ins == j;
			line_seen |= k->ins[sw[q].ins].in->line == y->in->line;
		}
		if (seen || y->in->space != GM_TS_GLOBAL || (y->in->op != GM_TO_LOAD && y->in->op != GM_TO_STORE) ||
		    !y->fit.map.known || y->fit.approx || (y->in->size != x->in->size && y->fit.map.base != x->fit.map.base) ||
		    (y->fit.cls != GM_TC_STRIDED && y->fit.cls != GM_TC_COLUMN) ||
		    !same_id_modes(&x->fit.map, x->in->size, &y->fit.map, y->in->size))
			continue;
		sw[nsw++] = (struct tk_swap){ j, "gid", y->fit.iters, y->fit.iters <= 1 ? 0 : k->threads };
		if (y->in->line > 0 && !line_seen && len + 16 < ln)
			len += (size_t)snprintf(lines + len, ln - len, "%s%d", len ? ", " : "", y->in->line);
	}
	return nsw;
}
