/*
 * fuzz_runfile.c - libFuzzer target for the run-file reader (docs/SCHEMA.md):
 * gm_json_read over the input as a file, plain and gzip-compressed, and
 * gm_json_read_text over it as a string; then everything `report`, `compare`
 * and `info --from` do with a run that was read: the table, CSV, device
 * block, spec sheet, derived table, HTML page, a comparison with itself.
 *
 * Invariants (a violation aborts, so libFuzzer reports it as a crash):
 *   - the gzip-compressed copy reads the same as the plain one (status, cases);
 *   - a run that was read writes a JSON document that reads back with the
 *     same number of cases and derived results;
 *   - a failed read leaves the run empty and an error message;
 *   - a run compared with itself has no worse case (when no case name is there twice).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/compare.h"
#include "gpumem/findings.h"
#include "gpumem/io.h"
#include "gpumem/result.h"
#include "gpumem/status.h"
#include "gpumem/writer.h"
#include "fuzz_util.h"

static void use(struct gm_run_result *r)
{
	FILE *o = fz_sink();
	struct gm_comparison c;
	const char *label = "fuzz";
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	gm_table_write(o, r);
	fz_check(gm_write(o, GM_DOC_RUN, "csv", r) == GM_OK);
	gm_device_write(o, &r->dev);
	gm_spec_write(o, r);
	gm_derived_write(o, r);
	{
		struct gm_finding f[GM_FINDINGS_MAX];
		struct gm_report_doc d = { r, &label, 1, f, gm_findings(r, f, GM_FINDINGS_MAX) };

		gm_write(o, GM_DOC_REPORT, "html", &d);
	}
	if (gm_compare_runs(r, r, 5.0, &c) == GM_OK) {
		/* a run against itself: nothing worse, unless a name is there twice (compare pairs each case
		 * with the first of its name; fuzz/regress/runfile/duplicate_case_name.json) */
		int dup = 0;

		for (int i = 0; i < r->ncases && !dup; i++)
			for (int j = 0; j < i && !dup; j++)
				dup = !strcmp(r->cases[i].name, r->cases[j].name);
		fz_check(dup || c.nworse == 0);
		struct gm_compare_doc d = { &c, r, r, "a", "b" };

		gm_write(o, GM_DOC_COMPARE, "text", &d);
		gm_write(o, GM_DOC_COMPARE, "json", &d);
		gm_comparison_release(&c);
	}
	/* round trip: what we write, we read */
	m = open_memstream(&buf, &len);
	fz_check(m != NULL);
	fz_check(gm_json_write(m, r) == GM_OK);
	fz_check(fclose(m) == 0);
	{
		struct gm_run_result back;
		gm_status s = gm_json_read_text(buf, &back);

		if (s != GM_OK) {
			fprintf(stderr, "round trip failed: %s\n", gm_last_error());
			abort();
		}
		fz_check(back.ncases == r->ncases && back.nderived == r->nderived);
		gm_result_release(&back);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gm_run_result r, z;
	gm_status s, sz;
	char *text;

	if (size > (1u << 20))
		return 0;
	s = gm_json_read(fz_write_plain(data, size), &r);
	if (s == GM_OK) {
		use(&r);
	} else {
		fz_check(r.ncases == 0 && gm_last_error()[0] != '\0');
	}
	if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
		sz = gm_json_read(fz_write_gzip(data, size), &z);
		fz_check(sz == s);
		fz_check(sz != GM_OK || (z.ncases == r.ncases && z.nderived == r.nderived));
		if (sz == GM_OK)
			gm_result_release(&z);
	}
	if (s == GM_OK)
		gm_result_release(&r);
	text = fz_text(data, size);
	if (gm_json_read_text(text, &r) == GM_OK)
		gm_result_release(&r);
	free(text);
	return 0;
}
