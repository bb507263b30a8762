/*
 * trace_time_lines.c - the 128 B lines a traced request touches (docs/TRACE.md, "The kernel's prediction"): the
 * distinct lines of a sampled warp's request (rules Q and R3 count them), and rule LG, a gather's stand-in keeps
 * the sampled lines a request. A gather (no map of the ids fits) enters the launch model as lanes k elements apart
 * in its sampled footprint, k from its measured sectors a request s (trace_class.c): one sector a lane, four lanes
 * a line. Where the sampled requests touch more lines than that, with their sectors on lines of their own (a lane a
 * line: a scatter to rows the data chooses, a row walk whose address holds a value read before), rules L3 and L4,
 * which price L2's work by lines, saw a quarter of them. The stand-in then takes s addresses 128 x Ln / s bytes
 * apart (Ln: the sampled lines a request, each address its own sector), its span made coprime with the step so that
 * every sector of the footprint is still touched. Where: Ln > 1.25 x the stand-in's lines, Ln >= s / 2 (at most two
 * sectors a line: not a run), Ln >= 4 (more than a warp's misaligned run of 256 B); stores only, whose lines L2
 * merges one a request (L4, its rate measured by a store kernel) and writes back whole: a load's stand-in also sets
 * which 64 B pieces DRAM reads, and a gathered column walk (lanes on lines its neighbour warps read) would read a
 * piece a lane; atomics and reductions are L2 read-modify-writes, not L4's merges (both tried:
 * docs/log/2026-11-30-trace-k52.md). No device constant: the 32 B sector and 128 B line.
 */
#include <math.h>
#include <stdio.h>
#include "analysis/trace_internal.h"

#define LG_SECTORS 29     /* of 32: every lane its own sector (a few lanes off at a row's end) */
#define LG_MORE 1.25      /* the sampled lines over the stand-in's */
#define LG_LINES 4        /* more lines than a warp's misaligned run of 256 B (3) */

/* The distinct 128 B lines a sampled warp's request touches, the mean over the samples; without samples the
   measured sectors a request (a sector a line), else 1. */
double tk_lines_per_request(const struct gm_trace_insn *x)
{
	double tot = 0;
	int n = 0;

	for (int i = 0; i < x->in->nsamples; i++) {
		const struct gm_trace_sample *a = &x->in->samples[i];
		int64_t seen[GM_WARP_SIZE];
		int m = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1) {
				int64_t line = a->addr[l] >> 7, q = 0;
				while (q < m && seen[q] != line)
					q++;
				if (q == m)
					seen[m++] = line;
			}
		if (m)
			tot += m, n++;
	}
	if (n)
		return tot / n;
	return x->fit.meas_per_req > 0 ? x->fit.meas_per_req : 1;
}

const char *tk_gather_lines(const struct gm_trace_insn *x, char *buf, size_t n)
{
	long long k = 0, span = 0;
	int size = x->in->size;

	if (!x->fit.approx || x->in->space != GM_TS_GLOBAL || x->in->op != GM_TO_STORE || size <= 0 || size > 32 ||
	    sscanf(x->fit.expr1d, "(gid * %lld) %% %lld", &k, &span) != 2 || k <= 0 || span <= 0 ||
	    !(x->fit.meas_per_req >= 1))
		return NULL;
	long long s = llround(fmin(GM_WARP_SIZE, x->fit.meas_per_req));   /* distinct sectors a request */
	double have = fmax(1, fmin(GM_WARP_SIZE, GM_WARP_SIZE * (double)k * size / 128));   /* the stand-in's lines */
	double ln = fmin((double)s, tk_lines_per_request(x));
	if (!(ln > LG_MORE * have) || 2 * ln < s || ln < LG_LINES)   /* lanes on lines of their own, not a run */
		return NULL;
	long long k2 = llround(128 * ln / s / size);   /* s addresses 128 x ln / s bytes apart: ln lines */
	if (k2 <= k)
		return NULL;
	if (span < s * k2)
		span = s * k2;
	while (tk_gcd64(span, k2) != 1)   /* every element of the span, each wrap shifted by one */
		span++;
	if (s >= LG_SECTORS)
		snprintf(buf, n, "(gid * %lld) %% %lld", k2, span);
	else   /* s distinct addresses among the 32 lanes, lanes side by side sharing one */
		snprintf(buf, n, "((gid * %lld / 32) * %lld) %% %lld", s, k2, span);
	return buf;
}
