/*
 * test_launch_partner.c - rule D8's store partners solved from the index (src/model/launch_partner.c), one row a
 * pattern: the warp distances at which a warp's lanes find the other bytes of the sectors they write partly,
 * whether or not a probe at a power of two reaches them. No GPU.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "model/model_internal.h"

struct row {
	const char *index; /* out[EXPR] = in[gid] */
	int elem, block;
	int64_t n, warp;   /* threads of the launch; the warp asked about */
	int64_t want[2];   /* distances that must be found (0: none); nothing is found when both are 0 */
};

static const struct row rows[] = {
	/* 3^-1 = 43691 mod 65536: the other half of a float4's sector is 21845 or 43691 threads away */
	{ "(gid/65536)*65536 + (gid*3)%65536", 16, 1024, 16777216, 0, { 683, 1365 } },
	{ "(gid/65536)*65536 + (gid*3)%65536", 16, 1024, 16777216, 524032, { 683, 1365 } }, /* the last warps */
	/* a column store: the sector's 8 floats come from threads 6144 apart, 192 warps (no power of two) */
	{ "(gid % 6144) * 8 + gid / 6144", 4, 256, 6144 * 64, 1000, { 192, 0 } },
	/* suggest's thread_order of a 2D launch (170 x-blocks, pitch 6144): the lanes' two modes (64 elements apart, then
	   43520) never reach the sector's next float, a third mode 6144 threads on does: 192 warps; also from a warp in
	   the middle of the second mode (its period found from both ends) and near the launch's end */
	{ "(gid%4)*64 + (gid/4%1536)*43520 + (gid/6144%64) + (gid/393216)*256", 4, 256, 66846720, 0, { 192, 384 } },
	{ "(gid%4)*64 + (gid/4%1536)*43520 + (gid/6144%64) + (gid/393216)*256", 4, 256, 66846720, 298386, { 192, 384 } },
	{ "(gid%4)*64 + (gid/4%1536)*43520 + (gid/6144%64) + (gid/393216)*256", 4, 256, 66846720, 2088704, { 192, 384 } },
	{ "gid", 16, 256, 1 << 20, 0, { 0, 0 } },           /* whole sectors */
	{ "gid*2", 4, 256, 1 << 20, 0, { 0, 0 } },          /* the other words are never written */
	{ "(gid*3) % 256 + gid / 256 * 256", 4, 256, 1 << 20, 16, { 5, 0 } }, /* 3^-1 = 171 mod 256: 5 warps */
};

static int has(const int64_t *d, int n, int64_t x)
{
	for (int k = 0; k < n; k++)
		if (d[k] >= x - 1 && d[k] <= x + 1) /* a warp's lanes straddle two warps */
			return 1;
	return 0;
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct gm_access a;
		struct gm_expr *index = NULL, *active = NULL;
		struct gm_expr_error err;
		int64_t d[8], wpb = rows[r].block / 32, warps = rows[r].n / 32;
		int n;

		memset(&a, 0, sizeof(a));
		a.space = GM_SPACE_GLOBAL;
		a.op = GM_OP_STORE;
		a.elem_bytes = rows[r].elem;
		a.block[0] = rows[r].block;
		a.block[1] = a.block[2] = 1;
		a.index = rows[r].index;
		a.n_threads = rows[r].n;
		assert_int_equal(gm_expr_parse(rows[r].index, &index, &err), GM_OK);
		assert_int_equal(gm_expr_parse("gid < n", &active, &err), GM_OK);
		n = gm_store_partner_dists(&a, index, active, rows[r].warp, wpb, warps / wpb, warps, d, 8);
		for (int k = 0; k < 2; k++)
			if (rows[r].want[k] && !has(d, n, rows[r].want[k]))
				fail_msg("row %zu (%s): no partner %lld warps away", r, rows[r].index,
					 (long long)rows[r].want[k]);
		if (!rows[r].want[0] && !rows[r].want[1] && n != 0)
			fail_msg("row %zu (%s): %d partners, %lld warps away first", r, rows[r].index, n, (long long)d[0]);
		gm_expr_free(index);
		gm_expr_free(active);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
