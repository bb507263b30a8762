/*
 * trace_class_global.c - the class in words of one global access (docs/TRACE.md, "Classes"): from its fitted map
 * (coalesced, misaligned, lanes masked by the data or by parity, short rows, transposed, column walk, strided,
 * irregular) or, where no map fits, from its sampled lanes (a column walk or stride lane by lane, irregular row
 * starts, computed coordinates). trace_class.c fits, counts and calls these; a gather stays its own.
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

int64_t tc_map_at(const struct gm_trace_launch *l, const struct gm_trace_map *m, int64_t tid)
{
	struct gm_trace_sample s = { { 0, 0, 0 }, (int)(tid / 32), 0, 0, 0, { 0 } };
	int64_t v[GM_TV_N];

	tf_vars_of(l, &s, (int)(tid % 32), v);
	return gm_trace_map_eval(m, v);
}

/* The smallest |stride| of a mode that is not the lanes' own (the axis that walks along a row). */
static int64_t other_axis(const struct gm_trace_map *m, int64_t lane_stride)
{
	int64_t best = 0;

	for (int k = 0; k < m->nmodes; k++) {
		int64_t s = m->mode[k].stride < 0 ? -m->mode[k].stride : m->mode[k].stride;
		int lane_mode = (m->mode[k].var == GM_TV_TX || m->mode[k].var == GM_TV_GID) && m->mode[k].div == 1;
		if (s && !lane_mode && s < lane_stride && (!best || s < best))
			best = s;
	}
	return best;
}

static int warp_rows_of(int bx, int tpb)   /* the most rows of bx threads a warp of a block of tpb holds pieces of */
{
	int most = 0;
	for (int w = 0; w < (tpb + 31) / 32; w++) {
		int hi = 32 * w + 31 < tpb ? 32 * w + 31 : tpb - 1, rows = hi / bx - 32 * w / bx + 1;
		most = rows > most ? rows : most;
	}
	return most;
}

/* p when the sampled warps' active lanes keep to one residue of every p-th lane: 3 in 4 of the warps with 2 active
   lanes or more (2 such warps at least), each with at least half of its residue's lanes active (2 at least) and none
   off it (a full warp fits no p). The largest of 8, 4, 2 that fits; 0 when none does. */
int tc_parity_period(const struct gm_trace_instr *in)
{
	for (int p = 8; p >= 2; p /= 2) {
		int warps = 0, fit = 0, need = GM_WARP_SIZE / p / 2 > 2 ? GM_WARP_SIZE / p / 2 : 2;
		for (int i = 0; i < in->nsamples; i++) {
			uint32_t h = in->samples[i].have;
			if (__builtin_popcount(h) < 2)
				continue;
			warps++;
			for (int r = 0; r < p; r++) {
				uint32_t on = 0;
				for (int j = r; j < GM_WARP_SIZE; j += p)
					on |= 1u << j;
				fit += !(h & ~on) && __builtin_popcount(h) >= need;
			}
		}
		if (warps >= 2 && 4 * fit >= 3 * warps)
			return p;
	}
	return 0;
}

/* A map of consecutive lanes whose warps keep only every p-th lane (tc_parity_period: a red-black sweep's colour
   test): the active lanes p elements apart, the sectors' other bytes the idle lanes' (set 27's rb_sweep_naive). */
static int parity_lanes(const struct gm_trace_instr *in, struct gm_trace_fit *f, double per, int B)
{
	int p = tc_parity_period(in);
	char idle[24];

	if (!p)
		return 0;
	f->cls = GM_TC_STRIDED, f->cls_k = p;
	snprintf(idle, sizeof(idle), p == 2 ? "every other lane" : "%d lanes in %d", p - 1, p);
	snprintf(f->cls_text, sizeof(f->cls_text), "strided by %d (%s idle by a parity test, as a checkerboard's "
		 "colour: lanes %d B apart, %.2f sectors a request where %.2f do)", p, idle, p * B, per, f->ideal_per_req);
	return 1;
}

/* A map whose first lanes step by sx but whose warp breaks into runs (lane t of warp 0 off the step), every warp
   on its sector and every lane active: the lanes in runs of t consecutive elements that the map places apart (a
   bit interleave such as a Morton index, a swizzle): the sectors above the need are the map's, neither the start's
   nor a mask's (set 12's swz_scatter). Where the warps start off their sectors (rows of an odd pitch in pieces) the
   class stays misaligned. */
static int scattered_runs(const struct gm_trace_launch *l, struct gm_trace_fit *f, int64_t sx, double per)
{
	int64_t bt = (int64_t)l->block[0] * l->block[1] * l->block[2], n = bt < GM_WARP_SIZE ? bt : GM_WARP_SIZE, t;
	int64_t prev = tc_map_at(l, &f->map, 0);

	for (t = 1; t < n; t++) {
		int64_t cur = tc_map_at(l, &f->map, t);
		if (cur - prev != sx)
			break;
		prev = cur;
	}
	if (t >= n)
		return 0;
	f->cls = GM_TC_IRREGULAR, f->cls_k = t;
	snprintf(f->cls_text, sizeof(f->cls_text), "irregular (lanes in runs of %lld element%s that the map places "
		 "apart: pieces of rows, a bit interleave, a swizzle; %.2f sectors a request where %.2f do)", (long long)t,
		 t > 1 ? "s" : "", per, f->ideal_per_req);
	return 1;
}

/* 1 when at least 1 in 8 of the lanes the sampled warps have is inactive (a mask the data or the code set). */
static int idle_lanes(const struct gm_trace_launch *l, const struct gm_trace_instr *in)
{
	int64_t bt = (int64_t)l->block[0] * l->block[1] * l->block[2];
	double lanes = 0, idle = 0;

	for (int i = 0; i < in->nsamples; i++) {
		int64_t left = bt - (int64_t)in->samples[i].warp * GM_WARP_SIZE;
		int have = left < GM_WARP_SIZE ? (int)left : GM_WARP_SIZE;
		if (have <= 0)
			continue;
		lanes += have;
		idle += have - __builtin_popcount(in->samples[i].mask & (have < 32 ? (1u << have) - 1 : ~0u));
	}
	return lanes > 0 && 8 * idle >= lanes;
}

void tc_class_global(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	const struct gm_trace_map *m = &f->map;
	int64_t x0 = tc_map_at(l, m, 0), sx = l->block[0] > 1 ? tc_map_at(l, m, 1) - x0 : 0;
	int64_t sy = l->block[1] > 1 ? tc_map_at(l, m, l->block[0]) - x0 : 0, k, row;
	double per = f->meas_per_req > 0 ? f->meas_per_req : f->sample_per_req;
	int B = in->size;

	if (!sx && l->block[0] < 32)
		sx = sy, sy = 0;
	k = sx < 0 ? -sx : sx;
	if ((k == 1 && (l->block[0] >= 32 || sy == sx * l->block[0])) || (k == 1 && !sy)) {
		int extra = per > 0 && f->ideal_per_req > 0 && per > f->ideal_per_req * 1.02;
		if (extra && parity_lanes(in, f, per, B))
			return;
		/* every warp on its sector and no lane idle: neither the start nor a mask, the map's own runs */
		int aligned = tm_aligned(l, in, f), idle = idle_lanes(l, in);
		if (extra && aligned && !idle && scattered_runs(l, f, sx, per))
			return;
		f->cls = extra && !aligned ? GM_TC_MISALIGNED : GM_TC_COALESCED;
		if (f->cls == GM_TC_MISALIGNED)
			snprintf(f->cls_text, sizeof(f->cls_text), "misaligned (the warp starts %lld B into a 32 B sector: "
				 "%.2f sectors a request where %.2f do)", (long long)(((m->base + x0 * B) % 32 + 32) % 32), per,
				 f->ideal_per_req);
		else   /* extra: every warp on its sector, the lanes the data masks leave the sectors part used */
			snprintf(f->cls_text, sizeof(f->cls_text), extra ? "coalesced%s (every warp on its 32 B sector%s: "
				 "%.2f sectors a request for the bytes of %.2f)" : "coalesced%s", sx < 0 ? " (reversed)" : "",
				 idle ? ", lanes masked by the data" : "", per, f->ideal_per_req);
		return;
	}
	if (k == 1 && l->block[0] < 32 && l->block[1] > 1) {
		int wide = per > 0 && f->ideal_per_req > 0 && per > f->ideal_per_req * 1.02;
		f->cls = wide ? GM_TC_IRREGULAR : GM_TC_COALESCED, f->cls_k = wide ? l->block[0] : 0;
		int odd = 32 % l->block[0] != 0;   /* threadIdx.x walks a row, a warp 32 / blockDim.x rows, or pieces */
		snprintf(f->cls_text, sizeof(f->cls_text), "%s (blockDim.x %hhu%s: a warp %s %hhu rows of %hu B%s)",
			 wide ? "short rows" : "coalesced", (unsigned char)l->block[0], odd ? ", not a divisor of 32" : "",
			 odd ? "holds pieces of up to" : "reads", (unsigned char)(odd ? warp_rows_of(l->block[0],
			 l->block[0] * l->block[1] * l->block[2]) : 32 / l->block[0]), (unsigned short)(l->block[0] * B),
			 wide ? "; a blockDim.x of 32, or wider accesses a thread" : "");   /* blockDim.x < 32, B <= 16 */
		return;
	}
	if (l->block[1] > 1 && (sy == 1 || sy == -1) && k > 1) {
		f->cls = GM_TC_TRANSPOSED, f->cls_k = k;
		snprintf(f->cls_text, sizeof(f->cls_text), "transposed (threadIdx.x walks a column, rows %lld elements "
			 "apart; threadIdx.y walks the row)", (long long)k);
		return;
	}
	if (!k) {
		f->cls = GM_TC_IRREGULAR;
		snprintf(f->cls_text, sizeof(f->cls_text), "irregular (threadIdx.x does not move the address; the warp's "
			 "other lanes do)");
		return;
	}
	row = other_axis(m, k);
	f->cls_k = k;
	if (row && (int64_t)k * B >= 32) {
		f->cls = GM_TC_COLUMN;
		snprintf(f->cls_text, sizeof(f->cls_text), "column walk (lanes a row of %lld elements = %lld B apart; "
			 "another axis walks the row %lld element%s at a time)", (long long)k, (long long)(k * B),
			 (long long)row, row == 1 ? "" : "s");
		return;
	}
	f->cls = GM_TC_STRIDED;
	snprintf(f->cls_text, sizeof(f->cls_text), "strided by %lld (lanes %lld B apart%s)", (long long)k,
		 (long long)(k * B), k * B <= 64 ? ": an array of structures or an interleave?" : "");
}

/* 1 with *stride (bytes) when most neighbouring sampled lanes of a global instruction (3 in 4 of the pairs of
   active lanes, over at least two warps) sit one distance apart in lane order: an address the ids make lane by
   lane, even where no map of the ids fits the warps' starts (loop bounds or row offsets that differ by thread, a
   row that ends inside a warp); addresses read from data are not. */
static int warp_affine(const struct gm_trace_instr *in, int64_t *stride)
{
	int64_t s = 0;
	int pairs = 0, same = 0, warps = 0, votes = 0;

	if (in->space != GM_TS_GLOBAL)
		return 0;
	/* Boyer-Moore majority vote over the pairs' distances, then a count of the winner */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < in->nsamples; i++) {
			const struct gm_trace_sample *x = &in->samples[i];
			int prev = -1, n = 0;
			for (int j = 0; j < GM_WARP_SIZE; j++) {
				if (!(x->have >> j & 1))
					continue;
				if (prev >= 0 && (x->addr[j] - x->addr[prev]) % (j - prev) == 0) {
					int64_t d = (x->addr[j] - x->addr[prev]) / (j - prev);
					if (pass == 0) {
						if (!votes)
							s = d;
						votes += d == s ? 1 : -1;
					} else
						same += d == s;
				}
				if (prev >= 0 && pass == 1)
					pairs++, n++;
				prev = j;
			}
			warps += n > 0;
		}
	if (!pairs || warps < 2 || s == 0 || 4 * same < 3 * pairs)
		return 0;
	*stride = s;
	return 1;
}

/* The class of an instruction no map fits whose warps are each lanes `s` bytes apart (warp_affine). */
static void classify_warp_affine(const struct gm_trace_instr *in, struct gm_trace_fit *f, int64_t s)
{
	int64_t a = s < 0 ? -s : s, B = in->size > 0 ? in->size : 1, k = a / B;
	const char *why = "no map of the ids fits their starts";

	f->cls_k = a % B ? 0 : k;
	if (a >= 128) {
		f->cls = GM_TC_COLUMN;
		snprintf(f->cls_text, sizeof(f->cls_text), "column walk (lanes %lld B apart in most of each warp: a row "
			 "each; %s)", (long long)a, why);
	} else {
		f->cls = GM_TC_STRIDED;
		snprintf(f->cls_text, sizeof(f->cls_text), "strided (lanes %lld B apart in most of each warp; %s)",
			 (long long)a, why);
	}
}

/*
 * An instruction no map fits whose sampled lanes rise with the lane (99 in 100 neighbouring pairs of active
 * lanes, at least two warps): its addresses are made from the thread ids by arithmetic or from row starts the
 * threads read in order, not picked by the data (a gather's lanes are unordered). GM_TC_ROWSTARTS when the
 * neighbouring lanes' gaps differ (more than two values in 3 warps of 4) and are rows, at least 2 elements each
 * (19 gaps in 20) and 4 on average: a thread a row whose starts come from memory (CSR's row_ptr); cls_k the mean
 * row. GM_TC_COMPUTED when the gaps take two values one unit apart, each at least 4 times a warp (3 warps in 4),
 * the smaller a multiple of the unit: a scaled coordinate rounded (a resize's floor of x * scale); cls_k the unit
 * in elements. 0 otherwise (a data gather).
 */
static int monotone_lanes(const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	int pairs = 0, rising = 0, warps = 0, varied = 0, two = 0, adj = 0, wide = 0;
	double sum = 0;
	int64_t unit = 0, B = in->size > 0 ? in->size : 1;

	if (in->space != GM_TS_GLOBAL || (in->op != GM_TO_LOAD && in->op != GM_TO_STORE))
		return 0;
	for (int i = 0; i < in->nsamples; i++) {
		const struct gm_trace_sample *x = &in->samples[i];
		int64_t g[2] = { 0, 0 };
		int ng = 0, cnt[2] = { 0, 0 }, more = 0, prev = -1, n = 0;
		for (int j = 0; j < GM_WARP_SIZE; j++) {
			if (!(x->have >> j & 1))
				continue;
			if (prev >= 0) {
				int64_t d = x->addr[j] - x->addr[prev];
				pairs++, rising += d >= 0, n++;
				sum += (double)d / (j - prev);
				if (j == prev + 1) {
					int q = ng > 0 && g[0] == d ? 0 : ng > 1 && g[1] == d ? 1 : -1;
					if (q < 0 && ng < 2)
						g[q = ng++] = d;
					if (q < 0)
						more = 1;
					else
						cnt[q]++;
					adj++, wide += d >= 2 * B;
				}
			}
			prev = j;
		}
		if (n < 3)
			continue;
		warps++;
		varied += more;
		if (!more && ng == 2 && cnt[0] >= 4 && cnt[1] >= 4) {
			int64_t lo = g[0] < g[1] ? g[0] : g[1], u = g[0] < g[1] ? g[1] - g[0] : g[0] - g[1];
			if (lo >= 0 && u >= B && lo % u == 0 && (!unit || unit == u))
				two++, unit = u;
		}
	}
	if (warps < 2 || !pairs || 100 * rising < 99 * pairs || !(sum > 0))
		return 0;
	double mean = sum / pairs / (double)B;
	if (4 * varied >= 3 * warps && 20 * wide >= 19 * adj && mean >= 4) {
		f->cls = GM_TC_ROWSTARTS;
		f->cls_k = (int64_t)(mean + 0.5);
		snprintf(f->cls_text, sizeof(f->cls_text), "column walk with irregular row starts (lanes rise by rows of "
			 "%.0f elements on average, each its own length: row starts read from memory, as CSR's)", mean);
		return 1;
	}
	if (4 * two >= 3 * warps && unit % B == 0) {
		f->cls = GM_TC_COMPUTED;
		f->cls_k = unit / B;
		snprintf(f->cls_text, sizeof(f->cls_text), "computed coordinates (lanes rise by 0 or 1 step of %lld B, "
			 "in no fixed rhythm: a scaled coordinate rounded, as a resize's; no map of the ids fits)",
			 (long long)unit);
		return 1;
	}
	return 0;
}

int tc_class_unfitted(const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	int64_t stride = 0;

	if (warp_affine(in, &stride) && stride != in->size && stride != -in->size) {
		/* consecutive lanes whose warps start where no map fits stay a gather: rows the data picks */
		classify_warp_affine(in, f, stride);
		return 1;
	}
	if (!monotone_lanes(in, f))
		return 0;
	/* rows whose starts come from memory, or coordinates computed from the ids: not the data's choice */
	char *tail = strstr(f->why, ": the addresses come from the data");
	if (tail)
		snprintf(tail, sizeof(f->why) - (size_t)(tail - f->why), ": the lanes rise in lane order");
	return 1;
}
