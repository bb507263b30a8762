/*
 * check_json.c - the JSON verdict of `gpumem check` (schema "gpumem-check",
 * docs/SCHEMA.md "Check"): per GPU its verdict, lines, counters before and
 * after, failures with code, severity and next step, the burn's telemetry,
 * and the run it judged (so `check --from` re-judges a check's own output).
 * Also the reader of a run or check document for --from and baseline make.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gpumem/check.h"
#include "gpumem/io.h"
#include "gpumem/units.h"
#include "io/json_file.h"

static const char *const state_names[] = { "absent", "ok", "unsupported", "error" };

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *counters_json(const struct gm_check_counters *c)
{
	json_t *o = json_object();

	for (int side = 0; side < 2; side++) {
		const struct gm_counter_read *r = side ? c->after : c->before;
		json_t *s = json_object();
		for (int i = 0; i < GM_CNT_COUNT; i++)
			json_object_set_new(s, gm_counter_name((enum gm_counter_id)i),
					    json_pack("{s:s, s:I, s:I, s:i}", "state", state_names[r[i].state & 3], "value",
						      (json_int_t)r[i].value, "detail", (json_int_t)r[i].detail, "nvml_rc",
						      r[i].nvml_rc));
		json_object_set_new(o, side ? "after" : "before", s);
	}
	return o;
}

static gm_status counters_parse(json_t *o, const char *path, struct gm_check_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (!o || json_is_null(o))
		return GM_OK;
	if (!json_is_object(json_object_get(o, "after")))
		return gm_fail(GM_ERR_PARSE, "'%s': the counters need an object 'after'", path);
	for (int side = 0; side < 2; side++) {
		json_t *s = json_object_get(o, side ? "after" : "before");
		struct gm_counter_read *r = side ? c->after : c->before;
		for (int i = 0; s && i < GM_CNT_COUNT; i++) {
			json_t *e = json_object_get(s, gm_counter_name((enum gm_counter_id)i));
			const char *st = json_string_value(json_object_get(e, "state"));
			if (!e)
				continue;
			for (int k = 0; st && k < 4; k++)
				if (!strcmp(st, state_names[k]))
					r[i].state = (enum gm_counter_state)k;
			if (!st || (r[i].state == GM_CNT_ABSENT && strcmp(st, "absent")) ||
			    !json_is_integer(json_object_get(e, "value")))
				return gm_fail(GM_ERR_PARSE, "'%s': counter '%s': needs a known 'state' and an integer "
					       "'value'", path, gm_counter_name((enum gm_counter_id)i));
			r[i].value = json_integer_value(json_object_get(e, "value"));
			r[i].detail = json_integer_value(json_object_get(e, "detail"));
			r[i].nvml_rc = (int)json_integer_value(json_object_get(e, "nvml_rc"));
		}
	}
	c->have = 1;
	return GM_OK;
}

gm_status gm_check_read_run(const char *path, struct gm_run_result *r, struct gm_check_counters *c)
{
	json_error_t err;
	json_t *doc = gm_json_load_path(path, &err), *src, *cnt;
	const char *schema;
	gm_status s;

	gm_result_init(r);
	if (c)
		memset(c, 0, sizeof(*c));
	if (!doc)
		return err.line < 0 ? gm_fail(GM_ERR_PARSE, "cannot read '%s': %s", path, err.text) :
		       gm_fail(GM_ERR_PARSE, "cannot read '%s': %s (line %d)", path, err.text, err.line);
	schema = json_string_value(json_object_get(doc, "schema"));
	src = doc;
	cnt = json_object_get(doc, "check_counters");
	if (schema && !strcmp(schema, GM_CHECK_SCHEMA)) {
		json_t *g0 = json_array_get(json_object_get(doc, "gpus"), 0);
		src = json_object_get(g0, "run");
		cnt = json_object_get(g0, "counters");
		if (!src) {
			json_decref(doc);
			return gm_fail(GM_ERR_PARSE, "'%s': a check document without the run it judged (gpus[0].run)", path);
		}
	}
	s = gm_json_read_parsed(src, path, r);
	if (!s && c)
		s = counters_parse(cnt, path, c);
	json_decref(doc);
	if (s)
		gm_result_release(r);
	return s;
}

static double dnum(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* The burn's summary and its telemetry columns (burn_json's, below) into b; GM_ERR_PARSE when uneven. */
static gm_status burn_parse(json_t *o, const char *path, struct gm_burn *b)
{
	static const char *const cols[] = { "t_s", "sm_mhz", "mem_mhz", "power_w", "temp_c", "reasons", "phase" };
	json_t *t = json_object_get(o, "telemetry"), *c[7];
	size_t n = 0;

	b->duration_s = dnum(o, "duration_s");
	b->ran_s = dnum(o, "ran_s");
	b->interrupted = json_is_true(json_object_get(o, "interrupted"));
	b->rounds = (int)json_integer_value(json_object_get(o, "rounds"));
	b->gemm_rounds = (int)json_integer_value(json_object_get(o, "gemm_rounds"));
	b->memtest_rounds = (int)json_integer_value(json_object_get(o, "memtest_rounds"));
	b->validation_errors = (int)json_integer_value(json_object_get(o, "validation_errors"));
	snprintf(b->first_error, sizeof(b->first_error), "%s",
		 json_is_string(json_object_get(o, "first_error")) ?
		 json_string_value(json_object_get(o, "first_error")) : "");
	for (int k = 0; k < 7; k++) {
		c[k] = json_object_get(t, cols[k]);
		if (!json_is_array(c[k]) || (k && json_array_size(c[k]) != n))
			return gm_fail(GM_ERR_PARSE, "'%s': burn.telemetry.%s: needs an array as long as t_s", path,
				       cols[k]);
		n = json_array_size(c[k]);
	}
	for (size_t i = 0; i < n; i++) {
		struct gm_burn_sample s = {
			json_number_value(json_array_get(c[0], i)), json_number_value(json_array_get(c[1], i)),
			json_number_value(json_array_get(c[2], i)), json_number_value(json_array_get(c[3], i)),
			json_number_value(json_array_get(c[4], i)),
			(uint64_t)json_integer_value(json_array_get(c[5], i)),
			(int)json_integer_value(json_array_get(c[6], i)),
		};
		gm_status st = gm_burn_add(b, &s);
		if (st)
			return st;
	}
	return GM_OK;
}

gm_status gm_check_read_burn(const char *path, struct gm_burn *b, int *found)
{
	json_error_t err;
	json_t *doc = gm_json_load_path(path, &err), *o;
	const char *schema;
	gm_status s = GM_OK;

	memset(b, 0, sizeof(*b));
	*found = 0;
	if (!doc)
		return gm_fail(GM_ERR_PARSE, "cannot read '%s': %s", path, err.text);
	schema = json_string_value(json_object_get(doc, "schema"));
	o = schema && !strcmp(schema, GM_CHECK_SCHEMA) ?
	    json_object_get(json_array_get(json_object_get(doc, "gpus"), 0), "burn") : NULL;
	if (json_is_object(o)) {
		s = burn_parse(o, path, b);
		*found = !s;
		if (s)
			gm_burn_release(b);
	}
	json_decref(doc);
	return s;
}

/* The run document as a JSON value (written by gm_json_write, parsed back). */
static json_t *run_value(const struct gm_run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_t *v = NULL;

	if (!m)
		return NULL;
	if (!gm_json_write(m, r) && !fflush(m))
		v = json_loadb(buf, len, 0, NULL);
	fclose(m);
	free(buf);
	return v;
}

static json_t *code_json(const struct gm_check_code *code)
{
	if (!code)
		return json_null();
	return json_pack("{s:s, s:s, s:s, s:s}", "code", code->code, "name", code->name, "severity",
			 gm_severity_name(code->severity), "next_step", code->next_step);
}

static json_t *line_json(const struct gm_check_line *l)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "id", l->def->id, "case", l->case_name, "what",
			      l->def->what, "verdict", gm_check_verdict_name(l->verdict), "message", l->message);

	json_object_set_new(o, "unit", l->measured || l->have_baseline ? json_string(gm_unit_name(l->unit)) : json_null());
	json_object_set_new(o, "better", json_string(gm_unit_higher_is_better(l->unit) ? "higher" : "lower"));
	json_object_set_new(o, "value", l->measured ? num(l->value) : json_null());
	json_object_set_new(o, "cov_pct", l->measured ? num(l->cov_pct) : json_null());
	if (l->have_baseline) {
		json_object_set_new(o, "baseline_median", num(l->base_median));
		json_object_set_new(o, "baseline_spread", num(l->base_spread));
		json_object_set_new(o, "tolerance", num(l->tolerance));
		json_object_set_new(o, "margin_pct", num(l->margin_pct));
		json_object_set_new(o, "tolerances_worse", num(l->tolerances_worse));
	}
	json_object_set_new(o, "code", code_json(l->code));
	return o;
}

static json_t *burn_json(const struct gm_burn *b)
{
	const char *cols[] = { "t_s", "sm_mhz", "mem_mhz", "power_w", "temp_c", "reasons", "phase" };
	json_t *o = json_pack("{s:f, s:f, s:b, s:i, s:i, s:i, s:i, s:s, s:s}", "duration_s", b->duration_s, "ran_s",
			      b->ran_s, "interrupted", b->interrupted, "rounds", b->rounds, "gemm_rounds", b->gemm_rounds,
			      "memtest_rounds", b->memtest_rounds, "validation_errors", b->validation_errors,
			      "verdict", gm_check_verdict_name(b->verdict), "message", b->message);
	json_t *t = json_object();

	json_object_set_new(o, "sm_mhz", json_pack("{s:f, s:f, s:f}", "min", b->sm_mhz_min, "median",
						   b->sm_mhz_median, "max", b->sm_mhz_max));
	json_object_set_new(o, "clock_drop_pct", num(b->clock_drop_pct));
	json_object_set_new(o, "temp_c_max", num(b->temp_c_max));
	json_object_set_new(o, "power_w_max", num(b->power_w_max));
	json_object_set_new(o, "reasons_seen", json_integer((json_int_t)b->reasons_seen));
	if (b->first_error[0])
		json_object_set_new(o, "first_error", json_string(b->first_error));
	for (int k = 0; k < 7; k++) {
		json_t *a = json_array();
		for (int i = 0; i < b->n; i++) {
			const struct gm_burn_sample *s = &b->s[i];
			double v[] = { s->t_s, s->sm_mhz, s->mem_mhz, s->power_w, s->temp_c, (double)s->reasons, s->phase };
			json_array_append_new(a, k >= 5 ? json_integer((json_int_t)v[k]) : num(v[k]));
		}
		json_object_set_new(t, cols[k], a);
	}
	json_object_set_new(o, "telemetry", t);
	return o;
}

static json_t *gpu_json(const struct gm_check_doc *d, int i)
{
	const struct gm_check_gpu *g = &d->gpus[i];
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:f}", "index", g->index, "name", g->name, "uuid",
			      g->uuid, "pci_bus_id", g->pci_bus_id, "verdict", gm_check_verdict_name(g->verdict), "exit_code",
			      gm_check_exit_code(g, 1), "wall_s", g->wall_s);
	json_t *lines = json_array(), *cv = json_array(), *fl = json_array();

	json_object_set_new(o, "baseline", g->baseline_path[0] ?
			    json_pack("{s:s, s:i}", "path", g->baseline_path, "units", g->baseline_units) :
			    json_pack("{s:n, s:s}", "path", "note", g->baseline_note));
	for (int k = 0; k < g->nlines; k++)
		json_array_append_new(lines, line_json(&g->lines[k]));
	for (int k = 0; k < GM_CNT_COUNT; k++)
		json_array_append_new(cv, json_pack("{s:s, s:s, s:s, s:o}", "id", gm_counter_name(g->cverdicts[k].id),
						    "verdict", gm_check_verdict_name(g->cverdicts[k].verdict), "message",
						    g->cverdicts[k].message, "code", code_json(g->cverdicts[k].code)));
	for (int k = 0; k < g->nfailures; k++) {
		const struct gm_check_failure *f = &g->failures[k];
		json_t *e = code_json(f->code);
		json_object_set_new(e, "subject", json_string(f->subject));
		json_object_set_new(e, "verdict", json_string(gm_check_verdict_name(f->verdict)));
		json_object_set_new(e, "message", json_string(f->message));
		json_array_append_new(fl, e);
	}
	json_object_set_new(o, "lines", lines);
	json_object_set_new(o, "counter_verdicts", cv);
	json_object_set_new(o, "counters", g->counters.have ? counters_json(&g->counters) : json_null());
	json_object_set_new(o, "failures", fl);
	if (d->burns)
		json_object_set_new(o, "burn", burn_json(&d->burns[i]));
	if (d->runs) {
		json_t *run = run_value(&d->runs[i]);
		json_object_set_new(o, "run", run ? run : json_null());
	}
	return o;
}

gm_status gm_check_json(FILE *f, const struct gm_check_doc *d)
{
	json_t *doc = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:f, s:i}", "schema", GM_CHECK_SCHEMA,
				"schema_version", GM_CHECK_VERSION, "tool_version", d->tool_version, "command",
				d->command, "started_utc", d->started_utc, "mode", d->mode, "from", d->from, "wall_s",
				d->wall_s, "exit_code", gm_check_exit_code(d->gpus, d->ngpus));
	json_t *gpus = json_array();
	int rc;

	if (!doc || !gpus) {
		json_decref(doc);
		json_decref(gpus);
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	}
	for (int i = 0; i < d->ngpus; i++)
		json_array_append_new(gpus, gpu_json(d, i));
	json_object_set_new(doc, "gpus", gpus);
	rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF)
		return gm_fail(GM_ERR_IO, "cannot write the check document");
	return GM_OK;
}
