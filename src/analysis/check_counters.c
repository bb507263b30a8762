/*
 * check_counters.c - the NVML error counters' verdicts: each fails (or warns)
 * a GPU by itself, whatever its figures. A counter NVML cannot give (absent,
 * unsupported, a failed call) says so and is never a failure
 * (docs/CHECK.md "Counters").
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/check.h"

/* NVML clock-event reasons (nvml.h nvmlClocksEventReason*) */
#define R_SW_POWER 0x4ull
#define R_HW_SLOWDOWN 0x8ull
#define R_SW_THERMAL 0x20ull
#define R_HW_THERMAL 0x40ull
#define R_HW_POWER_BRAKE 0x80ull
#define RETIRED_PAGES_LIMIT 60   /* DCGM's and NVIDIA's RMA guidance: 60 retired pages */

static void set(struct gm_check_counter_verdict *cv, enum gm_check_verdict v, const char *code, const char *fmt,
		long long a, long long b)
{
	cv->verdict = v;
	cv->code = code ? gm_check_code_find(code) : NULL;
	snprintf(cv->message, sizeof(cv->message), fmt, a, b);
}

static void unread(const struct gm_counter_read *r, struct gm_check_counter_verdict *cv)
{
	cv->verdict = GM_V_SKIP;
	if (r->state == GM_CNT_UNSUPPORTED && r->nvml_rc == -1)
		snprintf(cv->message, sizeof(cv->message), "no active NVLink on this GPU");
	else if (r->state == GM_CNT_UNSUPPORTED)
		snprintf(cv->message, sizeof(cv->message), "unsupported on this GPU (NVML %d)", r->nvml_rc);
	else if (r->state == GM_CNT_ERROR)
		snprintf(cv->message, sizeof(cv->message), "could not be read (NVML error %d)", r->nvml_rc);
	else
		snprintf(cv->message, sizeof(cv->message), "not read (NVML absent or no such call)");
}

static void throttle(long long why, struct gm_check_counter_verdict *cv)
{
	char list[128] = "";

	if (why & R_HW_SLOWDOWN)
		strcat(list, " hw_slowdown");
	if (why & R_HW_THERMAL)
		strcat(list, " hw_thermal");
	if (why & R_HW_POWER_BRAKE)
		strcat(list, " hw_power_brake");
	if (why & R_SW_THERMAL)
		strcat(list, " sw_thermal");
	if (why & R_SW_POWER)
		strcat(list, " sw_power_cap");
	if (why & (R_HW_SLOWDOWN | R_HW_THERMAL | R_HW_POWER_BRAKE))
		cv->verdict = GM_V_FAIL, cv->code = gm_check_code_find("GM-C212");
	else if (why & R_SW_THERMAL)
		cv->verdict = GM_V_WARN, cv->code = gm_check_code_find("GM-C213");
	else
		cv->verdict = GM_V_PASS, cv->code = NULL;
	snprintf(cv->message, sizeof(cv->message), "reasons 0x%llx%s%s", why, list[0] ? ":" : "", list);
}

static void judge_one(enum gm_counter_id id, const struct gm_counter_read *b, const struct gm_counter_read *a,
		      const struct gm_counter_read *all_after, struct gm_check_counter_verdict *cv)
{
	long long v = a->value, d = b->state == GM_CNT_OK ? a->value - b->value : 0;

	switch (id) {
	case GM_CNT_XID:
		if (v > 0)
			return set(cv, GM_V_FAIL, "GM-C201", "%lld XID event(s) during the check, the last XID %lld", v, a->detail);
		return set(cv, GM_V_PASS, NULL, "no XID event during the check%.0lld", 0, 0);
	case GM_CNT_ECC_VOL_UNCORR:
		if (v > 0)
			return set(cv, GM_V_FAIL, "GM-C202", "%lld uncorrected (volatile), %lld during the check", v, d);
		break;
	case GM_CNT_ECC_VOL_CORR:
		if (d > 0)
			return set(cv, GM_V_WARN, "GM-C204", "%lld corrected (volatile), %lld during the check", v, d);
		break;
	case GM_CNT_ECC_AGG_UNCORR:
		if (v > 0)
			return set(cv, GM_V_WARN, "GM-C203", "%lld uncorrected in the GPU's lifetime%.0lld", v, 0);
		break;
	case GM_CNT_REMAP_PENDING:
		if (v > 0)
			return set(cv, GM_V_FAIL, "GM-C205", "a row remap is pending%.0lld%.0lld", 0, 0);
		break;
	case GM_CNT_REMAP_FAILED:
		if (v > 0)
			return set(cv, GM_V_FAIL, "GM-C206", "a row remap failed%.0lld%.0lld", 0, 0);
		break;
	case GM_CNT_RETIRED_PENDING:
		if (v > 0)
			return set(cv, GM_V_FAIL, "GM-C207", "a page retirement is pending%.0lld%.0lld", 0, 0);
		break;
	case GM_CNT_RETIRED_DBE: {
		const struct gm_counter_read *sbe = &all_after[GM_CNT_RETIRED_SBE];
		long long total = v + (sbe->state == GM_CNT_OK ? sbe->value : 0);
		if (total >= RETIRED_PAGES_LIMIT)
			return set(cv, GM_V_FAIL, "GM-C208", "%lld pages retired in all (limit %lld)", total, RETIRED_PAGES_LIMIT);
		if (v > 0)
			return set(cv, GM_V_WARN, "GM-C208", "%lld page(s) retired for double-bit errors%.0lld", v, 0);
		break;
	}
	case GM_CNT_PCIE_REPLAY:
		if (d > 0)
			return set(cv, GM_V_WARN, "GM-C209", "%lld replays, %lld during the check", v, d);
		break;
	case GM_CNT_PCIE_GEN:
		if (a->detail > 0 && v < a->detail)
			return set(cv, GM_V_WARN, "GM-C210", "Gen%lld at best under load, the link's maximum is Gen%lld", v, a->detail);
		return set(cv, GM_V_PASS, NULL, "Gen%lld (maximum Gen%lld)", v, a->detail);
	case GM_CNT_PCIE_WIDTH:
		if (a->detail > 0 && v < a->detail)
			return set(cv, GM_V_FAIL, "GM-C210", "x%lld at best under load, the link's maximum is x%lld", v, a->detail);
		return set(cv, GM_V_PASS, NULL, "x%lld (maximum x%lld)", v, a->detail);
	case GM_CNT_NVLINK_CRC:
	case GM_CNT_NVLINK_REPLAY:
	case GM_CNT_NVLINK_RECOVERY:
		if (d > 0)
			return set(cv, GM_V_FAIL, "GM-C211", "%lld over the active links, %lld during the check", v, d);
		break;
	case GM_CNT_THROTTLE:
		return throttle(v, cv);
	default:
		break;
	}
	set(cv, GM_V_PASS, NULL, "%lld%.0lld", v, 0);
}

void gm_check_judge_counters(const struct gm_check_counters *c, struct gm_check_gpu *g)
{
	for (int i = 0; i < GM_CNT_COUNT; i++) {
		struct gm_check_counter_verdict *cv = &g->cverdicts[i];
		static const struct gm_counter_read none = { GM_CNT_ABSENT, 0, 0, 0 };
		const struct gm_counter_read *a = c && c->have ? &c->after[i] : &none;
		const struct gm_counter_read *b = c && c->have ? &c->before[i] : &none;

		memset(cv, 0, sizeof(*cv));
		cv->id = (enum gm_counter_id)i;
		if (a->state != GM_CNT_OK)
			unread(a, cv);
		else
			judge_one((enum gm_counter_id)i, b, a, c->after, cv);
	}
}
