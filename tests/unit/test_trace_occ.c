/* test_trace_occ.c - rule OC of `gpumem trace` (docs/TRACE.md, "Occupancy"): the blocks an SM holds by threads,
 * slots, registers and shared memory (trace_occupancy.c), the cap the launch model takes (gm_launch_blocks_per_sm),
 * and the idle lanes of a block wider than its row (trace_shape.c). Table-driven on synthetic launches of a cc 9.0
 * device (228 KiB of shared memory an SM, 1 KiB reserved a block, 64 Ki registers, 32 blocks, 2048 threads). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

struct occ_row {
	const char *what;
	int threads, regs;
	int64_t st, dyn;      /* dyn -1: not recorded */
	int blocks, of;
	const char *limit;
};

static const struct occ_row rows[] = {
	{ "set 17's smooth<6144>: a 48 KiB static tile, 128 threads", 128, 16, 49152, -1, 4, 16, "shared memory" },
	{ "set 17's smooth<130>: its tile sized to the block", 128, 16, 1040, -1, 16, 16, NULL },
	{ "set 17's axpby launched with 96 KiB of dynamic shared memory", 256, 14, 0, 98304, 2, 8, "shared memory" },
	{ "the same with none", 256, 14, 0, 0, 8, 8, NULL },
	{ "128 registers a thread: 16 warps an SM", 256, 128, 0, 0, 2, 8, "registers" },
	{ "64 threads a block: the 32 slots, not the threads", 64, 32, 0, 0, 32, 32, NULL },
	{ "a 227 KiB tile: one block", 1024, 32, 227 * 1024, 0, 1, 2, "shared memory" },
};

static void test_occupancy(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct occ_row *r = &rows[i];
		struct gm_trace_launch l;
		struct gm_trace_kernel k;
		memset(&l, 0, sizeof(l));
		memset(&k, 0, sizeof(k));
		l.block[0] = r->threads, l.block[1] = l.block[2] = 1;
		l.grid[0] = 1000, l.grid[1] = l.grid[2] = 1;
		l.registers = r->regs, l.shared_static = r->st, l.shared_dynamic = r->dyn;
		l.sm.cc = 90, l.sm.smem_reserved = -1;
		k.l = &l;
		tk_occupancy(&k, NULL);
		print_message("%s: %d blocks of %d, %s\n", r->what, k.occ.blocks, k.occ.of, k.occ.limit ? k.occ.limit : "-");
		assert_int_equal(k.occ.blocks, r->blocks);
		assert_int_equal(k.occ.of, r->of);
		if (r->limit)
			assert_string_equal(k.occ.limit, r->limit);
		else
			assert_null(k.occ.limit);
		/* the launch model takes the shared-memory cap only (a register cap is reported) */
		assert_int_equal(k.occ_cap, r->limit && !strcmp(r->limit, "shared memory") ? r->blocks : 0);
		assert_int_equal(k.occ.dynamic_known, r->dyn >= 0);
	}
}

/* The document's own device attributes come before the table's (an SM of 100 KiB: two 48 KiB tiles). */
static void test_device_attributes(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;

	(void)state;
	memset(&l, 0, sizeof(l));
	memset(&k, 0, sizeof(k));
	l.block[0] = 128, l.block[1] = l.block[2] = 1;
	l.grid[0] = l.grid[1] = l.grid[2] = 1;
	l.registers = 16, l.shared_static = 49152, l.shared_dynamic = 0;
	l.sm = (struct gm_trace_sm){ 90, 100 * 1024, 1024, 65536, 32, 2048 };
	k.l = &l;
	tk_occupancy(&k, NULL);
	assert_int_equal(k.occ.blocks, 2);
	l.sm = (struct gm_trace_sm){ 0, 0, -1, 0, 0, 0 };   /* nothing known: no cap */
	tk_occupancy(&k, NULL);
	assert_int_equal(k.occ.blocks, 16);
	assert_null(k.occ.limit);
}

/* The launch model's blocks an SM: threads, the 32 slots, the cap. */
static void test_model_cap(void **state)
{
	struct gm_launch_in in;
	struct gm_profile p;

	(void)state;
	memset(&in, 0, sizeof(in));
	memset(&p, 0, sizeof(p));
	p.threads_per_sm = 2048;
	in.block[0] = 128, in.block[1] = in.block[2] = 1;
	assert_int_equal(gm_launch_blocks_per_sm(&in, &p), 16);
	in.blocks_per_sm_cap = 4;
	assert_int_equal(gm_launch_blocks_per_sm(&in, &p), 4);
	in.blocks_per_sm_cap = 40;
	in.block[0] = 32;
	assert_int_equal(gm_launch_blocks_per_sm(&in, &p), 32);
}

/* A 128-thread block on rows of 100 elements, 100 of its 128 lanes active: idle lanes named, 22 %; a row of 1000
   for 1024 threads (2 % idle) is not. */
static void test_idle_lanes(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in;
	struct gm_trace_insn x;
	struct gm_trace_kernel k;
	char text[300];
	int at;

	(void)state;
	memset(&l, 0, sizeof(l));
	memset(&in, 0, sizeof(in));
	memset(&x, 0, sizeof(x));
	memset(&k, 0, sizeof(k));
	l.block[0] = 128, l.block[1] = l.block[2] = 1;
	l.grid[0] = 1000, l.grid[1] = l.grid[2] = 1;
	in.space = GM_TS_GLOBAL, in.op = GM_TO_LOAD, in.size = 4, in.executions = 4000, in.thread_accesses = 100000;
	x.in = &in, x.bytes = 1;
	x.fit.map.known = 1, x.fit.map.elem_bytes = 4, x.fit.map.nmodes = 2;
	x.fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_TX, 1, 0, 1 };
	x.fit.map.mode[1] = (struct gm_trace_mode){ GM_TV_BX, 1, 0, 100 };
	k.l = &l, k.ins = &x, k.nins = 1;
	double s = tk_idle_lanes(&k, text, sizeof(text), &at);
	print_message("%.3f %s\n", s, text);
	assert_true(s > 0.21 && s < 0.22);
	assert_int_equal(at, 0);
	assert_non_null(strstr(text, "28 threads a block idle"));
	l.block[0] = 1024, in.executions = 32000, in.thread_accesses = 1000000, x.fit.map.mode[1].stride = 1000;
	assert_true(tk_idle_lanes(&k, text, sizeof(text), &at) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_occupancy),
		cmocka_unit_test(test_device_attributes),
		cmocka_unit_test(test_model_cap),
		cmocka_unit_test(test_idle_lanes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
