/*
 * launch_time.c - how long each level needs for a launch's traffic, and how
 * long the launch takes (docs/MODEL.md 7.2), one section a rule:
 *   D3, D3b, D4, D10, D12  DRAM time (launch_dram_time.c, gm_launch_dram_ms);
 *   L2  L2 time: load sectors at the read rate, store operations at the write
 *       rate; L4 with its two rates: stores carry their bytes, lines written
 *       partly are merged, a lane alone in a line costing more the farther apart
 *       its request's lines and the wider the lane; L3: at least its line lookups;
 *   T1  L1 time by wavefronts: a request's lines, fewer when their words fall
 *       in different banks (and shared-memory wavefronts);
 *   T2  threads that end: waves of resident threads x round trips x wave_ns;
 *   T7  a hit of a pattern that also reads from DRAM waits with those reads,
 *       as does one whose piece a warp of the same resident wave read first;
 *   P   a load lane alone in its 2 MiB page is a translation: a level at pages_gps;
 *   T4  the SMs start blocks at a rate of their own: a level like the others;
 *   T5  a block holds its slots until the last line its loads read returns;
 *   T6  what a barrier holds back (shared wavefronts, stores) follows the round trip;
 *   T9  a phase that ends at a barrier and reads no memory is an on-chip round trip, and a
 *       wave that crosses such barriers waits its round trips whole;
 *   T10 a thread's global requests past copy_one's two issue one after another, at T1's rate;
 *   T13 a block's load wavefronts beyond dense requests' delay its round trip, at T1's rate;
 *   T   the launch takes the slowest level's time, joined with latency by
 *   T3  the knee;
 *   T14 loads that DRAM serves behind a launch's writes wait for them: the knee
 *       between their round trips and DRAM's time falls towards a sum (k = 1);
 *   S   every launch pays a fixed start-up (launch_us), after all of that.
 *   S3  a launch timed back to back joins the pace of launches, floor_us, at the knee.
 */
#include <math.h>
#include <stdint.h>
#include "model/model_internal.h"

/* ---- rules L2, L3, L4: L2 time -------------------------------------------------------------------- */

/*
 * Rule L4's spaced near rate (s75): a line a store request writes partly costs its lookup at l2_merge_lines_gps
 * where the request's lines are consecutive (copy.scatter_b4, 128 B apart) and at l2_merge_far_lines_gps where they
 * lie GM_L4_SPACED_MIN to _MAX (384 to 3456 B) apart (copy.scatter_far_b4, 1 KiB + 128 B; probe-66's float and
 * double walks at 1-4 KiB, 12.6-13.9 ps a line against 14.7; from 8 KiB back at 14.7, where the far end takes over). near (the count x's near cost, max of the lookup and x sector
 * merges) becomes, for the share of the lines of count x in such requests (l2_spaced_lines_x), the larger of the
 * spaced lookup and the x merges; the far end (below) starts from it. Without the field, near as before.
 */
static double l4_spaced_near(const struct gm_profile *pr, const struct gm_launch_out *o, int x, double near)
{
	double n = o->l2_partial_lines[x], q, sp;

	if (!(pr->l2_merge_far_lines_gps > 0) || !(pr->l2_part_sectors_gps > 0) || !(n > 0) ||
	    !(o->l2_spaced_lines_x[x] > 0))
		return near;
	q = o->l2_spaced_lines_x[x] / n;
	q = q < 1 ? q : 1;
	sp = 1.0 / pr->l2_merge_far_lines_gps;
	sp = sp > x / pr->l2_part_sectors_gps ? sp : x / pr->l2_part_sectors_gps;
	return (1 - q) * near + q * sp;
}

/*
 * Rule L4's far end: a line a lane writes alone, completed by other blocks, costs more the farther apart its
 * request's lines lie and the wider the lane. Of the lines of count x, the far-weighted ones (l2_far_lines_x: each
 * line's share f by its request's spacing, launch_traffic.c) cost the far rate of their lanes' width, linear in the
 * width between 1 / l2_far_lines_gps (4 B) and 1 / l2_far_lines16_gps (16 B), instead of their near cost. The lines
 * a block completes itself (copy.scatter_b4's, a naive transpose's) keep the near cost. Both rates or none: without
 * them (every profile measured before m66) the near cost alone.
 */
static double l4_line_cost(const struct gm_profile *pr, const struct gm_launch_out *o, int x, double near)
{
	double n = o->l2_partial_lines[x], fl = o->l2_far_lines_x[x], fw = o->l2_far_wide_lines_x[x];

	near = l4_spaced_near(pr, o, x, near);
	if (!(pr->l2_far_lines_gps > 0) || !(pr->l2_far_lines16_gps > 0) || !(fl > 0))
		return n * near;
	fl = fl < n ? fl : n;
	return (n - fl) * near + (fl - fw) / pr->l2_far_lines_gps + fw / pr->l2_far_lines16_gps;
}

/*
 * Rule L5 (branch m72): L2's loads and stores overlap. A load's data goes from L2 to the SM, a store's from the SM
 * to L2: the two directions of the crossbar, whose rates l2_read_gbs and l2_write_gbs (hierarchy.l2_read_bw,
 * hierarchy.l2_write_bw) are measured one at a time. Where every store writes whole sectors of its lines and the launch's
 * loads stay in L2 without rule D7's help, L2's time is the longer of the two, not their sum. They add up where a
 * store request writes a line partly (rule L4's merges read the line's sectors in L2 before they are written) and
 * where a load's reuse is found only by rule D7 (l2_footprint_bytes > 0: the reads come back farther than rule
 * D6's windows and probes reach, and the table's lines wait in L2 among the stores' lines streaming through; the
 * float4 tables gid % 1048576 of dev-36x and dev-36u run at the sum, a hypothesis for why in docs/MODEL.md). Only
 * with rule L4's two rates (every profile since m54); the older profiles keep rule L2's sum. No constant.
 */
static void l2_time(const struct gm_profile *pr, struct gm_launch_out *o)
{
	double t_lines;

	/* rule L3: each piece L2 fetches from DRAM comes back as a request of its own (its fill) */
	if (pr->dram_atom_bytes > 0)
		o->l2_lines += o->dram_read_bytes / pr->dram_atom_bytes;
	t_lines = pr->l2_lines_gps > 0 ? o->l2_lines / pr->l2_lines_gps / 1e6 : 0;

	if (pr->l2_part_sectors_gps > 0 && pr->l2_merge_lines_gps > 0) {
		/* rule L4: a store writes whole sectors, however few of their bytes it carries; a line a
		   request writes partly costs a lookup at the merged rate, or, when other blocks running beside
		   it wrote x of its sectors last, x sector merges if they take longer, and at least the lookup
		   and x - 1 merges, linear in x from the lookup (x = 1) to the 4 merges copy.scatter_blocks_b4
		   measures (s80: two such sectors a line cost about a lookup and a merge) */
		double part = o->l2_part_lines + o->l2_merged_lines, tp = 0, rd, wr;
		int overlap;

		for (int x = 0; x < 5; x++) {
			double per = 1.0 / pr->l2_merge_lines_gps, px = x / pr->l2_part_sectors_gps;
			double lx = x ? per + (x - 1) * (4.0 / pr->l2_part_sectors_gps - per) / 3.0 : 0; /* s80 */

			px = px > lx ? px : lx;
			tp += l4_line_cost(pr, o, x, px > per ? px : per);
		}
		rd = o->l2_load_sectors * GM_SECTOR_BYTES / pr->l2_read_gbs;
		wr = o->l2_store_bytes / pr->l2_write_gbs;
		/* rule L5: loads and stores overlap in L2 unless a store merges or a table's reuse is rule D7's */
		overlap = !(part > 0) && !(o->l2_footprint_bytes > 0);
		o->t_l2_ms = (overlap ? (rd > wr ? rd : wr) : rd + wr) / 1e6;
		t_lines = ((pr->l2_lines_gps > 0 ? (o->l2_lines - part) / pr->l2_lines_gps : 0) + tp) / 1e6;
	} else /* rule L2: a partly written sector is read, merged and written: two operations */
		o->t_l2_ms = (o->l2_load_sectors * GM_SECTOR_BYTES / pr->l2_read_gbs +
			      o->l2_store_sectors * GM_SECTOR_BYTES / pr->l2_write_gbs) / 1e6;
	/* rule L3: L2 looks up one line a request at a time; a request that touches 32 lines costs 32 */
	if (t_lines > o->t_l2_ms) {
		o->t_l2_ms = t_lines;
		o->l2_by_lines = 1;
	}
}

/* ---- rules T2, T4, T5: threads that end, in waves and blocks --------------------------------------- */

/*
 * The harmonic number H_w = 1 + 1/2 + ... + 1/w: the mean of the largest of w
 * exponential times of mean 1. Between two whole w linear (a mean over blocks).
 */
static double harmonic(double w)
{
	double h = 0;
	int64_t k;

	for (k = 1; k <= (int64_t)w; k++)
		h += 1.0 / (double)k;
	return h + (w - (double)(k - 1)) / (double)k;
}

/*
 * Rule T5: a block holds its threads' slots until the last line its loads
 * read comes back. Each distinct 128 B line is a round trip of its own, a
 * base plus an exponential tail (tail / base = the profile's warp_tail): a
 * block whose loads read m lines lasts base x (1 + tail x H_m). wave_ns is
 * measured with blocks of 256 threads reading 4 B each (8 lines, one a warp):
 * the round trip of a wave of such blocks is wave_ns x (1 + tail H_m) /
 * (1 + tail H_8). Fewer lines (lanes sharing an address, 1- and 2-byte
 * elements) come back sooner, more (warps spanning rows) later.
 */
double gm_launch_block_tail_lines(double warp_tail, double lines)
{
	if (!(warp_tail > 0) || !(lines >= 1))
		return 1.0;
	return (1.0 + warp_tail * harmonic(lines)) / (1.0 + warp_tail * harmonic(8));
}

/* Rule T5 with a line a warp (copy_one's blocks, where warp_tail is measured). */
double gm_launch_block_tail(double warp_tail, int64_t threads_per_block)
{
	return gm_launch_block_tail_lines(warp_tail, (double)((threads_per_block + 31) / 32));
}

/* Rule T5 undone: the warp_tail that gives blocks of this many threads the round-trip factor g; 0 if none. */
double gm_launch_warp_tail_for(double g, int64_t threads_per_block)
{
	double hw = harmonic((double)((threads_per_block + 31) / 32)), h8 = harmonic(8);

	return g > 1 && hw - g * h8 > 0 ? (g - 1) / (hw - g * h8) : 0;
}

/*
 * Rule T6: a block that exchanges a tile through shared memory waits at a
 * barrier for its last load; what follows the barrier (the tile read back
 * from shared memory, the stores to global memory) starts only then, in
 * every block of the wave at once, and is not hidden behind the round trip
 * as a warp's own stores are. The SM's shared-memory pipe serves the
 * wavefronts of its resident blocks one after the other (an SM's share of
 * the banks' rate, rule T1s: 128 B a wavefront a cycle), and the SM sends their stores
 * at its share of l2_write_gbs; the two overlap (a warp's stores follow its
 * shared loads, other warps' loads go on meanwhile): the wave lasts the
 * longer of the two more. A launch with no shared pattern has no barrier.
 * The stores hold the next wave back only by the DRAM reads they meet (branch
 * s70): a transpose reads from DRAM a byte for each byte it writes, and its
 * next wave's loads wait behind the stores' writes; a wave whose loads L1 or
 * L2 serve (a broadcast's tile: 1 byte read from DRAM in 64 written) starts
 * while the stores drain, and the DRAM time of those stores is rule D3's
 * bandwidth, joined by rule T3. So the store time counts by the DRAM bytes
 * read over those written, at most 1.
 */
/*
 * Rule T1s (branch d72): shared memory's wavefronts go at the banks' own rate, 32 banks of 4 B a cycle an SM
 * (128 B x sm_clock_mhz x sm_count), not at l1_gbs alone: l1_gbs is measured with global loads that hit L1, which
 * ran at 92 % of the banks' rate where shared memory ran at 98 % (docs/log/2026-11-results.md, H100; the built-in
 * H200 profile 30.76 TB/s against 33.45). The larger of the two; no new constant.
 */
double gm_launch_smem_gbs(const struct gm_profile *pr)
{
	double banks = pr->sm_clock_mhz > 0 && pr->sm_count > 0 ? 128.0 * pr->sm_clock_mhz * pr->sm_count / 1e3 : 0;

	return banks > pr->l1_gbs ? banks : pr->l1_gbs;
}

static double barrier_ns(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o,
			 double blocks_per_sm)
{
	double blocks = ceil((double)in->n_threads /
			     (double)((int64_t)in->block[0] * in->block[1] * in->block[2]));
	double share = blocks_per_sm / blocks, t_smem, t_store;
	int shared = 0;

	for (int k = 0; k < in->npats; k++)
		shared |= in->pats[k].space == GM_SPACE_SHARED;
	if (!shared || !(blocks > 0))
		return 0;
	t_smem = o->smem_wavefronts * share * 128.0 * pr->sm_count / gm_launch_smem_gbs(pr);
	t_store = o->l2_store_bytes * share * pr->sm_count / pr->l2_write_gbs;
	/* the stores hold the next wave back by the DRAM reads they meet: a byte read for a byte written */
	double from_dram = o->dram_read_bytes - o->dram_fill_bytes;
	if (from_dram < o->dram_write_bytes)
		t_store *= from_dram > 0 ? from_dram / o->dram_write_bytes : 0;
	return t_smem > t_store ? t_smem : t_store;
}

/*
 * Rule T8: a wave's DRAM round trip holds the time DRAM takes to deliver the wave's loads. wave_ns is measured
 * with 4 B loaded a thread (copy_one); a wave whose threads load fewer bytes (1- and 2-byte elements) waits
 * that much less: the missing bytes of every resident thread at the profile's read rate. Only below 4 B: above
 * it the DRAM time itself bounds the launch (rule T3). Per resident thread, the element bytes of its global
 * load patterns, each once (a pattern a thread repeats loads at least its element again in the next round trip).
 * Blocks of more than 256 threads (copy_one's, which wave_ns is measured with) keep wave_ns: there the same
 * loads were measured at the unreduced round trip, and why is not known.
 */
static double small_load_wave_ns(const struct gm_launch_in *in, const struct gm_profile *pr, int trips,
				 int64_t tpb)
{
	double b = 0;
	int loads = 0;

	/* only where it was seen: blocks of copy_one's 256 threads or fewer (docs/MODEL.md 7.2, T8) */
	if (tpb > 256)
		return pr->wave_ns;

	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].space == GM_SPACE_GLOBAL && in->pats[k].op == GM_OP_LOAD) {
			b += in->pats[k].elem_bytes;
			loads++;
		}
	if (!loads || !(pr->read_gbs > 0) || trips <= 0)
		return pr->wave_ns;
	if (b >= 4.0)
		return pr->wave_ns;
	/* bytes / (GB/s) = ns */
	return pr->wave_ns - (4.0 - b) * (double)pr->threads_per_sm * pr->sm_count / pr->read_gbs;
}

/*
 * Rule T10: the SM issues a wave's memory requests one after another, each at least one L1 wavefront (rule T1's
 * rate: 128 B at the SM's share of l1_gbs). wave_ns is measured with two a thread (copy_one: one load, one
 * store), whose issue lies inside the round trip; a thread that issues more requests in its one round trip
 * (several elements a thread: explain --suggest's block_work) adds the others' issue time to each wave, a warp's
 * request for its 32 threads. Launches with shared patterns (their barrier: rule T6) or several round trips
 * are left alone. No constant of its own.
 */
static double issue_ns(const struct gm_launch_in *in, const struct gm_profile *pr, int trips, int64_t per_sm)
{
	double req = 0;

	if (trips != 1 || !(pr->l1_gbs > 0) || pr->sm_count <= 0)
		return 0;
	for (int k = 0; k < in->npats; k++) {
		if (in->pats[k].space != GM_SPACE_GLOBAL)
			return 0;
		if (in->pats[k].op == GM_OP_LOAD)
			req += (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
	}
	/* bytes / (GB/s) = ns */
	return req > 1 ? (req - 1) * (double)per_sm / 32.0 * 128.0 * pr->sm_count / pr->l1_gbs : 0;
}

/*
 * Rule T13: a block's warps start together and each sends its load request to L1; a request whose lanes spread
 * over lines needs more wavefronts than a dense request of the same bytes (rule T1's count), and the block's last
 * warp waits for the block's wavefronts before its own request leaves, then for them again as their data come
 * back through L1. A round trip of the block lasts longer by its spread wavefronts twice, at rule T1's rate (128 B
 * at the SM's share of l1_gbs); the resident blocks of an SM do this side by side, so a wave lasts longer by the
 * SM's spread wavefronts x min(1, 2 / resident blocks). copy_one (which wave_ns is measured with) and every dense
 * request have none. Only where rule T10 applies (one round trip, global patterns alone). No constant of its own.
 */
static double spread_ms(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o,
			int trips, int64_t blocks_per_sm)
{
	double share = 2.0 / (double)blocks_per_sm;

	if (trips != 1 || !(pr->l1_gbs > 0) || !(o->l1_spread_wavefronts > 0) || blocks_per_sm < 1)
		return 0;
	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].space != GM_SPACE_GLOBAL)
			return 0;
	/* bytes / (GB/s) = ns; the whole launch's spread wavefronts, each SM's share of them in each wave */
	return o->l1_spread_wavefronts * 128.0 / pr->l1_gbs * 1e-6 * (share < 1 ? share : 1);
}

int64_t gm_launch_blocks_per_sm(const struct gm_launch_in *in, const struct gm_profile *prof)
{
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	int64_t tps = prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048, bps = tpb > 0 ? tps / tpb : 1;

	if (bps > 32)
		bps = 32; /* resident blocks per SM, sm_50 and later */
	if (in->blocks_per_sm_cap > 0 && bps > in->blocks_per_sm_cap)
		bps = in->blocks_per_sm_cap; /* the launch's shared memory or registers (trace's rule OC) */
	return bps < 1 ? 1 : bps;
}

/*
 * Rule T15: a block's warps start together and issue their instructions before their loads leave; each of the
 * SM's GM_SM_SCHEDULERS schedulers issues one instruction a cycle to its share of the block's warps, so the block's
 * last load leaves (warps / schedulers) x instructions cycles after the block starts. calibrate's copy kernels
 * (which wave_ns, wave_l2_ns and warp_tail are measured with) have this inside their round trip; a kernel that
 * issues more instructions before its load (gm_launch_in.index_instructions: explain --run's 64-bit index) holds
 * each block that much longer, every wave: in blocks of 1024 (32 warps, 8 a scheduler) 12 more instructions are 96
 * cycles, 48 ns at 1980 MHz, in blocks of 256 a quarter of it. No constant of the profile's but its clock.
 */
#define GM_SM_SCHEDULERS 4 /* warp schedulers of an SM, one instruction a cycle each (sm_70 and later) */
static double index_issue_ns(const struct gm_launch_in *in, const struct gm_profile *pr, int64_t tpb)
{
	double warps = (double)((tpb + 31) / 32);

	if (in->index_instructions <= 0 || !(pr->sm_clock_mhz > 0))
		return 0;
	/* cycles / MHz = us */
	return warps / GM_SM_SCHEDULERS * in->index_instructions / pr->sm_clock_mhz * 1e3;
}

/*
 * Threads that load, store and end: a wave of resident threads takes the
 * loaded round trip once per time a thread waits for its loads, whatever
 * DRAM could do (rule T2, docs/MODEL.md 7.2). One element per thread is one
 * round trip; a case declares more (the loads its SASS issues before their
 * first use).
 */
static void waves(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	int64_t tpb = (int64_t)in->block[0] * in->block[1] * in->block[2];
	int64_t per_sm, blocks_per_sm;
	int trips = in->round_trips > 0 ? in->round_trips : in->one_element_per_thread ? 1 : 0;
	double from_dram = o->dram_read_bytes - o->dram_fill_bytes, wave = pr->wave_ns, wave_dram;

	o->block_tail = 1.0;
	if (trips <= 0 || pr->threads_per_sm <= 0 || pr->sm_count <= 0)
		return;
	/* rule T8; rule T9: not where the loads wait behind barriers */
	wave = wave_dram = in->barrier_phases > 0 ? pr->wave_ns : small_load_wave_ns(in, pr, trips, tpb);
	blocks_per_sm = gm_launch_blocks_per_sm(in, pr);
	per_sm = blocks_per_sm * tpb;
	/* the loads L2 serves come back sooner: the round trip of the share DRAM serves and of the rest */
	if (pr->wave_l2_ns > 0 && from_dram + o->l2_reuse_bytes > 0) {
		/* rule T7: a hit of a pattern that reads from DRAM in the same window returns with those reads */
		double wait = o->l2_reuse_wait_bytes;
		wave = ((from_dram + wait) * wave_dram + (o->l2_reuse_bytes - wait) * pr->wave_l2_ns) /
		       (from_dram + o->l2_reuse_bytes);
	}
	o->waves = ceil((double)in->n_threads / ((double)per_sm * pr->sm_count));
	/* rule T5: a block waits for the last of the lines its loads read in a round trip (wave_ns: 8); a
	   launch whose loads are all shapes (rule W) or that has none: a line a warp */
	o->block_tail = o->block_lines > 0 ? gm_launch_block_tail_lines(pr->warp_tail, o->block_lines / trips)
					   : gm_launch_block_tail(pr->warp_tail, tpb);
	if (in->barrier_phases > 0)
		o->block_tail = 1.0; /* rule T9: the barriers, not the block's last line, end its round trips */
	o->t_waves_ms = o->waves * trips * wave * o->block_tail * 1e-6; /* 0 without wave_ns (calibrate) */
	if (o->t_waves_ms > 0) /* rule T10; rule T15: the block's instructions before its loads, once a wave */
		o->t_waves_ms += o->waves * (issue_ns(in, pr, trips, per_sm) + index_issue_ns(in, pr, tpb)) * 1e-6;
	if (o->t_waves_ms > 0 && in->barrier_phases <= 0) { /* rule T13 */
		o->t_spread_ms = spread_ms(in, pr, o, trips, blocks_per_sm);
		o->t_waves_ms += o->t_spread_ms;
	}
	/* rule T9: each phase that ends at a barrier and reads no memory, an on-chip round trip of the wave */
	if (o->t_waves_ms > 0 && in->barrier_phases > 0)
		o->t_waves_ms += o->waves * in->barrier_phases * pr->wave_l2_ns * 1e-6;
	if (o->t_waves_ms > 0)
		o->t_barrier_ms = o->waves * barrier_ns(in, pr, o, (double)blocks_per_sm) * 1e-6;
	o->t_waves_ms += o->t_barrier_ms;
	/* rule T4: the SMs start blocks at a rate of their own, whatever each block does */
	o->blocks = ceil((double)in->n_threads / (double)tpb);
	o->t_blocks_ms = pr->blocks_gps > 0 ? o->blocks / pr->blocks_gps / 1e6 : 0;
}

/* ---- rule T3: latency and bandwidth joined -------------------------------------------------------- */

double gm_launch_join(double t_latency, double t_bandwidth, double knee)
{
	double hi = t_latency > t_bandwidth ? t_latency : t_bandwidth;

	if (!(knee > 0) || !(t_latency > 0) || !(t_bandwidth > 0))
		return hi;
	/* scaled by the larger, so that large exponents do not overflow */
	return hi * pow(pow(t_latency / hi, knee) + pow(t_bandwidth / hi, knee), 1.0 / knee);
}

/* ---- the time rules, one named function each, in the order the registry applies them ---------------- */

static void rule_t2_waves(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	waves(in, pr, o);
}

static void rule_d3_d4_dram(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	o->t_dram_ms = gm_launch_dram_ms(in, pr, o);
}

static void rule_l2_l3_l4_l2(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	l2_time(pr, o);
}

/* rule T1: L1 serves 128 B a wavefront, a word from each of its 32 banks: a request costs its lines, or fewer
   when the lines' words fall in different banks. Rule T11: the wavefronts of a load request over
   GM_L1_MANY_LINES lines go at the rate copy.lines_l1_b4 measures (32 lines a request), l1_lines_gps */
static void rule_t1_l1(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	double many = pr->l1_lines_gps > 0 ? o->l1_many_wavefronts : 0;

	(void)in;
	o->t_l1_ms = (o->l1_wavefronts - many) * 128.0 / pr->l1_gbs / 1e6 +
		   o->smem_wavefronts * 128.0 / gm_launch_smem_gbs(pr) / 1e6; /* rule T1s */
	if (many > 0)
		o->t_l1_ms += many / pr->l1_lines_gps / 1e6;
}

/* rule T: the launch takes the slowest level's time */
static void rule_t_slowest(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	(void)pr;
	o->time_ms = o->t_dram_ms;
	o->limited_by = "DRAM";
	if (o->t_l2_ms > o->time_ms) {
		o->time_ms = o->t_l2_ms;
		o->limited_by = "L2";
	}
	if (o->t_l1_ms > o->time_ms) {
		o->time_ms = o->t_l1_ms;
		o->limited_by = "L1";
	}
}

/*
 * Rule P: a load lane that misses L1 alone in its 2 MiB page is a translation of its own: a level. Rule P2: the
 * translations and the slowest of DRAM, L2 and L1 overlap as latency and bandwidth do (rule T3's knee), not as
 * two levels that each go at their own rate: a request waits for its translations before its lines go on, so a
 * column walk whose translations take as long as its line lookups takes longer than either.
 */
/*
 * Rule P4: a translation costs more the farther apart the request's lone pages lie (copy.pages_b4 measures it
 * at 4 MiB + 128 B, copy.pages_2m_b4 and copy.pages_16m_b4 at 2 and 16 MiB + 128 B: the time a lane, linear in
 * the log of the distance between them, the nearest measured one outside). A distance not measured: pages_gps.
 */
static double page_ns(const struct gm_profile *pr, double dist)
{
	const double d[3] = { log2(GM_PAGES_DIST_2M), log2(GM_PAGES_DIST_4M), log2(GM_PAGES_DIST_16M) };
	const double ns[3] = { 1.0 / (pr->pages_2m_gps > 0 ? pr->pages_2m_gps : pr->pages_gps), 1.0 / pr->pages_gps,
			       1.0 / (pr->pages_16m_gps > 0 ? pr->pages_16m_gps : pr->pages_gps) };
	double x = dist > 0 ? log2(dist) : d[1];

	if (x <= d[0])
		return ns[0];
	if (x >= d[2])
		return ns[2];
	return x <= d[1] ? ns[0] + (ns[1] - ns[0]) * (x - d[0]) / (d[1] - d[0])
			 : ns[1] + (ns[2] - ns[1]) * (x - d[1]) / (d[2] - d[1]);
}

/*
 * Rule P5: a request whose lone lanes lie a power of two apart (2 MiB or more, each within a line; launch_traffic.c)
 * puts them on the same low address bits, and its translations go slower: copy.pages_2m_al_b4 (rows exactly 2
 * MiB apart) measures the rate, its ratio to copy.pages_2m_b4's is the cost at 2 MiB, and the cost fades, linear
 * in the log of the distance, to none at GM_PAGES_ALIGN_END, 8 MiB (probe-45 and probe-46: 2 / 4 / 8 / 16 MiB walks
 * at 70 / 75-84 / 91 / 100 % of the model without it). A profile without the rate: none.
 */
static double page_aligned_factor(const struct gm_profile *pr, double dist)
{
	const double d0 = log2(GM_PAGES_DIST_2M), d1 = log2(GM_PAGES_ALIGN_END);
	double x = dist > 0 ? log2(dist) : d1, r, w;

	if (!(pr->pages_2m_al_gps > 0) || !(pr->pages_2m_gps > 0))
		return 1;
	r = pr->pages_2m_gps / pr->pages_2m_al_gps;
	w = x <= d0 ? 1 : x >= d1 ? 0 : (d1 - x) / (d1 - d0);
	return 1 + (r - 1) * w;
}

/*
 * Rule P6 (branch m74, issue 36): a load request whose lone lanes spread over their 2 MiB pages' offsets (no gap of
 * half a page; launch_traffic.c) translates them faster than P4's walks, whose 32 lanes lie within 4 KiB.
 * copy.pages_spread_b4 (copy.pages_b4's walk with rows GM_PAGES_DIST_SPREAD, 3.84 MiB, apart) measures the rate,
 * pages_spread_gps; P4 prices that walk's lanes at page_ns(GM_PAGES_DIST_SPREAD) each, so the factor that makes
 * the calibrated walk itself come out at its measured rate is 1 / (pages_spread_gps x page_ns(3.84 MiB)), and it
 * scales P4's time of every spread request at its own distance. No constant of its own. A profile without the
 * rate (every calibrate before m74, the built-in ones): none.
 */
static double page_spread_factor(const struct gm_profile *pr)
{
	double ns = page_ns(pr, GM_PAGES_DIST_SPREAD);

	if (!(pr->pages_spread_gps > 0) || !(ns > 0))
		return 1;
	return 1.0 / (pr->pages_spread_gps * ns);
}

static void rule_p_pages(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	o->t_pages_ms = pr->pages_gps > 0 ? o->page_lanes * page_ns(pr, o->page_distance) / 1e6 : 0;
	/* rule P5 and rule P6: shares of the lone lanes in requests of each kind (one request is never both) */
	o->t_pages_ms *= 1 + o->page_aligned * (page_aligned_factor(pr, o->page_distance) - 1) +
			 o->page_spread * (page_spread_factor(pr) - 1);
	if (!(o->t_pages_ms > 0))
		return;
	if (o->t_pages_ms > o->time_ms)
		o->limited_by = "pages";
	o->time_ms = gm_launch_join(o->t_pages_ms, o->time_ms, pr->knee); /* rule P2 */
}

/* rule T4: a launch of many short blocks waits for the SMs to start them (its blocks: rule_t2_waves) */
static void rule_t4_blocks(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	(void)pr;
	if (o->t_blocks_ms > o->time_ms) {
		o->time_ms = o->t_blocks_ms;
		o->limited_by = "blocks";
	}
}

/* rule T3: near the knee, neither limit alone sets the time */
static void rule_t3_join(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	o->t_bandwidth_ms = o->time_ms;
	o->time_ms = gm_launch_join(o->t_waves_ms, o->t_bandwidth_ms, pr->knee);
	if (o->t_waves_ms > o->t_bandwidth_ms)
		o->limited_by = "latency";
}

/*
 * Rule T14: a launch whose DRAM traffic is mostly writes and whose loads DRAM serves (a broadcast or a narrow read
 * feeding a wide store) does not overlap the two as a copy does: each load waits in DRAM's queues behind the writes.
 * The knee that joins the round trips with DRAM's time falls from the profile's (measured on copies, half reads) to
 * one (a sum) as x = (2 x written share - 1) x the loads' DRAM share goes from 0 to 1; the launch takes the longer of
 * that and T3's time, its limit T3's. No constant of its own: k = 1 is no overlap, the profile's knee a copy's.
 */
static void rule_t14_writes_ahead(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	double dram = o->dram_read_bytes + o->dram_write_bytes, loads = o->dram_read_bytes + o->l2_reuse_bytes;
	double x, t;

	(void)in;
	if (!(pr->knee > 1) || !(o->t_waves_ms > 0) || !(o->t_dram_ms > 0) || !(dram > 0) || !(loads > 0))
		return;
	x = (2.0 * o->dram_write_bytes / dram - 1.0) * (o->dram_read_bytes / loads);
	if (!(x > 0))
		return;
	t = gm_launch_join(o->t_waves_ms, o->t_dram_ms, pr->knee - (pr->knee - 1.0) * x);
	if (t > o->time_ms)
		o->time_ms = t; /* the limit stays rule T3's: the larger of the terms joined */
}

/* rule S: launches timed back to back each pay a fixed start-up (the grid's start and drain, the gap to the
   next launch) that neither latency nor bandwidth hides: added, whatever limits the rest */
static void rule_s_start(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	(void)in;
	o->t_start_ms = pr->launch_us > 0 ? pr->launch_us * 1e-3 : 0;
	o->time_ms += o->t_start_ms;
}

/* rule S3: launches timed back to back (explain's kernel, gm_launch_in.back_to_back) keep a pace, the profile's
   floor_us (calibrate's copy.floor_b4: one block), joined with the launch's time at the knee (rule T3's form and
   constant, as P2 joins translations): its own time overlaps the pace only in part. A dense copy of 1 M threads
   back to back, 3.77 us of model time, measured 4.66 us where the larger of the two is 3.77 and the join 4.07
   (results/nvidia-h200/floor-c5bd278/). Without floor_us: nothing (and rule D11 off, launch_back.c) */
static void rule_s3_floor(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	double floor = pr->floor_us * 1e-3;

	if (!in->back_to_back || !(floor > 0) || !(o->time_ms > 0))
		return;
	o->t_floor_ms = floor;
	o->time_ms = gm_launch_join(o->time_ms, floor, pr->knee);
}

/* The registry of the time phase: MODEL.md 7.2's ids, the function, in the order applied. */
const struct gm_time_rule gm_time_rules[] = {
	{ "T2 T5 T6 T7 T9 T10 T13 T15", "waves of resident threads, their round trips, tails, barriers, requests",
	  rule_t2_waves },
	{ "D3 D4 D10 D12", "DRAM time by read density, filled pieces written back, sparse writes, the bus turnaround", rule_d3_d4_dram },
	{ "L2 L3 L4", "L2 time: sectors, line lookups, lines written partly", rule_l2_l3_l4_l2 },
	{ "T1", "L1 time by wavefronts", rule_t1_l1 },
	{ "T", "the slowest of DRAM, L2, L1", rule_t_slowest },
	{ "P", "translations of lanes alone in their page, a level (P4-P6 their rates)", rule_p_pages },
	{ "T4", "blocks the SMs start, a level", rule_t4_blocks },
	{ "T3", "latency and bandwidth joined at the knee", rule_t3_join },
	{ "T14", "loads DRAM serves behind the writes: a softer knee", rule_t14_writes_ahead },
	{ "S", "the fixed start-up of a launch", rule_s_start },
	{ "S3", "the pace of launches timed back to back, joined", rule_s3_floor },
	{ NULL, NULL, NULL },
};

void gm_launch_times(const struct gm_launch_in *in, const struct gm_profile *pr, struct gm_launch_out *o)
{
	for (const struct gm_time_rule *r = gm_time_rules; r->apply; r++)
		r->apply(in, pr, o);
	o->gbs = o->time_ms > 0 ? o->useful_bytes / (o->time_ms * 1e-3) / 1e9 : 0;
}
