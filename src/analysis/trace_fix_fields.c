/*
 * trace_fix_fields.c - rule wide_fields of the trace's fixes (docs/TRACE.md, "The fix"): a thread that reads
 * (or writes) the K fields of one record as K separate accesses of s bytes each (lanes K x s B apart: a float4
 * read as four floats), every byte used, reads the record as one K x s-byte vector instead (K x s = 8 or 16 B,
 * the record aligned to it). The accesses of one walk whose fitted maps differ only by their offsets 0 .. K-1
 * and whose strides K divides are one record; the kernel is priced by the launch model with each record's
 * accesses as one pattern of K x s-byte elements (the map's strides and offset over K), the others as they are,
 * the saving taken off the measured time with the time outside the memory instructions divided by K (a record's
 * address arithmetic and issue done once, not K times).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

#define FLD_MAXG 64
#define FLD_LEN 160

/* The kernel's speedup when the model's time goes from k->mem_ms to t_new: the saving taken off the
   measured time (a compute or latency part the model does not see stays), else the predicted ratio; never
   below rules I and F's floor (trace_floor.c), its instructions divided by div (the threads that remain). */
double tf_kernel_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new, double g,
			 double div)
{
	double tp = k->mem_ms, tm = k->time_ms;   /* both without rule R2's trips: the rewrite's have none */
	double fl = tk_floor_ms(k, prof, div);

	if (t_new <= 0 || tp <= 0)
		return 1;
	if (tm > 0 && tm >= tp)   /* the unexplained part: divided by the parallelism the change adds */
		return tm / fmax(t_new + (tm - tp) / (g >= 1 ? g : 1), fl);
	return tp / fmax(t_new, fl);
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

/*
 * Instruction i's record: the fields g[] (g[0] at the lowest offset), K of them at offsets o, o+1 .. o+K-1, K
 * dividing every stride and o, K x s = 8 or 16 B; the fused index as text in fused[]. 0 when not a record.
 */
static int record_of(const struct gm_trace_kernel *k, int i, const int *used, int *g, char *fused, size_t n)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int m = 0;
	int64_t lo = x->fit.map.offset;

	if (!field_like(x) || used[i])
		return 0;
	for (int j = 0; j < k->nins && m < FLD_MAXG; j++)
		if (!used[j] && field_like(&k->ins[j]) && same_record(x, &k->ins[j])) {
			g[m++] = j;
			lo = k->ins[j].fit.map.offset < lo ? k->ins[j].fit.map.offset : lo;
		}
	int K = m, vb = K * x->in->size;
	if (K < 2 || (vb != 8 && vb != 16) || lo % K)
		return 0;
	unsigned seen = 0;
	for (int q = 0; q < m; q++) {
		int64_t d = k->ins[g[q]].fit.map.offset - lo;
		if (d < 0 || d >= K || (seen >> d & 1))
			return 0;
		seen |= 1u << d;
		if (!d) {   /* the lowest field first */
			int t = g[0];
			g[0] = g[q], g[q] = t;
		}
	}
	struct gm_trace_map f = x->fit.map;
	for (int q = 0; q < f.nmodes; q++) {
		if (f.mode[q].stride % K)
			return 0;
		f.mode[q].stride /= K;
	}
	f.offset = lo / K;
	f.elem_bytes = vb;
	return gm_trace_map_expr(&f, k->l->block, k->l->grid, 1, 0, fused, n) < 0 ? 0 : K;
}

int tf_wide_fields(struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	static int used[GM_TRACE_MAX_INSNS], g[FLD_MAXG];
	static char fused[FLD_MAXG][FLD_LEN];
	static struct gm_trace_instr wide[FLD_MAXG];
	struct tk_swap sw[FLD_MAXG];
	struct gm_launch_out o;
	char why[200];
	int nsw = 0, nrec = 0, lead = -1, K = 0, nf = 0;

	if (!k->pred_ok || !(k->time_ms > 0) || k->nins > GM_TRACE_MAX_INSNS)
		return -1;
	memset(used, 0, sizeof(used));
	struct gm_trace_insn *ins2 = malloc(sizeof(*ins2) * (size_t)k->nins);
	if (!ins2)
		return -1;
	memcpy(ins2, k->ins, sizeof(*ins2) * (size_t)k->nins);
	for (int i = 0; i < k->nins && nrec < FLD_MAXG; i++) {
		int r = record_of(k, i, used, g, fused[nrec], FLD_LEN);
		if (!r || nsw + r > FLD_MAXG)
			continue;
		wide[nrec] = *k->ins[g[0]].in;
		wide[nrec].size = k->ins[g[0]].in->size * r;
		ins2[g[0]].in = &wide[nrec];
		sw[nsw++] = (struct tk_swap){ g[0], fused[nrec], 1, 0, 0 };
		for (int q = 0; q < r; q++) {
			used[g[q]] = 1;
			if (q)
				sw[nsw++] = (struct tk_swap){ g[q], NULL, 0, 0, 0 };   /* the record's other fields: in it */
		}
		if (lead < 0 || k->ins[g[0]].bytes > k->ins[lead].bytes)
			lead = g[0], K = r;
		nf += r;
		nrec++;
	}
	struct gm_trace_kernel k2 = *k;
	k2.ins = ins2;
	int rc = nrec ? tk_predict(&k2, prof, -1, sw, nsw, &o, why, sizeof(why)) : -1;
	free(ins2);
	if (rc)
		return -1;
	double s = tf_kernel_speedup(k, prof, o.time_ms, K, K);
	if (s < GM_TRACE_WORTH)
		return -1;
	struct gm_trace_fix *fx = &k->ins[lead].fix;
	const struct gm_trace_insn *x = &k->ins[lead];
	int vb = K * x->in->size;
	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = nf;
	fx->share = 1;
	fx->pattern_speedup = fx->kernel_speedup = s;
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
