/*
 * trace_class.c - one instruction of a trace: its fit (trace_fit.c), its
 * class in words, and the check: the warp model's sectors (wavefronts) per
 * request for the fitted expression, on the sampled warps with their masks,
 * against the measured ones (docs/TRACE.md, "Classes" and "The check").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trace_internal.h"

static int model_size(int b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

/* The lanes of sample s as the warp model's counting rules read them. local: local memory, whose lanes give
   each its thread's own stack offset a, laid out by the hardware interleaved, lane after lane: word w of lane l
   at (w * 32 + l) * 4 within the warp's slice (4-byte words; an 8- or 16-byte access as one unit of its size,
   which counts as its words would where the lanes share an offset), so lanes at different offsets (an array
   indexed at run time) scatter over that layout. */
static void lanes_of(const struct gm_trace_sample *s, int local, int size, struct gm_lane ln[GM_WARP_SIZE])
{
	int64_t u = size > 4 ? size : 4;

	memset(ln, 0, sizeof(struct gm_lane) * GM_WARP_SIZE);
	for (int i = 0; i < GM_WARP_SIZE; i++) {
		int64_t a = s->addr[i];
		ln[i].active = (int)(s->have >> i & 1);
		ln[i].exists = 1;
		ln[i].addr = !ln[i].active ? 0 : local ? (a - a % u) * GM_WARP_SIZE + u * i + a % u : a;
	}
}

struct counts {
	double per_req, ideal;        /* sectors or wavefronts per request; ideal: min sectors / ideal wavefronts */
	int max_ways, warps;
};

static void count_lanes(const struct gm_trace_instr *in, const struct gm_lane ln[GM_WARP_SIZE], struct counts *c)
{
	if (in->space == GM_TS_SHARED) {
		struct gm_shared_counts sc;
		gm_shared_counts_of(ln, in->size, in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE, &sc);
		c->per_req += (double)sc.wavefronts;
		c->ideal += (double)sc.ideal_wavefronts;
		c->max_ways = sc.max_ways > c->max_ways ? sc.max_ways : c->max_ways;
	} else {
		struct gm_global_counts gc;
		gm_global_counts_of(ln, in->size, &gc);
		c->per_req += (double)gc.sectors;
		c->ideal += (double)gc.min_sectors;
	}
	c->warps++;
}

static void finish(struct counts *c)
{
	if (c->warps) {
		c->per_req /= c->warps;
		c->ideal /= c->warps;
	} else
		c->per_req = c->ideal = -1;
}

/* Local memory: the per-thread stack, interleaved by the hardware (lanes_of). */
static int local_interleaved(const struct gm_trace_instr *in)
{
	return in->space == GM_TS_LOCAL;
}

/* The sampled addresses as they are, counted by the warp model's rules. */
static void count_samples(const struct gm_trace_instr *in, struct counts *c)
{
	struct gm_lane ln[GM_WARP_SIZE];

	memset(c, 0, sizeof(*c));
	for (int i = 0; model_size(in->size) && i < in->nsamples; i++) {
		if (!in->samples[i].have)
			continue;
		lanes_of(&in->samples[i], local_interleaved(in), in->size, ln);
		count_lanes(in, ln, c);
	}
	finish(c);
}

/* One sampled warp's model lanes at each offset of the launch's mix (trace_mix.c), weighted by its share:
   the same lanes and mask, lane 0 moved to byte r of its sector. */
static void count_mixed(const struct gm_trace_instr *in, const struct gm_lane ln[GM_WARP_SIZE], int r0,
			const double mix[GM_SECTOR_BYTES], struct counts *c)
{
	struct gm_lane sh[GM_WARP_SIZE];
	struct gm_global_counts gc;

	for (int r = 0; r < GM_SECTOR_BYTES; r++) {
		if (!(mix[r] > 0))
			continue;
		memcpy(sh, ln, sizeof(sh));
		for (int k = 0; k < GM_WARP_SIZE; k++)
			sh[k].addr += (r - r0 + GM_SECTOR_BYTES) % GM_SECTOR_BYTES;
		gm_global_counts_of(sh, in->size, &gc);
		c->per_req += mix[r] * (double)gc.sectors;
		c->ideal += mix[r] * (double)gc.min_sectors;
	}
	c->warps++;
}

/* The warp model on the fitted expression (gm_model_predict), each sampled warp with its mask and iter; a
   global access at the launch's mix of sector offsets where it has one (docs/TRACE.md, "The check"). */
static void count_model(const struct gm_trace_launch *l, const struct gm_trace_instr *in,
			const struct gm_trace_fit *f, struct counts *c)
{
	struct gm_prediction p;
	struct gm_expr_error err;
	double mix[GM_SECTOR_BYTES];
	int mixed = model_size(in->size) && !tm_mix(l, in, f, mix);

	memset(c, 0, sizeof(*c));
	for (int i = 0; f->map.known && model_size(in->size) && i < in->nsamples; i++) {
		const struct gm_trace_sample *s = &in->samples[i];
		struct gm_access a = { 0 };
		if (!s->have)
			continue;
		a.space = in->space == GM_TS_SHARED ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
		a.op = in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE;
		a.elem_bytes = in->size;
		memcpy(a.block, l->block, sizeof(a.block));
		memcpy(a.block_idx, s->block, sizeof(a.block_idx));
		a.warp = s->warp;
		a.base = (f->map.base % 256 + 256) % 256 + gm_trace_map_iter(&f->map, s->iter) * in->size;
		a.index = f->expr;
		a.n_threads = l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
		if (gm_model_predict(&a, &p, &err) != GM_OK) {
			c->warps = 0;
			break;
		}
		for (int k = 0; k < GM_WARP_SIZE; k++)
			p.lanes[k].active = p.lanes[k].exists && (s->have >> k & 1);
		if (mixed)
			count_mixed(in, p.lanes, tm_lane0_offset(l, &f->map, s), mix, c);
		else
			count_lanes(in, p.lanes, c);
	}
	finish(c);
}

static int all_broadcast(const struct gm_trace_instr *in)
{
	int any = 0;

	for (int i = 0; i < in->nsamples; i++) {
		const struct gm_trace_sample *s = &in->samples[i];
		int64_t first = -1;
		for (int k = 0; k < GM_WARP_SIZE; k++) {
			if (!(s->have >> k & 1))
				continue;
			if (first < 0)
				first = s->addr[k];
			else if (s->addr[k] != first)
				return 0;
			any = 1;
		}
	}
	return any;
}

/* The most distinct offsets a sampled warp of a local instruction puts its lanes at. */
static int64_t local_offsets(const struct gm_trace_instr *in)
{
	int most = 0;

	for (int i = 0; i < in->nsamples; i++) {
		const struct gm_trace_sample *s = &in->samples[i];
		int n = 0;
		for (int k = 0; k < GM_WARP_SIZE; k++) {
			int first = s->have >> k & 1;
			for (int j = 0; j < k && first; j++)
				first = !(s->have >> j & 1) || s->addr[j] != s->addr[k];
			n += first;
		}
		most = n > most ? n : most;
	}
	return most;
}

double tk_turn_ns(const struct gm_trace_instr *in, const struct gm_profile *prof)
{
	if (!prof)
		return 0;
	return in->sass && strstr(in->sass, ".F") ? prof->atomic_f32_ns : prof->atomic_u32_ns;
}

double tk_warp_runs(const struct gm_trace_instr *in, double *addrs_out)
{
	double sum = 0, asum = 0;
	int n = 0;

	if (addrs_out)
		*addrs_out = 0;
	if (!tk_is_global_atomic(in))
		return 0;
	for (int s = 0; s < in->nsamples; s++) {
		const struct gm_trace_sample *a = &in->samples[s];
		int lanes = 0, addrs = 0;
		for (int l = 0; l < GM_WARP_SIZE; l++) {
			int first = 1;
			if (!(a->have >> l & 1))
				continue;
			for (int m = 0; m < l && first; m++)
				first = !(a->have >> m & 1) || a->addr[m] != a->addr[l];
			lanes++;
			addrs += first;
		}
		if (addrs) {
			sum += (double)lanes / addrs;
			asum += addrs;
			n++;
		}
	}
	if (addrs_out && n)
		*addrs_out = asum / n;
	return n ? sum / n : 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int tk_distinct(int64_t *v, int n)
{
	int d = 0;

	qsort(v, (size_t)(n > 0 ? n : 0), sizeof(v[0]), cmp_i64);
	for (int i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	return d;
}

double tk_block_sharers(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f)
{
	int64_t v[1024];
	int bt = l->block[0] * l->block[1] * l->block[2], n = 0, d = 0;
	double warps = (double)l->grid[0] * l->grid[1] * l->grid[2] * ((bt + 31) / 32);
	const char *op = in->sass ? strchr(in->sass, '.') : NULL;

	if (!tk_is_global_atomic(in) || !f->map.known || f->approx || bt <= GM_WARP_SIZE || bt > 1024 || !in->nsamples ||
	    !op || !(strstr(op, ".ADD") || strstr(op, ".MIN") || strstr(op, ".MAX")) || in->executions < 0.99 * warps)
		return 0;
	for (int t = 0; t < bt; t++)   /* block 0's threads at iteration 0, the lanes the first sample has */
		if (in->samples[0].have >> (t % GM_WARP_SIZE) & 1)
			v[n++] = tc_map_at(l, &f->map, t);
	d = tk_distinct(v, n);
	return d ? (double)n / d : 0;
}

static void classify(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f,
		     const struct counts *smp)
{
	if (in->space == GM_TS_LOCAL && all_broadcast(in)) {
		/* local addresses are the per-thread stack's offset: the hardware interleaves the threads' words */
		f->cls = GM_TC_COALESCED;
		snprintf(f->cls_text, sizeof(f->cls_text), "local memory (a per-thread stack or spills; the hardware "
			 "interleaves the threads' words)");
	} else if (in->space == GM_TS_LOCAL && f->lanes) {
		/* the lanes at different offsets of their stacks: an array indexed at run time (lanes_of's layout) */
		f->cls = GM_TC_LOCAL_INDEXED;
		f->cls_k = local_offsets(in);
		snprintf(f->cls_text, sizeof(f->cls_text), "local array indexed at run time: spilled to local memory "
			 "(the lanes at %lld offsets of their stacks, %.2f sectors a request where %.2f do)",
			 (long long)f->cls_k, f->meas_per_req > 0 ? f->meas_per_req : smp->per_req, f->ideal_per_req);
	} else if (all_broadcast(in)) {
		f->cls = GM_TC_BROADCAST;
		snprintf(f->cls_text, sizeof(f->cls_text), "broadcast (every lane of a warp the same element)");
	} else if (!f->lanes) {
		f->cls = GM_TC_UNSAMPLED;
		snprintf(f->cls_text, sizeof(f->cls_text), "not sampled (counts only: %.120s)", f->why);
	} else if (!f->map.known && tc_class_unfitted(in, f)) {
		/* a stride lane by lane, rows whose starts come from memory, coordinates computed from the ids */
	} else if (!f->map.known) {
		double addrs, runs = tk_warp_runs(in, &addrs);
		f->cls = GM_TC_GATHER;
		if (runs >= 2)   /* lanes collide: the data chose few addresses a warp */
			snprintf(f->cls_text, sizeof(f->cls_text), "atomics on %.1f addresses a warp (from the data: %.1f "
				 "lanes an address, no map of the ids fits)", addrs, runs);
		else
			snprintf(f->cls_text, sizeof(f->cls_text), "data-dependent %s (no map of the ids fits: the "
				 "addresses come from the data, or from arithmetic no map expresses)", in->op == GM_TO_LOAD ?
				 "gather" : "scatter");
	} else if (in->space == GM_TS_SHARED) {
		double per = f->meas_per_req > 0 ? f->meas_per_req : f->sample_per_req;
		if (per > 0 && f->ideal_per_req > 0 && per > f->ideal_per_req * 1.02) {
			f->cls = GM_TC_BANKS;
			f->cls_k = smp->max_ways;
			snprintf(f->cls_text, sizeof(f->cls_text), "shared, %d-way bank conflicts (%.2f wavefronts a "
				 "request where %.2f do)", smp->max_ways, per, f->ideal_per_req);
		} else {
			f->cls = GM_TC_SHARED_OK;
			snprintf(f->cls_text, sizeof(f->cls_text), "shared, conflict-free");
		}
	} else
		tc_class_global(l, in, f);
	double b = tk_block_sharers(l, in, f);
	if (b >= 2) {   /* the map leaves out ids of the block: its threads add into the same words */
		size_t len = strlen(f->cls_text);
		snprintf(f->cls_text + len, sizeof(f->cls_text) - len, "; %.0f threads of a block update each address",
			 b);
	}
}

static int iters_of(const struct gm_trace_launch *l, const struct gm_trace_instr *in)
{
	int64_t tpb = (int64_t)l->block[0] * l->block[1] * l->block[2];
	double warps = (double)l->grid[0] * l->grid[1] * l->grid[2] * ((tpb + 31) / 32);
	int mx = 0;

	for (int i = 0; i < in->nsamples; i++)
		mx = in->samples[i].iter > mx ? in->samples[i].iter : mx;
	if (in->executions > 0 && warps > 0) {
		double it = floor(in->executions / warps + 0.5);
		return it > mx + 1 ? (int)fmin(it, 1e9) : mx + 1;
	}
	return mx + 1;
}

static void measured(const struct gm_trace_instr *in, struct gm_trace_fit *f, const struct counts *smp)
{
	double req = in->requests > 0 ? in->requests : in->executions;

	f->meas_per_req = f->ideal_per_req = -1;
	if (req > 0 && in->space != GM_TS_SHARED && in->sectors >= 0)
		f->meas_per_req = in->sectors / req;
	if (req > 0 && in->space == GM_TS_SHARED && in->wavefronts >= 0)
		f->meas_per_req = in->wavefronts / req;
	if (req > 0 && in->space != GM_TS_SHARED && in->ideal_sectors > 0)
		f->ideal_per_req = in->ideal_sectors / req;
	else if (req > 0 && in->space == GM_TS_SHARED && in->ideal_wavefronts > 0)
		f->ideal_per_req = in->ideal_wavefronts / req;
	else
		f->ideal_per_req = smp->ideal;
}

/* A gather for the launch model: (gid * k) % span, k = measured bytes per request / size (the same sectors
   per request: lanes k elements apart), span = the elements the sampled addresses cover. */
static void gather_stand_in(const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	double per = f->meas_per_req > 0 ? f->meas_per_req : f->sample_per_req;
	int64_t lo = INT64_MAX, hi = -1, k, span;

	if (per <= 0 || !model_size(in->size) || in->space == GM_TS_SHARED)
		return;
	for (int i = 0; i < in->nsamples; i++)
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (in->samples[i].have >> l & 1) {
				lo = in->samples[i].addr[l] < lo ? in->samples[i].addr[l] : lo;
				hi = in->samples[i].addr[l] > hi ? in->samples[i].addr[l] : hi;
			}
	if (hi < 0)
		return;
	k = (int64_t)(per / in->size + 0.5);
	k = k < 1 ? 1 : k;
	span = (hi - lo) / in->size + 1;
	if (span < 32 * k)
		span = 32 * k;
	snprintf(f->expr1d, sizeof(f->expr1d), "(gid * %lld) %% %lld", (long long)k, (long long)span);
	f->approx = 1;
}

/* The gaps between the runs of consecutive elements a sampled warp reads (its lanes' addresses sorted, each
   element once, every address a whole element from lo); -1 when an element repeats or sits between elements. */
static int run_gaps(const struct gm_trace_sample *a, int size, int64_t lo)
{
	int64_t v[GM_WARP_SIZE];
	int n = 0, gaps = 0;

	for (int l = 0; l < GM_WARP_SIZE; l++)
		if (a->have >> l & 1) {
			if ((a->addr[l] - lo) % size)
				return -1;
			int j = n++;
			for (; j > 0 && v[j - 1] > a->addr[l] - lo; j--)
				v[j] = v[j - 1];
			v[j] = a->addr[l] - lo;
		}
	for (int j = 1; j < n; j++) {
		if (v[j] == v[j - 1])
			return -1;
		gaps += v[j] - v[j - 1] != size;
	}
	return gaps;
}

/*
 * Stage E, a warp's consecutive elements in another lane order (docs/TRACE.md, "How the fit works"): a global
 * access whose measured sectors per request are at most one above its ideal and whose every sampled warp reads
 * consecutive elements, each once, in some order of its lanes (a loop whose remainder was peeled per lane:
 * lanes 0-16 at i + 96, lanes 17-31 at i + 64) has no map of the ids, but its warps' lowest addresses may have
 * one. The samples are refitted with each warp's lanes in order from its lowest address; a map that fits them
 * stands for the instruction (lanes_sorted = 1: the elements each warp reads, not which lane reads which).
 * Where the lowest addresses come from the data (an embedding row), nothing fits and the gather stays. A warp
 * may also read two runs of consecutive elements (one gap): a row walked by a loop whose trip count differs by
 * lane (rows of 1000 floats, 32 lanes a step, unrolled by 4 with the remainder peeled first: lanes 0-25 at
 * c, lanes 26-31 at c + 96); returns 2 then (lanes_sorted = 2), 1 without a gap, 0 when it does not apply.
 */
static int lanes_in_order(const struct gm_trace_instr *in, struct gm_trace_instr *out)
{
	int gaps = 0;

	if (in->space != GM_TS_GLOBAL || !(in->requests > 0) || !(in->ideal_sectors > 0) ||
	    in->sectors > in->ideal_sectors + in->requests || !in->nsamples)
		return 0;
	*out = *in;
	out->samples = malloc((size_t)in->nsamples * sizeof(*out->samples));
	if (!out->samples)
		return 0;
	for (int i = 0; i < in->nsamples; i++) {
		struct gm_trace_sample *a = &out->samples[i];
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		int n = 0;
		uint32_t seen = 0;
		*a = in->samples[i];
		for (int l = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1) {
				lo = a->addr[l] < lo ? a->addr[l] : lo;
				hi = a->addr[l] > hi ? a->addr[l] : hi;
				n++;
			}
		if (!n)
			continue;
		if (hi - lo != (int64_t)(n - 1) * in->size) {
			if (run_gaps(a, in->size, lo) != 1)   /* two runs: a trip count that differs by lane */
				goto no;
			gaps = 1;
		} else
			for (int l = 0; l < GM_WARP_SIZE; l++)   /* each element once */
				if (a->have >> l & 1) {
					int64_t k = (a->addr[l] - lo) / in->size;
					if ((a->addr[l] - lo) % in->size || seen >> k & 1)
						goto no;
					seen |= 1u << k;
				}
		for (int l = 0, k = 0; l < GM_WARP_SIZE; l++)
			if (a->have >> l & 1)
				a->addr[l] = lo + (int64_t)(k++) * in->size;
	}
	return 1 + gaps;
no:
	free(out->samples);
	return 0;
}

/*
 * Stage G, the grid's edge (docs/TRACE.md, "How the fit works"): a stencil clamps its neighbours at the
 * domain's border (`min(max(x + dx, 0), W - 1)`), so the lanes of the blocks at the grid's edge read elsewhere
 * than the map of the interior says, and the collector always samples block 0. When no map fits, the samples
 * of edge blocks (a block id 0 or the last, along a grid dimension of 3 blocks or more) are set aside and the
 * rest refitted: a map that reproduces every interior lane stands for the instruction (edge = the warps set
 * aside). At least 3 of 4 sampled warps and 4 warps must be interior, so that the interior's map is measured.
 * A gather by data fits no interior map and stays one. Global accesses only (shared ones ignore the block).
 */
static int interior_only(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_instr *out)
{
	int kept = 0, edge = 0, total = 0;

	if (in->space != GM_TS_GLOBAL || !in->nsamples)
		return 0;
	*out = *in;
	if (!(out->samples = malloc((size_t)in->nsamples * sizeof(*out->samples))))
		return 0;
	for (int i = 0; i < in->nsamples; i++) {
		const struct gm_trace_sample *a = &in->samples[i];
		int at_edge = 0;
		if (!a->have)
			continue;
		total++;
		for (int d = 0; d < 3; d++)
			at_edge |= l->grid[d] >= 3 && (a->block[d] == 0 || a->block[d] == l->grid[d] - 1);
		if (at_edge)
			edge++;
		else
			out->samples[kept++] = *a;
	}
	out->nsamples = kept;
	if (!edge || kept < 4 || 4 * kept < 3 * total) {
		free(out->samples);
		return 0;
	}
	return edge;
}

/* Stages E and G: fit e (in's samples rearranged or filtered; its samples freed here); 1 with f->map set when a
   map fits them. */
static int refit(const struct gm_trace_launch *l, struct gm_trace_instr *e, struct gm_trace_fit *f)
{
	struct tf_set s;
	struct gm_trace_map m;
	char why[200];
	int ok;

	memset(&s, 0, sizeof(s));
	memset(&m, 0, sizeof(m));
	m.elem_bytes = e->size;
	ok = !tf_points(l, e, f->iters, &s, why, sizeof(why)) && (tf_fit(&s, &m, why, sizeof(why)), m.known);
	if (ok)
		f->map = m;
	free(s.p);
	free(e->samples);
	return ok;
}

void gm_trace_fit_instr(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	struct tf_set s;
	struct gm_trace_instr e;
	int runs;

	memset(f, 0, sizeof(*f));
	f->iters = iters_of(l, in);
	f->check_diff_pct = 0;
	f->map.elem_bytes = in->size;
	for (int i = 0; i < in->nsamples; i++)
		f->lanes += __builtin_popcount(in->samples[i].have);
	memset(&s, 0, sizeof(s));
	if (!tf_points(l, in, f->iters, &s, f->why, sizeof(f->why))) {
		f->lanes = s.n;
		tf_fit(&s, &f->map, f->why, sizeof(f->why));
	}
	free(s.p);
	if (!f->map.known && (runs = lanes_in_order(in, &e)) > 0 && refit(l, &e, f))   /* stage E */
		f->lanes_sorted = runs;
	if (!f->map.known && (runs = interior_only(l, in, &e)) > 0 && refit(l, &e, f))   /* stage G */
		f->edge = runs;
	tf_finish(l, in, f);
}

void tf_finish(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f)
{
	struct counts smp, mod;

	f->expr[0] = f->expr1d[0] = '\0';
	f->approx = 0;
	if (f->map.known && (gm_trace_map_expr(&f->map, l->block, l->grid, 0, 0, f->expr, sizeof(f->expr)) ||
			     gm_trace_map_expr(&f->map, l->block, l->grid, 1, 0, f->expr1d, sizeof(f->expr1d)))) {
		f->map.known = 0;
		snprintf(f->why, sizeof(f->why), "the fitted map is too long to write as an expression");
	}
	count_samples(in, &smp);
	measured(in, f, &smp);
	f->sample_per_req = smp.per_req;
	count_model(l, in, f, &mod);
	/* local: the samples on the hardware's layout (the model's global rules would see one address); no map of an
	   array indexed at run time (its offsets come from the data), so not checked, as a gather */
	f->model_per_req = local_interleaved(in) ? (f->map.known ? smp.per_req : -1) : mod.per_req;
	if (f->model_per_req >= 0 && f->meas_per_req > 0) {
		f->check_diff_pct = 100.0 * (f->model_per_req / f->meas_per_req - 1);
		f->check_ok = fabs(f->check_diff_pct) <= GM_TRACE_CHECK_PCT;
	} else
		f->check_ok = -1;
	classify(l, in, f, &smp);
	if (f->lanes_sorted) {   /* stage E: say that the lanes' order is not the map's */
		size_t len = strlen(f->cls_text);
		snprintf(f->cls_text + len, sizeof(f->cls_text) - len, "%s", f->lanes_sorted > 1 ? "; lanes in two runs (a "
			 "trip count that differs by lane, its remainder peeled first)" : "; the warp's lanes in another order");
	}
	if (f->edge) {   /* stage G: say that the edge's lanes are not the map's */
		size_t len = strlen(f->cls_text);
		snprintf(f->cls_text + len, sizeof(f->cls_text) - len, "; clamped at the grid's edge (%d warp%s)", f->edge,
			 f->edge > 1 ? "s" : "");
	}
	if (!f->map.known)
		gather_stand_in(in, f);
	else if (local_interleaved(in))   /* the launch model sees the hardware's layout: thread after thread */
		snprintf(f->expr1d, sizeof(f->expr1d), "gid");
}
