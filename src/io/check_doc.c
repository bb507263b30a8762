/*
 * check_doc.c - what a `gpumem check` document is made of, beside its writers and its reader
 * (include/gpumem/check.h): the words and the exit code of its verdicts, severities and counters, and the
 * burn's series of telemetry samples. Kept in io so that io never reaches into analysis (which judges; it
 * uses these too).
 */
#include <stdlib.h>
#include "gpumem/check.h"

const char *gm_check_verdict_name(enum gm_check_verdict v)
{
	static const char *const names[] = { "pass", "skip", "not-judged", "warn", "fail" };
	return (unsigned)v < 5 ? names[v] : "?";
}

const char *gm_severity_name(enum gm_severity s)
{
	static const char *const names[] = { "none", "inspect", "reset", "drain" };
	return (unsigned)s < 4 ? names[s] : "?";
}

const char *gm_counter_name(enum gm_counter_id id)
{
	static const char *const names[GM_CNT_COUNT] = {
		"xid_events", "ecc_volatile_uncorrected", "ecc_volatile_corrected", "ecc_aggregate_uncorrected",
		"ecc_aggregate_corrected", "row_remap_pending", "row_remap_failed", "row_remap_uncorrectable_rows",
		"retired_pages_sbe", "retired_pages_dbe", "retired_pages_pending", "pcie_replays", "pcie_link_gen",
		"pcie_link_width", "nvlink_crc_errors", "nvlink_replays", "nvlink_recoveries", "throttle_reasons",
	};
	return (unsigned)id < GM_CNT_COUNT ? names[id] : "?";
}

int gm_check_exit_code(const struct gm_check_gpu *g, int n)
{
	enum gm_check_verdict v = GM_V_PASS;

	for (int i = 0; i < n; i++)
		if (g[i].verdict > v) /* the worst verdict: the enum is ordered by how bad */
			v = g[i].verdict;
	if (v == GM_V_FAIL)
		return GM_CHECK_EXIT_FAIL;
	if (v == GM_V_WARN)
		return GM_CHECK_EXIT_WARN;
	return v == GM_V_NOJUDGE ? GM_CHECK_EXIT_UNKNOWN : 0;
}

gm_status gm_burn_add(struct gm_burn *b, const struct gm_burn_sample *s)
{
	if (b->n == b->cap) {
		int cap = b->cap ? 2 * b->cap : 256;
		struct gm_burn_sample *p = realloc(b->s, (size_t)cap * sizeof(*p));
		if (!p)
			return gm_fail(GM_ERR_NOMEM, "out of memory");
		b->s = p;
		b->cap = cap;
	}
	b->s[b->n++] = *s;
	return GM_OK;
}

void gm_burn_release(struct gm_burn *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}
