/* compare_out.c - a comparison of two runs as text and as JSON (src/analysis/compare.c computes it). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/compare.h"
#include "gpumem/io.h"

const char *gm_verdict_name(enum gm_verdict v)
{
	static const char *const names[] = { "same", "better", "WORSE", "BROKEN", "fixed", "no number",
					     "only in A", "only in B" };
	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

static const char *device_name(const struct gm_run_result *r)
{
	return r->have_device ? r->dev.name : "no device";
}

static void text_row(FILE *f, const struct gm_compare_row *r, int color)
{
	char va[32], vb[32];
	const char *on = "", *off = "";

	if (r->verdict == GM_ONLY_A || r->verdict == GM_ONLY_B) {
		fprintf(f, "%-32s %-9s %s\n", r->name, gm_unit_name(r->unit), gm_verdict_name(r->verdict));
		return;
	}
	if (color && (r->verdict == GM_WORSE || r->verdict == GM_BROKEN))
		on = "\033[31m", off = "\033[0m";
	else if (color && (r->verdict == GM_BETTER || r->verdict == GM_FIXED))
		on = "\033[32m", off = "\033[0m";
	snprintf(va, sizeof(va), r->a != 0 || r->verdict != GM_FIXED ? "%.4g" : "-", r->a);
	snprintf(vb, sizeof(vb), r->b != 0 || r->verdict != GM_BROKEN ? "%.4g" : "-", r->b);
	fprintf(f, "%-32s %-9s %12s %12s %7.3f %+8.2f%% %-5s %s%s%s\n", r->name, gm_unit_name(r->unit), va, vb,
		r->ratio, -r->worse_pct, r->beyond_noise ? "yes" : "no", on, gm_verdict_name(r->verdict), off);
}

void gm_compare_write_text(FILE *f, const struct gm_comparison *c, const struct gm_run_result *a,
			   const struct gm_run_result *b, int color)
{
	fprintf(f, "A: %s, %s (schema %d)\nB: %s, %s (schema %d)\n", device_name(a), a->started_utc,
		a->schema_version, device_name(b), b->started_utc, b->schema_version);
	if (a->sanitize)
		fprintf(f, "A: %s\n", GM_SANITIZE_NOTE);
	if (b->sanitize)
		fprintf(f, "B: %s\n", GM_SANITIZE_NOTE);
	fprintf(f, "%-32s %-9s %12s %12s %7s %9s %-5s %s\n", "case", "unit", "A median", "B median", "B/A",
		"better by", "noise", "verdict");
	for (int i = 0; i < c->nrows; i++)
		text_row(f, &c->rows[i], color);
	fprintf(f, "\n%d worse, %d better beyond %.1f %% and the noise; %d only in A, %d only in B\n", c->nworse,
		c->nbetter, c->threshold_pct, c->nonly_a, c->nonly_b);
}

static json_t *row_json(const struct gm_compare_row *r)
{
	return json_pack("{ss ss sf sf sf sf sf sf sb ss}", "name", r->name, "unit", gm_unit_name(r->unit), "a", r->a,
			 "b", r->b, "spread_a", r->spread_a, "spread_b", r->spread_b, "ratio", r->ratio, "worse_pct",
			 r->worse_pct, "beyond_noise", r->beyond_noise, "verdict", gm_verdict_name(r->verdict));
}

static json_t *side_json(const struct gm_run_result *r, const char *path)
{
	return json_pack("{ss ss ss si}", "path", path, "device", device_name(r), "started_utc", r->started_utc,
			 "schema_version", r->schema_version);
}

gm_status gm_compare_write_json(FILE *f, const struct gm_comparison *c, const struct gm_run_result *a,
				const struct gm_run_result *b, const char *path_a, const char *path_b)
{
	json_t *rows = json_array(), *doc;
	int err;

	for (int i = 0; i < c->nrows; i++)
		json_array_append_new(rows, row_json(&c->rows[i]));
	doc = json_pack("{ss so so sf sb sb si si si si so}", "schema", "gpumem-compare", "a", side_json(a, path_a),
			"b", side_json(b, path_b), "threshold_pct", c->threshold_pct, "different_device",
			c->different_device, "different_schema", c->different_schema, "worse", c->nworse,
			"better", c->nbetter, "only_in_a", c->nonly_a, "only_in_b", c->nonly_b, "cases", rows);
	if (!doc)
		return gm_fail(GM_ERR_NOMEM, "cannot build the comparison document");
	err = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return err || ferror(f) ? gm_fail(GM_ERR_IO, "cannot write the comparison") : GM_OK;
}
