/* test_launch_interval.c - the interval of a prediction (src/model/launch_interval.c: the rules that fired and
 * their bands) and a profile carried to another GPU by its datasheet (src/model/profile_scale.c,
 * src/io/datasheet.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumem/profile.h"
#include "launch_fixture.h"

static int fired(unsigned bits, const char *name)
{
	for (int k = 0; k < gm_launch_nbands(); k++)
		if ((bits & (1u << k)) && !strcmp(gm_launch_band(k)->name, name))
			return 1;
	return 0;
}

/* a dense copy: DRAM sets its time, the interval holds the prediction and comes from DRAM's band */
static void test_dense_copy(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o;
	char names[200];

	(void)state;
	launch_of("gid", 4, 1 << 24, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_string_equal(o.limited_by, "DRAM");
	assert_true(fired(o.rules_fired, "DRAM"));
	assert_false(fired(o.rules_fired, "many lines"));
	assert_true(o.gbs_low > 0 && o.gbs_low < o.gbs && o.gbs < o.gbs_high);
	gm_launch_rules_names(o.rules_fired, names, sizeof(names));
	assert_non_null(strstr(names, "DRAM (D1 D2 D4)"));
	for (int k = 0; k < gm_launch_nbands(); k++) { /* every band holds 1 and rests on its record */
		const struct gm_rule_band *b = gm_launch_band(k);

		assert_true(b->lo <= 0.97 + 1e-9 && b->hi >= 1.03 - 1e-9 && b->n >= 0);
	}
	assert_null(gm_launch_band(gm_launch_nbands()));
}

/* a column walk: many lines a request fire, and its interval is wider than the dense copy's */
static void test_column_walk(void **state)
{
	struct gm_profile p = prof();
	struct gm_access pats[2];
	struct gm_launch_in in;
	struct gm_launch_out o, d;

	(void)state;
	launch_of("gid", 4, 1 << 24, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &d, NULL), GM_OK);
	launch_of("(gid%64)*262144 + gid/64", 4, 1 << 24, pats, &in);
	assert_int_equal(gm_launch_predict(&in, &p, &o, NULL), GM_OK);
	assert_true(fired(o.rules_fired, "many lines"));
	assert_true((o.gbs_high - o.gbs_low) / o.gbs > (d.gbs_high - d.gbs_low) / d.gbs);
}

static const char *write_tmp(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/gm-test-%d-%s", (int)getpid(), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* each rate scaled by the datasheet figure that bounds it; a field missing is named */
static void test_datasheet(void **state)
{
	struct gm_datasheet a, b;
	struct gm_profile p = prof(), q;
	char why[256];
	const char *pa, *pb;

	(void)state;
	p.wave_ns = 800;
	pa = write_tmp("a.json", "{\"schema\": \"gpumem-datasheet\", \"device\": \"A\", \"hbm_bandwidth_gbs\": 2000, "
			 "\"hbm_clock_mhz\": 1000, \"bus_width_bits\": 4096, \"l2_bytes\": 40e6, \"sm_count\": 100, "
			 "\"sm_clock_mhz\": 1000, \"pcie_gen\": 4}");
	assert_int_equal(gm_datasheet_read(pa, &a, why, sizeof(why)), GM_OK);
	pb = write_tmp("b.json", "{\"schema\": \"gpumem-datasheet\", \"device\": \"B\", \"hbm_bandwidth_gbs\": 4000, "
			 "\"hbm_clock_mhz\": 2000, \"bus_width_bits\": 4096, \"l2_bytes\": 80e6, \"sm_count\": 150, "
			 "\"sm_clock_mhz\": 1000, \"pcie_gen\": 5}");
	assert_int_equal(gm_datasheet_read(pb, &b, why, sizeof(why)), GM_OK);
	gm_profile_from_datasheet(&p, &a, &b, &q);
	assert_string_equal(q.device, "B");
	assert_true(fabs(q.read_gbs - 2 * p.read_gbs) < 1e-9 && fabs(q.copy_gbs - 2 * p.copy_gbs) < 1e-9);
	assert_true(fabs(q.l2_read_gbs - 1.5 * p.l2_read_gbs) < 1e-6 && fabs(q.l1_gbs - 1.5 * p.l1_gbs) < 1e-6);
	assert_true(fabs(q.l2_bytes - 2 * p.l2_bytes) < 1e-6 && q.sm_count == 150);
	assert_true(q.wave_ns == 800); /* no datasheet figure bounds a round trip */
	pb = write_tmp("c.json", "{\"schema\": \"gpumem-datasheet\", \"device\": \"B\", \"hbm_bandwidth_gbs\": 4000, "
			 "\"hbm_clock_mhz\": 2000, \"bus_width_bits\": 4096, \"sm_count\": 150, "
			 "\"sm_clock_mhz\": 1000, \"pcie_gen\": 5}");
	assert_int_equal(gm_datasheet_read(pb, &b, why, sizeof(why)), GM_ERR_PARSE);
	assert_non_null(strstr(why, "field 'l2_bytes' is missing"));
	assert_int_equal(gm_datasheet_read("/nonexistent/d.json", &b, why, sizeof(why)), GM_ERR_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dense_copy),
		cmocka_unit_test(test_column_walk),
		cmocka_unit_test(test_datasheet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
