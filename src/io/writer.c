/*
 * writer.c - the table of every command's output writers and the files that receive them
 * (include/gpumem/writer.h). Each row adapts one document's struct to the table's signature.
 */
#include <stdlib.h>
#include <jansson.h>
#include <string.h>
#include "gpumem/baseline.h"
#include "gpumem/check.h"
#include "gpumem/compare.h"
#include "gpumem/fleet.h"
#include "gpumem/trace.h"
#include "gpumem/writer.h"
#include "io/explain_io.h"
#include "io/suggest_io.h"
#include "io/trace_io.h"

/* A writer that returns nothing: its status is the stream's. */
static gm_status stream_status(FILE *f, const char *what)
{
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write %s", what) : GM_OK;
}

/* ---- a run ------------------------------------------------------------- */

/* The text report: the command, the device, the table of cases, what was derived, the spec sheet. */
static gm_status run_text(FILE *f, const void *doc)
{
	const struct gm_run_result *r = doc;

	fprintf(f, "%s\n%s, %s\n", r->command, r->have_device ? r->dev.name : "no device", r->started_utc);
	gm_table_write(f, r);
	gm_derived_write(f, r);
	gm_spec_write(f, r);
	return stream_status(f, "the text report");
}

static gm_status run_json(FILE *f, const void *doc)
{
	return gm_json_write(f, doc);
}

static gm_status run_csv(FILE *f, const void *doc)
{
	return gm_csv_write(f, doc);
}

static gm_status report_html(FILE *f, const void *doc)
{
	return gm_html_write(f, doc);
}

/* ---- compare ----------------------------------------------------------- */

static gm_status compare_text(FILE *f, const void *doc)
{
	const struct gm_compare_doc *d = doc;

	gm_compare_write_text(f, d->c, d->a, d->b, d->color);
	return stream_status(f, "the comparison");
}

static gm_status compare_json(FILE *f, const void *doc)
{
	const struct gm_compare_doc *d = doc;

	return gm_compare_write_json(f, d->c, d->a, d->b, d->name_a, d->name_b);
}

/* The report page of both runs (every chart overlays them) with the comparison first. */
static gm_status compare_html(FILE *f, const void *doc)
{
	const struct gm_compare_doc *d = doc;
	struct gm_run_result *pair = malloc(2 * sizeof(*pair)); /* the page takes an array: shallow copies */
	const char *labels[2] = { d->name_a, d->name_b };
	gm_status s;

	if (!pair)
		return gm_fail(GM_ERR_NOMEM, "cannot build the report data");
	pair[0] = *d->a;
	pair[1] = *d->b;
	s = gm_html_write(f, &(struct gm_report_doc){ pair, labels, 2, d->findings, d->nfindings, d->c });
	free(pair);
	return s;
}

/* ---- explain, check, baseline, trace ----------------------------------- */

static gm_status explain_text(FILE *f, const void *doc)
{
	return gm_explain_text(f, doc);
}

static gm_status explain_json(FILE *f, const void *doc)
{
	return gm_explain_json(f, doc);
}

static gm_status suggest_text(FILE *f, const void *doc)
{
	const struct gm_suggest_doc *d = doc;

	gm_suggest_text(f, d->s, d->m);
	return stream_status(f, "the rewrites");
}

/* {"suggest": {...}}, indented, the keys in their order, and a newline */
static gm_status suggest_json(FILE *f, const void *doc)
{
	const struct gm_suggest_doc *d = doc;
	json_t *o = json_pack("{s:o}", "suggest", (json_t *)gm_suggest_json(d->s, d->m));
	int bad = !o || json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0 || fputc('\n', f) == EOF;

	json_decref(o);
	return bad ? gm_fail(GM_ERR_IO, "cannot write the JSON output") : GM_OK;
}

static gm_status check_text(FILE *f, const void *doc)
{
	gm_check_text(f, doc);
	return stream_status(f, "the check");
}

static gm_status check_json(FILE *f, const void *doc)
{
	return gm_check_json(f, doc);
}

static gm_status check_prom(FILE *f, const void *doc)
{
	return gm_check_prometheus(f, doc);
}

static gm_status check_html(FILE *f, const void *doc)
{
	return gm_check_html(f, doc);
}

static gm_status baseline_json(FILE *f, const void *doc)
{
	return gm_baseline_write(f, doc);
}

static gm_status trace_text(FILE *f, const void *doc)
{
	gm_trace_text(f, doc);
	return stream_status(f, "the trace report");
}

static gm_status trace_json(FILE *f, const void *doc)
{
	return gm_trace_json(f, doc);
}

static gm_status trace_html(FILE *f, const void *doc)
{
	return gm_trace_html(f, doc);
}

/* ---- fleet ------------------------------------------------------------- */

static gm_status fleet_text(FILE *f, const void *doc)
{
	const struct gm_fleet_doc *d = doc;

	gm_fleet_write(f, d->m, d->fl);
	return stream_status(f, "the fleet view");
}

static gm_status fleet_json(FILE *f, const void *doc)
{
	const struct gm_fleet_doc *d = doc;

	return gm_multi_write(f, d->m);
}

static void fleet_section(FILE *f, const void *doc)
{
	const struct gm_fleet_doc *d = doc;

	gm_fleet_html(f, d->m, d->fl);
}

/* The report page of every device (each chart overlays them) opening with the fleet view. */
static gm_status fleet_html(FILE *f, const void *doc)
{
	const struct gm_fleet_doc *d = doc;

	return gm_html_write(f, &(struct gm_report_doc){ d->m->runs, d->labels, d->nlabels, d->findings,
							 d->nfindings, NULL, fleet_section, d });
}

const struct gm_writer gm_writers[] = {
	{ GM_DOC_RUN, "text", "the table of cases, what was derived and the spec sheet", run_text },
	{ GM_DOC_RUN, "json", "the run document (docs/SCHEMA.md)", run_json },
	{ GM_DOC_RUN, "csv", "one row a case", run_csv },
	{ GM_DOC_REPORT, "html", "the report page, offline (docs/REPORT.md)", report_html },
	{ GM_DOC_COMPARE, "text", "one row a case: both medians, the ratio, the verdict", compare_text },
	{ GM_DOC_COMPARE, "json", "the gpumem-compare document", compare_json },
	{ GM_DOC_COMPARE, "html", "the report page of both runs, the comparison first", compare_html },
	{ GM_DOC_EXPLAIN, "text", "the warp's lanes and counts, the launch model, the run", explain_text },
	{ GM_DOC_EXPLAIN, "json", "the explain document", explain_json },
	{ GM_DOC_SUGGEST, "text", "the ranked rewrites, why the others do not apply, the verdict", suggest_text },
	{ GM_DOC_SUGGEST, "json", "the explain document's \"suggest\" object", suggest_json },
	{ GM_DOC_CHECK, "text", "one line a judged figure, the verdict of each GPU", check_text },
	{ GM_DOC_CHECK, "json", "the gpumem-check document (docs/CHECK.md)", check_json },
	{ GM_DOC_CHECK, "prom", "the Prometheus text format", check_prom },
	{ GM_DOC_CHECK, "html", "the report page opening with the verdicts and the burn's telemetry", check_html },
	{ GM_DOC_BASELINE, "json", "the gpumem-baseline document", baseline_json },
	{ GM_DOC_FLEET, "text", "the fleet view: outliers and the spread of each case", fleet_text },
	{ GM_DOC_FLEET, "json", "the runs of every device (gpumem-multi, docs/SCHEMA.md)", fleet_json },
	{ GM_DOC_FLEET, "html", "the report page of every device, the fleet view first", fleet_html },
	{ GM_DOC_TRACE, "text", "per kernel its figures, instructions and fixes", trace_text },
	{ GM_DOC_TRACE, "json", "the gpumem-trace-report document", trace_json },
	{ GM_DOC_TRACE, "html", "the trace report as a static page", trace_html },
	{ GM_DOC_RUN, NULL, NULL, NULL },
};

const struct gm_writer *gm_writer_find(enum gm_doc_kind kind, const char *format)
{
	for (const struct gm_writer *w = gm_writers; format && w->format; w++)
		if (w->kind == kind && !strcmp(w->format, format))
			return w;
	return NULL;
}

gm_status gm_write(FILE *f, enum gm_doc_kind kind, const char *format, const void *doc)
{
	const struct gm_writer *w = gm_writer_find(kind, format);

	if (!w)
		return gm_fail(GM_ERR_INVALID_ARG, "no writer for the format '%s'", format ? format : "");
	return w->write(f, doc);
}

gm_status gm_output_open(struct gm_output *o, enum gm_doc_kind kind, const char *format, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->writer = gm_writer_find(kind, format);
	if (!o->writer)
		return gm_fail(GM_ERR_INVALID_ARG, "no writer for the format '%s'", format ? format : "");
	if (gm_outfile_open(&o->file, path))
		return GM_ERR_IO;
	o->open = 1;
	return GM_OK;
}

gm_status gm_output_commit(struct gm_output *o, const void *doc)
{
	gm_status s;

	if (!o->open)
		return GM_OK;
	o->open = 0;
	s = o->writer->write(o->file.f, doc);
	if (s) {
		gm_outfile_abort(&o->file);
		return s;
	}
	return gm_outfile_commit(&o->file);
}

void gm_output_abort(struct gm_output *o)
{
	if (o->open)
		gm_outfile_abort(&o->file);
	o->open = 0;
}
