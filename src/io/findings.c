/*
 * findings.c - the report's findings: one named rule a function, walked in
 * the order of the table at the foot; each writes sentences with their
 * numbers and the anchor of the chart that shows them (findings.h).
 * Rules look at units, kinds, bytes and the model's fields, never at case
 * names: a family that lands tomorrow is covered by the same rules.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/io.h"
#include "gpumem/units.h"
#include "io/findings.h"

#define SLOWDOWN_KEEP 5   /* slowdown findings kept (one per family) */
#define SPEC_KEEP 3
#define MODEL_KEEP 3
#define NOISE_LIST 3
#define SAME_WORK_TOL 0.01
#define SPEC_MIN_OFF 0.05 /* a spec line within 5 % of its reference is not a finding */
#define MODEL_MIN_OFF 0.05

struct sink {
	struct gm_finding *out;
	int n, max;
};

/* A value in its unit for a sentence: sizes in KiB/MiB/GiB, others with 3-4 significant digits. */
static void fmt_value(char *buf, size_t n, double v, enum gm_unit u)
{
	const char *bu[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	if (u == GM_UNIT_BYTES) {
		while (fabs(v) >= 1024 && i < 4) {
			v /= 1024;
			i++;
		}
		snprintf(buf, n, "%.3g %s", v, bu[i]);
	} else if (fabs(v) >= 100)
		snprintf(buf, n, "%.0f %s", v, gm_unit_name(u));
	else
		snprintf(buf, n, "%.3g %s", v, gm_unit_name(u));
}

static int ok(const struct gm_case_result *c)
{
	return c->status == GM_CASE_OK && c->value.median > 0;
}

/* Sort the last k findings of s by score, highest first, and keep the first keep of them. */
static void keep_best(struct sink *s, int first, int keep)
{
	for (int i = first; i < s->n; i++)
		for (int j = i + 1; j < s->n; j++)
			if (s->out[j].score > s->out[i].score) {
				struct gm_finding t = s->out[i];

				s->out[i] = s->out[j];
				s->out[j] = t;
			}
	if (s->n - first > keep)
		s->n = first + keep;
}

/*
 * A new finding of the rule whose findings start at s->out[first]. A full
 * sink gives the rule's weakest slot to a stronger finding (so the result
 * does not depend on the order of the cases); NULL when it is weaker.
 */
static struct gm_finding *add(struct sink *s, int first, const char *rule, const char *anchor_fmt,
			      const char *anchor_arg, double score)
{
	struct gm_finding *f;

	if (s->n == s->max) {
		int weak = -1;

		for (int i = first; i < s->n; i++)
			if (weak < 0 || s->out[i].score < s->out[weak].score)
				weak = i;
		if (weak < 0 || s->out[weak].score >= score)
			return NULL;
		f = &s->out[weak];
	} else
		f = &s->out[s->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->rule, sizeof(f->rule), "%s", rule);
	snprintf(f->anchor, sizeof(f->anchor), anchor_fmt, anchor_arg);
	f->score = score;
	return f;
}

/* The best case doing the same work as c: its family, its kind, its useful bytes within 1 %. */
static const struct gm_case_result *best_same_work(const struct gm_run_result *r, const struct gm_case_result *c)
{
	const struct gm_case_result *best = c;

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *o = &r->cases[i];

		if (!ok(o) || o->kind != c->kind || o->unit != c->unit || strcmp(o->family, c->family) ||
		    fabs(o->traffic.bytes_useful / c->traffic.bytes_useful - 1.0) > SAME_WORK_TOL)
			continue;
		if (gm_unit_higher_is_better(c->unit) ? o->value.median > best->value.median
						      : o->value.median < best->value.median)
			best = o;
	}
	return best;
}

/* The case's slowdown against the best of its work (1 = it is the best); 0 when the rule does not apply. */
static double slowdown_of(const struct gm_run_result *r, const struct gm_case_result *c,
			  const struct gm_case_result **best)
{
	*best = NULL;
	if (!ok(c))
		return 0;
	if (c->kind == GM_KIND_SMEM)
		return c->slowdown;   /* measured against the conflict-free case of its group */
	if (c->kind != GM_KIND_DRAM || c->traffic.bytes_useful <= 0)
		return 0;
	*best = best_same_work(r, c);
	return gm_unit_higher_is_better(c->unit) ? (*best)->value.median / c->value.median
						 : c->value.median / (*best)->value.median;
}

/* Rule "slowdown": per family the case furthest below the best of the same work. */
static void rule_slowdown(const struct gm_run_result *r, struct sink *s)
{
	int first = s->n;

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i], *best = NULL, *wb = NULL;
		double f = slowdown_of(r, c, &best), worst = f;
		int mine = 1;
		struct gm_finding *o;
		char a[48], b[48];

		if (f < GM_FINDINGS_MIN_SLOWDOWN)
			continue;
		for (int j = 0; j < r->ncases && mine; j++) {   /* only the family's worst speaks */
			double g = strcmp(r->cases[j].family, c->family) ? 0 : slowdown_of(r, &r->cases[j], &wb);

			mine = !(g > worst || (g == worst && j < i));
		}
		if (!mine || !(o = add(s, first, "slowdown", "fam-%s", c->family, f)))
			continue;
		fmt_value(a, sizeof(a), c->value.median, c->unit);
		if (best) {
			fmt_value(b, sizeof(b), best->value.median, best->unit);
			snprintf(o->text, sizeof(o->text), "%s does the work of %s %.1fx slower (%s against %s).",
				 c->name, best->name, f, a, b);
		} else
			snprintf(o->text, sizeof(o->text),
				 "%s takes %.1fx the time of the conflict-free access of its group (%s).", c->name, f, a);
	}
	keep_best(s, first, SLOWDOWN_KEEP);
}

/* A spec line's share of its reference in whole %, -1 when it has none. */
static int spec_pct(const struct gm_derived *d)
{
	return d->level[0] && d->value > 0 && d->reference > 0 ? (int)lround(100.0 * d->value / d->reference) : -1;
}

/* Two lines that say the same thing of two levels (FP16 and BF16 FMA at 50 %): the first speaks for both. */
static int same_line(const struct gm_derived *a, const struct gm_derived *b)
{
	return spec_pct(a) >= 0 && spec_pct(a) == spec_pct(b) && a->unit == b->unit && !strcmp(a->quantity, b->quantity) &&
	       !strcmp(a->reference_what, b->reference_what);
}

/* Rule "spec": the spec-sheet lines furthest from their reference (either side). */
static void rule_spec(const struct gm_run_result *r, struct sink *s)
{
	int first = s->n;

	for (int i = 0; i < r->nderived; i++) {
		const struct gm_derived *d = &r->derived[i];
		double off = spec_pct(d) >= 0 ? fabs(log(d->value / d->reference)) : 0;
		struct gm_finding *o;
		char a[48], b[48], also[64] = "";
		int dup = 0;

		for (int j = 0; j < r->nderived; j++)
			if (j != i && same_line(d, &r->derived[j])) {
				size_t l = strlen(also);

				dup |= j < i;
				snprintf(also + l, sizeof(also) - l, "%s%s", l ? ", " : "; ", r->derived[j].level);
			}
		if (dup || off < log(1.0 + SPEC_MIN_OFF) || !(o = add(s, first, "spec", "%s", "spec", off)))
			continue;
		fmt_value(a, sizeof(a), d->value, d->unit);
		fmt_value(b, sizeof(b), d->reference, d->unit);
		snprintf(o->text, sizeof(o->text), "%s %s measured %s, %.0f %% of its reference %s (%s%s%s).", d->level,
			 d->quantity, a, 100.0 * d->value / d->reference, b,
			 d->reference_what[0] ? d->reference_what : "reference", also, also[0] ? " the same" : "");
	}
	keep_best(s, first, SPEC_KEEP);
}

/* Rule "model": the launch model's worst predictions, measured over predicted. */
static void rule_model(const struct gm_run_result *r, struct sink *s)
{
	int first = s->n, n = 0, within = 0;

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];
		double off = ok(c) && c->launch_gbs > 0 ? fabs(log(c->value.median / c->launch_gbs)) : -1;
		struct gm_finding *o;
		char a[48], b[48];

		if (off < 0)
			continue;
		n++;
		within += off <= log(1.0 + MODEL_MIN_OFF);
		if (off <= log(1.0 + MODEL_MIN_OFF) || !(o = add(s, first, "model", "fam-%s", c->family, off)))
			continue;
		fmt_value(a, sizeof(a), c->value.median, c->unit);
		fmt_value(b, sizeof(b), c->launch_gbs, c->unit);
		snprintf(o->text, sizeof(o->text), "The launch model misses %s: measured %s against %s predicted "
			 "(%.0f %%, limited by %s).", c->name, a, b, 100.0 * c->value.median / c->launch_gbs,
			 c->launch_limited_by[0] ? c->launch_limited_by : "-");
	}
	keep_best(s, first, MODEL_KEEP);
	if (n && s->n < s->max) {
		struct gm_finding *o = add(s, s->n, "model", "%s", "cases", 0);

		snprintf(o->text, sizeof(o->text), "The launch model predicts %d of the %d cases it covers within %.0f %%.",
			 within, n, 100.0 * MODEL_MIN_OFF);
	}
}

/* Rule "noise": cases whose samples spread beyond GM_FINDINGS_COV_PCT, the worst named. */
static void rule_noise(const struct gm_run_result *r, struct sink *s)
{
	const struct gm_case_result *top[NOISE_LIST] = { 0 }, *most = NULL;
	int n = 0, nok = 0;
	struct gm_finding *o;
	char list[240] = "";

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];

		if (!ok(c))
			continue;
		nok++;
		if (!most || c->ms.cov_pct > most->ms.cov_pct)
			most = c;
		if (c->ms.cov_pct <= GM_FINDINGS_COV_PCT)
			continue;
		n++;
		for (int k = 0; k < NOISE_LIST; k++)
			if (!top[k] || c->ms.cov_pct > top[k]->ms.cov_pct) {
				memmove(&top[k + 1], &top[k], (NOISE_LIST - 1 - k) * sizeof(top[0]));
				top[k] = c;
				break;
			}
	}
	if (!nok || !(o = add(s, s->n, "noise", "%s", "cases", n)))
		return;
	if (!n) {
		snprintf(o->text, sizeof(o->text), "Every measured case's samples spread %.0f %% or less (CoV; largest: "
			 "%s, %.2f %%).", GM_FINDINGS_COV_PCT, most->name, most->ms.cov_pct);
		return;
	}
	for (int k = 0; k < NOISE_LIST && top[k]; k++) {
		size_t l = strlen(list);

		snprintf(list + l, sizeof(list) - l, "%s%s %.1f %%", k ? ", " : "", top[k]->name, top[k]->ms.cov_pct);
	}
	snprintf(o->text, sizeof(o->text), "%d of %d measured cases spread more than %.0f %% between samples "
		 "(CoV; worst: %s): their medians are less certain.", n, nok, GM_FINDINGS_COV_PCT, list);
}

/* Rule "missing": cases without a number, with the first one's reason. */
static void rule_missing(const struct gm_run_result *r, struct sink *s)
{
	int cnt[4] = { 0 };
	const struct gm_case_result *first = NULL;
	struct gm_finding *o;

	for (int i = 0; i < r->ncases; i++) {
		int st = r->cases[i].status;

		if (st < 0 || st > 3)
			continue;
		cnt[st]++;
		if (st != GM_CASE_OK && !first)
			first = &r->cases[i];
	}
	if (!first || !(o = add(s, s->n, "missing", "%s", "cases", cnt[1] + cnt[2] + cnt[3])))
		return;
	snprintf(o->text, sizeof(o->text), "%d case(s) have no number: %d failed validation, %d skipped, %d "
		 "errored (first: %s, %s%s%.120s).", cnt[1] + cnt[2] + cnt[3], cnt[GM_CASE_FAILED], cnt[GM_CASE_SKIPPED],
		 cnt[GM_CASE_ERROR], first->name, gm_case_status_name(first->status), first->message[0] ? ": " : "",
		 first->message);
}

static void (*const rules[])(const struct gm_run_result *, struct sink *) = {
	rule_slowdown, rule_spec, rule_model, rule_noise, rule_missing,
};

int gm_findings(const struct gm_run_result *r, struct gm_finding *out, int max)
{
	struct sink s = { out, 0, max };

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		rules[i](r, &s);
	return s.n;
}
