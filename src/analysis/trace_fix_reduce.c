/*
 * trace_fix_reduce.c - rule block_reduce of the trace's fixes (docs/TRACE.md, "The fix"): global atomics that
 * add into few places, reduced in the block first. Two forms:
 * - atomics on one address take their turns (rule X limits the kernel): each warp adds its lanes, each block
 *   its warps, one atomic a block (a sum), or the block's own bins (a histogram);
 * - own bins: atomics whose addresses the data chooses inside a footprint that a block's shared memory holds
 *   (a histogram of a few thousand bins), updated once an element, whatever the launch model found limiting:
 *   each block counts into its own copy of the bins in shared memory, a grid-stride loop over the blocks the
 *   GPU holds at once, and adds its copy to the global bins once. Priced by the launch model at that launch;
 * - warp runs: atomics (float or integer) whose warp's lanes share an address (sorted keys, bins the data
 *   chooses), added in the warp first.
 * Where a thread adds floats to two or more words the data chooses, the one-address and warp-runs forms stage the
 * block's part of the output in shared memory instead (tf_window_ms): a float's shared atomic is a
 * compare-and-swap loop, so the lanes of a word keep the turns the data chose there, at the probe's rate.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define RED_MAXG 64
#define SMEM_BLOCK (48 * 1024)   /* the static shared memory a block may declare (CUDA) */

/*
 * The shared-memory stage's turns (results/nvidia-h200/probe-smem-atomic-cdb1b27, H200 GPU-887e8c64): a float
 * atomicAdd on shared memory is a compare-and-swap loop (ATOMS.CAST.SPIN) in which one lane of each word wins a
 * round, so a warp's instruction takes as many rounds as its most updated word has lanes; with each warp on its
 * own words an SM runs a round in SMEM_CAS_NS and a warp instruction in SMEM_CAS_BASE_NS more (1.628 ns at 1 lane a
 * word, 48.614 ns at 32: 0.11 + 1.515 x lanes). Not calibrated: the probe's constants. The 8 warps of a block on
 * the same words took 4.4x as long; the trace cannot tell when a block's warps meet on a word, so the warps' own
 * rate is taken (a lower edge). An integer add of 1 (ATOMS.POPC.INC, 0.61 ns flat) has no turns.
 */
#define SMEM_CAS_NS TK_SMEM_CAS_NS   /* trace_internal.h: rule SA times the trace's own loops with it */
#define SMEM_CAS_BASE_NS 0.11

/* The mean over an instruction's sampled warps of the lanes on the warp's most updated word (the loop's rounds). */
static double most_lanes(const struct gm_trace_instr *in)
{
	double sum = 0;
	int n = 0;

	for (int s = 0; s < in->nsamples; s++) {
		const struct gm_trace_sample *a = &in->samples[s];
		int most = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			int c = 0;
			for (int m = 0; m < GM_WARP_SIZE && a->have >> l & 1; m++)
				c += (a->have >> m & 1) && a->addr[m] == a->addr[l];
			most = c > most ? c : most;
		}
		if (most) {
			sum += most;
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* A global float atomic whose addresses the data chooses (no map fits, more than one word sampled): its rewrite
   stages the block's part of the output in shared memory, where the lanes of a word still take their turns. */
static int data_float(const struct gm_trace_insn *x)
{
	int64_t lo, hi;

	return tk_is_global_atomic(x->in) && x->in->sass && strstr(x->in->sass, ".F") && !x->fit.map.known &&
	       tk_range_of(x->in, &lo, &hi) && hi > lo;
}

/*
 * ms the rewrite's shared float atomics take: each data-chosen float atomic's warp executions x (its rounds at the
 * probe's rate), the SMs side by side. Only where a thread adds to WINDOW_MIN such words or more (a stencil's
 * corners, a record's fields: the block stages its part of the output in shared memory, as set 14's deposit_block
 * and set 13's km_update_shared do); one update a thread is added in the warp (a segmented shuffle scan, set 10's
 * seg_warp), which leaves no turns. 0 otherwise.
 */
#define WINDOW_MIN 2
double tf_window_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double ns = 0;
	int n = 0;

	if (!prof || !(prof->sm_count > 0))
		return 0;
	for (int i = 0; i < k->nins; i++)
		if (data_float(&k->ins[i])) {
			ns += k->ins[i].in->executions * (SMEM_CAS_BASE_NS + SMEM_CAS_NS * most_lanes(k->ins[i].in));
			n++;
		}
	return n >= WINDOW_MIN ? ns * 1e-6 / prof->sm_count : 0;
}

/* The text of the fix (hist: a histogram's own bins, else a sum's one atomic a block). */
static void reduce_text(struct gm_trace_fix *fx, int hist, const char *why)
{
	snprintf(fx->rewrite, sizeof(fx->rewrite), "block_reduce");
	if (!fx->change[0])
		snprintf(fx->change, sizeof(fx->change), "%s", hist ? "each block counts into its own bins in shared "
			 "memory and adds them to the global bins once: one atomic a bin a block" : "each warp adds its "
			 "lanes (__shfl_down_sync), each block its warps (shared memory): one atomic a block");
	snprintf(fx->words, sizeof(fx->words), "%s: %s; the kernel then takes its memory time", why, fx->change);
	snprintf(fx->sketch, sizeof(fx->sketch), "%s", hist ?
		 "__shared__ unsigned bins_s[NBINS];   // zeroed by the block, __syncthreads()\n"
		 "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
		 "    atomicAdd(&bins_s[bin(i)], 1);   // was: atomicAdd(&bins[bin(i)], 1), a thread an element\n"
		 "__syncthreads();\n"
		 "for (int b = threadIdx.x; b < NBINS; b += blockDim.x) if (bins_s[b]) atomicAdd(&bins[b], bins_s[b]);" :
		 "for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
		 "__shared__ float part[32];\n"
		 "if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;\n"
		 "__syncthreads();   // warp 0 adds part[], then\n"
		 "if (threadIdx.x == 0) atomicAdd(out, block_sum);   // was: atomicAdd(out, v) in every thread");
}

/* The text of the shared window's fix (data-chosen float atomics, tf_window_ms priced): rounds, the most
   updated word's lanes in the mean sampled warp. */
static void window_text(struct gm_trace_fix *fx, double rounds, const char *why)
{
	snprintf(fx->change, sizeof(fx->change), "each block adds into its window of the output in shared memory, "
		 "then adds the window to the output once (a float's shared atomic is a CAS loop: %.1f rounds a warp)", rounds);
	reduce_text(fx, 0, why);
	snprintf(fx->sketch, sizeof(fx->sketch),
		 "__shared__ float win[WIN];   // the block's part of the output: zeroed, __syncthreads()\n"
		 "atomicAdd(&win[key - first], v);   // was: atomicAdd(&out[key], v); a word's lanes still take turns\n"
		 "__syncthreads();\n"
		 "for (int t = threadIdx.x; t < WIN; t += blockDim.x)\n"
		 "    if (win[t] != 0.f) atomicAdd(&out[first + t], win[t]);   // once a block");
}

/* Instruction at's fix at the rewritten launch's predicted time o: the whole kernel's speedup, NULL when it is
   under GM_TRACE_WORTH (or o has no time) */
static struct gm_trace_fix *priced(struct gm_trace_kernel *k, const struct gm_profile *prof, int at,
				   const struct gm_launch_out *o, int div)
{
	double tm = k->time_ms > 0 ? k->time_ms : k->pred.time_ms;

	if (!(o->time_ms > 0))
		return NULL;
	double s = tm / fmax(o->time_ms, tk_floor_free_ms(k, prof, div));
	if (s < GM_TRACE_WORTH)
		return NULL;
	return tf_whole_fix(k, at, 1, s);
}

/* An atomic that returns its old value (a place, not a sum) sent by one lane a warp in every sample: the warp's
   lanes already aggregated (nvcc does so for one address; or a ballot in the code). */
static int one_lane(const struct gm_trace_instr *in)
{
	int n = 0;

	if (in->op != GM_TO_ATOMIC)
		return 0;
	for (int s = 0; s < in->nsamples; s++) {
		uint64_t m = in->samples[s].have;
		if (!m)
			continue;
		if (m & (m - 1))
			return 0;
		n++;
	}
	return n > 0;
}

/*
 * The one-address form's launch as a block reduction is written (CUB's BlockReduce over a tile of items a thread,
 * the CUDA samples' reduction): where the kernel left once its atomics go, o, is limited by the loads in flight
 * (latency) or by block starts, and its accesses have no loop, each thread takes v consecutive elements as one
 * access (v = 2, 4 .. up to 16 B over the largest element, the fastest by the model, a wider one only when 2 %
 * faster; tk_predict_wide), its instructions' floor divided by v. o unchanged otherwise; the v taken (1: none),
 * *bytes its access.
 */
static int reduce_wide(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw,
		       int nsw, struct gm_launch_out *o, int *bytes)
{
	int size = 0, best = 1;
	double t = fmax(o->time_ms, tk_floor_free_ms(k, prof, 1));
	struct gm_launch_out w, keep = *o;

	if (!o->limited_by || (strcmp(o->limited_by, "latency") && strcmp(o->limited_by, "blocks")))
		return 1;
	for (int i = 0; i < k->nins; i++)
		if (!tk_swap_of(sw, nsw, i) && k->ins[i].in->size > size)
			size = k->ins[i].in->size;
	for (int v = 2; size > 0 && v * size <= 16; v *= 2)
		if (!tk_predict_wide(k, prof, v, sw, nsw, &w) && w.time_ms > 0 &&
		    fmax(w.time_ms, tk_floor_free_ms(k, prof, v)) * 1.02 < t) {
			t = fmax(w.time_ms, tk_floor_free_ms(k, prof, v));
			keep = w, best = v;
		}
	*o = keep;
	*bytes = best * size;
	return best;
}

/* Rule X's form: the global atomics left out (one update a block, or a bin a block, remains). */
static int one_address(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int at = -1, nsw = 0;
	struct tk_swap sw[RED_MAXG];
	struct gm_launch_out o;
	char why[200];

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		if (!tk_is_global_atomic(in))
			continue;
		if (nsw < RED_MAXG)
			sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };
		if (at < 0 || in->executions > k->ins[at].in->executions)
			at = i;
	}
	if (at < 0 || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)))
		return -1;
	double sm = data_float(&k->ins[at]) ? tf_window_ms(k, prof) : 0;   /* the data picks the word: a window */
	int bytes = 0, v = one_lane(k->ins[at].in) || sm > 0 ? 1 : reduce_wide(k, prof, sw, nsw, &o, &bytes);
	o.time_ms += sm;
	struct gm_trace_fix *fx = priced(k, prof, at, &o, v);
	if (!fx)
		return -1;
	if (sm > 0) {
		window_text(fx, most_lanes(k->ins[at].in), "the atomics on one address take their turns (rule X) and "
			    "limit the kernel; the data chooses the address");
		return at;
	}
	if (v > 1)
		snprintf(fx->change, sizeof(fx->change), "each thread adds %d consecutive elements (one %d-byte vector "
			 "load), each warp its lanes (__shfl_down_sync), each block its warps (shared memory): one "
			 "atomic a block", v, bytes);
	if (one_lane(k->ins[at].in)) {   /* already one update a warp: the block's warps are what is left to add */
		snprintf(fx->change, sizeof(fx->change), "a block scan of the counts, one atomicAdd a block for its "
			 "base (a thread's place: the base + its prefix)");
		reduce_text(fx, 0, "atomics on one address take their turns (rule X); each warp already sends one "
			    "update (one lane a warp sampled: the compiler aggregates them), so a warp ballot gains nothing");
		snprintf(fx->sketch, sizeof(fx->sketch), "__shared__ cub::BlockScan<int, BLOCK>::TempStorage tmp;\n"
			 "__shared__ int base;\nint pos, total;\n"
			 "cub::BlockScan<int, BLOCK>(tmp).ExclusiveSum(keep, pos, total);\n"
			 "if (threadIdx.x == 0) base = atomicAdd(counter, total);   // one atomic a block, not a warp\n"
			 "__syncthreads();\nif (keep) out[base + pos] = x;");
		return at;
	}
	reduce_text(fx, k->ins[at].fit.cls == GM_TC_GATHER, "the atomics on one address take their turns (rule X) "
		    "and limit the kernel");
	return at;
}

/* The bins an atomic hits: its sampled byte range when the data chooses it and a block's shared memory holds
   it (0 otherwise), updated once an element (executions at least the launch's warps). */
static int64_t bins_bytes(const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
{
	int64_t lo, hi, warps = (k->threads + GM_WARP_SIZE - 1) / GM_WARP_SIZE;

	if (!tk_is_global_atomic(x->in) || x->fit.map.known || x->fit.cls != GM_TC_GATHER || x->in->executions < warps ||
	    !tk_range_of(x->in, &lo, &hi) || hi + x->in->size - lo > SMEM_BLOCK)
		return 0;
	return hi + x->in->size - lo;
}

/* a fitted global load or store without a loop, affine in gid: its grid-stride step at t threads (-1 if not) */
static int64_t stride_of(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, int64_t t)
{
	int64_t v[GM_TV_N], e[3];

	if (x->in->space != GM_TS_GLOBAL || (x->in->op != GM_TO_LOAD && x->in->op != GM_TO_STORE) ||
	    !x->fit.map.known || x->fit.approx || x->fit.iters > 1 || !x->fit.expr1d[0] || k->l->block[1] != 1 ||
	    k->l->block[2] != 1 || k->l->grid[1] != 1 || k->l->grid[2] != 1)
		return -1;
	for (int j = 0; j < 3; j++) {
		memset(v, 0, sizeof(v));
		v[GM_TV_GID] = j * t;
		v[GM_TV_TX] = v[GM_TV_GID] % k->l->block[0];
		v[GM_TV_BX] = v[GM_TV_GID] / k->l->block[0];
		e[j] = gm_trace_map_eval(&x->fit.map, v);
	}
	return e[2] - e[1] == e[1] - e[0] ? e[1] - e[0] : -1;
}

#define SWAP_LEN 80

/*
 * The own-bins form. The rewritten launch: the blocks the GPU holds at once (SMs x the blocks of this size an
 * SM holds by threads), at most the original's, each thread walking the elements a grid apart (the kernel's
 * other accesses, fitted and affine in gid, as a loop of that step); the bins' global atomics become one pass
 * over the bins a block (coalesced, `tid + iter * block`); the shared-memory atomics that replace them are
 * left out, as the launch model leaves out a shared access the data chooses.
 */
static int own_bins(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[RED_MAXG];
	char swap_text[RED_MAXG][SWAP_LEN];   /* the swaps' expressions */
	struct gm_launch_out o;
	struct gm_trace_launch l2;
	struct gm_trace_kernel k2;
	char why[200];
	int at = -1, nsw = 0, bt = k->l->block[0] * k->l->block[1] * k->l->block[2];
	int64_t bins = 0, blocks = k->l->grid[0] * k->l->grid[1] * k->l->grid[2];

	if (!prof || prof->sm_count <= 0 || bt <= 0 || k->nins > RED_MAXG)
		return -1;
	int64_t per_sm = (prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048) / bt;
	int64_t b2 = (int64_t)prof->sm_count * (per_sm > 0 ? per_sm : 1);
	b2 = b2 < blocks ? b2 : blocks;
	int64_t t2 = b2 * bt, iters = (k->threads + t2 - 1) / t2;
	for (int i = 0; i < k->nins; i++) {
		int64_t b = bins_bytes(k, &k->ins[i]);
		if (b > 0 && (at < 0 || k->ins[i].in->executions > k->ins[at].in->executions))
			at = i, bins = b;
	}
	if (at < 0)
		return -1;
	int nb = (int)(bins / k->ins[at].in->size);
	double updates = k->ins[at].in->thread_accesses > 0 ? k->ins[at].in->thread_accesses : (double)k->threads;
	if ((double)b2 * nb * 4 > updates)
		return -1;   /* a block's share of the elements would not fill its bins four times over: no gain */
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (i == at) {
			sw[nsw] = (struct tk_swap){ i, "tid", (nb + bt - 1) / bt, bt };
			nsw++;
			continue;
		}
		if (bins_bytes(k, x) > 0) {   /* another histogram's bins: the same change */
			sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };
			continue;
		}
		int64_t step = stride_of(k, x, t2);
		if (step < 0)
			return -1;
		snprintf(swap_text[nsw], SWAP_LEN, "%.70s", x->fit.expr1d);
		sw[nsw] = (struct tk_swap){ i, swap_text[nsw], (int)iters, step };
		nsw++;
	}
	/* the rewritten kernel: its loop's iterations are each thread's executions at the smaller grid (rule R2's
	   trips count them from the executions over the launch's warps) */
	struct gm_trace_insn *ins2 = malloc(sizeof(*ins2) * (size_t)k->nins);
	if (!ins2)
		return -1;
	memcpy(ins2, k->ins, sizeof(*ins2) * (size_t)k->nins);
	for (int q = 0; q < nsw; q++)
		ins2[sw[q].ins].fit.iters = sw[q].expr && sw[q].ins != at ? (int)iters : ins2[sw[q].ins].fit.iters;
	k2 = *k, l2 = *k->l;
	l2.grid[0] = b2, l2.grid[1] = l2.grid[2] = 1;
	k2.l = &l2;
	k2.ins = ins2;
	k2.threads = t2;
	int rc = tk_predict(&k2, prof, TK_WITH_TRIPS, sw, nsw, &o, why, sizeof(why));
	free(ins2);
	struct gm_trace_fix *fx = rc ? NULL : priced(k, prof, at, &o, 1);
	if (!fx)
		return -1;
	snprintf(fx->change, sizeof(fx->change), "each of %lld blocks counts its elements (%lld a thread, a grid "
		 "apart) into its own bins in shared memory (%d sampled), then adds them to the global bins: %lld "
		 "global atomics, not %.0f", (long long)b2, (long long)iters, nb, (long long)(b2 * nb), updates);
	reduce_text(fx, 1, "the data chooses the atomics' addresses, but within bins a block's shared memory holds; "
		    "each global update is an L2 read-modify-write of a sector other warps update too");
	return at;
}

/*
 * The warp-runs form: atomics whose warp's lanes fall on few addresses chosen by the data (RUNS_MIN lanes an
 * address or more in the mean sampled warp) where the launch model explains less than GM_TRACE_OUTSIDE of the
 * measured time. The L2 applies the lanes of one address one after another, each an update's turn at the
 * profile's one-address rate (tk_turn_ns: atomic_f32_ns for a float, atomic_u32_ns for an integer; assumed: an
 * integer lane not aggregated by the compiler takes the aggregated warp's turn). The rewrite adds each address's
 * lanes in the warp first (warp aggregation, __match_any_sync; a float run by a segmented shuffle scan) and sends
 * one atomic an address: the atomic's requests and sectors stay, its turns leave (rule A's time, trace_floor.c,
 * taken off the prediction), and the kernel is priced at the launch model's time. It applies where rule A priced
 * turns, or where the turns, taken one after another, could fill the time the model does not explain; a warp of
 * distinct addresses (no runs) is left to the other forms.
 */
#define RUNS_MIN 4.0
static int warp_runs(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	int at = -1;
	double tm = k->time_ms, runs = 0, addrs = 0, turns = k->turns_ms > 0 ? k->turns_ms : 0;

	if (!prof || !(tm > 0) || !(k->pred.time_ms - turns < GM_TRACE_OUTSIDE * tm))
		return -1;
	for (int i = 0; i < k->nins; i++) {
		double a, r = tk_warp_runs(k->ins[i].in, &a);
		if (r >= RUNS_MIN && tk_turn_ns(k->ins[i].in, prof) > 0 &&
		    (at < 0 || k->ins[i].in->executions > k->ins[at].in->executions))
			at = i, runs = r, addrs = a;
	}
	if (at < 0 || (!(turns > 0) && k->ins[at].in->executions * runs * tk_turn_ns(k->ins[at].in, prof) * 1e-6 <
			tm - k->pred.time_ms))
		return -1;
	struct gm_launch_out o;
	memset(&o, 0, sizeof(o));
	double sm = data_float(&k->ins[at]) ? tf_window_ms(k, prof) : 0;
	o.time_ms = k->pred.time_ms - turns + sm;   /* rule A's turns leave the L2 (a float's stay in shared memory) */
	struct gm_trace_fix *fx = priced(k, prof, at, &o, 1);
	if (!fx)
		return -1;
	if (sm > 0) {
		window_text(fx, most_lanes(k->ins[at].in), "atomics on few addresses a warp, chosen by the data: the "
			    "lanes of one address take their turns at the L2 (each update waits for the one before it)");
		return at;
	}
	int fl = k->ins[at].in->sass && strstr(k->ins[at].in->sass, ".F") != NULL;
	snprintf(fx->change, sizeof(fx->change), "each address's lanes added in the warp first (%s), one atomic an "
		 "address: %.1f addresses a warp, %.1f lanes an address sampled", fl ? "a segmented shuffle scan" :
		 "__match_any_sync", addrs, runs);
	reduce_text(fx, 0, "atomics on few addresses a warp, chosen by the data: the lanes of one address take their "
		    "turns at the L2 (each update waits for the one before it)");
	if (fl)
		snprintf(fx->sketch, sizeof(fx->sketch), "for (int o = 1; o < 32; o *= 2) {   // a run: lanes of one key\n"
			 "    float u = __shfl_up_sync(0xffffffff, v, o); int ku = __shfl_up_sync(0xffffffff, key, o);\n"
			 "    if (lane >= o && ku == key) v += u;\n}\n"
			 "int kn = __shfl_down_sync(0xffffffff, key, 1);\n"
			 "if (lane == 31 || kn != key) atomicAdd(&out[key], v);   // was: atomicAdd(&out[key], v) in every lane");
	else
		snprintf(fx->sketch, sizeof(fx->sketch),
			 "unsigned peers = __match_any_sync(__activemask(), key);   // lanes of one address\n"
			 "int sum = __reduce_add_sync(peers, v);   // __popc(peers) where v is 1\n"
			 "if (lane == __ffs(peers) - 1) atomicAdd(&out[key], sum);   // was: atomicAdd(&out[key], v) in every lane");
	return at;
}

/* The element step of x's map between blocks 0 and 1 along grid dimension d (block 0 elsewhere, thread 0). */
static int64_t block_step(const struct gm_trace_launch *l, const struct gm_trace_map *m, int d)
{
	struct gm_trace_sample a;
	int64_t v[GM_TV_N], e0;

	memset(&a, 0, sizeof(a));
	tf_vars_of(l, &a, 0, v);
	e0 = gm_trace_map_eval(m, v);
	a.block[d] = 1;
	tf_vars_of(l, &a, 0, v);
	return gm_trace_map_eval(m, v) - e0;
}

/*
 * The block-rows form's launch as its rewrite is written (a thread's rows in registers first, set 16's dgb_tile):
 * along the grid dimension d whose block id the atomics' map leaves out (the largest such), only the blocks the
 * GPU holds at once (SMs x the blocks of this size an SM holds by threads, over the other dimensions' blocks), each
 * thread walking its rows a grid apart: every other access a loop of ceil(grid[d] / g) iterations, its step g
 * times its map's step along d. Only where every other access is a fitted global load or store without a loop
 * (else -1, and the plain form's price stands); the atomics left out (sw[0 .. nsw-1]); *o the prediction, with
 * rule R2's trips.
 */
static int rows_in_registers(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw,
			     int nsw, int at, struct gm_launch_out *o)
{
	struct tk_swap s2[RED_MAXG];
	struct gm_trace_launch l2 = *k->l;
	struct gm_trace_kernel k2 = *k;
	const struct gm_trace_map *am = &k->ins[at].fit.map;
	char why[200];
	int d = -1, n = nsw, bt = k->l->block[0] * k->l->block[1] * k->l->block[2];
	double blocks = (double)k->l->grid[0] * k->l->grid[1] * k->l->grid[2];

	if (!prof || prof->sm_count <= 0 || bt <= 0 || k->nins > RED_MAXG)
		return -1;
	for (int q = 0; q < 3; q++)
		if (k->l->grid[q] > 1 && !block_step(k->l, am, q) && (d < 0 || k->l->grid[q] > k->l->grid[d]))
			d = q;
	if (d < 0)
		return -1;
	double held = (double)prof->sm_count * ((prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048) / bt);
	int64_t g = (int64_t)fmax(1, floor(held / (blocks / (double)k->l->grid[d])));
	if (g >= k->l->grid[d])
		return -1;   /* the grid already fits: no rows to walk */
	int iters = (int)((k->l->grid[d] + g - 1) / g);
	memcpy(s2, sw, sizeof(sw[0]) * (size_t)nsw);
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		if (tk_swap_of(sw, nsw, i))
			continue;
		if (x->in->space != GM_TS_GLOBAL || (x->in->op != GM_TO_LOAD && x->in->op != GM_TO_STORE) ||
		    !x->fit.map.known || x->fit.approx || x->fit.iters > 1 || !x->fit.expr1d[0])
			return -1;
		s2[n++] = (struct tk_swap){ i, x->fit.expr1d, iters, block_step(k->l, &x->fit.map, d) * g };
	}
	struct gm_trace_insn *ins2 = malloc(sizeof(*ins2) * (size_t)k->nins);
	if (!ins2)
		return -1;
	memcpy(ins2, k->ins, sizeof(*ins2) * (size_t)k->nins);
	for (int q = nsw; q < n; q++)
		ins2[s2[q].ins].fit.iters = iters;
	l2.grid[d] = g;
	k2.l = &l2;
	k2.ins = ins2;
	k2.threads = k->threads / k->l->grid[d] * g;
	int rc = tk_predict(&k2, prof, TK_WITH_TRIPS, s2, n, o, why, sizeof(why));
	free(ins2);
	return rc ? -1 : iters;
}

/*
 * The block-rows form: atomic adds of a fitted map that leaves out ids of the block (tk_block_sharers: 2 threads of
 * a block or more on each address, every warp running it; a column sum whose 32x8 block adds its 8 rows into the
 * same 32 words, every token's row into the same channel) where the launch model explains less than
 * GM_TRACE_OUTSIDE of the measured time: the updates of one word wait at the L2 for each other, which the model,
 * pricing their sectors, does not see. The rewrite adds the block's threads of one address first (registers over
 * a loop of rows, shared memory over the block's rows) and sends one atomic a block and address; priced as the
 * kernel with those atomics left out (the remaining one a block is a fraction 1 / sharers of them), the measured
 * time over it (the part outside the model taken as theirs).
 */
static int block_rows(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[RED_MAXG];
	struct gm_launch_out o;
	char why[200];
	int at = -1, nsw = 0;
	double most = 0;

	if (!(k->time_ms > 0) || !(k->pred.time_ms < GM_TRACE_OUTSIDE * k->time_ms))
		return -1;
	for (int i = 0; i < k->nins; i++) {
		double b = tk_block_sharers(k->l, k->ins[i].in, &k->ins[i].fit);
		if (b < 2 || nsw == RED_MAXG)
			continue;
		sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };
		if (at < 0 || k->ins[i].in->executions > k->ins[at].in->executions)
			at = i, most = b;
	}
	if (at < 0 || tk_predict(k, prof, -1, sw, nsw, &o, why, sizeof(why)))
		return -1;
	int rows = rows_in_registers(k, prof, sw, nsw, at, &o);
	struct gm_trace_fix *fx = priced(k, prof, at, &o, 1);
	if (!fx)
		return -1;
	fx->ninstr = nsw;
	snprintf(fx->change, sizeof(fx->change), "the %.0f threads of a block that add to one address (%d atomic "
		 "instruction%s) added in the block first (shared memory), one atomic a block and address", most, nsw,
		 nsw > 1 ? "s" : "");
	if (rows > 0)   /* priced as the launch the GPU holds, each thread's rows summed in registers */
		snprintf(fx->change + strlen(fx->change), sizeof(fx->change) - strlen(fx->change), "; each thread sums "
			 "%d rows in registers first", rows);
	reduce_text(fx, 0, "every warp's lanes add into words that the block's other rows (and every block) add into too: "
		    "the updates of one word wait at the L2 for each other");
	snprintf(fx->sketch, sizeof(fx->sketch), "__shared__ float part[ROWS][32 + 1];   // the block's rows' sums\n"
		 "float a = 0.f;   // the thread's rows first, in registers:\n"
		 "for (int t = row0 + threadIdx.y; t < T; t += ROWS * gridDim.y) a += x[(long)t * C + c];\n"
		 "part[threadIdx.y][threadIdx.x] = a;\n__syncthreads();\n"
		 "if (threadIdx.y == 0) {   // was: atomicAdd(&out[c], x[t * C + c]) in every thread\n"
		 "    for (int r = 1; r < ROWS; r++) a += part[r][threadIdx.x];\n"
		 "    atomicAdd(&out[c], a);   // one atomic a block and address\n}");
	for (int q = 0; q < nsw; q++)
		if (sw[q].ins != at)
			k->ins[sw[q].ins].fix.same_as = at + 1;
	return at;
}

int tf_block_reduce(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	if (!k->pred_ok)
		return -1;
	int at = own_bins(k, prof);
	if (at < 0 && k->pred.limited_by && !strcmp(k->pred.limited_by, "atomics"))
		at = one_address(k, prof);
	if (at < 0)
		at = warp_runs(k, prof);
	if (at < 0)
		at = block_rows(k, prof);
	return at;
}

/*
 * Rule warp_shuffle (k68): rule SA's loop (trace_time_cas.c) limits the kernel: every lane of the block adds into
 * one shared word, one compare-and-swap round at a time. Each warp adds its lanes with shuffles first and sends one
 * atomic a warp (or writes its sum to a shared array that one warp adds): the loop keeps one round a warp at most,
 * and the kernel takes the longer of the rest and those rounds, the measured time over that.
 */
int tf_warp_shuffle(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	struct tk_swap sw[RED_MAXG];
	int nsw, at;
	double execs, blocks = (double)k->l->grid[0] * (double)k->l->grid[1] * (double)k->l->grid[2];
	int64_t tpb = (int64_t)k->l->block[0] * k->l->block[1] * k->l->block[2];

	if (k->cas_at < 0 || !(k->cas_ms > k->cas_rest_ms) || !prof || !(prof->sm_count > 0) || !(k->time_ms > 0) ||
	    (at = tk_cas_loop(k, sw, &nsw, RED_MAXG, &execs)) < 0)
		return -1;
	double sms = blocks < prof->sm_count ? blocks : prof->sm_count;
	double warps = blocks * (double)((tpb + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
	double t = fmax(k->cas_rest_ms, warps / sms * TK_SMEM_CAS_NS * 1e-6);
	double s = k->time_ms / fmax(t, tk_floor_free_ms(k, prof, 1e9));
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, at, nsw, s);
	char w[96];
	gm_trace_where(k->ins[at].in, 60, w, sizeof(w));
	snprintf(fx->rewrite, sizeof(fx->rewrite), "warp_shuffle");
	snprintf(fx->change, sizeof(fx->change), "each warp adds its lanes with shuffles, then one atomic a warp (or "
		 "the warps' sums through a shared array): %.0f compare-and-swap rounds become %.0f at most", execs, warps);
	snprintf(fx->words, sizeof(fx->words), "every lane of the block adds into one shared word at %.60s: a float's "
		 "shared atomicAdd is a compare-and-swap loop that lets one lane through a round (%.1f rounds a warp, "
		 "%.4f ms, rule SA). Add the warp's lanes with __shfl_down_sync first and let lane 0 add the warp's sum",
		 w, execs / warps, k->cas_ms);
	snprintf(fx->sketch, sizeof(fx->sketch), "for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
		 "__shared__ float part[32];\n"
		 "if (threadIdx.x %% 32 == 0) part[threadIdx.x / 32] = v;   // was: atomicAdd(&acc, v) in every lane\n"
		 "__syncthreads();   // warp 0 adds part[] with shuffles: the block's sum, no atomic");
	for (int q = 0; q < nsw; q++)
		if (sw[q].ins != at)
			k->ins[sw[q].ins].fix.same_as = at + 1;
	return at;
}
