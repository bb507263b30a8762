/*
 * trace_run_layout.c - a program-level rule of `gpumem trace` (docs/TRACE.md, "The run"; trace_run.h) on two
 * consecutive launches a (ordinal k) and b (k + 1):
 * - layout_copy: a only moves data (every global access a fitted load of one buffer or a fitted store to another,
 *   one element size, as many bytes stored as loaded) and its stores put the elements in another order: the store's
 *   map walks the thread and block ids in another order of strides than the load's (two ids swap which one walks
 *   the larger stride: a tiled transpose), or the sampled lanes, sorted by the address each loads, store in
 *   another order (1 % of neighbouring pairs or more reversed: a naive transpose, a permutation); b loads the copy once (as many bytes as a stored), stores nothing into it or the original, and no
 *   later traced launch reads it (set 26's tsum: a [8192][4096] matrix transposed, tiled and efficient, so that a
 *   warp a row can sum the copy's rows: column sums). Fix: b reads the original with the indices swapped, its
 *   threads on neighbouring elements of the original so its loads stay coalesced (column sums: threads on
 *   neighbouring columns), and a goes. Saving: a's measured time; b's is kept (the same bytes, read in the
 *   original's order). Refused: a copy in the same order (rules reload and clone are about those), a copy that
 *   converts (another element size) or gathers through an index (more bytes loaded than stored), a reader that reads
 *   the copy more than once (a matrix product wants its layout: the copy pays), a copy read again later.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_run.h"

/* the stride of map m's mode like key (the same id, divisor and size), 0 if m has none */
static int64_t stride_of(const struct gm_trace_map *m, const struct gm_trace_mode *key)
{
	for (int i = 0; i < m->nmodes; i++)
		if (m->mode[i].var == key->var && m->mode[i].div == key->div && m->mode[i].size == key->size)
			return llabs(m->mode[i].stride);
	return 0;
}

/* maps a and b have the same modes, and two of them walk the larger stride in a and the smaller in b */
static int permuted(const struct gm_trace_map *a, const struct gm_trace_map *b)
{
	int64_t sa[GM_TRACE_MODES], sb[GM_TRACE_MODES];
	int flip = 0;

	if (a->nmodes != b->nmodes || a->nmodes < 2)
		return 0;
	for (int i = 0; i < a->nmodes; i++) {
		sa[i] = llabs(a->mode[i].stride), sb[i] = stride_of(b, &a->mode[i]);
		if (!sb[i] || !sa[i])
			return 0;
	}
	for (int i = 0; i < a->nmodes; i++)
		for (int j = i + 1; j < a->nmodes; j++)
			flip |= sa[i] != sa[j] && sb[i] != sb[j] && (sa[i] < sa[j]) != (sb[i] < sb[j]);
	return flip;
}

static int by_first(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* the samples of load x and store y (of one thread each, the same block, warp and iteration) put the stores in
   another order than the loads: of the sampled lanes sorted by the address each loads, neighbouring pairs that
   store in the opposite order, 1 % or more (a copy in the same order, at any offset, has none) */
static int reordered(const struct gm_trace_insn *x, const struct gm_trace_insn *y)
{
	static int64_t pairs[2 * GM_WARP_SIZE * 1024];
	const struct gm_trace_instr *a = x->in, *b = y->in;
	int n = 0, inv = 0;

	for (int i = 0; i < a->nsamples; i++)
		for (int j = 0; j < b->nsamples && n < 1024 * GM_WARP_SIZE; j++) {
			const struct gm_trace_sample *p = &a->samples[i], *q = &b->samples[j];
			if (memcmp(p->block, q->block, sizeof(p->block)) || p->warp != q->warp || p->iter != q->iter)
				continue;
			for (int l = 0; l < GM_WARP_SIZE; l++)
				if ((p->have & q->have) >> l & 1)
					pairs[2 * n] = p->addr[l], pairs[2 * n + 1] = q->addr[l], n++;
			break;
		}
	qsort(pairs, (size_t)n, 2 * sizeof(pairs[0]), by_first);
	for (int i = 1; i < n; i++)
		inv += pairs[2 * i] > pairs[2 * i - 2] && pairs[2 * i + 1] < pairs[2 * i - 1];
	return n >= 64 && inv >= 2 && inv * 100 >= n;
}

struct span {
	int64_t lo, hi;
	double bytes;   /* the elements' bytes: threads x accesses x size */
	int first;      /* the first instruction, -1: none */
};

static void span_add(struct span *s, const struct gm_trace_insn *x, int i, int64_t lo, int64_t hi)
{
	if (s->first < 0)
		s->first = i, s->lo = lo, s->hi = hi;
	s->lo = lo < s->lo ? lo : s->lo;
	s->hi = hi > s->hi ? hi : s->hi;
	s->bytes += x->in->thread_accesses * x->in->size;
}

/* a only moves data: its loads' buffer *src, its stores' *dst, disjoint, as many bytes each, one size: 0 */
static int mover(const struct gm_trace_kernel *a, struct span *src, struct span *dst)
{
	int size = 0;

	*src = *dst = (struct span){ .first = -1 };
	for (int i = 0; i < a->nins; i++) {
		const struct gm_trace_insn *x = &a->ins[i];
		int64_t lo, hi;
		if (x->in->space != GM_TS_GLOBAL)
			continue;
		int ld = x->in->op == GM_TO_LOAD;
		if ((!ld && x->in->op != GM_TO_STORE) || !tr_walk(x, x->in->op) || (size && x->in->size != size) ||
		    !tr_range(x, x->in->op, &lo, &hi))
			return -1;
		size = x->in->size;
		span_add(ld ? src : dst, x, i, lo, hi);
	}
	if (src->first < 0 || dst->first < 0 || tr_overlap(src->lo, src->hi, dst->lo, dst->hi) > 0 ||
	    fabs(src->bytes - dst->bytes) > 0.01 * dst->bytes)
		return -1;
	const struct gm_trace_insn *x = &a->ins[src->first], *y = &a->ins[dst->first];
	return permuted(&x->fit.map, &y->fit.map) || reordered(x, y) ? 0 : -1;
}

/* b loads dst once, all of it (*ld its first load), and stores nothing into dst or src: 0 */
static int one_read(const struct gm_trace_kernel *b, const struct span *src, const struct span *dst, int *ld)
{
	double got = 0;
	int64_t lo, hi;

	*ld = -1;
	for (int i = 0; i < b->nins; i++) {
		const struct gm_trace_insn *x = &b->ins[i];
		if (x->in->space != GM_TS_GLOBAL || !tk_range_of(x->in, &lo, &hi))
			continue;
		hi += x->in->size;
		int on_dst = tr_overlap(lo, hi, dst->lo, dst->hi) > 0, on_src = tr_overlap(lo, hi, src->lo, src->hi) > 0;
		if (x->in->op != GM_TO_LOAD && (on_dst || on_src))
			return -1;
		if (x->in->op == GM_TO_LOAD && on_dst) {
			got += x->in->thread_accesses * x->in->size;
			*ld = *ld < 0 ? i : *ld;
		}
	}
	return *ld >= 0 && fabs(got - dst->bytes) <= 0.01 * dst->bytes ? 0 : -1;
}

/* the global bytes b stores (elements' bytes) */
static double stored(const struct gm_trace_kernel *b)
{
	double n = 0;

	for (int i = 0; i < b->nins; i++)
		if (b->ins[i].in->space == GM_TS_GLOBAL && b->ins[i].in->op == GM_TO_STORE)
			n += b->ins[i].in->thread_accesses * b->ins[i].in->size;
	return n;
}

static void layout_words(const struct gm_trace_report *r, struct gm_trace_run_finding *f, const struct span *src)
{
	const struct gm_trace_kernel *a = &r->k[f->first], *b = &r->k[f->second];
	char wa[64], ws[64], wb[64], how[300];

	tr_where(&a->ins[src->first], wa, sizeof(wa));
	tr_where(&a->ins[f->ins_first], ws, sizeof(ws));
	tr_where(&b->ins[f->ins_second], wb, sizeof(wb));
	if (stored(b) * 64 <= src->bytes)   /* the reader reduces the copy */
		snprintf(how, sizeof(how), "launch %lld reduces it: sums along the copy's rows are sums down the "
			 "original's columns, threads on neighbouring columns each summing down its column (partial sums "
			 "over chunks of rows for parallelism, then a small pass over the partials)", (long long)b->l->index);
	else
		snprintf(how, sizeof(how), "where launch %lld's own output order needs the copy's, stage a tile of the "
			 "original through shared memory in launch %lld itself (the transpose fused into the reader)",
			 (long long)b->l->index, (long long)b->l->index);
	snprintf(f->words, sizeof(f->words), "launch %lld (%s) only moves data: it loads %.1f MB from 0x%llx (at %s) "
		 "and stores the same bytes from 0x%llx (at %s) in another order (by its maps or its sampled lanes: a "
		 "transpose, or a permutation of the axes); the next launch, %lld (%s), loads that copy once, every "
		 "element (at %s), and no later traced launch reads it: a transposed copy materialised for one reader. "
		 "Read the original in launch %lld with the indices swapped (copy[j][i] is x[i][j]) and drop launch "
		 "%lld, keeping the reader's loads coalesced (neighbouring threads on neighbouring elements of the "
		 "original): %s. Launch %lld's %.4f ms (%.1f MB of sectors) are %.0f %% of the run's %.4f ms; launch "
		 "%lld's time is kept (the same bytes, read in the original's order)", (long long)a->l->index,
		 tr_name(a), src->bytes / 1e6, (long long)src->lo, wa, (long long)f->lo, ws, (long long)b->l->index,
		 tr_name(b), wb, (long long)b->l->index, (long long)a->l->index, how, (long long)a->l->index,
		 f->saved_ms, f->bytes / 1e6, 100 * f->saved_ms / r->across.run_ms, r->across.run_ms,
		 (long long)b->l->index);
	snprintf(f->sketch, sizeof(f->sketch), "// before: transpose<<<g, b>>>(x, xt);  row_sums<<<g2, b2>>>(xt, s);  "
		 "// s[j] = sum_i xt[j][i]\n// after:  col_sums<<<g3, b3>>>(x, s);  // s[j] = sum_i x[i][j], lanes on "
		 "neighbouring j");
}

int tr_layout_copy(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f)
{
	const struct gm_trace_kernel *a = &r->k[ia], *b = &r->k[ia + 1];
	struct span src, dst;
	double t = r->across.run_ms;
	int ld;

	if (b->l->index != a->l->index + 1 || mover(a, &src, &dst) || one_read(b, &src, &dst, &ld) ||
	    !tr_dead_after(r, ia + 1, dst.lo, dst.hi) || !(a->time_ms > 0) || t / (t - a->time_ms) < GM_TRACE_WORTH)
		return -1;
	f->rule = GM_TR_LAYOUT_COPY, f->first = ia, f->second = ia + 1, f->ins_first = dst.first, f->ins_second = ld;
	f->lo = dst.lo, f->hi = dst.lo + (int64_t)llround(dst.bytes);
	f->bytes = 0;
	for (int i = 0; i < a->nins; i++)
		if (a->ins[i].in->space == GM_TS_GLOBAL)
			f->bytes += a->ins[i].bytes;
	f->saved_ms = a->time_ms;
	layout_words(r, f, &src);
	return 0;
}
