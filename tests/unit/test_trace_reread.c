/* test_trace_reread.c - rules RR (trace_fix_reread.c) and ST (trace_fix_stage.c), docs/TRACE.md "The fix":
 * synthetic kernels with the built-in H200 profile. RR's grid form: a 2D launch of 16 y planes whose 8 input
 * loads (128 MB, more than L2) no mode of blockIdx.y moves (set 21's mix_ocgrid), a store and a weight blockIdx.y
 * chooses; its group form: 64 threads of a row each loading the row's 64 elements (set 21's zrow_elem); ST: a
 * 4096-entry table staged into shared memory by each of 100000 blocks (set 21's lut per_block); RR's far form: 7 loads
 * whole frames apart on a grid whose blockIdx.y is the output frame (set 25's tmean_grid). The cases each must
 * refuse. */
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

#define MAXI 72
#define GX 16000

static struct gm_profile P;

struct kern {
	struct gm_trace_launch l;
	struct gm_trace_instr in[MAXI];
	struct gm_trace_insn x[MAXI];
	struct gm_trace_kernel k;
};

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

static void mode(struct gm_trace_insn *x, int var, int64_t div, int64_t stride)
{
	struct gm_trace_map *m = &x->fit.map;
	m->mode[m->nmodes++] = (struct gm_trace_mode){ var, div, 0, stride };
}

static struct gm_trace_insn *add(struct kern *c, enum gm_trace_space sp, enum gm_trace_op op, double execs,
				 double sectors, const char *expr, int64_t offset, int64_t base)
{
	int i = c->k.nins++;
	struct gm_trace_instr *in = &c->in[i];
	struct gm_trace_insn *x = &c->x[i];
	in->pc = 0x100 + 16 * i;
	in->space = sp, in->op = op, in->size = 4, in->line = 10 + i;
	in->executions = execs, in->requests = execs;
	in->thread_accesses = execs * 32;
	in->sectors = sp == GM_TS_GLOBAL ? sectors : 0;
	in->wavefronts = sp == GM_TS_SHARED ? execs : 0;
	x->in = in;
	x->bytes = in->sectors * 32;
	x->fit.map.known = 1;
	x->fit.map.offset = offset;
	x->fit.map.base = base;
	x->fit.iters = 1;
	snprintf(x->fit.expr1d, sizeof(x->fit.expr1d), "%s", expr);
	return x;
}

static void start(struct kern *c, int64_t gx, int64_t gy, int tpb)
{
	memset(c, 0, sizeof(*c));
	c->l.grid[0] = gx, c->l.grid[1] = gy, c->l.grid[2] = 1;
	c->l.block[0] = tpb, c->l.block[1] = c->l.block[2] = 1;
	c->k.threads = gx * gy * tpb;
	c->k.l = &c->l, c->k.ins = c->x;
	c->k.pred_ok = 1;
	c->k.pred.time_ms = 0.4;
	c->k.time_ms = 0.4;
}

/* mix: 8 inputs no mode of by moves, a weight by chooses, the output plane by chooses */
static void mix(struct kern *c)
{
	double w = (double)GX * 16 * 8;
	char e[96];
	start(c, GX, 16, 256);
	for (int j = 0; j < 8; j++) {
		snprintf(e, sizeof(e), "tx + (bx %% %d)*256 + %d", GX, j * 4096000);
		struct gm_trace_insn *x = add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, 4 * w, e, j * 4096000, 1 << 20);
		mode(x, GM_TV_TX, 1, 1), mode(x, GM_TV_BX, 1, 256);
	}
	snprintf(e, sizeof(e), "(bx / %d)*8", GX);
	mode(add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, w, e, 0, 1 << 28), GM_TV_BY, 1, 8);
	snprintf(e, sizeof(e), "tx + (bx %% %d)*256 + (bx / %d)*4096000", GX, GX);
	struct gm_trace_insn *s = add(c, GM_TS_GLOBAL, GM_TO_STORE, w, 4 * w, e, 0, 1 << 29);
	mode(s, GM_TV_TX, 1, 1), mode(s, GM_TV_BX, 1, 256), mode(s, GM_TV_BY, 1, 4096000);
}

static void test_grid(void **state)
{
	struct kern c;
	char t[400];
	int ins;
	(void)state;
	mix(&c);
	double sc = tk_reread_words(&c.k, &P, t, sizeof(t), &ins);
	assert_true(sc > 0.5);   /* 16 reads of the inputs: most of the time */
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "each of the grid's 16 y planes"));
	assert_non_null(strstr(t, "and 7 more (rule RR)"));
	assert_int_equal(tf_reread(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "load_once");
	assert_true(fabs(c.x[0].fix.kernel_speedup - 1 / (1 - sc)) < 1e-9);
	assert_int_equal(c.x[0].fix.ninstr, 8);
	for (int i = 1; i < 8; i++)
		assert_int_equal(c.x[i].fix.same_as, 1);
	assert_int_equal(c.x[8].fix.same_as, 0);   /* the weight and the store are not re-read */
	assert_int_equal(c.x[9].fix.same_as, 0);
	assert_non_null(strstr(c.x[0].fit.cls_text, "re-read by the grid's 16 y planes"));
}

static void test_grid_refused(void **state)
{
	struct kern c;
	char t[400];
	int ins;
	(void)state;
	mix(&c);
	c.l.grid[1] = 1, c.k.threads /= 16;   /* no y planes */
	assert_true(tk_reread_words(&c.k, &P, t, sizeof(t), &ins) == 0);
	mix(&c);
	for (int i = 0; i < 8; i++)   /* the samples never varied blockIdx.y: the map cannot say */
		c.x[i].fit.map.open |= 1u << GM_TV_BY;
	assert_int_equal(tf_reread(&c.k, &P), -1);
	mix(&c);
	for (int i = 0; i < 8; i++)   /* the inputs' planes chosen by blockIdx.y: read once each */
		mode(&c.x[i], GM_TV_BY, 1, 64);
	assert_int_equal(tf_reread(&c.k, &P), -1);
	mix(&c);
	for (int i = 0; i < 8; i++)   /* the re-read loads a small part of the sectors */
		c.in[i].sectors = c.in[i].executions * 0.1;
	assert_int_equal(tf_reread(&c.k, &P), -1);
	mix(&c);
	for (int i = 0; i < 8; i++)   /* a row vector every row reads (8 x 16 KB): L1 and L2 hold it, not re-read from DRAM */
		c.x[i].fit.map.nmodes = 1;
	assert_int_equal(tf_reread(&c.k, &P), -1);
	mix(&c);
	c.k.time_ms = 1e-6;   /* already faster than the fixed kernel */
	assert_int_equal(tf_reread(&c.k, &P), -1);
}

/* zrow: k threads a row, each loading the row's k elements, then its own and a store */
static void zrow(struct kern *c, int k)
{
	char e[96];
	start(c, 3000, 1, 256);
	c->k.time_ms = 0.15;
	double w = (double)c->k.threads / 32;
	for (int j = 0; j < k; j++) {
		snprintf(e, sizeof(e), j ? "(gid / %d)*%d + %d" : "(gid / %d)*%d", k, k, j);
		mode(add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, 1.2 * w, e, j, 1 << 20), GM_TV_GID, k, k);
	}
	mode(add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, 4 * w, "gid", 0, 1 << 20), GM_TV_GID, 1, 1);
	mode(add(c, GM_TS_GLOBAL, GM_TO_STORE, w, 4 * w, "gid", 0, 1 << 28), GM_TV_GID, 1, 1);
}

static void test_group(void **state)
{
	struct kern c;
	char t[400];
	int ins;
	(void)state;
	zrow(&c, 64);
	double sc = tk_reread_words(&c.k, &P, t, sizeof(t), &ins);
	assert_true(sc > 0);
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "each of 64 threads of a row reads the whole row"));
	assert_non_null(strstr(t, "the row's 64 elements read 64 times"));
	assert_int_equal(tf_reread(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "share_row");
	assert_int_equal(c.x[0].fix.ninstr, 64);
	assert_int_equal(c.x[63].fix.same_as, 1);
	assert_int_equal(c.x[64].fix.same_as, 0);   /* the thread's own element: not the row's walk */
	zrow(&c, 2);   /* a pair of lanes on one word: under RR_MIN_K */
	assert_int_equal(tf_reread(&c.k, &P), -1);
	zrow(&c, 64);
	mode(&c.x[5], GM_TV_TX, 1, 1);   /* a load the thread's own id moves: not the row's, and not priced */
	assert_true(tk_reread_words(&c.k, &P, t, sizeof(t), &ins) == 0);
	assert_int_equal(ins, -1);
	zrow(&c, 64);
	mode(&c.x[64], GM_TV_TX, 1, 3);   /* an access the row's new shape cannot price */
	c.x[64].fit.expr1d[0] = 'x';
	assert_int_equal(tf_reread(&c.k, &P), -1);
}

/* lut: a 4096-entry table loaded by every block (tx, 16 iterations) and stored to shared memory, a pixel a thread */
static void lut(struct kern *c, int64_t blocks)
{
	start(c, blocks, 1, 256);
	c->k.time_ms = 0.27;
	c->k.occ.blocks = 8;
	double w = (double)c->k.threads / 32;
	struct gm_trace_insn *ld = add(c, GM_TS_GLOBAL, GM_TO_LOAD, 16 * w, 64 * w, "tx", 0, 1 << 20);
	struct gm_trace_insn *st = add(c, GM_TS_SHARED, GM_TO_STORE, 16 * w, 0, "tx", 0, 1024);
	mode(ld, GM_TV_TX, 1, 1), mode(st, GM_TV_TX, 1, 1);
	ld->fit.iters = st->fit.iters = 16;
	ld->fit.map.iter_step = st->fit.map.iter_step = 256;
	mode(add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, 2 * w, "gid", 0, 1 << 28), GM_TV_GID, 1, 1);
	mode(add(c, GM_TS_GLOBAL, GM_TO_STORE, w, 4 * w, "gid", 0, 1 << 29), GM_TV_GID, 1, 1);
}

static void test_stage(void **state)
{
	struct kern c;
	char t[400];
	int ins;
	(void)state;
	lut(&c, 100000);
	assert_true(tk_stage_words(&c.k, &P, t, sizeof(t), &ins) > 0);
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "a 16 KB table staged into shared memory by each of the 100000 blocks"));
	assert_int_equal(tf_stage_once(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "stage_once");
	assert_non_null(strstr(c.x[0].fix.change, "1056 resident blocks (132 SMs x 8)"));
	assert_int_equal(c.x[1].fix.same_as, 1);   /* its shared store */
	assert_int_equal(c.x[2].fix.same_as, 0);
	lut(&c, 3000);   /* under ST_MIN_WAVES waves of resident blocks */
	assert_int_equal(tf_stage_once(&c.k, &P), -1);
	lut(&c, 100000);
	c.in[1].pc = 0x10;   /* no shared store after the load: not staged */
	assert_int_equal(tf_stage_once(&c.k, &P), -1);
	lut(&c, 100000);
	mode(&c.x[0], GM_TV_BX, 1, 4096);   /* each block its own table: not the same bytes */
	assert_int_equal(tf_stage_once(&c.k, &P), -1);
	lut(&c, 100000);
	c.k.occ.blocks = 0;   /* the resident blocks unknown */
	assert_int_equal(tf_stage_once(&c.k, &P), -1);
}

/* tmean: a 7-tap temporal mean with the output frame on blockIdx.y (set 25's tmean_grid): load k of plane t reads
   frame t + k, so each of the 14 frames is read by up to 7 planes, a plane (gx blocks) apart */
#define FR 2088960
static void tmean(struct kern *c, int64_t gx)
{
	char e[96];
	start(c, gx, 8, 256);
	c->k.time_ms = 0.1193, c->k.pred.time_ms = 0.1234;
	double w = (double)c->k.threads / 32;
	c->k.pred.dram_read_bytes = 7 * 4 * w * 32;
	snprintf(e, sizeof(e), "tx + bx*256 + by*%d", FR);
	for (int j = 0; j < 7; j++) {
		struct gm_trace_insn *x = add(c, GM_TS_GLOBAL, GM_TO_LOAD, w, 4 * w, e, 0, (1 << 20) + (int64_t)j * FR * 4);
		mode(x, GM_TV_TX, 1, 1), mode(x, GM_TV_BX, 1, 256), mode(x, GM_TV_BY, 1, FR);
	}
	struct gm_trace_insn *s = add(c, GM_TS_GLOBAL, GM_TO_STORE, w, 4 * w, e, 0, (int64_t)1 << 30);
	mode(s, GM_TV_TX, 1, 1), mode(s, GM_TV_BX, 1, 256), mode(s, GM_TV_BY, 1, FR);
}

static void test_far(void **state)
{
	struct kern c;
	char t[400];
	int ins;
	(void)state;
	tmean(&c, 8160);
	double sc = tk_reread_words(&c.k, &P, t, sizeof(t), &ins);
	assert_true(sc > 0.5 && sc < 0.75);   /* 56 frame reads of 14 frames, priced 2-4x */
	assert_int_equal(ins, 0);
	assert_non_null(strstr(t, "re-read across blocks at"));
	assert_non_null(strstr(t, "and 6 more (rule RR)"));
	assert_non_null(strstr(t, "read 14 planes 4.0x over"));
	assert_non_null(strstr(t, "351 MB again from DRAM"));
	assert_int_equal(tf_reread(&c.k, &P), 0);
	assert_string_equal(c.x[0].fix.rewrite, "load_once");
	assert_int_equal(c.x[0].fix.ninstr, 7);
	assert_int_equal(c.x[6].fix.same_as, 1);
	assert_int_equal(c.x[7].fix.same_as, 0);   /* the store */
	assert_non_null(strstr(c.x[0].fit.cls_text, "re-read across blocks (4.0x"));
	tmean(&c, 100);   /* a plane's readers 100 blocks apart: L2 keeps the frame */
	assert_int_equal(tf_reread(&c.k, &P), -1);
	tmean(&c, 8160);
	c.x[3].fit.map.base += 64;   /* a load off the planes: not of the group, looped over the planes as it is */
	assert_int_equal(tf_reread(&c.k, &P), 0);
	assert_int_equal(c.x[0].fix.ninstr, 6);
	assert_int_equal(c.x[3].fix.same_as, 0);
	tmean(&c, 8160);
	c.k.dram_measured = 1, c.k.dram_bytes = 14.0 * FR * 4 + 8.0 * FR * 4;   /* DRAM read each frame once */
	assert_int_equal(tf_reread(&c.k, &P), -1);
	tmean(&c, 8160);
	for (int i = 0; i < 7; i++)   /* every load its own frame's offset but one plane apart: 7 x 8 = 56 of 14 + 7 */
		c.x[i].fit.map.base = (1 << 20) + (int64_t)i * 8 * FR * 4;
	assert_int_equal(tf_reread(&c.k, &P), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_grid_refused),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_stage),
		cmocka_unit_test(test_far),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
