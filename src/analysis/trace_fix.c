/*
 * trace_fix.c - the fix of one traced instruction: the rewrites `explain
 * --suggest` knows (src/model/suggest*.c) applied to its fitted pattern, the
 * best one's predicted speedup of the pattern, the WHOLE kernel's speedup by
 * Amdahl over the instruction's share of the kernel's memory time, and the
 * change at the user's line in words and as a short CUDA sketch (one row per
 * class below). Under GM_TRACE_WORTH the fix says that nothing is worth
 * changing; a data-dependent gather says that its scatter comes from the data.
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
	const char *words, *sketch;
} advice[] = {
	{ GM_TC_COLUMN, 1, "each thread walks its own row while the warp's lanes sit a row apart: give a row to a "
	  "warp (or a block) and let the lanes take consecutive elements of it",
	  "// one warp per row: lanes read consecutive elements\n"
	  "int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;\n"
	  "for (int i = lane; i < C; i += 32) acc += x[row * C + i];\n"
	  "acc = warp_sum(acc);   // __shfl_down_sync" },
	{ GM_TC_COLUMN, 0, "the warp's lanes read down a column: read the tile along its rows into shared memory "
	  "and take the column from there (or swap which index the lanes vary)",
	  "__shared__ float tile[32][33];   // +1: no bank conflicts on the column read\n"
	  "tile[threadIdx.y][threadIdx.x] = in[(row0 + threadIdx.y) * W + col0 + threadIdx.x];\n"
	  "__syncthreads();\n"
	  "v = tile[threadIdx.x][threadIdx.y];" },
	{ GM_TC_TRANSPOSED, 0, "threadIdx.x walks a column: swap the roles of threadIdx.x and threadIdx.y in the "
	  "index, or turn the tile in shared memory so that both the read and the write walk rows",
	  "// was: a[threadIdx.x * W + threadIdx.y]: the warp walks a column\n"
	  "__shared__ float tile[32][33];   // +1: the turned read is conflict-free\n"
	  "tile[threadIdx.y][threadIdx.x] = in[(r0 + threadIdx.y) * W + c0 + threadIdx.x];\n"
	  "__syncthreads();\n"
	  "out[(c0 + threadIdx.y) * H + r0 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];" },
	{ GM_TC_STRIDED, 0, "the lanes read one field of consecutive records: store the field as its own array "
	  "(structure of arrays), or load whole records with one wide load and use every field",
	  "// was: aos[i].f   (records of k elements)\n"
	  "float *f = soa_f;            // structure of arrays\n"
	  "v = f[i];                    // or: float4 r = reinterpret_cast<const float4*>(aos)[i];" },
	{ GM_TC_MISALIGNED, 0, "the warp starts off a 32 B sector: start rows and tiles at a multiple of 32 B "
	  "(pad the row pitch, cudaMallocPitch) or peel the first elements so the vector part is aligned",
	  "size_t pitch; cudaMallocPitch(&p, &pitch, W * sizeof(float), H);   // rows 512 B aligned\n"
	  "v = *((const float *)((const char *)p + row * pitch) + col);" },
	{ GM_TC_BANKS, 0, "lanes hit the same bank: pad the shared array's rows by one word, or swizzle the column "
	  "with the row (c ^ r)",
	  "__shared__ float tile[32][32 + 1];   // was [32][32]\n"
	  "v = tile[threadIdx.x][threadIdx.y];  // column reads now hit 32 different banks" },
	{ GM_TC_IRREGULAR, 0, "the lanes' addresses follow several strides: order the threads so that consecutive "
	  "lanes take consecutive elements",
	  "// make threadIdx.x the fastest index of the element" },
};

static void advise(const struct gm_trace_fit *f, struct gm_trace_fix *fx)
{
	int loop = f->map.iter_step != 0 && f->iters > 1;

	for (size_t i = 0; i < sizeof(advice) / sizeof(advice[0]); i++)
		if (advice[i].cls == f->cls && (advice[i].cls != GM_TC_COLUMN || advice[i].loop == loop)) {
			snprintf(fx->words, sizeof(fx->words), "%s", advice[i].words);
			snprintf(fx->sketch, sizeof(fx->sketch), "%s", advice[i].sketch);
			return;
		}
}

static double amdahl(double share, double s)
{
	return s > 0 ? 1.0 / ((1.0 - share) + share / s) : 1.0;
}

/* The fitted map is offset + K * gid + s * iter (a thread's own row, walked by its loop). */
static int row_loop(const struct gm_trace_kernel *k, const struct gm_trace_fit *f, int64_t *K, int64_t *s)
{
	int64_t g[] = { 0, 1, 37, k->threads / 3, k->threads - 1 }, v[GM_TV_N];
	const struct gm_trace_launch *l = k->l;

	if (!f->map.known || f->cls != GM_TC_COLUMN || f->iters <= 1 || !f->map.iter_step || l->grid[1] != 1 ||
	    l->grid[2] != 1 || l->block[1] != 1 || l->block[2] != 1)
		return -1;
	*K = f->cls_k;
	*s = f->map.iter_step;
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		memset(v, 0, sizeof(v));
		v[GM_TV_GID] = g[i];
		v[GM_TV_TX] = g[i] % l->block[0];
		v[GM_TV_BX] = g[i] / l->block[0];
		v[GM_TV_ITER] = 1;
		if (gm_trace_map_eval(&f->map, v) - f->map.offset != *K * g[i] + *s && gm_trace_map_eval(&f->map, v) -
		    f->map.offset != -*K * g[i] + *s)
			return -1;
	}
	return (int64_t)f->iters * (*s < 0 ? -*s : *s) >= *K ? 0 : -1;
}

/*
 * Rule warp_rows (loop interchange), the traced kernel's own: a column walk whose threads each walk their
 * own row in their loop reads the warp's 32 rows together instead, lane l taking element l of each step,
 * (gid / 32) * 32K + (gid % 32) * s + iter * 32 s: the same elements per warp, every step one contiguous
 * piece. Predicted by the launch model on the whole kernel with this pattern replaced.
 */
static int rule_warp_rows(const struct gm_trace_kernel *k, int i, const struct gm_profile *prof, struct gm_trace_fix *fx)
{
	const struct gm_trace_insn *x = &k->ins[i];
	struct gm_launch_out a, b, whole;
	static char expr[64][160];
	struct tk_swap sw[64];
	char why[200], lines[160] = "";
	int64_t K, s, K2, s2;
	int nsw = 0;
	size_t len = 0;

	if (!k->pred_ok || row_loop(k, &x->fit, &K, &s))
		return -1;
	/* the change at this line is the kernel's loop: every instruction that walks rows of K the same way */
	for (int j = 0; j < k->nins && nsw < 64; j++) {
		const struct gm_trace_insn *y = &k->ins[j];
		if (row_loop(k, &y->fit, &K2, &s2) || K2 != K || s2 != s || y->fit.iters != x->fit.iters)
			continue;
		snprintf(expr[nsw], sizeof(expr[0]), "(gid / 32) * %lld + (gid %% 32) * %lld + %lld", (long long)(32 * K),
			 (long long)s, (long long)y->fit.map.offset);
		sw[nsw] = (struct tk_swap){ j, expr[nsw], y->fit.iters, 32 * s };
		nsw++;
		if (j != i && y->in->line > 0 && len < sizeof(lines) - 16)
			len += (size_t)snprintf(lines + len, sizeof(lines) - len, "%s%d", len ? ", " : "", y->in->line);
	}
	const struct tk_swap *me = NULL;
	for (int j = 0; j < nsw; j++)
		me = sw[j].ins == i ? &sw[j] : me;
	if (!me || tk_predict(k, prof, i, NULL, 0, &a, why, sizeof(why)) ||
	    tk_predict(k, prof, i, me, 1, &b, why, sizeof(why)) ||
	    tk_predict(k, prof, -1, sw, nsw, &whole, why, sizeof(why)) || b.time_ms <= 0 || whole.time_ms <= 0)
		return -1;
	snprintf(fx->rewrite, sizeof(fx->rewrite), "warp_rows");
	snprintf(fx->change, sizeof(fx->change), "the warp's 32 rows read together, lane l taking element l of each "
		 "step: %.60s%s%s", me->expr, lines[0] ? "; the same loop at lines " : "", lines);
	fx->pattern_speedup = a.time_ms / b.time_ms;
	fx->kernel_speedup = k->pred.time_ms / whole.time_ms;
	return 0;
}

/* suggest's rewrites of the fitted pattern; 0 and the best row's speedup, or -1 with why in fx->words. */
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

void gm_trace_fix_find(const struct gm_trace_kernel *k, int i, const struct gm_profile *prof, struct gm_trace_fix *fx)
{
	const struct gm_trace_insn *x = &k->ins[i];
	enum gm_trace_class c = x->fit.cls;

	memset(fx, 0, sizeof(*fx));
	fx->have = 1;
	fx->pattern_speedup = fx->kernel_speedup = 1;
	double per = x->fit.meas_per_req > 0 ? x->fit.meas_per_req : x->fit.sample_per_req;
	if (c == GM_TC_GATHER && per > 0 && x->fit.ideal_per_req > 0 && per <= x->fit.ideal_per_req * 1.02) {
		snprintf(fx->words, sizeof(fx->words), "nothing worth changing: the rows come from the data, but each "
			 "warp's lanes read consecutive elements (%.2f sectors a request, the fewest its bytes need)", per);
		return;
	}
	if (c == GM_TC_GATHER) {
		snprintf(fx->words, sizeof(fx->words), "its scatter comes from the data: the addresses are read from "
			 "memory, so no rewrite of the index applies. Sorting or binning the indices so that a warp's "
			 "lanes touch neighbouring elements, or keeping a small table in shared memory, are the options");
		snprintf(fx->sketch, sizeof(fx->sketch), "// sort the indices once (thrust::sort_by_key) so that\n"
			 "// neighbouring threads gather neighbouring rows");
		return;
	}
	if (c == GM_TC_UNSAMPLED) {
		snprintf(fx->words, sizeof(fx->words), "no pattern without sampled addresses: trace again with --samples "
			 "64 (or more), narrowed with --kernel / -s / -c");
		return;
	}
	if (c == GM_TC_COALESCED || c == GM_TC_BROADCAST || c == GM_TC_SHARED_OK) {
		snprintf(fx->words, sizeof(fx->words), "nothing worth changing: the access is %s", x->fit.cls_text);
		return;
	}
	if (x->in->op == GM_TO_ATOMIC || x->in->op == GM_TO_REDUCTION || (x->in->space == GM_TS_SHARED &&
									  x->in->op != GM_TO_LOAD)) {
		snprintf(fx->words, sizeof(fx->words), "nothing predicted: explain --suggest rewrites global loads and "
			 "stores and shared loads; this is a %s %s", gm_trace_space_name(x->in->space),
			 gm_trace_op_name(x->in->op));
		advise(&x->fit, fx);
		return;
	}
	if (!rule_warp_rows(k, i, prof, fx))
		;
	else if (suggest_best(k, x, prof, fx))
		return;
	else
		fx->kernel_speedup = amdahl(x->time_share, fx->pattern_speedup);
	fx->worth = fx->kernel_speedup >= GM_TRACE_WORTH;
	if (!fx->worth) {
		snprintf(fx->words, sizeof(fx->words), "nothing worth changing: the best rewrite (%s) predicts %.2fx for "
			 "the pattern and %.2fx for the kernel (the instruction is %.0f %% of its memory time)",
			 fx->rewrite, fx->pattern_speedup, fx->kernel_speedup, 100 * x->time_share);
		return;
	}
	advise(&x->fit, fx);
	if (!fx->words[0])
		snprintf(fx->words, sizeof(fx->words), "%s", fx->change);
}
