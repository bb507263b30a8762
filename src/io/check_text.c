/*
 * check_text.c - `gpumem check`'s text: per GPU its verdict, one row per line
 * (value, baseline, margin, verdict), the counters, the failures with code,
 * severity and next step, and the burn's summary.
 */
#include <math.h>
#include <stdio.h>
#include "gpumem/check.h"
#include "gpumem/units.h"

static void lines(FILE *f, const struct gm_check_gpu *g)
{
	fprintf(f, "%-13s %-30s %14s %14s %8s %6s  %s\n", "line", "case", "value", "baseline", "margin", "CoV%",
		"verdict");
	for (int k = 0; k < g->nlines; k++) {
		const struct gm_check_line *l = &g->lines[k];
		char v[32] = "-", b[32] = "-", m[16] = "-", c[16] = "-";
		if (l->measured) {
			snprintf(v, sizeof(v), "%.5g %s", l->value, gm_unit_name(l->unit));
			snprintf(c, sizeof(c), "%.2f", l->cov_pct);
		}
		if (l->have_baseline) {
			snprintf(b, sizeof(b), "%.5g", l->base_median);
			snprintf(m, sizeof(m), "%+.1f%%", l->margin_pct);
		}
		fprintf(f, "%-13s %-30s %14s %14s %8s %6s  %s", l->def->id, l->case_name, v, b, m, c,
			gm_check_verdict_name(l->verdict));
		if (l->verdict != GM_V_PASS || !l->have_baseline)
			fprintf(f, "  (%s)", l->message);
		fputc('\n', f);
	}
}

static void counters(FILE *f, const struct gm_check_gpu *g)
{
	fprintf(f, "\ncounters (NVML, before and after)%s\n", g->counters.have ? "" : ": not read");
	if (!g->counters.have)
		return;
	for (int k = 0; k < GM_CNT_COUNT; k++)
		fprintf(f, "  %-30s %-10s %s\n", gm_counter_name(g->cverdicts[k].id),
			gm_check_verdict_name(g->cverdicts[k].verdict), g->cverdicts[k].message);
}

static void burn(FILE *f, const struct gm_burn *b)
{
	fprintf(f, "\nburn: %.1f of %.1f s%s, %d rounds (%d GEMM, %d memory test), %d samples: %s: %s\n", b->ran_s,
		b->duration_s, b->interrupted ? " (interrupted)" : "", b->rounds, b->gemm_rounds, b->memtest_rounds, b->n,
		gm_check_verdict_name(b->verdict), b->message);
}

void gm_check_text(FILE *f, const struct gm_check_doc *d)
{
	for (int i = 0; i < d->ngpus; i++) {
		const struct gm_check_gpu *g = &d->gpus[i];
		fprintf(f, "%sGPU %d  %s  %s  %s\n", i ? "\n" : "", g->index, g->name, g->uuid[0] ? g->uuid : "(no UUID)",
			g->pci_bus_id);
		if (g->baseline_path[0])
			fprintf(f, "baseline: %s (%d units)\n\n", g->baseline_path, g->baseline_units);
		else
			fprintf(f, "%s\n\n", g->baseline_note);
		lines(f, g);
		counters(f, g);
		if (d->burns)
			burn(f, &d->burns[i]);
		if (g->nfailures)
			fputc('\n', f);
		for (int k = 0; k < g->nfailures; k++) {
			const struct gm_check_failure *x = &g->failures[k];
			fprintf(f, "%s %s %s [%s] %s: %s\n  next: %s\n", gm_check_verdict_name(x->verdict), x->code->code,
				x->code->name, gm_severity_name(x->code->severity), x->subject, x->message,
				x->code->next_step);
		}
		fprintf(f, "\nverdict: %s (GPU %d, %.1f s)\n", gm_check_verdict_name(g->verdict), g->index, g->wall_s);
	}
}
