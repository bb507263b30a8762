/* test_trace_computed.c - rule CS (trace_computed.c, docs/TRACE.md "The patterns"): a gather whose addresses are
 * arithmetic on the thread's index (nothing before it returns data; in a loop, one fixed step from each lane's first
 * address), and the fields beside such a one; the cases it must refuse: a load or an atomic before it, a loop whose
 * later addresses wander (a chase), a loop with no later sample, a lane-indexed __constant__ load, a fitted access,
 * shared memory, a field at no one distance; and an access whose lanes are a polynomial of the index (a quadratic
 * or a multiplicative hash modulo a power of two, a cubic) after a load, but not one lane off it. Table-driven over
 * synthetic kernels: set 23's hash (the probe at a multiplicative hash of the thread's index, 8-byte slots, the price
 * beside the key). And rule SC (trace_fix_chain.c):
 * a binary search's kernel time, the search's dependent latencies added to the rest, through the whole analysis. */
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

#define NI 3
#define NS 4   /* sampled warps an instruction; iteration 0 and 1 each */

enum kind { HASH, COAL, CHASE, FIELD, WILD, QUAD, MULH, QUADX, CUBE };

struct row {
	const char *name;
	enum kind kind[NI];           /* each instruction's addresses */
	enum gm_trace_op op[NI];
	int fitted[NI];               /* 1: a map fits (not a gather) */
	double per_warp[NI];          /* executions a warp */
	int later;                    /* 1: iteration 1 sampled */
	int shared0;                  /* 1: instruction 0 in shared memory */
	int const_lane;
	int want[NI];                 /* computed: 0, 1 or 2 */
};

static const struct row rows[] = {
	{ "hash probe first, a coalesced load after", { HASH, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 1, 1 }, { 1, 1, 1 }, 0, 0, 0, { 1, 0, 0 } },
	{ "a probe loop (fixed step), its price beside it", { HASH, FIELD, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 0, 1 }, { 1.7, 1, 1 }, 1, 0, 0, { 1, 2, 0 } },
	{ "a coalesced load before: its value may be the index", { COAL, HASH, COAL }, { GM_TO_LOAD, GM_TO_LOAD,
	  GM_TO_STORE }, { 1, 0, 1 }, { 1, 1, 1 }, 0, 0, 0, { 0, 0, 0 } },
	{ "an atomic before returns data", { COAL, HASH, COAL }, { GM_TO_ATOMIC, GM_TO_LOAD, GM_TO_STORE }, { 1, 0, 1 },
	  { 1, 1, 1 }, 0, 0, 0, { 0, 0, 0 } },
	{ "a store before returns nothing", { COAL, HASH, COAL }, { GM_TO_STORE, GM_TO_STORE, GM_TO_STORE }, { 1, 0, 1 },
	  { 1, 1, 1 }, 0, 0, 0, { 0, 1, 0 } },
	{ "a chase: the next address from the data", { CHASE, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 1, 1 }, { 3, 1, 1 }, 1, 0, 0, { 0, 0, 0 } },
	{ "a loop with no later iteration sampled", { HASH, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 1, 1 }, { 2, 1, 1 }, 0, 0, 0, { 0, 0, 0 } },
	{ "a lane-indexed __constant__ load", { HASH, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 1, 1 }, { 1, 1, 1 }, 0, 0, 1, { 0, 0, 0 } },
	{ "shared memory", { HASH, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE }, { 0, 1, 1 }, { 1, 1, 1 }, 0, 1,
	  0, { 0, 0, 0 } },
	{ "a fitted access", { HASH, COAL, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE }, { 1, 1, 1 }, { 1, 1, 1 }, 0,
	  0, 0, { 0, 0, 0 } },
	{ "a gather at no one distance from the probe", { HASH, WILD, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 0, 0, 1 }, { 1.7, 1, 1 }, 1, 0, 0, { 1, 0, 0 } },
	/* the lanes a polynomial of the index (3), whatever is loaded before: set 27's chirp table at n^2 mod 2n */
	{ "a quadratic index mod 2^22 after a load", { COAL, QUAD, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 1, 0, 1 }, { 1, 1, 1 }, 0, 0, 0, { 0, 3, 0 } },
	{ "a multiplicative hash mod 2^22 after a load", { COAL, MULH, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 1, 0, 1 }, { 1, 1, 1 }, 0, 0, 0, { 0, 3, 0 } },
	{ "a cubic index, no wrap, after a load", { COAL, CUBE, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 1, 0, 1 }, { 1, 1, 1 }, 0, 0, 0, { 0, 3, 0 } },
	{ "a quadratic with one lane the data's", { COAL, QUADX, COAL }, { GM_TO_LOAD, GM_TO_LOAD, GM_TO_STORE },
	  { 1, 0, 1 }, { 1, 1, 1 }, 0, 0, 0, { 0, 0, 0 } },
};

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in[NI];
	struct gm_trace_sample sm[NI][2 * NS];
	struct gm_trace_insn x[NI];
	struct gm_trace_kernel k;
};

static uint64_t mix(uint64_t v)
{
	v = (v ^ (v >> 31)) * 0x9e3779b97f4a7c15ull;
	return v ^ (v >> 29);
}

#define TAB 0x10000000LL
#define BLOCKS 1000

static void make(const struct row *r, struct kern *c)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = BLOCKS, c->l.grid[1] = c->l.grid[2] = 1;
	c->l.block[0] = 256, c->l.block[1] = c->l.block[2] = 1;
	c->l.const_lane = r->const_lane;
	c->k.threads = (int64_t)BLOCKS * 256;
	for (int i = 0; i < NI; i++) {
		struct gm_trace_instr *in = &c->in[i];
		int ns = 0;
		in->pc = 0x100 + 0x40 * i;
		in->space = i == 0 && r->shared0 ? GM_TS_SHARED : GM_TS_GLOBAL;
		in->op = r->op[i];
		in->size = 4;
		in->line = 10 + i;
		in->executions = r->per_warp[i] * (double)c->k.threads / 32;
		in->samples = c->sm[i];
		for (int s = 0; s < NS; s++)
			for (int it = 0; it <= r->later; it++) {
				struct gm_trace_sample *t = &c->sm[i][ns++];
				t->block[0] = 97 * s + 3;
				t->warp = s % 8;
				t->iter = it;
				t->mask = t->have = it ? 0x0000ffffu : 0xffffffffu;   /* half the lanes probe again */
				for (int l = 0; l < GM_WARP_SIZE; l++) {
					int64_t gid = (int64_t)t->block[0] * 256 + t->warp * 32 + l;
					int64_t h = (int64_t)(mix((uint64_t)gid) % (1u << 20)) * 8;
					int64_t a = r->kind[i] == COAL ? 0x1000000 + gid * 4 :
						    r->kind[i] == HASH ? h + 8 * it :
						    r->kind[i] == FIELD ? h + 8 * (l < 16 && r->later) + 4 :
						    r->kind[i] == WILD ? (int64_t)(mix((uint64_t)gid * 7 + 1) % (1u << 20)) * 8 :
						    r->kind[i] == QUAD ? gid * gid % (1 << 22) * 4 :
						    r->kind[i] == QUADX ? (gid * gid + (l == 9 && s == 2) * 3) % (1 << 22) * 4 :
						    r->kind[i] == MULH ? (int64_t)((uint64_t)gid * 2654435761u % (1u << 22)) * 4 :
						    r->kind[i] == CUBE ? gid * gid * gid * 4 :
						    (int64_t)(mix((uint64_t)(gid * 5 + it)) % (1u << 20)) * 8;   /* CHASE */
					t->addr[l] = TAB + a;
				}
				if (r->kind[i] == FIELD && it)
					ns--;   /* the field: once a warp */
			}
		in->nsamples = ns;
		c->x[i].in = in;
		c->x[i].fit.map.known = r->fitted[i];
		c->x[i].fit.cls = r->fitted[i] ? GM_TC_COALESCED : GM_TC_GATHER;
		c->x[i].fit.approx = !r->fitted[i];
	}
	c->k.l = &c->l, c->k.ins = c->x, c->k.nins = NI;
}

static void test_rule_cs(void **state)
{
	(void)state;
	for (size_t q = 0; q < sizeof(rows) / sizeof(rows[0]); q++) {
		struct kern c;
		make(&rows[q], &c);
		tk_computed_scatters(&c.k);
		for (int i = 0; i < NI; i++) {
			if (c.x[i].computed != rows[q].want[i])
				fail_msg("%s: instruction %d computed %d, want %d", rows[q].name, i, c.x[i].computed,
					 rows[q].want[i]);
			if (rows[q].want[i])
				assert_non_null(strstr(c.x[i].fit.cls_text, "computed "));
		}
	}
}

/* scattered (each lane its own sector, twice the need or more): by_index's and the verdict's advice; lanes that share
   sectors (set 7's im2col_elem: 13.9 sectors a request of 32 lanes) are computed but not scattered */
static void test_scattered(void **state)
{
	static const struct {
		const char *name;
		int computed;
		double lanes, per, ideal;
		int want;
	} t[] = {
		{ "set 23's probe: 27.5 lanes, 27.5 sectors where 3.6 do", 1, 27.5, 27.48, 3.59, 1 },
		{ "its price: 32 lanes, 32 sectors where 4 do", 2, 32, 32, 4, 1 },
		{ "im2col: lanes share sectors", 1, 32, 13.9, 4, 0 },
		{ "one lane a request, one sector: nothing wasted", 1, 1, 1.14, 1, 0 },
		{ "a gather by data", 0, 32, 32, 4, 0 },
		{ "each lane its own sector, but 8-byte lanes of a 16 B need", 1, 32, 32, 20, 0 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct gm_trace_instr in;
		struct gm_trace_insn x;
		memset(&in, 0, sizeof(in));
		memset(&x, 0, sizeof(x));
		in.requests = 1000, in.executions = 1000, in.thread_accesses = 1000 * t[i].lanes;
		x.in = &in, x.computed = t[i].computed;
		x.fit.meas_per_req = t[i].per, x.fit.ideal_per_req = t[i].ideal;
		if (tk_computed_scattered(&x) != t[i].want)
			fail_msg("%s: scattered %d, want %d", t[i].name, !t[i].want, t[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_cs),
		cmocka_unit_test(test_scattered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
