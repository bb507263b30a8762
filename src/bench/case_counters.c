/*
 * case_counters.c - run --counters for one case: a separate profiled launch
 * after the timed samples (never inside them), the checks of the counted
 * DRAM bytes and sectors per request against the case's claims, and the
 * bottleneck. docs/METHODOLOGY.md, "Hardware counters".
 */
#include <stdio.h>
#include <string.h>
#include "bench/case_counters.h"
#include "gpumem/counters.h"

/* Mean of the model's sectors per request over the case's global patterns of one op; 0 = none. */
static double pred_spr(const struct gm_case_result *cr, const char *op)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < cr->npred; i++)
		if (!strcmp(cr->pred[i].space, "global") && !strcmp(cr->pred[i].op, op) && cr->pred[i].per_request > 0) {
			sum += cr->pred[i].per_request;
			n++;
		}
	return n ? sum / n : 0;
}

static int time_per_op(enum gm_unit u)
{
	return u == GM_UNIT_US || u == GM_UNIT_NS || u == GM_UNIT_CYCLES;
}

void gm_case_counters(const struct gm_case *c, const struct gm_family_ops *ops, void *st,
		      struct gm_counters_session *s, const struct gm_device_info *dev, struct gm_case_result *cr)
{
	struct gm_counters *k = &cr->counters;
	int check_dram;

	if (c->timing == GM_TIME_HOST || c->timing == GM_TIME_SELF) {
		memset(k, 0, sizeof(*k));
		k->state = GM_COUNTERS_NA;
		snprintf(k->note, sizeof(k->note), "%s", c->timing == GM_TIME_HOST ?
			 "n/a: host-timed case (its work is not a kernel of gpumem's)" :
			 "n/a: timed inside its kernel (clock64); a replayed launch has nothing to add");
	} else {
		if (gm_counters_collect(s, ops->launch, st, k))
			gm_clear_error();
		/* DRAM bytes are the case's traffic only when its arrays cannot stay in L2 */
		check_dram = c->kind == GM_KIND_DRAM && cr->traffic.working_set > 2 * dev->l2_bytes;
		gm_counters_check(k, cr->traffic.bytes_hw, check_dram, pred_spr(cr, "load"), pred_spr(cr, "store"));
		gm_bottleneck_compute(k, cr->pred_efficiency_pct, c->kind == GM_KIND_SMEM);
	}
	/* nothing to count (host-timed, self-timed, no kernel): the line comes from what the case is */
	if (k->state == GM_COUNTERS_NA)
		gm_bottleneck_uncounted(k, cr->family, c->timing == GM_TIME_SELF, time_per_op(c->unit));
}
