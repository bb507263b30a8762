/*
 * trace_fix_wide.c - vector widths in the fix (docs/TRACE.md, "The fix", rule wide_fix): the kernel a fix makes
 * is judged as any kernel is. Where the launch model finds the fixed kernel limited by block starts (rule T4) or
 * by the loads it has in flight (latency), the fix also gives each thread (warp_rows: each lane) v consecutive
 * elements as one access of v x the element, v = 2, 4 .. up to 16 B over the largest element: what rules
 * wide_blocks and wide_loads do to a kernel whose accesses are already at their ideal. A fix of the pattern alone
 * leaves that kernel's narrow accesses narrow (a warp a row of 1-byte elements reads 32 B a request; the one-hot
 * rows reordered still start 4-byte blocks by the million). Offered beside the rewrite's own speedup, not as it:
 * on the development pairs most hand versions keep one element a thread (docs/log/2026-11-30-trace-f54.md).
 */
#include <string.h>
#include "analysis/trace_internal.h"

#define WIDE_MAX GM_TRACE_MAX_INSNS

/* the largest element of the kernel's global loads and stores (rows: of the rows sw[0 .. nrow-1] only); *narrow:
   one is narrower than a word */
static int largest(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nrow, int rows, int *narrow)
{
	int size = 0;

	*narrow = 0;
	for (int i = 0; i < (rows ? nrow : k->nins); i++) {
		const struct gm_trace_insn *x = &k->ins[rows ? sw[i].ins : i];
		if (x->in->space == GM_TS_GLOBAL && (x->in->op == GM_TO_LOAD || x->in->op == GM_TO_STORE)) {
			size = x->in->size > size ? x->in->size : size;
			*narrow |= x->in->size < 4;
		}
	}
	return size;
}

/*
 * The fixed kernel (sw[0 .. nsw-1]: the fix's replacements; rows: rule warp_rows's relaunch of instruction lead,
 * its rows sw[0 .. nrow-1]) widened by v where the model finds it limited by blocks or latency (limited), priced as
 * its fix is (the saving off the measured time, the part ex of the unexplained time leaving with the sectors; the
 * rest divided by g x v for a warp's rows, by v for one element a thread, as rules wide_blocks and wide_loads
 * do). Its speedup when it beats s0 by GM_TRACE_WORTH, *v its width; else s0 and *v = 1.
 */
double tf_widen_fix(const struct gm_trace_kernel *k, const struct gm_profile *prof, int lead, int rows,
		    const struct tk_swap *sw, int nsw, int nrow, const char *limited, double s0, double g, double ex,
		    int *v)
{
	static struct tk_swap w2[WIDE_MAX];
	struct gm_launch_out o;
	char lines[160], why[200];
	int narrow, size = largest(k, sw, nrow, rows, &narrow), n2, r2;
	double best = s0;

	*v = 1;
	if (!limited || (strcmp(limited, "blocks") && strcmp(limited, "latency")) || size <= 0)
		return s0;
	if (!strcmp(limited, "latency") && !narrow)
		return s0;   /* as rule wide_loads: a kernel of words and wider limited by latency is left as it is */
	for (int w = 2; w * size <= 16; w *= 2) {
		double s;
		if (rows) {
			if (tf_warp_rows(k, prof, lead, w2, &n2, &r2, lines, sizeof(lines), w) ||
			    tk_predict(k, prof, -1, w2, n2, &o, why, sizeof(why)) || !(o.time_ms > 0))
				continue;
			int vals;   /* a reduction's lanes still merge their partial results */
			s = tf_kernel_speedup_ex(k, prof, o.time_ms + tf_merge_ms(k, prof, w2, r2, &vals), g * w, w, ex);
		} else {
			if (tk_predict_wide(k, prof, w, sw, nsw, &o) || !(o.time_ms > 0))
				continue;
			s = tf_kernel_speedup_ex(k, prof, o.time_ms, w, w, ex);
		}
		if (s > best * 1.02 && s >= s0 * GM_TRACE_WORTH)
			best = s, *v = w;
	}
	return best;
}

/*
 * Rule wide_rows (k68): v consecutive elements of an access stay in one row only where every step of its map
 * other than the lanes' own step u is a multiple of v x u, a quotient of the thread ids is shared by v consecutive
 * threads (its divisor a multiple of v: a broadcast row index `gid / 768`) and the lanes' own mode wraps at a
 * multiple of v (a row pitch, a block's or a warp's start): an int32
 * image of 5003 columns (set 17's clamp2d, rows 20,012 B apart) has no 16- or 8-byte element that each row can
 * take aligned, and its misaligned class is the rows' odd pitch, not an offset that peeling the first elements
 * removes. 1 when every fitted global access of the kernel can take v; a gather's stand-in is judged elsewhere.
 */
int tf_rows_take(const struct gm_trace_kernel *k, int v)
{
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_map *m = &k->ins[i].fit.map;
		if (k->ins[i].in->space != GM_TS_GLOBAL || !m->known || k->ins[i].fit.approx ||
		    k->ins[i].fit.cls == GM_TC_BROADCAST)
			continue;   /* a scalar the warp reads (one sector): left out of the widened kernel */
		int64_t u = 1;   /* the lanes' own step (a record's size for strided fields) */
		int lane = -1;
		for (int q = 0; q < m->nmodes && lane < 0; q++)
			if ((m->mode[q].var == GM_TV_TX || m->mode[q].var == GM_TV_GID) && m->mode[q].div == 1)
				lane = q, u = m->mode[q].stride < 0 ? -m->mode[q].stride : m->mode[q].stride;
		for (int q = 0; q < m->nmodes; q++) {
			const struct gm_trace_mode *d = &m->mode[q];
			int ids = d->var == GM_TV_TX || d->var == GM_TV_GID;
			if (q == lane ? d->size > 0 && d->size % v :   /* v threads of a row wrap inside it */
			    ids && d->div > 1 ? d->div % v :          /* v threads share the quotient (a row's index) */
			    d->stride % (v * u))                      /* a row's pitch, a block's start */
				return 0;
		}
	}
	return 1;
}
