/* test_writer.c - the table of a run's output formats (src/io/writer.c): every writer writes a run, an
 * unknown format is refused, an aborted output leaves the file it would have replaced. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumem/writer.h"

static void one_case(struct gm_run_result *r)
{
	struct gm_case_result *c;

	gm_result_init(r);
	snprintf(r->command, sizeof(r->command), "gpumem run copy.v2_b16");
	c = gm_result_add(r);
	snprintf(c->name, sizeof(c->name), "copy.v2_b16");
	snprintf(c->family, sizeof(c->family), "copy");
	c->status = GM_CASE_OK;
	c->unit = GM_UNIT_GBS;
	c->value.median = c->value.min = c->value.max = 3000;
}

static void test_every_writer(void **state)
{
	static const char *const want[][2] = {
		{ "text", "copy.v2_b16" }, { "json", "\"gpumem-run\"" }, { "csv", "copy.v2_b16" },
	};
	struct gm_run_result r;
	char buf[1 << 16];

	(void)state;
	one_case(&r);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const struct gm_run_writer *w = gm_run_writer_find(want[k][0]);
		FILE *f = tmpfile();
		size_t n;

		assert_non_null(w);
		assert_non_null(f);
		assert_int_equal(w->write(f, &r), GM_OK);
		rewind(f);
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = 0;
		fclose(f);
		assert_non_null(strstr(buf, want[k][1]));
	}
	assert_null(gm_run_writer_find("xml"));
	assert_null(gm_run_writer_find(NULL));
	gm_result_release(&r);
}

static void test_output_file(void **state)
{
	char dir[] = "/tmp/gm_writer_XXXXXX", path[64], buf[64] = { 0 };
	struct gm_run_output o;
	struct gm_run_result r;
	FILE *f;

	(void)state;
	one_case(&r);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old", f);
	fclose(f);
	assert_int_equal(gm_run_output_open(&o, "yaml", path), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_run_output_open(&o, "csv", path), GM_OK);
	gm_run_output_abort(&o);
	gm_run_output_abort(&o); /* twice is harmless */
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old");
	assert_int_equal(gm_run_output_open(&o, "csv", path), GM_OK);
	assert_int_equal(gm_run_output_commit(&o, &r), GM_OK);
	assert_int_equal(gm_run_output_commit(&o, &r), GM_OK); /* closed: a no-op */
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_not_equal(buf, "old");
	unlink(path);
	rmdir(dir);
	gm_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_every_writer), cmocka_unit_test(test_output_file) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
