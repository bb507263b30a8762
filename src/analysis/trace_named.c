/*
 * trace_named.c - what the SASS, the allocations and the addresses name beyond sectors (docs/TRACE.md, "Named
 * patterns"): the verdict's candidates for a volatile pointer (strong loads L1 never serves), a block's sum done
 * by one thread (a lane alone reading the block's shared data), a global buffer used as a block's staging area
 * (its threads read back what other threads of the block stored), a __constant__ table indexed by lane-varying
 * values (the SASS's LDC with a per-lane register index) and mapped host memory (every load across the host
 * link). Each is a mechanism of the document, never a kernel's name; trace_verdict.c ranks them with the rest.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

/* a load whose SASS is a strong (system- or device-scope) load: `volatile` (ld.volatile -> LDG.E.STRONG.SYS) or
   a relaxed atomic load; it is never served by L1 */
static int strong_load(const struct gm_trace_instr *in)
{
	return in->space == GM_TS_GLOBAL && in->op == GM_TO_LOAD && in->sass && strstr(in->sass, ".STRONG.");
}

/* trace_verdict.c's rule for bytes above the need: near the roof (60 % of it or more) they are the cause of the
   bandwidth limit and come first */
static double near_roof(const struct gm_trace_kernel *k)
{
	return k->roof_pct >= 60 ? 0.5 : 0;
}

static int same_warp(const struct gm_trace_sample *a, const struct gm_trace_sample *b)
{
	return a->warp == b->warp && a->iter == b->iter && !memcmp(a->block, b->block, sizeof(a->block));
}

/* the 32 B sectors of a sampled request into v (at most 32 distinct), how many */
static int sectors_of(const struct gm_trace_sample *s, int64_t *v)
{
	int n = 0;

	for (int l = 0; l < GM_WARP_SIZE; l++) {
		if (!((s->mask >> l) & 1u))
			continue;
		int64_t x = (int64_t)(s->addr[l] / GM_SECTOR_BYTES), seen = 0;
		for (int q = 0; q < n && !seen; q++)
			seen = v[q] == x;
		if (!seen)
			v[n++] = x;
	}
	return n;
}

/* The strong loads' re-reads: over the sampled warps every strong load sampled, the sectors a warp reads again
   (read by another of its strong loads) over all it reads, what L1 would serve of them as plain loads; -1 when no
   warp is sampled by two of them. */
static double strong_rereads(const struct gm_trace_kernel *k)
{
	double all = 0, again = 0;
	int64_t *seen = malloc(sizeof(int64_t) * GM_WARP_SIZE * GM_TRACE_MAX_INSNS), v[GM_WARP_SIZE];

	for (int i = 0; seen && i < k->nins; i++) {
		const struct gm_trace_instr *a = k->ins[i].in;
		for (int s = 0; strong_load(a) && s < a->nsamples; s++) {
			int n = 0, first = 1;
			for (int j = 0; j < i && first; j++)   /* each warp once: at its first strong load */
				for (int q = 0; strong_load(k->ins[j].in) && q < k->ins[j].in->nsamples && first; q++)
					first = !same_warp(&k->ins[j].in->samples[q], &a->samples[s]);
			for (int j = i; first && j < k->nins; j++)
				for (int q = 0; strong_load(k->ins[j].in) && q < k->ins[j].in->nsamples; q++) {
					const struct gm_trace_sample *b = &k->ins[j].in->samples[q];
					if (!same_warp(b, &a->samples[s]))
						continue;
					int m = sectors_of(b, v);
					for (int x = 0; x < m; x++) {
						int dup = 0;
						for (int y = 0; y < n && !dup; y++)
							dup = seen[y] == v[x];
						all++;
						again += dup;
						if (!dup && n < GM_WARP_SIZE * GM_TRACE_MAX_INSNS)
							seen[n++] = v[x];
					}
				}
		}
	}
	free(seen);
	return all > 0 && again > 0 ? again / all : all > 0 ? 0 : -1;
}

static int volatile_loads(const struct gm_trace_kernel *k, struct tk_named *c)
{
	double sh = 0;
	int lead = -1, n = 0;
	char w[96];

	for (int i = 0; i < k->nins; i++)
		if (strong_load(k->ins[i].in)) {
			sh += k->ins[i].share, n++;
			lead = lead < 0 || k->ins[i].bytes > k->ins[lead].bytes ? i : lead;
		}
	double again = lead >= 0 ? strong_rereads(k) : -1;
	if (lead < 0 || !(again > 0))
		return 0;   /* nothing an L1 would have served: the strong load costs what a plain one does */
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	c->score = sh * again + near_roof(k);   /* the re-reads are sectors above the need (at L2) */
	c->ins = lead;
	snprintf(c->text, sizeof(c->text), "a volatile pointer at %.60s: %d %.20s loads (%.0f %% of the traffic) L1 never "
		 "serves, %.0f %% of their sectors a warp's re-reads fetched from L2 again: read through const "
		 "__restrict__ or __ldg", w, n, k->ins[lead].in->sass, 100 * sh, 100 * again);
	return 1;
}

/* A lane alone (thread_accesses = executions) reading shared memory in a loop, as many bytes a block as its threads
   or more: one thread going through what the block's threads wrote, a serial sum (the other lanes wait at the
   barrier after it). */
static int one_lane_sum(const struct gm_trace_kernel *k, struct tk_named *c)
{
	const struct gm_trace_launch *l = k->l;
	double blocks = (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2], bytes = 0, ex = 0;
	int tpb = l->block[0] * l->block[1] * l->block[2], lead = -1, n = 0;
	char w[96];

	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *in = k->ins[i].in;
		if (in->space != GM_TS_SHARED || in->op != GM_TO_LOAD || !(in->executions >= 2 * blocks) ||
		    in->thread_accesses > 1.05 * in->executions)
			continue;
		bytes += in->executions * in->size / blocks, ex += in->executions / blocks, n++;
		lead = lead < 0 || in->executions * in->size > k->ins[lead].in->executions * k->ins[lead].in->size ? i : lead;
	}
	if (lead < 0 || bytes < tpb)
		return 0;
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	c->score = 0.5;   /* the time is the lone lane's chain, which no memory figure measures: named second to a
			     roof or a pattern that takes more than half */
	c->ins = lead;
	snprintf(c->text, sizeof(c->text), "a block's sum done by one thread at %.60s: one lane reads %.0f B of shared "
		 "memory a block in %.0f loads for the block's %d threads while the others wait: reduce with the whole "
		 "block (warp shuffles)", w, bytes, ex, tpb);
	return 1;
}

/* Global loads after a global store (by pc) whose sampled lanes read words that another lane of the same block
   stored (the store's samples of that block): the block's threads exchange data through global memory, a staging
   buffer that shared memory would hold. The loads' share of the traffic; *lead the first such load, *st the
   store. */
static double scratch_reads(const struct gm_trace_kernel *k, int *lead, int *st)
{
	double sh = 0;

	*lead = *st = -1;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_instr *ld = k->ins[i].in;
		int hit = 0;
		if (ld->space != GM_TS_GLOBAL || ld->op != GM_TO_LOAD)
			continue;
		for (int j = 0; j < k->nins && !hit; j++) {
			const struct gm_trace_instr *s = k->ins[j].in;
			if (s->space != GM_TS_GLOBAL || s->op != GM_TO_STORE || s->pc >= ld->pc)
				continue;
			for (int a = 0; a < ld->nsamples && !hit; a++)
				for (int b = 0; b < s->nsamples && !hit; b++) {
					const struct gm_trace_sample *x = &ld->samples[a], *y = &s->samples[b];
					if (memcmp(x->block, y->block, sizeof(x->block)))
						continue;
					for (int p = 0; p < GM_WARP_SIZE && !hit; p++)
						for (int q = 0; q < GM_WARP_SIZE && !hit && ((x->mask >> p) & 1u); q++)
							hit = ((y->mask >> q) & 1u) && x->addr[p] == y->addr[q] &&
							      (x->warp != y->warp || p != q);
				}
			if (hit && *st < 0)
				*st = j;
		}
		if (hit) {
			sh += k->ins[i].share;
			*lead = *lead < 0 ? i : *lead;
		}
	}
	return sh;
}

static int global_scratch(const struct gm_trace_kernel *k, struct tk_named *c)
{
	int lead, st;
	double sh = scratch_reads(k, &lead, &st);
	char w[96], ws[96];

	if (lead < 0 || st < 0)
		return 0;
	gm_trace_where(k->ins[st].in, 60, ws, sizeof(ws));
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	c->score = sh + k->ins[st].share + near_roof(k);   /* the buffer's stores and loads are all above the need */
	c->ins = st;
	snprintf(c->text, sizeof(c->text), "a global scratch buffer as the block's staging area: stored at %.60s, read "
		 "back by other threads of the block at %.60s (%.0f %% of the traffic): stage it in shared memory", ws, w,
		 100 * sh);
	return 1;
}

/* the time a launch's lane-indexed LDC take at d distinct addresses a warp: each LDC once a warp (an unrolled or
   straight-line read; a loop takes more), TK_CONST_ADDR_NS a distinct address on one SM, the warps over the SMs */
double tk_const_lane_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int d)
{
	const struct gm_trace_launch *l = k->l;
	double tpb = l->block[0] * l->block[1] * l->block[2];
	double warps = (double)l->grid[0] * (double)l->grid[1] * (double)l->grid[2] * ceil(tpb / GM_WARP_SIZE);
	double sms = prof && prof->sm_count > 0 ? prof->sm_count : 0;

	return l->const_lane > 0 && sms > 0 ? warps * l->const_lane * d * TK_CONST_ADDR_NS / sms * 1e-6 : 0;
}

static int constant_lanes(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c)
{
	const struct gm_trace_launch *l = k->l;
	double t = tk_const_lane_ms(k, prof, GM_WARP_SIZE);
	char w[96];

	if (l->const_lane <= 0)
		return 0;
	if (l->const_lane_file && l->const_lane_line > 0)
		snprintf(w, sizeof(w), "%.60s:%d", strrchr(l->const_lane_file, '/') ? strrchr(l->const_lane_file, '/') + 1 :
			 l->const_lane_file, l->const_lane_line);
	else
		snprintf(w, sizeof(w), "pc %lld", (long long)l->const_lane_pc);
	c->score = k->time_ms > 0 && t > 0 ? fmin(1, t / k->time_ms) : 0.5;
	c->ins = -1;
	c->time = 1;
	snprintf(c->text, sizeof(c->text), "a __constant__ table indexed by lane at %.60s (%d LDC, a per-lane index): "
		 "the constant cache serialises a warp's distinct addresses, up to %.4f ms at 32 (not sampled: a bound): "
		 "read it from global memory (__ldg) or shared memory", w, l->const_lane, t);
	return 1;
}

/* The bytes the kernel's accesses to mapped host memory move (the sectors they touch), 0 without; *lead the
   largest. */
double tk_host_bytes(const struct gm_trace_kernel *k, int *lead)
{
	double b = 0;

	*lead = -1;
	for (int i = 0; i < k->nins; i++)
		if (k->ins[i].in->host && k->ins[i].in->space == GM_TS_GLOBAL) {
			b += k->ins[i].bytes;
			*lead = *lead < 0 || k->ins[i].bytes > k->ins[*lead].bytes ? i : *lead;
		}
	return b;
}

static int host_memory(const struct gm_trace_kernel *k, struct tk_named *c)
{
	int lead;
	double b = tk_host_bytes(k, &lead), t = b / TK_MAPPED_GBS * 1e-6;
	char w[96];

	if (lead < 0)
		return 0;
	gm_trace_where(k->ins[lead].in, 60, w, sizeof(w));
	c->score = k->time_ms > 0 ? fmin(1, t / k->time_ms) : 1;
	c->ins = lead;
	c->time = 1;
	snprintf(c->text, sizeof(c->text), "mapped host memory at %.60s: %.1f MB cross the host link at %.0f GB/s "
		 "(%.4f ms): copy it to device memory once (cudaMemcpy), or managed memory with cudaMemPrefetchAsync", w,
		 b / 1e6, TK_MAPPED_GBS, t);
	return 1;
}

int tk_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c, int max)
{
	int n = 0;

	memset(c, 0, sizeof(*c) * (size_t)max);
	if (n < max)
		n += host_memory(k, &c[n]);
	if (n < max)
		n += constant_lanes(k, prof, &c[n]);
	if (n < max)
		n += volatile_loads(k, &c[n]);
	if (n < max)
		n += one_lane_sum(k, &c[n]);
	if (n < max)
		n += global_scratch(k, &c[n]);
	if (n < max)   /* rule spill (trace_fix_spill.c) */
		n += tk_spill_named(k, prof, &c[n]);
	if (n < max)   /* rule search_chain (trace_fix_chain.c) */
		n += tk_chain_named(k, prof, &c[n]);
	if (n < max)   /* rules GC and U1 (trace_atomic_use.c) */
		n += tk_atomic_named(k, prof, &c[n], max - n);
	return n;
}
