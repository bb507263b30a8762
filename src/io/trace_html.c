/*
 * trace_html.c - `gpumem trace --html FILE`: the report as a section of the
 * HTML report page (src/io/html.c's gm_html_write with a section and no run):
 * per kernel its figures, its point against the DRAM roof (an inline SVG),
 * and its memory instructions as a table with a bar for each one's share of
 * the traffic (the wasted part darker), the fitted pattern, the class and
 * the fix. Static HTML: it needs no script.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/io.h"
#include "io/trace_io.h"


/* The kernel against the roof: GB/s over DRAM bytes (log), the roof as a line. */
static void roof_svg(FILE *f, const struct gm_trace_kernel *k)
{
	const double W = 360, H = 160, top = k->roof_gbs > 0 ? k->roof_gbs * 1.15 : 1;
	double x, y;

	if (k->gbs < 0 || k->dram_bytes <= 0 || k->roof_gbs <= 0)
		return;
	x = 40 + (W - 50) * fmin(1, fmax(0, (log10(k->dram_bytes) - 3) / 9));   /* 1 kB .. 1 TB */
	y = H - 20 - (H - 30) * fmin(1, k->gbs / top);
	fprintf(f, "<svg width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"the kernel against the DRAM roof\">"
		"<rect x=\"40\" y=\"10\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"#999\"/>"
		"<line x1=\"40\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-width=\"2\"/>"
		"<text x=\"44\" y=\"%.1f\" font-size=\"11\" fill=\"#c33\">DRAM roof %.0f GB/s</text>"
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#2a6\"/>"
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%.0f GB/s (%.0f %%)</text>"
		"<text x=\"40\" y=\"%.0f\" font-size=\"10\">DRAM bytes, 1 kB .. 1 TB (log)</text></svg>\n",
		W, H, W - 50, H - 30, W - 10, H - 20 - (H - 30) * k->roof_gbs / top, H - 20 - (H - 30) * k->roof_gbs / top,
		H - 24 - (H - 30) * k->roof_gbs / top, k->roof_gbs, x, y, fmin(x + 8, W - 120), y - 6, k->gbs, k->roof_pct,
		H - 4);
}

static void instr_row(FILE *f, const struct gm_trace_kernel *k, const struct gm_trace_insn *x)
{
	char w[96];
	double waste = x->bytes > 0 ? x->excess_bytes / x->bytes : 0;

	gm_trace_where(x->in, 60, w, sizeof(w));
	fprintf(f, "<tr><td>");
	gm_html_escape(f, w);
	fprintf(f, "</td><td>%s %s %d B</td><td>%.0f</td><td>%.2f / %.2f</td>", gm_trace_op_name(x->in->op),
		gm_trace_space_name(x->in->space), x->in->size, x->in->executions, x->fit.meas_per_req,
		x->fit.ideal_per_req);
	fprintf(f, "<td><div style=\"width:160px;background:#eee\"><div style=\"width:%.0fpx;height:10px;"
		"background:linear-gradient(90deg,#c33 %.0f%%,#6a6 %.0f%%)\"></div></div>%.0f %%</td><td>",
		160 * x->share, 100 * waste, 100 * waste, 100 * x->share);
	gm_html_escape(f, x->fit.cls_text);
	fprintf(f, "<br><code>");
	gm_html_escape(f, x->fit.map.known ? x->fit.expr : "");
	fprintf(f, "</code></td><td>");
	if (x->fix.have) {
		if (x->fix.worth)
			fprintf(f, "<b>%s</b>: %.2fx the kernel<br>", x->fix.rewrite[0] ? x->fix.rewrite : "ideal access",
				x->fix.kernel_speedup);
		gm_html_escape(f, x->fix.words);
		if (x->fix.sketch[0] && x->fix.worth) {
			fprintf(f, "<pre style=\"white-space:pre-wrap\">");
			gm_html_escape(f, x->fix.sketch);
			fprintf(f, "</pre>");
		}
	} else if (x->fix.same_as)
		fprintf(f, "the change above");
	(void)k;
	fprintf(f, "</td></tr>\n");
}

/* the waste the kernel's values show (src/analysis/trace_values.c), only where there is some */
static void values_html(FILE *f, const struct gm_trace_kernel *k)
{
	char w[96];

	if (!k->nvf)
		return;
	fprintf(f, "<h3>what the sampled values show</h3>\n<ul>\n");
	for (int i = 0; i < k->nvf; i++) {
		const struct gm_trace_value_finding *x = &k->vf[i];
		gm_trace_where(k->ins[x->ins].in, 60, w, sizeof(w));
		fprintf(f, "<li><b>%s</b> at ", gm_trace_value_rule_name(x->rule));
		gm_html_escape(f, w);
		if (x->refused)
			fprintf(f, ", not judged: ");
		else if (x->priced)
			fprintf(f, ", %.2fx for the whole kernel (%.1f MB fewer): ", x->kernel_speedup, x->bytes / 1e6);
		else
			fprintf(f, ", not priced: ");
		gm_html_escape(f, x->words);
		if (x->sketch[0] && !x->refused) {
			fprintf(f, "<pre style=\"white-space:pre-wrap\">");
			gm_html_escape(f, x->sketch);
			fprintf(f, "</pre>");
		}
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n");
}

static void kernel_html(FILE *f, const struct gm_trace_kernel *k)
{
	const struct gm_trace_launch *l = k->l;

	fprintf(f, "<h2>launch %lld: ", (long long)l->index);
	gm_html_escape(f, l->name ? l->name : l->kernel);
	fprintf(f, "</h2>\n<p>grid %lldx%lldx%lld, block %dx%dx%d. ", (long long)l->grid[0], (long long)l->grid[1],
		(long long)l->grid[2], l->block[0], l->block[1], l->block[2]);
	if (k->time_ms > 0)
		fprintf(f, "Measured %.4f ms. ", k->time_ms);
	if (k->pred_ok)
		fprintf(f, "Predicted %.4f ms, limited by %s. ", k->pred.time_ms, k->limited_by);
	fprintf(f, "</p>\n<p>Primary: ");
	gm_html_escape(f, k->primary);
	fprintf(f, "<br>Secondary: ");
	gm_html_escape(f, k->secondary);
	fprintf(f, "</p>\n");
	roof_svg(f, k);
	fprintf(f, "<table><thead><tr><th>where</th><th>access</th><th>executions</th><th>sectors a request "
		"(measured / ideal)</th><th>share of the traffic (red: above the ideal)</th><th>pattern</th>"
		"<th>fix</th></tr></thead><tbody>\n");
	for (int j = 0; j < k->norder; j++)
		instr_row(f, k, &k->ins[k->order[j]]);
	fprintf(f, "</tbody></table>\n");
	values_html(f, k);
}

/* the run-level findings (src/analysis/trace_run.c), only where there are some */
static void run_html(FILE *f, const struct gm_trace_report *r)
{
	const struct gm_trace_across *u = &r->across;

	if (!u->n)
		return;
	fprintf(f, "<h2>the run: program-level waste</h2>\n<p>%d traced launches, %.4f ms measured in all; the "
		"findings save %.4f ms: the run predicted %.2fx.</p>\n<ul>\n", r->nk, u->run_ms, u->saved_ms,
		u->speedup);
	for (int i = 0; i < u->n; i++) {
		const struct gm_trace_run_finding *x = &u->f[i];
		if (x->first == x->second)   /* clone, domain: one launch's buffers */
			fprintf(f, "<li><b>%s</b>, launch %lld, %.2fx for the run: ", gm_trace_run_rule_name(x->rule),
				(long long)r->k[x->first].l->index, x->run_speedup);
		else
			fprintf(f, "<li><b>%s</b>, launches %lld -&gt; %lld, %.2fx for the run: ",
				gm_trace_run_rule_name(x->rule), (long long)r->k[x->first].l->index,
				(long long)r->k[x->second].l->index, x->run_speedup);
		gm_html_escape(f, x->words);
		fprintf(f, "<pre style=\"white-space:pre-wrap\">");
		gm_html_escape(f, x->sketch);
		fprintf(f, "</pre></li>\n");
	}
	fprintf(f, "</ul>\n");
}

static void section(FILE *f, const void *ctx)
{
	const struct gm_trace_report *r = ctx;

	fprintf(f, "<section id=\"trace\"><h1>gpumem trace: ");
	for (int i = 0; i < r->t->argc; i++) {
		gm_html_escape(f, r->t->argv[i]);
		fputc(' ', f);
	}
	fprintf(f, "</h1>\n<p>");
	gm_html_escape(f, r->t->dev.name ? r->t->dev.name : "unknown device");
	fprintf(f, "; profile ");
	gm_html_escape(f, r->prof ? r->prof->origin : "none");
	fprintf(f, "</p>\n");
	for (int i = 0; i < r->nk; i++)
		kernel_html(f, &r->k[i]);
	run_html(f, r);
	fprintf(f, "</section>\n");
}

gm_status gm_trace_html(FILE *f, const struct gm_trace_report *r)
{
	struct gm_report_doc d = { .section = section, .ctx = r };

	return gm_html_write(f, &d);
}
