/* test_profile_cache.c - this unit's profile by default (src/io/profile_cache.c): calibrate's profile stored
 * in the cache by GPU UUID and chosen for that unit; a cached file of another unit, of the old schema or
 * corrupt is named and ignored (the built-in profile used); an unwritable cache is an error the caller turns
 * into a warning; the fields a run did not measure are named, left out of the file and read back as such
 * (include/gpumem/profile_fields.def). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gpumem/profile.h"
#include "launch_fixture.h"

#define UUID "GPU-12345678-aaaa-bbbb-cccc-0123456789ab"
#define DEVICE "NVIDIA H200"

static char root[256];

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/gm-test-cache-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	return setenv("XDG_CACHE_HOME", root, 1);
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static struct gm_profile unit_profile(void)
{
	struct gm_profile p = prof();

	snprintf(p.device, sizeof(p.device), DEVICE);
	snprintf(p.uuid, sizeof(p.uuid), UUID);
	snprintf(p.measured_utc, sizeof(p.measured_utc), "2026-11-29T06:31:02Z");
	p.read_gbs = 4321;
	return p;
}

static void write_cached(const char *text)
{
	char path[512];
	FILE *f;

	assert_int_equal(gm_profile_cache_path(UUID, path, sizeof(path)), GM_OK);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_path(void **state)
{
	char path[512], want[512];

	(void)state;
	snprintf(want, sizeof(want), "%s/gpumem/profiles/" UUID ".json", root);
	assert_int_equal(gm_profile_cache_path(UUID, path, sizeof(path)), GM_OK);
	assert_string_equal(path, want);
	assert_int_equal(gm_profile_cache_path("", path, sizeof(path)), GM_ERR_NOT_FOUND);
	assert_int_equal(gm_profile_cache_path("../etc/x", path, sizeof(path)), GM_ERR_NOT_FOUND);
}

/* stored, then chosen for its unit by UUID; another unit gets the built-in one, silently */
static void test_store_and_choose(void **state)
{
	struct gm_profile p = unit_profile(), q;
	struct gm_profile_choice c;
	char path[512], why[512];

	(void)state;
	assert_int_equal(gm_profile_cache_store(&p, path, sizeof(path), why, sizeof(why)), GM_OK);
	assert_int_equal(gm_profile_for_device(DEVICE, UUID, &q, &c), GM_OK);
	assert_int_equal(c.cached, 1);
	assert_string_equal(c.note, "");
	assert_true(q.read_gbs == 4321);
	assert_non_null(strstr(q.origin, "this unit's, " UUID ", calibrated 2026-11-29T06:31:02Z"));
	assert_int_equal(gm_profile_for_device(DEVICE, "GPU-00000000-0000-0000-0000-000000000000", &q, &c), GM_OK);
	assert_int_equal(c.cached, 0);
	assert_string_equal(c.note, "");
	assert_non_null(strstr(q.origin, "built-in"));
	assert_int_equal(gm_profile_for_device(DEVICE, NULL, &q, &c), GM_OK); /* no unit: no cache */
	assert_int_equal(c.cached, 0);
}

/* each bad cached file: named in the note, ignored, the built-in profile chosen */
static void test_bad_cached(void **state)
{
	static const struct {
		const char *edit_from, *edit_to; /* a textual edit of the good file; NULL: the text below */
		const char *text, *note;
	} rows[] = {
		{ "\"" UUID "\"", "\"GPU-00000000-0000-0000-0000-000000000000\"", NULL,
		  "it was measured on GPU-00000000-0000-0000-0000-000000000000, not on " UUID },
		{ "\"schema_version\": 2", "\"schema_version\": 1", NULL, "schema version 1, this gpumem writes 2" },
		{ NULL, NULL, "{\"schema\": \"gpumem-profile\", \"sch", "not JSON" },
		{ "\"read_gbs\"", "\"read_gbx\"", NULL, "field 'read_gbs' is missing" },
	};
	struct gm_profile p = unit_profile(), q;
	struct gm_profile_choice c;
	char good[4096], text[4096], path[512], why[512];
	FILE *f = fmemopen(good, sizeof(good), "w");

	(void)state;
	assert_int_equal(gm_profile_write(f, &p), GM_OK);
	fclose(f);
	assert_int_equal(gm_profile_cache_store(&p, path, sizeof(path), why, sizeof(why)), GM_OK);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		if (rows[k].text) {
			snprintf(text, sizeof(text), "%s", rows[k].text);
		} else {
			char *at = strstr(good, rows[k].edit_from);

			assert_non_null(at);
			snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good), good, rows[k].edit_to,
				 at + strlen(rows[k].edit_from));
		}
		write_cached(text);
		assert_int_equal(gm_profile_for_device(DEVICE, UUID, &q, &c), GM_OK);
		assert_int_equal(c.cached, 0);
		assert_non_null(strstr(c.note, path));
		if (!strstr(c.note, rows[k].note))
			fail_msg("row %zu: note '%s' lacks '%s'", k, c.note, rows[k].note);
		assert_non_null(strstr(q.origin, "built-in"));
	}
}

static void test_unwritable(void **state)
{
	struct gm_profile p = unit_profile();
	char path[512], why[512], file[300];
	FILE *f;

	(void)state;
	snprintf(file, sizeof(file), "%s/plain", root);
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	setenv("XDG_CACHE_HOME", file, 1); /* a file where the folder should be */
	assert_int_equal(gm_profile_cache_store(&p, path, sizeof(path), why, sizeof(why)), GM_ERR_IO);
	assert_non_null(strstr(why, "Not a directory"));
	p.uuid[0] = 0; /* no unit */
	assert_int_equal(gm_profile_cache_store(&p, path, sizeof(path), why, sizeof(why)), GM_ERR_IO);
	assert_non_null(strstr(why, "no GPU UUID"));
	setenv("XDG_CACHE_HOME", root, 1);
}

/* a field the run did not measure: left out of the file, read back as not measured; pages_gps keeps the
   H100's rate for rule P, and says so */
static void test_unmeasured(void **state)
{
	struct gm_profile p = unit_profile(), q;
	char buf[4096], why[256], desc[600];
	FILE *f;

	(void)state;
	p.pages_gps = GM_PAGES_GPS_DEFAULT;
	p.wave_ns = 700;
	gm_profile_note_unmeasured(&p, "pages_gps");
	gm_profile_note_unmeasured(&p, "pages_gps"); /* once */
	assert_string_equal(p.unmeasured, "pages_gps");
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(f, &p), GM_OK);
	fclose(f);
	assert_null(strstr(buf, "\"pages_gps\":"));
	assert_non_null(strstr(buf, "\"unmeasured\""));
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	assert_true(q.pages_gps == GM_PAGES_GPS_DEFAULT && q.wave_ns == 700);
	assert_true(gm_profile_unmeasured(&q, "pages_gps") && gm_profile_unmeasured(&q, "knee"));
	assert_false(gm_profile_unmeasured(&q, "wave_ns"));
	assert_false(gm_profile_unmeasured(&q, "dram_latency_ns")); /* information only: never named */
	assert_string_equal(q.uuid, UUID);
	gm_profile_describe_unmeasured(&q, desc, sizeof(desc));
	assert_non_null(strstr(desc, "pages_gps (copy.pages_b4; rule P takes 65.6, an H100's)"));
}

/* the one table: every row a member the reader and writer carry */
static void test_fields_table(void **state)
{
	struct gm_profile p, q;
	char buf[8192], why[256];
	FILE *f;

	(void)state;
	memset(&p, 0, sizeof(p));
	snprintf(p.device, sizeof(p.device), "t");
	for (int k = 0; k < gm_profile_nfields; k++) {
		char *m = (char *)&p + gm_profile_fields[k].off;

		if (gm_profile_fields[k].is_int)
			*(int *)m = 32 + 32 * (k % 2); /* 32 or 64: dram_atom_bytes among them */
		else
			*(double *)m = 1.5 + k;
	}
	f = fmemopen(buf, sizeof(buf), "w");
	assert_int_equal(gm_profile_write(f, &p), GM_OK);
	fclose(f);
	assert_int_equal(gm_profile_parse(buf, "mem", &q, why, sizeof(why)), GM_OK);
	for (int k = 0; k < gm_profile_nfields; k++)
		assert_true(gm_profile_get(&p, &gm_profile_fields[k]) == gm_profile_get(&q, &gm_profile_fields[k]));
	assert_string_equal(q.unmeasured, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_store_and_choose),
		cmocka_unit_test(test_bad_cached),
		cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_unmeasured),
		cmocka_unit_test(test_fields_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
