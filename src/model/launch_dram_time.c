/*
 * launch_dram_time.c - how long DRAM needs for a launch's traffic (docs/MODEL.md 7.2), the time phase's rules
 * D3, D3b, D4, D10 and D12 (their registry entry, rule_d3_d4_dram, is launch_time.c's):
 *   D3  reads go at the rate of their pieces' spacing (dense, half at 128 B, sparse at 512 B; linear in the
 *       spacing between, loads at 256 B at read_quarter_gbs, calibrate's stride.b16_s016);
 *   D3b a thread with one load in flight reads pieces spaced x apart at a time
 *       linear in log2 x between the half rate (128 B) and the sparse rate (512 B);
 *   D4  reads and writes mixed turn the bus around (the copy rate says how much);
 *   D10 a sector filled before its write (D5) is written back with its piece, as
 *       sparse as its read: at the reads' density rate where they are sparse;
 *   D12 a piece written with no fill, alone in its 256 B group, is a write access
 *       of its own: 64 B at write_sparse_gbs (by its window's and launch's spacing).
 */
#include <math.h>
#include <stdint.h>
#include "model/model_internal.h"

/* ---- rules D3, D4: DRAM time ---------------------------------------------------------------------- */

/*
 * Rule D3: the rate at density rho, linear in the pieces' spacing 1 / rho (1 dense, 2 half, 4 sparse) between the
 * three measured rates: a stride of 192 B (1 / rho = 3) reads halfway between the half and the sparse rate.
 */
static double interp_read_gbs(const struct gm_profile *pr, double rho)
{
	double x;

	if (rho >= 1.0)
		return pr->read_gbs;
	if (!(rho > 0.25))
		return pr->read_sparse_gbs;
	x = 1.0 / rho;
	if (x <= 2.0)
		return pr->read_gbs - (pr->read_gbs - pr->read_half_gbs) * (x - 1.0);
	return pr->read_half_gbs - (pr->read_half_gbs - pr->read_sparse_gbs) * (x - 2.0) / 2.0;
}

/* The copy rate below the read and write rates: the extra time of turning the bus around. */
static double turnaround(const struct gm_profile *pr, double rd, double wr)
{
	double mixed = 1.0 / pr->read_gbs + 1.0 / pr->write_gbs;
	double k = (2.0 / pr->copy_gbs) / mixed - 1.0;

	if (k < 0 || rd + wr <= 0)
		return 1.0;
	return 1.0 + k * 2.0 * (rd < wr ? rd : wr) / (rd + wr);
}

/*
 * Rule D3 for loads from 128 to 512 B (m80; m82): at 256 B (x = 4) a piece's time is t4 = 1 / read_quarter_gbs
 * (calibrate's stride.b16_s016: four loads a thread in flight, one 64 B piece per 256 B), and the sparse rate
 * (ts = 1 / read_sparse_gbs, stride.b16_s032's) is reached one doubling later, at x = 8; between the three points
 * (th = 1 / read_half_gbs at x = 2) the rate goes linearly in the spacing, as D3's does between dense and half. t4
 * is kept within [th, ts]. A profile that did not measure it carries its GPU's built-in value (the reader: the
 * built-in's share of the way from th to ts, 0.888 on both the H200 and the H100, on this profile's th and ts);
 * without one (read_quarter_gbs 0): D3 as before m80, the sparse time from 256 B. Until m82 a constant, 0.87 of
 * the way (docs/log/2026-12-02-m80.md: the suites' gathers read 0.84-0.85 of it on one H200 unit, 0.888 on
 * another and on the H100).
 */
static double spaced_t4(const struct gm_profile *pr)
{
	double th = 1.0 / pr->read_half_gbs, ts = 1.0 / pr->read_sparse_gbs, tq;

	if (!(pr->read_quarter_gbs > 0) || !(ts > th))
		return ts;
	tq = 1.0 / pr->read_quarter_gbs;
	return tq < th ? th : tq > ts ? ts : tq;
}

static double spaced_load_time(const struct gm_profile *pr, double x)
{
	double ts = 1.0 / pr->read_sparse_gbs, r4 = 1.0 / spaced_t4(pr);

	if (x <= 4.0)
		return 1.0 / (pr->read_half_gbs - (pr->read_half_gbs - r4) * (x - 2.0) / 2.0);
	return x >= 8.0 ? ts : 1.0 / (r4 - (r4 - pr->read_sparse_gbs) * (x - 4.0) / 4.0);
}

/*
 * Rule D12: a 64 B piece written whole or in part with no fill and no written neighbour in its 256 B group is a
 * write access of its own: 64 B at write_sparse_gbs (calibrate's copy.sparse_st_b16: whole 32 B sectors 256 B
 * apart), however many of its sectors it carries (probe-77: a lone whole sector and a lone whole atom 256 B apart
 * cost about the same, 39 ps a piece). The pieces, weighted 0 dense to 1 at 256 B by their window's spacing and by
 * the share of their windows' gaps the launch leaves unwritten (launch_dram.c), move from write_gbs to that time;
 * a lone piece 512 B or more from the last costs ts / t4 more (rule D3's read time at 512 B over 256 B's; its share
 * from 256 to 512 B in log2: dram_sparse_write_far, m80). Without the field (every profile measured before m78):
 * off. Returns the pieces' time and takes their bytes off *wr.
 */
static double sparse_write_ms(const struct gm_profile *pr, const struct gm_launch_out *o, double *wr)
{
	double b = o->dram_sparse_write_bytes, n = o->dram_sparse_write_pieces, far;

	if (!(pr->write_sparse_gbs > 0) || !(n > 0) || !(b > 0))
		return 0;
	b = b < *wr ? b : *wr;
	*wr -= b;
	far = pr->read_gbs > 0 && pr->read_half_gbs > 0 && pr->read_sparse_gbs > 0 ?
		      o->dram_sparse_write_far * (1.0 / pr->read_sparse_gbs / spaced_t4(pr) - 1.0) : 0;
	return (n + far) * pr->dram_atom_bytes / pr->write_sparse_gbs;
}

/*
 * Rule D10: the sectors rule D5 fills (read before they are written) go back
 * to DRAM with the 64 B piece the fill read. A filled piece whose neighbouring
 * pieces are filled too is written with them, a sector at write_gbs as any
 * other; a piece with no filled neighbour (pieces 128 B apart or more) is a
 * write access of its own and costs what its read costs, 64 B at the rate of
 * its spacing. The share s of such pieces goes by the fills' own spacing x in
 * pieces (rule D3's fill bins): 0 at x = 1, 1 from x = 2 on, linear between
 * (as D3's rates go by the spacing). The filled sectors' writes (a sector a
 * piece, at most the bytes written) move from write_gbs to their pieces at the
 * fills' rate. A launch whose walk left no fill spacings: s from the launch's
 * read rate (the share of the sparse read's extra time per byte it has). No
 * constant of its own.
 */
static double write_ms(const struct gm_profile *pr, const struct gm_launch_out *o, double rate, double s)
{
	double wr = o->dram_write_bytes, fill = o->dram_fill_bytes, wf = fill / 2 < wr ? fill / 2 : wr;
	double sparse = sparse_write_ms(pr, o, &wr);

	if (!(fill > 0) || !(pr->read_sparse_gbs > 0) || !(pr->read_sparse_gbs < pr->read_gbs))
		return sparse + wr / pr->write_gbs;
	if (s < 0)
		s = (pr->read_gbs / rate - 1) / (pr->read_gbs / pr->read_sparse_gbs - 1);
	s = s < 0 ? 0 : s > 1 ? 1 : s;
	return sparse + (wr - s * wf > 0 ? wr - s * wf : 0) / pr->write_gbs + s * fill / rate;
}

/*
 * Rule D3b: a launch whose threads each hold one load in flight (one element a thread, one load request: explain
 * --n's kernels) reads its pieces at a time linear in the log of their spacing x between the half rate (x = 2,
 * 128 B) and the sparse rate (x = 8, 512 B; stride.b16_s032): each doubling adds half the sparse piece's extra
 * time. Both rates are measured with four loads a thread in flight, where the time is flat from 256 B on (the
 * suite's stride cases); with one it grows on to 512 B (the development sets' and probe-67's strided loads:
 * docs/log/2026-12-01-model-m67.md). Below x = 2 and past 8: rule D3.
 */
static int one_in_flight(const struct gm_launch_in *in)
{
	int64_t loads = 0;

	if (!in->one_element_per_thread)
		return 0;
	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].op == GM_OP_LOAD)
			loads += gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
	return loads == 1;
}

/* The spacing of rule D3's bin k (load pieces, or fills from the second half on): 1 + k / 4 up to 4, then
   quarter doublings to 8. */
static double bin_spacing(int k)
{
	k %= GM_READ_SPACING_BINS / 2;
	return k <= GM_READ_SPACING_NEAR ? 1.0 + k / 4.0 : 4.0 * exp2((k - GM_READ_SPACING_NEAR) / 4.0);
}

/*
 * The time a byte of pieces at spacing x takes (ns a GB): rule D3 (loads from 128 B on: spaced_load_time), or D3b's
 * line in log2 x from x = 2 to 8 (128 to 512 B, the bins' end) where each thread holds one load; farther apart, the
 * sparse rate as D3 (probe-67: with 16 waves the loads 512 B - 2 KiB apart lose 3-5 % a doubling, not the line's
 * 17-22 %). A fill (rule D5's piece read before its sector's write) keeps D3's line from half to sparse at 256 B: the
 * stores 192-512 B apart are as slow as that or slower (D10's rest).
 */
static double piece_time(const struct gm_profile *pr, double x, int one, int fill)
{
	double th, ts;

	if (fill || x <= 2.0 || !(pr->read_half_gbs > 0) || !(pr->read_sparse_gbs > 0) || !(pr->read_gbs > 0))
		return 1.0 / interp_read_gbs(pr, 1.0 / (x < 4.0 ? x : 4.0));
	if (!one)
		return spaced_load_time(pr, x);
	th = 1.0 / pr->read_half_gbs;
	ts = 1.0 / pr->read_sparse_gbs;
	return th + (ts - th) * log2(x / 2.0) / 2.0;
}

/*
 * Rule D3 over a launch's patterns: each pattern's pieces at the rate of its own spacing, the launch's reads at
 * the rate that takes their summed time (a dense input beside sparse fills is not a launch of middling density).
 * A launch whose walk left no spacings: its density's rate.
 */
static double bins_rate(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o,
			int from)
{
	double pieces = 0, t = 0;
	int one = in ? one_in_flight(in) : 0;

	for (int k = from; k < GM_READ_SPACING_BINS; k++) {
		pieces += o->read_spacing[k];
		t += o->read_spacing[k] * piece_time(pr, bin_spacing(k), one, k >= GM_READ_SPACING_BINS / 2);
	}
	return pieces > 0 && t > 0 ? pieces / t : from ? 0 : interp_read_gbs(pr, o->read_density);
}

static double read_rate(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o)
{
	return bins_rate(in, pr, o, 0);
}

/* Rules D3, D4, D10, D12: the DRAM time of a launch's counts, ms. */
double gm_launch_dram_ms(const struct gm_launch_in *in, const struct gm_profile *pr, const struct gm_launch_out *o)
{
	double rd = o->dram_read_bytes, wr = o->dram_write_bytes;
	double rate = read_rate(in, pr, o);

	double fill_rate = bins_rate(in, pr, o, GM_READ_SPACING_BINS / 2), pieces = 0, alone = 0;

	for (int k = GM_READ_SPACING_BINS / 2; k < GM_READ_SPACING_BINS; k++) {
		double x = bin_spacing(k) - 1;

		pieces += o->read_spacing[k];
		alone += o->read_spacing[k] * (x < 0 ? 0 : x > 1 ? 1 : x);
	}
	return (rd / rate + write_ms(pr, o, fill_rate > 0 ? fill_rate : rate, pieces > 0 ? alone / pieces : -1)) /
	       1e6 * turnaround(pr, rd, wr);
}
