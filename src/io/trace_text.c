/*
 * trace_text.c - `gpumem trace`'s report as text (docs/TRACE.md, "Reading
 * the report"): the program and the device, then per traced launch the
 * kernel's figures, its bottlenecks, one row per memory instruction (largest
 * traffic first) with its fitted pattern and class, and the fixes.
 */
#include <stdio.h>
#include <string.h>
#include "io/trace_io.h"

static void head(FILE *f, const struct gm_trace_report *r)
{
	const struct gm_trace *t = r->t;

	fprintf(f, "program  ");
	for (int i = 0; i < t->argc; i++)
		fprintf(f, "%s%s", i ? " " : "", t->argv[i]);
	if (t->signal)
		fprintf(f, "  (killed by signal %d)", t->signal);
	else if (t->exit_status >= 0)
		fprintf(f, "  (exit %d)", t->exit_status);
	fprintf(f, "%s\n", t->timed_out ? ", timed out" : "");
	fprintf(f, "device   %s%s%s%s\n", t->dev.name ? t->dev.name : "unknown", t->dev.uuid ? " (" : "",
		t->dev.uuid ? t->dev.uuid : "", t->dev.uuid ? ")" : "");
	fprintf(f, "profile  %s (roof: its dense DRAM read bandwidth, %.0f GB/s)\n", r->prof ? r->prof->origin : "none",
		r->prof ? r->prof->read_gbs : 0.0);
	for (int i = 0; i < t->nnotes; i++)
		fprintf(f, "note     %s\n", t->notes[i]);
}

/* Memory-bound or not (docs/TRACE.md, "Memory-bound"): each level's time at its roof against the measured. */
static void bound_line(FILE *f, const struct gm_trace_kernel *k)
{
	if (k->memory_bound < 0 || !k->bound_level)
		return;
	fprintf(f, "bound      %s: %s needs %.0f %% of the measured time at its roof (DRAM %.0f %%, L2 %.0f %%, L1 "
		"%.0f %%; memory-bound from %.0f %%)\n", k->memory_bound ? "memory-bound" : "not memory-bound (latency, "
		"compute or synchronisation)", k->bound_level, 100 * k->bound_share,
		k->bound_dram_ms >= 0 ? 100 * k->bound_dram_ms / k->time_ms : 0, 100 * k->bound_l2_ms / k->time_ms,
		100 * k->bound_l1_ms / k->time_ms, 100 * GM_TRACE_MEMORY_BOUND);
}

static void figures(FILE *f, const struct gm_trace_kernel *k)
{
	const struct gm_trace_launch *l = k->l;

	fprintf(f, "\n== launch %lld: %s\n", (long long)l->index, l->name ? l->name : l->kernel);
	fprintf(f, "grid %lldx%lldx%lld, block %dx%dx%d, %lld threads, %d register%s, %lld B shared\n",
		(long long)l->grid[0], (long long)l->grid[1], (long long)l->grid[2], l->block[0], l->block[1],
		l->block[2], (long long)k->threads, l->registers, l->registers == 1 ? "" : "s",
		(long long)(l->shared_static + (l->shared_dynamic > 0 ? l->shared_dynamic : 0)));
	if (k->occ.limit)   /* rule OC */
		fprintf(f, "occupancy  %d blocks an SM of %d, capped by %s\n", k->occ.blocks, k->occ.of, k->occ.limit);
	if (k->time_ms > 0)
		fprintf(f, "time       %.4f ms (%s)\n", k->time_ms, l->time_source ? l->time_source : "measured");
	else
		fprintf(f, "time       not measured\n");
	if (k->dram_bytes >= 0)
		fprintf(f, "DRAM       %.3f MB (%s)", k->dram_bytes / 1e6, k->dram_measured ? "measured" : "predicted");
	else
		fprintf(f, "DRAM       unknown");
	if (k->gbs >= 0)
		fprintf(f, ", %.1f GB/s = %.0f %% of the %.0f GB/s roof", k->gbs, k->roof_pct, k->roof_gbs);
	fprintf(f, "\n");
	bound_line(f, k);
	if (k->pred_ok) {
		fprintf(f, "predicted  %.4f ms", k->pred.time_ms);
		if (k->pred_lo_ms > 0 && k->pred_hi_ms > 0)
			fprintf(f, " [%.4f, %.4f]", k->pred_lo_ms, k->pred_hi_ms);
		if (k->time_ms > 0)
			fprintf(f, " (%+.1f %% against the measured)", k->pred_err_pct);
		fprintf(f, ", limited by %s, DRAM %.3f MB read + %.3f MB written\n", k->limited_by,
			k->pred.dram_read_bytes / 1e6, k->pred.dram_write_bytes / 1e6);
		if (k->steps_ms > 0)
			fprintf(f, "           (of which %.4f ms the barrier steps of its shared-memory loop, rule B)\n",
				k->steps_ms);
		if (k->pred_why[0])
			fprintf(f, "           (%s)\n", k->pred_why);
	} else
		fprintf(f, "predicted  none: %s\n", k->pred_why);
	fprintf(f, "primary    %s\nsecondary  %s\n", k->primary, k->secondary);
	if (l->lineinfo == 0)
		fprintf(f, "lines      the kernel has no line information: build it with nvcc -lineinfo (or "
			"-G) to see file:line\n");
}

static void fmt_per(double v, char *buf, size_t n)
{
	if (v < 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", v);
}

/* Instructions of one line that differ only by their offset (an unrolled loop's pieces): one row. */
static int same_row(const struct gm_trace_insn *a, const struct gm_trace_insn *b)
{
	const struct gm_trace_map *x = &a->fit.map, *y = &b->fit.map;

	if (a->in->line != b->in->line || a->in->line <= 0 || a->in->op != b->in->op || a->in->space != b->in->space ||
	    a->in->size != b->in->size || a->fit.cls != b->fit.cls || a->fit.cls_k != b->fit.cls_k || !x->known ||
	    !y->known || x->nmodes != y->nmodes || x->iter_step != y->iter_step || a->fit.check_ok != b->fit.check_ok ||
	    (a->in->file && b->in->file && strcmp(a->in->file, b->in->file)))
		return 0;
	for (int q = 0; q < x->nmodes; q++)
		if (memcmp(&x->mode[q], &y->mode[q], sizeof(x->mode[q])))
			return 0;
	return 1;
}

/* x and the n - 1 instructions after it in the order (the same row): one line, executions and shares summed. */
static void instr_row(FILE *f, const struct gm_trace_insn *const *xs, int n)
{
	const struct gm_trace_insn *x = xs[0];
	const struct gm_trace_instr *in = x->in;
	const struct gm_trace_fit *fit = &x->fit;
	char w[64], m[16], id[16], mo[16], chk[24];
	double execs = 0, share = 0;

	for (int q = 0; q < n; q++)
		execs += xs[q]->in->executions, share += xs[q]->share;
	gm_trace_where(in, 40, w, sizeof(w));
	if (n > 1)
		snprintf(w + strlen(w), sizeof(w) - strlen(w), " x%d", n);
	fmt_per(fit->meas_per_req, m, sizeof(m));
	fmt_per(fit->ideal_per_req, id, sizeof(id));
	fmt_per(fit->model_per_req, mo, sizeof(mo));
	if (fit->check_ok == 1)
		snprintf(chk, sizeof(chk), "ok");
	else if (fit->check_ok == 0)
		snprintf(chk, sizeof(chk), "%+.1f %%", fit->check_diff_pct);
	else
		snprintf(chk, sizeof(chk), "-");
	fprintf(f, "  %-22s %-6s %-6s %2d %12.0f %8s %6s %7s %8s %5.0f %%  %s\n", w, gm_trace_op_name(in->op),
		gm_trace_space_name(in->space), in->size, execs, m, id, mo, chk, 100 * share, fit->cls_text);
	if (fit->map.known) {
		fprintf(f, "  %-22s index %s", "", fit->expr);
		if (n > 1)
			fprintf(f, " (and %d more pieces at other offsets)", n - 1);
		if (fit->map.niter_tab) {
			fprintf(f, " + T[iter], T =");
			for (int q = 0; q < fit->map.niter_tab && q < 8; q++)
				fprintf(f, "%s%lld", q ? ", " : " ", (long long)fit->map.iter_tab[q]);
			fprintf(f, "%s (%d iterations)", fit->map.niter_tab > 8 ? ", ..." : "", fit->iters);
		} else if (fit->map.iter_step)
			fprintf(f, " %s iter*%lld (%d iterations)", fit->map.iter_step < 0 ? "-" : "+",
				(long long)(fit->map.iter_step < 0 ? -fit->map.iter_step : fit->map.iter_step), fit->iters);
		if (fit->map.assumed) {
			static const char *const nm[] = { "tx", "ty", "tz", "bx", "by", "bz" };
			fprintf(f, " (strides of");
			for (int v = 0; v < 6; v++)
				if (fit->map.assumed >> v & 1)
					fprintf(f, " %s", nm[v]);
			fprintf(f, " assumed: the samples never varied them)");
		}
		fprintf(f, "\n");
	} else if (fit->why[0])
		fprintf(f, "  %-22s %s\n", "", fit->why);
}

static void sketch(FILE *f, const char *s)
{
	while (*s) {
		size_t len = strcspn(s, "\n");
		fprintf(f, "      %.*s\n", (int)len, s);
		s += len + (s[len] == '\n');
	}
}

static void fix_rows(FILE *f, const struct gm_trace_kernel *k)
{
	int any = 0;

	for (int j = 0; j < k->norder; j++) {
		const struct gm_trace_insn *x = &k->ins[k->order[j]];
		char w[64];
		if (!x->fix.have)
			continue;
		if (!any++)
			fprintf(f, "fixes (the most time wasted first):\n");
		gm_trace_where(x->in, 40, w, sizeof(w));
		fprintf(f, "  %s %s", w, gm_trace_op_name(x->in->op));
		if (x->fix.ninstr > 1)
			fprintf(f, " (%d instructions, one change)", x->fix.ninstr);
		fprintf(f, ": ");
		if (x->fix.worth)
			fprintf(f, "%s, predicted %.2fx for the pattern, %.2fx for the whole kernel (%.0f %% of its memory "
				"time)\n    %s\n", x->fix.rewrite[0] ? x->fix.rewrite : "the ideal access",
				x->fix.pattern_speedup, x->fix.kernel_speedup, 100 * x->fix.share, x->fix.words);
		if (x->fix.worth && x->fix.change[0] && strcmp(x->fix.change, x->fix.words))
			fprintf(f, "    rewrite: %s\n", x->fix.change);
		if (!x->fix.worth)
			fprintf(f, "%s\n", x->fix.words);
		if (x->fix.sketch[0] && (x->fix.worth || x->fit.cls == GM_TC_GATHER ||
					    x->fit.cls == GM_TC_ROWSTARTS || x->fit.cls == GM_TC_COMPUTED))
			sketch(f, x->fix.sketch);
	}
}

/* the waste the kernel's values show (src/analysis/trace_values.c), only where there is some */
static void value_rows(FILE *f, const struct gm_trace_kernel *k)
{
	for (int i = 0; i < k->nvf; i++) {
		const struct gm_trace_value_finding *x = &k->vf[i];
		char w[64];
		if (!i)
			fprintf(f, "values (what the sampled values show):\n");
		gm_trace_where(k->ins[x->ins].in, 40, w, sizeof(w));
		fprintf(f, "  %s %s: %s", w, gm_trace_op_name(k->ins[x->ins].in->op), gm_trace_value_rule_name(x->rule));
		if (x->refused)
			fprintf(f, ", not judged\n");
		else if (x->priced)
			fprintf(f, ", predicted %.2fx for the whole kernel (%.1f MB fewer)\n", x->kernel_speedup, x->bytes / 1e6);
		else
			fprintf(f, ", not priced: the kernel has no prediction (%.1f MB fewer)\n", x->bytes / 1e6);
		fprintf(f, "    %s\n", x->words);
		if (x->sketch[0] && !x->refused)
			sketch(f, x->sketch);
	}
}

/* the run-level findings (src/analysis/trace_run.c), only where there are some */
static void run_rows(FILE *f, const struct gm_trace_report *r)
{
	const struct gm_trace_across *u = &r->across;

	if (!u->n)
		return;
	fprintf(f, "\n== the run: %d traced launches, %.4f ms measured in all; program-level waste (between launches, "
		"in a launch's buffers), %.4f ms: the run predicted %.2fx\n", r->nk, u->run_ms, u->saved_ms, u->speedup);
	for (int i = 0; i < u->n; i++) {
		const struct gm_trace_run_finding *x = &u->f[i];
		if (x->first == x->second)   /* clone, domain: one launch's buffers */
			fprintf(f, "  %s, launch %lld: %.2fx for the run\n", gm_trace_run_rule_name(x->rule),
				(long long)r->k[x->first].l->index, x->run_speedup);
		else
			fprintf(f, "  %s, launches %lld -> %lld: %.2fx for the run\n", gm_trace_run_rule_name(x->rule),
				(long long)r->k[x->first].l->index, (long long)r->k[x->second].l->index, x->run_speedup);
		fprintf(f, "    %s\n", x->words);
		sketch(f, x->sketch);
	}
}

void gm_trace_text(FILE *f, const struct gm_trace_report *r)
{
	head(f, r);
	for (int i = 0; i < r->nk; i++) {
		const struct gm_trace_kernel *k = &r->k[i];
		figures(f, k);
		fprintf(f, "\n  %-22s %-6s %-6s %2s %12s %8s %6s %7s %8s %7s  %s\n", "where", "op", "space", "B",
			"executions", "per req", "ideal", "model", "check", "share", "pattern");
		static char shown[GM_TRACE_MAX_INSNS];
		memset(shown, 0, sizeof(shown));
		for (int j = 0; j < k->norder; j++) {
			const struct gm_trace_insn *xs[64];
			int n = 0;
			if (shown[j])
				continue;
			xs[n++] = &k->ins[k->order[j]];
			for (int q = j + 1; q < k->norder && n < 64; q++)
				if (!shown[q] && same_row(xs[0], &k->ins[k->order[q]])) {
					xs[n++] = &k->ins[k->order[q]];
					shown[q] = 1;
				}
			instr_row(f, xs, n);
		}
		if (!k->nins)
			fprintf(f, "  (no memory instruction was traced)\n");
		else if (k->norder < k->nins)
			fprintf(f, "  (%d more instructions with less traffic not listed)\n", k->nins - k->norder);
		fix_rows(f, k);
		value_rows(f, k);
	}
	run_rows(f, r);
}
