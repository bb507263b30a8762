/*
 * trace_fix_fields.c - rule wide_fields of the trace's fixes (docs/TRACE.md, "The fix"): a thread that reads
 * (or writes) the K fields of one record as K separate accesses of s bytes each (lanes K x s B apart: a float4
 * read as four floats), every byte used, reads the record as one K x s-byte vector instead (K x s = 8 or 16 B,
 * the record aligned to it). The accesses of one walk whose fitted maps differ only by their offsets 0 .. K-1
 * and whose strides K divides are one record; the kernel is priced by the launch model with each record's
 * accesses as one pattern of K x s-byte elements (the map's strides and offset over K), the others as they are,
 * the saving taken off the measured time with the time outside the memory instructions divided by K (a record's
 * address arithmetic and issue done once, not K times). Rule record_lanes: a thread's own record of 32 or 64 B
 * given to K x s / 16 lanes, each reading and writing its 16 B as one vector (a warp 32 / lanes whole records),
 * priced at that many times the threads. Also the whole kernel's speedup the fixes share (tf_kernel_speedup) and
 * which accesses take consecutive elements (tf_consecutive).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define FLD_MAXG 64
#define FLD_LEN 160
#define TF_PART_TOL 0.10   /* the launch model's tolerance: an error within it is every part's */

/* The kernel's speedup when the model's time goes from k->mem_ms to t_new: the saving taken off the
   measured time (a compute or latency part the model does not see stays, but for the part ex that goes with
   the sectors the change removes, and the rest divided by the parallelism g the change adds), else the
   predicted ratio; never below rules I and F's floor (trace_floor.c), its instructions divided by div (the
   threads that remain). */
double tf_kernel_speedup_ex(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new, double g,
			    double div, double ex)
{
	double tp = k->mem_ms, tm = k->time_ms;   /* both without rule R2's trips: the rewrite's have none */
	double fl = tk_floor_ms(k, prof, div);

	if (t_new <= 0 || tp <= 0)
		return 1;
	ex = ex > 0 ? fmin(ex, 1) : 0;
	if (tm > 0 && tm >= tp)   /* the unexplained part: less the wasted sectors' part, divided by the parallelism */
		return tm / fmax(t_new + (tm - tp) * (1 - ex) / (g >= 1 ? g : 1), fl);
	return tp / fmax(t_new, fl);
}

/*
 * The part form, where the model predicts more than was measured (beyond TF_PART_TOL, the launch model's own
 * tolerance): the untouched part kept at its prediction t_kept (the kernel without the changed instructions), the
 * changed part's measured time is what is left of the measured one (t_meas - t_kept), and it becomes the fixed
 * part's prediction (t_new - t_kept): t_meas / t_new. The over-prediction is taken as the changed patterns' (the
 * ideal access the fix makes is priced well; a scattered one is where the model's rates err). Where the untouched
 * part alone is predicted at the measured time or more (the over-prediction is also its), or t_kept is unknown (< 0),
 * tf_kernel_speedup_ex's ratio of the predictions.
 * The same form where the model predicts less than was measured (beyond TF_PART_TOL) and the change removes the
 * kernel's wasted sectors: all of them (own, the changed instructions' part of the kernel's global excess bytes, at
 * least TF_OWN_ALL: 1 but for a rounding of sector counts), and they are at least TF_WASTE_MIN of its global bytes
 * (ex). The time the model does not explain then has no other pattern to go with (the untouched accesses are at
 * their ideal sectors, which the model prices well), so it is the changed patterns' own cost, as the
 * over-prediction is: t_meas / t_new, not the bytes' share of tf_kernel_speedup_ex (set 26's turn_naive: 2.96x ->
 * 6.65x against the hand tile's measured 6.79x). Where another instruction keeps wasted sectors (own below
 * TF_OWN_ALL), they may carry part of that time, and the bytes' share stays (set 7's tr_d_naive, own 0.970: the
 * share 3.83x, all of it taken away 5.97x, its padded hand tile measured 4.30x).
 */
#define TF_OWN_ALL 0.99
#define TF_WASTE_MIN 0.5
double tf_kernel_speedup_part(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new,
			      double t_kept, double g, double div, double ex, double own)
{
	double tm = k->time_ms;

	if (tm > 0 && t_new > 0 && k->mem_ms > tm * (1 + TF_PART_TOL) && t_kept >= 0 && t_kept < tm)
		return tm / fmax(t_new, tk_floor_ms(k, prof, div));
	if (tm > 0 && t_new > 0 && k->mem_ms > 0 && tm > k->mem_ms * (1 + TF_PART_TOL) && t_kept >= 0 &&
	    own >= TF_OWN_ALL && ex >= TF_WASTE_MIN)
		return tm / fmax(t_new, tk_floor_ms(k, prof, div));
	return tf_kernel_speedup_ex(k, prof, t_new, g, div, ex);
}

double tf_kernel_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new, double g,
			 double div)
{
	return tf_kernel_speedup_ex(k, prof, t_new, g, div, 0);
}

/* A global load or store without a loop whose warps take consecutive elements: coalesced, or placed by the data
   (no map fits: a row at pos[b]) with its measured sectors a request at the ideal, each warp's lanes on one run */
int tf_consecutive(const struct gm_trace_insn *x)
{
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;

	if (x->in->space != GM_TS_GLOBAL || (x->in->op != GM_TO_LOAD && x->in->op != GM_TO_STORE) || x->fit.iters > 1)
		return 0;
	if (x->fit.cls == GM_TC_COALESCED)
		return 1;
	return x->fit.cls == GM_TC_GATHER && !x->fit.map.known && per > 0 && x->fit.ideal_per_req > 0 &&
	       per <= x->fit.ideal_per_req * 1.02;
}

/* a fitted global load or store without a loop that a record's field can be */
static int field_like(const struct gm_trace_insn *x)
{
	return x->in->space == GM_TS_GLOBAL && (x->in->op == GM_TO_LOAD || x->in->op == GM_TO_STORE) &&
	       x->fit.map.known && !x->fit.approx && x->fit.iters <= 1 && !x->fit.map.niter_tab;
}

/* the same walk of the same array but for the offset: op, size, modes (the base the same array's) */
static int same_record(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *x = &a->fit.map, *y = &b->fit.map;

	if (a->in->op != b->in->op || a->in->size != b->in->size || x->base != y->base || x->nmodes != y->nmodes)
		return 0;
	for (int m = 0; m < x->nmodes; m++)
		if (memcmp(&x->mode[m], &y->mode[m], sizeof(x->mode[m])))
			return 0;
	return 1;
}

/* the record of K fields is the thread's own: a 1D launch, the map K x gid + its offset */
static int gid_record(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, int K)
{
	const struct gm_trace_launch *l = k->l;
	int64_t g[] = { 0, 1, 37, k->threads / 3, k->threads - 1 }, v[GM_TV_N];

	if (l->grid[1] != 1 || l->grid[2] != 1 || l->block[1] != 1 || l->block[2] != 1)
		return 0;
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		memset(v, 0, sizeof(v));
		v[GM_TV_GID] = g[i];
		v[GM_TV_TX] = g[i] % l->block[0];
		v[GM_TV_BX] = g[i] / l->block[0];
		if (gm_trace_map_eval(&x->fit.map, v) - x->fit.map.offset != K * g[i])
			return 0;
	}
	return 1;
}

/*
 * Instruction i's record: the fields g[] (*pm of them, g[0] at the lowest offset; a field read again counts once),
 * K distinct offsets o, o+1 .. o+K-1, K dividing every stride and o, K x s = 8 or 16 B (wide_fields; the fused
 * index as text in fused[]) or 32 or 64 B, the thread's own record (record_lanes: "gid + o x s / 16" in 16-byte
 * elements). K, or 0 when not a record.
 */
static int record_of(const struct gm_trace_kernel *k, int i, const int *used, int *g, int *pm, char *fused, size_t n)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int m = 0;
	int64_t lo = x->fit.map.offset;

	if (!field_like(x) || used[i])
		return 0;
	for (int j = 0; j < k->nins && m < GM_TRACE_MAX_INSNS; j++)
		if (!used[j] && field_like(&k->ins[j]) && same_record(x, &k->ins[j])) {
			g[m++] = j;
			lo = k->ins[j].fit.map.offset < lo ? k->ins[j].fit.map.offset : lo;
		}
	unsigned seen = 0;   /* the fields' offsets from lo: each once or more (a field read again, unrolled) */
	for (int q = 0; q < m; q++) {
		int64_t d = k->ins[g[q]].fit.map.offset - lo;
		if (d < 0 || d >= 32)
			return 0;
		seen |= 1u << d;
		if (!d && k->ins[g[0]].fit.map.offset != lo) {   /* the lowest field first */
			int t = g[0];
			g[0] = g[q], g[q] = t;
		}
	}
	int K = __builtin_popcount(seen), vb = K * x->in->size;
	*pm = m;
	if (K < 2 || seen != (K == 32 ? ~0u : (1u << K) - 1) || (vb != 8 && vb != 16 && vb != 32 && vb != 64) || lo % K)
		return 0;
	struct gm_trace_map f = x->fit.map;
	for (int q = 0; q < f.nmodes; q++) {
		if (f.mode[q].stride % K)
			return 0;
		f.mode[q].stride /= K;
	}
	f.offset = lo / K;
	f.elem_bytes = vb;
	if (vb > 16)   /* record_lanes: a thread's record, gid's own (K x gid + lo, a 1D launch), as vb / 16 lanes */
		return gid_record(k, x, K) && snprintf(fused, n, "gid + %lld", (long long)(lo * x->in->size / 16)) <
		       (int)n && (lo * x->in->size) % 16 == 0 ? K : 0;
	return gm_trace_map_expr(&f, k->l->block, k->l->grid, 1, 0, fused, n) < 0 ? 0 : K;
}

int tf_wide_fields(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	static int used[GM_TRACE_MAX_INSNS], g[GM_TRACE_MAX_INSNS];
	static char fused[FLD_MAXG][FLD_LEN];
	static struct gm_trace_instr wide[FLD_MAXG];
	static struct tk_swap sw[GM_TRACE_MAX_INSNS];
	struct gm_launch_out o;
	char why[200];
	int nsw = 0, nrec = 0, lead = -1, K = 0, nf = 0, L = 1;   /* L: lanes a record (record_lanes), one L */

	if (!k->pred_ok || !(k->time_ms > 0) || k->nins > GM_TRACE_MAX_INSNS)
		return -1;
	memset(used, 0, sizeof(used));
	struct gm_trace_insn *ins2 = malloc(sizeof(*ins2) * (size_t)k->nins);
	if (!ins2)
		return -1;
	memcpy(ins2, k->ins, sizeof(*ins2) * (size_t)k->nins);
	for (int i = 0; i < k->nins && nrec < FLD_MAXG; i++) {
		int m = 0, r = record_of(k, i, used, g, &m, fused[nrec], FLD_LEN);
		int lr = r ? r * k->ins[g[0]].in->size / 16 : 0;
		if (!r || nsw + m > GM_TRACE_MAX_INSNS || (lr > 1 && L > 1 && lr != L))
			continue;
		L = lr > 1 ? lr : L;
		wide[nrec] = *k->ins[g[0]].in;
		wide[nrec].size = lr > 1 ? 16 : k->ins[g[0]].in->size * r;
		ins2[g[0]].in = &wide[nrec];
		sw[nsw++] = (struct tk_swap){ g[0], fused[nrec], 1, 0, lr > 1 ? lr * k->threads : 0 };
		for (int q = 0; q < m; q++) {
			used[g[q]] = 1;
			if (q)
				sw[nsw++] = (struct tk_swap){ g[q], NULL, 0, 0, 0 };   /* the record's other fields: in it */
		}
		int lanes_lead = lead >= 0 && K * k->ins[lead].in->size > 16;   /* record_lanes's records lead: */
		if (lead < 0 || (lr > 1 && !lanes_lead) ||                      /* they set the launch */
		    ((lr > 1) == lanes_lead && k->ins[g[0]].bytes > k->ins[lead].bytes))
			lead = g[0], K = r;
		nf += m;
		nrec++;
	}
	struct gm_trace_kernel k2 = *k;
	k2.ins = ins2;
	int rc = nrec ? tk_predict(&k2, prof, -1, sw, nsw, &o, why, sizeof(why)) : -1;
	free(ins2);
	if (rc)
		return -1;
	struct gm_launch_out kept;   /* the kernel without the records' fields: the part the change leaves */
	for (int q = 0; q < nsw; q++)
		sw[q] = (struct tk_swap){ sw[q].ins, NULL, 0, 0, 0 };
	double t_kept = !tk_predict(k, prof, -1, sw, nsw, &kept, why, sizeof(why)) ? kept.time_ms : 0;
	const struct gm_trace_insn *x = &k->ins[lead];
	int vb = K * x->in->size, lanes = vb > 16 ? vb / 16 : 1;
	double s = tf_kernel_speedup_part(k, prof, o.time_ms, t_kept, (double)K / lanes, (double)K / lanes, 0, 0);
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = tf_whole_fix(k, lead, nf, s);
	if (lanes > 1) {
		snprintf(fx->rewrite, sizeof(fx->rewrite), "record_lanes");
		snprintf(fx->change, sizeof(fx->change), "%d lanes a %d-byte record, each reading and writing 16 B of it as "
			 "one vector (a warp %d records; %dx the threads), not a thread a record in %d accesses of %d B",
			 lanes, vb, 32 / lanes, lanes, K, x->in->size);
		snprintf(fx->words, sizeof(fx->words), "each thread walks its own %d-byte record in %d accesses of %d B "
			 "while the warp's lanes sit a record apart (%d B): give a record to %d lanes, each taking 16 B of "
			 "it as a float4 / uint4, so that a warp reads %d whole records in one coalesced access", vb, K,
			 x->in->size, vb, lanes, 32 / lanes);
		snprintf(fx->sketch, sizeof(fx->sketch), "// %d lanes a record: lane q of record r reads its 16 B q\n"
			 "long t = (long)blockIdx.x * blockDim.x + threadIdx.x, r = t / %d;   // %dx the threads\n"
			 "float4 v = reinterpret_cast<const float4 *>(x)[t];   // record r's part t %% %d\n"
			 "// ... shuffle within the %d lanes where a result needs the whole record ...\n"
			 "reinterpret_cast<float4 *>(out)[t] = v;", lanes, lanes, lanes, lanes, lanes);
		for (int i = 0; i < k->nins; i++)
			if (i != lead && used[i])
				k->ins[i].fix.same_as = lead + 1;
		return lead;
	}
	snprintf(fx->rewrite, sizeof(fx->rewrite), "wide_fields");
	snprintf(fx->change, sizeof(fx->change), "each thread reads and writes its %d-byte record as one %d-byte vector, "
		 "not as %d accesses of %d B (%d instructions -> %d)", vb, vb, K, x->in->size, nf, nrec);
	snprintf(fx->words, sizeof(fx->words), "each thread touches the %d fields of one %d-byte record one at a time "
		 "(lanes %d B apart, every byte used): %d times the instructions and %d B in flight a load. Read and "
		 "write the record as one %s (the record %d B aligned): index %.60s", K, vb, vb, K, x->in->size,
		 vb == 16 ? "float4 / uint4" : "float2 / uint2", vb, fused[0]);
	snprintf(fx->sketch, sizeof(fx->sketch), "// was: x[i*%d + 0], x[i*%d + 1] ... one %d-byte field at a time\n"
		 "%s r = reinterpret_cast<const %s *>(x)[i];   // the %d fields at once\n"
		 "// ... the same arithmetic on r's fields ...\nreinterpret_cast<%s *>(out)[i] = r;",
		 K, K, x->in->size, vb == 16 ? "float4" : "float2", vb == 16 ? "float4" : "float2", K,
		 vb == 16 ? "float4" : "float2");
	for (int i = 0; i < k->nins; i++)
		if (i != lead && used[i])
			k->ins[i].fix.same_as = lead + 1;
	return lead;
}
