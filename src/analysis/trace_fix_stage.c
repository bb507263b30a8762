/*
 * trace_fix_stage.c - rule ST of the trace (docs/TRACE.md, "The fix", rule ST): a table staged into shared memory
 * by every block of a launch of many short blocks (`for (j = tid; j < N; j += blockDim.x) s[j] = table[j];
 * __syncthreads();` then a pixel a thread). The sign, read off the fitted maps: a global load no block id moves
 * (every block reads the same table, rule A's `alike`) whose shared store of the same index follows it (the same
 * fitted expression and loop), in a 1D launch of ST_MIN_WAVES times more blocks than the SMs hold at once. The fix:
 * as many blocks as the SMs hold (sm_count x the resident blocks an SM, rule OC's figure), each staging the table
 * once, a grid-stride loop over the rest. Priced by the launch model at that shape: the staging's executions
 * scaled to the resident blocks, the other global accesses a grid-stride loop of the same index whose iterations
 * each wait for their load (rule R2's trips of the fix); the measured time over it (at least the issue floor).
 * Named where it is worth it, scored by the share of the measured time it removes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define ST_MIN_WAVES 4
#define ST_MAXSW GM_TRACE_MAX_INSNS

/* the shared store of x's index right after it (the staged copy), -1: none */
static int staged_by(const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
{
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *y = &k->ins[i];
		if (y->in->space == GM_TS_SHARED && y->in->op == GM_TO_STORE && y->fit.map.known && !y->fit.approx &&
		    y->in->pc > x->in->pc && y->fit.iters == x->fit.iters && y->in->executions == x->in->executions &&
		    !strcmp(y->fit.expr1d, x->fit.expr1d))
			return i;
	}
	return -1;
}

static int staging(const struct gm_trace_kernel *k, int i)
{
	const struct gm_trace_insn *x = &k->ins[i];
	return x->in->space == GM_TS_GLOBAL && x->in->op == GM_TO_LOAD && x->in->executions > 0 && x->fit.map.known &&
	       !x->fit.approx && tk_alike(k, x) && staged_by(k, x) >= 0;
}

static int64_t resident(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	return prof && prof->sm_count > 0 && k->occ.blocks > 0 ? (int64_t)prof->sm_count * k->occ.blocks : 0;
}

/* the staging load with the most executions (-1: none), *n how many */
static int find(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *n)
{
	const struct gm_trace_launch *l = k->l;
	int64_t p = resident(k, prof);
	int lead = -1;

	*n = 0;
	if (!p || l->grid[1] != 1 || l->grid[2] != 1 || l->grid[0] < ST_MIN_WAVES * p)
		return -1;
	for (int i = 0; i < k->nins; i++)
		if (staging(k, i)) {
			(*n)++;
			if (lead < 0 || k->ins[i].in->executions > k->ins[lead].in->executions)
				lead = i;
		}
	return lead;
}

/* the model's time of the kernel in p resident blocks (0: not priced) */
static double fixed_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int64_t p)
{
	static struct tk_swap sw[ST_MAXSW];
	struct gm_trace_insn *ins2;
	struct gm_trace_instr *in2;
	struct gm_trace_launch l2 = *k->l;
	struct gm_trace_kernel k2;
	struct gm_launch_out out;
	char why[200];
	int nsw = 0;
	double t = 0, b = (double)k->l->grid[0];
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];
	int iters = (int)ceil(b / (double)p);

	if (tf_kernel_copy(k, &k2, &ins2, &in2))
		goto done;
	l2.grid[0] = p;
	k2.l = &l2;
	k2.threads = p * tpb;
	for (int i = 0; i < k->nins && nsw < ST_MAXSW; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		int st = staging(k, i), j = st ? -1 : -2;
		for (int q = 0; q < k->nins && j == -2; q++)
			if (staging(k, q) && staged_by(k, &k->ins[q]) == i)
				j = q;
		if (st || j >= 0) {   /* the table's load and its shared store: once a resident block */
			in2[i].executions *= (double)p / b;
			continue;
		}
		if (!(x->in->executions > 0) || !x->fit.expr1d[0])
			continue;
		if (!x->fit.map.known || x->fit.approx || x->fit.iters > 1 || strstr(x->fit.expr1d, "bx") ||
		    !strstr(x->fit.expr1d, "gid"))
			goto done;   /* an access the grid-stride loop is not priced for */
		sw[nsw++] = (struct tk_swap){ i, x->fit.expr1d, iters, p * tpb, p * tpb, 0, 0 };
	}
	double fl = tk_floor_free_ms(&k2, prof, 1);   /* every element's instructions, the staging's once a block */
	for (int q = 0; q < nsw; q++)   /* rule R2 reads a swap's loop from its executions a warp before it: the same */
		in2[sw[q].ins].executions *= (double)p / b;
	/* the grid-stride loop's iterations each wait for their load (a store between: rule R2's trips of the fix) */
	if (tk_predict(&k2, prof, TK_WITH_TRIPS, sw, nsw, &out, why, sizeof(why)) || !(out.time_ms > 0))
		goto done;
	tk_start_drain(prof, &out);   /* as in the kernel's own prediction (rule S2) */
	t = fmax(out.time_ms, fl);
done:
	free(ins2);
	free(in2);
	return t;
}

static double speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *lead, int *n)
{
	*lead = -1;
	if (!prof || !k->pred_ok || !(k->time_ms > 0) || (*lead = find(k, prof, n)) < 0)
		return 0;
	double t = fixed_ms(k, prof, resident(k, prof));
	return t > 0 ? k->time_ms / t : 0;
}

/* the table's bytes a block stages (the staging loads' lanes x size over the blocks) */
static double table_bytes(const struct gm_trace_kernel *k)
{
	double e = 0, b = (double)k->l->grid[0];
	for (int i = 0; i < k->nins; i++)
		if (staging(k, i))
			e += k->ins[i].in->thread_accesses * k->ins[i].in->size;
	return e / b;
}

double tk_stage_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins)
{
	int lead, m;
	double s = speedup(k, prof, &lead, &m);
	char w[96];

	*ins = -1;
	if (s < GM_TRACE_WORTH)
		return 0;
	*ins = lead;
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(buf, n, "a %.0f KB table staged into shared memory by each of the %lld blocks at %.60s (rule ST): "
		 "%.2f GB of loads for it, where the %lld blocks the SMs hold at once need it once each: launch those, "
		 "stage once, a grid-stride loop over the rest", table_bytes(k) / 1024, (long long)k->l->grid[0], w,
		 table_bytes(k) * (double)k->l->grid[0] * 1e-9, (long long)resident(k, prof));
	return 1 - 1 / s;
}

int tf_stage_once(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int lead, m;
	double s = speedup(k, prof, &lead, &m);
	char w[96], was[160];

	if (s < GM_TRACE_WORTH)
		return -1;
	int64_t p = resident(k, prof);
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, m, s);
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "stage_once");
	snprintf(fx->change, sizeof(fx->change), "%lld resident blocks (%d SMs x %d) instead of %lld, each staging the "
		 "%.0f KB table once, a grid-stride loop over the rest", (long long)p, (int)prof->sm_count, k->occ.blocks,
		 (long long)k->l->grid[0], table_bytes(k) / 1024);
	snprintf(fx->words, sizeof(fx->words), "every one of the %lld blocks copies the same %.0f KB table into shared "
		 "memory (at %.60s) before its threads each do one element: launch only the blocks the SMs hold at once "
		 "(%lld), stage the table once a block, and loop each thread over the elements (a grid-stride loop)",
		 (long long)k->l->grid[0], table_bytes(k) / 1024, w, (long long)p);
	snprintf(fx->sketch, sizeof(fx->sketch), "for (int j = threadIdx.x; j < N; j += blockDim.x) s[j] = table[j];   "
		 "// once\n__syncthreads();\nfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * "
		 "blockDim.x)\n    out[i] = s[in[i]];   // kernel<<<%lld, %d>>>", (long long)p,
		 k->l->block[0] * k->l->block[1] * k->l->block[2]);
	for (int i = 0; i < k->nins; i++)
		if (i != lead && (staging(k, i) || staged_by(k, &k->ins[lead]) == i))
			k->ins[i].fix.same_as = lead + 1;
	snprintf(was, sizeof(was), "%s", k->ins[lead].fit.cls_text);
	snprintf(k->ins[lead].fit.cls_text, sizeof(k->ins[lead].fit.cls_text), "a table staged by each of %lld blocks "
		 "(its lanes: %.80s)", (long long)k->l->grid[0], was);
	return lead;
}
