/* test_results.c - JSON round trip, CSV shape, atomic output files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumem/io.h"
#include "gpumem/units.h"

static void fill_result(struct gm_run_result *r)
{
	struct gm_case_result *c;

	gm_result_init(r);
	snprintf(r->command, sizeof(r->command), "gpumem run copy --json \"x.json\"");
	r->have_device = 1;
	snprintf(r->dev.name, sizeof(r->dev.name), "Test GPU \"quoted\"");
	snprintf(r->dev.uuid, sizeof(r->dev.uuid), "GPU-0123abcd-0000-1111-2222-333344445555");
	r->dev.pci_bus = 0x19;
	r->dev.pci_device = 6;
	r->dev.cc_major = 9;
	r->dev.sm_count = 132;
	r->dev.peak_gbs = 3352.32;
	r->dev.l2_bytes = 50331648;
	r->seed = 1234;
	r->reps = 3;
	c = gm_result_add(r);
	snprintf(c->name, sizeof(c->name), "copy.v2_b16");
	snprintf(c->family, sizeof(c->family), "copy");
	snprintf(c->param_keys[0], sizeof(c->param_keys[0]), "elem_bytes");
	c->params[0].key = c->param_keys[0];
	c->params[0].value = 16;
	c->nparams = 1;
	c->verified = 1;
	c->nsamples = 3;
	c->samples_ms = calloc(3, sizeof(double));
	c->samples_ms[0] = 2.5;
	c->samples_ms[1] = 2.25;
	c->samples_ms[2] = 2.75;
	gm_stats_compute(c->samples_ms, 3, &c->ms);
	c->traffic.bytes_useful = 8589934592.0;
	c->gbs_median = 3435.97;
	c->npred = 1;
	snprintf(c->pred[0].what, sizeof(c->pred[0].what), "load in");
	snprintf(c->pred[0].space, sizeof(c->pred[0].space), "global");
	c->pred[0].per_request = 16;
	c = gm_result_add(r);
	snprintf(c->name, sizeof(c->name), "stride.b4_s02");
	c->status = GM_CASE_FAILED;
	snprintf(c->message, sizeof(c->message), "validation failed: word 3");
}

/* A measured (schema 2) case with its unit, extras and notes, and a derived result. */
static void add_measured(struct gm_run_result *r)
{
	struct gm_case_result *c = gm_result_add(r);
	struct gm_derived *d;

	snprintf(c->name, sizeof(c->name), "latency.l1");
	snprintf(c->family, sizeof(c->family), "latency");
	c->kind = GM_KIND_MEASURE;
	c->unit = GM_UNIT_CYCLES;
	c->timing = GM_TIME_SELF;
	c->value.median = 33.5;
	c->value.min = 33;
	c->value.max = 34;
	c->nextras = 1;
	snprintf(c->extras[0].name, sizeof(c->extras[0].name), "ns");
	c->extras[0].unit = GM_UNIT_NS;
	c->extras[0].median = 17.25;
	gm_result_note(c, "footprint", GM_UNIT_BYTES, 16384);
	c->traffic.ops = 1.5e9;
	c->wall_s = 0.25;
	c->wall_parts.check = 0.125;   /* by phase: binary fractions, exact through JSON */
	c->wall_parts.samples = 0.0625;
	d = gm_result_derive(r, "hierarchy", "hierarchy.l2_capacity");
	snprintf(d->level, sizeof(d->level), "L2");
	snprintf(d->quantity, sizeof(d->quantity), "capacity");
	d->unit = GM_UNIT_BYTES;
	d->value = 50331648;
	d->reference = 52428800;
	snprintf(d->how, sizeof(d->how), "knee of the read sweep");
	r->state_before.valid = r->state_after.valid = 1;
	r->state_after.persisting_l2_limit = 0;
}

static void test_json_round_trip(void **state)
{
	struct gm_run_result a, b;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fill_result(&a);
	assert_int_equal(gm_json_write(f, &a), GM_OK);
	fclose(f);
	assert_int_equal(gm_json_read(path, &b), GM_OK);
	assert_string_equal(b.command, a.command);
	assert_string_equal(b.dev.name, a.dev.name);
	assert_string_equal(b.dev.uuid, a.dev.uuid);
	assert_int_equal(b.dev.pci_bus, a.dev.pci_bus);
	assert_int_equal(b.dev.pci_device, a.dev.pci_device);
	assert_int_equal(b.dev.sm_count, 132);
	assert_int_equal(b.ncases, 2);
	assert_string_equal(b.cases[0].name, "copy.v2_b16");
	assert_int_equal(b.cases[0].nsamples, 3);
	assert_true(b.cases[0].samples_ms[1] == 2.25);
	assert_true(b.cases[0].ms.median == 2.5);
	assert_int_equal(b.cases[0].params[0].value, 16);
	assert_string_equal(b.cases[0].params[0].key, "elem_bytes");
	assert_true(b.cases[0].pred[0].per_request == 16);
	assert_int_equal(b.cases[1].status, GM_CASE_FAILED);
	assert_string_equal(b.cases[1].message, "validation failed: word 3");
	assert_int_equal(b.seed, 1234);
	assert_int_equal(b.cases[0].unit, GM_UNIT_GBS); /* the default unit of a DRAM case */
	assert_int_equal(b.ncases, 2);
	assert_int_equal(b.sanitize, 0);
	gm_result_release(&b);
	/* a run --sanitize document says so, read back and in its table */
	a.sanitize = 1;
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(gm_json_write(f, &a), GM_OK);
	fclose(f);
	assert_int_equal(gm_json_read(path, &b), GM_OK);
	assert_int_equal(b.sanitize, 1);
	{
		char buf[4096] = { 0 };
		FILE *t = fmemopen(buf, sizeof(buf) - 1, "w");

		gm_table_write(t, &b);
		fclose(t);
		assert_non_null(strstr(buf, "times are not measurements"));
	}
	gm_result_release(&a);
	gm_result_release(&b);
	unlink(path);
}

/* A run document compressed with gzip reads as the plain one; a truncated one is refused. */
static void test_json_gzip(void **state)
{
	struct gm_run_result a, b;
	char plain[] = "/tmp/gm_json_XXXXXX", gz[64], *text;
	int fd = mkstemp(plain);
	FILE *f = fdopen(fd, "w+");
	gzFile z;
	long len;

	(void)state;
	fill_result(&a);
	assert_int_equal(gm_json_write(f, &a), GM_OK);
	len = ftell(f);
	rewind(f);
	text = malloc((size_t)len);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	snprintf(gz, sizeof(gz), "%s.gz", plain);
	z = gzopen(gz, "wb");
	assert_non_null(z);
	assert_int_equal(gzwrite(z, text, (unsigned)len), (int)len);
	gzclose(z);
	assert_int_equal(gm_json_read(gz, &b), GM_OK);
	assert_string_equal(b.command, a.command);
	assert_int_equal(b.ncases, 2);
	assert_true(b.cases[0].samples_ms[1] == 2.25);
	gm_result_release(&b);
	z = gzopen(gz, "wb"); /* half of it */
	assert_non_null(z);
	gzwrite(z, text, (unsigned)(len / 2));
	gzclose(z);
	assert_int_equal(gm_json_read(gz, &b), GM_ERR_PARSE);
	gm_result_release(&a);
	free(text);
	unlink(plain);
	unlink(gz);
}

static void test_json_round_trip_measured(void **state)
{
	struct gm_run_result a, b;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	char buf[4096];
	FILE *t = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	fill_result(&a);
	add_measured(&a);
	assert_int_equal(gm_json_write(f, &a), GM_OK);
	fclose(f);
	assert_int_equal(gm_json_read(path, &b), GM_OK);
	assert_int_equal(b.ncases, 3);
	assert_int_equal(b.cases[2].kind, GM_KIND_MEASURE);
	assert_int_equal(b.cases[2].unit, GM_UNIT_CYCLES);
	assert_int_equal(b.cases[2].timing, GM_TIME_SELF);
	assert_true(b.cases[2].value.median == 33.5 && b.cases[2].value.max == 34);
	assert_int_equal(b.cases[2].nextras, 1);
	assert_string_equal(b.cases[2].extras[0].name, "ns");
	assert_true(b.cases[2].extras[0].median == 17.25);
	assert_int_equal(b.cases[2].nnotes, 1);
	assert_true(b.cases[2].notes[0].median == 16384);
	assert_true(b.cases[2].traffic.ops == 1.5e9);
	assert_true(b.cases[0].traffic.ops == 0); /* absent: not written, reads as 0 */
	assert_true(b.cases[2].wall_s == 0.25);   /* the case's wall time, read back */
	assert_true(b.cases[0].wall_s == 0);
	assert_true(b.cases[2].wall_parts.check == 0.125 && b.cases[2].wall_parts.samples == 0.0625);
	assert_true(b.cases[2].wall_parts.retries == 0 && b.cases[0].wall_parts.samples == 0);   /* absent: 0 */
	assert_int_equal(b.nderived, 1);
	assert_string_equal(b.derived[0].level, "L2");
	assert_int_equal(b.derived[0].unit, GM_UNIT_BYTES);
	assert_true(b.derived[0].reference == 52428800);
	assert_true(b.state_after.valid);
	/* the spec sheet shows the L2 line with its ratio to the attribute */
	assert_int_equal(gm_spec_write(t, &b), 1);
	fclose(t);
	assert_non_null(strstr(buf, "capacity"));
	assert_non_null(strstr(buf, "96.0%"));
	gm_result_release(&a);
	gm_result_release(&b);
	unlink(path);
}

/* Schema 1 documents (the committed H100 results) still read; unknown versions are refused by name. */
static void test_json_versions(void **state)
{
	struct gm_run_result r;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);
	const char *v1 = "{\"schema\":\"gpumem-run\",\"schema_version\":1,\"cases\":[{\"name\":\"copy.x\","
			 "\"kind\":\"dram\",\"gbs\":{\"median\":3000,\"min\":2990,\"max\":3010}}]}";
	const char *v9 = "{\"schema\":\"gpumem-run\",\"schema_version\":9,\"cases\":[]}";

	(void)state;
	assert_true(write(fd, v1, strlen(v1)) == (ssize_t)strlen(v1));
	close(fd);
	assert_int_equal(gm_json_read(path, &r), GM_OK);
	assert_int_equal(r.cases[0].unit, GM_UNIT_GBS);
	assert_true(r.cases[0].value.median == 3000 && r.cases[0].value.min == 2990);
	gm_result_release(&r);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(write(fd, v9, strlen(v9)) == (ssize_t)strlen(v9));
	close(fd);
	assert_int_equal(gm_json_read(path, &r), GM_ERR_PARSE);
	assert_non_null(strstr(gm_last_error(), "unknown schema version 9"));
	unlink(path);
}

static void test_units(void **state)
{
	enum gm_unit u;

	(void)state;
	for (int i = 0; i < GM_UNIT_COUNT; i++) {
		assert_int_equal(gm_unit_parse(gm_unit_name((enum gm_unit)i), &u), GM_OK);
		assert_int_equal((int)u, i);
	}
	assert_int_equal(gm_unit_parse("furlongs", &u), GM_ERR_NOT_FOUND);
	assert_true(gm_unit_higher_is_better(GM_UNIT_GBS));
	assert_false(gm_unit_higher_is_better(GM_UNIT_CYCLES));
	assert_false(gm_unit_higher_is_better(GM_UNIT_US));
}

static void test_json_rejects_foreign(void **state)
{
	struct gm_run_result r;
	char path[] = "/tmp/gm_json_XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(write(fd, "{\"a\": 1}", 8) == 8);
	close(fd);
	assert_int_equal(gm_json_read(path, &r), GM_ERR_PARSE);
	assert_int_equal(gm_json_read("/nonexistent/x.json", &r), GM_ERR_PARSE);
	unlink(path);
}

static void test_csv_rows(void **state)
{
	struct gm_run_result a;
	char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	int lines = 0;

	(void)state;
	fill_result(&a);
	assert_int_equal(gm_csv_write(f, &a), GM_OK);
	fclose(f);
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	assert_non_null(strstr(buf, "copy.v2_b16,copy"));
	assert_non_null(strstr(buf, ",failed,"));
	gm_result_release(&a);
	f = fmemopen(buf, sizeof(buf), "w");
	fill_result(&a);
	add_measured(&a);
	assert_int_equal(gm_csv_write(f, &a), GM_OK);
	fclose(f);
	assert_non_null(strstr(buf, ",cycles,33.5,33,34,self,"));
	assert_non_null(strstr(buf, "hierarchy.l2_capacity,hierarchy,"));
	assert_non_null(strstr(buf, ",derived,0,B,50331648,"));
	gm_result_release(&a);
}

static void test_outfile_atomic(void **state)
{
	struct gm_outfile o;
	struct stat st;
	const char *path = "/tmp/gm_outfile_test.txt";

	(void)state;
	unlink(path);
	assert_int_equal(gm_outfile_open(&o, path), GM_OK);
	fputs("partial", o.f);
	assert_int_equal(stat(path, &st), -1); /* nothing visible before commit */
	gm_outfile_abort(&o);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(stat(o.tmp, &st), -1); /* temporary removed */
	assert_int_equal(gm_outfile_open(&o, path), GM_OK);
	fputs("whole", o.f);
	assert_int_equal(gm_outfile_commit(&o), GM_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((int)st.st_size, 5);
	unlink(path);
	assert_int_equal(gm_outfile_open(&o, "/nonexistent-dir/x.json"), GM_ERR_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_json_gzip),
		cmocka_unit_test(test_json_rejects_foreign),
		cmocka_unit_test(test_csv_rows), cmocka_unit_test(test_outfile_atomic),
		cmocka_unit_test(test_json_round_trip_measured), cmocka_unit_test(test_json_versions),
		cmocka_unit_test(test_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
