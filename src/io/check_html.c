/*
 * check_html.c - `gpumem check --html FILE`: the verdicts as a section of the
 * HTML report page (src/io/html.c's gm_html_write with a section, the runs
 * judged below it and the first one's findings): per GPU its verdict, the lines against the baseline with
 * a bar for each margin, the NVML counters, the failures with code, severity
 * and next step, and the burn's telemetry charted over time as inline SVG
 * (SM and memory clocks, power, temperature; the memory-test phase shaded,
 * clock-event reasons marked). Static HTML: the section needs no script.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/check.h"
#include "gpumem/io.h"
#include "gpumem/units.h"

#define MARGIN_SCALE_PCT 20.0    /* a bar's half width is a 20 % margin */
#define CHART_W 720.0
#define PANEL_H 84.0
#define PANEL_GAP 22.0
#define LEFT 64.0
#define BUCKETS 600              /* at most 2 points a bucket and series, whatever the burn's length */

static const char *colour(enum gm_check_verdict v)
{
	return v == GM_V_FAIL ? "#c33" : v == GM_V_WARN ? "#d80" : v == GM_V_PASS ? "#2a6" : "#888";
}

static void verdict_cell(FILE *f, enum gm_check_verdict v)
{
	fprintf(f, "<td style=\"color:%s;font-weight:bold\">%s</td>", colour(v), gm_check_verdict_name(v));
}

/* A bar from the middle: right and green when better than the baseline, left and coloured by verdict when worse. */
static void margin_bar(FILE *f, const struct gm_check_line *l)
{
	double w = fmin(1, fabs(l->margin_pct) / MARGIN_SCALE_PCT) * 60, tol = 0;

	if (!l->have_baseline || !l->measured) {
		fprintf(f, "<td></td>");
		return;
	}
	if (l->base_median > 0)
		tol = fmin(1, 100 * l->tolerance / l->base_median / MARGIN_SCALE_PCT) * 60;
	fprintf(f, "<td><svg width=\"130\" height=\"14\" role=\"img\" aria-label=\"margin %+.1f %%\">"
		"<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"10\" fill=\"#eee\"/>"
		"<rect x=\"%.1f\" y=\"3\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>"
		"<line x1=\"65\" x2=\"65\" y1=\"0\" y2=\"14\" stroke=\"#333\"/></svg> %+.1f %%</td>",
		l->margin_pct, 65 - tol, 2 * tol, l->margin_pct >= 0 ? 65 : 65 - w, w,
		l->margin_pct >= 0 ? "#2a6" : colour(l->verdict == GM_V_PASS ? GM_V_SKIP : l->verdict), l->margin_pct);
}

static void lines_table(FILE *f, const struct gm_check_gpu *g)
{
	fprintf(f, "<table><thead><tr><th>line</th><th>case</th><th>value</th><th>baseline</th>"
		"<th>margin (grey: the tolerance; half width 20 %%)</th><th>verdict</th><th>why</th></tr></thead><tbody>\n");
	for (int k = 0; k < g->nlines; k++) {
		const struct gm_check_line *l = &g->lines[k];
		fprintf(f, "<tr><td>");
		gm_html_escape(f, l->def->id);
		fprintf(f, "</td><td>");
		gm_html_escape(f, l->case_name);
		if (l->measured)
			fprintf(f, "</td><td>%.5g %s</td>", l->value, gm_unit_name(l->unit));
		else
			fprintf(f, "</td><td>-</td>");
		if (l->have_baseline)
			fprintf(f, "<td>%.5g</td>", l->base_median);
		else
			fprintf(f, "<td>-</td>");
		margin_bar(f, l);
		verdict_cell(f, l->verdict);
		fprintf(f, "<td>");
		gm_html_escape(f, l->message);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

static void counters_table(FILE *f, const struct gm_check_gpu *g)
{
	if (!g->counters.have) {
		fprintf(f, "<p>NVML counters: not read.</p>\n");
		return;
	}
	fprintf(f, "<table><thead><tr><th>counter (NVML, before and after)</th><th>verdict</th><th>reading</th>"
		"</tr></thead><tbody>\n");
	for (int k = 0; k < GM_CNT_COUNT; k++) {
		fprintf(f, "<tr><td>%s</td>", gm_counter_name(g->cverdicts[k].id));
		verdict_cell(f, g->cverdicts[k].verdict);
		fprintf(f, "<td>");
		gm_html_escape(f, g->cverdicts[k].message);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

static void failures_table(FILE *f, const struct gm_check_gpu *g)
{
	if (!g->nfailures)
		return;
	fprintf(f, "<table><thead><tr><th>verdict</th><th>code</th><th>severity</th><th>subject</th><th>what</th>"
		"<th>next step</th></tr></thead><tbody>\n");
	for (int k = 0; k < g->nfailures; k++) {
		const struct gm_check_failure *x = &g->failures[k];
		fprintf(f, "<tr>");
		verdict_cell(f, x->verdict);
		fprintf(f, "<td>%s %s</td><td>%s</td><td>", x->code->code, x->code->name, gm_severity_name(x->code->severity));
		gm_html_escape(f, x->subject);
		fprintf(f, "</td><td>");
		gm_html_escape(f, x->message);
		fprintf(f, "</td><td>");
		gm_html_escape(f, x->code->next_step);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</tbody></table>\n");
}

static double field(const struct gm_burn_sample *s, int k)
{
	return k == 0 ? s->sm_mhz : k == 1 ? s->mem_mhz : k == 2 ? s->power_w : s->temp_c;
}

/* One series as a polyline: each of BUCKETS time buckets gives its minimum and maximum, so no dip is lost. */
static void series(FILE *f, const struct gm_burn *b, int k, double t1, double lo, double hi, double y0)
{
	int i = 0;

	fprintf(f, "<polyline fill=\"none\" stroke=\"#2563a8\" stroke-width=\"1.2\" points=\"");
	for (int u = 0; u < BUCKETS && i < b->n; u++) {
		double tb = t1 * (u + 1) / BUCKETS, x, y[2];
		int imin = i, imax = i;
		for (; i < b->n && (b->s[i].t_s <= tb || u == BUCKETS - 1); i++) {
			imin = field(&b->s[i], k) < field(&b->s[imin], k) ? i : imin;
			imax = field(&b->s[i], k) > field(&b->s[imax], k) ? i : imax;
		}
		if (i == imin && i == imax)   /* an empty bucket */
			continue;
		x = LEFT + (CHART_W - LEFT - 8) * (tb - 0.5 * t1 / BUCKETS) / t1;
		for (int e = 0; e < 2; e++) {   /* the earlier of the two first */
			int j = (e == 0) == (imin <= imax) ? imin : imax;
			y[e] = y0 + PANEL_H * (1 - (field(&b->s[j], k) - lo) / (hi - lo));
		}
		fprintf(f, "%.1f,%.1f %.1f,%.1f ", x, y[0], x, y[1]);
	}
	fprintf(f, "\"/>\n");
}

/* The burn's four series over time, one panel each, the memory test's rounds shaded, reasons ticked in red. */
static void burn_chart(FILE *f, const struct gm_burn *b)
{
	static const char *const names[] = { "SM clock, MHz", "memory clock, MHz", "power, W", "temperature, C" };
	double t1 = b->n ? fmax(b->s[b->n - 1].t_s, 1e-3) : 1, H = 4 * (PANEL_H + PANEL_GAP) + 16;

	if (b->n < 2) {
		fprintf(f, "<p>No telemetry was sampled (NVML absent or the burn too short).</p>\n");
		return;
	}
	fprintf(f, "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"the burn's telemetry\">\n", CHART_W, H);
	for (int i = 0; i < b->n; i++) {   /* the memory test's stretches, and the moments with a clock-event reason */
		double xa = LEFT + (CHART_W - LEFT - 8) * (i ? b->s[i - 1].t_s : 0) / t1;
		double xb = LEFT + (CHART_W - LEFT - 8) * b->s[i].t_s / t1;
		if (b->s[i].phase == 1)
			fprintf(f, "<rect x=\"%.1f\" y=\"0\" width=\"%.2f\" height=\"%.0f\" fill=\"#e8f0fb\"/>", xa,
				fmax(xb - xa, 0.3), H - 16);
		if (b->s[i].reasons)
			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\" stroke=\"#c33\" stroke-opacity=\"0.5\">"
				"<title>%.1f s: reasons 0x%llx</title></line>", xb, xb, H - 16, b->s[i].t_s,
				(unsigned long long)b->s[i].reasons);
	}
	fputc('\n', f);
	for (int k = 0; k < 4; k++) {
		double lo = INFINITY, hi = -INFINITY, y0 = 14 + k * (PANEL_H + PANEL_GAP), pad;
		for (int i = 0; i < b->n; i++) {
			lo = fmin(lo, field(&b->s[i], k));
			hi = fmax(hi, field(&b->s[i], k));
		}
		pad = fmax(0.05 * (hi - lo), fmax(0.01 * fabs(hi), 1));
		lo -= pad;
		hi += pad;
		fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">%s</text>"
			"<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>"
			"<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">%.0f</text>"
			"<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\">%.0f</text>\n",
			LEFT, y0 - 3, names[k], LEFT, y0, CHART_W - LEFT - 8, PANEL_H, LEFT - 4, y0 + 10, hi, LEFT - 4,
			y0 + PANEL_H, lo);
		series(f, b, k, t1, lo, hi, y0);
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\">0 .. %.1f s; shaded: the memory test's rounds "
		"(else the checked GEMM); red: a clock-event reason</text></svg>\n", LEFT, H - 3, t1);
}

static void burn_part(FILE *f, const struct gm_burn *b)
{
	fprintf(f, "<h2>Burn: %.1f of %.1f s%s, %d rounds (%d GEMM, %d memory test), %d samples: "
		"<span style=\"color:%s\">%s</span></h2>\n<p>", b->ran_s, b->duration_s, b->interrupted ? " (interrupted)" : "",
		b->rounds, b->gemm_rounds, b->memtest_rounds, b->n, colour(b->verdict), gm_check_verdict_name(b->verdict));
	gm_html_escape(f, b->message);
	fprintf(f, "</p>\n");
	burn_chart(f, b);
}

static void section(FILE *f, const void *ctx)
{
	const struct gm_check_doc *d = ctx;

	fprintf(f, "<section id=\"check\"><h1>");
	gm_html_escape(f, d->command);
	fprintf(f, "</h1>\n<p>gpumem %s, %s, mode %s, %.1f s</p>\n", d->tool_version, d->started_utc, d->mode, d->wall_s);
	for (int i = 0; i < d->ngpus; i++) {
		const struct gm_check_gpu *g = &d->gpus[i];
		fprintf(f, "<h2>GPU %d ", g->index);
		gm_html_escape(f, g->name);
		fprintf(f, ": <span style=\"color:%s\">%s</span></h2>\n<p>", colour(g->verdict),
			gm_check_verdict_name(g->verdict));
		gm_html_escape(f, g->uuid[0] ? g->uuid : "(no UUID)");
		fprintf(f, " %s; ", g->pci_bus_id);
		if (g->baseline_path[0]) {
			fprintf(f, "baseline ");
			gm_html_escape(f, g->baseline_path);
			fprintf(f, " (%d units)", g->baseline_units);
		} else
			gm_html_escape(f, g->baseline_note);
		fprintf(f, "</p>\n");
		failures_table(f, g);
		lines_table(f, g);
		counters_table(f, g);
		if (d->burns)
			burn_part(f, &d->burns[i]);
	}
	fprintf(f, "</section>\n");
}

gm_status gm_check_html(FILE *f, const struct gm_check_doc *d)
{
	const char *labels[64];
	int n = d->runs ? (d->ngpus < 64 ? d->ngpus : 64) : 0;

	for (int i = 0; i < n; i++)
		labels[i] = d->gpus[i].uuid[0] ? d->gpus[i].uuid : d->gpus[i].name;
	return gm_html_write(f, &(struct gm_report_doc){ d->runs, labels, n, d->findings, n ? d->nfindings : 0, NULL,
							 section, d });
}
