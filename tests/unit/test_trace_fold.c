/* test_trace_fold.c - rule M of `gpumem trace`'s kernel prediction (docs/TRACE.md, "The kernel's prediction"):
 * global instructions that walk the same bytes are folded into one pattern's pieces (iters2, step2) before the
 * launch model sees them. Table-driven on synthetic instructions: each row a group of loads or stores of one walk
 * (the same map of gid, lanes 32 KiB apart so the sampled ranges overlap) at element offsets, and what the fold
 * gives the first instruction that carries one; and rule H, a walk whose sectors another walk of its warps reads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

#define MAXP 8

struct fold_row {
	const char *what;
	int op, size, n;
	int64_t off[MAXP];   /* element offsets */
	int it2;             /* the pieces of the first instruction that carries a fold (0: none folded) */
	int64_t step2;       /* bytes */
	int folded;          /* instructions folded into another (it2 < 0) */
};

static const struct fold_row rows[] = {
	{ "pieces of a row, one spacing", GM_TO_LOAD, 4, 4, { 0, 1, 2, 3 }, 4, 4, 3 },
	{ "pieces 128 B apart (a warp's unrolled row)", GM_TO_LOAD, 4, 4, { 0, 32, 64, 96 }, 4, 128, 3 },
	{ "an 8-half record with a piece not loaded", GM_TO_LOAD, 2, 7, { 0, 1, 2, 4, 5, 6, 7 }, 8, 2, 6 },
	/* a group that does not fold is tried again from its next instruction on (any two pieces are at one spacing) */
	{ "the same record stored: a hole is a sector written partly; the pieces after it fold", GM_TO_STORE, 2, 7,
	  { 0, 1, 2, 4, 5, 6, 7 }, 4, 2, 3 },
	{ "a hole of a line (spacing 128 B) is no piece's sector: the two after it fold", GM_TO_LOAD, 4, 3, { 0, 32, 96 },
	  2, 256, 1 },
	{ "more holes than pieces", GM_TO_LOAD, 4, 4, { 0, 1, 7, 100 }, 2, 24, 1 },
	{ "a stencil's row and the rows above and below: the row folds", GM_TO_LOAD, 4, 5, { -4099, -1, 0, 1, 4099 }, 3,
	  4, 2 },
	{ "two halves of a row 256 B apart: each folds", GM_TO_LOAD, 4, 6, { 0, 1, 2, 64, 65, 66 }, 3, 4, 4 },
	{ "one address read twice: readings", GM_TO_LOAD, 4, 2, { 5, 5 }, 2, 0, 1 },
	{ "one word stored three times (rule RS): DRAM writes it once, the first store stays", GM_TO_STORE, 4, 3,
	  { 5, 5, 5 }, 0, 0, 2 },
};

static void test_fold(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in[MAXP];
	struct gm_trace_sample s[MAXP];
	struct gm_trace_insn x[MAXP];
	struct gm_trace_kernel k;
	int it2[MAXP];
	int64_t step2[MAXP];
	(void)state;
	memset(&l, 0, sizeof(l));
	l.grid[0] = 1024, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 256, l.block[1] = l.block[2] = 1;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct fold_row *w = &rows[r];
		int lead = 0, folded = 0;
		memset(in, 0, sizeof(in));
		memset(s, 0, sizeof(s));
		memset(x, 0, sizeof(x));
		for (int i = 0; i < w->n; i++) {
			in[i].space = GM_TS_GLOBAL;
			in[i].op = w->op;
			in[i].size = w->size;
			in[i].pc = 16 * (uint64_t)(i + 1);
			in[i].executions = 8192;
			s[i].have = s[i].mask = 0xffffffffu;
			for (int lane = 0; lane < 32; lane++)
				s[i].addr[lane] = (1 << 24) + (lane * 8192 + w->off[i]) * w->size;
			in[i].samples = &s[i];
			in[i].nsamples = 1;
			x[i].in = &in[i];
			x[i].fit.map.known = 1;
			x[i].fit.map.nmodes = 1;
			x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, 0, 8192 };
			x[i].fit.map.base = 1 << 24;
			x[i].fit.map.offset = w->off[i];
			x[i].fit.iters = 1;
		}
		memset(&k, 0, sizeof(k));
		k.l = &l, k.ins = x, k.nins = w->n, k.threads = 1024 * 256;
		tk_fold(&k, NULL, 0, it2, step2);
		for (int i = w->n - 1; i >= 0; i--) {
			folded += it2[i] < 0;
			lead = it2[i] > 0 ? i : lead;
		}
		print_message("%s\n", w->what);
		assert_int_equal(it2[lead], w->it2);
		assert_int_equal(step2[lead], w->step2);
		assert_int_equal(folded, w->folded);
	}
}

/* Rule H (trace_fold.c tk_sector_hits): a walk whose sampled lanes all read sectors another walk of the same warps
   reads, or the sectors next to them (the halo). A: a warp's 128 B row (lanes 4 B apart, gid), the most sectors; B: one load of another walk, per row. */
struct hit_row {
	const char *what;
	int64_t b_size;      /* B's mode: gid modulo this (0: none, A's walk) */
	int warp;            /* the warp B was sampled in (A: warp 0) */
	int64_t b_off;       /* B's lanes' bytes from A's row start */
	int iters, iter2;    /* B's loop trips; its second sample's iteration (-1: one sample) */
	int hit;
};

static const struct hit_row hit_rows[] = {
	{ "remainder lanes on the row's sectors: a hit", 4, 0, 96, 1, -1, 1 },
	{ "a loop over them, sampled at two iterations: a hit", 4, 0, 96, 3, 1, 1 },
	{ "a loop sampled at one iteration: not (its later trips reach other sectors)", 4, 0, 96, 3, -1, 0 },
	{ "on the sector past the row's last (its halo, the next warp's): a hit", 4, 0, 128, 1, -1, 1 },
	{ "a sector further: not", 4, 0, 160, 1, -1, 0 },
	{ "the halo before the row's first sector: a hit", 4, 0, -32, 1, -1, 1 },
	{ "sampled in a warp A was not: not", 4, 1, 96, 1, -1, 0 },
	{ "the same walk as A: rule M's, not", 0, 0, 96, 1, -1, 0 },
};

static void test_sector_hits(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_instr in[2];
	struct gm_trace_sample s[3];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
	(void)state;
	memset(&l, 0, sizeof(l));
	l.grid[0] = 1024, l.grid[1] = l.grid[2] = 1;
	l.block[0] = 256, l.block[1] = l.block[2] = 1;
	for (size_t r = 0; r < sizeof(hit_rows) / sizeof(hit_rows[0]); r++) {
		const struct hit_row *w = &hit_rows[r];
		memset(in, 0, sizeof(in));
		memset(s, 0, sizeof(s));
		memset(x, 0, sizeof(x));
		for (int i = 0; i < 2; i++) {
			in[i].space = GM_TS_GLOBAL;
			in[i].op = GM_TO_LOAD;
			in[i].size = 4;
			in[i].pc = 16 * (i + 1);
			in[i].executions = 8192;
			in[i].sectors = i ? 100 : 1000;
			x[i].in = &in[i];
			x[i].fit.map.known = 1;
			x[i].fit.map.nmodes = 1;
			x[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, i ? w->b_size : 0, 1 };
			x[i].fit.map.base = 1 << 24;
			x[i].fit.iters = i ? w->iters : 1;
		}
		s[0].have = s[0].mask = 0xffffffffu;
		for (int lane = 0; lane < 32; lane++)
			s[0].addr[lane] = (1 << 24) + lane * 4;
		for (int q = 1; q < 3; q++) {
			s[q].warp = w->warp;
			s[q].have = s[q].mask = 0xf0000000u;   /* lanes 28-31 */
			s[q].iter = q == 2 ? w->iter2 : 0;
			for (int lane = 28; lane < 32; lane++)
				s[q].addr[lane] = (1 << 24) + w->b_off + (lane - 28) * 4 - (q == 2 ? 64 : 0);
		}
		in[0].samples = &s[0], in[0].nsamples = 1;
		in[1].samples = &s[1], in[1].nsamples = w->iter2 < 0 ? 1 : 2;
		memset(&k, 0, sizeof(k));
		k.l = &l, k.ins = x, k.nins = 2, k.threads = 1024 * 256;
		tk_sector_hits(&k);
		print_message("%s\n", w->what);
		assert_int_equal(x[0].sector_hit, 0);
		assert_int_equal(x[1].sector_hit, w->hit);
	}
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_sector_hits),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}
