/*
 * trace_fix_rows.c - rule warp_rows of the fix (docs/TRACE.md, "The fix"): a kernel whose threads each walk
 * their own row, rewritten as a warp a row, and the relaunch the launch model prices: 32 times the threads,
 * each lane taking every 32nd element of its warp's row, the kernel's other accesses made by the row's warp.
 */
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

/*
 * A thread's own row of K: 0 with the map offset + K * gid + s * iter (walked by its loop, iters x |s| at least
 * half the row: a remainder loop the rest) or offset + K * gid with s = 0 (the loop unrolled whole: its pieces
 * are instructions); 1 for a row the data chooses (no map; a column walk of lanes K apart, the thread's own row
 * as far as the samples show; s = 0); -1 otherwise. Unrolled whole, the row is at least a warp wide (K >= 32).
 */
static int row_loop(const struct gm_trace_kernel *k, const struct gm_trace_fit *f, int64_t *K, int64_t *s, int loop_ok)
{
	int64_t g[] = { 0, 1, 37, k->threads / 3, k->threads - 1 }, v[GM_TV_N];
	const struct gm_trace_launch *l = k->l;
	int loop = f->iters > 1 && f->map.iter_step;

	if (l->grid[1] != 1 || l->grid[2] != 1 || l->block[1] != 1 || l->block[2] != 1)
		return -1;
	*K = f->cls_k;
	*s = loop ? f->map.iter_step : 0;
	if (loop_ok && !f->map.known && f->cls == GM_TC_GATHER && f->iters > 1)
		return 1;   /* a table's row idx[i] in a loop: the caller asks for the row's own loop */
	if (f->cls_k < 2)
		return -1;
	if (!loop && *K < 32)
		return -1;   /* unrolled whole: a row at least a warp wide (a shorter one is a record: rules layout, wide) */
	if (!f->map.known)   /* unrolled whole (iters 1), or in a loop: the caller asks for the row's own loop */
		return f->cls == GM_TC_COLUMN ? 1 : -1;
	if ((loop && f->cls != GM_TC_COLUMN) || (!loop && f->cls != GM_TC_COLUMN && f->cls != GM_TC_STRIDED))
		return -1;
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		memset(v, 0, sizeof(v));
		v[GM_TV_GID] = g[i];
		v[GM_TV_TX] = g[i] % l->block[0];
		v[GM_TV_BX] = g[i] / l->block[0];
		v[GM_TV_ITER] = 1;
		int64_t d = gm_trace_map_eval(&f->map, v) - f->map.offset;
		if (d != *K * g[i] + *s)
			return -1;
	}
	return !loop || 2 * (int64_t)f->iters * (*s < 0 ? -*s : *s) >= *K ? 0 : -1;
}

static int name_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* A 1D launch's expression of gid, tx and bx (blocks of bt) as the row's warp makes it: each id of the thread
   that had the row, gid / 32 in the relaunch; -1 for any other name or no room. */
static int by_row(const char *expr, int bt, char *out, size_t n)
{
	size_t len = 0;

	for (const char *p = expr; *p; ) {
		int w, m = 0;
		if (name_char(*p) && !(*p >= '0' && *p <= '9') && (p == expr || !name_char(p[-1]))) {
			while (name_char(p[m]))
				m++;
			if (m == 3 && !strncmp(p, "gid", 3))
				w = snprintf(out + len, n - len, "(gid / 32)");
			else if (m == 2 && !strncmp(p, "tx", 2))
				w = snprintf(out + len, n - len, "(gid / 32 %% %d)", bt);
			else if (m == 2 && !strncmp(p, "bx", 2))
				w = snprintf(out + len, n - len, "(gid / 32 / %d)", bt);
			else
				return -1;
		} else
			w = snprintf(out + len, n - len, "%c", *p), m = 1;
		if (w < 0 || (size_t)w >= n - len)
			return -1;
		len += (size_t)w;
		p += m;
	}
	return 0;
}

/*
 * The same array's piece under another base register: the compiler may split one unrolled step over two bases
 * (x and x + 64 elements). z's offset moved onto y's base: *sh elements, when the bases differ by whole elements
 * and by less than a step of a elements (two arrays lie further apart); 0, else -1.
 */
static int base_shift(const struct gm_trace_insn *z, const struct gm_trace_insn *y, int64_t a, int64_t *sh)
{
	int64_t d = z->fit.map.base - y->fit.map.base, e = y->fit.map.elem_bytes;

	*sh = 0;
	if (!d)
		return 0;
	if (e <= 0 || z->fit.map.elem_bytes != e || d % e || (d < 0 ? -d : d) >= a * e)
		return -1;
	*sh = d / e;
	return 0;
}

/* Piece p of the row's walk is piece q's kind: the same operation, step and loop (a fitted piece: the same array,
   *sh its offset moved onto q's base) */
static int same_walk(const struct gm_trace_kernel *k, const int *idx, const int *kind, const int64_t *step, int p,
		     int q, int64_t aq, int64_t *sh)
{
	const struct gm_trace_insn *z = &k->ins[idx[p]], *y = &k->ins[idx[q]];

	*sh = 0;
	return kind[p] == kind[q] && z->in->op == y->in->op && step[p] == step[q] && z->fit.iters == y->fit.iters &&
	       (kind[q] || !base_shift(z, y, aq, sh));
}

/*
 * The pass of the row a fitted piece q belongs to: two loops of the thread over the same row with the same step
 * and trip count (a min-max pass from element 1, then the scaling pass from 0: pieces at 1 .. s and at 0 .. s-1)
 * are m x s pieces of one kind; by pc, each loop's s pieces lie together, so the piece's rank by pc over s is its
 * pass (0 where the pieces are one step's).
 */
static int pass_of(const struct gm_trace_kernel *k, const int *idx, const int *kind, const int64_t *step, int n,
		   int q, int64_t aq)
{
	int pieces = 0, rank = 0;
	int64_t sh;

	if (kind[q] || !step[q] || aq <= 1)
		return 0;
	for (int p = 0; p < n; p++)
		if (same_walk(k, idx, kind, step, p, q, aq, &sh)) {
			pieces++;
			rank += k->ins[idx[p]].in->pc < k->ins[idx[q]].in->pc;
		}
	return pieces > aq && pieces % aq == 0 ? (int)(rank / aq) : 0;
}

#define TEXT 720
static char swap_text[GM_TRACE_MAX_INSNS][TEXT];

/*
 * The relaunch's other accesses (not the rows'): each made by the row's warp, its ids the row's (by_row). A loop
 * of the thread's (iters > 1, s_y elements an iteration, 0 too) is split over the lanes as the row's is: lane l takes
 * the thread's iteration l / per (per = as, the row's pieces an iteration, for the row's own loop; 1 for
 * another), the warp 32 / per of them at once; the rest, once a thread, is read by every lane of the row's warp.
 * Rule A's loads stay with the SM's L1. sw[] from n on; -1 when one cannot be written.
 */
static int others(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x,
		  int64_t as, int loop, struct tk_swap *sw, int n)
{
	for (int j = 0; j < k->nins; j++) {
		const struct gm_trace_insn *y = &k->ins[j];
		int mine = 0;
		for (int q = 0; q < n; q++)
			mine |= sw[q].ins == j;
		if (mine || !y->fit.expr1d[0] || tk_in_l1(k, prof, y))
			continue;
		if (n >= GM_TRACE_MAX_INSNS || by_row(y->fit.expr1d, k->l->block[0], swap_text[n], TEXT - 40))
			return -1;
		int64_t sy = y->fit.map.iter_step, per = loop && y->fit.iters == x->fit.iters ? as : 1;
		int split = y->fit.iters > 1;
		if (split && sy)
			snprintf(swap_text[n] + strlen(swap_text[n]), 40, " + (gid %% 32 / %lld) * %lld", (long long)per,
				 (long long)sy);
		sw[n] = (struct tk_swap){ j, swap_text[n], split ? (int)((y->fit.iters * per + 31) / 32) : y->fit.iters,
					  split ? 32 / per * sy : sy, 32 * k->threads };
		n++;
	}
	return n;
}

/*
 * Rule warp_rows (loop interchange), the traced kernel's own: the threads each walk their own row of K in
 * their loop, s elements a step (unrolled: s instructions at offsets c = 0 .. s-1; unrolled whole, s = 0: K
 * instructions at c = 0 .. K-1, at least half of them there). The rewrite gives each row a warp: 32 times the
 * threads, lane l taking every 32nd element of the row: a row walked over W elements (iters x |s|, or the pieces
 * unrolled) takes ceil(W / 32) lane groups, (gid / 32) * K + (gid % 32) + 32 * iter (a last group of fewer
 * elements runs with idle lanes), priced as one pattern, the lowest piece's (the others left out). Every instruction of the kernel that walks rows of K the same way is rewritten (the change is the
 * loop; another loop of the thread over the same row, a pass of its own step, is rewritten the same way, its
 * pieces grouped by that loop), a row the data chooses too (its pieces in the order of their pc: the rows' place does not change the
 * sectors a warp's row takes): sw[0 .. *nrow - 1]; the kernel's other accesses follow (others). 0 with the
 * swaps (*nsw in all), or -1 when the rule does not apply.
 */
int tf_warp_rows(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i, struct tk_swap *sw, int *nsw,
		 int *nrow, char *lines, size_t ln, int v)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int64_t K, s, K2, s2, as;
	int n = 0, idx[GM_TRACE_MAX_INSNS], kind[GM_TRACE_MAX_INSNS], fitted = 0;
	static int64_t step[GM_TRACE_MAX_INSNS];
	size_t len = 0;

	if (row_loop(k, &x->fit, &K, &s, 0) < 0)
		return -1;
	as = s < 0 ? -s : s ? s : K;
	for (int j = 0; j < k->nins && n < GM_TRACE_MAX_INSNS; j++) {   /* the loop's loads and stores alike */
		const struct gm_trace_insn *y = &k->ins[j];
		int r = row_loop(k, &y->fit, &K2, &s2, 1);
		if (r > 0 && s && y->fit.iters == x->fit.iters && y->fit.iters > 1)
			K2 = K, s2 = s;   /* a row the data places, walked in the row's own loop (a cache row at pos[b], */
		else if (r > 0 && (s || y->fit.iters > 1 || y->fit.cls != GM_TC_COLUMN))   /* a table's row idx[i]) */
			continue;
		if (r < 0 || K2 != K || ((s2 != s || y->fit.iters != x->fit.iters) && (s2 == s || !s2 || !s)))
			continue;   /* another loop over the same row, of its own step (a softmax's passes), is the row's too */
		kind[n] = r;
		step[n] = s2;
		fitted += !r;
		idx[n++] = j;
	}
	if (!fitted)
		return -1;
	static int drop[GM_TRACE_MAX_INSNS];   /* a row the data places in a loop: its pieces exactly one step of */
	for (int q = 0; q < n; q++) {          /* the row's loop, else not the row's (an inner loop's gathers) */
		const struct gm_trace_insn *y = &k->ins[idx[q]];
		int pieces = 0;
		for (int p = 0; p < n && kind[q] && step[q]; p++)
			pieces += kind[p] && k->ins[idx[p]].in->op == y->in->op && step[p] == step[q] &&
				  k->ins[idx[p]].fit.iters == y->fit.iters;
		drop[q] = kind[q] && step[q] && pieces != (step[q] < 0 ? -step[q] : step[q]);
	}
	int kept = 0;
	for (int q = 0; q < n; q++)
		if (!drop[q])
			idx[kept] = idx[q], kind[kept] = kind[q], step[kept] = step[q], kept++;
	n = kept;
	lines[0] = '\0';
	for (int q = 0; q < n; q++) {
		const struct gm_trace_insn *y = &k->ins[idx[q]];
		/* its piece c: the offset from the lowest of the same array's pieces (same base and operation; a row
		   from the data: its rank by pc among the same operation's); the pieces must cover each step once,
		   offsets lo .. lo + as - 1 (unrolled whole: at least half of them) */
		int64_t sq = step[q], aq = sq < 0 ? -sq : sq ? sq : K;
		int64_t lo = kind[q] ? 0 : y->fit.map.offset, c = 0;
		int pieces = 0, pass = pass_of(k, idx, kind, step, n, q, aq);
		for (int p = 0; p < n; p++) {
			const struct gm_trace_insn *z = &k->ins[idx[p]];
			int64_t sh = 0;
			if (!same_walk(k, idx, kind, step, p, q, aq, &sh) || pass_of(k, idx, kind, step, n, p, aq) != pass)
				continue;
			pieces++;
			if (kind[q])
				c += z->in->pc < y->in->pc;
			else
				lo = z->fit.map.offset + sh < lo ? z->fit.map.offset + sh : lo;
		}
		c = kind[q] ? c : y->fit.map.offset - lo;
		if (c < 0 || c >= aq || (sq && aq > 1 && pieces % aq) || (!sq && 2 * pieces < aq))
			return -1;
		/* the row's walk of W elements in ceil(W / 32) lane groups, one after the other: one pattern, the
		   lowest piece's (the launch model keeps each pattern's bytes apart: the row is one walk) */
		int64_t W = sq ? (int64_t)y->fit.iters * aq : pieces;
		v = v > 1 ? v : 1;   /* widened: v consecutive elements a lane, one vector (K, lo and W in vectors) */
		if (v > 1 && (K % v || lo % v || y->in->size * v > 16))
			return -1;
		snprintf(swap_text[q], TEXT, "(gid / 32) * %lld + (gid %% 32) + %lld", (long long)(K / v),
			 (long long)(lo / v));
		sw[q] = (struct tk_swap){ idx[q], c ? NULL : swap_text[q], c ? 0 : (int)((W + 32 * v - 1) / (32 * v)),
					  sq < 0 ? -32 : 32, 32 * k->threads, v };
		int seen = 0;
		for (int p = 0; p < q; p++)
			seen |= k->ins[idx[p]].in->line == y->in->line;
		if (y->in->line > 0 && !seen && len < ln - 16)
			len += (size_t)snprintf(lines + len, ln - len, "%s%d", len ? ", " : "", y->in->line);
	}
	*nrow = n;
	*nsw = others(k, prof, x, as, s != 0, sw, n);
	return *nsw < 0 ? -1 : 0;
}

/*
 * The lanes' merge a warp-a-row reduction ends with: where the row's pieces sw[0 .. nrow-1] are all loads (the
 * row's loop only reads: a sum, a max, a top-2) and the thread stores its result once after the loop (global
 * stores of one execution a thread), the relaunch's 32 lanes hold 32 partial results that log2(32) = 5 rounds
 * of __shfl_xor_sync merge before the store, V values a round (the result's 4-byte words: a top-2's two values
 * and two indices, 16 B, is V = 4). Measured (results/nvidia-h200/probe-merge-store-240908c, probe.txt: each
 * thread loads V floats, then R rounds on them; 2^26 threads) the merge adds to a memory-bound kernel's time
 * rather than hiding under it: the extra time of 5 rounds over none, per warp and round, in SM cycles at the
 * profile's clock, between the measured V (linear, beyond 4 on the last two points' slope). 0 where it does not
 * apply; the milliseconds it adds to the relaunch of k->threads warps otherwise.
 */
static const struct { int v; double r0_ms, r5_ms; } merge_probe[] = {   /* probe.txt, merge V=.. R=0 / R=5 */
	{ 1, 0.1671, 0.1830 }, { 2, 0.1802, 0.2171 }, { 4, 0.2100, 0.3164 },
};
#define MERGE_PROBE_WARPS (double)(1 << 21)   /* 2^26 threads */
#define MERGE_PROBE_SMS 132                   /* the probe's H200 */
#define MERGE_ROUNDS 5

static double merge_cycles(double v, double mhz)
{
	int n = (int)(sizeof(merge_probe) / sizeof(merge_probe[0])), j = 1;
	double c[3];

	for (int i = 0; i < n; i++)   /* a warp's round: SM cycles */
		c[i] = (merge_probe[i].r5_ms - merge_probe[i].r0_ms) / (MERGE_PROBE_WARPS * MERGE_ROUNDS) *
		       MERGE_PROBE_SMS * mhz * 1e3;
	while (j < n - 1 && v > merge_probe[j].v)
		j++;
	return c[j - 1] + (c[j] - c[j - 1]) * (v - merge_probe[j - 1].v) / (merge_probe[j].v - merge_probe[j - 1].v);
}

double tf_merge_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw, int nrow,
		   int *values)
{
	double warps = (double)k->threads, per = (double)((k->threads + 31) / 32), bytes = 0;

	*values = 0;
	if (!prof || prof->sm_count <= 0 || !(prof->sm_clock_mhz > 0) || nrow < 1)
		return 0;
	for (int q = 0; q < nrow; q++)
		if (k->ins[sw[q].ins].in->op != GM_TO_LOAD)
			return 0;   /* the row's loop writes the row: no result merged at its end */
	for (int j = 0; j < k->nins; j++) {
		const struct gm_trace_instr *in = k->ins[j].in;
		if (in->space == GM_TS_GLOBAL && in->op == GM_TO_STORE && !tk_swap_of(sw, nrow, j) &&
		    in->executions <= per * 1.0001)
			bytes += in->size;
	}
	if (!(bytes > 0))
		return 0;
	*values = (int)((bytes + 3) / 4);
	return warps * MERGE_ROUNDS * merge_cycles(*values, prof->sm_clock_mhz) /
	       (prof->sm_count * prof->sm_clock_mhz * 1e3);
}
