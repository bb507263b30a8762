/*
 * check.c - the verdict of one GPU (gpumem/check.h): each line against its
 * SKU's baseline, then the counters (check_counters.c), then the GPU's
 * verdict and the process exit code. How a line is judged (docs/CHECK.md):
 *
 *   tolerance = sqrt(baseline spread^2 + baseline noise^2 + this run's noise^2),
 *               never below 1 % of the baseline median;
 *   worse     = how far the value is on the bad side of the baseline median;
 *   pass: worse <= 3 tolerances; warn: up to 6; fail: beyond 6;
 *   erratic:  the run's samples have a CoV of 5 % or more and 10x the
 *             baseline's: fail (another process time-slices the GPU: the
 *             median holds, the samples scatter; docs/FLEET.md).
 *
 * Nothing here is fitted to one unit: the spread and noise are the
 * baseline's and the run's own, the factors are the fleet view's (3 spreads).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/check.h"
#include "gpumem/units.h"

static const char *slow_code(const char *id)
{
	if (!strncmp(id, "hbm", 3) || !strncmp(id, "l2", 2) || !strncmp(id, "l1", 2))
		return "GM-C101";
	if (!strncmp(id, "pcie", 4))
		return "GM-C103";
	if (!strncmp(id, "nvlink", 6))
		return "GM-C104";
	if (!strcmp(id, "alloc"))
		return "GM-C105";
	return "GM-C102";
}

static void fmt_value(double v, enum gm_unit u, char *buf, size_t n)
{
	snprintf(buf, n, "%.4g %s", v, gm_unit_name(u));
}

/* A measured, validated line against its baseline line. */
static void against_baseline(struct gm_check_line *l, const struct gm_baseline_line *bl)
{
	int hib = gm_unit_higher_is_better(l->unit);
	double worse, floor_tol = GM_CHECK_MIN_TOL_FRAC * fabs(bl->median);
	char v[48], m[48];

	l->have_baseline = 1;
	l->base_median = bl->median;
	l->base_spread = bl->spread;
	l->base_cov_pct = bl->cov_pct;
	l->tolerance = sqrt(bl->spread * bl->spread + bl->noise * bl->noise + l->noise * l->noise);
	l->tolerance = fmax(l->tolerance, floor_tol);
	worse = hib ? bl->median - l->value : l->value - bl->median;
	l->margin_pct = bl->median ? -100.0 * worse / fabs(bl->median) : 0;
	l->tolerances_worse = l->tolerance > 0 ? worse / l->tolerance : 0;
	fmt_value(l->value, l->unit, v, sizeof(v));
	fmt_value(bl->median, l->unit, m, sizeof(m));
	if (l->cov_pct >= GM_CHECK_ERRATIC_PCT && l->cov_pct >= GM_CHECK_ERRATIC_K * bl->cov_pct) {
		l->verdict = GM_V_FAIL;
		l->code = gm_check_code_find("GM-C106");
		snprintf(l->message, sizeof(l->message), "erratic samples: CoV %.1f %% against the baseline's %.2f %% "
			 "(median %s vs %s)", l->cov_pct, bl->cov_pct, v, m);
		return;
	}
	if (l->tolerances_worse > GM_CHECK_FAIL_TOL) {
		l->verdict = GM_V_FAIL;
		l->code = gm_check_code_find(slow_code(l->def->id));
	} else if (l->tolerances_worse > GM_CHECK_WARN_TOL) {
		l->verdict = GM_V_WARN;
		l->code = gm_check_code_find("GM-C100");
	} else {
		l->verdict = GM_V_PASS;
	}
	snprintf(l->message, sizeof(l->message), "%s vs baseline %s (%+.1f %%, %.1f tolerances %s)", v, m,
		 l->margin_pct, fabs(l->tolerances_worse), l->tolerances_worse > 0 ? "worse" : "better or equal");
}

static void judge_line(const struct gm_check_line_def *def, const struct gm_run_result *r,
		       const struct gm_baseline *b, struct gm_check_line *l)
{
	const struct gm_case_result *c = gm_result_find(r, def->case_name);
	const struct gm_baseline_line *bl;

	memset(l, 0, sizeof(*l));
	l->def = def;
	snprintf(l->case_name, sizeof(l->case_name), "%s", def->case_name);
	if (!c) {
		l->verdict = GM_V_SKIP;
		snprintf(l->message, sizeof(l->message), "not in this run");
		return;
	}
	l->unit = c->unit;
	if (c->status == GM_CASE_SKIPPED) {
		l->verdict = GM_V_SKIP;
		snprintf(l->message, sizeof(l->message), "skipped: %.170s", c->message);
		return;
	}
	if (c->status != GM_CASE_OK) {
		l->verdict = GM_V_FAIL;
		l->code = gm_check_code_find(c->status == GM_CASE_ERROR ? "GM-C109" : def->judged ? "GM-C107" : "GM-C108");
		snprintf(l->message, sizeof(l->message), "%s: %.170s", c->status == GM_CASE_ERROR ? "error" : "failed",
			 c->message);
		return;
	}
	l->measured = isfinite(c->value.median);
	l->value = c->value.median;
	l->cov_pct = c->ms.cov_pct;
	l->noise = gm_case_noise(c);
	for (int i = 0; !def->judged && i < c->nnotes; i++)
		if (!strcmp(c->notes[i].name, "errors") && c->notes[i].median > 0) {
			l->verdict = GM_V_FAIL;
			l->code = gm_check_code_find("GM-C108");
			snprintf(l->message, sizeof(l->message), "%.0f words found wrong in the timed passes",
				 c->notes[i].median);
			return;
		}
	if (!def->judged) {
		l->verdict = GM_V_PASS;
		snprintf(l->message, sizeof(l->message), "validated (%.4g %s)", l->value, gm_unit_name(l->unit));
		return;
	}
	bl = gm_baseline_find(b, def->case_name);
	if (!bl || bl->unit != c->unit || !l->measured) {
		l->verdict = GM_V_NOJUDGE;
		snprintf(l->message, sizeof(l->message), "%.4g %s; %s", l->value, gm_unit_name(l->unit),
			 !b ? "no baseline" : !bl ? "the baseline has no such case" : "not comparable with the baseline");
		return;
	}
	against_baseline(l, bl);
}

static void add_failure(struct gm_check_gpu *g, const struct gm_check_code *code, const char *subject,
			const char *message, enum gm_check_verdict v)
{
	struct gm_check_failure *f;
	char msg[sizeof(f->message)];

	if (!code || g->nfailures >= GM_CHECK_MAX_FAILURES)
		return;
	snprintf(msg, sizeof(msg), "%s", message);   /* message may lie in g (a line's) */
	f = &g->failures[g->nfailures++];
	f->code = code;
	f->verdict = v;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	memcpy(f->message, msg, sizeof(msg));
}

static enum gm_check_verdict worse_of(enum gm_check_verdict a, enum gm_check_verdict b)
{
	return a > b ? a : b;
}

gm_status gm_check_judge(const struct gm_run_result *r, const struct gm_baseline *b, const char *note,
			 const struct gm_check_counters *c, struct gm_check_gpu *g)
{
	int n, measured = 0;
	const struct gm_check_line_def *defs = gm_check_lines(&n);
	enum gm_check_verdict v = GM_V_PASS;

	g->nlines = 0;
	g->nfailures = 0;
	if (r->have_device) {
		snprintf(g->name, sizeof(g->name), "%s", r->dev.name);
		snprintf(g->uuid, sizeof(g->uuid), "%s", r->dev.uuid);
		snprintf(g->pci_bus_id, sizeof(g->pci_bus_id), "%04x:%02x:%02x.0", (unsigned)r->dev.pci_domain & 0xffff,
			 (unsigned)r->dev.pci_bus & 0xff, (unsigned)r->dev.pci_device & 0xff);
		g->index = r->dev.index;
	}
	if (!b && note != g->baseline_note)
		snprintf(g->baseline_note, sizeof(g->baseline_note), "%s", note ? note : "no baseline");
	g->baseline_units = b ? b->nunits : 0;
	if (c)
		g->counters = *c;   /* the raw reads, for the writers */
	else
		memset(&g->counters, 0, sizeof(g->counters));
	for (int i = 0; i < n && g->nlines < GM_CHECK_MAX_LINES; i++) {
		struct gm_check_line *l = &g->lines[g->nlines++];
		judge_line(&defs[i], r, b, l);
		measured += l->measured;
		if (l->verdict >= GM_V_WARN) {
			v = worse_of(v, l->verdict);
			add_failure(g, l->code, l->def->id, l->message, l->verdict);
		}
	}
	gm_check_judge_counters(c, g);
	for (int i = 0; i < GM_CNT_COUNT; i++) {
		const struct gm_check_counter_verdict *cv = &g->cverdicts[i];
		if (cv->verdict < GM_V_WARN)
			continue;
		v = worse_of(v, cv->verdict);
		add_failure(g, cv->code, gm_counter_name(cv->id), cv->message, cv->verdict);
	}
	if (v < GM_V_WARN && (!b || !measured))
		v = GM_V_NOJUDGE;
	if (!b)
		add_failure(g, gm_check_code_find("GM-C901"), "baseline", g->baseline_note, GM_V_NOJUDGE);
	g->verdict = v;
	return GM_OK;
}
