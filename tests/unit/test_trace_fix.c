/* test_trace_fix.c - the arithmetic of `gpumem trace`'s fix (docs/TRACE.md, "The fix"), table-driven with the
 * built-in H200 profile: the whole kernel's speedup when the time the launch model does not explain partly goes
 * with the wasted sectors the change removes (tf_kernel_speedup_ex; its part form, tf_kernel_speedup_part, all of
 * it where the change removes every wasted sector), and which accesses count as taking
 * consecutive elements (tf_consecutive: a row the data places, at its ideal sectors), and a float atomic's lanes an
 * address a warp (tk_warp_runs: rule block_reduce's warp runs) and their waiting turns (tk_warp_turns: rule A), and
 * the merge a warp-a-row reduction ends with (tf_merge_ms: rule warp_rows, the probe's shuffle rounds), rule I's
 * instructions (tk_issue_ms: a loop's body and straight-line code that all ran), and the shared window's
 * compare-and-swap rounds (tf_window_ms: rule block_reduce, probe-smem-atomic-cdb1b27). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "analysis/trace_internal.h"

static struct gm_profile P;

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

struct sp_row {
	double tm, tp, t_new, g, ex, want;   /* want: tm / (t_new + (tm - tp) (1 - ex) / g), or tp / t_new */
};

/* set 9's thread-a-row kernels' figures (kv_row_loop, rope_row_loop) and a kernel the model over-predicts */
static const struct sp_row sp_rows[] = {
	{ 0.2405, 0.0655, 0.0117, 2.75, 0.937, 0.2405 / (0.0117 + (0.2405 - 0.0655) * (1 - 0.937) / 2.75) },
	{ 0.2405, 0.0655, 0.0117, 2.75, 0, 0.2405 / (0.0117 + (0.2405 - 0.0655) / 2.75) },
	{ 0.6945, 0.5998, 0.0393, 2.06, 0.848, 0.6945 / (0.0393 + (0.6945 - 0.5998) * (1 - 0.848) / 2.06) },
	{ 0.2592, 0.3207, 0.0527, 1, 0.6, 0.3207 / 0.0527 },   /* predicted above measured: the ratio, ex unused */
	{ 0.10, 0.05, 0.02, 1, 1.7, 0.10 / 0.02 },             /* ex above 1 is 1: all of the unexplained time goes */
};

/* one block of 128 threads as the launch; a kernel of 98304 threads measured at tm ms, the model's memory at tp */
static void sp_kernel(struct gm_trace_launch *l, struct gm_trace_kernel *k, double tm, double tp)
{
	memset(l, 0, sizeof(*l));
	l->grid[0] = l->grid[1] = l->grid[2] = 1;
	l->block[0] = 128, l->block[1] = l->block[2] = 1;
	memset(k, 0, sizeof(*k));
	k->l = l;
	k->threads = 98304;
	k->time_ms = tm, k->mem_ms = tp;
}

static void test_speedup_ex(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	(void)state;
	for (size_t i = 0; i < sizeof(sp_rows) / sizeof(sp_rows[0]); i++) {
		const struct sp_row *r = &sp_rows[i];
		sp_kernel(&l, &k, r->tm, r->tp);
		double s = tf_kernel_speedup_ex(&k, &P, r->t_new, r->g, 1, r->ex);
		assert_true(fabs(s / r->want - 1) < 1e-9);
		if (r->ex == 0)
			assert_true(fabs(tf_kernel_speedup(&k, &P, r->t_new, r->g, 1) - s) < 1e-12);
	}
}

struct part_row {
	double tm, tp, t_new, t_kept, ex, own, want;   /* g = 1 */
};

/* tf_kernel_speedup_part: set 26's turn_naive (measured 0.4685 ms, model 0.2573; its column-walk store the kernel's
   only wasted sectors, 58.5 % of its bytes; the fixed kernel 0.0705) and the forms it falls back from */
#define TURN_EX(ex) (0.4685 / (0.0705 + (0.4685 - 0.2573) * (1 - (ex))))
static const struct part_row part_rows[] = {
	{ 0.4685, 0.2573, 0.0705, 0.0597, 0.585, 1.0, 0.4685 / 0.0705 },   /* every wasted sector removed: tm / t_new */
	{ 0.4685, 0.2573, 0.0705, 0.0597, 0.585, 0.995, 0.4685 / 0.0705 },  /* within a rounding of all */
	{ 0.4685, 0.2573, 0.0705, 0.0597, 0.585, 0.97, TURN_EX(0.585) },  /* 3 % kept by another: the bytes' share */
	{ 0.4685, 0.2573, 0.0705, 0.0597, 0.585, 0.60, TURN_EX(0.585) },  /* waste left to others: the bytes' share */
	{ 0.4685, 0.2573, 0.0705, 0.0597, 0.30, 1.0, TURN_EX(0.30) },     /* a small part of the bytes: the same */
	{ 0.4685, 0.2573, 0.0705, -1, 0.585, 1.0, TURN_EX(0.585) },       /* the part left unknown */
	{ 0.2800, 0.2573, 0.0705, 0.0597, 0.585, 1.0, 0.28 / (0.0705 + (0.28 - 0.2573) * (1 - 0.585)) },   /* in 10 % */
	{ 0.2592, 0.3207, 0.0527, 0.0200, 0.6, 0, 0.2592 / 0.0527 },      /* over-predicted: the measured time's part */
	{ 0.2592, 0.3207, 0.0527, 0.3000, 0.6, 0, 0.3207 / 0.0527 },      /* the untouched part alone over: ratio */
};

static void test_speedup_part(void **state)
{
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	(void)state;
	for (size_t i = 0; i < sizeof(part_rows) / sizeof(part_rows[0]); i++) {
		const struct part_row *r = &part_rows[i];
		sp_kernel(&l, &k, r->tm, r->tp);
		double s = tf_kernel_speedup_part(&k, &P, r->t_new, r->t_kept, 1, 1, r->ex, r->own);
		assert_true(fabs(s / r->want - 1) < 1e-9);
	}
}

/* rule row_layout (tf_row_layout): set 22's pad, records { float vx; double m; float vy; } of 24 B read field by
   field; the layout of vy takes vx (its size, its modes) and m (8 B, the same array, the same 24 B in bytes), not an
   8 B field of another array nor the coalesced store */
static void test_row_layout(void **state)
{
	static const struct { int size, stride, cls; int64_t base, offset; } f[] = {
		{ 4, 6, GM_TC_STRIDED, 4096, 4 },   /* vy, the leader */
		{ 4, 6, GM_TC_STRIDED, 4096, 0 },   /* vx */
		{ 8, 3, GM_TC_STRIDED, 4096, 1 },   /* m */
		{ 8, 3, GM_TC_STRIDED, 8192, 1 },   /* another array's double, 24 B apart */
		{ 8, 4, GM_TC_STRIDED, 4096, 1 },   /* the same array, 32 B apart: another shape */
		{ 4, 1, GM_TC_COALESCED, 9999, 0 }, /* the store */
	};
	enum { NF = sizeof(f) / sizeof(f[0]) };
	struct gm_trace_instr in[NF];
	struct gm_trace_insn ins[NF];
	struct gm_trace_kernel k;
	struct tk_swap sw[8] = { { 0, "gid", 1, 0, 0 } };
	char lines[64] = "";
	(void)state;
	memset(&k, 0, sizeof(k));
	memset(in, 0, sizeof(in));
	memset(ins, 0, sizeof(ins));
	for (int i = 0; i < NF; i++) {
		in[i].space = GM_TS_GLOBAL;
		in[i].op = i == NF - 1 ? GM_TO_STORE : GM_TO_LOAD;
		in[i].size = f[i].size;
		in[i].line = 36 + i;
		ins[i].in = &in[i];
		ins[i].fit.cls = f[i].cls;
		ins[i].fit.iters = 1;
		ins[i].fit.map.known = 1;
		ins[i].fit.map.base = f[i].base;
		ins[i].fit.map.offset = f[i].offset;
		ins[i].fit.map.nmodes = 1;
		ins[i].fit.map.mode[0] = (struct gm_trace_mode){ GM_TV_GID, 1, 0, f[i].stride };
	}
	k.ins = ins;
	k.nins = NF;
	int n = tf_row_layout(&k, 0, sw, 1, 8, lines, sizeof(lines));
	assert_int_equal(n, 3);
	assert_int_equal(sw[1].ins, 1);
	assert_int_equal(sw[2].ins, 2);
	assert_string_equal(lines, "37, 38");
}

struct cons_row {
	enum gm_trace_class cls;
	int known, iters, op, size;
	double per, ideal;
	int want;
};

static const struct cons_row cons_rows[] = {
	{ GM_TC_COALESCED, 1, 1, GM_TO_LOAD, 4, 4, 4, 1 },
	{ GM_TC_GATHER, 0, 1, GM_TO_STORE, 2, 2, 2, 1 },      /* kv_lanes's cache row at pos[b]: one run a warp */
	{ GM_TC_GATHER, 0, 1, GM_TO_LOAD, 4, 19.0, 5.1, 0 },  /* rows of a table: scattered */
	{ GM_TC_GATHER, 0, 3, GM_TO_LOAD, 4, 4, 4, 0 },       /* in a loop: its threads' count, not their width */
	{ GM_TC_STRIDED, 1, 1, GM_TO_LOAD, 4, 8, 4, 0 },
	{ GM_TC_GATHER, 0, 1, GM_TO_ATOMIC, 4, 4, 4, 0 },
};

static void test_consecutive(void **state)
{
	struct gm_trace_instr in;
	struct gm_trace_insn x;
	(void)state;
	for (size_t i = 0; i < sizeof(cons_rows) / sizeof(cons_rows[0]); i++) {
		const struct cons_row *r = &cons_rows[i];
		memset(&in, 0, sizeof(in));
		memset(&x, 0, sizeof(x));
		in.space = GM_TS_GLOBAL;
		in.op = r->op;
		in.size = r->size;
		x.in = &in;
		x.fit.cls = r->cls;
		x.fit.map.known = r->known;
		x.fit.iters = r->iters;
		x.fit.meas_per_req = r->per;
		x.fit.ideal_per_req = r->ideal;
		assert_int_equal(tf_consecutive(&x), r->want);
	}
}

struct runs_row {
	const char *sass;
	enum gm_trace_op op;
	int keys;          /* lanes a key: addresses 4 * (lane / keys); 0: one address a lane */
	unsigned mask;     /* active lanes */
	double want;
	double addrs;      /* distinct addresses a warp */
	double turns;      /* rule A's waiting turns a warp: over its sectors, the most updated word's lanes but one */
};

/* seg_atomic (set 10): sorted keys, a warp's lanes on one or two addresses; vox_atomic (set 12): an integer
   count a lane, the lanes of a warp on one or two voxels (the hardware applies each lane: the compiler
   aggregates only a uniform address, and such a warp is sampled with one lane) */
static const struct runs_row runs_rows[] = {
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", GM_TO_REDUCTION, 32, 0xffffffffu, 32, 1, 31 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", GM_TO_REDUCTION, 16, 0xffffffffu, 16, 2, 15 },   /* 2 words, 1 sector */
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", GM_TO_REDUCTION, 0, 0xffffffffu, 1, 32, 0 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", GM_TO_REDUCTION, 32, 0x80000001u, 2, 1, 1 },   /* a run's last lanes only */
	{ "REDG.E.ADD.STRONG.GPU", GM_TO_REDUCTION, 16, 0xffffffffu, 16, 2, 15 },   /* an integer count a lane */
	{ "REDG.E.ADD.STRONG.GPU", GM_TO_REDUCTION, 32, 0x00000001u, 1, 1, 0 },    /* aggregated: one lane */
	{ "ATOMG.E.ADD.STRONG.GPU", GM_TO_ATOMIC, 8, 0xffffffffu, 8, 4, 7 },   /* atomics.u32_lanes08: 4 words, 1 sector */
	{ "ATOMG.E.ADD.STRONG.GPU", GM_TO_ATOMIC, 2, 0xffffffffu, 2, 16, 2 },   /* u32_lanes02: 2 sectors of 8 words */
	{ "LDG.E", GM_TO_LOAD, 32, 0xffffffffu, 0, 0, 0 },
};

static void test_warp_runs(void **state)
{
	static struct gm_trace_sample smp[2];
	struct gm_trace_instr in;
	(void)state;
	for (size_t i = 0; i < sizeof(runs_rows) / sizeof(runs_rows[0]); i++) {
		const struct runs_row *r = &runs_rows[i];
		memset(&in, 0, sizeof(in));
		memset(smp, 0, sizeof(smp));
		in.space = GM_TS_GLOBAL;
		in.op = r->op;
		in.size = 4;
		in.sass = (char *)r->sass;
		in.samples = smp;
		in.nsamples = 2;
		for (int s = 0; s < 2; s++) {
			smp[s].have = smp[s].mask = r->mask;
			for (int l = 0; l < 32; l++)
				smp[s].addr[l] = 4096 * s + 4 * (r->keys ? l / r->keys : l);
		}
		double addrs;
		assert_true(fabs(tk_warp_runs(&in, &addrs) - r->want) < 1e-12);
		assert_true(fabs(addrs - r->addrs) < 1e-12);
		assert_true(fabs(tk_warp_turns(&in) - r->turns) < 1e-12);
	}
}

/* The H200's one-address atomic rates (rule X's profile fields) and an empty instruction. */
static void h200_atomics(struct gm_profile *prof, struct gm_trace_instr *in)
{
	memset(prof, 0, sizeof(*prof));
	memset(in, 0, sizeof(*in));
	prof->atomic_f32_ns = 1.757, prof->atomic_u32_ns = 0.761;
}

/* one update's turn: a float atomic's at the float one-address rate, an integer's at the integer one */
static void test_turn_ns(void **state)
{
	struct gm_profile prof;
	struct gm_trace_instr in;
	(void)state;
	h200_atomics(&prof, &in);
	in.sass = (char *)"REDG.E.ADD.F32.FTZ.RN.STRONG.GP";
	assert_true(tk_turn_ns(&in, &prof) == 1.757);
	in.sass = (char *)"REDG.E.ADD.STRONG.GPU";
	assert_true(tk_turn_ns(&in, &prof) == 0.761);
	assert_true(tk_turn_ns(&in, NULL) == 0);
}

/* Rule C: every warp's lanes on the same few lines queue at one L2 slice, a pass (a sector's most updated word's
   lanes) at one update's time; not where a warp has lines of its own or the samples are of one block */
static void test_slice_ns(void **state)
{
	static struct gm_trace_sample smp[4];
	struct gm_profile prof;
	struct gm_trace_instr in;
	(void)state;
	h200_atomics(&prof, &in);
	in.space = GM_TS_GLOBAL, in.op = GM_TO_REDUCTION, in.size = 4, in.samples = smp, in.nsamples = 4;
	in.executions = 1000;
	in.sass = (char *)"REDG.E.ADD.STRONG.GPU";
	for (int s = 0; s < 4; s++) {   /* atomics.u32_few64_lanes32: a warp's 32 lanes on one of 64 words in 256 B */
		smp[s].have = smp[s].mask = 0xffffffffu;
		smp[s].block[0] = s;
		for (int l = 0; l < 32; l++)
			smp[s].addr[l] = 1 << 20 | 4 * (17 * s % 64);
	}
	assert_true(fabs(tk_slice_ns(&in, &prof, 1000) - 32 * 0.761 * 1000) < 1e-9);
	in.sass = (char *)"REDG.E.ADD.F32.FTZ.RN.STRONG.GP";   /* a float's lanes on one word wait for the add before */
	assert_true(fabs(tk_slice_ns(&in, &prof, 1000) - 32 * 1.757 * 1000) < 1e-9);
	for (int s = 0; s < 4; s++)   /* a word a lane, 4 sectors: a pass a sector, at the integer rate */
		for (int l = 0; l < 32; l++)
			smp[s].addr[l] = 1 << 20 | 4 * l;
	assert_true(fabs(tk_slice_ns(&in, &prof, 1000) - 4 * 0.761 * 1000) < 1e-9);
	assert_true(tk_slice_ns(&in, &prof, 100) == 0);   /* a loop's: its samples are every warp's first trips */
	for (int s = 0; s < 4; s++)
		smp[s].block[0] = 0;   /* the samples of one block: its neighbourhood, not the launch's */
	assert_true(tk_slice_ns(&in, &prof, 1000) == 0);
	for (int s = 0; s < 4; s++) {   /* each warp lines of its own */
		smp[s].block[0] = s;
		for (int l = 0; l < 32; l++)
			smp[s].addr[l] = 4096 * s + 4 * l;
	}
	assert_true(tk_slice_ns(&in, &prof, 1000) == 0);
}

struct merge_row {
	enum gm_trace_op row_op;   /* the row's piece */
	int store_size;            /* the store after the loop (0: none), one execution a thread */
	double probe_ms;           /* want: 5 rounds over none at 2^21 warps on the probe's 132 SMs (0: no merge) */
	int values;
};

/* tf_merge_ms (rule warp_rows's merge of a reduction's lanes) at the probe's 2^21 warps gives back the probe's
   own extra time (results/nvidia-h200/probe-merge-store-240908c/probe.txt), scaled to the profile's SMs */
static const struct merge_row merge_rows[] = {
	{ GM_TO_LOAD, 4, 0.1830 - 0.1671, 1 },
	{ GM_TO_LOAD, 8, 0.2171 - 0.1802, 2 },
	{ GM_TO_LOAD, 16, 0.3164 - 0.2100, 4 },
	{ GM_TO_LOAD, 12, ((0.2171 - 0.1802) + (0.3164 - 0.2100)) / 2, 3 },   /* between the measured V */
	{ GM_TO_STORE, 4, 0, 0 },   /* the row is written in the loop: no reduction */
	{ GM_TO_LOAD, 0, 0, 0 },    /* nothing stored after the loop */
};

static void test_merge(void **state)
{
	struct gm_trace_instr in[2];
	struct gm_trace_insn x[2];
	struct gm_trace_kernel k;
	struct tk_swap sw = { 0, NULL, 0, 0, 0, 0, 0 };
	(void)state;
	for (size_t i = 0; i < sizeof(merge_rows) / sizeof(merge_rows[0]); i++) {
		const struct merge_row *r = &merge_rows[i];
		int v = -1;
		memset(in, 0, sizeof(in));
		memset(x, 0, sizeof(x));
		memset(&k, 0, sizeof(k));
		k.threads = 1 << 21;   /* the relaunch: a warp a thread's row */
		in[0].space = in[1].space = GM_TS_GLOBAL;
		in[0].op = r->row_op, in[0].size = 4, in[0].executions = 64.0 * (1 << 16);
		in[1].op = r->store_size ? GM_TO_STORE : GM_TO_LOAD, in[1].size = r->store_size ? r->store_size : 4;
		in[1].executions = r->store_size ? (1 << 16) : 64.0 * (1 << 16);
		x[0].in = &in[0], x[1].in = &in[1];
		k.ins = x, k.nins = 2;
		double ms = tf_merge_ms(&k, &P, &sw, 1, &v);
		assert_int_equal(v, r->values);
		assert_true(fabs(ms - r->probe_ms * 132 / P.sm_count) < 1e-9);
	}
}

struct issue_row {
	int64_t pc[4];        /* the memory instructions' SASS offsets (0 after the first: none) */
	double per_warp[4];   /* their executions a warp (0: a path no warp took) */
	double want;          /* rule I's warp instructions a warp */
};

/* Rule I (tk_issue_ms): a loop's body and the straight-line code between memory instructions that all ran */
static const struct issue_row issue_rows[] = {
	{ { 176, 4896, 4912, 4928 }, { 1, 1, 1, 1 }, 12 + 295 + 1 + 1 },   /* set 14's b64_16: straight-line */
	{ { 176, 2000, 4896, 4912 }, { 1, 0, 1, 1 }, 12 + 1 },              /* a path not taken between: not counted */
	{ { 5104, 5168, 10192, 10256 }, { 1, 1, 1, 1 }, 0 },   /* 5 KB before the first: a general index calculator */
	{ { 176, 4896, 0, 0 }, { 4, 1, 0, 0 }, 4 * 12 + 295 },   /* a loop of 4 trips, then straight-line code once */
};

static void test_issue(void **state)
{
	struct gm_trace_instr in[4];
	struct gm_trace_insn x[4];
	struct gm_trace_launch l;
	struct gm_trace_kernel k;
	(void)state;
	for (size_t i = 0; i < sizeof(issue_rows) / sizeof(issue_rows[0]); i++) {
		const struct issue_row *r = &issue_rows[i];
		memset(in, 0, sizeof(in)), memset(x, 0, sizeof(x)), memset(&l, 0, sizeof(l)), memset(&k, 0, sizeof(k));
		l.grid[0] = 256, l.grid[1] = l.grid[2] = 1, l.block[0] = 128, l.block[1] = l.block[2] = 1;   /* 1024 warps */
		for (int j = 0; j < 4 && (!j || r->pc[j]); j++) {
			in[j].space = GM_TS_GLOBAL, in[j].op = GM_TO_LOAD, in[j].size = 4;
			in[j].pc = r->pc[j], in[j].executions = r->per_warp[j] * 1024;
			x[j].in = &in[j], k.nins = j + 1;
		}
		k.l = &l, k.ins = x;
		assert_true(fabs(tk_issue_ms(&k, &P) - r->want * 1024 / 4 / (132 * P.sm_clock_mhz * 1e3)) < 1e-12);
	}
}

struct window_row {
	const char *sass;
	int keys, natomics;   /* lanes a word (addresses 4 * (lane / keys)); the kernel's atomics alike */
	double probe_ns;      /* want: ns a warp instruction an SM (probe-smem-atomic-cdb1b27/probe.txt; 0: no window) */
};

/* tf_window_ms at the probe's own lanes gives back its measured ns a warp's float atomic an SM within 2 % */
static const struct window_row window_rows[] = {
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", 1, 2, 1.628 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", 4, 2, 6.188 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", 8, 4, 12.238 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", 32, 13, 48.614 },
	{ "REDG.E.ADD.F32.FTZ.RN.STRONG.GP", 8, 1, 0 },   /* one update a thread: the warp's segmented scan */
	{ "REDG.E.ADD.STRONG.GPU", 8, 2, 0 },             /* integers: no compare-and-swap loop */
};

static void test_window(void **state)
{
	static struct gm_trace_sample smp[16][2];
	struct gm_trace_instr in[16];
	struct gm_trace_insn x[16];
	struct gm_trace_kernel k;
	(void)state;
	for (size_t i = 0; i < sizeof(window_rows) / sizeof(window_rows[0]); i++) {
		const struct window_row *r = &window_rows[i];
		memset(in, 0, sizeof(in));
		memset(x, 0, sizeof(x));
		memset(smp, 0, sizeof(smp));
		memset(&k, 0, sizeof(k));
		for (int a = 0; a < r->natomics; a++) {
			in[a].space = GM_TS_GLOBAL, in[a].op = GM_TO_REDUCTION, in[a].size = 4;
			in[a].sass = (char *)r->sass, in[a].executions = 1 << 16;
			in[a].samples = smp[a], in[a].nsamples = 2;
			for (int s = 0; s < 2; s++) {
				smp[a][s].have = smp[a][s].mask = 0xffffffffu;
				for (int l = 0; l < 32; l++)   /* the data's words: no map (fit.map.known 0) */
					smp[a][s].addr[l] = 4096 * s + 4 * (l / r->keys);
			}
			x[a].in = &in[a];
		}
		k.ins = x, k.nins = r->natomics;
		double ns = tf_window_ms(&k, &P) * 1e6 * P.sm_count / (r->natomics * (double)(1 << 16));
		if (r->probe_ns > 0)
			assert_true(fabs(ns / r->probe_ns - 1) < 0.02);
		else
			assert_true(ns == 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_speedup_ex),
		cmocka_unit_test(test_speedup_part),
		cmocka_unit_test(test_row_layout),
		cmocka_unit_test(test_consecutive),
		cmocka_unit_test(test_warp_runs),
		cmocka_unit_test(test_turn_ns),
		cmocka_unit_test(test_slice_ns),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_issue),
		cmocka_unit_test(test_window),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
