/*
 * trace_floor.c - the two floors under the trace's kernel time (docs/TRACE.md, "The kernel's prediction"):
 * rule I, the instructions the SMs must issue, and rule F, the shortest time a launch takes on the device. The
 * launch model sees only the memory instructions' traffic; a kernel that computes, or one so short that its
 * start and drain are all of it, takes at least these.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

/*
 * Rule F: the least device time (CUPTI's start to end) of any launch traced on an H200, a launch of one block
 * of trivial work included: llm.c's cast_and_add_kernel, 1.2 us (results/nvidia-h200/trace-heldout3-4e3dde0,
 * mbb7 and mbb8). The profile's launch_us (calibrate's copy.start_b4) is the gap between launches timed back to
 * back, not this, and is unmeasured on the H200; when it is measured it is taken instead.
 */
#define TK_LAUNCH_FLOOR_US 1.2

/* The SMs a launch can use: its blocks, at most the GPU's. */
static double sms_of(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];

	return blocks < prof->sm_count ? blocks : prof->sm_count;
}

/*
 * Rule I: the warp instructions the launch's loops issue, from the SASS offsets of its memory instructions (the
 * trace has no other opcode): in pc order, each memory instruction that a warp runs more than once (a loop's)
 * counts the SASS from the memory instruction before it to it (16 B an instruction) times the fewer executions
 * of the two (the code before the first counted with the first). A loop's body runs as often as the memory
 * instruction that ends it, so a loop that computes before its store is counted at its trip count
 * (quasirandomGenerator's 31-bit XOR chain before its one store); code run once a warp (a prologue, an index
 * calculator of paths not all taken, as PyTorch's elementwise kernels have) is left out, code after the last
 * memory instruction is not counted. Of the code before the kernel's first memory instruction only the last
 * TK_TRIP_GAP bytes (rule R2's gap: longer without a memory instruction is another stretch of the kernel) count
 * at its executions: PyTorch's reductions hold 5.9 and 44 KB there, an index calculator run once a warp or
 * skipped, before a loop of 4 and 15 trips. The SMs in use issue four a cycle each (one per scheduler, sm_70 and
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

double tk_issue_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	static int ix[GM_TRACE_MAX_INSNS];
	double issued = 0;

	if (!prof || !(prof->sm_clock_mhz > 0) || prof->sm_count <= 0 || !(sms_of(k, prof) > 0))
		return 0;
	int n = tk_by_pc(k, ix);
	double warps = (double)k->l->grid[0] * k->l->grid[1] * k->l->grid[2] *
		       (double)((k->l->block[0] * k->l->block[1] * k->l->block[2] + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
	for (int j = 0; j < n; j++) {
		const struct gm_trace_instr *in = k->ins[ix[j]].in;
		int64_t from = j ? k->ins[ix[j - 1]].in->pc + 16 : 0;
		double e = j ? fmin(in->executions, k->ins[ix[j - 1]].in->executions) : in->executions;
		/* before the kernel's first memory instruction: past rule R2's gap, another stretch (a prologue) */
		if (!j && in->pc + 16 - from > TK_TRIP_GAP)
			from = in->pc + 16 - TK_TRIP_GAP;
		if (in->executions > warps * 1.0001)   /* a loop's body; code run once a warp is left out */
			issued += e * (double)(in->pc + 16 - from) / 16;
	}
	return issued / 4 / (sms_of(k, prof) * prof->sm_clock_mhz * 1e3);
}

/* Rule F's floor in ms: the profile's launch_us when measured, else the least launch traced on an H200. */
static double launch_floor_ms(const struct gm_profile *prof)
{
	return prof && prof->launch_us > 0 ? prof->launch_us * 1e-3 : TK_LAUNCH_FLOOR_US * 1e-3;
}

double tk_floor_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double div)
{
	return fmax(tk_issue_ms(k, prof) / (div >= 1 ? div : 1), launch_floor_ms(prof));
}

/* The prediction raised to the larger floor, with the level that limits it and a note in the prediction's why. */
void tk_floors(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double issue = tk_issue_ms(k, prof), launch = launch_floor_ms(prof), t0 = k->pred.time_ms;
	double f = fmax(issue, launch);

	if (!(t0 > 0) || !(f > t0))
		return;
	k->pred.time_ms = f;
	k->pred.gbs_low *= t0 / f;
	k->pred.gbs_high *= t0 / f;
	k->pred.gbs = k->pred.useful_bytes / (f * 1e-3) / 1e9;
	k->pred.limited_by = issue >= launch ? "issue" : "launch";
	size_t len = strlen(k->pred_why);
	if (issue >= launch)
		snprintf(k->pred_why + len, sizeof(k->pred_why) - len, "%srule I: its instructions need %.4f ms at four a "
			 "cycle an SM, more than its memory's %.4f", len ? "; " : "", issue, t0);
	else
		snprintf(k->pred_why + len, sizeof(k->pred_why) - len, "%srule F: a launch takes at least %.4f ms, more "
			 "than its memory's %.4f", len ? "; " : "", launch, t0);
}
