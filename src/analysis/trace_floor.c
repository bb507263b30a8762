/*
 * trace_floor.c - the floors under the trace's kernel time (docs/TRACE.md, "The kernel's prediction"):
 * rule I, the instructions the SMs must issue, and rule F, the shortest time a launch takes on the device. The
 * launch model sees only the memory instructions' traffic; a kernel that computes, or one so short that its
 * start and drain are all of it, takes at least these. The atomics' time the model does not see: rule X, the
 * updates of one address one after another (a floor), and rule A, the turns of a warp's lanes on one word
 * (added); nor two named patterns' serial time, rule NF (a floor: mapped host memory, a lane-indexed __constant__
 * table).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

/*
 * Rule F: the least device time a launch takes, the profile's launch_floor_us (the built-in H200 profile holds
 * the least launch traced on an H200, llm.c's cast_and_add_kernel, 1.2 us: results/nvidia-h200/trace-heldout3-
 * 4e3dde0, mbb7 and mbb8; calibrate cannot measure it, launches timed back to back take the host's 3.4-4.5 us);
 * without it the profile's launch_us (calibrate's copy.start_b4, the start-up a launch pays back to back); a
 * profile with neither has no floor (both named in its unmeasured fields).
 */

/* The SMs a launch can use: its blocks, at most the GPU's. */
static double sms_of(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];

	return blocks < prof->sm_count ? blocks : prof->sm_count;
}

/* The launch's warps: its blocks times the warps of a block. */
static double launch_warps(const struct gm_trace_kernel *k)
{
	return (double)k->l->grid[0] * k->l->grid[1] * k->l->grid[2] *
	       (double)((k->l->block[0] * k->l->block[1] * k->l->block[2] + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
}

/*
 * Rule I: the warp instructions the launch issues, from the SASS offsets of its memory instructions (the
 * trace has no other opcode): in pc order, each memory instruction that a warp runs more than once (a loop's)
 * counts the SASS from the memory instruction before it to it (16 B an instruction) times the fewer executions
 * of the two (the code before the first counted with the first). A loop's body runs as often as the memory
 * instruction that ends it, so a loop that computes before its store is counted at its trip count
 * (quasirandomGenerator's 31-bit XOR chain before its one store); straight-line code where it all ran
 * (straight_ran); code after the last memory instruction is not counted. Of the code before the kernel's first
 * memory instruction only the last TK_TRIP_GAP bytes (rule R2's gap: longer without a memory instruction is
 * another stretch of the kernel) count at its executions: PyTorch's reductions hold 5.9 and 44 KB there, an index
 * calculator run once a warp or skipped, before a loop of 4 and 15 trips. The SMs in use issue four a cycle each (one per scheduler, sm_70 and
 * later) at the profile's SM clock: the time is a floor, reached only with enough warps and no dependency stall.
 */
int tk_by_pc(const struct gm_trace_kernel *k, int *ix)
{
	int n = 0;

	for (int i = 0; i < k->nins && n < GM_TRACE_MAX_INSNS; i++)
		if (k->ins[i].in->executions > 0)
			ix[n++] = i;
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && k->ins[ix[b - 1]].in->pc > k->ins[ix[b]].in->pc; b--) {
			int t = ix[b]; ix[b] = ix[b - 1]; ix[b - 1] = t;
		}
	return n;
}

/*
 * Straight-line code (a memory instruction a warp runs once at most, and the SASS before it back to the memory
 * instruction before) counts where the trace shows it all ran: not where a memory instruction between the two
 * ran in no warp (a path not taken: PyTorch's unrolled path beside its vectorised one), and not in a kernel whose
 * first memory instruction follows more than rule R2's gap of SASS (an index calculator for any number of
 * dimensions, whose unrolled steps past the tensor's dimensions are skipped, as PyTorch's elementwise kernels and
 * reductions have: the same code before their later memory instructions does not all run either).
 */
static int straight_ran(const struct gm_trace_kernel *k, const int *ix, int j)
{
	int64_t lo = j ? k->ins[ix[j - 1]].in->pc : -1, hi = k->ins[ix[j]].in->pc;

	if (k->ins[ix[0]].in->pc + 16 > TK_TRIP_GAP)
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->pc > lo && k->ins[i].in->pc < hi && !(k->ins[i].in->executions > 0))
			return 0;
	return 1;
}

double tk_issue_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	static int ix[GM_TRACE_MAX_INSNS];
	double issued = 0;

	if (!prof || !(prof->sm_clock_mhz > 0) || prof->sm_count <= 0 || !(sms_of(k, prof) > 0))
		return 0;
	int n = tk_by_pc(k, ix);
	double warps = launch_warps(k);
	for (int j = 0; j < n; j++) {
		const struct gm_trace_instr *in = k->ins[ix[j]].in;
		int64_t from = j ? k->ins[ix[j - 1]].in->pc + 16 : 0;
		double e = j ? fmin(in->executions, k->ins[ix[j - 1]].in->executions) : in->executions;
		/* before the kernel's first memory instruction: past rule R2's gap, another stretch (a prologue) */
		if (!j && in->pc + 16 - from > TK_TRIP_GAP)
			from = in->pc + 16 - TK_TRIP_GAP;
		/* a loop's body, or straight-line code that all ran */
		if (in->executions > warps * 1.0001 || straight_ran(k, ix, j))
			issued += e * (double)(in->pc + 16 - from) / 16;
	}
	return issued / 4 / (sms_of(k, prof) * prof->sm_clock_mhz * 1e3);
}

/*
 * Rule X: atomics to one address take their turns. An L2 slice applies the updates of one address one after
 * another, so a launch whose atomics meet on few addresses takes at least the updates of its most updated address
 * times one update's time. Measured by gpumem's atomics family on an H200
 * (results/nvidia-h200/final-e0342df/suite.json.gz, `gpumem run` at e0342df, GPU-ed80e09b): every thread of 2^24
 * adding to one float, f32_one, 2.277 GB/s of 4 B updates: 1.757 ns an update, each lane its own; to one uint32,
 * u32_one, 168.2 GB/s: 0.761 ns a warp's (the lanes of a warp on one address are one update). Read from the profile's atomic_f32_ns and atomic_u32_ns (calibrate
 * measures them with those two cases; the built-in profiles hold the committed suites' values); a profile
 * without them has no such floor.
 */

/*
 * Rule C: atomics that every warp sends to the same few lines queue at one L2 slice. The slice's atomic unit takes
 * a warp's sector in as many passes as the sector's most updated word has lanes (rule A's passes), one after
 * another with every other warp's passes on its lines, at one update's time each: the profile's atomic_u32_ns
 * (u32_one, 0.761 ns; atomics-7ad015e: u32_few64_lanes32, 64 words in 256 B, all 2^20 lanes in one slice by ncu,
 * 0.698 ns a lane; u32_few1_lanes32 0.737), a float pass of lanes on one word atomic_f32_ns (f32_one: a float
 * add waits for the one before it). The slice's share of the addresses is TK_SLICE_BYTES: 256 B were one slice
 * (u32_few64_lanes32), 1 KB of words takes half that rate a pass (u32_few256_lanes04, 4 passes a warp: 0.0482 ms
 * for 2^15 warps, 0.368 ns a pass), two slices: 512 B a slice. Only for a region of TK_SLICE_BYTES that every
 * sampled warp, from two blocks or more, sends lanes to (the data sends the launch there, not a warp's own
 * neighbourhood), and an instruction run once a warp at most (a loop's samples are its first trips: llm.c's
 * layernorm_backward adds a block's partial sums channel by channel, and every warp's first trip is the same
 * channels); its passes over the samples times the executions over the samples are the slice's.
 */
#define TK_SLICE_BYTES 512

/* The lanes of the most updated word of lane l's sector (its pass count at the slice), each lane of that sector
   marked in *done so that a sector is counted once. */
static int sector_passes(const struct gm_trace_sample *a, int l, uint32_t *done)
{
	int most = 0;

	for (int m = l; m < GM_WARP_SIZE; m++) {   /* the words of l's sector, each counted once */
		int lanes = 0;
		if (!(a->have >> m & 1) || *done >> m & 1 || a->addr[m] >> 5 != a->addr[l] >> 5)
			continue;
		for (int q = m; q < GM_WARP_SIZE; q++)
			if (a->have >> q & 1 && a->addr[q] == a->addr[m])
				lanes++, *done |= 1u << q;
		most = lanes > most ? lanes : most;
	}
	return most;
}

/* One sampled warp's time (ns) at the slice of region r: over its sectors in r, the most updated word's lanes,
   each a pass; -1 where no lane of the warp is in r. */
static double region_ns(const struct gm_trace_sample *a, int64_t r, int fl, const struct gm_profile *prof)
{
	double ns = -1;
	uint32_t done = 0;

	for (int l = 0; l < GM_WARP_SIZE; l++) {
		if (!(a->have >> l & 1) || done >> l & 1 || (int64_t)(a->addr[l] / TK_SLICE_BYTES) != r)
			continue;
		int most = sector_passes(a, l, &done);
		ns = (ns < 0 ? 0 : ns) + most * (fl && most > 1 ? prof->atomic_f32_ns : prof->atomic_u32_ns);
	}
	return ns;
}

/* Rule C's time (ns) of one instruction: its hottest region's passes, 0 where no region takes every sample. */
double tk_slice_ns(const struct gm_trace_instr *in, const struct gm_profile *prof, double warps)
{
	int fl = in->sass && strstr(in->sass, ".F") != NULL, blocks = 0;
	const struct gm_trace_sample *a0 = in->nsamples > 0 ? &in->samples[0] : NULL;
	double most = 0;

	for (int s = 1; a0 && s < in->nsamples; s++)
		blocks |= memcmp(in->samples[s].block, a0->block, sizeof(a0->block)) != 0;
	if (!blocks || !(prof->atomic_u32_ns > 0) || in->executions > warps * 1.0001)
		return 0;
	for (int l = 0; l < GM_WARP_SIZE; l++) {   /* the candidates: the regions of the first sample */
		double sum = 0, ns = 0;
		if (!(a0->have >> l & 1))
			continue;
		int64_t r = (int64_t)(a0->addr[l] / TK_SLICE_BYTES);
		for (int s = 0; s < in->nsamples && ns >= 0; s++)
			if ((ns = region_ns(&in->samples[s], r, fl, prof)) >= 0)
				sum += ns;
		if (ns >= 0 && sum > most)
			most = sum;
	}
	return most * in->executions / in->nsamples;
}

/* One global atomic or reduction's updates of its most updated address, from its samples, one after another (ns).
   A warp's update of an address takes an integer update's time (the warp sends its lanes on one address as one),
   a float one's lanes on one address each a float update's. The sampled warps stand for the launch's executions; an
   address that no other sampled warp hits is not taken as shared by the launch. Rule C's slice time, where more. */
static double atomic_ns(const struct gm_trace_instr *in, const struct gm_profile *prof, double warps)
{
	int fl = in->sass && strstr(in->sass, ".F") != NULL;
	double most = 0;

	for (int s = 0; s < in->nsamples; s++) {
		const struct gm_trace_sample *a = &in->samples[s];
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(a->have >> l & 1))
				continue;
			int first = 1, other = 0;
			double ns = 0;
			for (int m = 0; m < l && first; m++)
				first = !(a->have >> m & 1) || a->addr[m] != a->addr[l];
			if (!first)
				continue;
			for (int t = 0; t < in->nsamples; t++) {
				const struct gm_trace_sample *b = &in->samples[t];
				int lanes = 0;
				for (int m = 0; m < GM_WARP_SIZE; m++)
					lanes += b->have >> m & 1 && b->addr[m] == a->addr[l];
				if (lanes)
					ns += fl && lanes > 1 ? lanes * prof->atomic_f32_ns : prof->atomic_u32_ns;
				other |= lanes && (b->warp != a->warp || memcmp(b->block, a->block, sizeof(a->block)));
			}
			if (other && ns > most)
				most = ns;
		}
	}
	return in->nsamples > 0 ? fmax(most * in->executions / in->nsamples, tk_slice_ns(in, prof, warps)) : 0;
}

/* The instruction of rule X's floor (its index in k->ins, -1: none): the slowest instruction's most updated
   address (different instructions' addresses, different arrays, are served side by side); *ms its time. */
static int atomic_at(const struct gm_trace_kernel *k, const struct gm_profile *prof, double *ms)
{
	double ns = 0, warps = launch_warps(k);
	int at = -1;

	for (int i = 0; prof && i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		double t;
		if (in->space == GM_TS_GLOBAL && (in->op == GM_TO_ATOMIC || in->op == GM_TO_REDUCTION) &&
		    in->executions > 0 && (t = atomic_ns(in, prof, warps)) > ns)
			ns = t, at = i;
	}
	*ms = ns * 1e-6;
	return at;
}

double tk_atomic_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double ms;

	atomic_at(k, prof, &ms);
	return ms;
}

/*
 * Rule A: the lanes of one warp on one address take their turns. A warp's atomic sends its lanes to the L2 slice
 * of each sector; the slice's atomic unit applies the lanes on distinct words of a sector together, but a second
 * lane on the same word waits for the first (a read-modify-write of the word it just wrote), so a sector costs as
 * many turns as its most updated word has lanes. The turns beyond a sector's first are time the launch model
 * (which prices the sectors) does not see; the slices serve them side by side, so the launch's turns take their
 * count times the GPU's time a turn, the profile's atomic_turn_ns (atomics.u32_lanes32: every warp's 32 lanes on
 * one address of its own, 31 turns a warp; TURNS_OF). Added to the prediction, like rule B's steps. Only where a
 * sampled warp's lanes meet on a word (TK_TURNS_MIN lanes a word on average or more: the data chose few addresses
 * a warp); the turns of a warp whose lanes each have a word are the sectors' time, the model's.
 */
#define TK_TURNS_MIN 2.0

/* One sampled warp's waiting turns: over its sectors, the lanes of the sector's most updated word but one. */
static int warp_turns(const struct gm_trace_sample *a)
{
	int turns = 0;
	uint32_t done = 0;

	for (int l = 0; l < GM_WARP_SIZE; l++)
		if (a->have >> l & 1 && !(done >> l & 1))
			turns += sector_passes(a, l, &done) - 1;
	return turns;
}

double tk_warp_turns(const struct gm_trace_instr *in)
{
	double sum = 0;
	int n = 0;

	if (!tk_is_global_atomic(in) || !(tk_warp_runs(in, NULL) >= TK_TURNS_MIN))
		return 0;
	for (int s = 0; s < in->nsamples; s++)
		if (in->samples[s].have) {
			sum += warp_turns(&in->samples[s]);
			n++;
		}
	return n ? sum / n : 0;
}

/* Rule A's time (ms) and the instruction with the most turns (*at, -1: none). */
static double turns_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *at)
{
	double ms = 0, most = 0;

	*at = -1;
	if (!prof || !(prof->atomic_turn_ns > 0))
		return 0;
	for (int i = 0; i < k->nins; i++) {
		double t = k->ins[i].in->executions * tk_warp_turns(k->ins[i].in) * prof->atomic_turn_ns * 1e-6;
		if (t > most)
			most = t, *at = i;
		ms += t;
	}
	return ms;
}

double tk_turns_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *at)
{
	int i;

	return turns_ms(k, prof, at ? at : &i);
}

/* Rule A added to the prediction (before the floors: the turns are the launch's own time). */
void tk_add_turns(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double t0 = k->pred.time_ms;

	k->turns_ms = tk_turns_ms(k, prof, &k->turns_at);
	if (!(k->turns_ms > 0) || !(t0 > 0))
		return;
	tk_set_time(k, t0 + k->turns_ms);
	if (k->turns_ms > t0)
		k->pred.limited_by = "atomic turns";
	tk_why(k, "rule A: %.4f ms of atomic turns added", k->turns_ms);
}

/* Rule F's floor in ms: the profile's shortest launch, else its start-up, 0 with neither. */
static double launch_floor_ms(const struct gm_profile *prof)
{
	return !prof ? 0 : (prof->launch_floor_us > 0 ? prof->launch_floor_us : prof->launch_us) * 1e-3;
}

double tk_floor_free_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double div)
{
	return fmax(tk_issue_ms(k, prof) / (div >= 1 ? div : 1), launch_floor_ms(prof));
}

double tk_floor_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double div)
{
	return fmax(tk_floor_free_ms(k, prof, div), tk_atomic_ms(k, prof));
}

/* The prediction raised to the floor f, limited by `level`. */
static void tk_raise(struct gm_trace_kernel *k, double f, const char *level)
{
	tk_set_time(k, f);
	k->pred.limited_by = level;
}

/*
 * Rule RS's floor (k68): every global store request reaches L2 (L1 is write-through), so the kernel takes at least
 * its stores' measured sectors at the L2 write rate (the profile's l2_write_gbs, hierarchy.l2_write_bw: writes whose
 * footprint L2 holds). It binds only where L2 takes more bytes than DRAM: the same output stored again and again
 * (rule M folds the repeats, DRAM writes the line once). 0 without the rate.
 */
double tk_l2_write_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double b = 0;

	if (!prof || !(prof->l2_write_gbs > 0))
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->space == GM_TS_GLOBAL && k->ins[i].in->op == GM_TO_STORE && k->ins[i].in->sectors > 0)
			b += k->ins[i].in->sectors * GM_SECTOR_BYTES;
	return b / (prof->l2_write_gbs * 1e6);
}

/* The prediction raised to the larger floor, with the level that limits it and a note in the prediction's why
   (after rules A and GC are added: trace_kernel.c). */
void tk_floors(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double issue = tk_issue_ms(k, prof), launch = launch_floor_ms(prof), t0 = k->pred.time_ms;
	double atom = tk_atomic_ms(k, prof), f = fmax(fmax(issue, launch), atom), l2w = tk_l2_write_ms(k, prof);

	if (t0 > 0 && l2w > t0 && l2w >= f) {   /* rule RS */
		tk_raise(k, l2w, "L2");
		tk_why(k, "rule RS: its stores' %.0f MB reach L2 at its write rate in %.4f ms, more than its memory's %.4f",
		       l2w * prof->l2_write_gbs, l2w, t0);
		return;
	}
	if (!(t0 > 0) || !(f > t0))
		return;
	if (atom >= f) {   /* rule X */
		tk_raise(k, f, "atomics");
		k->atomic_at = atomic_at(k, prof, &atom);
		tk_why(k, "rules X, C: its atomics on one address or slice take %.4f ms one after another, more than its "
		       "memory's %.4f", atom, t0);
		return;
	}
	tk_raise(k, f, issue >= launch ? "issue" : "launch");
	if (issue >= launch)
		tk_why(k, "rule I: its instructions need %.4f ms at four a cycle an SM, more than its memory's %.4f", issue, t0);
	else
		tk_why(k, "rule F: a launch takes at least %.4f ms, more than its memory's %.4f", launch, t0);
}

/*
 * Rule NF: the launch model prices every access as device memory read through the usual caches, so two named
 * patterns (trace_named.c) take longer than it says, one access after another, and their serial time is a floor:
 *   - mapped host memory: the bytes its accesses touch cross the host link at TK_MAPPED_GBS (the suite's
 *     transfer.mapped_kernel_h2d);
 *   - a lane-indexed __constant__ table: the constant cache serves a warp's distinct addresses one after another,
 *     TK_CONST_ADDR_NS each (constant.c08 / 8), 32 a warp for each such LDC, the warps over the SMs (the trace cannot
 *     sample an LDC's addresses: the full warp is the bound, and the floor).
 * The larger, where it exceeds the prediction, raises it (limited by "host link" or "constant cache"); the time
 * before is kept (k->nf_model_ms): the fixes of those patterns (trace_fix_named.c) take it as the fixed kernel.
 */
void tk_named_floor(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int lead;
	double host = tk_host_bytes(k, &lead) / TK_MAPPED_GBS * 1e-6, cst = tk_const_lane_ms(k, prof, GM_WARP_SIZE);
	double f = fmax(host, cst), t0 = k->pred.time_ms;

	k->nf_model_ms = 0;
	if (!(t0 > 0) || !(f > t0))
		return;
	k->nf_model_ms = t0;
	k->nf_limited_by = k->pred.limited_by;
	tk_raise(k, f, host >= cst ? "host link" : "constant cache");
	if (host >= cst)
		tk_why(k, "rule NF: its mapped host memory crosses the host link in %.4f ms, more than its memory's %.4f",
		       host, t0);
	else
		tk_why(k, "rule NF: its lane-indexed __constant__ loads take %.4f ms one address after another, more than "
		       "its memory's %.4f", cst, t0);
}
