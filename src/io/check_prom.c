/*
 * check_prom.c - `gpumem check --prometheus FILE`: the verdicts in the
 * Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector (the CLI writes the file atomically: a scrape never sees
 * half of it). Every metric is a gauge; each family's HELP and TYPE come once,
 * before its samples. docs/CHECK.md shows an example.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/check.h"
#include "gpumem/units.h"

/* A label value with '\', '"' and newlines escaped as the format wants. */
static void label(FILE *f, const char *key, const char *v, int first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", key);
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f), fputc(*v, f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

static void gpu_labels(FILE *f, const struct gm_check_gpu *g)
{
	char idx[16];

	snprintf(idx, sizeof(idx), "%d", g->index);
	label(f, "gpu", idx, 1);
	label(f, "uuid", g->uuid, 0);
	label(f, "model", g->name, 0);
}

static void value(FILE *f, double v)
{
	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %.10g\n", v);
}

static void family(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* verdict as a number: 0 pass, 1 skip, 2 not judged, 3 warn, 4 fail (the enum's order, by gravity) */
static void per_gpu(FILE *f, const struct gm_check_doc *d)
{
	family(f, "gpumem_check_verdict", "GPU verdict: 0 pass, 2 not judged (no baseline), 3 warn, 4 fail");
	for (int i = 0; i < d->ngpus; i++) {
		fputs("gpumem_check_verdict{", f);
		gpu_labels(f, &d->gpus[i]);
		fputc('}', f);
		value(f, d->gpus[i].verdict);
	}
	family(f, "gpumem_check_exit_code", "the exit code gpumem check gives for this GPU (0, 8 warn, 9 fail, 10 unknown)");
	for (int i = 0; i < d->ngpus; i++) {
		fputs("gpumem_check_exit_code{", f);
		gpu_labels(f, &d->gpus[i]);
		fputc('}', f);
		value(f, gm_check_exit_code(&d->gpus[i], 1));
	}
	family(f, "gpumem_check_baseline_units", "good units in the baseline the GPU was judged by (0 = none)");
	for (int i = 0; i < d->ngpus; i++) {
		fputs("gpumem_check_baseline_units{", f);
		gpu_labels(f, &d->gpus[i]);
		fputc('}', f);
		value(f, d->gpus[i].baseline_units);
	}
}

static void line_metric(FILE *f, const struct gm_check_doc *d, const char *name, const char *help, int which)
{
	family(f, name, help);
	for (int i = 0; i < d->ngpus; i++)
		for (int k = 0; k < d->gpus[i].nlines; k++) {
			const struct gm_check_line *l = &d->gpus[i].lines[k];
			double v = which == 0 ? (double)l->verdict : which == 1 ? l->value : which == 2 ? l->base_median : l->margin_pct;
			if (which == 1 && !l->measured)
				continue;
			if (which >= 2 && !l->have_baseline)
				continue;
			fprintf(f, "%s{", name);
			gpu_labels(f, &d->gpus[i]);
			label(f, "line", l->def->id, 0);
			label(f, "case", l->case_name, 0);
			if (which == 1 || which == 2)
				label(f, "unit", gm_unit_name(l->unit), 0);
			fputc('}', f);
			value(f, v);
		}
}

static void counters(FILE *f, const struct gm_check_doc *d)
{
	family(f, "gpumem_check_counter", "NVML error counter after the check (only where NVML gives it)");
	for (int i = 0; i < d->ngpus; i++)
		for (int k = 0; k < GM_CNT_COUNT && d->gpus[i].counters.have; k++) {
			const struct gm_counter_read *r = &d->gpus[i].counters.after[k];
			if (r->state != GM_CNT_OK)
				continue;
			fputs("gpumem_check_counter{", f);
			gpu_labels(f, &d->gpus[i]);
			label(f, "counter", gm_counter_name((enum gm_counter_id)k), 0);
			fputc('}', f);
			value(f, (double)r->value);
		}
	family(f, "gpumem_check_counter_supported", "1 when NVML gave the counter, 0 when absent or unsupported");
	for (int i = 0; i < d->ngpus; i++)
		for (int k = 0; k < GM_CNT_COUNT; k++) {
			fputs("gpumem_check_counter_supported{", f);
			gpu_labels(f, &d->gpus[i]);
			label(f, "counter", gm_counter_name((enum gm_counter_id)k), 0);
			fputc('}', f);
			value(f, d->gpus[i].counters.have && d->gpus[i].counters.after[k].state == GM_CNT_OK);
		}
}

static void failures(FILE *f, const struct gm_check_doc *d)
{
	family(f, "gpumem_check_failure", "1 per failure or warning, with its code and severity (drain, reset, inspect)");
	for (int i = 0; i < d->ngpus; i++)
		for (int k = 0; k < d->gpus[i].nfailures; k++) {
			const struct gm_check_failure *x = &d->gpus[i].failures[k];
			fputs("gpumem_check_failure{", f);
			gpu_labels(f, &d->gpus[i]);
			label(f, "code", x->code->code, 0);
			label(f, "name", x->code->name, 0);
			label(f, "severity", gm_severity_name(x->code->severity), 0);
			label(f, "subject", x->subject, 0);
			label(f, "verdict", gm_check_verdict_name(x->verdict), 0);
			fputc('}', f);
			value(f, 1);
		}
}

gm_status gm_check_prometheus(FILE *f, const struct gm_check_doc *d)
{
	per_gpu(f, d);
	line_metric(f, d, "gpumem_check_line_verdict", "line verdict: 0 pass, 1 skip, 2 not judged, 3 warn, 4 fail", 0);
	line_metric(f, d, "gpumem_check_line_value", "the line's measured median, in its unit", 1);
	line_metric(f, d, "gpumem_check_line_baseline", "the baseline's median for the line, in its unit", 2);
	line_metric(f, d, "gpumem_check_line_margin_percent", "value against the baseline median, %, positive = better", 3);
	counters(f, d);
	failures(f, d);
	family(f, "gpumem_check_duration_seconds", "wall time of the check");
	fputs("gpumem_check_duration_seconds", f);
	value(f, d->wall_s);
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write the Prometheus text") : GM_OK;
}
