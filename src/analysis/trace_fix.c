/*
 * trace_fix.c - the fixes of a traced kernel (docs/TRACE.md, "The fix").
 * Instructions are ranked by the time they waste (their share of the
 * kernel's memory time x the part of their sectors above the ideal) and
 * grouped by what one change fixes (the same line and pattern: an unrolled
 * loop is one change). For each of the top groups: the rewrites `explain
 * --suggest` knows applied to the fitted pattern (the best one named, with
 * its own predicted speedup), and the WHOLE kernel's speedup from the launch
 * model with the group's patterns replaced by what the rewrite makes of them
 * (the ideal access of the same bytes; rule warp_rows for a thread's own row
 * walked by its loop; rule more_threads for a loop in too few threads), the
 * saving taken off the measured time. Without a
 * prediction, Amdahl over the instruction's share. The change at the user's
 * line in words and as a short CUDA sketch (one row per class below). Under
 * GM_TRACE_WORTH: "nothing worth changing"; a data-dependent gather says that
 * its scatter comes from the data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/suggest.h"
#include "analysis/trace_internal.h"

/* What to write instead, by class: the words and the sketch (%s = the fitted expression). */
static const struct {
	enum gm_trace_class cls;
	int loop;                 /* 1: the row is walked by the thread's own loop (iter) */
	int store;                /* 1: the words of a store (taken before the class's general words) */
	const char *words, *sketch;
} advice[] = {
	{ GM_TC_COLUMN, 1, 0, "each thread walks its own row while the warp's lanes sit a row apart: give a row to a "
	  "warp (or a block) and let the lanes take consecutive elements of it",
	  "// one warp per row: lanes read consecutive elements\n"
	  "int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;\n"
	  "for (int i = lane; i < C; i += 32) acc += x[row * C + i];\n"
	  "acc = warp_sum(acc);   // __shfl_down_sync" },
	{ GM_TC_COLUMN, 0, 1, "the warp's lanes write down a column: gather the tile in shared memory and write it "
	  "along its rows (or swap which index the lanes vary)",
	  "__shared__ float tile[32][33];   // +1: no bank conflicts on the column write\n"
	  "tile[threadIdx.x][threadIdx.y] = v;   // each thread's value, by the column it belongs to\n"
	  "__syncthreads();\n"
	  "out[(row0 + threadIdx.y) * W + col0 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];" },
	{ GM_TC_COLUMN, 0, 0, "the warp's lanes read down a column: read the tile along its rows into shared memory "
	  "and take the column from there (or swap which index the lanes vary)",
	  "__shared__ float tile[32][33];   // +1: no bank conflicts on the column read\n"
	  "tile[threadIdx.y][threadIdx.x] = in[(row0 + threadIdx.y) * W + col0 + threadIdx.x];\n"
	  "__syncthreads();\n"
	  "v = tile[threadIdx.x][threadIdx.y];" },
	{ GM_TC_TRANSPOSED, 0, 0, "threadIdx.x walks a column: swap the roles of threadIdx.x and threadIdx.y in the "
	  "index, or turn the tile in shared memory so that both the read and the write walk rows",
	  "// was: a[threadIdx.x * W + threadIdx.y]: the warp walks a column\n"
	  "__shared__ float tile[32][33];   // +1: the turned read is conflict-free\n"
	  "tile[threadIdx.y][threadIdx.x] = in[(r0 + threadIdx.y) * W + c0 + threadIdx.x];\n"
	  "__syncthreads();\n"
	  "out[(c0 + threadIdx.y) * H + r0 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];" },
	{ GM_TC_STRIDED, 0, 0, "the lanes read one field of consecutive records: store the field as its own array "
	  "(structure of arrays), or load whole records with one wide load and use every field",
	  "// was: aos[i].f   (records of k elements)\n"
	  "float *f = soa_f;            // structure of arrays\n"
	  "v = f[i];                    // or: float4 r = reinterpret_cast<const float4*>(aos)[i];" },
	{ GM_TC_MISALIGNED, 0, 0, "the warp starts off a 32 B sector: start rows and tiles at a multiple of 32 B "
	  "(pad the row pitch, cudaMallocPitch) or peel the first elements so the vector part is aligned",
	  "size_t pitch; cudaMallocPitch(&p, &pitch, W * sizeof(float), H);   // rows 512 B aligned\n"
	  "v = *((const float *)((const char *)p + row * pitch) + col);" },
	{ GM_TC_BANKS, 0, 0, "lanes hit the same bank: pad the shared array's rows by one word, or swizzle the column "
	  "with the row (c ^ r)",
	  "__shared__ float tile[32][32 + 1];   // was [32][32]\n"
	  "v = tile[threadIdx.x][threadIdx.y];  // column reads now hit 32 different banks" },
	{ GM_TC_ROWSTARTS, 0, 0, "each thread walks its own row, from a start it reads (CSR's row_ptr), while the "
	  "warp's lanes sit a row apart: give each row a warp, the lanes taking consecutive elements of it, and sum "
	  "the lanes with shuffles",
	  "// one warp per row: lanes read consecutive elements of the row\n"
	  "int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;\n"
	  "for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += 32) acc += val[j] * x[col[j]];\n"
	  "acc = warp_sum(acc);   // __shfl_down_sync; lane 0 writes the row" },
	{ GM_TC_COMPUTED, 0, 0, "the lanes read the same or the next element of a scaled coordinate, already "
	  "neighbours: no order of the threads reads fewer sectors; where a step is a record of several fields (an "
	  "interleaved pixel), reading the whole record a thread (a float3 or float4) takes its fields together",
	  "// was: in[((y0 * W + x0) * 3 + ch]   for ch = 0..2, one float each\n"
	  "const float *p = in + (y0 * W + x0) * 3;   // the pixel's 3 fields read together\n"
	  "float r = p[0], g = p[1], b = p[2];" },
	{ GM_TC_IRREGULAR, 0, 0, "the lanes' addresses follow several strides: order the threads so that consecutive "
	  "lanes take consecutive elements",
	  "// make threadIdx.x the fastest index of the element" },
};

/* rows: rule warp_rows applies (a thread's own row, looped or unrolled): the words of a row walked by its loop */
static void advise(const struct gm_trace_insn *x, struct gm_trace_fix *fx, int rows)
{
	const struct gm_trace_fit *f = &x->fit;
	int loop = rows || (f->map.iter_step != 0 && f->iters > 1), store = x->in->op == GM_TO_STORE;
	enum gm_trace_class cls = rows ? GM_TC_COLUMN : f->cls;

	for (size_t i = 0; i < sizeof(advice) / sizeof(advice[0]); i++)
		if (advice[i].cls == cls && (advice[i].cls != GM_TC_COLUMN || advice[i].loop == loop) &&
		    (!advice[i].store || store)) {
			snprintf(fx->words, sizeof(fx->words), "%s", advice[i].words);
			snprintf(fx->sketch, sizeof(fx->sketch), "%s", advice[i].sketch);
			return;
		}
}

static double amdahl(double share, double s)
{
	return s > 0 ? 1.0 / ((1.0 - share) + share / s) : 1.0;
}

/*
 * warp_rows gives each row a warp: 32 times the threads, each loop 32 times shorter. The time the model does
 * not explain in such a kernel is its loops' latency with too few warps in flight; it shrinks by the warps the
 * GPU can add: min(32, the GPU's resident warps / the launch's warps), at least 1.
 */
static double parallelism_gain(const struct gm_trace_kernel *k, const struct gm_profile *prof)
{
	double warps = (double)(k->threads + 31) / 32;
	double cap = prof && prof->sm_count > 0 ? prof->sm_count * (prof->threads_per_sm > 0 ? prof->threads_per_sm : 2048) / 32.0 : 0;

	return cap > warps ? fmin(32, cap / warps) : 1;
}

#define MAXG 64
#define ROWG GM_TRACE_MAX_INSNS   /* rule warp_rows: its rows and the relaunch's other accesses */

/* The ideal access of the same bytes: consecutive lanes, consecutive elements (shared: conflict-free). */
static struct tk_swap ideal_of(const struct gm_trace_kernel *k, int i)
{
	const struct gm_trace_insn *x = &k->ins[i];
	int shared = x->in->space == GM_TS_SHARED;

	return (struct tk_swap){ i, shared ? "tid" : "gid", x->fit.iters,
				 shared || x->fit.iters <= 1 ? 0 : k->threads };
}

/*
 * The other loads and stores of the kernel with the group's own index (the same fitted expression, loop and
 * element size, not already its ideal access), at other lines: one index change rewrites them all (y[i] = f(x[i])
 * with i's lanes a row apart reads and writes down the column); their ideal access added to sw[], their lines to
 * lines. Not one whose array other instructions of its operation walk too (a stencil's taps, one walk of rule
 * M: rewriting one tap alone reads its bytes apart). The new count of sw[].
 */
static int same_index(const struct gm_trace_kernel *k, const int *g, int n, struct tk_swap *sw, int nsw, char *lines,
		      size_t ln)
{
	const struct gm_trace_insn *x = &k->ins[g[0]];
	size_t len = 0;

	lines[0] = '\0';
	if (!x->fit.map.known || !x->fit.expr1d[0] || x->in->space != GM_TS_GLOBAL)
		return nsw;
	for (int j = 0; j < k->nins && nsw < ROWG; j++) {
		const struct gm_trace_insn *y = &k->ins[j];
		int in_group = 0, seen = 0;
		for (int q = 0; q < n; q++)
			in_group |= g[q] == j;
		if (in_group || !y->fit.map.known || y->in->space != GM_TS_GLOBAL || y->in->size != x->in->size ||
		    (y->in->op != GM_TO_LOAD && y->in->op != GM_TO_STORE) || y->fit.iters != x->fit.iters ||
		    y->fit.map.iter_step != x->fit.map.iter_step || strcmp(y->fit.expr1d, x->fit.expr1d) ||
		    y->fit.cls == GM_TC_COALESCED || y->fit.cls == GM_TC_BROADCAST)
			continue;
		int pieces = 0;   /* an array walked by other instructions too (a stencil's taps) is one walk: not alone */
		for (int z = 0; z < k->nins; z++)
			pieces += z != j && k->ins[z].in->op == y->in->op && k->ins[z].fit.map.known &&
				  k->ins[z].fit.map.base == y->fit.map.base;
		if (pieces)
			continue;
		sw[nsw++] = ideal_of(k, j);
		for (int q = 0; q < nsw - 1; q++)
			seen |= k->ins[sw[q].ins].in->line == y->in->line;
		if (y->in->line > 0 && !seen && len < ln - 16)
			len += (size_t)snprintf(lines + len, ln - len, "%s%d", len ? ", " : "", y->in->line);
	}
	return nsw;
}

/* suggest's rewrites of the fitted pattern: the best one's name, change and speedup; -1 with why in words. */
static int suggest_best(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, const struct gm_profile *prof,
			struct gm_trace_fix *fx)
{
	struct gm_suggest *s = malloc(sizeof(*s));
	struct gm_suggest_in in;
	struct gm_expr_error err;
	int rc = -1;

	if (!s)
		return -1;
	memset(&in, 0, sizeof(in));
	in.a.space = x->in->space == GM_TS_SHARED ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
	in.a.op = x->in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE;
	in.a.elem_bytes = x->in->size;
	memcpy(in.a.block, k->l->block, sizeof(in.a.block));
	in.a.index = x->fit.expr1d;
	in.n = k->threads;
	in.prof = prof;
	in.threads = 1;
	in.layout_free = 1;   /* a fix in the program: its data is written in the new layout, not converted */
	if (gm_suggest_build(&in, s, &err) != GM_OK)
		snprintf(fx->words, sizeof(fx->words), "explain --suggest cannot take this pattern: %.300s",
			 err.msg[0] ? err.msg : gm_last_error());
	else if (s->napplicable) {
		const struct gm_rewrite *r = &s->rows[s->order[0]];
		snprintf(fx->rewrite, sizeof(fx->rewrite), "%s", r->name);
		snprintf(fx->change, sizeof(fx->change), "%s", r->change);
		fx->pattern_speedup = r->speedup;
		rc = 0;
	} else
		snprintf(fx->words, sizeof(fx->words), "no rewrite of explain --suggest applies to this pattern");
	free(s);
	return rc;
}

/* Words for what has no prediction: gathers, samples missing, efficient accesses, atomics. 1 when done. */
static int words_only(const struct gm_trace_insn *x, struct gm_trace_fix *fx)
{
	enum gm_trace_class c = x->fit.cls;
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;

	if (c == GM_TC_GATHER && per > 0 && x->fit.ideal_per_req > 0 && per <= x->fit.ideal_per_req * 1.02)
		return snprintf(fx->words, sizeof(fx->words), "nothing worth changing: the rows come from the data, but "
				"each warp's lanes read consecutive elements (%.2f sectors a request, the fewest its "
				"bytes need)", per), 1;
	if (c == GM_TC_GATHER && x->computed) {   /* rule CS: not the data's order; by_index not offered */
		if (tk_computed_scattered(x))
			snprintf(fx->words, sizeof(fx->words), "its addresses are arithmetic on the thread's own index (rule "
				 "CS: no load before it returns data), so the order is the program's: storing the data in the "
				 "order the threads read it, or sorting the work by destination, is the option; priced, not "
				 "worth it here");
		else
			snprintf(fx->words, sizeof(fx->words), "its addresses are arithmetic on the thread's own index that no "
				 "map of the ids expresses (rule CS: no load before it returns data; a division, a clamp), and "
				 "its lanes share sectors (%.2f a request where %.2f do): no rewrite of the index applies", per,
				 x->fit.ideal_per_req);
		return 1;
	}
	if (c == GM_TC_GATHER) {
		snprintf(fx->words, sizeof(fx->words), "its scatter comes from the data (or from arithmetic that no map "
			 "of the thread ids expresses: a float coordinate, a clamp), so no rewrite of the index applies. "
			 "Where the indices are data, sorting or binning them so that a warp's lanes touch neighbouring "
			 "elements, or keeping a small table in shared memory, are the options");
		snprintf(fx->sketch, sizeof(fx->sketch), "// sort the indices once (thrust::sort_by_key) so that\n"
			 "// neighbouring threads gather neighbouring rows");
		return 1;
	}
	if (c == GM_TC_UNSAMPLED)
		return snprintf(fx->words, sizeof(fx->words), "no pattern without sampled addresses: trace again with "
				"--samples 64 (or more), narrowed with --kernel / -s / -c"), 1;
	if (c == GM_TC_COALESCED || c == GM_TC_BROADCAST || c == GM_TC_SHARED_OK || c == GM_TC_RECORDS)
		return snprintf(fx->words, sizeof(fx->words), "nothing worth changing: the access is %s",
				x->fit.cls_text), 1;
	if (!x->fit.map.known && x->in->op != GM_TO_ATOMIC && x->in->op != GM_TO_REDUCTION) {
		static struct gm_trace_fix a;   /* the class's advice, after the reason */
		memset(&a, 0, sizeof(a));
		advise(x, &a, 0);
		snprintf(fx->words, sizeof(fx->words), "nothing predicted: no map of the thread ids fits this access, "
			 "so no rewrite is applied to it and its speedup is not predicted%s%.250s", a.words[0] ? ". To try: " :
			 "", a.words);
		snprintf(fx->sketch, sizeof(fx->sketch), "%s", a.sketch);
		return 1;
	}
	if (x->in->op == GM_TO_ATOMIC || x->in->op == GM_TO_REDUCTION ||
	    (x->in->space == GM_TS_SHARED && x->in->op != GM_TO_LOAD) || !x->fit.map.known) {
		snprintf(fx->words, sizeof(fx->words), "nothing predicted: explain --suggest rewrites global loads and "
			 "stores and shared loads; this is a %s %s", gm_trace_space_name(x->in->space),
			 gm_trace_op_name(x->in->op));
		advise(x, fx, 0);
		return 1;
	}
	return 0;
}

/*
 * The part of the kernel's global sectors above their need that the swapped instructions sw[0 .. n-1] waste:
 * the verdict's share of the time the model does not explain that goes with them (a scattered pattern's own
 * cost is often more than the model's rates price; trace_verdict.c), which the change removes with them; *own
 * their part of all the kernel's global excess bytes (1: no wasted sector is left to another instruction).
 */
static double excess_part(const struct gm_trace_kernel *k, const struct tk_swap *sw, int n, double *own)
{
	double glob = 0, ex = 0, all = 0;

	for (int i = 0; i < k->nins; i++) {
		glob += k->ins[i].in->space != GM_TS_SHARED ? k->ins[i].bytes : 0;
		all += k->ins[i].in->space != GM_TS_SHARED ? k->ins[i].excess_bytes : 0;
	}
	for (int q = 0; q < n; q++) {
		const struct gm_trace_insn *y = &k->ins[sw[q].ins];
		int seen = 0;
		for (int p = 0; p < q; p++)
			seen |= sw[p].ins == sw[q].ins;
		ex += !seen && y->in->space != GM_TS_SHARED ? y->excess_bytes : 0;
	}
	*own = all > 0 ? fmin(1, ex / all) : 0;
	return glob > 0 ? fmin(1, ex / glob) : 0;
}

/* the predicted time of the kernel without the swapped instructions sw[0 .. n-1] (the part a change leaves; 0 where
   nothing is left that the model prices: the prediction fails only for that, the whole kernel's having succeeded) */
static double kept_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw, int n)
{
	static struct tk_swap out[ROWG];
	struct gm_launch_out o;
	char why[200];

	for (int q = 0; q < n && q < ROWG; q++)
		out[q] = (struct tk_swap){ sw[q].ins, NULL, 0, 0, 0 };
	return !tk_predict(k, prof, -1, out, n < ROWG ? n : ROWG, &o, why, sizeof(why)) ? o.time_ms : 0;
}

/* the lines of the swapped instructions sw[0 .. n-1], each once: "22, 23" */
static void swap_lines(const struct gm_trace_kernel *k, const struct tk_swap *sw, int n, char *lines, size_t ln)
{
	size_t len = 0;

	lines[0] = '\0';
	for (int q = 0; q < n; q++) {
		int line = k->ins[sw[q].ins].in->line, seen = 0;
		for (int p = 0; p < q; p++)
			seen |= k->ins[sw[p].ins].in->line == line;
		if (line > 0 && !seen && len < ln - 16)
			len += (size_t)snprintf(lines + len, ln - len, "%s%d", len ? ", " : "", line);
	}
}

/* Rule wide_fix (trace_fix_wide.c): the fixed kernel, where the model finds it limited by blocks or latency,
   with v elements a thread (a lane) as one access, offered beside the rewrite (its own speedup, not the headline:
   the development pairs' hand versions mostly keep one element a thread; docs/TRACE.md) */
static void widen(const struct gm_trace_kernel *k, const struct gm_profile *prof, int lead, int rows,
		  const struct tk_swap *sw, int nsw, int nrow, const char *limited, double gain, double ex,
		  struct gm_trace_fix *fx)
{
	int v = 1, size = k->ins[lead].in->size;
	double s;
	size_t len = strlen(fx->change);

	if (!strncmp(fx->rewrite, "tile", 4))
		return;   /* a transposing tile: its rows and columns are not v consecutive elements of one access */
	s = tf_widen_fix(k, prof, lead, rows, sw, nsw, nrow, limited, fx->kernel_speedup, gain, ex, &v);
	if (v <= 1)
		return;
	fx->wide = v;
	fx->wide_speedup = s;
	snprintf(fx->change + len, sizeof(fx->change) - len, "%s%d elements a %s as one %d-B access: %.2fx (wide_fix)",
		 len ? "; then " : "", v, rows ? "lane" : "thread", v * size, s);
}

enum { AS_SUGGEST, AS_ROWS, AS_SWAP };

/* The fix of group g (g[0] its largest) as `how` says (suggest's rewrites, rule warp_rows where it applies, rule
   swap_xy where it applies): its rewrite, pattern and kernel speedups, words and sketch; 0, or -1 where warp_rows
   or swap_xy does not apply (fx then has suggest's) */
static int fix_group_as(const struct gm_trace_kernel *k, const int *g, int n, const struct gm_profile *prof,
			struct gm_trace_fix *fx, int *covered, int *ncovered, int how)
{
	const struct gm_trace_insn *x = &k->ins[g[0]];
	static struct tk_swap sw[ROWG];
	struct gm_launch_out a, b, whole;
	const char *whole_lim = "";
	char why[200], lines[160] = "";
	double merge = 0;
	int vals = 0, nsw = 0, nrow = 0, rows = how == AS_ROWS && !tf_warp_rows(k, prof, g[0], sw, &nsw, &nrow, lines,
									 sizeof(lines), 1);
	int dim = 1, reshape = 0, clean = how == AS_SWAP ? tf_swap_xy(k, g[0], sw, &nsw, ROWG, &dim, &reshape) : -1;
	int xy = clean >= 0;
	const char ax = dim == 2 ? 'z' : 'y';   /* swap_xy's dimension exchanged with x */

	memset(fx, 0, sizeof(*fx));
	fx->have = 1;
	fx->ninstr = n;
	fx->pattern_speedup = fx->kernel_speedup = 1;
	if (how == AS_SWAP && !xy)
		return -1;
	if (!rows && !xy && words_only(x, fx))
		return 0;
	if (xy) {
		snprintf(fx->rewrite, sizeof(fx->rewrite), "swap_xy");
		nrow = nsw;
		swap_lines(k, sw, nsw, lines, sizeof(lines));
		if (reshape)
			snprintf(fx->change, sizeof(fx->change), "the block's x and %c exchanged (dim3(%d, 1) for dim3(1, "
				 "%d)), the index kept: threadIdx.x on the contiguous dimension (lines %.40s)", ax,
				 k->l->block[dim], k->l->block[dim], lines);
		else
			snprintf(fx->change, sizeof(fx->change), "x and %c of the launch exchanged, threadIdx.x on the "
				 "contiguous dimension (lines %.40s)", ax, lines);
		fx->ninstr = nsw;
	} else if (rows) {
		snprintf(fx->rewrite, sizeof(fx->rewrite), "warp_rows");
		snprintf(fx->change, sizeof(fx->change), "a warp per row, lane l taking element l of each piece (%.60s "
			 "as the warp's row; 32x the threads, loops 32x shorter; lines %s)", sw[0].expr, lines);
		fx->ninstr = nrow;
	} else {
		suggest_best(k, x, prof, fx);
		for (int q = 0; q < n && q < MAXG; q++)
			sw[nsw++] = ideal_of(k, g[q]);
		nrow = nsw;   /* the partners are priced with the group, and keep their own fixes */
		nsw = same_index(k, g, n, sw, nsw, lines, sizeof(lines));
		if (lines[0] && fx->change[0])
			snprintf(fx->change + strlen(fx->change), sizeof(fx->change) - strlen(fx->change), "; with it "
				 "the same index at line %s", lines);
		char rl[160] = "";   /* rule row_layout: the layout stores every row of the leader's shape */
		nsw = strcmp(fx->rewrite, "layout") ? nsw : tf_row_layout(k, g[0], sw, nsw, ROWG, rl, sizeof(rl));
		if (rl[0] && fx->change[0])
			snprintf(fx->change + strlen(fx->change), sizeof(fx->change) - strlen(fx->change), "; with it "
				 "every row of the same shape at line %s", rl);
	}
	/* the instructions the change fixes: warp_rows's rows (not the relaunch's others), the group's (not the
	   partners with its index) */
	*ncovered = 0;
	for (int q = 0; q < nrow; q++)
		covered[(*ncovered)++] = sw[q].ins;
	const struct tk_swap *me = &sw[0];
	for (int q = 0; q < nrow; q++) {
		me = sw[q].ins == g[0] ? &sw[q] : me;
		fx->share += k->ins[sw[q].ins].time_share;
	}
	fx->share = fmin(1, fx->share);
	if (k->pred_ok && !tk_predict(k, prof, -1, sw, nsw, &whole, why, sizeof(why))) {
		double own, gain = rows ? parallelism_gain(k, prof) : 1, ex = excess_part(k, sw, rows ? nrow : nsw, &own);
		merge = rows ? tf_merge_ms(k, prof, sw, nrow, &vals) : 0;
		whole.time_ms += merge;   /* a reduction's lanes merged in shuffle rounds, after the relaunch's loads */
		whole_lim = whole.limited_by ? whole.limited_by : "";
		if (rows || xy)
			fx->kernel_speedup = tf_kernel_speedup_ex(k, prof, whole.time_ms, gain, 1, ex);
		else   /* suggest's rewrite: over-predicted, priced by the part it changes */
			fx->kernel_speedup = tf_kernel_speedup_part(k, prof, whole.time_ms, kept_ms(k, prof, sw, nsw), gain,
								    1, ex, own);
		if (xy && k->time_ms > 0 && k->time_ms < k->mem_ms && k->time_ms < k->pred.time_ms)
			/* every access re-mapped: none of the patterns the model over-predicts stays, so the measured
			   time over the re-mapped kernel's */
			fx->kernel_speedup = k->time_ms / fmax(whole.time_ms, tk_floor_ms(k, prof, 1));
		struct gm_launch_out t0, t1;   /* a rewrite that keeps the thread's loop keeps its round trips */
		if (!rows && k->trips > 1 && x->fit.iters > 1 && !tk_predict(k, prof, TK_WITH_TRIPS, NULL, 0, &t0, why,
		    sizeof(why)) && !tk_predict(k, prof, TK_WITH_TRIPS, sw, nsw, &t1, why, sizeof(why)) && t1.time_ms > 0)
			fx->kernel_speedup = fmin(fx->kernel_speedup, t0.time_ms / t1.time_ms);
		else   /* rule wide_fix: the fixed kernel's narrow accesses widened (none for a rewrite that keeps a loop) */
			widen(k, prof, g[0], rows, sw, nsw, nrow, whole.limited_by, gain, ex, fx);
		if ((rows || xy || !fx->rewrite[0]) && !tk_predict(k, prof, g[0], NULL, 0, &a, why, sizeof(why)) &&
		    !tk_predict(k, prof, g[0], me, 1, &b, why, sizeof(why)) && b.time_ms > 0)
			fx->pattern_speedup = a.time_ms / b.time_ms;
	} else
		fx->kernel_speedup = amdahl(x->time_share, fx->pattern_speedup);
	fx->worth = fx->kernel_speedup >= GM_TRACE_WORTH;
	if (!fx->worth) {
		snprintf(fx->words, sizeof(fx->words), "nothing worth changing: %s%s%spredicts %.2fx for the whole "
			 "kernel (the instruction%s %.0f %% of its memory time)", fx->rewrite[0] ? "the best rewrite (" : "",
			 fx->rewrite, fx->rewrite[0] ? ") " : "the ideal access ", fx->kernel_speedup,
			 fx->ninstr > 1 ? "s are" : " is", 100 * fx->share);
		return xy ? clean : 0;
	}
	if (xy && reshape) {
		snprintf(fx->words, sizeof(fx->words), "the block is one thread wide in x, so a warp's lanes run along "
			 "%c, the slow dimension (consecutive lanes a %s apart at every access): launch the same kernel "
			 "with the block's x and %c exchanged, the grid to match (lines %s)", ax,
			 dim == 2 ? "row or plane" : "row", ax, lines);
		snprintf(fx->sketch, sizeof(fx->sketch), "// was: dim3 block(1, %d), grid(W, (H + %d - 1) / %d)\n"
			 "dim3 block(%d, 1), grid((W + %d - 1) / %d, H);   // the kernel's index unchanged: lanes on "
			 "consecutive x", k->l->block[dim], k->l->block[dim], k->l->block[dim], k->l->block[dim],
			 k->l->block[dim], k->l->block[dim]);
	} else if (xy) {
		snprintf(fx->words, sizeof(fx->words), "threadIdx.x runs along the slow dimension (consecutive lanes a "
			 "%s apart at every access): put it on the contiguous one, exchanging x and %c in the index "
			 "and the grid (lines %s)", dim == 2 ? "row or plane" : "row", ax, lines);
		if (dim == 2)   /* the same block (its sizes as they were), the grid's x and z exchanged */
			snprintf(fx->sketch, sizeof(fx->sketch), "// was: p = blockIdx.x * blockDim.x + threadIdx.x, "
				 "c = blockIdx.z * blockDim.z + threadIdx.z\n"
				 "int c = blockIdx.x * blockDim.x + threadIdx.x, p = blockIdx.z * blockDim.z + threadIdx.z;\n"
				 "// launch dim3 grid((C + bx - 1) / bx, gy, (P + bz - 1) / bz), the same block: lanes on "
				 "consecutive elements");
		else
			snprintf(fx->sketch, sizeof(fx->sketch), "// was: r = blockIdx.x * blockDim.x + threadIdx.x, "
				 "c = blockIdx.y * blockDim.y + threadIdx.y\n"
				 "int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;\n"
				 "// launch dim3 grid((C + bx - 1) / bx, (R + by - 1) / by): lanes on consecutive elements");
	} else
		advise(x, fx, rows);
	if (merge > 0)   /* warp_rows of a reduction: the merge its price counts */
		snprintf(fx->words + strlen(fx->words), sizeof(fx->words) - strlen(fx->words), " (priced with the lanes' "
			 "%d partial value%s merged in 5 shuffle rounds: %.4f ms)", vals, vals > 1 ? "s" : "", merge);
	if (!fx->words[0])
		snprintf(fx->words, sizeof(fx->words), "%s", fx->change);
	else if (fx->wide > 1) {   /* rule wide_fix: the fixed kernel's accesses widened too */
		size_t len = strlen(fx->words);
		snprintf(fx->words + len, sizeof(fx->words) - len, "; then, the fixed kernel limited by %s, %d elements "
			 "a %s as one %d-byte vector: %.2fx", whole_lim, fx->wide, rows ? "lane" : "thread",
			 fx->wide * x->in->size, fx->wide_speedup);
	}
	return xy ? clean : 0;
}

/* Rule warp_rows where it applies, or the rewrites of explain --suggest where they are predicted faster; then
   rule swap_xy where it applies and is predicted faster, or, where it scatters no access that was consecutive in
   x (every access walks x down the rows), where it is worth changing at all and warp_rows is not the fix: the
   exchange fixes every access, suggest's rewrite the leader's pattern alone. */
static void fix_group(const struct gm_trace_kernel *k, const int *g, int n, const struct gm_profile *prof,
		      struct gm_trace_fix *fx, int *covered, int *ncovered)
{
	static struct gm_trace_fix alt;
	static int cov2[ROWG];
	int nc2 = 0;

	fix_group_as(k, g, n, prof, fx, covered, ncovered, AS_ROWS);
	if (!strcmp(fx->rewrite, "warp_rows") && !fix_group_as(k, g, n, prof, &alt, cov2, &nc2, AS_SUGGEST) &&
	    alt.kernel_speedup > fx->kernel_speedup) {
		*fx = alt;
		memcpy(covered, cov2, sizeof(int) * (size_t)nc2);
		*ncovered = nc2;
	}
	int clean = fix_group_as(k, g, n, prof, &alt, cov2, &nc2, AS_SWAP);
	if ((clean == 0 && alt.worth && strcmp(fx->rewrite, "warp_rows")) ||
	    (clean >= 0 && alt.kernel_speedup > fx->kernel_speedup)) {
		*fx = alt;
		memcpy(covered, cov2, sizeof(int) * (size_t)nc2);
		*ncovered = nc2;
	}
}

/* The time an instruction wastes: its share of the memory time x the part of its sectors above the ideal. */
static double waste(const struct gm_trace_insn *x)
{
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;
	double ideal = x->fit.ideal_per_req;

	if (per <= 0 || ideal <= 0 || x->fit.cls == GM_TC_UNSAMPLED)
		return 0;
	if (x->fit.cls == GM_TC_RECORDS)   /* its siblings use every byte of the sectors: none wasted */
		return 1e-12 * x->bytes;
	/* the model's share of the time, or half the traffic share where the model sees none (a pattern the
	   launch model hides behind another: removing it changes nothing, replacing it does) */
	return fmax(x->time_share, 0.5 * x->share) * fmax(0, 1 - ideal / per) + 1e-12 * x->bytes;
}

/*
 * Rules wide_blocks and wide_loads: a kernel the launch model finds limited by block starts (rule T4), or by the
 * loads in flight (latency) with an access that is misaligned, strided or narrower than 4 B, whose accesses are
 * all global loads and stores without a loop, each coalesced, misaligned or strided (a record's fields: an
 * elementwise kernel, a copy one element off, bytes of a pixel) or a scalar every thread reads (a broadcast load:
 * one sector a warp, left out of the widened kernel's prediction),
 * does the same work with each thread taking v consecutive elements (records) as one access, v = 2, 4 .. up to
 * 16 B / its largest element, the one the model finds fastest (a wider one only when 2 % faster): v times
 * fewer threads and blocks, v times the bytes a load has in flight; a misaligned access also starts on its
 * sector (its ideal). Predicted by the launch model at that shape (tk_predict_wide); the fix
 * of the largest instruction, covering them all. 1 when it applies and pays.
 */
static int wide_blocks(struct gm_trace_kernel *k, const struct gm_profile *prof, int lead)
{
	struct gm_launch_out o;
	struct gm_trace_fix *fx = &k->ins[lead].fix;
	struct tk_swap sw[MAXG];
	int size = 0, v, nsw = 0, mis = 0, blk, waste = 0;

	if (!k->pred_ok || !k->pred.limited_by || k->nins < 1)
		return 0;
	blk = !strcmp(k->pred.limited_by, "blocks");
	if (!blk && strcmp(k->pred.limited_by, "latency"))
		return 0;
	for (int i = 0; i < k->nins; i++) {
		const struct gm_trace_insn *x = &k->ins[i];
		enum gm_trace_class c = x->fit.cls;
		if (c == GM_TC_BROADCAST && x->in->op == GM_TO_LOAD && nsw < MAXG) {   /* a scalar every thread reads: */
			sw[nsw++] = (struct tk_swap){ i, NULL, 0, 0 };                 /* one sector a warp, left out */
			continue;
		}
		int placed = c == GM_TC_GATHER && tf_consecutive(x);   /* a row the data places, warps on one run */
		if (x->in->space != GM_TS_GLOBAL || x->fit.iters > 1 || (x->fit.approx && !placed) ||   /* a gather's */
		    (x->in->op != GM_TO_LOAD && x->in->op != GM_TO_STORE) ||      /* stand-in: no consecutive elements */
		    (c != GM_TC_COALESCED && c != GM_TC_MISALIGNED && c != GM_TC_STRIDED && !placed))
			return 0;
		if ((c == GM_TC_MISALIGNED || placed) && nsw < MAXG)   /* placed: priced as the run it is */
			sw[nsw++] = ideal_of(k, i), mis |= c == GM_TC_MISALIGNED;
		double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;
		waste |= (c != GM_TC_COALESCED && !placed) || x->in->size < 4 ||   /* or lanes masked by the data: */
			 (per > 0 && x->fit.ideal_per_req > 0 && per > 1.02 * x->fit.ideal_per_req);   /* sectors above */
		size = x->in->size > size ? x->in->size : size;
	}
	/* the time outside the memory instructions (the verdict's test): a thread's index arithmetic, done once for
	   its v elements by the widened kernel */
	int outside = k->time_ms > 0 && k->pred.time_ms < GM_TRACE_OUTSIDE * k->time_ms;
	if (!blk && !waste && !outside)
		return 0;   /* latency: only where an access wastes sectors, is narrower than a word or the threads'
			       own instructions take the time */
	double s = 0;

	v = 0;
	for (int w = 2; size > 0 && w * size <= 16; w *= 2)
		if (tf_rows_take(k, w) && !tk_predict_wide(k, prof, w, sw, nsw, &o) &&   /* rule wide_rows */
		    tf_kernel_speedup(k, prof, o.time_ms, w, w) > s * 1.02)
			s = tf_kernel_speedup(k, prof, o.time_ms, w, w), v = w;
	if (s < GM_TRACE_WORTH)
		return 0;
	long long blocks = (long long)(k->l->grid[0] * k->l->grid[1] * k->l->grid[2]);
	int bt = k->l->block[0] * k->l->block[1] * k->l->block[2];
	memset(fx, 0, sizeof(*fx));
	fx->have = fx->worth = 1;
	fx->ninstr = k->nins;
	fx->share = 1;
	fx->pattern_speedup = fx->kernel_speedup = s;
	snprintf(fx->rewrite, sizeof(fx->rewrite), blk ? "wide_blocks" : "wide_loads");
	int vb = v * size;
	const char *ty = vb >= 16 ? "uint4" : vb == 8 ? "uint2" : vb == 4 ? "unsigned" : "unsigned short";
	snprintf(fx->change, sizeof(fx->change), "each thread takes %d consecutive elements of every array as one "
		 "%d-byte access%s: %lld blocks of %d threads instead of %lld", v, vb, mis ? ", each starting on its "
		 "32 B sector" : "", blocks / v, bt, blocks);
	if (blk)
		snprintf(fx->words, sizeof(fx->words), "the launch is limited by how fast the SMs start its %lld short "
			 "blocks (rule T4), not by its accesses: give each thread %d consecutive elements, read and written "
			 "as one %d-byte vector, so that %dx fewer blocks do the same work", blocks, v, vb, v);
	else
		snprintf(fx->words, sizeof(fx->words), "the launch is limited by the loads it has in flight (latency), "
			 "%d B a thread: give each thread %d consecutive elements%s, read and written as one %d-byte "
			 "vector%s, so that each load brings %dx the bytes", size, v, k->ins[lead].fit.cls == GM_TC_STRIDED ?
			 " (whole records)" : "", vb, mis ? " that starts on its 32 B sector (align the arrays, peel the "
			 "first elements)" : "", v);
	snprintf(fx->sketch, sizeof(fx->sketch), "// each thread: %d elements as one %d-byte access (n a multiple of %d, "
		 "arrays %d B aligned)\nint i = (blockIdx.x * blockDim.x + threadIdx.x) * %d;\n"
		 "%s a = *reinterpret_cast<const %s *>(&x[i]);   // %d elements at once\n"
		 "// ... the same arithmetic on each of them ...\n*reinterpret_cast<%s *>(&out[i]) = r;\n"
		 "// launch with %dx fewer blocks of the same size", v, vb, v, vb, v, ty, ty, v, ty, v);
	for (int i = 0; i < k->nins; i++)
		if (i != lead)
			k->ins[i].fix.same_as = lead + 1;
	return 1;
}

void gm_trace_fixes(struct gm_trace_kernel *k, const struct gm_profile *prof, int top)
{
	static int order[GM_TRACE_MAX_INSNS], done[GM_TRACE_MAX_INSNS], pos[GM_TRACE_MAX_INSNS];
	int n = 0, groups = 0, covered[ROWG], nc;

	memset(done, 0, sizeof(done));
	for (int i = 0; i < k->nins && n < GM_TRACE_MAX_INSNS; i++)
		order[n++] = i;
	for (int i = 1; i < n; i++)   /* by waste, largest first */
		for (int j = i; j > 0 && waste(&k->ins[order[j]]) > waste(&k->ins[order[j - 1]]); j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int i = 0; i < n; i++)
		pos[order[i]] = i;
	int at = n && top > 0 ? tf_named(k, prof) : -1;
	if (at >= 0 && k->ins[at].fix.worth)
		return;   /* mapped host memory or a lane-indexed __constant__ table: where the data lives comes first */
	if (n && top > 0 && tf_search_chain(k, prof) >= 0)
		return;   /* rule row_index: a binary search per thread, the row index stored once instead */
	at = n && top > 0 ? tf_by_index(k, prof) : -1;
	if (at >= 0) {   /* rule by_index: rule CS's computed gathers, the data stored in the threads' order */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	int au = at = n && top > 0 ? tf_atomic_use(k, prof) : -1;
	if (at >= 0) {   /* rules GC and U1: a CAS loop's native atomic, a one-to-one atomic's plain store, first */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	int lt = at = au < 0 && n && top > 0 ? tf_lone_loop(k, prof) : -1;
	if (at >= 0) {   /* rule LT: one thread's loop spread over the block, its instructions done */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	if (lt < 0 && au < 0 && n && top > 0 && ((at = tf_reread(k, prof)) >= 0 || (at = tf_stage_once(k, prof)) >= 0)) {
		/* rules RR and ST: the loads read once, the table staged once a resident block */
		lt = at;
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	if (au < 0 && lt < 0 && n && top > 0 && tf_flat_grid(k, prof))
		return;   /* rule flat_grid: a block a short row relaunched flat, the one change covers every instruction */
	at = n && top > 0 && lt < 0 ? tf_wide_fields(k, prof) : -1;
	if (at >= 0) {   /* a record's fields as one vector: its instructions done, the others' fixes after */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	} else if (au < 0 && lt < 0 && n && top > 0 && (wide_blocks(k, prof, order[0]) ||
								       tf_fuller_blocks(k, prof, order[0]) || tf_more_threads(k, prof, order[0])))
		return;   /* the one change covers every instruction */
	at = au < 0 && n && top > 0 ? tf_block_reduce(k, prof) : -1;
	if (at >= 0) {   /* the atomics' fix first (the block-rows form's other atomics with it), then the accesses' */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	at = n && top > 0 ? tf_occupancy(k, prof) : -1;
	if (at >= 0) {   /* rule OC: the shared memory a block reserves, a change of the launch, not of an access */
		done[pos[at]] = 1;
		groups++;
	}
	double dk;
	int d1, du = tk_dup_store(k, &dk, &d1);
	at = n && top > 0 && du >= 0 && du < n && !done[pos[du]] ? tf_dup_stores(k, prof) : -1;
	if (at >= 0) {   /* rule DU: the repeated outputs, each stored once */
		done[pos[at]] = 1;
		groups++;
	}
	at = n && top > 0 ? tf_store_once(k, prof) : -1;
	if (at < 0)
		at = n && top > 0 ? tf_warp_shuffle(k, prof) : -1;
	if (at >= 0) {   /* rules store_once and warp_shuffle: the repeated stores, the shared loop done */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	at = n && top > 0 ? tf_local_array(k, prof) : -1;
	if (at >= 0) {   /* a local array kept in registers: every local instruction done */
		for (int i = 0; i < n; i++)
			done[pos[i]] |= i == at || k->ins[i].fix.same_as == at + 1;
		groups++;
	}
	at = n && top > 0 ? tf_tile(k, prof) : -1;
	if (at >= 0) {   /* rule tile: the block's re-read operands staged in shared memory */
		done[pos[at]] = 1;
		groups++;
	}
	at = n && top > 0 ? tf_spill(k, prof) : -1;
	if (at >= 0) {   /* rule spill: ptxas' register spills, on an instruction without a fix of its own */
		done[pos[at]] = 1;
		groups++;
	}
	for (int i = 0; i < n && groups < top; i++) {
		int g[MAXG], m = 0, r = order[i];
		if (done[i] || (groups && waste(&k->ins[r]) < 0.005))
			continue;
		for (int j = i; j < n && m < MAXG; j++)
			if (!done[j] && tf_same_change(&k->ins[r], &k->ins[order[j]], 1)) {
				g[m++] = order[j];
				done[j] = 1;
			}
		nc = 0;
		fix_group(k, g, m, prof, &k->ins[r].fix, covered, &nc);
		for (int q = 1; q < m; q++)
			k->ins[g[q]].fix.same_as = r + 1;
		for (int q = 0; q < nc; q++)   /* a change that covers other lines (warp_rows: the loop) fixes them too */
			if (covered[q] != r && covered[q] < GM_TRACE_MAX_INSNS && !done[pos[covered[q]]]) {
				done[pos[covered[q]]] = 1;
				k->ins[covered[q]].fix.same_as = r + 1;
			}
		groups++;
	}
}
