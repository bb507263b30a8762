/*
 * test_model.c - the access-pattern model, one table row per pattern.
 *
 * Global rows expect requests / sectors / lines, shared rows wavefronts /
 * bank conflicts / max ways (docs/MODEL.md gives the rules and evidence).
 * Rows marked "measured" were read off an H100 with ncu; rows marked "rule"
 * follow from the phase rule those measurements fixed (src/model/shared.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "gpumem/model.h"

struct row {
	const char *name;
	enum gm_space space;
	enum gm_op op;
	int eb;                 /* element bytes */
	int block[3];
	int bx;                 /* blockIdx.x */
	int warp;
	int64_t base;
	const char *index, *active;
	int64_t want[3];        /* global: requests sectors lines; shared: wavefronts conflicts max_ways */
	const char *verdict;    /* a substring the verdict must hold, or NULL */
};

#define LD GM_OP_LOAD
#define ST GM_OP_STORE
#define G(name, op, eb, bdx, bdy, bdz, warp, base, idx, act, r, s, l, v) \
	{ name, GM_SPACE_GLOBAL, op, eb, { bdx, bdy, bdz }, 0, warp, base, idx, act, { r, s, l }, v }
#define S(name, op, eb, bdx, bdy, bdz, warp, base, idx, act, w, c, m, v) \
	{ name, GM_SPACE_SHARED, op, eb, { bdx, bdy, bdz }, 0, warp, base, idx, act, { w, c, m }, v }

static const struct row rows[] = {
	/* ---- global: one request, distinct 32 B sectors and 128 B lines ---- */
	G("float contiguous", LD, 4, 32, 1, 1, 0, 0, "lane", NULL, 1, 4, 1, "coalesced: 4 sectors"),
	G("float contiguous, vector hint", LD, 4, 32, 1, 1, 0, 0, "lane", NULL, 1, 4, 1, "float4"),
	G("float offset 4 B by base", LD, 4, 32, 1, 1, 0, 4, "lane", NULL, 1, 5, 2, "misaligned by 4 B: 5 sectors instead of 4; align the base"),
	G("float offset 1 element by index", LD, 4, 32, 1, 1, 0, 0, "lane + 1", NULL, 1, 5, 2, "misaligned by 4 B"),
	G("float base 32: 2 lines, 4 sectors", LD, 4, 32, 1, 1, 0, 32, "lane", NULL, 1, 4, 2, "coalesced"),
	G("float stride 2", LD, 4, 32, 1, 1, 0, 0, "lane * 2", NULL, 1, 8, 2, "stride 2 elements touches 2x the sectors it needs (8 vs 4)"),
	G("float stride 4", LD, 4, 32, 1, 1, 0, 0, "lane * 4", NULL, 1, 16, 4, "stride 4 elements"),
	G("float stride 8", LD, 4, 32, 1, 1, 0, 0, "lane * 8", NULL, 1, 32, 8, "8x"),
	G("float stride 32", LD, 4, 32, 1, 1, 0, 0, "lane * 32", NULL, 1, 32, 32, "stride 32 elements"),
	G("float stride 1024", LD, 4, 32, 1, 1, 0, 0, "lane << 10", NULL, 1, 32, 32, NULL),
	G("float negative stride 8", LD, 4, 32, 1, 1, 0, 0, "1016 - lane * 8", NULL, 1, 32, 8, "stride -8 elements"),
	G("float reversed", LD, 4, 32, 1, 1, 0, 0, "31 - lane", NULL, 1, 4, 1, "coalesced"),
	G("float permutation (7 lane) % 32", LD, 4, 32, 1, 1, 0, 0, "(lane * 7) % 32", NULL, 1, 4, 1, "coalesced"),
	G("float xor permutation", LD, 4, 32, 1, 1, 0, 0, "lane ^ 1", NULL, 1, 4, 1, "coalesced"),
	G("float pairs share an element", LD, 4, 32, 1, 1, 0, 0, "lane / 2", NULL, 1, 2, 1, "coalesced: 2 sectors"),
	G("float all lanes one address", LD, 4, 32, 1, 1, 0, 0, "5", NULL, 1, 1, 1, "broadcast: all 32 lanes read one address"),
	G("float scattered squares", LD, 4, 32, 1, 1, 0, 0, "lane * lane", NULL, 1, 30, 24, "scattered: 30 sectors"),
	G("double contiguous", LD, 8, 32, 1, 1, 0, 0, "lane", NULL, 1, 8, 2, "coalesced: 8 sectors"),
	G("double offset 8 B", LD, 8, 32, 1, 1, 0, 8, "lane", NULL, 1, 9, 3, "misaligned by 8 B"),
	G("double stride 2", LD, 8, 32, 1, 1, 0, 0, "lane * 2", NULL, 1, 16, 4, "stride 2"),
	G("float4 contiguous", LD, 16, 32, 1, 1, 0, 0, "lane", NULL, 1, 16, 4, "coalesced: 16 sectors"),
	G("float4 offset 16 B", LD, 16, 32, 1, 1, 0, 16, "lane", NULL, 1, 17, 5, "misaligned by 16 B"),
	G("float4 stride 2", LD, 16, 32, 1, 1, 0, 0, "lane * 2", NULL, 1, 32, 8, NULL),
	G("char contiguous", LD, 1, 32, 1, 1, 0, 0, "lane", NULL, 1, 1, 1, "16x fewer"),
	G("short contiguous", LD, 2, 32, 1, 1, 0, 0, "lane", NULL, 1, 2, 1, "8x fewer"),
	G("char stride 32", LD, 1, 32, 1, 1, 0, 0, "lane * 32", NULL, 1, 32, 8, NULL),
	G("single active lane", LD, 4, 32, 1, 1, 0, 0, "lane", "lane == 7", 1, 1, 1, "coalesced: 1 sector per request"),
	G("lower half-warp active", LD, 4, 32, 1, 1, 0, 0, "lane", "lane < 16", 1, 2, 1, NULL),
	G("odd lanes active", LD, 4, 32, 1, 1, 0, 0, "lane", "lane % 2", 1, 4, 1, NULL),
	G("no lane active", LD, 4, 32, 1, 1, 0, 0, "lane", "0", 0, 0, 0, "no active lane"),
	G("inactive lanes may divide by zero", LD, 4, 32, 1, 1, 0, 0, "64 / lane", "lane != 0", 1, 5, 3, "scattered"),
	G("2D 16x2, row pitch 1024", LD, 4, 16, 2, 1, 0, 0, "ty * 1024 + tx", NULL, 1, 4, 2, "coalesced"),
	G("2D 16x2, row pitch 16", LD, 4, 16, 2, 1, 0, 0, "threadIdx.y * 16 + threadIdx.x", NULL, 1, 4, 1, NULL),
	G("2D 16x2, row pitch 20 (unaligned rows)", LD, 4, 16, 2, 1, 0, 0, "ty * 20 + tx", NULL, 1, 5, 2, NULL),
	G("3D 8x2x2 planes 4096 apart", LD, 4, 8, 2, 2, 0, 0, "tz * 4096 + ty * 8 + tx", NULL, 1, 4, 2, NULL),
	G("partial warp: block 48, warp 1, tid", LD, 4, 48, 1, 1, 1, 0, "tid", NULL, 1, 2, 1, NULL),
	G("partial warp: block 48, warp 1, lane", LD, 4, 48, 1, 1, 1, 0, "lane", NULL, 1, 2, 1, NULL),
	G("warp 3 of 256 threads", LD, 4, 256, 1, 1, 3, 0, "tid", NULL, 1, 4, 1, NULL),
	G("store contiguous", ST, 4, 32, 1, 1, 0, 0, "lane", NULL, 1, 4, 1, "each lane writes 4 B"),
	G("store stride 2", ST, 4, 32, 1, 1, 0, 0, "lane * 2", NULL, 1, 8, 2, "write consecutive"),
	G("store all lanes one address", ST, 4, 32, 1, 1, 0, 0, "0", NULL, 1, 1, 1, "write one address"),

	/* ---- shared: 32 banks x 4 B, distinct words per bank per phase ---- */
	S("stride 1", LD, 4, 32, 1, 1, 0, 0, "lane", NULL, 1, 0, 1, "conflict-free"),
	S("stride 2: 2-way", LD, 4, 32, 1, 1, 0, 0, "lane * 2", NULL, 2, 1, 2, "2-way bank conflict"),
	S("stride 4: 4-way", LD, 4, 32, 1, 1, 0, 0, "lane * 4", NULL, 4, 3, 4, NULL),
	S("stride 8: 8-way", LD, 4, 32, 1, 1, 0, 0, "lane * 8", NULL, 8, 7, 8, NULL),
	S("stride 16: 16-way", LD, 4, 32, 1, 1, 0, 0, "lane * 16", NULL, 16, 15, 16, NULL),
	S("stride 32: 32-way", LD, 4, 32, 1, 1, 0, 0, "lane * 32", NULL, 32, 31, 32,
	  "32-way bank conflict: 32 wavefronts instead of 1; pad the row to 33 elements (stride 33 words)"),
	S("stride 3 (odd)", LD, 4, 32, 1, 1, 0, 0, "lane * 3", NULL, 1, 0, 1, NULL),
	S("stride 5 (odd)", LD, 4, 32, 1, 1, 0, 0, "lane * 5", NULL, 1, 0, 1, NULL),
	S("stride 31 (odd)", LD, 4, 32, 1, 1, 0, 0, "lane * 31", NULL, 1, 0, 1, NULL),
	S("broadcast one word", LD, 4, 32, 1, 1, 0, 0, "7", NULL, 1, 0, 1, "broadcast: all lanes read one word, 1 wavefront"),
	S("pairs share a word", LD, 4, 32, 1, 1, 0, 0, "lane / 2", NULL, 1, 0, 1, NULL),
	S("column of 32x32 tile, unpadded", LD, 4, 32, 1, 1, 0, 0, "lane * 32 + 5", NULL, 32, 31, 32, "pad the row to 33"),
	S("column of 32x33 tile, padded", LD, 4, 32, 1, 1, 0, 0, "lane * 33 + 5", NULL, 1, 0, 1, NULL),
	S("column, XOR swizzle", LD, 4, 32, 1, 1, 0, 0, "lane * 32 + (3 ^ lane)", NULL, 1, 0, 1, NULL),
	S("transpose read tx*32+ty, block 32x8", LD, 4, 32, 8, 1, 0, 0, "tx * 32 + ty", NULL, 32, 31, 32, NULL),
	S("transpose read padded tx*33+ty", LD, 4, 32, 8, 1, 0, 0, "tx * 33 + ty", NULL, 1, 0, 1, NULL),
	S("permutation (5 lane) % 32", LD, 4, 32, 1, 1, 0, 0, "(lane * 5) % 32", NULL, 1, 0, 1, NULL),
	S("two words per bank, mixed", LD, 4, 32, 1, 1, 0, 0, "(lane % 2) * 32", NULL, 2, 1, 2, "lanes of one phase"),
	S("stride 32, lower half active", LD, 4, 32, 1, 1, 0, 0, "lane * 32", "lane < 16", 16, 15, 16, NULL),
	S("stride 2, 8 lanes active", LD, 4, 32, 1, 1, 0, 0, "lane * 2", "lane < 8", 1, 0, 1, NULL),
	S("no lane active", LD, 4, 32, 1, 1, 0, 0, "lane", "0", 0, 0, 0, "no active lane"),
	S("store stride 32", ST, 4, 32, 1, 1, 0, 0, "lane * 32", NULL, 32, 31, 32, NULL),
	S("store one word", ST, 4, 32, 1, 1, 0, 0, "0", NULL, 1, 0, 1, "write one word"),
	S("char contiguous", LD, 1, 32, 1, 1, 0, 0, "lane", NULL, 1, 0, 1, NULL),
	S("char stride 4", LD, 1, 32, 1, 1, 0, 0, "lane * 4", NULL, 1, 0, 1, NULL),
	S("char stride 128", LD, 1, 32, 1, 1, 0, 0, "lane * 128", NULL, 32, 31, 32, "pad the row to 132 elements (stride 33 words)"),
	S("short contiguous", LD, 2, 32, 1, 1, 0, 0, "lane", NULL, 1, 0, 1, NULL),
	S("double contiguous: 2 wavefronts, ideal", LD, 8, 32, 1, 1, 0, 0, "lane", NULL, 2, 0, 1, "the ideal"),
	S("double stride 2", LD, 8, 32, 1, 1, 0, 0, "lane * 2", NULL, 4, 2, 2, "pad the row to 3 elements (stride 6 words)"),
	S("double stride 32", LD, 8, 32, 1, 1, 0, 0, "lane * 32", NULL, 32, 30, 16, NULL),
	S("float4 contiguous: 4 wavefronts, ideal", LD, 16, 32, 1, 1, 0, 0, "lane", NULL, 4, 0, 1, NULL),
	S("float4 stride 2", LD, 16, 32, 1, 1, 0, 0, "lane * 2", NULL, 8, 4, 2, NULL),
	S("float4 stride 512 B", LD, 16, 32, 1, 1, 0, 0, "lane * 32", NULL, 32, 28, 8, "8-way bank conflict: 32 wavefronts instead of 4"),
	/* measured on an H100 with ncu (results/nvidia-h100-80gb-hbm3/model-vs-counters.csv) */
	S("measured 134: double broadcast is one pass", LD, 8, 32, 1, 1, 0, 0, "0", NULL, 1, 0, 1, NULL),
	S("measured 133: doubles shared by lane pairs, one pass", LD, 8, 32, 1, 1, 0, 0, "lane / 2", NULL, 1, 0, 1, NULL),
	S("measured 147: float4 broadcast takes two passes", LD, 16, 32, 1, 1, 0, 0, "0", NULL, 2, 0, 1, NULL),
	S("measured 149: float4 lane/4, two passes", LD, 16, 32, 1, 1, 0, 0, "lane / 4", NULL, 2, 0, 1, NULL),
	S("measured 172: store of doubles at lane/2 keeps two half-warps", ST, 8, 32, 1, 1, 0, 0, "lane / 2", NULL, 2, 0, 1, NULL),
	S("measured 179: halves reading the same doubles do not share", LD, 8, 32, 1, 1, 0, 0, "lane % 16", NULL, 2, 0, 1, NULL),
	S("measured 180: lane%8 doubles, two passes", LD, 8, 32, 1, 1, 0, 0, "lane % 8", NULL, 2, 0, 1, NULL),
	S("measured 181: doubles stride 2 over 16", LD, 8, 32, 1, 1, 0, 0, "(lane % 16) * 2", NULL, 4, 2, 2, NULL),
	S("measured 185: two doubles in one bank pair, one pass, 2-way", LD, 8, 32, 1, 1, 0, 0, "(lane % 2) * 32", NULL, 2, 1, 2, NULL),
	S("measured 186: float4 lane % 8, four passes", LD, 16, 32, 1, 1, 0, 0, "lane % 8", NULL, 4, 0, 1, NULL),
	S("measured 190: float4 (lane%8)*2", LD, 16, 32, 1, 1, 0, 0, "(lane % 8) * 2", NULL, 8, 4, 2, NULL),
	S("measured 192: float4 lane % 4, four passes", LD, 16, 32, 1, 1, 0, 0, "lane % 4", NULL, 4, 0, 1, NULL),
	S("measured 139: 16 doubles in one half, stride 2: one pass, 2-way", LD, 8, 32, 1, 1, 0, 0, "lane * 2", "lane < 16", 2, 1, 2, NULL),
	S("fuzz: 9 lanes of float4 hold 2 passes of data in one phase", LD, 16, 9, 1, 1, 0, 0, "lane % 4", NULL, 2, 0, 1, NULL),
	S("rule: 16 doubles spread over both halves", LD, 8, 32, 1, 1, 0, 0, "lane", "lane % 2 == 0", 2, 1, 2, NULL),
};

/* 0 when the row holds; otherwise prints why and returns 1. */
static int check_row(const struct row *r)
{
	struct gm_access a = { 0 };
	struct gm_prediction p;
	struct gm_expr_error err;
	int64_t got[3];
	gm_status s;

	a.space = r->space;
	a.op = r->op;
	a.elem_bytes = r->eb;
	memcpy(a.block, r->block, sizeof(a.block));
	a.block_idx[0] = r->bx;
	a.warp = r->warp;
	a.base = r->base;
	a.index = r->index;
	a.active = r->active;
	s = gm_model_predict(&a, &p, &err);
	if (s != GM_OK) {
		print_error("%s: status %d: %s\n", r->name, (int)s, err.msg);
		return 1;
	}
	if (r->space == GM_SPACE_GLOBAL) {
		got[0] = p.global.requests;
		got[1] = p.global.sectors;
		got[2] = p.global.lines;
	} else {
		got[0] = p.shared.wavefronts;
		got[1] = p.shared.bank_conflicts;
		got[2] = p.shared.max_ways;
	}
	if (memcmp(got, r->want, sizeof(got)) != 0) {
		print_error("%s: got %lld/%lld/%lld, want %lld/%lld/%lld (verdict: %s)\n",
			    r->name, (long long)got[0], (long long)got[1], (long long)got[2],
			    (long long)r->want[0], (long long)r->want[1],
			    (long long)r->want[2], p.verdict);
		return 1;
	}
	if (r->verdict && !strstr(p.verdict, r->verdict)) {
		print_error("%s: verdict '%s' lacks '%s'\n", r->name, p.verdict, r->verdict);
		return 1;
	}
	return 0;
}

static void test_table(void **state)
{
	size_t k;
	int failed = 0;

	(void)state;
	assert_true(sizeof(rows) / sizeof(rows[0]) >= 40);
	for (k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		failed += check_row(&rows[k]);
	assert_int_equal(failed, 0);
}

static struct gm_access simple(const char *index)
{
	struct gm_access a = { 0 };

	a.elem_bytes = 4;
	a.block[0] = 32;
	a.block[1] = a.block[2] = 1;
	a.index = index;
	return a;
}

static void test_derived_counts(void **state)
{
	struct gm_access a = simple("lane * 2");
	struct gm_prediction p;

	(void)state;
	assert_int_equal(gm_model_predict(&a, &p, NULL), GM_OK);
	assert_int_equal(p.nlanes, 32);
	assert_int_equal(p.nactive, 32);
	assert_int_equal(p.global.bytes_requested, 128);
	assert_int_equal(p.global.bytes_transferred, 256);
	assert_int_equal(p.global.min_sectors, 4);
	assert_true(p.global.efficiency_pct > 49.9 && p.global.efficiency_pct < 50.1);
	assert_true(p.stride_known);
	assert_int_equal(p.stride_bytes, 8);
	assert_int_equal(p.lanes[3].addr, 24);
	assert_int_equal(p.lanes[5].sector, 1);
	assert_int_equal(p.lanes[20].line, 1);
	assert_int_equal(p.lanes[5].unit, 1);
}

static void test_broadcast_efficiency_capped(void **state)
{
	struct gm_access a = simple("0");
	struct gm_prediction p;

	(void)state;
	assert_int_equal(gm_model_predict(&a, &p, NULL), GM_OK);
	assert_int_equal(p.global.bytes_requested, 128);
	assert_int_equal(p.global.bytes_transferred, 32);
	assert_true(p.global.efficiency_pct == 100.0);
}

static void test_shared_lane_fields(void **state)
{
	struct gm_access a = simple("lane * 33");
	struct gm_prediction p;

	(void)state;
	a.space = GM_SPACE_SHARED;
	assert_int_equal(gm_model_predict(&a, &p, NULL), GM_OK);
	assert_int_equal(p.lanes[2].word, 66);
	assert_int_equal(p.lanes[2].bank, 2);
	assert_int_equal(p.lanes[2].unit, 2);
	assert_int_equal(p.shared.ideal_wavefronts, 1);
	assert_int_equal(p.shared.broadcast, 0);
}

static void test_thread_mapping(void **state)
{
	struct gm_access a = simple("tx + 100 * ty + 10000 * tz + 1000000 * bx");
	struct gm_prediction p;

	(void)state;
	a.block[0] = 5;
	a.block[1] = 3;
	a.block[2] = 4;
	a.block_idx[0] = 2;
	a.warp = 1;
	/* lane 0 of warp 1 is tid 32: tx 2, ty 0, tz 2 (32 = 2 + 0*5 + 2*15) */
	assert_int_equal(gm_model_predict(&a, &p, NULL), GM_OK);
	assert_int_equal(p.nlanes, 28); /* 60 threads - 32 */
	assert_int_equal(p.lanes[0].index, 2 + 20000 + 2000000);
	/* lane 27 is tid 59: tx 4, ty 2, tz 3 */
	assert_int_equal(p.lanes[27].index, 4 + 200 + 30000 + 2000000);
	assert_int_equal(p.lanes[28].exists, 0);
	assert_int_equal(p.lanes[28].active, 0);
}

struct bad {
	const char *name;
	int eb, bdx, bdy, warp;
	int64_t base;
	const char *index, *active;
	gm_status status;
	int lane;
	const char *msg;
	int text;               /* err.text: 0 NULL, 1 the index, 2 the active expression */
};

static const struct bad bads[] = {
	{ "element size 3", 3, 32, 1, 0, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "element size 3 B", 0 },
	{ "element size 32", 32, 32, 1, 0, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "element size", 0 },
	{ "block too large", 4, 64, 32, 0, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "limit is 1024", 0 },
	{ "block dim zero", 4, 0, 1, 0, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "blockDim.x 0", 0 },
	{ "warp outside block", 4, 64, 1, 2, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "warp 2 is outside", 0 },
	{ "negative warp", 4, 64, 1, -1, 0, "lane", NULL, GM_ERR_INVALID_ARG, -1, "warp -1", 0 },
	{ "negative address", 4, 32, 1, 0, 0, "lane - 3", NULL, GM_ERR_INVALID_ARG, 0, "negative address -12 at lane 0", 0 },
	{ "misaligned", 4, 32, 1, 0, 2, "lane", NULL, GM_ERR_INVALID_ARG, 0, "misaligned address 2 at lane 0", 0 },
	{ "misaligned double", 8, 32, 1, 0, 4, "lane", NULL, GM_ERR_INVALID_ARG, 0, "8-byte element", 0 },
	{ "address overflow", 16, 32, 1, 0, 0, "lane * 0x1000000000000000", NULL, GM_ERR_EVAL, 1, "address overflows", 0 },
	{ "index division by zero", 4, 32, 1, 0, 0, "100 / (lane - 5) + 100", NULL, GM_ERR_EVAL, 5, "division by zero at lane 5", 1 },
	{ "active division by zero", 4, 32, 1, 0, 0, "lane", "1 / (lane - 9)", GM_ERR_EVAL, 9, "at lane 9", 2 },
	{ "index syntax error", 4, 32, 1, 0, 0, "lane +", NULL, GM_ERR_PARSE, -1, "syntax error at byte 6", 1 },
	{ "active syntax error", 4, 32, 1, 0, 0, "lane", "lane <", GM_ERR_PARSE, -1, "syntax error", 2 },
	{ "unknown variable", 4, 32, 1, 0, 0, "laen", NULL, GM_ERR_PARSE, -1, "unknown variable 'laen'", 1 },
};

static void check_bad(const struct bad *b)
{
	struct gm_access a = simple(b->index);
	struct gm_prediction p;
	struct gm_expr_error err;
	gm_status s;

	a.elem_bytes = b->eb;
	a.block[0] = b->bdx;
	a.block[1] = b->bdy;
	a.warp = b->warp;
	a.base = b->base;
	a.active = b->active;
	s = gm_model_predict(&a, &p, &err);
	if (s != b->status || err.lane != b->lane || !strstr(err.msg, b->msg))
		fail_msg("%s: status %d lane %d '%s'; want %d lane %d '%s'", b->name,
			 (int)s, err.lane, err.msg, (int)b->status, b->lane, b->msg);
	assert_ptr_equal(err.text, b->text == 0 ? NULL : b->text == 1 ? a.index : a.active);
}

static void test_bad_accesses(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(bads) / sizeof(bads[0]); k++)
		check_bad(&bads[k]);
}

static void test_null_args(void **state)
{
	struct gm_access a = simple("lane");
	struct gm_prediction p;
	struct gm_expr_error err;

	(void)state;
	assert_int_equal(gm_model_predict(NULL, &p, &err), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_model_predict(&a, NULL, &err), GM_ERR_INVALID_ARG);
	a.index = NULL;
	assert_int_equal(gm_model_predict(&a, &p, &err), GM_ERR_INVALID_ARG);
}

static void test_type_bytes(void **state)
{
	static const struct {
		const char *name;
		int bytes;
	} types[] = {
		{ "char", 1 }, { "uchar", 1 }, { "int8_t", 1 }, { "uint8_t", 1 },
		{ "short", 2 }, { "ushort", 2 }, { "half", 2 }, { "__half", 2 },
		{ "bfloat16", 2 }, { "__nv_bfloat16", 2 }, { "int16_t", 2 },
		{ "int", 4 }, { "uint", 4 }, { "unsigned", 4 }, { "float", 4 },
		{ "int32_t", 4 }, { "uint32_t", 4 }, { "double", 8 }, { "long", 8 },
		{ "longlong", 8 }, { "long long", 8 }, { "  long \t long ", 8 },
		{ "int64_t", 8 }, { "uint64_t", 8 }, { "float2", 8 }, { "int2", 8 },
		{ "uint2", 8 }, { "double2", 16 }, { "float4", 16 }, { "int4", 16 },
		{ "uint4", 16 }, { "longlong2", 16 },
		{ "", 0 }, { "float3", 0 }, { "Float", 0 }, { "longlonglonglonglonglonglonglong", 0 },
	};
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(types) / sizeof(types[0]); k++)
		if (gm_type_bytes(types[k].name) != types[k].bytes)
			fail_msg("'%s': %d, want %d", types[k].name,
				 gm_type_bytes(types[k].name), types[k].bytes);
	assert_int_equal(gm_type_bytes(NULL), 0);
}

static void test_phase_rule(void **state)
{
	(void)state;
	assert_int_equal(gm_smem_lanes_per_phase(1, GM_OP_LOAD), 32);
	assert_int_equal(gm_smem_lanes_per_phase(4, GM_OP_LOAD), 32);
	assert_int_equal(gm_smem_lanes_per_phase(8, GM_OP_LOAD), 16);
	assert_int_equal(gm_smem_lanes_per_phase(16, GM_OP_LOAD), 8);
	assert_int_equal(gm_smem_lanes_per_phase(4, GM_OP_STORE), 32);
	assert_int_equal(gm_smem_lanes_per_phase(8, GM_OP_STORE), 16);
	assert_int_equal(gm_smem_lanes_per_phase(16, GM_OP_STORE), 8);
}

static void test_counts_of_explicit_lanes(void **state)
{
	struct gm_lane lanes[GM_WARP_SIZE];
	struct gm_global_counts g;
	struct gm_shared_counts s;
	int k;

	(void)state;
	memset(lanes, 0, sizeof(lanes));
	for (k = 0; k < 4; k++) {
		lanes[k].active = 1;
		lanes[k].addr = 4096 * k;
	}
	gm_global_counts_of(lanes, 4, &g);
	assert_int_equal(g.requests, 1);
	assert_int_equal(g.sectors, 4);
	assert_int_equal(g.lines, 4);
	gm_shared_counts_of(lanes, 4, GM_OP_LOAD, &s);
	assert_int_equal(s.wavefronts, 4);
	assert_int_equal(s.bank_conflicts, 3);
	gm_global_counts_of(lanes, 3, &g);
	assert_int_equal(g.sectors, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_derived_counts),
		cmocka_unit_test(test_broadcast_efficiency_capped),
		cmocka_unit_test(test_shared_lane_fields),
		cmocka_unit_test(test_thread_mapping),
		cmocka_unit_test(test_bad_accesses),
		cmocka_unit_test(test_null_args),
		cmocka_unit_test(test_type_bytes),
		cmocka_unit_test(test_phase_rule),
		cmocka_unit_test(test_counts_of_explicit_lanes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
