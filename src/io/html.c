/*
 * html.c - `gpumem report -o FILE.html`: one self-contained page.
 *
 * The page carries Chart.js, its own scripts (report_charts.js, report.js) and style
 * (report.css), all embedded in the binary at build time, and the runs as a
 * JSON island. The script builds the spec sheet, the charts of
 * report_charts.c and the sortable case table. The page requests nothing:
 * a Content-Security-Policy forbids every fetch.
 */
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/io.h"
#include "gpumem/units.h"
#include "gpumem/compare.h"
#include "gpumem/findings.h"
#include "io/report_charts.h"

extern const unsigned char gm_embed_chartjs[], gm_embed_report_js[], gm_embed_report_charts_js[], gm_embed_report_css[];
extern const size_t gm_embed_chartjs_len, gm_embed_report_js_len, gm_embed_report_charts_js_len, gm_embed_report_css_len;

static json_t *params_obj(const struct gm_case_result *c)
{
	json_t *o = json_object();

	for (int i = 0; i < c->nparams; i++)
		json_object_set_new(o, c->param_keys[i][0] ? c->param_keys[i] : c->params[i].key,
				    json_integer(c->params[i].value));
	return o;
}

static json_t *values_obj(const struct gm_value *v, int n)
{
	json_t *o = json_object();

	for (int i = 0; i < n; i++)
		json_object_set_new(o, v[i].name, json_pack("{sf ss}", "v", v[i].median, "u", gm_unit_name(v[i].unit)));
	return o;
}

/* The model's headline for the table: the worst pattern's sectors (or wavefronts) per request. */
static json_t *model_str(const struct gm_case_result *c)
{
	const struct gm_pattern_prediction *p = NULL;
	char buf[96];

	for (int i = 0; i < c->npred && !p; i++)
		if (c->pred[i].per_request > c->pred[i].ideal || i == c->npred - 1)
			p = &c->pred[i];
	if (!p || p->per_request < 0)
		return json_string("");
	snprintf(buf, sizeof(buf), "%s: %.2f %s/req (ideal %.0f)", p->what, p->per_request,
		 strcmp(p->space, "shared") ? "sectors" : "wavefronts", p->ideal);
	return json_string(buf);
}

/*
 * Flops per launch of a case, 0 when it has none: the ops of a TFLOP/s case
 * and of a DRAM-kind kernel (matvec: GB/s with its flops) are flops; ops of
 * time-per-op units and of host-side measures (a transfer) are operations;
 * run files written before "ops" existed give the flops the median TFLOP/s
 * implies over the median launch time.
 */
static double case_flops(const struct gm_case_result *c)
{
	if (c->status != GM_CASE_OK || c->ms.median <= 0)
		return 0;
	if (c->traffic.ops > 0 && (c->unit == GM_UNIT_TFLOPS || (c->unit == GM_UNIT_GBS && c->kind == GM_KIND_DRAM)))
		return c->traffic.ops;
	if (c->unit == GM_UNIT_TFLOPS && c->value.median > 0)
		return c->value.median * 1e9 * c->ms.median;
	return 0;
}

/*
 * The roofline's place of a case: "tflops" (flops / median time),
 * "ai_dram" (flops per DRAM byte: counted where counters ran, else the
 * useful bytes, the traffic the work cannot avoid; not the launch model's
 * prediction, which may itself be wrong) and "ai_l2" (flops per L2 byte,
 * counters only). "intensity" (flops / useful bytes) as before.
 */
static void roofline_fields(json_t *o, const struct gm_case_result *c)
{
	double flops = case_flops(c), dram = c->traffic.bytes_useful;
	const struct gm_counters *k = &c->counters;

	if (flops <= 0 || dram <= 0)
		return;
	if (k->state == GM_COUNTERS_OK && k->dram_read_bytes + k->dram_write_bytes > 0)
		dram = k->dram_read_bytes + k->dram_write_bytes;
	json_object_set_new(o, "intensity", json_real(flops / c->traffic.bytes_useful));
	json_object_set_new(o, "tflops", json_real(flops / (c->ms.median * 1e-3) / 1e12));
	json_object_set_new(o, "ai_dram", json_real(flops / dram));
	if (k->state == GM_COUNTERS_OK && k->l2_sectors > 0)
		json_object_set_new(o, "ai_l2", json_real(flops / (k->l2_sectors * 32.0)));
}

static json_t *case_obj(const struct gm_case_result *c)
{
	json_t *o = json_pack("{ss ss ss so ss sb sf sf sf sf sb ss ss ss sf sf sf sf}", "name", c->name,
			      "family", c->family, "label", c->label, "params", params_obj(c), "unit",
			      gm_unit_name(c->unit), "higher_better", gm_unit_higher_is_better(c->unit),
			      "value", c->value.median, "min", c->value.min, "max", c->value.max, "cov",
			      c->ms.cov_pct, "verified", c->verified, "status", gm_case_status_name(c->status),
			      "message", c->message, "timing", gm_timing_name(c->timing), "pred_gbs",
			      c->pred_gbs, "pred_slowdown", c->pred_slowdown, "slowdown", c->slowdown,
			      "pred_efficiency", c->pred_efficiency_pct);

	if (!o)
		return NULL;
	json_object_set_new(o, "model", model_str(c));
	if (c->launch_gbs > 0) { /* the launch model's prediction (docs/MODEL.md section 7) */
		json_object_set_new(o, "launch_gbs", json_real(c->launch_gbs));
		json_object_set_new(o, "launch_limited_by", json_string(c->launch_limited_by));
		if (c->launch_high_gbs > 0) { /* its interval (docs/MODEL.md 7.6) */
			json_object_set_new(o, "launch_low_gbs", json_real(c->launch_low_gbs));
			json_object_set_new(o, "launch_high_gbs", json_real(c->launch_high_gbs));
		}
	}
	json_object_set_new(o, "version", json_integer(c->version));
	roofline_fields(o, c);
	json_object_set_new(o, "extras", values_obj(c->extras, c->nextras));
	json_object_set_new(o, "notes", values_obj(c->notes, c->nnotes));
	return o;
}

static json_t *derived_obj(const struct gm_derived *d)
{
	return json_pack("{ss ss ss ss ss sf sf ss ss}", "name", d->name, "family", d->family, "level", d->level,
			 "quantity", d->quantity, "unit", gm_unit_name(d->unit), "value", d->value, "reference",
			 d->reference, "reference_what", d->reference_what, "how", d->how);
}

static json_t *device_obj(const struct gm_run_result *r)
{
	const struct gm_device_info *d = &r->dev;
	char cc[16], drv[32];

	if (!r->have_device)
		return json_null();
	snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	snprintf(drv, sizeof(drv), "%d.%d / %d.%d", d->driver_version / 1000, d->driver_version % 1000 / 10,
		 d->runtime_version / 1000, d->runtime_version % 1000 / 10);
	return json_pack("{ss ss si sf sf si sI sI sI sf sb ss si si}", "name", d->name, "cc", cc, "sms",
			 d->sm_count, "sm_mhz", d->sm_clock_khz / 1e3, "mem_mhz", d->mem_clock_khz / 1e3,
			 "bus_bits", d->bus_width_bits, "l2_bytes", (json_int_t)d->l2_bytes, "smem_per_sm",
			 (json_int_t)d->smem_per_sm, "total_mem", (json_int_t)d->total_mem, "peak_gbs",
			 d->peak_gbs, "ecc", d->ecc, "driver_runtime", drv, "pcie_gen", d->pcie_gen,
			 "pcie_width", d->pcie_width);
}

static json_t *run_obj(const struct gm_run_result *r, const char *label)
{
	json_t *cases = json_array(), *derived = json_array();
	json_t *o;

	for (int i = 0; i < r->ncases; i++)
		json_array_append_new(cases, case_obj(&r->cases[i]));
	for (int i = 0; i < r->nderived; i++)
		json_array_append_new(derived, derived_obj(&r->derived[i]));
	o = json_pack("{si ss ss ss ss sf sb ss sI si si so so so}", "schema_version",
		      r->schema_version ? r->schema_version : GM_SCHEMA_VERSION, "label", label, "tool_version",
		      r->tool_version, "command", r->command, "started_utc", r->started_utc, "wall_s", r->wall_s,
		      "interrupted", r->interrupted, "byte_convention", r->byte_convention, "array_bytes",
		      (json_int_t)r->array_bytes, "reps", r->reps, "warmup", r->warmup, "device",
		      device_obj(r), "cases", cases, "derived", derived);
	return o;
}

static json_t *chart_obj(const struct gm_chart_spec *s)
{
	return json_pack("{ss ss ss ss ss ss ss ss ss ss ss ss sb sb ss ss}", "family", s->family, "unit", s->unit,
			 "kind", s->kind, "title", s->title, "x", s->x, "series", s->series, "series_names",
			 s->series_names, "y", s->y, "model", s->model, "filter", s->filter, "ceiling",
			 s->ceiling, "marks", s->marks, "xlog", s->xlog, "ylog", s->ylog, "what", s->what,
			 "how", s->how);
}

static json_t *units_obj(void)
{
	json_t *o = json_object();

	for (int u = 0; u < GM_UNIT_COUNT; u++)
		json_object_set_new(o, gm_unit_name((enum gm_unit)u),
				    json_boolean(gm_unit_higher_is_better((enum gm_unit)u)));
	return o;
}

/* The first run's findings (computed by the caller: src/analysis/findings.c): the page shows them after the title. */
static json_t *findings_arr(const struct gm_finding *f, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_pack("{ss ss ss}", "rule", f[i].rule, "anchor", f[i].anchor, "text",
						   f[i].text));
	return a;
}

static json_t *page_data(const struct gm_report_doc *d)
{
	json_t *a = json_array(), *charts = json_array();

	for (int i = 0; i < d->nruns; i++)
		json_array_append_new(a, run_obj(&d->runs[i], d->labels[i]));
	for (int i = 0; i < gm_report_ncharts; i++)
		json_array_append_new(charts, chart_obj(&gm_report_charts[i]));
	return json_pack("{ss so so so so}", "tool_version", GPUMEM_VERSION, "runs", a, "charts", charts, "units",
			 units_obj(), "findings", findings_arr(d->findings, d->nruns ? d->nfindings : 0));
}

/* JSON inside <script>: "</" would end the element; "<\/" means the same in JSON. */
static void write_island(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '<' && s[1] == '/') {
			fputs("<\\/", f);
			s++;
		} else
			fputc(*s, f);
	}
}

static void write_escaped(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		default: fputc(*s, f);
		}
}

/* compare -o: each row of the comparison (compare.h) for the page's comparison section */
static json_t *comparison_obj(const struct gm_comparison *c)
{
	json_t *rows = json_array();

	for (int i = 0; i < c->nrows; i++) {
		const struct gm_compare_row *w = &c->rows[i];

		json_array_append_new(rows, json_pack("{ss ss sb sf sf sf sf sf sf sb ss}", "name", w->name, "unit",
						      gm_unit_name(w->unit), "unit_differs", w->unit_differs, "a", w->a,
						      "b", w->b, "spread_a", w->spread_a, "spread_b", w->spread_b,
						      "ratio", w->ratio, "worse_pct", w->worse_pct, "beyond_noise",
						      w->beyond_noise, "verdict", gm_verdict_name(w->verdict)));
	}
	return json_pack("{sf si si si si sb sb so}", "threshold_pct", c->threshold_pct, "worse", c->nworse, "better",
			 c->nbetter, "only_a", c->nonly_a, "only_b", c->nonly_b, "different_device",
			 c->different_device, "different_schema", c->different_schema, "rows", rows);
}

void gm_html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

gm_status gm_html_write(FILE *f, const struct gm_report_doc *d)
{
	json_t *data = page_data(d);
	char *text;

	if (data && d->cmp)
		json_object_set_new(data, "comparison", comparison_obj(d->cmp));
	text = data ? json_dumps(data, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(data);
	if (!text)
		return gm_fail(GM_ERR_NOMEM, "cannot build the report data");
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>gpumem report: ", f);
	write_escaped(f, d->nruns && d->runs[0].have_device ? d->runs[0].dev.name : "no device");
	fputs("</title>\n<style>\n", f);
	fwrite(gm_embed_report_css, 1, gm_embed_report_css_len, f);
	fputs("</style>\n</head><body>\n", f);
	if (d->section)
		d->section(f, d->ctx);
	fputs("<main id=\"report\"><noscript>This report draws its tables and charts with "
	      "JavaScript.</noscript></main>\n<script id=\"gm-data\" type=\"application/json\">", f);
	write_island(f, text);
	free(text);
	fputs("</script>\n<script>\n", f);
	fwrite(gm_embed_chartjs, 1, gm_embed_chartjs_len, f);
	fputs("\n</script>\n<script>\n", f);
	fwrite(gm_embed_report_charts_js, 1, gm_embed_report_charts_js_len, f);
	fputs("\n</script>\n<script>\n", f);
	fwrite(gm_embed_report_js, 1, gm_embed_report_js_len, f);
	fputs("\n</script>\n</body></html>\n", f);
	return ferror(f) || fflush(f) ? gm_fail(GM_ERR_IO, "cannot write the report: %s", strerror(errno)) : GM_OK;
}
