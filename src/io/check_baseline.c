/*
 * check_baseline.c - a baseline file (gpumem/baseline.h), schema
 * "gpumem-baseline" (docs/SCHEMA.md "Baseline"): written by `gpumem baseline
 * make`, read by `gpumem check` and `gpumem fleet --baseline`.
 */
#include <math.h>
#include <string.h>
#include <jansson.h>
#include "gpumem/baseline.h"
#include "gpumem/units.h"
#include "io/json_file.h"

static json_t *run_json(const struct gm_baseline_run *r)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "uuid", r->uuid, "commit", r->commit, "source", r->source,
			 "started_utc", r->started_utc);
}

static json_t *line_json(const struct gm_baseline_line *l)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "case", l->name, "unit",
			 gm_unit_name(l->unit), "better", gm_unit_higher_is_better(l->unit) ? "higher" : "lower",
			 "units", l->n, "median", l->median, "spread", l->spread, "noise", l->noise, "cov_pct",
			 l->cov_pct, "min", l->min, "max", l->max);
}

gm_status gm_baseline_write(FILE *f, const struct gm_baseline *b)
{
	json_t *doc = json_pack("{s:s, s:i, s:s, s:s, s:s, s:i}", "schema", GM_BASELINE_SCHEMA, "schema_version",
				GM_BASELINE_VERSION, "sku", b->sku, "made_utc", b->made_utc, "tool_version",
				b->tool_version, "units", b->nunits);
	json_t *runs = json_array(), *lines = json_array();
	int rc;

	if (!doc || !runs || !lines) {
		json_decref(doc);
		json_decref(runs);
		json_decref(lines);
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < b->nruns; i++)
		json_array_append_new(runs, run_json(&b->runs[i]));
	for (int i = 0; i < b->nlines; i++)
		json_array_append_new(lines, line_json(&b->lines[i]));
	json_object_set_new(doc, "runs", runs);
	json_object_set_new(doc, "lines", lines);
	rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF)
		return gm_fail(GM_ERR_IO, "cannot write the baseline");
	return GM_OK;
}

static void str_of(char *dst, size_t n, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	snprintf(dst, n, "%s", s ? s : "");
}

static gm_status read_line(json_t *o, size_t i, struct gm_baseline_line *l, const char *path)
{
	const char *unit = json_string_value(json_object_get(o, "unit"));

	str_of(l->name, sizeof(l->name), o, "case");
	l->n = (int)json_integer_value(json_object_get(o, "units"));
	l->median = json_number_value(json_object_get(o, "median"));
	l->spread = json_number_value(json_object_get(o, "spread"));
	l->noise = json_number_value(json_object_get(o, "noise"));
	l->cov_pct = json_number_value(json_object_get(o, "cov_pct"));
	l->min = json_number_value(json_object_get(o, "min"));
	l->max = json_number_value(json_object_get(o, "max"));
	if (!l->name[0] || !unit || gm_unit_parse(unit, &l->unit) || !json_is_number(json_object_get(o, "median")) ||
	    !isfinite(l->median) || l->median == 0 || !(l->spread >= 0) || !(l->noise >= 0))
		return gm_fail(GM_ERR_PARSE, "'%s': line %zu: needs 'case', a known 'unit', a finite non-zero "
			       "'median' and non-negative 'spread' and 'noise'", path, i);
	return GM_OK;
}

static gm_status read_doc(json_t *doc, const char *path, struct gm_baseline *b)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	json_t *lines = json_object_get(doc, "lines"), *runs = json_object_get(doc, "runs"), *o;
	size_t i;

	if (!schema || strcmp(schema, GM_BASELINE_SCHEMA) || !json_is_array(lines))
		return gm_fail(GM_ERR_PARSE, "'%s': not a gpumem baseline (field 'schema' is not \"%s\" or 'lines' is "
			       "not an array)", path, GM_BASELINE_SCHEMA);
	b->schema_version = (int)json_integer_value(json_object_get(doc, "schema_version"));
	if (b->schema_version < 1 || b->schema_version > GM_BASELINE_VERSION)
		return gm_fail(GM_ERR_PARSE, "'%s': baseline schema version %d (this gpumem reads 1 to %d)", path,
			       b->schema_version, GM_BASELINE_VERSION);
	str_of(b->sku, sizeof(b->sku), doc, "sku");
	if (!b->sku[0])
		return gm_fail(GM_ERR_PARSE, "'%s': the baseline names no GPU model (field 'sku')", path);
	str_of(b->made_utc, sizeof(b->made_utc), doc, "made_utc");
	str_of(b->tool_version, sizeof(b->tool_version), doc, "tool_version");
	b->nunits = (int)json_integer_value(json_object_get(doc, "units"));
	json_array_foreach(runs, i, o) {
		if (b->nruns == GM_BASELINE_MAX_RUNS)
			break;
		struct gm_baseline_run *r = &b->runs[b->nruns++];
		str_of(r->uuid, sizeof(r->uuid), o, "uuid");
		str_of(r->commit, sizeof(r->commit), o, "commit");
		str_of(r->source, sizeof(r->source), o, "source");
		str_of(r->started_utc, sizeof(r->started_utc), o, "started_utc");
	}
	json_array_foreach(lines, i, o) {
		if (b->nlines == GM_BASELINE_MAX_LINES)
			return gm_fail(GM_ERR_PARSE, "'%s': more than %d lines", path, GM_BASELINE_MAX_LINES);
		gm_status s = read_line(o, i, &b->lines[b->nlines++], path);
		if (s)
			return s;
	}
	return GM_OK;
}

gm_status gm_baseline_read(const char *path, struct gm_baseline *b)
{
	json_error_t err;
	json_t *doc;
	gm_status s;

	memset(b, 0, sizeof(*b));
	doc = gm_json_load_path(path, &err);
	if (!doc)
		return err.line < 0 ? gm_fail(GM_ERR_PARSE, "cannot read '%s': %s", path, err.text) :
		       gm_fail(GM_ERR_PARSE, "cannot read '%s': %s (line %d)", path, err.text, err.line);
	s = read_doc(doc, path, b);
	json_decref(doc);
	return s;
}
