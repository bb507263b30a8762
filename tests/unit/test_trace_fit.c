/* test_trace_fit.c - `gpumem trace`'s fit, table-driven: synthetic launches from known index expressions
 * (tests/unit/trace_synth.h: every warp counted by the warp model's rules, 64 warps sampled evenly over
 * the launch, as the collector leaves them). Each row: the fit reproduces every sampled lane (or says
 * gather), the class and its k are right, and the warp model's sectors (wavefronts) per request for the
 * fitted expression equal the document's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"
#include "trace_synth.h"

struct row {
	struct synth s;
	enum gm_trace_class cls;
	int64_t k;                    /* cls_k (0: not checked) */
	int fitted;
};

#define G GM_TS_GLOBAL
#define S GM_TS_SHARED
#define LD GM_TO_LOAD
#define ST GM_TO_STORE

static const int64_t halving[8] = { 128, 64, 32, 16, 8, 4, 2, 1 };

static const struct row rows[] = {
	{ { "coalesced", "gid", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "coalesced_store_double", "gid", { 128, 1, 1 }, { 333, 1, 1 }, 8, G, ST, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "stride2", "gid*2", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_STRIDED, 2, 1 },
	{ { "stride32", "gid*32", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_STRIDED, 32, 1 },
	{ { "column_walk", "(gid % 1024) * 4096 + gid / 1024", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_COLUMN, 4096, 1 },
	{ { "column_walk_store", "(gid % 4096) * 4096 + gid / 4096", { 256, 1, 1 }, { 4096, 1, 1 }, 4, G, ST, 1, 0, 0 },
	  GM_TC_COLUMN, 4096, 1 },
	{ { "transposed_2d", "(by*32 + tx) * 4096 + bx*8 + ty", { 32, 8, 1 }, { 512, 128, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_TRANSPOSED, 4096, 1 },
	{ { "coalesced_2d", "(by*8 + ty) * 4096 + bx*32 + tx", { 32, 8, 1 }, { 128, 512, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_COALESCED, 0, 1 },
	{ { "misaligned", "gid + 1", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_MISALIGNED, 0, 1 },
	{ { "broadcast", "bx", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_BROADCAST, 0, 1 },
	{ { "aos_field", "gid*3 + 1", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_STRIDED, 3, 1 },
	{ { "aos_double_field", "gid*4 + 2", { 128, 1, 1 }, { 700, 1, 1 }, 8, G, LD, 1, 0, 0 }, GM_TC_STRIDED, 4, 1 },
	{ { "shared_tx32", "tx*32", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 1, 0, 0 }, GM_TC_BANKS, 32, 1 },
	{ { "shared_ok", "tx", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 1, 0, 0 }, GM_TC_SHARED_OK, 0, 1 },
	{ { "shared_pad33", "(tx % 32) * 33 + tx / 32", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 1, 0, 0 },
	  GM_TC_SHARED_OK, 0, 1 },
	{ { "gather_hash", "(gid * 2654435761 + (gid >> 7) * 40503) % 1000003", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G,
	    LD, 1, 0, 0 }, GM_TC_GATHER, 0, 0 },
	{ { "row_per_thread_loop", "gid*768", { 128, 1, 1 }, { 64, 1, 1 }, 4, G, LD, 8, 1, 0 }, GM_TC_COLUMN, 768, 1 },
	{ { "warp_per_row_loop", "(bx*8 + tid/32)*768 + lane", { 256, 1, 1 }, { 256, 1, 1 }, 4, G, LD, 24, 32, 0 },
	  GM_TC_COALESCED, 0, 1 },
	{ { "block_per_row_loop", "bx*3072 + tx", { 256, 1, 1 }, { 512, 1, 1 }, 4, G, LD, 12, 256, 0 },
	  GM_TC_COALESCED, 0, 1 },
	{ { "permute_radix12", "gid % 64 + (gid / 64 % 1024) * 2304 + (gid / 65536 % 12) * 64 + (gid / 786432) * 2359296",
	    { 256, 1, 1 }, { 12288, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "column_radix12", "(gid % 12) * 65536 + gid / 12", { 256, 1, 1 }, { 768, 1, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_COLUMN, 65536, 1 },
	{ { "encoder_wpe", "(gid / 768 % 1024) * 768 + gid % 768", { 256, 1, 1 }, { 6144, 1, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_COALESCED, 0, 1 },
	{ { "rows_of_1000", "(gid % 1000) * 4 + gid / 1000 * 4096", { 256, 1, 1 }, { 1000, 1, 1 }, 4, G, LD, 1, 0, 0 },
	  GM_TC_STRIDED, 4, 1 },
	{ { "float4_grid_stride", "gid", { 256, 1, 1 }, { 264, 1, 1 }, 16, G, LD, 6, 67584, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "reversed", "262143 - gid", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "local_spill", "3", { 128, 1, 1 }, { 64, 1, 1 }, 4, GM_TS_LOCAL, ST, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	/* a double 40 B into the stack: the lanes' words interleaved from a 32 B boundary, 8 sectors, not 9 */
	{ { "local_spill_double", "5", { 128, 1, 1 }, { 64, 1, 1 }, 8, GM_TS_LOCAL, LD, 1, 0, 0 }, GM_TC_COALESCED, 0, 1 },
	/* v[m] of a float v[9] with m from the data: the lanes at different offsets of their stacks */
	{ { "local_indexed", "(gid * 2654435761) % 9", { 128, 1, 1 }, { 64, 1, 1 }, 4, GM_TS_LOCAL, LD, 1, 0, 0 },
	  GM_TC_LOCAL_INDEXED, 0, 0 },
	{ { "tree_reduction_shared", "tx", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 8, 0, 0, 0, halving, 1 },
	  GM_TC_SHARED_OK, 0, 1 },
	{ { "tree_reduction_strided", "tx*2", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 8, 0, 0, 0, halving, 1 },
	  GM_TC_BANKS, 2, 1 },
	/* warps sampled at exactly k T / S: the bits between the stride and the lanes never vary; the class
	   and the sectors of the sampled warps still come out right */
	{ { "column_walk_even", "(gid % 1024) * 4096 + gid / 1024", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 0, 1 },
	  GM_TC_COLUMN, 4096, 1 },
	/* the warp in the block from the same counter as the block (bits 5-7 and 13-15 of gid move together): the
	   smooth split recovers the source's map (the round trip below checks it) */
	{ { "warp_per_row_collinear", "(gid / 32) * 4096 + gid % 32", { 256, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 8, 512, 0, 3 },
	  GM_TC_COALESCED, 0, 1 },
};

static void one(const struct row *r)
{
	struct gm_trace_launch l;
	struct gm_trace_fit f;

	assert_int_equal(synth_launch(&r->s, 0x7f1200000000ll, &l), 0);
	gm_trace_fit_instr(&l, &l.ins[0], &f);
	print_message("%-24s %-14s k=%-6lld expr '%s' model %.3f measured %.3f  %s%s\n", r->s.name,
		      gm_trace_class_name(f.cls), (long long)f.cls_k, f.expr, f.model_per_req, f.meas_per_req,
		      f.cls_text, f.map.known ? "" : f.why);
	assert_int_equal(f.map.known, r->fitted);
	assert_int_equal(f.cls, r->cls);
	if (r->s.space == GM_TS_LOCAL)   /* the samples on the hardware's layout: the launch's sectors a request */
		assert_true(fabs(f.sample_per_req / f.meas_per_req - 1) < 0.05);
	if (r->k)
		assert_int_equal(f.cls_k, r->k);
	if (r->fitted) {
		/* a tree reduction's sampled warps are not the launch's mix of masks: the check may differ there */
		assert_int_equal(f.check_ok, r->s.tab_mask ? f.check_ok : 1);
		if (r->s.iters > 1 && !r->s.tab)
			assert_int_equal(f.map.iter_step, r->s.step);
		for (int q = 0; r->s.tab && q < l.ins[0].nsamples; q++) {   /* every sampled iteration's offset */
			int it = l.ins[0].samples[q].iter;
			assert_int_equal(gm_trace_map_iter(&f.map, it), r->s.tab[it] - r->s.tab[0]);
		}
	}
	synth_free(&l);
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		one(&rows[i]);
}

/* Grid-stride loops as the compiler unrolls them (by 4): a thread whose gid is below n % S runs one trip more,
   so the unrolled body starts 1 + [gid < T] launch-wide steps S past gid (the launch's n threads, e elements
   each: (n + T - 1 - gid) / n is 1 below T). No map of the ids gives that step function: the fit works modulo S
   (stage F), and the class is the one trip's. A hash with a loop stays a gather. */
static const struct row grid_stride_rows[] = {
	{ { "grid_stride_unrolled", "gid + (1 + (n + 9999 - gid) / n) * n", { 256, 1, 1 }, { 264, 1, 1 }, 16, G, LD, 3,
	    4 * 67584, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "grid_stride_unrolled_2d", "gid + (2 + (n + 1000 - gid) / n) * n", { 32, 8, 1 }, { 16, 16, 1 }, 8, G, ST, 2,
	    4 * 65536, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "grid_stride_unrolled_pairs", "gid*2 + (1 + (n + 9999 - gid) / n) * 2 * n", { 256, 1, 1 }, { 264, 1, 1 }, 4,
	    G, LD, 2, 8 * 67584, 0 }, GM_TC_STRIDED, 2, 1 },
	{ { "grid_stride_no_pairs", "gid + (1 + (n + 9999 - gid) / n) * n", { 256, 1, 1 }, { 264, 1, 1 }, 16, G, LD, 1,
	    0, 0 }, GM_TC_COALESCED, 0, 1 },
	{ { "gather_hash_loop", "(gid * 2654435761 + (gid >> 7) * 40503) % 1000003", { 256, 1, 1 }, { 264, 1, 1 }, 4, G,
	    LD, 2, 67584, 0 }, GM_TC_GATHER, 0, 0 },
};

static void test_grid_stride(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(grid_stride_rows) / sizeof(grid_stride_rows[0]); i++)
		one(&grid_stride_rows[i]);
}

/* Stage G: a 3x3 stencil's neighbours clamped at the image's border (`min(max(x + dx, 0), W - 1)`): block 0 is
   always sampled, and its lanes at x - 1 < 0 or y - 1 < 0 read the border's element instead, which no map of the
   ids reproduces. The interior blocks' map stands for the instruction and the class is the interior's (4-byte
   words one element before the row's sector: misaligned); edge > 0 says the border's warps were set aside. */
static const struct row clamped_rows[] = {
	{ { "clamped_up_left", "(by*8 + ty - 1 < 0 ? 0 : by*8 + ty - 1) * 4000 + (bx*32 + tx - 1 < 0 ? 0 : bx*32 + tx - 1)",
	    { 32, 8, 1 }, { 125, 400, 1 }, 4, G, LD, 1, 0, 0, 2 }, GM_TC_MISALIGNED, 0, 1 },
	/* the control: a hash of the ids (a square modulo a prime) fits no interior map either: a gather */
	{ { "gather_hash_2d", "((by*8 + ty) * 4000 + bx*32 + tx) * ((by*8 + ty) * 4000 + bx*32 + tx) % 1000003", { 32, 8, 1 }, { 125, 400, 1 },
	    4, G, LD, 1, 0, 0, 2 }, GM_TC_GATHER, 0, 0 },
};

static void test_clamped(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(clamped_rows) / sizeof(clamped_rows[0]); i++) {
		const struct row *r = &clamped_rows[i];
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		assert_int_equal(synth_launch(&r->s, 0x7f1200000000ll, &l), 0);
		gm_trace_fit_instr(&l, &l.ins[0], &f);
		print_message("%-24s %-14s expr '%s' edge %d model %.3f measured %.3f  %s\n", r->s.name,
			      gm_trace_class_name(f.cls), f.expr, f.edge, f.model_per_req, f.meas_per_req, f.cls_text);
		assert_int_equal(f.map.known, r->fitted);
		assert_int_equal(f.cls, r->cls);
		if (r->fitted) {
			assert_true(f.edge > 0);
			assert_non_null(strstr(f.cls_text, "clamped at the grid's edge"));
		}
		synth_free(&l);
	}
}

/* The fitted expression, parsed again, gives the same element index as the original for every thread
   of a small launch (through the 1D form the launch model and --suggest read). */
static void test_expr_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		struct gm_expr *e1 = NULL, *e2 = NULL;
		struct gm_expr_error err;

		if (!r->fitted || (r->s.even && r->s.even != 3) || r->s.tab || r->s.space == GM_TS_LOCAL)
			continue;   /* local: the 1D form is the hardware's layout (gid), not the stack offset */
		assert_int_equal(synth_launch(&r->s, 0x7f1200000000ll, &l), 0);
		gm_trace_fit_instr(&l, &l.ins[0], &f);
		assert_int_equal(gm_expr_parse(f.expr1d, &e1, &err), GM_OK);
		assert_int_equal(gm_expr_parse(r->s.expr, &e2, &err), GM_OK);
		int64_t tpb = (int64_t)r->s.block[0] * r->s.block[1] * r->s.block[2];
		int64_t n = tpb * r->s.grid[0] * r->s.grid[1] * r->s.grid[2];
		for (int64_t g = 0; g < n; g += 1 + g / 64) {
			struct gm_access a = { 0 };
			struct gm_thread_vars v1, v2;
			int64_t x1, x2;
			memcpy(a.block, r->s.block, sizeof(a.block));
			gm_thread_vars_1d(&a, n, g, &v1);
			v2 = v1;
			int64_t B = g / tpb;
			v2.bx = B % r->s.grid[0], v2.by = B / r->s.grid[0] % r->s.grid[1];
			v2.bz = B / (r->s.grid[0] * r->s.grid[1]);
			assert_int_equal(gm_expr_eval(e1, &v1, &x1, &err), GM_OK);
			assert_int_equal(gm_expr_eval(e2, &v2, &x2, &err), GM_OK);
			/* the same byte address: base + index * size on both sides */
			assert_int_equal(f.map.base + x1 * r->s.elem, 0x7f1200000000ll + x2 * r->s.elem);
		}
		gm_expr_free(e1);
		gm_expr_free(e2);
		synth_free(&l);
	}
}

/* The prior (trace_prior.c): warp 0 of evenly spaced blocks never varies threadIdx.y, nor blockIdx.x when
   the spacing is a multiple of gridDim.x. Whole kernels (a naive transpose; a tiled one whose loop over the
   tile's rows is unrolled into 4 instructions) analysed together: every instruction's 1D expression gives
   the source's address for every thread. */
struct kernel_row {
	const char *name;
	int n, one_array;             /* one_array: every instruction reads the same array (an unrolled loop) */
	struct synth ins[4];
};

static void check_kernel(const struct kernel_row *kr)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	struct gm_profile p;
	int exact;

	assert_int_equal(gm_profile_nearest("NVIDIA H200", &p, &exact), GM_OK);
	assert_int_equal(synth_launch(&kr->ins[0], 0x7f1200000000ll, &l), 0);
	for (int i = 1; i < kr->n; i++)
		assert_int_equal(synth_append(&kr->ins[i], 0x7f1200000000ll + (kr->one_array ? 0 : (int64_t)i << 32),
					      kr->one_array ? 10 : 10 + i, &l), 0);
	assert_int_equal(gm_trace_kernel_analyse(&l, &p, &k), GM_OK);
	for (int i = 0; i < kr->n; i++) {
		const struct synth *r = &kr->ins[i];
		struct gm_expr *e1 = NULL, *e2 = NULL;
		struct gm_expr_error err;
		int64_t tpb = (int64_t)r->block[0] * r->block[1] * r->block[2];
		int64_t n = tpb * r->grid[0] * r->grid[1] * r->grid[2];

		print_message("%-16s %d: '%s' (assumed 0x%x)\n", kr->name, i, k.ins[i].fit.expr, k.ins[i].fit.map.assumed);
		assert_int_equal(gm_expr_parse(k.ins[i].fit.expr1d, &e1, &err), GM_OK);
		assert_int_equal(gm_expr_parse(r->expr, &e2, &err), GM_OK);
		for (int64_t g = 0; g < n; g += 1 + g / 50) {
			struct gm_access a = { 0 };
			struct gm_thread_vars v1, v2;
			int64_t x1, x2, B = g / tpb;
			memcpy(a.block, r->block, sizeof(a.block));
			gm_thread_vars_1d(&a, n, g, &v1);
			v2 = v1;
			v2.bx = B % r->grid[0], v2.by = B / r->grid[0] % r->grid[1], v2.bz = 0;
			assert_int_equal(gm_expr_eval(e1, &v1, &x1, &err), GM_OK);
			assert_int_equal(gm_expr_eval(e2, &v2, &x2, &err), GM_OK);
			assert_int_equal(k.ins[i].fit.map.base + x1 * r->elem,
					 0x7f1200000000ll + (kr->one_array ? 0 : (int64_t)i << 32) + x2 * r->elem);
		}
		gm_expr_free(e1);
		gm_expr_free(e2);
	}
	free(k.ins);
	synth_free(&l);
}

static void test_prior(void **state)
{
#define T2 { 32, 8, 1 }, { 128, 512, 1 }
#define T3 { 32, 8, 1 }, { 128, 256, 1 }
	static const struct kernel_row kr[] = {
		{ "naive_transpose", 2, 0, {
		  { "ld", "(by*8 + ty)*4096 + bx*32 + tx", T2, 4, G, LD, 1, 0, 16, 2 },
		  { "st", "(bx*32 + tx)*4096 + by*8 + ty", T2, 4, G, ST, 1, 0, 16, 2 } } },
		{ "tiled_loads", 4, 1, {
		  { "l0", "(by*32 + ty)*4096 + bx*32 + tx", T3, 4, G, LD, 1, 0, 4, 2 },
		  { "l1", "(by*32 + ty + 8)*4096 + bx*32 + tx", T3, 4, G, LD, 1, 0, 4, 2 },
		  { "l2", "(by*32 + ty + 16)*4096 + bx*32 + tx", T3, 4, G, LD, 1, 0, 4, 2 },
		  { "l3", "(by*32 + ty + 24)*4096 + bx*32 + tx", T3, 4, G, LD, 1, 0, 4, 2 } } },
		{ "tiled_stores", 4, 1, {
		  { "s0", "(bx*32 + ty)*8192 + by*32 + tx", T3, 4, G, ST, 1, 0, 4, 2 },
		  { "s1", "(bx*32 + ty + 8)*8192 + by*32 + tx", T3, 4, G, ST, 1, 0, 4, 2 },
		  { "s2", "(bx*32 + ty + 16)*8192 + by*32 + tx", T3, 4, G, ST, 1, 0, 4, 2 },
		  { "s3", "(bx*32 + ty + 24)*8192 + by*32 + tx", T3, 4, G, ST, 1, 0, 4, 2 } } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(kr) / sizeof(kr[0]); i++)
		check_kernel(&kr[i]);
}

/* Random maps (a fixed seed): strides, column walks of any radix, lane/warp splits, rows with a gap, two radices,
   over blocks of 96-1024 threads, loops of 1-7 iterations, 1-8 B elements. Each is fitted from its samples and
   its 1D expression must give the source's address for threads spread over the whole launch. */
static uint64_t rs = 12345;
static uint64_t rnd(void)
{
	rs ^= rs << 13, rs ^= rs >> 7, rs ^= rs << 17;
	return rs;
}

static void test_random_maps(void **state)
{
	static const int bs[] = { 96, 128, 200, 256, 512, 1024 };

	(void)state;
	for (int t = 0; t < 40; t++) {
		char expr[256];
		int64_t N = (rnd() % 2) ? (1 << (2 + rnd() % 10)) : (int64_t)(3 + rnd() % 1000), M = 1 + rnd() % 5000;
		int64_t s8 = 1 + rnd() % 8;
		switch (rnd() % 5) {
		case 0: snprintf(expr, sizeof(expr), "gid*%lld + %lld", (long long)s8, (long long)(rnd() % 64)); break;
		case 1: snprintf(expr, sizeof(expr), "(gid %% %lld) * %lld + gid / %lld", (long long)N, (long long)M, (long long)N); break;
		case 2: snprintf(expr, sizeof(expr), "(gid / 32) * %lld + (gid %% 32) * %lld", (long long)M, (long long)s8); break;
		case 3: snprintf(expr, sizeof(expr), "(gid %% %lld) + (gid / %lld) * %lld", (long long)N, (long long)N,
				 (long long)(N + rnd() % 100)); break;
		default: snprintf(expr, sizeof(expr), "(gid / %lld %% 4) * %lld + (gid %% %lld) + (gid / %lld) * %lld", (long long)N,
				  (long long)M, (long long)N, (long long)(4 * N), (long long)(4 * M)); break;
		}
		int B = bs[rnd() % 6], it = rnd() % 3 ? 1 : 2 + (int)(rnd() % 6);
		struct synth r = { "random", expr, { B, 1, 1 }, { 16 + (int64_t)(rnd() % 300), 1, 1 }, 1 << (rnd() % 4), G, LD,
				   it, it > 1 ? (int64_t)(1 + rnd() % 64) : 0, 0, 0, NULL, 0 };
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		struct gm_expr *e1 = NULL, *e2 = NULL;
		struct gm_expr_error err;
		int64_t nt = (int64_t)B * r.grid[0];

		assert_int_equal(synth_launch(&r, 0x7f0000000000ll, &l), 0);
		gm_trace_fit_instr(&l, &l.ins[0], &f);
		if (!f.map.known)
			print_message("not fitted: %s (block %d, %d iterations): %s\n", expr, B, it, f.why);
		assert_int_equal(f.map.known, 1);
		assert_int_equal(gm_expr_parse(f.expr1d, &e1, &err), GM_OK);
		assert_int_equal(gm_expr_parse(expr, &e2, &err), GM_OK);
		for (int64_t g = 0; g < nt; g += 1 + (int64_t)(rnd() % 97)) {
			struct gm_access a = { 0 };
			struct gm_thread_vars v;
			int64_t x1, x2;
			a.block[0] = B, a.block[1] = a.block[2] = 1;
			gm_thread_vars_1d(&a, nt, g, &v);
			assert_int_equal(gm_expr_eval(e1, &v, &x1, &err), GM_OK);
			assert_int_equal(gm_expr_eval(e2, &v, &x2, &err), GM_OK);
			assert_int_equal(f.map.base + x1 * r.elem, 0x7f0000000000ll + x2 * r.elem);
		}
		if (it > 1)
			assert_int_equal(f.map.iter_step, r.step);
		gm_expr_free(e1);
		gm_expr_free(e2);
		synth_free(&l);
	}
}

/* Rows of an odd pitch (509 halves = 1018 B: each row's start 26 B further round its 32 B sector, the same
   again every 16 rows): a few sampled warps are not the launch's mix of offsets, and the check counts them at
   the launch's (trace_mix.c). Each row: its expression, 32 sampled warps, and whether the sampled figure alone
   is more than the check's 1 % off. */
static void test_mix(void **state)
{
	static const struct { struct synth s; int off; } rows[] = {
		{ { "warp_a_row_509", "(gid / 32) * 509 + gid % 32", { 256, 1, 1 }, { 2048, 1, 1 }, 2, G, LD, 1, 0, 32 }, 0 },
		{ { "rows_509_2d", "(by*8 + ty) * 509 + bx*32 + tx", { 32, 8, 1 }, { 15, 64, 1 }, 2, G, LD, 1, 0, 32 }, 0 },
		{ { "rows_509_loop", "(gid / 32) * 509 + gid % 32", { 256, 1, 1 }, { 512, 1, 1 }, 2, G, LD, 6, 11, 32 }, 1 },
		{ { "rows_1001_floats", "(gid / 32) * 1001 + gid % 32", { 128, 1, 1 }, { 1024, 1, 1 }, 4, G, LD, 1, 0, 32 }, 1 },
	};
	double w[GM_SECTOR_BYTES];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		double sum = 0;
		assert_int_equal(synth_launch(&rows[i].s, 0x7f1200000000ll, &l), 0);
		gm_trace_fit_instr(&l, &l.ins[0], &f);
		print_message("%-18s expr '%s' sampled %.4f model %.4f measured %.4f\n", rows[i].s.name, f.expr,
			      f.sample_per_req, f.model_per_req, f.meas_per_req);
		assert_int_equal(f.map.known, 1);
		assert_int_equal(tm_mix(&l, &l.ins[0], &f, w), 0);
		for (int r = 0; r < GM_SECTOR_BYTES; r++)
			sum += w[r];
		assert_true(fabs(sum - 1) < 1e-9);
		assert_int_equal(f.check_ok, 1);
		assert_int_equal(fabs(f.sample_per_req / f.meas_per_req - 1) > 0.01, rows[i].off);
		synth_free(&l);
	}
}

/* Where a warp's lanes sit at offsets that change from warp to warp (gid / 3: a lane's element depends on the
   warp's start mod 3), or on shared memory, the mix does not apply and the sampled warps stand. */
static void test_mix_refused(void **state)
{
	static const struct synth thirds = { "thirds", "gid / 3", { 256, 1, 1 }, { 64, 1, 1 }, 4, G, LD, 1, 0, 0 };
	static const struct synth shared = { "shared", "tx * 3", { 256, 1, 1 }, { 64, 1, 1 }, 4, S, LD, 1, 0, 0 };
	struct gm_trace_launch l;
	struct gm_trace_fit f;
	double w[GM_SECTOR_BYTES];

	(void)state;
	assert_int_equal(synth_launch(&thirds, 0x7f1200000000ll, &l), 0);
	gm_trace_fit_instr(&l, &l.ins[0], &f);
	if (f.map.known) {
		assert_int_equal(tm_shape_fixed(&l, &f.map), 0);
		assert_int_equal(tm_mix(&l, &l.ins[0], &f, w), -1);
	}
	synth_free(&l);
	assert_int_equal(synth_launch(&shared, 0x7f1200000000ll, &l), 0);
	gm_trace_fit_instr(&l, &l.ins[0], &f);
	assert_int_equal(tm_mix(&l, &l.ins[0], &f, w), -1);
	synth_free(&l);
}

/* A coalesced load whose lanes the data masks (`x > 0 ? dy[i] : 0`, set 25's relu_bwd_2d in 32x8 blocks): every warp
   starts on its sector, so the sectors above the active lanes' need are the mask's, not misalignment (trace_mix.c
   tm_aligned); the same map one element off stays misaligned. */
static void test_masked(void **state)
{
	static const struct synth rows[] = {
		{ "relu_dy", "tx + ty*4096 + bx*32 + by*32768", { 32, 8, 1 }, { 128, 16, 1 }, 4, G, LD, 1, 0, 0 },
		{ "relu_dy_off", "tx + ty*4096 + bx*32 + by*32768 + 1", { 32, 8, 1 }, { 128, 16, 1 }, 4, G, LD, 1, 0, 0 },
	};
	(void)state;
	for (int r = 0; r < 2; r++) {
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		assert_int_equal(synth_launch(&rows[r], 0x7f1200000000ll, &l), 0);
		struct gm_trace_instr *in = &l.ins[0];
		uint64_t h = 99;
		for (int i = 0; i < in->nsamples; i++) {   /* about half the lanes active, at random */
			h = h * 6364136223846793005ull + 1442695040888963407ull;
			in->samples[i].mask = in->samples[i].have = (uint32_t)(h >> 32) | 1u;
		}
		in->thread_accesses = in->executions * 16;
		in->sectors = in->requests * (r ? 5 : 4);
		in->ideal_sectors = in->requests * 2.0;   /* 16 active lanes of 4 B */
		gm_trace_fit_instr(&l, in, &f);
		print_message("%-12s %s: %s (%.2f %.2f %.2f)\n", rows[r].name, gm_trace_class_name(f.cls), f.cls_text, f.meas_per_req, f.ideal_per_req, f.sample_per_req);
		assert_int_equal(f.map.known, 1);
		assert_int_equal(f.cls, r ? GM_TC_MISALIGNED : GM_TC_COALESCED);
		assert_int_equal(strstr(f.cls_text, "lanes masked by the data") != NULL, !r);
		synth_free(&l);
	}
}

/* Sectors above the need of a map whose first lanes are consecutive: a parity test that idles every other lane
   (set 27's red-black sweep: one colour of a checkerboard) is strided by 2, not misaligned; a map whose warp breaks
   into runs of 2 elements (set 12's Morton store) is irregular, not misaligned nor masked (every lane active). */
static void test_lane_shapes(void **state)
{
	static const struct synth rows[] = {
		{ "rb_sweep", "tx + ty*8192 + bx*32 + by*65536", { 32, 8, 1 }, { 16, 16, 1 }, 8, G, LD, 1, 0, 0 },
		{ "morton", "(gid % 2) + (gid / 2 % 2)*4 + (gid / 4 % 2)*16 + (gid / 8 % 2)*64 + (gid / 16 % 2)*256 + "
		  "(gid / 32)*1024", { 256, 1, 1 }, { 64, 1, 1 }, 4, G, ST, 1, 0, 0 },
	};
	(void)state;
	for (int r = 0; r < 2; r++) {
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		assert_int_equal(synth_launch(&rows[r], 0x7f1200000000ll, &l), 0);
		struct gm_trace_instr *in = &l.ins[0];
		for (int i = 0; !r && i < in->nsamples; i++) {   /* the colour (i + j) & 1 == 0 of each warp's row */
			struct gm_trace_sample *s = &in->samples[i];
			int row = s->block[1] * 8 + s->warp;
			s->mask = s->have = row % 2 ? 0xaaaaaaaau : 0x55555555u;
		}
		if (!r) {   /* 16 lanes of 8 B a request over the warp's 256 B */
			in->thread_accesses = in->executions * 16;
			in->sectors = in->requests * 8;
			in->ideal_sectors = in->requests * 4;
		}
		gm_trace_fit_instr(&l, in, &f);
		print_message("%-10s %s: %s\n", rows[r].name, gm_trace_class_name(f.cls), f.cls_text);
		assert_int_equal(f.map.known, 1);
		assert_int_equal(f.cls, r ? GM_TC_IRREGULAR : GM_TC_STRIDED);
		assert_int_equal(f.cls_k, 2);
		assert_non_null(strstr(f.cls_text, r ? "runs of 2 elements" : "parity"));
		assert_int_equal(tc_parity_period(in), r ? 0 : 2);
		synth_free(&l);
	}
}

/* Atomic adds whose map leaves out an id of the block (a column sum, 32x8 blocks adding their 8 rows into the
   same 32 words): tk_block_sharers counts the block's threads an address, and the class says so; a map of every
   id of the block has one thread an address. */
static void test_block_sharers(void **state)
{
	static const struct synth rows_[] = {
		{ "column_sum_atomic", "bx*32 + tx", { 32, 8, 1 }, { 4, 64, 1 }, 4, G, GM_TO_REDUCTION, 1, 0, 0 },
		{ "own_words_atomic", "(by*4 + bx)*256 + ty*32 + tx", { 32, 8, 1 }, { 4, 64, 1 }, 4, G, GM_TO_REDUCTION, 1,
		  0, 0 },
	};
	static const double want[] = { 8, 1 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct gm_trace_launch l;
		struct gm_trace_fit f;
		assert_int_equal(synth_launch(&rows_[i], 0x7f1200000000ll, &l), 0);
		l.ins[0].sass = strdup("REDG.E.ADD.F32.FTZ.RN.STRONG.GPU");
		gm_trace_fit_instr(&l, &l.ins[0], &f);
		print_message("%-20s sharers %.1f  %s\n", rows_[i].name, tk_block_sharers(&l, &l.ins[0], &f), f.cls_text);
		assert_true(fabs(tk_block_sharers(&l, &l.ins[0], &f) - want[i]) < 1e-9);
		assert_int_equal(strstr(f.cls_text, "threads of a block update each address") != NULL, want[i] >= 2);
		synth_free(&l);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_grid_stride),
		cmocka_unit_test(test_clamped),
		cmocka_unit_test(test_expr_roundtrip),
		cmocka_unit_test(test_prior),
		cmocka_unit_test(test_random_maps),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_mix_refused),
		cmocka_unit_test(test_masked),
		cmocka_unit_test(test_lane_shapes),
		cmocka_unit_test(test_block_sharers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
