/* test_trace_records.c - the class "whole records" of `gpumem trace` (docs/TRACE.md, "Classes";
 * src/analysis/trace_class_records.c): a strided walk's pieces that together read, or write back to back, every
 * byte of each record, no wider access tiling it. Table-driven on synthetic fitted instructions: each row a walk
 * (the map gid * k + offset, one array) of n pieces at element offsets and SASS order, maybe with another
 * global access between two of them, and how many pieces become whole records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

#define MAXP 16

struct rec_row {
	const char *what;
	int op, size, k, n;
	int64_t off[MAXP];   /* element offsets of the pieces, in SASS order */
	int between;         /* 1: a coalesced global load of another array between the first two pieces */
	int whole;           /* pieces classed whole records */
};

static const struct rec_row rows[] = {
	{ "float3 read as three floats (affine_f3)", GM_TO_LOAD, 4, 3, 3, { 0, 1, 2 }, 0, 3 },
	{ "float3 stored back to back (grad<Aos>)", GM_TO_STORE, 4, 3, 3, { 0, 1, 2 }, 0, 3 },
	{ "float3 loads with another load between (L1 keeps the lines)", GM_TO_LOAD, 4, 3, 3, { 0, 1, 2 }, 1, 3 },
	{ "float3 stores with a load between: they do not merge (move_aos)", GM_TO_STORE, 4, 3, 3, { 0, 1, 2 }, 1, 0 },
	{ "a float4 read as four floats: one 16-byte load tiles it (scale4_scalar)", GM_TO_LOAD, 4, 4, 4, { 0, 1, 2, 3 },
	  0, 0 },
	{ "a 48-byte record in twelve floats: three float4 (km_assign_scalar)", GM_TO_LOAD, 4, 12, 12,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, 0, 0 },
	{ "a 36-byte record of nine floats, all read (no 8-byte access tiles it)", GM_TO_LOAD, 4, 9, 9,
	  { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, 0, 9 },
	{ "two of three fields read: bytes left unused (an array of structures)", GM_TO_LOAD, 4, 3, 2, { 0, 1 }, 0, 0 },
	{ "one field of five read", GM_TO_LOAD, 4, 5, 1, { 2 }, 0, 0 },
	{ "a float3's floats out of order", GM_TO_LOAD, 4, 3, 3, { 2, 0, 1 }, 0, 3 },
	{ "three bytes of a base64 quad: pieces under a word stay strided (b64_enc3)", GM_TO_LOAD, 1, 3, 3, { 0, 1, 2 },
	  0, 0 },
	{ "three halves of a 6-byte record: the same", GM_TO_STORE, 2, 3, 3, { 0, 1, 2 }, 0, 0 },
	{ "doubles of a 24-byte record: no wider access tiles it", GM_TO_LOAD, 8, 3, 3, { 0, 1, 2 }, 0, 3 },
	{ "a 20-byte record's five floats stored back to back", GM_TO_STORE, 4, 5, 5, { 0, 1, 2, 3, 4 }, 0, 5 },
};

static void test_records(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in[MAXP + 1];
	struct gm_trace_insn x[MAXP + 1];
	struct gm_trace_kernel k;
	(void)state;
	memset(&l, 0, sizeof(l));
	l.grid[0] = 1024, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 256, l.block[1] = l.block[2] = 1;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct rec_row *w = &rows[r];
		int n = w->n + (w->between ? 1 : 0), whole = 0;
		memset(in, 0, sizeof(in));
		memset(x, 0, sizeof(x));
		for (int i = 0; i < n; i++) {
			int other = w->between && i == n - 1;   /* the access between the first two pieces */
			in[i].space = GM_TS_GLOBAL;
			in[i].op = other ? GM_TO_LOAD : w->op;
			in[i].size = other ? 4 : w->size;
			in[i].pc = other ? 24 : 16 * (i + 1);
			x[i].in = &in[i];
			x[i].fit.map.known = 1;
			x[i].fit.map.nmodes = 1;
			x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, 0, other ? 1 : w->k };
			x[i].fit.map.base = other ? 1 << 28 : 1 << 24;
			x[i].fit.map.offset = other ? 0 : w->off[i];
			x[i].fit.iters = 1;
			x[i].fit.cls = other ? GM_TC_COALESCED : w->k > 1 ? GM_TC_STRIDED : GM_TC_COALESCED;
			x[i].fit.cls_k = other ? 0 : w->k;
		}
		memset(&k, 0, sizeof(k));
		k.l = &l, k.ins = x, k.nins = n, k.threads = 1024 * 256;
		tk_whole_records(&k);
		for (int i = 0; i < n; i++)
			whole += x[i].fit.cls == GM_TC_RECORDS;
		print_message("%s\n", w->what);
		assert_int_equal(whole, w->whole);
	}
}

/* two 8-byte loads reading a 16-byte record whole (set 25's cmul_f4 gain pair h[k], h[k + 1]): strided, and said so */
static void test_tiled_words(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in[2];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
	(void)state;
	memset(&l, 0, sizeof(l));
	l.grid[0] = 1024, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 256, l.block[1] = l.block[2] = 1;
	memset(in, 0, sizeof(in));
	memset(x, 0, sizeof(x));
	for (int i = 0; i < 2; i++) {
		in[i].space = GM_TS_GLOBAL, in[i].op = GM_TO_LOAD, in[i].size = 8, in[i].pc = 16 * (i + 1);
		x[i].in = &in[i];
		x[i].fit.map.known = 1, x[i].fit.map.nmodes = 1, x[i].fit.map.base = 1 << 24, x[i].fit.map.offset = i;
		x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_TX, 1, 0, 2 };
		x[i].fit.iters = 1, x[i].fit.cls = GM_TC_STRIDED, x[i].fit.cls_k = 2;
	}
	memset(&k, 0, sizeof(k));
	k.l = &l, k.ins = x, k.nins = 2, k.threads = 1024 * 256;
	assert_int_equal(tk_whole_records(&k), 0);
	assert_int_equal(x[0].fit.cls, GM_TC_STRIDED);
	assert_string_equal(x[1].fit.cls_text, "strided by 2 (a record of 16 B read whole in 2 loads of 8 B: one 16-byte "
			    "load would do)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_tiled_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
