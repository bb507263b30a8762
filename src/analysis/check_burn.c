/*
 * check_burn.c - `gpumem check --burn DURATION`: its duration, its telemetry
 * (a sample every 100 ms) and its verdict: the SM clock's fall under
 * sustained load, hardware or thermal throttling, and any validation error
 * of the GEMM or the memory test (docs/CHECK.md "Burn").
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/check.h"

#define CLOCK_DROP_PCT 10.0      /* median SM clock this far below the burn's peak: a warning */
#define R_SW_THERMAL 0x20ull
#define R_HW_ANY (0x8ull | 0x40ull | 0x80ull)

gm_status gm_burn_parse_duration(const char *text, double *seconds)
{
	char *end;
	double v, mul = 1;

	if (!text || !*text || isspace((unsigned char)*text))
		return gm_fail(GM_ERR_INVALID_ARG, "--burn: '%s' is not a duration (10s, 2m, 1h)", text ? text : "");
	v = strtod(text, &end);
	if (end != text && *end && !end[1]) {
		switch (*end) {
		case 's': mul = 1; end++; break;
		case 'm': mul = 60; end++; break;
		case 'h': mul = 3600; end++; break;
		default: break;
		}
	}
	v *= mul;
	if (end == text || *end || !isfinite(v) || !(v > 0) || v > 86400)
		return gm_fail(GM_ERR_INVALID_ARG, "--burn: '%s' is not a duration in (0, 24h] (10s, 2m, 1h)", text);
	*seconds = v;
	return GM_OK;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void summarise(struct gm_burn *b)
{
	double *v = b->n ? malloc((size_t)b->n * sizeof(double)) : NULL;
	int k = 0;

	b->sm_mhz_max = b->temp_c_max = b->power_w_max = 0;
	b->sm_mhz_min = INFINITY;
	b->reasons_seen = 0;
	for (int i = 0; i < b->n; i++) {
		const struct gm_burn_sample *s = &b->s[i];
		b->sm_mhz_max = fmax(b->sm_mhz_max, s->sm_mhz);
		b->sm_mhz_min = fmin(b->sm_mhz_min, s->sm_mhz);
		b->temp_c_max = fmax(b->temp_c_max, s->temp_c);
		b->power_w_max = fmax(b->power_w_max, s->power_w);
		b->reasons_seen |= s->reasons;
		if (v && s->sm_mhz > 0)
			v[k++] = s->sm_mhz;
	}
	if (k) {
		qsort(v, (size_t)k, sizeof(double), cmp_double);
		b->sm_mhz_median = k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
	}
	if (!isfinite(b->sm_mhz_min))
		b->sm_mhz_min = 0;
	b->clock_drop_pct = b->sm_mhz_max > 0 && k ? 100.0 * (b->sm_mhz_max - b->sm_mhz_median) / b->sm_mhz_max : 0;
	free(v);
}

static void add(struct gm_check_gpu *g, const char *code, const char *msg, enum gm_check_verdict v)
{
	struct gm_check_failure *f;

	if (g->nfailures >= GM_CHECK_MAX_FAILURES)
		return;
	f = &g->failures[g->nfailures++];
	f->code = gm_check_code_find(code);
	f->verdict = v;
	snprintf(f->subject, sizeof(f->subject), "burn");
	snprintf(f->message, sizeof(f->message), "%s", msg);
	if (v > g->verdict || g->verdict == GM_V_NOJUDGE)
		g->verdict = v > g->verdict ? v : g->verdict;
}

void gm_burn_judge(struct gm_burn *b, struct gm_check_gpu *g)
{
	summarise(b);
	b->verdict = GM_V_PASS;
	if (b->validation_errors) {
		b->verdict = GM_V_FAIL;
		snprintf(b->message, sizeof(b->message), "%d validation error(s) under load: %.140s", b->validation_errors,
			 b->first_error);
		add(g, "GM-C302", b->message, GM_V_FAIL);
	}
	if (b->reasons_seen & R_HW_ANY) {
		b->verdict = GM_V_FAIL;
		snprintf(b->message, sizeof(b->message), "hardware slowdown under load (reasons 0x%llx)",
			 (unsigned long long)b->reasons_seen);
		add(g, "GM-C212", b->message, GM_V_FAIL);
	} else if (b->reasons_seen & R_SW_THERMAL) {
		b->verdict = b->verdict > GM_V_WARN ? b->verdict : GM_V_WARN;
		snprintf(b->message, sizeof(b->message), "thermal slowdown under load, up to %.0f C", b->temp_c_max);
		add(g, "GM-C213", b->message, GM_V_WARN);
	}
	if (b->clock_drop_pct > CLOCK_DROP_PCT) {
		b->verdict = b->verdict > GM_V_WARN ? b->verdict : GM_V_WARN;
		snprintf(b->message, sizeof(b->message), "SM clock median %.0f MHz, %.1f %% below its peak %.0f MHz",
			 b->sm_mhz_median, b->clock_drop_pct, b->sm_mhz_max);
		add(g, "GM-C301", b->message, GM_V_WARN);
	}
	if (b->verdict == GM_V_PASS)
		snprintf(b->message, sizeof(b->message), "%d rounds in %.1f s: SM %.0f-%.0f MHz (median %.0f), up to "
			 "%.0f C and %.0f W, no validation error", b->rounds, b->ran_s, b->sm_mhz_min, b->sm_mhz_max,
			 b->sm_mhz_median, b->temp_c_max, b->power_w_max);
}
