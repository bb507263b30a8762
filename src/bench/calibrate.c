/*
 * calibrate.c - the device profile from a run (gpumem calibrate, and
 * calibrate --from RUN.json).
 *
 * Each constant comes from one measured case or one derived result of the
 * run; none is fitted to the cases the model predicts (docs/MODEL.md,
 * "Device profile"):
 *   read_gbs         copy.read_b16_tile4      dense 16 B loads, no stores
 *   write_gbs        copy.write_b16_tile4     dense 16 B stores, no loads
 *   copy_gbs         copy.v8_b4_tile4         dense copy (read + write counted)
 *   read_half_gbs    stride.b16_s008          one 64 B piece read per 128 B
 *   read_sparse_gbs  stride.b16_s032          one 64 B piece read per 512 B
 *   read_quarter_gbs stride.b16_s016          one 64 B piece read per 256 B (rule D3 at 256 B;
 *                                             optional: named in unmeasured when the run lacks it)
 *   l1_gbs, l1_bytes, l2_read_gbs, l2_write_gbs, l2_bytes
 *                    the hierarchy family's derived plateaus and knees
 *   wave_ns, knee    copy.v0_b4 and copy.v1_b8 (one 4 B / 8 B element per
 *                    thread): the loaded round trip of a wave and how it
 *                    joins the DRAM time (rules T2, T3)
 *   wave_l2_ns       copy.table_blk1024_b4 (the same kernel reading a 4 MiB
 *                    table in blocks of 1024; else copy.table_b4, in blocks of
 *                    256): the round trip when L2 serves the loads
 *   l2_lines_gps     copy.lines_b4 (that table, lanes 128 B apart): the rate
 *                    L2 looks up the lines of requests (rule L3)
 *   l1_lines_gps     copy.lines_l1_b4 (a 4 KiB table, lanes 128 B apart): the
 *                    rate L1 serves the lines of such requests (rule T11)
 *   warp_tail        copy.blk1024_b4 (copy_one in blocks of 1024 threads): how
 *                    much longer a block of 32 warps holds its slots than one
 *                    of 8, as an exponential tail of a warp's round trip (T5)
 *   blocks_gps       copy.blk64_b4 (copy_one in blocks of 64 threads): the
 *                    rate the SMs start blocks (rule T4)
 *   l2_merge_lines_gps, l2_part_sectors_gps
 *                    copy.scatter_b4 and copy.scatter_blocks_b4 (4 B stores in
 *                    pieces: the warps of one block fill the same lines / 8
 *                    blocks fill each sector): the rates L2 takes lines written
 *                    partly, and sectors another running block wrote last (L4)
 *   l2_merge_far_lines_gps
 *                    copy.scatter_far_b4 (scatter_b4's warps, each block's 32
 *                    lines 1 KiB + 128 B apart): the rate L2 takes lines written
 *                    partly in requests whose lines lie 384-3456 B apart (L4)
 *   l2_far_lines_gps, l2_far_lines16_gps
 *                    copy.colstore_b4 and copy.colstore_b16 (a column walk of
 *                    the stores over 1024 rows 512 KiB + 128 B apart, 4 and
 *                    16 B lanes): the rate L2 takes lines written partly by a
 *                    lane alone, the request's lines far apart (L4's far end)
 *   write_sparse_gbs copy.sparse_st_b16 (16 B lanes in pairs, whole 32 B
 *                    sectors 256 B apart, nothing written between): the rate
 *                    of the 64 B pieces DRAM writes alone (rule D12), the one
 *                    with which the model gives the case its measured time;
 *                    after every other constant
 *   pages_gps        copy.pages_b4 (a column walk over rows 4 MiB + 128 B
 *                    apart, each lane alone in its 2 MiB page): the rate such
 *                    lanes are translated (rule P); GM_PAGES_GPS_DEFAULT,
 *                    named in unmeasured, when the run lacks the case or
 *                    it is not slower
 *   pages_2m_gps, pages_16m_gps
 *                    copy.pages_2m_b4 and copy.pages_16m_b4 (the same walk,
 *                    rows 2 and 16 MiB + 128 B apart): the rate of
 *                    translations whose pages lie that far apart (rule P4)
 *   pages_2m_al_gps  copy.pages_2m_al_b4 (rows exactly 2 MiB apart: the request's lines on
 *                    the same low address bits, rule P5)
 *   pages_spread_gps copy.pages_spread_b4 (rows 4026528 B, 3.84 MiB, apart: the request's
 *                    32 lanes spread over their pages' offsets, rule P6)
 *   launch_us        copy.start_b4 (v0_b4 over 8 waves of resident threads, a
 *                    few microseconds a launch, timed back to back): its time
 *                    less the launch model's time for it with every constant
 *                    above, the start-up each launch pays (rule S); last
 *   floor_us         copy.floor_b4 (v0_b4 over one block, timed back to back):
 *                    its time, the least a launch so timed takes (rule S3)
 *   atomic_u32_ns, atomic_f32_ns
 *                    atomics.u32_one, atomics.f32_one_1m (every thread adding to
 *                    one address): a warp's integer update, a lane's float
 *                    update of one address (the trace's rule X)
 *   atomic_turn_ns   atomics.u32_lanes32 (each warp's 32 lanes on one address of its
 *                    own): its time over its waiting lanes (31 a warp), the GPU's
 *                    time a turn (the trace's rule A)
 *   *_latency_ns     the latency family (information only)
 * The three stride rates are rates of the 64 B pieces DRAM reads: the case's
 * time less its stores at write_gbs and the turnaround the copy rate implies.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"
#include "families/common/shapes.h"

static const struct gm_case_result *need_case(const struct gm_run_result *r, const char *name, char *why,
					      size_t n)
{
	const struct gm_case_result *c = gm_result_find(r, name);

	if (!c || c->status != GM_CASE_OK || !(c->value.median > 0)) {
		snprintf(why, n, "the run has no measured case '%s'", name);
		return NULL;
	}
	return c;
}

static double derived(const struct gm_run_result *r, const char *name)
{
	for (int k = 0; k < r->nderived; k++)
		if (!strcmp(r->derived[k].name, name))
			return r->derived[k].value;
	return 0;
}

/*
 * A strided gather of 16 B elements, stride_bytes apart (>= 64): n elements
 * read as n pieces of 64 B, written densely. The read rate of those pieces.
 */
static double piece_rate(const struct gm_case_result *c, double stride_bytes, const struct gm_profile *p)
{
	double n = c->traffic.bytes_useful / 32.0; /* 16 B read + 16 B written each */
	double rd = n * 64.0, wr = n * 16.0;
	double t = c->traffic.bytes_useful / c->value.median / 1e9; /* s */
	double k = (2.0 / p->copy_gbs) / (1.0 / p->read_gbs + 1.0 / p->write_gbs) - 1.0;
	double turn = 1.0 + (k > 0 ? k : 0) * 2.0 * wr / (rd + wr);
	double tr = t / turn - wr / (p->write_gbs * 1e9);

	(void)stride_bytes;
	return tr > 0 ? rd / tr / 1e9 : 0;
}

/* Rule T3 undone: the time one side took, when joined with knee k to the other side's t_other it gave t_meas. */
static double latency_at(double t_meas, double t_other, double k)
{
	double r = t_other / t_meas;

	return t_meas * pow(1.0 - pow(r, k), 1.0 / k);
}

/*
 * The run, and its cases' walks for the profile's shape (gm_case_walks_new): the derivation views the same cases
 * with profiles that differ only in their rates (the tail's fixed point, D12's rate), so each case is walked
 * once, and the walks on every core at once, before the first view; a view through them is the launch model's
 * own, bit for bit.
 */
struct calib_run {
	const struct gm_run_result *run;
	const struct gm_case_walks *walks;
};

/* A case measured, and the launch model's view of it with the profile so far (its waves, its bandwidth time). */
static const struct gm_case_result *viewed(const struct calib_run *r, const char *name,
					   const struct gm_profile *p, struct gm_launch_out *o)
{
	const struct gm_case_result *c = gm_result_find(r->run, name);

	if (!c || c->status != GM_CASE_OK || !(c->ms.median > 0) || gm_launch_case_out_walked(r->walks, c, p, o) != GM_OK ||
	    !(o->waves > 0))
		return NULL;
	return c;
}

/*
 * copy.v0_b4 and copy.v1_b8: every thread loads one element (4 or 8 B),
 * stores it and ends. Both are one round trip per wave of resident threads
 * (rule T2) joined with the dense copy's DRAM time (rule T3): two cases, two
 * unknowns, the round trip (wave_ns) and the knee. Found by bisection on the
 * knee (1..16): a smaller knee slows v1_b8's prediction. Without v1_b8 (or
 * when v1_b8 is not slower than DRAM) the knee is 0: the larger of the two
 * times, and wave_ns is v0_b4's time per wave. Both are optional: a run
 * without the cases gives a profile without them.
 */
static void one_per_thread(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c4, *c8;
	struct gm_launch_out o4, o8;
	double t4, t8, d4, d8, w8, lo = 1.0, hi = 16.0;

	p->threads_per_sm = r->run->dev.max_threads_per_sm;
	p->wave_ns = p->knee = 0;
	if (!(c4 = viewed(r, "copy.v0_b4", p, &o4)))
		return;
	t4 = c4->ms.median;
	d4 = o4.t_bandwidth_ms;
	p->wave_ns = t4 * 1e6 / (o4.waves * o4.block_tail);
	if (!(d4 < t4) || !(c8 = viewed(r, "copy.v1_b8", p, &o8)))
		return;
	t8 = c8->ms.median;
	d8 = o8.t_bandwidth_ms;
	/* v1_b8's blocks read 16 lines, v0_b4's 8: with a warp_tail (rule T5) their round trips differ */
	w8 = o8.waves * o8.block_tail / (o4.waves * o4.block_tail);
	if (!(d8 < t8) || o8.waves * o8.block_tail * p->wave_ns * 1e-6 >= t8)
		return; /* not slower than DRAM, or slower than latency alone: the larger of the two */
	for (int it = 0; it < 60; it++) {
		double k = 0.5 * (lo + hi), tl = latency_at(t4, d4, k) * w8;

		if (gm_launch_join(tl, d8, k) > t8)
			lo = k;
		else
			hi = k;
	}
	p->knee = 0.5 * (lo + hi);
	p->wave_ns = latency_at(t4, d4, p->knee) * 1e6 / (o4.waves * o4.block_tail);
}

/*
 * copy.table_blk1024_b4 (else copy.table_b4): one element per thread from a table that stays in L2. The
 * launch model's own view of the case (its waves, their tail (rule T5), DRAM share of the loads, bandwidth
 * time) with the knee gives the round trip that reproduces its time. In blocks of 256 (table_b4) the rate the
 * SMs start blocks (rule T4) nearly explains the time, and the join leaves little of it to the round trip; in
 * blocks of 1024 it does not (probe-45: 4 MiB tables in blocks of 512 and 1024 ran at 72 / 66 % of the model
 * with table_b4's round trip, both 455-460 ns a wave with T5's tail taken out). Optional, like wave_ns.
 */
static double l2_round_trip(const struct calib_run *r, const char *name, const struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double t, tl, dram, f, wave;

	if (!(p->wave_ns > 0) || !(c = viewed(r, name, p, &o)))
		return 0;
	t = c->ms.median;
	if (!(o.t_bandwidth_ms < t))
		return 0; /* bandwidth alone explains it: no round trip to measure */
	tl = p->knee > 0 ? latency_at(t, o.t_bandwidth_ms, p->knee) : t;
	dram = o.dram_read_bytes - o.dram_fill_bytes;
	f = dram + o.l2_reuse_bytes > 0 ? dram / (dram + o.l2_reuse_bytes) : 1.0;
	if (f >= 0.5)
		return 0; /* the table did not stay in L2 in the model's view */
	wave = tl * 1e6 / (o.waves * o.block_tail); /* one round trip per thread */
	wave = (wave - f * p->wave_ns) / (1.0 - f);
	return wave > 0 ? wave : 0;
}

static void one_per_thread_l2(const struct calib_run *r, struct gm_profile *p)
{
	p->wave_l2_ns = l2_round_trip(r, "copy.table_blk1024_b4", p);
	if (!(p->wave_l2_ns > 0))
		p->wave_l2_ns = l2_round_trip(r, "copy.table_b4", p);
}

/* A case's time for bandwidth: its measured time with its threads' latency taken out (rule T3); 0 when
   latency alone explains it. */
static double bandwidth_time(const struct gm_case_result *c, const struct gm_profile *p,
			     const struct gm_launch_out *o)
{
	double t = c->ms.median;

	if (!(o->t_waves_ms < t))
		return 0;
	return p->knee > 0 && o->t_waves_ms > 0 ? latency_at(t, o->t_waves_ms, p->knee) : t;
}

/*
 * A rate a case measures: what it counts (a field of the launch model's view
 * of it, 1e9 of them a second) over its time for bandwidth, when that is longer
 * than every level's time the profile so far gives it; 0 otherwise.
 */
static double rate_left(const struct calib_run *r, const char *name, const struct gm_profile *p,
			size_t field)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double tb, n;

	if (!(c = viewed(r, name, p, &o)))
		return 0;
	n = *(const double *)((const char *)&o + field);
	if (!(n > 0) || !((tb = bandwidth_time(c, p, &o)) > o.t_bandwidth_ms))
		return 0;
	return n / (tb * 1e6);
}

/*
 * copy.lines_b4: 32 lines of L2 a request. The time the launch model leaves
 * for bandwidth once its latency is joined (knee) is the time L2 took to
 * look up the case's line requests, when that is longer than the other
 * levels' time. Optional.
 */
static void lines_of_l2(const struct calib_run *r, struct gm_profile *p)
{
	p->l2_lines_gps = 0;
	p->l2_lines_gps = rate_left(r, "copy.lines_b4", p, offsetof(struct gm_launch_out, l2_lines));
}

/*
 * copy.lines_l1_b4: a column walk over the 32 rows of a 4 KiB table, 32 lines of L1 a request. Its time for
 * bandwidth, less its other L1 wavefronts (the stores') at l1_gbs, over its loads' wavefronts, when that time is
 * longer than every level's with l1_gbs: the rate L1 serves the lines of requests that touch many (rule T11).
 * Optional.
 */
static void lines_of_l1(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double tb, rest;

	p->l1_lines_gps = 0;
	if (!(c = viewed(r, "copy.lines_l1_b4", p, &o)) || !(o.l1_many_wavefronts > 0) ||
	    !((tb = bandwidth_time(c, p, &o)) > o.t_bandwidth_ms))
		return;
	/* its other wavefronts (the stores') at l1_gbs, rule T1 */
	rest = (o.l1_wavefronts - o.l1_many_wavefronts) * 128.0 / p->l1_gbs / 1e6;
	if (tb > rest)
		p->l1_lines_gps = o.l1_many_wavefronts / ((tb - rest) * 1e6);
}

/*
 * copy.pages_b4: a column walk, each lane of a request alone in its 2 MiB
 * page. The time the launch model leaves for bandwidth once its latency is
 * joined, less its other levels' time as the knee joins them (rule P2), over
 * its lanes alone in their page that miss L1 (rule P), when that is longer
 * than the other levels' time; the default otherwise. Last: its other levels
 * (L2's lines) come first.
 */
static double pages_rate(const struct calib_run *r, const char *name, const struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	struct gm_profile q = *p;
	double tb;

	q.pages_gps = q.pages_2m_gps = q.pages_16m_gps = q.pages_2m_al_gps = q.pages_spread_gps = 0; /* the other levels */
	/* rule P2: the translations join the other levels at the knee, so their time is what the join leaves */
	if (!(c = viewed(r, name, &q, &o)) || !(o.page_lanes > 0) || !((tb = bandwidth_time(c, &q, &o)) > o.t_bandwidth_ms))
		return 0;
	return o.page_lanes / ((q.knee > 0 ? latency_at(tb, o.t_bandwidth_ms, q.knee) : tb) * 1e6);
}

/* Rule P4: copy.pages_2m_b4 and copy.pages_16m_b4, the same walk with rows 2 and 16 MiB + 128 B apart: the rate
   of translations whose pages lie that far apart, as copy.pages_b4's. Optional, with pages_gps measured. */
static void pages_translated(const struct calib_run *r, struct gm_profile *p)
{
	p->pages_gps = p->pages_2m_gps = p->pages_16m_gps = p->pages_2m_al_gps = p->pages_spread_gps = 0;
	p->pages_gps = pages_rate(r, "copy.pages_b4", p);
	if (p->pages_gps > 0) {
		p->pages_2m_gps = pages_rate(r, "copy.pages_2m_b4", p);
		p->pages_16m_gps = pages_rate(r, "copy.pages_16m_b4", p);
	}
	if (p->pages_2m_gps > 0) /* rule P5: rows exactly 2 MiB apart, the ratio to pages_2m_gps its cost */
		p->pages_2m_al_gps = pages_rate(r, "copy.pages_2m_al_b4", p);
	if (p->pages_gps > 0) /* rule P6: rows 3.84 MiB apart, lanes spread over their pages; its factor in the model */
		p->pages_spread_gps = pages_rate(r, "copy.pages_spread_b4", p);
	if (!(p->pages_gps > 0)) { /* named: the file leaves it out, and every printout says so */
		p->pages_gps = GM_PAGES_GPS_DEFAULT;
		gm_profile_note_unmeasured(p, "pages_gps");
	}
}

/*
 * copy.blk1024_b4: copy_one in blocks of 1024 threads (32 warps). Its latency
 * time (its measured time with the bandwidth time taken out, rule T3) over
 * what blocks of 256 would take is g = (1 + x H_32) / (1 + x H_8) (rule T5):
 * x, the warp's tail over its base round trip. Optional.
 */
static void block_tail(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double t, g;

	p->warp_tail = 0;
	if (!(p->wave_ns > 0) || !(c = viewed(r, "copy.blk1024_b4", p, &o)) || !(o.t_waves_ms > 0))
		return;
	t = c->ms.median;
	if (!(o.t_bandwidth_ms < t))
		return;
	g = (p->knee > 0 ? latency_at(t, o.t_bandwidth_ms, p->knee) : t) / o.t_waves_ms;
	p->warp_tail = gm_launch_warp_tail_for(g, COPY_BIG_BLOCK);
}

/* One step of the tail's fixed point: the round trip and knee with tail x, then the tail they give. */
static double tail_step(const struct calib_run *r, struct gm_profile *p, double x)
{
	p->warp_tail = x;
	one_per_thread(r, p);
	block_tail(r, p);
	return p->warp_tail;
}

static int settled(double x, double prev)
{
	return fabs(x - prev) <= 1e-12 * (1 + prev);
}

/*
 * The round trip and knee, then the tail; again with the tail until it settles: copy.v1_b8's blocks read 16
 * lines, v0_b4's 8, and their round trips differ by the tail (rule T5). The plain steps close on the fixed point
 * by about a tenth a step (13 steps, each three launch models); every two steps Aitken's extrapolation jumps
 * towards it (Steffensen), so it settles in about 7. Each exit is a plain step that moved less than 1e-12: the
 * same fixed point, the profile's fields as the plain steps give them to the digits a profile holds.
 */
static void settle_tail(const struct calib_run *r, struct gm_profile *p)
{
	double x0 = p->warp_tail;

	for (int it = 0; it < 16; it++) {
		double x1 = tail_step(r, p, x0), x2, d, xa;

		if (settled(x1, x0))
			return;
		if (settled((x2 = tail_step(r, p, x1)), x1))
			return;
		d = x2 - 2 * x1 + x0;
		xa = d != 0 ? x0 - (x1 - x0) * (x1 - x0) / d : x2;
		x0 = isfinite(xa) && xa > 0 ? xa : x2;
	}
}

/*
 * copy.blk64_b4: copy_one in blocks of 64 threads, each copying 4 B and
 * ending. Its time for bandwidth (its latency taken out), when longer than
 * every level's, is the time the SMs took to start its blocks (rule T4).
 * Optional.
 */
static void blocks_started(const struct calib_run *r, struct gm_profile *p)
{
	p->blocks_gps = 0;
	p->blocks_gps = rate_left(r, "copy.blk64_b4", p, offsetof(struct gm_launch_out, blocks));
}

/*
 * The time a case left for its L2 line lookups: its bandwidth time less what
 * its other lines cost at l2_lines_gps. 0 when DRAM or latency explain the
 * case, or nothing is left.
 */
static double lines_time_left(const struct gm_case_result *c, const struct gm_profile *p,
			      const struct gm_launch_out *o)
{
	double t = bandwidth_time(c, p, o), other;

	if (!(t > 0) || !(p->l2_lines_gps > 0))
		return 0;
	other = (o->l2_lines - o->l2_part_lines - o->l2_merged_lines) / p->l2_lines_gps / 1e6;
	if (!(t > o->t_dram_ms) || !(t > other))
		return 0;
	return t - other;
}

/*
 * copy.scatter_b4 and copy.scatter_blocks_b4 (rule L4): 4 B stores, every
 * line written in pieces. In the first the 32 warps of a block fill the same
 * 32 lines: the line time left over its lines gives l2_merge_lines_gps. In the
 * second the 8 pieces of each sector come from 8 consecutive blocks, 4 sectors
 * a line: the sectors other blocks wrote last, over the time its merged lines
 * leave, give l2_part_sectors_gps. Optional: both or neither.
 */
static void partial_lines_of_l2(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *cb, *cm;
	struct gm_launch_out ob, om;
	double tb, tm, x = 0;

	p->l2_part_sectors_gps = p->l2_merge_lines_gps = 0;
	if (!(cm = viewed(r, "copy.scatter_b4", p, &om)) || !(cb = viewed(r, "copy.scatter_blocks_b4", p, &ob)) ||
	    !(om.l2_merged_lines > 0) || om.l2_part_lines > 0 || !(ob.l2_part_lines > 0))
		return;
	if (!((tm = lines_time_left(cm, p, &om)) > 0) || !((tb = lines_time_left(cb, p, &ob)) > 0))
		return;
	p->l2_merge_lines_gps = om.l2_merged_lines / (tm * 1e6);
	tb -= ob.l2_merged_lines / p->l2_merge_lines_gps / 1e6;
	for (int k = 1; k < 5; k++)
		x += k * ob.l2_partial_lines[k];
	if (!(tb > 0)) {
		p->l2_merge_lines_gps = 0;
		return;
	}
	/* the lines with sectors of other blocks took their x sector merges; when those would not be slower
	   than a lookup, the case did not measure them: no rate */
	p->l2_part_sectors_gps = x / (tb * 1e6);
	if (!(1.0 / p->l2_merge_lines_gps < x / ob.l2_part_lines / p->l2_part_sectors_gps))
		p->l2_part_sectors_gps = p->l2_merge_lines_gps = 0;
}

/*
 * copy.colstore_b4 and copy.colstore_b16 (rule L4's far end): a column walk of the stores over 1024 rows 512 KiB +
 * 128 B apart, each lane alone in a line its request writes partly, its request's lines at the far spacing (each
 * such line's weight 1). The line time left (lines_time_left: the time for bandwidth less the other lines'
 * lookups), less the near cost of the partial lines the far end does not price (those a block completes itself,
 * x = 0), over the far lines. Optional, each alone; 0 without both near rates (the rule starts from them).
 */
static double far_lines_rate(const struct calib_run *r, const char *name, const struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	struct gm_profile q = *p;
	double t;

	q.l2_far_lines_gps = q.l2_far_lines16_gps = 0; /* the lines as the near rule counts them */
	if (!(p->l2_merge_lines_gps > 0) || !(p->l2_part_sectors_gps > 0) || !(c = viewed(r, name, &q, &o)) ||
	    !(o.l2_far_lines > 0) || !((t = lines_time_left(c, &q, &o)) > 0))
		return 0;
	for (int x = 0; x < 5; x++) { /* the near cost (rule L4) of the lines the far end leaves */
		double per = 1.0 / p->l2_merge_lines_gps, px = x / p->l2_part_sectors_gps;
		double rest = o.l2_partial_lines[x] - o.l2_far_lines_x[x], near = px > per ? px : per;
		double q = o.l2_partial_lines[x] > 0 ? o.l2_spaced_lines_x[x] / o.l2_partial_lines[x] : 0, sp;

		if (p->l2_merge_far_lines_gps > 0 && q > 0) { /* the spaced near rate, as launch_time.c's l4_spaced_near */
			sp = 1.0 / p->l2_merge_far_lines_gps;
			near = (1 - (q < 1 ? q : 1)) * near + (q < 1 ? q : 1) * (px > sp ? px : sp);
		}
		t -= rest * near / 1e6;
	}
	return t > 0 ? o.l2_far_lines / (t * 1e6) : 0;
}

/*
 * copy.scatter_far_b4 (rule L4's spaced near rate, s75): copy.scatter_b4's warps with each block's 32 lines 1 KiB +
 * 128 B apart, every line completed by its own block (x = 0, no far weight for a 4 B lane). Viewed without the
 * field, the line time left (lines_time_left) over its merged lines, all in requests spaced GM_L4_SPACED_MIN to _MAX:
 * the case is predicted at exactly its measured rate. Optional, with both near rates; 0 when the case is missing,
 * its lines are not all spaced merged lines, or nothing is left.
 */
static void spaced_lines_of_l2(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double t;

	p->l2_merge_far_lines_gps = 0;
	if (!(p->l2_merge_lines_gps > 0) || !(p->l2_part_sectors_gps > 0) || !(c = viewed(r, "copy.scatter_far_b4", p, &o)) ||
	    !(o.l2_merged_lines > 0) || o.l2_part_lines > 0 || o.l2_far_lines > 0 ||
	    !(o.l2_spaced_lines_x[0] >= 0.999 * o.l2_merged_lines) || !((t = lines_time_left(c, p, &o)) > 0))
		return;
	p->l2_merge_far_lines_gps = o.l2_merged_lines / (t * 1e6);
}

static void far_lines_of_l2(const struct calib_run *r, struct gm_profile *p)
{
	p->l2_far_lines_gps = far_lines_rate(r, "copy.colstore_b4", p); /* each with both zeroed in its copy */
	p->l2_far_lines16_gps = far_lines_rate(r, "copy.colstore_b16", p);
}

/*
 * copy.start_b4: copy_one over 8 waves of resident threads, timed back to back
 * like every case (a launch starts when the previous one has ended). Its time
 * less the launch model's time for it with every other constant (its waves,
 * its DRAM time, joined) is what each launch pays besides: its start-up (rule
 * S). Last, with the profile otherwise complete and launch_us 0. Optional: 0
 * when the run lacks the case or the model is not faster than it.
 */
static void launch_start(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;

	p->launch_us = 0;
	if (!(c = viewed(r, "copy.start_b4", p, &o)) || !(o.time_ms > 0) || !(c->ms.median > o.time_ms))
		return;
	p->launch_us = (c->ms.median - o.time_ms) * 1e3;
}

/*
 * copy.floor_b4: copy_one over one block, timed back to back like every case: the pace of launches so timed
 * (rule S3: the host's rate of queueing launches and the GPU's of starting them; 2.9-3.4 us from one block to
 * half a wave on an H200, results/nvidia-h200/floor-c5bd278/). The case's time is that pace joined at the knee
 * with the model's time for it; the pace is what the join leaves. After launch_start (the model's time holds
 * launch_us). Optional: 0 without the case or where the model is not faster than it.
 */
static void launch_floor(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c;
	struct gm_launch_out o;
	double m, t, k = p->knee > 0 ? p->knee : 1e3; /* no knee: the larger, which a large exponent approaches */

	p->floor_us = 0;
	if (!(c = viewed(r, "copy.floor_b4", p, &o)) || !(o.time_ms > 0) || !(c->ms.median > o.time_ms))
		return;
	m = c->ms.median * 1e3;
	t = o.time_ms * 1e3;
	p->floor_us = m * pow(1.0 - pow(t / m, k), 1.0 / k);
}

/*
 * copy.sparse_st_b16 (rule D12, m78): whole 32 B sectors 256 B apart, each alone in its 64 B piece and its 256 B
 * group, nothing written between them. write_sparse_gbs is the rate (64 B a piece) with which the launch model gives
 * the case its measured time: the model's time falls as the rate grows, so it is found by regula falsi on 1 / rate
 * between write_gbs / 64 and write_gbs (a piece at least as costly as a dense sector, at most 64 times). After every other
 * constant (the case's time holds its dense input, its round trips and its start-up). Optional: 0 without the case,
 * or where the model is not slower at the lower end and faster at the upper end than the case (it measures nothing).
 */
static void sparse_writes(const struct calib_run *r, struct gm_profile *p)
{
	const struct gm_case_result *c = gm_result_find(r->run, "copy.sparse_st_b16");
	struct gm_profile q = *p;
	struct gm_launch_out o;
	double lo = p->write_gbs / 64, hi = p->write_gbs, t, t_lo, t_hi;

	p->write_sparse_gbs = 0;
	if (!c || c->status != GM_CASE_OK || !((t = c->ms.median) > 0) || !(lo > 0))
		return;
	q.write_sparse_gbs = lo;
	if (!viewed(r, "copy.sparse_st_b16", &q, &o) || !(o.time_ms > t) || !(o.dram_sparse_write_pieces > 0))
		return;
	t_lo = o.time_ms;
	q.write_sparse_gbs = hi;
	if (!viewed(r, "copy.sparse_st_b16", &q, &o) || !(o.time_ms < t))
		return;
	t_hi = o.time_ms;
	/* regula falsi (Illinois) on the time per byte, 1 / rate, where the model's time is a line or a few (D12's
	   share is a sum): each step is a walk of the case, so a few steps, not a bisection's twenty */
	double xa = 1 / lo, xb = 1 / hi, fa = t_lo - t, fb = t_hi - t, x;

	for (int k = 0; k < 24 && fabs(fb) > 1e-9 * t; k++) {
		x = xb - fb * (xb - xa) / (fb - fa);
		q.write_sparse_gbs = 1 / x;
		if (!viewed(r, "copy.sparse_st_b16", &q, &o))
			return;
		double fx = o.time_ms - t;
		if (fx * fb < 0)
			xa = xb, fa = fb;
		else
			fa /= 2;   /* the same end again: halve the other's weight */
		xb = x, fb = fx;
	}
	p->write_sparse_gbs = 1 / xb;
}

/*
 * atomics.u32_one and atomics.f32_one_1m (f32_one on 2^20 elements): every thread of the case adds to one
 * address, the updates applied one after another (the trace's rule X). The integer case's warps each send their
 * lanes as one update: its time over its warps; the float case's lanes are each an update: its time over its
 * elements. atomics.u32_lanes32 (rule A): its time over the lanes that wait, 31 of a warp's 32. Optional.
 */
static double atomic_ns(const struct gm_run_result *r, const char *name, double lanes_an_update)
{
	const struct gm_case_result *c = gm_result_find(r, name);
	double n = c ? c->traffic.bytes_useful / 4.0 : 0; /* 4 B of input an element */

	if (!c || c->status != GM_CASE_OK || !(c->ms.median > 0) || !(n > 0))
		return 0;
	return c->ms.median * 1e6 / (n / lanes_an_update);
}

static gm_status need_derived(const struct gm_run_result *r, const char *name, double *out, char *why,
			      size_t n)
{
	*out = derived(r, name);
	if (*out > 0)
		return GM_OK;
	snprintf(why, n, "the run has no derived result '%s' (run the hierarchy family, or at least its l1_, l1v9x16, l2_ and wr_ series)", name);
	return GM_ERR_NOT_FOUND;
}

gm_status gm_profile_from_run_walks(const struct gm_run_result *r, struct gm_profile *p, char *why, size_t n,
				    struct gm_case_walks **walks)
{
	const struct gm_case_result *rd, *wr, *cp, *half, *sparse, *quarter;
	struct calib_run cr = { r, NULL };
	gm_status s;

	*walks = NULL;
	memset(p, 0, sizeof(*p));
	if (!(rd = need_case(r, "copy.read_b16_tile4", why, n)) ||
	    !(wr = need_case(r, "copy.write_b16_tile4", why, n)) ||
	    !(cp = need_case(r, "copy.v8_b4_tile4", why, n)) ||
	    !(half = need_case(r, "stride.b16_s008", why, n)) ||
	    !(sparse = need_case(r, "stride.b16_s032", why, n)))
		return GM_ERR_NOT_FOUND;
	snprintf(p->device, sizeof(p->device), "%.*s", (int)sizeof(p->device) - 1, r->dev.name);
	p->sm_count = r->dev.sm_count;
	p->sm_clock_mhz = r->dev.sm_clock_khz / 1000.0;
	p->dram_atom_bytes = 64;
	p->read_gbs = rd->value.median;
	p->write_gbs = wr->value.median;
	p->copy_gbs = cp->value.median;
	p->read_half_gbs = piece_rate(half, 128, p);
	p->read_sparse_gbs = piece_rate(sparse, 512, p);
	quarter = gm_result_find(r, "stride.b16_s016"); /* before every rate the model's time gives: D3 reads it */
	p->read_quarter_gbs = quarter && quarter->status == GM_CASE_OK && quarter->value.median > 0 ?
				      piece_rate(quarter, 256, p) : 0;
	if ((s = need_derived(r, "hierarchy.l1_read_bw", &p->l1_gbs, why, n)) ||
	    (s = need_derived(r, "hierarchy.l2_read_bw", &p->l2_read_gbs, why, n)) ||
	    (s = need_derived(r, "hierarchy.l2_write_bw", &p->l2_write_gbs, why, n)))
		return s;
	p->l1_bytes = derived(r, "hierarchy.l1_capacity");
	p->l2_bytes = derived(r, "hierarchy.l2_capacity");
	if (!(p->l2_bytes > 0))
		p->l2_bytes = (double)r->dev.l2_bytes;
	if (!(p->l1_bytes > 0))
		p->l1_bytes = 256.0 * 1024;
	p->threads_per_sm = r->dev.max_threads_per_sm; /* the shape complete (one_per_thread sets it again) */
	cr.walks = *walks = gm_case_walks_new(r, p); /* NULL (out of memory): each view walks its case */
	settle_tail(&cr, p);
	blocks_started(&cr, p); /* before wave_l2_ns: copy.table_b4's blocks are part of its time */
	one_per_thread_l2(&cr, p);
	lines_of_l2(&cr, p);
	lines_of_l1(&cr, p);
	partial_lines_of_l2(&cr, p);
	spaced_lines_of_l2(&cr, p); /* before the far end, which starts from the near cost */
	far_lines_of_l2(&cr, p);
	pages_translated(&cr, p);
	launch_start(&cr, p); /* the model's time for the case with every other constant */
	launch_floor(&cr, p); /* after launch_us */
	sparse_writes(&cr, p); /* last: the model's time for the case with every other constant */
	p->atomic_u32_ns = atomic_ns(r, "atomics.u32_one", 32);
	p->atomic_f32_ns = atomic_ns(r, "atomics.f32_one_1m", 1);
	p->atomic_turn_ns = atomic_ns(r, "atomics.u32_lanes32", 32.0 / 31);   /* 31 lanes of a warp wait */
	p->dram_latency_ns = derived(r, "latency.hbm_128m_ns");
	p->l2_latency_ns = derived(r, "latency.l2_004m_ns");
	for (int k = 0; k < gm_profile_nfields; k++) /* what the run could not measure: named, never filled */
		if (gm_profile_fields[k].need == GM_PF_OPT && !(gm_profile_get(p, &gm_profile_fields[k]) > 0))
			gm_profile_note_unmeasured(p, gm_profile_fields[k].name);
	p->schema_version = GM_PROFILE_VERSION;
	snprintf(p->uuid, sizeof(p->uuid), "%s", r->dev.uuid);
	snprintf(p->measured_utc, sizeof(p->measured_utc), "%s", r->started_utc);
	if (!(p->read_half_gbs > 0) || !(p->read_sparse_gbs > 0)) {
		snprintf(why, n, "the stride cases give no positive 64 B piece rate");
		return GM_ERR_NOT_FOUND;
	}
	return GM_OK;
}

gm_status gm_profile_from_run(const struct gm_run_result *r, struct gm_profile *p, char *why, size_t n)
{
	struct gm_case_walks *walks;
	gm_status s = gm_profile_from_run_walks(r, p, why, n, &walks);

	gm_case_walks_free(walks);
	return s;
}
