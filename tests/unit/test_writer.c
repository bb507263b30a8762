/* test_writer.c - the table of every command's output writers (src/io/writer.c): each (kind, format) is one
 * row; a run's, a report page's and a comparison's writers write their document; an unknown format is refused;
 * an aborted output leaves the file it would have replaced. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpumem/compare.h"
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

/* What the writer of (kind, format) wrote of doc. */
static void written(enum gm_doc_kind kind, const char *format, const void *doc, char *buf, size_t n)
{
	FILE *f = tmpfile();
	size_t k;

	assert_non_null(f);
	assert_int_equal(gm_write(f, kind, format, doc), GM_OK);
	rewind(f);
	k = fread(buf, 1, n - 1, f);
	buf[k] = 0;
	fclose(f);
}

static void test_every_writer(void **state)
{
	static const char *const want[][2] = {
		{ "text", "copy.v2_b16" }, { "json", "\"gpumem-run\"" }, { "csv", "copy.v2_b16" },
	};
	static char buf[1 << 20];
	struct gm_run_result r;
	struct gm_comparison c;
	const char *label = "r";

	(void)state;
	one_case(&r);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		written(GM_DOC_RUN, want[k][0], &r, buf, sizeof(buf));
		assert_non_null(strstr(buf, want[k][1]));
	}
	written(GM_DOC_REPORT, "html", &(struct gm_report_doc){ &r, &label, 1 }, buf, sizeof(buf));
	assert_non_null(strstr(buf, "<html"));
	assert_int_equal(gm_compare_runs(&r, &r, 5.0, &c), GM_OK);
	written(GM_DOC_COMPARE, "text", &(struct gm_compare_doc){ &c, &r, &r, "a", "b" }, buf, sizeof(buf));
	assert_non_null(strstr(buf, "0 worse"));
	written(GM_DOC_COMPARE, "json", &(struct gm_compare_doc){ &c, &r, &r, "a", "b" }, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"gpumem-compare\""));
	written(GM_DOC_COMPARE, "html", &(struct gm_compare_doc){ &c, &r, &r, "a", "b" }, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"comparison\":{"));
	gm_comparison_release(&c);
	assert_null(gm_writer_find(GM_DOC_RUN, "xml"));
	assert_null(gm_writer_find(GM_DOC_RUN, "html")); /* a page needs findings: GM_DOC_REPORT */
	assert_null(gm_writer_find(GM_DOC_RUN, NULL));
	assert_int_equal(gm_write(stdout, GM_DOC_CHECK, "yaml", NULL), GM_ERR_INVALID_ARG);
	gm_result_release(&r);
}

/* Each (kind, format) is one row, found as itself. */
static void test_one_row_each(void **state)
{
	int n = 0;

	(void)state;
	for (const struct gm_writer *w = gm_writers; w->format; w++, n++) {
		assert_ptr_equal(gm_writer_find(w->kind, w->format), w);
		assert_non_null(w->write);
		assert_true(w->what && w->what[0]);
	}
	assert_true(n >= 20);
}

static void test_output_file(void **state)
{
	char dir[] = "/tmp/gm_writer_XXXXXX", path[64], buf[64] = { 0 };
	struct gm_output o;
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
	assert_int_equal(gm_output_open(&o, GM_DOC_RUN, "yaml", path), GM_ERR_INVALID_ARG);
	assert_int_equal(gm_output_open(&o, GM_DOC_RUN, "csv", path), GM_OK);
	gm_output_abort(&o);
	gm_output_abort(&o); /* twice is harmless */
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old");
	assert_int_equal(gm_output_open(&o, GM_DOC_RUN, "csv", path), GM_OK);
	assert_int_equal(gm_output_commit(&o, &r), GM_OK);
	assert_int_equal(gm_output_commit(&o, &r), GM_OK); /* closed: a no-op */
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
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_every_writer), cmocka_unit_test(test_one_row_each),
					    cmocka_unit_test(test_output_file) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
