/*
 * test_expr_c.c - index expressions as CUDA C (explain --run) and the
 * variables gid and n in the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "gpumem/model.h"

static void test_to_c(void **st)
{
	char out[256];
	struct gm_expr_error err;
	(void)st;

	assert_int_equal(gm_expr_to_c("threadIdx.x*2 + gid", out, sizeof(out), &err), GM_OK);
	assert_string_equal(out, "tx_ * 2LL + gid_");
	assert_int_equal(gm_expr_to_c("lane < 16 ? lane : 0x10", out, sizeof(out), &err), GM_OK);
	assert_string_equal(out, "lane_ < 16LL ? lane_ : 16LL");
	assert_int_equal(gm_expr_to_c("(n - 1 - gid) % 7 >= 3 && !bdx", out, sizeof(out), &err), GM_OK);
	assert_string_equal(out, "( n_ - 1LL - gid_ ) % 7LL >= 3LL && ! bdx_");
	/* only the language gets through: anything else is a parse error */
	assert_int_equal(gm_expr_to_c("in[0]", out, sizeof(out), &err), GM_ERR_PARSE);
	assert_int_equal(gm_expr_to_c("tid; system(1)", out, sizeof(out), &err), GM_ERR_PARSE);
	assert_int_equal(gm_expr_to_c("foo + 1", out, sizeof(out), &err), GM_ERR_PARSE);
	assert_int_equal(gm_expr_to_c("tid * 123456789", out, 8, &err), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(gm_expr_c_prelude(), "gid_ = bx_ * (bdx_ * bdy_ * bdz_) + tid_"));
}

static void test_gid_and_n(void **st)
{
	struct gm_access a;
	struct gm_prediction p;
	struct gm_expr_error err;
	(void)st;

	memset(&a, 0, sizeof(a));
	a.space = GM_SPACE_GLOBAL;
	a.op = GM_OP_LOAD;
	a.elem_bytes = 4;
	a.block[0] = 64;
	a.block[1] = a.block[2] = 1;
	a.block_idx[0] = 2;
	a.warp = 1;
	a.index = "gid";
	assert_int_equal(gm_model_predict(&a, &p, &err), GM_OK);
	assert_int_equal(p.lanes[0].index, 2 * 64 + 32);
	a.index = "n - 1 - gid";
	a.base = 4096; /* the index is negative here; the address must not be */
	assert_int_equal(gm_model_predict(&a, &p, &err), GM_OK);
	assert_int_equal(p.lanes[0].index, 64 - 1 - 160); /* n defaults to one block */
	a.n_threads = 1000;
	assert_int_equal(gm_model_predict(&a, &p, &err), GM_OK);
	assert_int_equal(p.lanes[0].index, 1000 - 1 - 160);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_c),
		cmocka_unit_test(test_gid_and_n),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
