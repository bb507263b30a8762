/*
 * trace_kernel.c - one traced launch as a kernel: every instruction fitted
 * (trace_class.c), its share of the traffic, the launch model's time from all
 * the fitted patterns (each with its loop as a repeat), DRAM bytes measured or
 * predicted, the achieved bandwidth against the profile's roof; the verdicts
 * (memory-bound, the primary and secondary bottleneck) are trace_verdict.c's
 * (docs/TRACE.md, "The kernel"). The model over the patterns is trace_predict.c's, rule M's folds
 * trace_fold.c's, the round trips trace_trips.c's, the rules on its shared time trace_time_smem.c's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/parallel.h"
#include "analysis/trace_internal.h"

/* Bytes each instruction moves at its level, and the shares. */
static void traffic(struct gm_trace_kernel *k)
{
	double glob = 0, wf = 0;

	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_insn *x = &k->ins[i];
		const struct gm_trace_instr *in = x->in;
		double req = in->requests > 0 ? in->requests : in->executions;
		if (in->space == GM_TS_SHARED) {
			double w = in->wavefronts >= 0 ? in->wavefronts : req > 0 ? req * x->fit.sample_per_req : 0;
			x->bytes = w * 128;
			x->excess_bytes = req > 0 && x->fit.ideal_per_req > 0 ? fmax(0, w - req * x->fit.ideal_per_req) * 128 : 0;
			wf += x->bytes;
		} else {
			double s = in->sectors >= 0 ? in->sectors : req > 0 ? req * x->fit.sample_per_req : 0;
			double ideal = in->ideal_sectors >= 0 ? in->ideal_sectors : req * x->fit.ideal_per_req;
			x->bytes = s * 32;
			/* whole records: the siblings use every byte of the sectors (L1 keeps a load's lines) */
			x->excess_bytes = ideal >= 0 && x->fit.cls != GM_TC_RECORDS ? fmax(0, s - ideal) * 32 : 0;
			glob += x->bytes;
		}
	}
	for (int i = 0; i < k->nins; i++) {
		struct gm_trace_insn *x = &k->ins[i];
		double tot = x->in->space == GM_TS_SHARED ? wf : glob;
		x->share = tot > 0 ? x->bytes / tot : 0;
	}
	/* instructions by bytes moved, global first */
	k->norder = 0;
	for (int i = 0; i < k->nins && k->norder < GM_TRACE_MAX_INSNS; i++)
		k->order[k->norder++] = i;
	for (int i = 1; i < k->norder; i++)
		for (int j = i; j > 0; j--) {
			const struct gm_trace_insn *a = &k->ins[k->order[j]], *b = &k->ins[k->order[j - 1]];
			int sa = a->in->space == GM_TS_SHARED, sb = b->in->space == GM_TS_SHARED;
			if (sa > sb || (sa == sb && a->bytes <= b->bytes))
				break;
			int t = k->order[j];
			k->order[j] = k->order[j - 1];
			k->order[j - 1] = t;
		}
}

/* The launch model over every fitted pattern. */
static void predict(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct gm_launch_out mem;
	char why[200];
	static struct tk_run runs[TK_MAX_RUNS];
	int nruns = 0;

	k->trips = 0;
	k->smem_scale = 0;
	k->warp_private = tk_warp_private(k);
	tk_sector_hits(k);   /* rule H */
	int mem_ok = !tk_predict(k, prof, -1, NULL, 0, &mem, why, sizeof(why));
	if (mem_ok) {   /* rule V: the scale from the first prediction, in it and every later one */
		k->smem_scale = tk_smem_ratio(k, &mem);
		tk_smem_as_measured(prof, k->smem_scale, &mem);
	}
	k->trips = tk_round_trips(k, prof, NULL, 0, runs, &nruns);
	k->pred_ok = !tk_predict(k, prof, -1, NULL, 0, &k->pred, k->pred_why, sizeof(k->pred_why));
	k->trips = k->pred_ok ? k->trips : 0;
	if (k->pred_ok) {
		tk_runs_own_trips(k, prof, runs, nruns);
		tk_row_hits(k, prof, runs, nruns, &k->pred);   /* rule R3 */
		tk_whole_sectors(k, prof, &k->pred);   /* rule WS; not in mem_ms, the fixes' base */
		tk_shared_gathers(k, prof, &k->pred);   /* rule SG */
		tk_l1_measured(k, prof, &k->pred);   /* rule L1S */
	}
	k->steps_ms = k->pred_ok ? tk_steps_ms(k, prof) : 0;
	if (!(k->steps_ms > 0)) {   /* rule O, in the fixes' time too; a loop of barriers (rule B) keeps the blocks in step */
		if (k->pred_ok)
			tk_barrier_overlap(k, prof, &k->pred);
		if (mem_ok)
			tk_barrier_overlap(k, prof, &mem);
	}
	if (k->pred_ok && tk_start_drain(prof, &k->pred) > 0) {   /* rule S2; not in mem_ms, the fixes' base */
		tk_why(k, "rule S2: %.4f ms of the launch's start and drain added", k->pred.t_start_ms);
	}
	k->mem_ms = mem_ok ? mem.time_ms : -1;
	if (k->pred_ok)
		tk_chain_time(k, prof);   /* rule SC; not in mem_ms, the fixes' base */
	if (k->steps_ms > 0)   /* rule B: added to the model's time, the interval moves with it */
		tk_set_time(k, k->pred.time_ms + k->steps_ms);
	tk_smem_cas(k, prof);   /* rule SA */
	k->atomic_at = -1;
	k->gcas_ms = 0;
	k->gcas_at = -1;
	if (k->pred_ok) {
		tk_add_turns(k, prof);   /* rule A */
		tk_gcas_add(k, prof);   /* rule GC (trace_atomic_use.c), added as rule A's turns */
		tk_floors(k, prof);   /* rules I, F and X */
		tk_named_floor(k, prof);   /* rule NF */
	}
}

int tf_same_change(const struct gm_trace_insn *a, const struct gm_trace_insn *b, int rw)
{
	int ops = a->in->op == b->in->op ||
		  (rw && (a->in->op == GM_TO_LOAD || a->in->op == GM_TO_STORE) && a->fit.cls != GM_TC_COALESCED &&
		   a->fit.cls != GM_TC_BROADCAST && a->fit.cls != GM_TC_SHARED_OK &&
		   (b->in->op == GM_TO_LOAD || b->in->op == GM_TO_STORE) && !strcmp(a->fit.expr1d, b->fit.expr1d));

	return a->in->line == b->in->line && a->in->space == b->in->space && ops &&
	       a->fit.cls == b->fit.cls && a->fit.cls_k == b->fit.cls_k &&
	       ((!a->in->file && !b->in->file && a->in->line == 0 && (rw || a->in->pc == b->in->pc)) ||
		(a->in->file && b->in->file && a->in->line > 0 && !strcmp(a->in->file, b->in->file)));
}

/*
 * Each instruction's share of the kernel's memory time: 1 - (the model's time without it) / (its time with
 * all), times the memory fraction (the predicted time over the measured, at most 1). Without a prediction,
 * or for an instruction the model does not take, its share of the traffic stands in.
 */
static void time_shares(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double mem = 1;
	char why[200];

	if (k->pred_ok && k->time_ms > 0 && k->mem_ms > 0)
		mem = fmin(1, k->mem_ms / k->time_ms);
	int asked = 0;
	static char done[GM_TRACE_MAX_INSNS];

	memset(done, 0, sizeof(done));

	for (int i = 0; i < k->nins; i++)
		k->ins[i].time_share = k->ins[i].share * mem;
	/* per group of one change (one line's unrolled instructions), the 8 largest that waste: the model without
	   the group, its share split by bytes */
	for (int j = 0; j < k->norder && asked < 8; j++) {
		struct gm_trace_insn *x = &k->ins[k->order[j]];
		struct tk_swap out[64];
		struct gm_launch_out w;
		int n = 0;
		double bytes = 0, f;
		if (done[j] || !k->pred_ok || !x->fit.expr1d[0] || k->mem_ms <= 0 || x->excess_bytes <= 0.02 * x->bytes)
			continue;
		for (int q = j; q < k->norder && n < 64; q++)
			if (!done[q] && tf_same_change(x, &k->ins[k->order[q]], 0)) {
				done[q] = 1;
				out[n++] = (struct tk_swap){ k->order[q], NULL, 0, 0 };
				bytes += k->ins[k->order[q]].bytes;
			}
		asked++;
		f = tk_predict(k, prof, -1, out, n, &w, why, sizeof(why)) ? 1 : fmax(0, 1 - w.time_ms / k->mem_ms);
		for (int q = 0; q < n; q++)
			k->ins[out[q].ins].time_share = f * mem * (bytes > 0 ? k->ins[out[q].ins].bytes / bytes : 1.0 / n);
	}
}

/* Each instruction's fit is its own (no shared state): on every core, one instruction an item. */
static void fit_item(void *arg, void *state, int i)
{
	struct gm_trace_kernel *k = arg;

	(void)state;
	gm_trace_fit_instr(k->l, &k->l->ins[i], &k->ins[i].fit);
}

gm_status gm_trace_kernel_analyse(const struct gm_trace_launch *l, const struct gm_profile *prof,
				  struct gm_trace_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->l = l;
	k->threads = l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
	k->ins = l->nins ? calloc((size_t)l->nins, sizeof(*k->ins)) : NULL;
	if (l->nins && !k->ins)
		return gm_fail(GM_ERR_NOMEM, "out of memory analysing a launch");
	k->nins = l->nins;
	for (int i = 0; i < l->nins; i++)
		k->ins[i].in = &l->ins[i];
	gm_parallel_for(l->nins, gm_cores(), NULL, NULL, fit_item, k);
	tf_priors(k);
	tk_computed_scatters(k);   /* rule CS: the gathers the thread's index computes, in words */
	tk_whole_records(k);       /* strided pieces that use every byte of their records */
	k->local_span = tk_local_span(k);
	traffic(k);
	tk_occupancy(k, prof);   /* rule OC, before the launch model */
	if (k->occ_cap > 0) {   /* its fix: the shared memory the block uses */
		int cap = k->occ_cap;
		k->occ_cap = k->occ.need_blocks < k->occ.of ? k->occ.need_blocks : 0;
		predict(k, prof);
		k->occ.free_ms = k->pred_ok ? k->pred.time_ms : 0;
		k->occ_cap = cap;
	}
	predict(k, prof);
	k->time_ms = l->time_ms > 0 ? l->time_ms : -1;
	k->dram_measured = l->dram_read_bytes >= 0 && l->dram_write_bytes >= 0;
	k->dram_bytes = k->dram_measured ? l->dram_read_bytes + l->dram_write_bytes :
			k->pred_ok ? k->pred.dram_read_bytes + k->pred.dram_write_bytes : -1;
	k->gbs = k->dram_bytes >= 0 && k->time_ms > 0 ? k->dram_bytes / (k->time_ms * 1e6) : -1;
	k->roof_gbs = prof ? prof->read_gbs : -1;
	k->roof_pct = k->gbs >= 0 && k->roof_gbs > 0 ? 100 * k->gbs / k->roof_gbs : -1;
	k->pred_err_pct = k->pred_ok && k->time_ms > 0 ? 100 * (k->pred.time_ms / k->time_ms - 1) : 0;
	/* the interval is of GB/s over the same bytes: the times are the prediction scaled by its ends */
	k->pred_lo_ms = k->pred_ok && k->pred.gbs_high > 0 ? k->pred.time_ms * k->pred.gbs / k->pred.gbs_high : -1;
	k->pred_hi_ms = k->pred_ok && k->pred.gbs_low > 0 ? k->pred.time_ms * k->pred.gbs / k->pred.gbs_low : -1;
	k->limited_by = k->pred_ok && k->pred.limited_by ? k->pred.limited_by : "unknown";
	if (!k->dram_measured && k->roof_pct > 105) {
		tk_why(k, "its DRAM bytes would need %.0f %% of the roof in the measured time: the model reads more than "
		       "the kernel did", k->roof_pct);
	}
	tk_memory_bound(k, prof);
	time_shares(k, prof);
	tk_bottlenecks(k, prof);
	return GM_OK;
}