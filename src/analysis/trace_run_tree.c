/*
 * trace_run_tree.c - a program-level rule of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h):
 * - reduce_passes: three or more consecutive launches of one kernel, each loading what the one before stored (its
 *   loads' sampled bytes 90 % or more within that store's, as many bytes within 2 %) and storing 1/2 to 1/16 of
 *   what it loads into another buffer, its only global accesses: a reduction done a tree level (or a few) a launch,
 *   the array read and written again at every level and a launch paid for each. Fix: one pass (each block reduces
 *   its tile in registers and shared memory, then one atomic a block, or a last-block finish). Saving: the
 *   launches' measured times less one pass reading the first launch's input once at the profile's DRAM read
 *   bandwidth, at least rule F's shortest launch. Refused: a pass that keeps the size (a sort's, a scan's), a
 *   reduction by 17 or more a launch (a block a tile: two or three launches of that are the usual way), two
 *   passes (partials and a finish), other global accesses (an input besides the array, atomics).
 * Named only where it saves GM_TRACE_WORTH of the run or more; the chain once, from its first launch to its last.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_run.h"

#define TREE_MAX 32

struct side {
	int64_t lo, hi;   /* the sampled byte range */
	double bytes;     /* the elements' bytes: threads x accesses x size */
	double sectors;   /* the sector bytes moved */
	int first;        /* the first instruction, -1: none */
};

/* k's global accesses are loads of one range (*in) and stores of another (*out), disjoint: 0 */
static int sides(const struct gm_trace_kernel *k, struct side *in, struct side *out)
{
	*in = *out = (struct side){ .first = -1 };
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int64_t lo, hi;
		if (x->in->space != GM_TS_GLOBAL)
			continue;
		if ((x->in->op != GM_TO_LOAD && x->in->op != GM_TO_STORE) || !tr_range(x, x->in->op, &lo, &hi))
			return -1;
		struct side *s = x->in->op == GM_TO_LOAD ? in : out;
		if (s->first < 0)
			s->first = i, s->lo = lo, s->hi = hi;
		s->lo = lo < s->lo ? lo : s->lo;
		s->hi = hi > s->hi ? hi : s->hi;
		s->bytes += x->in->thread_accesses * x->in->size;
		s->sectors += x->bytes;
	}
	if (in->first < 0 || out->first < 0 || tr_overlap(in->lo, in->hi, out->lo, out->hi) > 0 || !(out->bytes > 0))
		return -1;
	double f = in->bytes / out->bytes;
	return f >= 2 - 1e-9 && f <= 16 + 1e-9 ? 0 : -1;
}

/* one pass reading the input's sectors once at the profile's DRAM read bandwidth, at least rule F's launch: ms */
static double one_pass_ms(const struct side *in, const struct gm_profile *prof)
{
	double fl = (prof->launch_floor_us > 0 ? prof->launch_floor_us : prof->launch_us) * 1e-3;
	double t = prof->read_gbs > 0 ? in->sectors / prof->read_gbs * 1e-6 : 0;

	return t > fl ? t : fl;
}

static void tree_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, int n, const struct side *in,
		       const struct side *last, double t1, double meas)
{
	const struct gm_trace_kernel *a = &r->k[f->first];
	char wl[64];

	tr_where(&a->ins[f->ins_first], wl, sizeof(wl));
	snprintf(f->words, sizeof(f->words), "launches %lld to %lld run one kernel, %s, %d times, each loading what the "
		 "one before stored (the first %.1f MB from 0x%llx, at %s) and storing %.0f times fewer bytes (%.0f B at "
		 "the last): a reduction done a tree level (or a few) a launch, every level written to DRAM, read back "
		 "and paid a launch. Reduce in one pass: each block reduces its tile in registers and shared memory "
		 "(warp shuffles) and adds its result with one atomic, or the last block to finish adds the blocks' "
		 "partials (CUB's DeviceReduce): the input read once. At the profile's DRAM read bandwidth that pass "
		 "takes %.4f ms against the %d launches' %.4f ms measured: %.0f %% of the run's %.4f ms saved",
		 (long long)a->l->index, (long long)r->k[f->second].l->index, tr_name(a), n, in->bytes / 1e6,
		 (long long)in->lo, wl, pow(in->bytes / last->bytes, 1.0 / n), last->bytes, t1, n, meas,
		 100 * f->saved_ms / r->across.run_ms, r->across.run_ms);
	snprintf(f->sketch, sizeof(f->sketch), "// before: for (m = n; m > 1; m /= 2) { halve<<<m / 512, 256>>>(a, b, "
		 "m);  swap(a, b); }  // b[i] = a[2i] + a[2i+1]\n// after:  reduce<<<blocks, 256>>>(x, &sum, n);  // a "
		 "tile a block, shuffles, one atomicAdd a block");
}

int tr_reduce_passes(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	struct side in[TREE_MAX], out[TREE_MAX];
	int n = 0;

	for (int j = ia; j < r->nk && n < TREE_MAX; j++) {
		const struct gm_trace_kernel *k = &r->k[j], *p = n ? &r->k[j - 1] : NULL;
		if (p && (k->l->index != p->l->index + 1 || strcmp(k->l->kernel, p->l->kernel)))
			break;
		if (sides(k, &in[n], &out[n]))
			break;
		if (p && (tr_overlap(in[n].lo, in[n].hi, out[n - 1].lo, out[n - 1].hi) < 0.9 * (double)(in[n].hi - in[n].lo) ||
			  fabs(in[n].bytes - out[n - 1].bytes) > 0.02 * out[n - 1].bytes))
			break;   /* not the pass before's output, whole */
		n++;
	}
	if (n < 3)
		return -1;
	double meas = 0, t = r->across.run_ms, t1 = one_pass_ms(&in[0], r->prof);
	for (int j = 0; j < n; j++)
		meas += r->k[ia + j].time_ms;
	f->saved_ms = meas - t1;
	if (!(meas > 0) || !(f->saved_ms > 0) || t / (t - f->saved_ms) < GM_TRACE_WORTH)
		return -1;
	f->rule = GM_TR_REDUCE_PASSES, f->first = ia, f->second = ia + n - 1;
	f->ins_first = in[0].first, f->ins_second = out[n - 1].first;
	const struct gm_trace_insn *x = &r->k[ia].ins[in[0].first];
	f->lo = x->fit.map.known ? tr_first_byte(x) : in[0].lo, f->hi = f->lo + (int64_t)llround(in[0].bytes);
	for (int j = 0; j < n; j++)
		f->bytes += (j ? in[j].sectors : 0) + out[j].sectors;
	tree_words(r, f, n, &in[0], &out[n - 1], t1, meas);
	return f->second;
}
