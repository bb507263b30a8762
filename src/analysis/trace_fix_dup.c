/*
 * trace_fix_dup.c - rule DU of the trace (docs/TRACE.md, "The fix", rule DU): a global store whose fitted index
 * map is not one-to-one over the launch, so that every output is written by k threads (or blocks). A row index
 * that forgot the block's height (r = blockIdx.y + threadIdx.y, one block a row: the map's by and ty both a row
 * apart) makes every row k = blockDim.y times; a flag every thread sets (the map a constant) is one word written by
 * every thread. k is counted from the map over the launch's ranges: the variables whose stride is the same
 * (ty and by) reach sum(range - 1) + 1 values among prod(range) combinations, a variable of stride 0 reaches one
 * value among its range; the distinct addresses are the launch's threads over that, and k the store's measured
 * thread accesses over the distinct addresses (a store only some threads execute, `if (tid == 0)`, is not
 * repeated). Only linear maps (every mode a plain stride, no modulo, no gid, no loop, every stride measured or
 * the prior's) are counted, and two ids of one stride only where neither stride is the prior's guess (set 23's cap:
 * bx assumed 64 apart, where it is 256, beside ty's 64); a map whose variables of different strides overlap
 * (tx + bx*16) is not: k is then under-counted, never over-counted.
 * The fix: each output once. Rows (k < the launch's threads): the whole kernel's traffic divided by k (every
 * thread's loads and arithmetic fed a repeated store: the launch model's prediction over k), the measured time
 * over that. One word (every thread): one store a block (__syncthreads_or), each of the warps' stores to the one
 * word a turn at its L2 slice at the profile's atomic_u32_ns (the one-address update rate of rules X and C; a plain
 * store's turn is not measured on its own: the rate is an atomic's, see docs/TRACE.md), the fixed kernel the
 * model's prediction plus its blocks' turns.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

static const char *const var_word[GM_TV_N] = { "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
					       "blockIdx.y", "blockIdx.z", "iter", "gid" };

/* k (>= 1.5 when the store repeats) of instruction x, and the two variables of the largest same-stride group
   (va, vb; -1 without) or -1, -1 where the map is a constant; 0 where it does not apply */
double tk_dup_k(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, int *va, int *vb)
{
	const struct gm_trace_map *m = &x->fit.map;
	int64_t r[GM_TV_N], st[GM_TV_N];
	int seen[GM_TV_N] = { 0 }, done[GM_TV_N] = { 0 };
	double mult = 1, best = 1;

	*va = *vb = -1;
	if (x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_STORE || !m->known || x->fit.approx ||
	    m->niter_tab || x->fit.iters > 1 || !(x->in->thread_accesses > 0) || k->threads <= 1)
		return 0;
	for (int v = 0; v < GM_TV_N; v++)
		r[v] = 1, st[v] = 0;
	for (int d = 0; d < 3; d++)
		r[GM_TV_TX + d] = k->l->block[d], r[GM_TV_BX + d] = k->l->grid[d];
	for (int q = 0; q < m->nmodes; q++) {
		const struct gm_trace_mode *md = &m->mode[q];
		if (md->var < 0 || md->var >= GM_TV_ITER || seen[md->var] || md->div != 1 ||
		    (md->size && md->size < r[md->var]))
			return 0;   /* gid, the loop, a modulo or a division: not counted */
		seen[md->var] = 1;
		st[md->var] = md->stride < 0 ? -md->stride : md->stride;
	}
	for (int v = GM_TV_TX; v <= GM_TV_BZ; v++)
		if (r[v] > 1 && (m->open >> v & 1) && !(m->assumed >> v & 1))
			return 0;   /* the samples never varied it: its stride is not known */
	for (int v = GM_TV_TX; v <= GM_TV_BZ; v++) {
		if (done[v] || r[v] <= 1)
			continue;
		if (!st[v]) {   /* an id the map leaves out: only a constant map (a flag) is taken; elsewhere the fit may
				   miss an id the samples hardly varied (set 13's depth and fdtd, set 14's lod: by) */
			for (int u = GM_TV_TX; u <= GM_TV_BZ; u++)
				if (st[u])
					return 0;
			mult *= (double)r[v];
			continue;
		}
		double prod = 1, reach = 1;
		int n = 0, a = -1, b = -1, guess = 0;
		for (int u = v; u <= GM_TV_BZ; u++)
			if (!done[u] && r[u] > 1 && st[u] == st[v]) {
				done[u] = 1, n++, guess |= (int)(m->assumed >> u & 1);
				prod *= (double)r[u], reach += (double)(r[u] - 1);
				if (a < 0)
					a = u;
				else if (b < 0)
					b = u;
			}
		if (n > 1 && guess)
			return 0;   /* two ids a stride apart only because one stride is the prior's guess (set 23's
				       cap: bx assumed a row of 64 where it is four): not counted */
		mult *= prod / reach;
		if (n > 1 && prod / reach > best)
			best = prod / reach, *va = a, *vb = b;
	}
	/* the distinct addresses: the launch's threads over mult; k: the store's thread accesses over them */
	return x->in->thread_accesses * mult / (double)k->threads;
}

/* the store with the largest k (>= 1.5), -1 without; *kk its k, *one 1 where its map is a constant */
int tk_dup_store(const struct gm_trace_kernel *k, double *kk, int *one)
{
	int at = -1, a, b;

	*kk = 0, *one = 0;
	for (int i = 0; i < k->nins; i++) {
		double d = tk_dup_k(k, &k->ins[i], &a, &b);
		if (d >= 1.5 && d > *kk)
			*kk = d, at = i;
	}
	if (at >= 0) {
		const struct gm_trace_launch *l = k->l;
		int con = 1;
		for (int q = 0; q < k->ins[at].fit.map.nmodes; q++)
			con &= !k->ins[at].fit.map.mode[q].stride;
		*one = con;
		if (con && k->ins[at].in->executions < 1.5 * (double)(l->grid[0] * l->grid[1] * l->grid[2]))
			at = -1, *kk = 0, *one = 0;   /* one store a block: a flag's fixed form (the blocks' own) */
	}
	return at;
}

/* the verdict's words for the store at (k's repeats); its score, 0 where none */
double tk_dup_words(const struct gm_trace_kernel *k, char *buf, size_t n, int *ins)
{
	double kk;
	int one, a, b, at = tk_dup_store(k, &kk, &one);
	char w[96];

	*ins = at;
	if (at < 0)
		return 0;
	gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
	if (one) {
		snprintf(buf, n, "every thread stores the same word at %.60s: %.0f warp stores of one address, one after "
			 "another at its L2 slice (rule DU): set it once a block (__syncthreads_or, then one thread "
			 "stores)", w, k->ins[at].in->executions);
		return fmax(0.5, 1 - (k->pred_ok && k->time_ms > 0 ? k->pred.time_ms / k->time_ms : 0.5));
	}
	tk_dup_k(k, &k->ins[at], &a, &b);
	if (a >= 0)
		snprintf(buf, n, "the same outputs stored by %.0f threads at %.60s (rule DU): the index takes %s and %s "
			 "with the same stride, so the blocks repeat each other's outputs (and the loads and arithmetic "
			 "that fed them): each output once: multiply the block index by blockDim in the index", kk, w,
			 var_word[a], var_word[b]);
	else
		snprintf(buf, n, "the same outputs stored by %.0f threads at %.60s (rule DU): the index leaves out a "
			 "thread or block id, so the threads repeat each other's outputs (and the loads and arithmetic "
			 "that fed them): each output once", kk, w);
	return 1 - 1 / kk;
}

int tf_dup_stores(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double kk, fixed;
	int one, at = tk_dup_store(k, &kk, &one);
	char w[96];

	if (at < 0 || !k->pred_ok || !(k->pred.time_ms > 0) || !(k->time_ms > 0) || !prof)
		return -1;
	const struct gm_trace_launch *l = k->l;
	double blocks = (double)(l->grid[0] * l->grid[1] * l->grid[2]);
	if (one) {
		if (!(prof->atomic_u32_ns > 0))
			return -1;
		fixed = k->pred.time_ms + blocks * prof->atomic_u32_ns * 1e-6;
	} else
		fixed = k->pred.time_ms / kk;
	double s = k->time_ms / fixed;
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, at, 1, s);
	gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "store_each_once");
	if (one) {
		snprintf(fx->change, sizeof(fx->change), "one store a block instead of one a warp: %.0f stores of the one "
			 "word -> %.0f", k->ins[at].in->executions, blocks);
		snprintf(fx->words, sizeof(fx->words), "every thread stores the same word (at %.60s): %.0f warp stores of "
			 "one address, each a turn at its L2 slice (rule DU, at the profile's atomic_u32_ns a turn). Combine "
			 "the block's threads first (__syncthreads_or) and let one thread store", w,
			 k->ins[at].in->executions);
		snprintf(fx->sketch, sizeof(fx->sketch), "// was: if (pred) *flag = 1;   (every thread)\n"
			 "int any = __syncthreads_or(pred);\nif (any && threadIdx.x == 0) *flag = 1;   // one store a block");
	} else {
		snprintf(fx->change, sizeof(fx->change), "each output stored once: the launch's work over %.0f", kk);
		snprintf(fx->words, sizeof(fx->words), "every output is stored by %.0f threads (at %.60s): the index map is "
			 "not one-to-one over the launch, so the repeated threads redo the loads and arithmetic too (rule "
			 "DU). Give each thread its own output (multiply the block index by blockDim, size the grid to the "
			 "outputs)", kk, w);
		int a, b;
		tk_dup_k(k, &k->ins[at], &a, &b);
		char d = a >= GM_TV_TX && a <= GM_TV_TZ && b >= GM_TV_BX && b <= GM_TV_BZ && b - GM_TV_BX == a - GM_TV_TX ?
				 (char)('x' + (b - GM_TV_BX)) : 'y';   /* the dimension whose ids share the stride */
		snprintf(fx->sketch, sizeof(fx->sketch), "// was: int r = blockIdx.%c + threadIdx.%c;   (grid.%c = rows)\n"
			 "int r = blockIdx.%c * blockDim.%c + threadIdx.%c;   // grid.%c = (rows + blockDim.%c - 1) / "
			 "blockDim.%c", d, d, d, d, d, d, d, d, d);
	}
	return at;
}

/* 1 where the kernel's worst repeated store writes one word from every thread */
int tk_dup_one(const struct gm_trace_kernel *k)
{
	double kk;
	int one;
	return tk_dup_store(k, &kk, &one) >= 0 && one;
}
