/*
 * test_launch_walked.c - a launch walked once (gm_launch_walk_new) and predicted with profiles of its shape that
 * differ in their rates (calibrate's derivation) gives what gm_launch_predict gives, bit for bit; a profile of
 * another shape is refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include "launch_fixture.h"

/* The fixture's profile with the rates calibrate finds one after the other (values of an H200's profile). */
static struct gm_profile rates(int k)
{
	struct gm_profile p = prof();

	if (k >= 1) {
		p.wave_ns = 761;
		p.knee = 4.3;
		p.warp_tail = 0.33;
	}
	if (k >= 2) {
		p.blocks_gps = 1.66;
		p.wave_l2_ns = 370;
		p.l2_lines_gps = 172.7;
		p.l1_lines_gps = 247;
	}
	if (k >= 3) {
		p.l2_merge_lines_gps = 67.9;
		p.l2_part_sectors_gps = 117.8;
		p.l2_merge_far_lines_gps = 73.1;
		p.l2_far_lines_gps = 63.1;
		p.l2_far_lines16_gps = 34.4;
		p.pages_gps = 64;
		p.pages_2m_gps = 98.5;
		p.pages_16m_gps = 47.4;
	}
	if (k >= 4) {
		p.launch_us = 0.53;
		p.floor_us = 4.6;
		p.write_sparse_gbs = 1816.7;
	}
	return p;
}

static void test_walked_is_predict(void **state)
{
	static const struct {
		const char *load, *store;
		int elem;
		int64_t n;
	} t[] = {
		{ "gid", "gid", 4, 1 << 24 },                                   /* dense copy */
		{ "gid*2", "gid", 8, 1 << 22 },                                 /* half the pieces */
		{ "(gid%32)*1024 + gid/32", "gid", 4, 1 << 22 },                /* a column walk */
		{ "gid%1048576", "gid", 4, 1 << 24 },                           /* a 4 MiB table L2 keeps */
		{ "gid", "(gid/2)*16 + gid%2", 16, 1 << 21 },                   /* sparse stores (rule D12) */
		{ "gid", "(gid%1024)*131104 + gid/1024", 4, 1 << 20 },          /* stores in a column (rule L4) */
	};
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out a, b;
	struct gm_launch_walked *w;

	(void)state;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		struct gm_profile p0 = rates(0);

		launch_of(t[k].load, t[k].elem, t[k].n, pats, &in);
		pats[1].index = t[k].store;
		assert_int_equal(gm_launch_walk_new(&in, &p0, &w, NULL), GM_OK);
		for (int r = 0; r <= 4; r++) {
			struct gm_profile p = rates(r);

			assert_int_equal(gm_launch_walked_fits(w, &p), 1);
			assert_int_equal(gm_launch_predict(&in, &p, &a, NULL), GM_OK);
			assert_int_equal(gm_launch_predict_walked(w, &p, &b, NULL), GM_OK);
			if (memcmp(&a, &b, sizeof(a)))
				fail_msg("%s -> %s, rates %d: %a ms walked, %a ms not", t[k].load, t[k].store, r, b.time_ms,
					 a.time_ms);
			assert_true(a.time_ms > 0);
		}
		/* twice from the same walk: the launch rules change a copy of its sums, not the walk (rule D9) */
		assert_int_equal(gm_launch_predict_walked(w, &p0, &b, NULL), GM_OK);
		assert_int_equal(gm_launch_predict(&in, &p0, &a, NULL), GM_OK);
		assert_memory_equal(&a, &b, sizeof(a));
		gm_launch_walked_free(w);
	}
}

static void test_other_shape_refused(void **state)
{
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	struct gm_launch_walked *w;
	struct gm_profile p = prof(), q;
	struct gm_expr_error err;

	(void)state;
	launch_of("gid", 4, 1 << 20, pats, &in);
	assert_int_equal(gm_launch_walk_new(&in, &p, &w, NULL), GM_OK);
	q = p;
	q.l2_bytes = 40e6;
	assert_int_equal(gm_launch_walked_fits(w, &q), 0);
	assert_int_equal(gm_launch_predict_walked(w, &q, &o, &err), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(err.msg, "shape"));
	q = p;
	q.sm_count = 132;
	assert_int_equal(gm_launch_walked_fits(w, &q), 0);
	q = p;
	q.threads_per_sm = 1536;
	assert_int_equal(gm_launch_walked_fits(w, &q), 0);
	q = p;
	q.read_gbs = 0; /* a profile that does not check */
	assert_int_equal(gm_launch_predict_walked(w, &q, &o, &err), GM_ERR_INVALID_ARG);
	gm_launch_walked_free(w);
	/* a launch that does not check is not walked */
	in.n_threads = 0;
	assert_int_equal(gm_launch_walk_new(&in, &p, &w, NULL), GM_ERR_INVALID_ARG);
	assert_null(w);
	gm_launch_walked_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walked_is_predict),
		cmocka_unit_test(test_other_shape_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
