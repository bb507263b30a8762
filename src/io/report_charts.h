/*
 * report_charts.h - the one table of charts in the HTML report.
 *
 * A family gets its charts by adding rows to gm_report_charts[] in
 * report_charts.c; the page's script (report.js) turns each row into a
 * Chart.js chart over that family's cases. A family without a row still
 * appears in the case table. Pure data, no I/O.
 */
#ifndef GPUMEM_REPORT_CHARTS_H
#define GPUMEM_REPORT_CHARTS_H

struct gm_chart_spec {
	const char *family;   /* cases of this family ("" = any family, see unit) */
	const char *unit;     /* only cases in this unit ("" = any) */
	const char *kind;     /* "line" | "bar" | "scatter" (y against x, with y = x) | "roofline" */
	const char *title;
	const char *x;        /* case param name, "label" (one bar per case), or a field (see report.js) */
	const char *series;   /* param(s) splitting the cases into lines, "a,b"; "" = one series */
	const char *series_names; /* "side=0:read,side=1:write" names of series values; else key=value */
	const char *y;        /* "value" (the case's headline in its unit) or a field */
	const char *model;    /* kept for old rows; the model mark is a rule in report.js (modelMark): the
	                       * launch model's prediction where a case has one, else the warp bound */
	const char *filter;   /* "param=value" the cases must match, or "" */
	const char *ceiling;  /* bar charts: prefixes of the cases drawn as ceiling lines, "a,b";
	                       * a prefix with a dot is a case name in any family, else a label here */
	const char *marks;    /* derived quantity whose values are marked on x ("capacity"), or "" */
	int xlog, ylog;       /* log axes */
	const char *what;     /* caption line 1: what the chart shows */
	const char *how;      /* caption line 2: how to read it */
};

extern const struct gm_chart_spec gm_report_charts[];
extern const int gm_report_ncharts;

#endif
