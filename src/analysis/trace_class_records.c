/*
 * trace_class_records.c - the class "whole records" (docs/TRACE.md, "Classes"): a strided access whose siblings
 * of the same thread read or write the rest of each record, so that the warp's lanes together use every byte of
 * the sectors they touch, and no wider access could do it in fewer pieces. Run over a kernel's fitted
 * instructions (trace_class.c classes each alone) before its traffic is counted: such an access wastes no sector.
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

/* a fitted strided global load or store without a loop: a piece of a record the lanes sit cls_k elements apart
   (not lanes of consecutive elements that a parity test idles: their neighbours' loads are other threads' cells) */
static int piece_like(const struct gm_trace_insn *x)
{
	const struct gm_trace_fit *f = &x->fit;

	return x->in->space == GM_TS_GLOBAL && (x->in->op == GM_TO_LOAD || x->in->op == GM_TO_STORE) &&
	       f->cls == GM_TC_STRIDED && f->map.known && !f->approx && f->iters <= 1 && !f->map.niter_tab &&
	       f->cls_k >= 2 && f->cls_k <= 32 && x->in->size > 0 && !tc_parity_period(x->in);
}

/* the same walk of the same array but for the offset: op, size, lane step, base and modes */
static int same_walk(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *x = &a->fit.map, *y = &b->fit.map;

	if (a->in->op != b->in->op || a->in->size != b->in->size || a->fit.cls_k != b->fit.cls_k || x->base != y->base ||
	    x->nmodes != y->nmodes)
		return 0;
	for (int m = 0; m < x->nmodes; m++)
		if (memcmp(&x->mode[m], &y->mode[m], sizeof(x->mode[m])))
			return 0;
	return 1;
}

/* the widest power of two up to 16 B that divides both the record's size and its first byte's address */
static int64_t widest_unit(int64_t rec, int64_t start)
{
	int64_t v = 16;

	while (v > 1 && (rec % v || ((start % v) + v) % v))
		v /= 2;
	return v;
}

/* 1 when a global access (not of the group g[0..m)) lies between the group's first and last SASS offsets */
static int interleaved(const struct gm_trace_kernel *k, const int *g, int m)
{
	int64_t lo = k->ins[g[0]].in->pc, hi = lo;

	for (int q = 1; q < m; q++) {
		lo = k->ins[g[q]].in->pc < lo ? k->ins[g[q]].in->pc : lo;
		hi = k->ins[g[q]].in->pc > hi ? k->ins[g[q]].in->pc : hi;
	}
	for (int j = 0; j < k->nins; j++) {
		int in_g = 0;
		for (int q = 0; q < m && !in_g; q++)
			in_g = g[q] == j;
		if (!in_g && k->ins[j].in->space == GM_TS_GLOBAL && k->ins[j].in->pc > lo && k->ins[j].in->pc < hi)
			return 1;
	}
	return 0;
}

/*
 * Instruction i's group (g[], *pm members: the accesses of its walk, i first) is whole records when the pieces'
 * offsets cover every residue modulo the lane step k (each record's k elements read or written by the thread, so
 * that the lanes together use every byte of the sectors they touch), when the pieces are words or wider (1- and
 * 2-byte pieces cost the thread's instructions per byte: base64's 3-byte quads, a packed 13-byte struct, whose
 * fix is several records a thread or a padded record), when no access wider than a piece tiles the
 * record (a 12-byte float3 of 4-byte pieces: widest_unit; a 16-byte record in four 4-byte pieces is one float4 and
 * stays strided, rule wide_fields), and, for stores, when the pieces are issued back to back (no other global
 * access between them: stores of one record merge before L2 only then; L1 keeps a load's lines for the next piece).
 */
static int whole_group(const struct gm_trace_kernel *k, int i, const int *done, int *g, int *pm)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int64_t K = x->fit.cls_k, lo = x->fit.map.offset;
	uint32_t seen = 0;
	int m = 0;

	for (int j = 0; j < k->nins && m < GM_TRACE_MAX_INSNS; j++)
		if (!done[j] && piece_like(&k->ins[j]) && (j == i || same_walk(x, &k->ins[j]))) {
			g[m++] = j;
			lo = k->ins[j].fit.map.offset < lo ? k->ins[j].fit.map.offset : lo;
		}
	*pm = m;
	for (int q = 0; q < m; q++)
		seen |= 1u << (((k->ins[g[q]].fit.map.offset - lo) % K + K) % K);
	if (m < 2 || seen != (K == 32 ? ~0u : (1u << K) - 1) || x->in->size < 4)
		return 0;   /* pieces under a word: the thread's instructions per byte (several records a thread) */
	if (widest_unit(K * x->in->size, x->fit.map.base + lo * x->in->size) > x->in->size)
		return -1;   /* every byte used, but one wider access would read the record (rule wide_fields) */
	return x->in->op == GM_TO_LOAD || !interleaved(k, g, m);
}

int tk_whole_records(struct gm_trace_kernel *k)
{
	int done[GM_TRACE_MAX_INSNS], g[GM_TRACE_MAX_INSNS];
	int n = 0;

	if (k->nins > GM_TRACE_MAX_INSNS)
		return 0;
	memset(done, 0, sizeof(done));
	for (int i = 0; i < k->nins; i++) {
		int m = 0;
		if (done[i] || !piece_like(&k->ins[i]))
			continue;
		int whole = whole_group(k, i, done, g, &m);
		for (int q = 0; q < m; q++) {
			struct gm_trace_fit *f = &k->ins[g[q]].fit;
			const struct gm_trace_instr *in = k->ins[g[q]].in;
			done[g[q]] = 1;
			if (whole < 0 && in->op == GM_TO_LOAD)   /* the class stays strided; its words say what it is */
				snprintf(f->cls_text, sizeof(f->cls_text), "strided by %lld (a record of %lld B read whole in %d "
					 "loads of %d B: one %lld-byte load would do)", (long long)f->cls_k,
					 (long long)(f->cls_k * in->size), m, in->size, (long long)(f->cls_k * in->size));
			if (whole <= 0)
				continue;
			f->cls = GM_TC_RECORDS;
			snprintf(f->cls_text, sizeof(f->cls_text), "whole records (the thread's %d %s of %d B %s its %lld-byte "
				 "record, lanes a record apart: no sector wasted, no wider access tiles it)", m,
				 in->op == GM_TO_LOAD ? "loads" : "stores", in->size, in->op == GM_TO_LOAD ? "read all of" :
				 "write, back to back, all of", (long long)(f->cls_k * in->size));
			n++;
		}
	}
	return n;
}
