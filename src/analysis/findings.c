/*
 * findings.c - the report's findings: one named rule a function, walked in
 * the order of the table at the foot; each writes sentences with their
 * numbers and the anchor of the chart that shows them (findings.h).
 * Rules look at units, kinds, bytes and the model's fields, never at case
 * names: a family that lands tomorrow is covered by the same rules.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/io.h"
#include "gpumem/units.h"
#include "gpumem/findings.h"

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

/*
 * Each case's slowdown against the best case doing the same work (its family,
 * kind and unit, its useful bytes within SAME_WORK_TOL), for every case at
 * once: the candidates sorted by (family, kind, unit, bytes) and a window of
 * equal work slid over them with a deque of its best values, so a run of
 * 100,000 cases costs a sort, not a pass over the run per case.
 */
struct work {
	const struct gm_case_result *c;
	double key;   /* the value with "higher is better": median, or minus it */
	int idx;
};

static int work_cmp(const void *pa, const void *pb)
{
	const struct gm_case_result *a = ((const struct work *)pa)->c, *b = ((const struct work *)pb)->c;
	int d = strcmp(a->family, b->family);

	if (d)
		return d;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->unit != b->unit)
		return a->unit < b->unit ? -1 : 1;
	if (a->traffic.bytes_useful != b->traffic.bytes_useful)
		return a->traffic.bytes_useful < b->traffic.bytes_useful ? -1 : 1;
	return ((const struct work *)pa)->idx - ((const struct work *)pb)->idx;
}

static int same_group(const struct gm_case_result *a, const struct gm_case_result *b)
{
	return !strcmp(a->family, b->family) && a->kind == b->kind && a->unit == b->unit;
}

/* The slowdown of the cases w[0..n) (one group, sorted by bytes) into slow[] and best[], by case index. */
static void slide_group(const struct work *w, int n, int *dq, double *slow, int *best)
{
	int head = 0, tail = 0, lo = 0, hi = 0;

	for (int i = 0; i < n; i++) {
		double b = w[i].c->traffic.bytes_useful;
		const struct work *top;

		while (hi < n && w[hi].c->traffic.bytes_useful <= b * (1.0 + SAME_WORK_TOL)) {
			while (tail > head && w[dq[tail - 1]].key < w[hi].key)
				tail--;
			dq[tail++] = hi++;
		}
		while (lo < n && w[lo].c->traffic.bytes_useful < b * (1.0 - SAME_WORK_TOL))
			lo++;
		while (dq[head] < lo)
			head++;
		top = w[dq[head]].key > w[i].key ? &w[dq[head]] : &w[i];
		best[w[i].idx] = top->idx;
		slow[w[i].idx] = gm_unit_higher_is_better(w[i].c->unit) ? top->c->value.median / w[i].c->value.median
									: w[i].c->value.median / top->c->value.median;
	}
}

/* slow[i]: case i's slowdown (0 where the rule does not apply); best[i]: the best case's index or -1. */
static int slowdowns(const struct gm_run_result *r, double *slow, int *best)
{
	struct work *w = malloc((size_t)(r->ncases ? r->ncases : 1) * sizeof(*w));
	int *dq = malloc((size_t)(r->ncases ? r->ncases : 1) * sizeof(*dq));
	int n = 0;

	if (!w || !dq) {
		free(w);
		free(dq);
		return -1;
	}
	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];

		best[i] = -1;
		slow[i] = ok(c) && c->kind == GM_KIND_SMEM ? c->slowdown : 0; /* against its group's conflict-free case */
		if (ok(c) && c->kind == GM_KIND_DRAM && c->traffic.bytes_useful > 0)
			w[n++] = (struct work){ c, gm_unit_higher_is_better(c->unit) ? c->value.median : -c->value.median, i };
	}
	qsort(w, (size_t)n, sizeof(*w), work_cmp);
	for (int g = 0, e; g < n; g = e) {
		for (e = g + 1; e < n && same_group(w[g].c, w[e].c); e++)
			;
		slide_group(w + g, e - g, dq, slow, best);
	}
	free(w);
	free(dq);
	return 0;
}

struct fam_slow {
	const char *family;
	double slow;
	int idx;
};

static int fam_slow_cmp(const void *pa, const void *pb)
{
	const struct fam_slow *a = pa, *b = pb;
	int d = strcmp(a->family, b->family);

	if (d)
		return d;
	if (a->slow != b->slow)
		return a->slow > b->slow ? -1 : 1;
	return a->idx - b->idx;
}

/* Only the family's worst speaks: zero every slowdown but the largest of each family (the first on a tie). */
static void worst_of_family(const struct gm_run_result *r, double *slow)
{
	struct fam_slow *f = malloc((size_t)(r->ncases ? r->ncases : 1) * sizeof(*f));

	if (!f)
		return;
	for (int i = 0; i < r->ncases; i++)
		f[i] = (struct fam_slow){ r->cases[i].family, slow[i], i };
	qsort(f, (size_t)r->ncases, sizeof(*f), fam_slow_cmp);
	for (int i = 0; i < r->ncases; i++)
		if (i > 0 && !strcmp(f[i].family, f[i - 1].family))
			slow[f[i].idx] = 0;
	free(f);
}

/* Rule "slowdown": per family the case furthest below the best of the same work. */
static void rule_slowdown(const struct gm_run_result *r, struct sink *s)
{
	int first = s->n, n = r->ncases;
	double *slow = malloc((size_t)(n ? n : 1) * sizeof(*slow));
	int *best = malloc((size_t)(n ? n : 1) * sizeof(*best));

	if (!slow || !best || slowdowns(r, slow, best)) {
		free(slow);
		free(best);
		return;
	}
	worst_of_family(r, slow);
	for (int i = 0; i < n; i++) {
		const struct gm_case_result *c = &r->cases[i];
		struct gm_finding *o;
		char a[48], b[48];

		if (slow[i] < GM_FINDINGS_MIN_SLOWDOWN || !(o = add(s, first, "slowdown", "fam-%s", c->family, slow[i])))
			continue;
		fmt_value(a, sizeof(a), c->value.median, c->unit);
		if (best[i] >= 0) {
			const struct gm_case_result *bc = &r->cases[best[i]];

			fmt_value(b, sizeof(b), bc->value.median, bc->unit);
			snprintf(o->text, sizeof(o->text), "%s does the work of %s %.1fx slower (%s against %s).",
				 c->name, bc->name, slow[i], a, b);
		} else
			snprintf(o->text, sizeof(o->text),
				 "%s takes %.1fx the time of the conflict-free access of its group (%s).", c->name, slow[i],
				 a);
	}
	free(slow);
	free(best);
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
