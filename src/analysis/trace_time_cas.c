/*
 * trace_time_cas.c - rule SA, a shared-memory atomic on one word (docs/TRACE.md, "The kernel's prediction"): a
 * float atomicAdd on shared memory is a compare-and-swap loop (ATOMS.CAST.SPIN, after a shared load of the old
 * value): each round one lane of a word wins and the others go round again, so where every lane of the block adds
 * into one word (`atomicAdd(&acc, v)` into one __shared__ float, a block's sum) the loop runs once a round and the
 * trace's measured executions count every round. An SM runs a round in TK_SMEM_CAS_NS (the shared-atomic probe's
 * constant; rounds of other words side by side in it), so the loop takes its executions over the SMs in use x
 * that. The launch model would take the loop's shared instructions for accesses (and rule B for the steps of a
 * loop of barriers); instead they leave the model's patterns, and the kernel takes the longer of the rest and the
 * loop (a block's loop overlaps the other blocks' loads). Set 17's rnorm_satomic (256 lanes a block on one word,
 * 123 rounds a warp): predicted +41 % before. Only where every sampled lane of every block is on the same word:
 * loops over words the data chooses (a histogram in shared memory, set 13's km_update_shared, set 14's deposit_block)
 * keep the launch model's time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define CAS_MAX 32

/* Every sampled lane of every sampled warp (of every block) on one address, one sample at least: a fixed shared
   variable (`&acc`), not a word the data chooses (set 13's km_update_shared: each warp's lanes on one cluster's
   word, the warps on different words, keeps the launch model's time). */
static int one_word(const struct gm_trace_instr *in)
{
	int n = 0;
	int64_t w = -1;

	for (int s = 0; s < in->nsamples; s++) {
		const struct gm_trace_sample *a = &in->samples[s];
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			if (!(a->have >> l & 1))
				continue;
			if (w >= 0 && (int64_t)a->addr[l] != w)
				return 0;
			w = (int64_t)a->addr[l];
			n++;
		}
	}
	return n > 0;
}

static int cas_atomic(const struct gm_trace_instr *in)
{
	return in->space == GM_TS_SHARED && (in->op == GM_TO_ATOMIC || in->op == GM_TO_REDUCTION) && in->sass &&
	       strstr(in->sass, "CAS") && in->executions > 0 && one_word(in);
}

/*
 * The loop: the shared CAS atomics on one word, and the shared loads at their line run as often (their old value),
 * into sw[] as left out (at most max); the atomic with the most executions, or -1; *execs: the atomics' executions.
 */
int tk_cas_loop(const struct gm_trace_kernel *k, struct tk_swap *sw, int *nsw, int max, double *execs)
{
	int at = -1;

	*nsw = 0;
	*execs = 0;
	for (int i = 0; i < k->nins; i++)
		if (cas_atomic(k->ins[i].in) && *nsw < max) {
			sw[(*nsw)++] = (struct tk_swap){ i, NULL, 0, 0 };
			*execs += k->ins[i].in->executions;
			at = at < 0 || k->ins[i].in->executions > k->ins[at].in->executions ? i : at;
		}
	for (int i = 0; at >= 0 && i < k->nins && *nsw < max; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		for (int q = 0; q < *nsw; q++) {
			const struct gm_trace_instr *a = k->ins[sw[q].ins].in;
			if (in->space == GM_TS_SHARED && in->op == GM_TO_LOAD && in->line == a->line &&
			    fabs(in->executions - a->executions) <= 0.01 * a->executions) {
				sw[(*nsw)++] = (struct tk_swap){ i, NULL, 0, 0 };
				break;
			}
		}
	}
	return at;
}

void tk_smem_cas(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[CAS_MAX];
	struct gm_launch_out o;
	char why[200];
	int nsw;
	double execs, blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];

	k->cas_ms = k->cas_rest_ms = 0;
	k->cas_at = -1;
	if (!k->pred_ok || !prof || !(prof->sm_count > 0) || !(blocks > 0))
		return;
	int at = tk_cas_loop(k, sw, &nsw, CAS_MAX, &execs);
	if (at < 0 || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)) || !(o.time_ms > 0))
		return;
	tk_start_drain(prof, &o);   /* as in the kernel's own prediction (rule S2) */
	double sms = blocks < prof->sm_count ? blocks : prof->sm_count, t0 = k->pred.time_ms;
	k->cas_ms = execs / sms * TK_SMEM_CAS_NS * 1e-6;
	k->cas_rest_ms = o.time_ms;
	k->cas_at = at;
	k->steps_ms = 0;   /* the loop's rounds are its steps */
	double t = fmax(o.time_ms, k->cas_ms);
	k->pred = o;
	tk_set_time(k, t);
	k->pred.limited_by = k->cas_ms >= o.time_ms ? "shared atomics" : o.limited_by;
	tk_why(k, "rule SA: its shared atomics on one word run %.0f rounds, %.4f ms (the rest %.4f; was %.4f)", execs,
	       k->cas_ms, o.time_ms, t0);
}
