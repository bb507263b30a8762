/* test_trace_values.c - the waste a kernel's sampled values show (src/analysis/trace_values.c; docs/TRACE.md,
 * "Values"). Two tables. The reader: a document of the synthetic fixtures (tests/fixtures/trace/synthetic/) with a
 * "values" object put on its first instruction, read back (an old document without one still reads; a malformed one
 * is refused). The rules: synthetic 1D launches (trace_synth.h: 1024 blocks of 256 threads walking a grid-stride loop of 16 steps, every warp counted, 64
 * sampled warps) whose instructions are given values by hand, analysed whole with the built-in H200 profile: each row
 * the rule it must name on which instruction, refused or priced, and the cases it must leave alone (a control's
 * values, a silent store the kernel does not load, too small a sample, no values). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "io/trace_io.h"
#include "trace_synth.h"

#define A 0x7f0000000000ll   /* three buffers, 1 GiB apart */
#define B (A + (1ll << 30))
#define C (A + (2ll << 30))
#define LANES 2048.0          /* 64 sampled warps of 32 lanes */

static struct gm_profile P;

static int setup(void **state)
{
	int exact = 0;
	(void)state;
	return gm_profile_nearest("NVIDIA H200", &P, &exact) == GM_OK ? 0 : -1;
}

/* ---- the reader ---- */

struct rd_row {
	const char *values;           /* the "values" object's JSON, NULL: none (an old document) */
	int ok;                       /* 1: reads */
	int have, ints, nsmall;
	double silent, float_exact;
	int64_t min, max;
};

static const struct rd_row rd_rows[] = {
	{ NULL, 1, 0, 0, -1, -1, -1, 0, 0 },
	{ "null", 1, 0, 0, -1, -1, -1, 0, 0 },
	{ "{\"lanes\": 2048, \"zero\": 512, \"silent\": 2000, \"min\": 0, \"max\": 3, \"int_bits\": 2, \"small\": [0, 1, 2, 3], "
	  "\"own_x\": 0, \"own_y\": 0, \"own_elem\": 0, \"wide\": false}", 1, 1, 1, 4, 2000, -1, 0, 3 },
	{ "{\"lanes\": 10, \"zero\": 0, \"own_elem\": 11}", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "{\"lanes\": 2048, \"zero\": 0, \"float_exact\": 2048, \"min\": -4611686018427387904, \"max\": 4607182418800017408, "
	  "\"int_bits\": 64, \"own_x\": 0, \"own_y\": 0, \"wide\": false}", 1, 1, 1, -1, -1, 2048, -4611686018427387904ll,
	  4607182418800017408ll },
	{ "{\"lanes\": 64, \"zero\": 64, \"wide\": true}", 1, 1, 0, -1, -1, -1, 0, 0 },
	{ "{\"lanes\": 0, \"zero\": 0}", 1, 0, 0, -1, -1, -1, 0, 0 },
	{ "[1, 2]", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "{\"zero\": 3}", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "{\"lanes\": 10, \"zero\": 11}", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "{\"lanes\": 10, \"zero\": 0, \"silent\": 12}", 0, 0, 0, 0, 0, 0, 0, 0 },
	{ "{\"lanes\": 10, \"zero\": 0, \"min\": 5, \"max\": 4}", 0, 0, 0, 0, 0, 0, 0, 0 },
};

static void test_reader(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rd_rows) / sizeof(rd_rows[0]); i++) {
		const struct rd_row *w = &rd_rows[i];
		json_error_t err;
		char path[4096];
		const char *src = getenv("GPUMEM_SRC");
		snprintf(path, sizeof(path), "%s/tests/fixtures/trace/synthetic/clean_copy.json", src ? src : ".");
		json_t *doc = json_load_file(path, 0, &err);
		struct gm_trace t;
		assert_non_null(doc);
		json_t *in = json_array_get(json_object_get(json_array_get(json_object_get(doc, "launches"), 0),
							    "instructions"), 0);
		assert_non_null(in);
		if (w->values)
			json_object_set_new(in, "values", json_loads(w->values, JSON_DECODE_ANY, &err));
		gm_status st = gm_trace_read_json(doc, "row", &t);
		if (!w->ok) {
			assert_int_equal(st, GM_ERR_PARSE);
		} else {
			const struct gm_trace_values *v = &t.launches[0].ins[0].values;
			assert_int_equal(st, GM_OK);
			assert_int_equal(v->have, w->have);
			if (w->have) {
				assert_int_equal(v->ints, w->ints);
				assert_int_equal(v->nsmall, w->nsmall);
				assert_true(v->silent == w->silent);
				assert_true(v->float_exact == w->float_exact);
				if (w->ints) {
					assert_true(v->min == w->min);
					assert_true(v->max == w->max);
				}
			}
		}
		gm_trace_free(&t);
		json_decref(doc);
	}
}

/* ---- the rules ---- */

#define MAXI 3
struct ins_row {
	enum gm_trace_op op;
	int elem;
	int64_t base;
	/* the values: lanes (0: none), zero, silent, float_exact, own_x (negative: own_elem); ints: min, max, bits */
	double lanes, zero, silent, fexact, own_x;
	int ints;
	int64_t min, max;
	int bits;
};

struct rule_row {
	const char *name;
	struct ins_row ins[MAXI];
	int nins;
	int want;                     /* the rule named (-1: none) */
	int at;                       /* on this instruction */
	int refused;
	int new_size;
};

#define NO 0, 0, 0, 0, 0, 0, 0, 0, 0          /* no values: an old document */
#define FLOATS(n) n, 0, 0, 0, 0, 1, -1082130432, 1065353216, 32   /* float bit patterns as int32 */
#define DOUBLES(n) n, 0, 0, n, 0, 1, -4616189618054758400ll, 4607182418800017408ll, 64   /* float-exact doubles */

static const struct rule_row rule_rows[] = {
	/* int64 labels 0-3 stored: int8 would do */
	{ "labels", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_STORE, 8, B, LANES, 512, 0, 512, 0, 1, 0, 3, 2 } }, 2,
	  GM_TVR_NARROW_INT, 1, 0, 1 },
	/* int32 holding up to 40000: int16 is too small, uint16_t holds 0..65535 */
	{ "counts", { { GM_TO_STORE, 4, A, LANES, 0, 0, 0, 0, 1, 0, 40000, 16 } }, 1, GM_TVR_NARROW_INT, 0, 0, 2 },
	/* negative int64 within int16 */
	{ "offsets", { { GM_TO_LOAD, 8, A, LANES, 0, 0, 0, 0, 1, -300, 300, 10 } }, 1, GM_TVR_NARROW_INT, 0, 0, 2 },
	/* doubles that are all floats: the load and the store */
	{ "widen", { { GM_TO_LOAD, 8, A, DOUBLES(LANES) }, { GM_TO_STORE, 8, B, DOUBLES(LANES) } }, 2, GM_TVR_FLOAT_EXACT,
	  0, 0, 4 },
	/* an in-place ReLU on non-negative data: the store writes what the load read */
	{ "relu", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_STORE, 4, A, LANES, 0, LANES, 0, 0, 1, 0, 1065353216, 30 } },
	  2, GM_TVR_SILENT_STORE, 1, 0, 0 },
	/* silent stores to an array the kernel does not load: the check would read as much as it saves */
	{ "silent_unread", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_STORE, 4, B, LANES, 0, LANES, 0, 0, 1, 0,
	  1065353216, 30 } }, 2, GM_TVR_SILENT_STORE, 1, 1, 0 },
	/* a bias of zeros */
	{ "zero_bias", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_LOAD, 4, B, LANES, LANES, 0, 0, 0, 1, 0, 0, 0 },
	  { GM_TO_STORE, 4, C, FLOATS(LANES) } }, 3, GM_TVR_ZERO_LOAD, 1, 0, 0 },
	/* every element 7 */
	{ "constant", { { GM_TO_LOAD, 4, A, LANES, 0, 0, 0, 0, 1, 7, 7, 3 }, { GM_TO_STORE, 4, B, FLOATS(LANES) } }, 2,
	  GM_TVR_CONST_LOAD, 0, 0, 0 },
	/* idx[i] == i */
	{ "identity", { { GM_TO_LOAD, 4, A, LANES, 1, 0, 0, LANES, 1, 0, 4194303, 22 }, { GM_TO_STORE, 4, B, FLOATS(LANES) } },
	  2, GM_TVR_OWN_INDEX, 0, 0, 0 },
	/* idx[j] == j + 5 in a grid-stride loop: the element's own index (own_elem) */
	{ "identity_loop", { { GM_TO_LOAD, 4, A, LANES, 0, 0, 0, -LANES, 1, 5, 4194308, 23 }, { GM_TO_STORE, 4, B,
	  FLOATS(LANES) } }, 2, GM_TVR_OWN_INDEX, 0, 0, 0 },
	/* the control: floats in, floats out, stores that change */
	{ "control", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_STORE, 4, B, FLOATS(LANES) } }, 2, -1, 0, 0, 0 },
	/* doubles that are not all floats */
	{ "real_doubles", { { GM_TO_LOAD, 8, A, LANES, 0, 0, 100, 0, 1, -4616189618054758400ll, 4607182418800017408ll,
	  64 } }, 1, -1, 0, 0, 0 },
	/* half the stores silent, 4-byte lanes: 0.5^8 of the sectors; still named */
	{ "half_silent", { { GM_TO_LOAD, 4, A, FLOATS(LANES) }, { GM_TO_STORE, 4, A, LANES, 0, LANES / 2, 0, 0, 1, 0,
	  1065353216, 30 } }, 2, GM_TVR_SILENT_STORE, 1, 0, 0 },
	/* a few lanes: refused */
	{ "small_sample", { { GM_TO_STORE, 8, A, 64, 16, 0, 16, 0, 1, 0, 3, 2 } }, 1, GM_TVR_NARROW_INT, 0, 1, 1 },
	/* an old document */
	{ "no_values", { { GM_TO_STORE, 8, A, NO } }, 1, -1, 0, 0, 0 },
};

static void analyse_row(const struct rule_row *w, struct gm_trace *t, struct gm_trace_launch *l,
			struct gm_trace_report *r)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < w->nins; i++) {
		const struct ins_row *x = &w->ins[i];
		struct synth s = { .name = "k", .expr = "gid", .block = { 256, 1, 1 }, .grid = { 1024, 1, 1 },
				   .elem = x->elem, .space = GM_TS_GLOBAL, .op = x->op, .iters = 16, .step = 1024 * 256,
				   .samples = 64 };
		if (!i)
			assert_int_equal(synth_launch(&s, x->base, l), 0);
		else
			assert_int_equal(synth_append(&s, x->base, 10 + i, l), 0);
		struct gm_trace_values *v = &l->ins[i].values;
		v->have = x->lanes > 0;
		v->lanes = x->lanes, v->zero = x->zero;
		v->silent = x->op == GM_TO_STORE ? x->silent : -1;
		v->float_exact = x->elem == 8 ? x->fexact : -1;
		v->own_x = x->own_x > 0 ? x->own_x : 0, v->own_y = 0;
		v->own_elem = x->own_x < 0 ? -x->own_x : 0;   /* a negative own_x in a row: own_elem instead */
		v->ints = x->ints, v->min = x->min, v->max = x->max, v->int_bits = x->bits;
		v->nsmall = -1;
	}
	l->time_ms = 0.05;   /* 4M elements an array, 16-48 MB: about the model's time on an H200 */
	t->launches = l;
	t->nlaunches = 1;
	assert_int_equal(gm_trace_analyse(t, &P, 3, r), GM_OK);
}

static void test_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rule_rows) / sizeof(rule_rows[0]); i++) {
		const struct rule_row *w = &rule_rows[i];
		struct gm_trace t;
		struct gm_trace_launch l;
		struct gm_trace_report r;
		analyse_row(w, &t, &l, &r);
		const struct gm_trace_kernel *k = &r.k[0];
		print_message("%s: %d finding(s)", w->name, k->nvf);
		if (k->nvf)
			print_message(": %s %.3fx, %.1f MB: %s", gm_trace_value_rule_name(k->vf[0].rule), k->vf[0].kernel_speedup,
				      k->vf[0].bytes / 1e6, k->vf[0].words);
		print_message("\n");
		if (w->want < 0) {
			assert_int_equal(k->nvf, 0);
		} else {
			assert_true(k->nvf >= 1);
			const struct gm_trace_value_finding *f = &k->vf[0];
			assert_int_equal(f->rule, w->want);
			assert_int_equal(f->ins, w->at);
			assert_int_equal(f->refused, w->refused);
			assert_int_equal(f->new_size, w->new_size);
			assert_true(f->words[0]);
			if (w->refused) {
				assert_int_equal(f->priced, 0);
				assert_true(f->kernel_speedup == 1);
				assert_true(f->bytes == 0);
			} else {
				/* a change that moves fewer bytes predicts a faster kernel, never a slower one */
				assert_int_equal(f->priced, 1);
				assert_true(f->kernel_speedup > 1);
				assert_true(f->bytes > 0);
				assert_true(f->sketch[0]);
				assert_int_equal(f->worth, f->kernel_speedup >= GM_TRACE_WORTH);
			}
		}
		gm_trace_report_free(&r);
		synth_free(&l);
	}
}

/* the saving grows with what the fix removes: int64 -> int8 saves more than int64 -> int32 */
static void test_narrower_saves_more(void **state)
{
	struct rule_row a = rule_rows[0], b = rule_rows[0];
	double s[2], by[2];

	(void)state;
	b.ins[1].max = 1000000, b.ins[1].bits = 20;   /* int32 */
	b.new_size = 4;
	const struct rule_row *rows[2] = { &a, &b };
	for (int i = 0; i < 2; i++) {
		struct gm_trace t;
		struct gm_trace_launch l;
		struct gm_trace_report r;
		analyse_row(rows[i], &t, &l, &r);
		assert_int_equal(r.k[0].nvf, 1);
		assert_int_equal(r.k[0].vf[0].new_size, i ? 4 : 1);
		s[i] = r.k[0].vf[0].kernel_speedup;
		by[i] = r.k[0].vf[0].bytes;
		gm_trace_report_free(&r);
		synth_free(&l);
	}
	assert_true(by[0] > by[1]);
	assert_true(s[0] >= s[1]);
	assert_true(s[1] > 1);
}

/* the report says it: text, JSON ("value_findings"), HTML */
static void test_writers(void **state)
{
	struct gm_trace t;
	struct gm_trace_launch l;
	struct gm_trace_report r;
	char *buf = NULL;
	size_t n = 0;

	(void)state;
	analyse_row(&rule_rows[0], &t, &l, &r);
	FILE *f = open_memstream(&buf, &n);
	gm_trace_text(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "narrow_int"));
	assert_non_null(strstr(buf, "uint8_t"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &n);
	assert_int_equal(gm_trace_json(f, &r), GM_OK);
	fclose(f);
	json_error_t err;
	json_t *doc = json_loads(buf, 0, &err);
	assert_non_null(doc);
	json_t *vf = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "value_findings");
	assert_true(json_is_array(vf) && json_array_size(vf) == 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(vf, 0), "rule")), "narrow_int");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(vf, 0), "new_size")), 1);
	json_decref(doc);
	free(buf);
	gm_trace_report_free(&r);
	synth_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_narrower_saves_more),
		cmocka_unit_test(test_writers),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
