/*
 * trace_rejoin.c - the trace's rules that change one part of the launch model's
 * time and join the parts again (rule T3's join, the start-up, the interval
 * moved with the time): U, the SMs in use; O, a tile's barrier behind the
 * other blocks' round trips (docs/TRACE.md, "The kernel's prediction").
 */
#include <math.h>
#include <string.h>
#include "analysis/trace_internal.h"

void tk_rejoin(struct gm_launch_out *o, const struct gm_profile *prof, double t0)
{
	o->time_ms = gm_launch_join(o->t_waves_ms, o->t_bandwidth_ms, prof->knee) + o->t_start_ms;
	if (o->time_ms > 0 && t0 > 0) {   /* the interval moves with the time */
		o->gbs_low *= t0 / o->time_ms;
		o->gbs_high *= t0 / o->time_ms;
	}
	o->gbs = o->time_ms > 0 ? o->useful_bytes / (o->time_ms * 1e-3) / 1e9 : 0;
}

/* The slowest level again after a rule changed one (the launch model's rules T, P2 and T4), with its name. */
void tk_rebound(struct gm_launch_out *o, const struct gm_profile *prof)
{
	double b = fmax(o->t_dram_ms, fmax(o->t_l2_ms, o->t_l1_ms));
	const char *by = b == o->t_l1_ms ? "L1" : b == o->t_l2_ms ? "L2" : "DRAM";

	if (o->t_pages_ms > 0) {
		by = o->t_pages_ms > b ? "pages" : by;
		b = gm_launch_join(o->t_pages_ms, b, prof->knee);
	}
	if (o->t_blocks_ms > b) {
		b = o->t_blocks_ms;
		by = "blocks";
	}
	o->t_bandwidth_ms = b;
	o->limited_by = o->t_waves_ms > b ? "latency" : by;
}

/*
 * Rule U, the SMs in use (the trace's; docs/TRACE.md): the launch model's L1 time spreads the launch's L1
 * wavefronts over every SM (l1_gbs is the GPU's), but a launch of fewer blocks than SMs runs on as many SMs as
 * it has blocks, each SM's L1 serving its own. Its L1 time is then scaled by sm_count / blocks, and the time
 * joined again as rule T3 and S do (the slowest level, latency and bandwidth at the knee, the start-up).
 */
void tk_sms_in_use(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];

	if (!prof || prof->sm_count <= 0 || !(blocks > 0) || blocks >= prof->sm_count || !(o->t_l1_ms > 0))
		return;
	o->t_l1_ms *= prof->sm_count / blocks;
	if (o->t_l1_ms <= o->t_bandwidth_ms)
		return;
	o->t_bandwidth_ms = o->t_l1_ms;
	o->limited_by = o->t_waves_ms > o->t_bandwidth_ms ? "latency" : "L1";
	tk_rejoin(o, prof, o->time_ms);
}

/*
 * Rule O, a conflicted tile's replays behind the other blocks' round trips (docs/TRACE.md, "The kernel's
 * prediction"): rule T6 serves the shared wavefronts and stores a barrier holds back after the wave's round trip,
 * every resident block of the SM at once, and adds them to the wave. The wavefronts above the ideal (bank
 * conflicts' replays, measured per instruction) are the part that need not wait: an SM that holds r >= 2 blocks
 * of the launch runs them out of step after their first trip, so its shared pipe replays one block's conflicts
 * while the others wait for their loads. That part x (T6's barrier time times the measured excess wavefronts over
 * all shared wavefronts) overlaps the rest of the wave: the wave lasts max(rest, x) + min(rest, x) / r (the r
 * blocks take turns: 1/r is not hidden). r: threads_per_sm / the block's threads, at most the launch's blocks per
 * SM. Not where rule B's steps fire (a loop of barriers keeps the blocks in step): trace_kernel.c calls it only
 * without them. A conflict-free tile is unchanged.
 */
void tk_barrier_overlap(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];

	if (!prof || prof->sm_count <= 0 || prof->threads_per_sm <= 0 || tpb <= 0 || !(o->t_barrier_ms > 0))
		return;
	double per_sm = fmin((double)(prof->threads_per_sm / tpb), ceil(blocks / prof->sm_count));
	if (per_sm < 2)
		return;
	double wf = 0, extra = 0;
	for (int i = 0; i < k->nins; i++) {   /* the shared wavefronts above the ideal: the bank conflicts' replays */
		const struct gm_trace_instr *in = k->ins[i].in;
		double ideal = in->ideal_wavefronts >= 0 ? in->ideal_wavefronts : in->requests * k->ins[i].fit.ideal_per_req;
		if (in->space == GM_TS_SHARED && in->wavefronts > 0 && ideal >= 0) {
			wf += in->wavefronts;
			extra += fmax(0, in->wavefronts - ideal);
		}
	}
	if (!(wf > 0) || !(extra > 0))
		return;
	double x = o->t_barrier_ms * extra / wf, rest = o->t_waves_ms - x;
	o->t_waves_ms = fmax(rest, x) + fmin(rest, x) / per_sm;
	if (x >= rest && o->t_l1_ms >= x)
		o->t_waves_ms -= x;   /* the replays are the L1 level's own wavefronts: one pipe, not two times to join */
	if (o->t_waves_ms <= o->t_bandwidth_ms && o->limited_by && !strcmp(o->limited_by, "latency"))
		o->limited_by = o->t_bandwidth_ms == o->t_l1_ms ? "L1" : o->t_bandwidth_ms == o->t_l2_ms ? "L2" :
				o->t_bandwidth_ms == o->t_blocks_ms ? "blocks" : o->t_bandwidth_ms == o->t_pages_ms ? "pages" : "DRAM";
	tk_rejoin(o, prof, o->time_ms);
}

/*
 * Rule WS, a sector written partly is a whole sector's write (docs/TRACE.md, "The kernel's prediction"): the
 * launch model's rule L4 carries a store's bytes to L2 at `l2_write_gbs` and prices a line a request writes partly
 * as one lookup. A store whose pieces of a sector come in several requests (a thread's record written as 2-4
 * narrower stores, lanes 12-32 B apart: set 10's dq_v16 and nv12_4px) has L2 write each sector once a request: the
 * measured store sectors x 32 B at `l2_write_gbs` give their time within 5 %, the bytes about half or a third of
 * it. Rule M folds such pieces into one pattern, so the model sees whole sectors. Where the global stores'
 * measured sectors x 32 exceed the bytes the model's stores carry, L2's sector time is taken with them (the
 * model's load sectors at `l2_read_gbs` beside), if longer than the model's L2 time (its line lookups, rules L3
 * and L4), and the time joined again. Only with rule L4's two rates (a profile without them has rule L2's
 * sectors already). No new constant. Local stores count too: L1 writes them through to L2 like global ones, also
 * where rule LA keeps the stack's loads in L1 (set 28's rk4_called: 4.3 GB of frame stores at l2_write_gbs are 94 %
 * of its 0.99 ms, its L1 sectors 50 %).
 */
void tk_whole_sectors(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	double st = 0;

	if (!prof || !(prof->l2_merge_lines_gps > 0) || !(prof->l2_part_sectors_gps > 0) || !(prof->l2_write_gbs > 0) ||
	    !(prof->l2_read_gbs > 0))
		return;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (x->in->space != GM_TS_SHARED && x->in->op == GM_TO_STORE)
			st += x->bytes;   /* measured sectors x 32 (trace_kernel.c); atomics keep rule X and L4 */
	}
	if (!(st > o->l2_store_bytes))
		return;
	double t = (o->l2_load_sectors * GM_SECTOR_BYTES / prof->l2_read_gbs + st / prof->l2_write_gbs) / 1e6;
	if (!(t > o->t_l2_ms))
		return;
	o->t_l2_ms = t;
	o->l2_by_lines = 0;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}

/*
 * Rule L1S, L1 as busy as its measured traffic: the launch model's L1 time counts its patterns' wavefronts, a
 * 128 B line a lane of a column walk at most, and nothing for the instructions it has no pattern for. The trace
 * measured every global instruction's sectors and every shared one's wavefronts: L1 moves at least those, sectors
 * x 32 B and wavefronts x 128 B, at `l1_gbs` (on the SMs the launch uses, rule U), the report's L1 bound
 * ("Memory-bound"). Where that is longer than the model's L1 time, it is the L1 time, and the time is joined again
 * (T3). Set 7's conv1d_mc_chan_fast (lanes a channel's row apart, 17 taps of x and w each its own line): the model's
 * L1 time 0.29 of its 0.56 ms measured, the sectors' 0.61. No constant.
 */
void tk_l1_measured(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o)
{
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2], b = 0;

	if (!prof || !(prof->l1_gbs > 0) || prof->sm_count <= 0 || !(blocks > 0))
		return;
	for (int i = 0; i < k->nins; i++)
		b += k->ins[i].bytes;   /* sectors x 32, shared wavefronts x 128 (trace_kernel.c) */
	double sms = blocks < prof->sm_count ? blocks / prof->sm_count : 1;
	double t = b / (prof->l1_gbs * sms) / 1e6;
	if (!(t > o->t_l1_ms))
		return;
	o->t_l1_ms = t;
	tk_rebound(o, prof);
	tk_rejoin(o, prof, o->time_ms);
}
