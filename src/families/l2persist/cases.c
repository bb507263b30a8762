/*
 * cases.c - the l2persist family's case table: the L2 access-policy window: a 16 MiB hot set re-read
 * beside a 768 MiB stream, without a window, with a window but no persisting
 * carve-out, and with the carve-out and hitRatio 25/50/75/100 %. Unit: GB/s
 * of words read (stream + hot). derive(): the speed-up of the best hitRatio
 * over no window. Kernels: src/families/l2persist/l2persist.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/special_shapes.h"

static const struct {
	int ratio, quick;
	const char *label, *desc;
} settings[] = {
	{ LP_OFF, 1, "off", "16 MiB hot set re-read beside a 768 MiB stream, no access-policy window" },
	{ LP_NOLIMIT, 0, "nolimit", "same, window hitRatio 1 over the hot set, persisting limit set to 0" },
	{ 25, 0, "h025", "same, persisting limit = hot set, window hitRatio 0.25" },
	{ 50, 0, "h050", "same, persisting limit = hot set, window hitRatio 0.50" },
	{ 75, 0, "h075", "same, persisting limit = hot set, window hitRatio 0.75" },
	{ 100, 1, "h100", "same, persisting limit = hot set, window hitRatio 1.00" },
};

#define NSET ((int)(sizeof(settings) / sizeof(settings[0])))

static int l2persist_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;

	for (int k = 0; k < NSET; k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		gm_case_begin(c, &gm_family_l2persist, k, GM_KIND_MEASURE, settings[k].quick, settings[k].desc, "%s",
			      settings[k].label);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "hit_ratio_pct", settings[k].ratio);
		gm_case_param_add(c, "hot_bytes", LP_HOT_BYTES);
		gm_case_param_add(c, "stream_bytes", LP_STREAM_BYTES);
	}
	return NSET;
}

static double ok_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void l2persist_derive(struct gm_run_result *r)
{
	double off = ok_value(r, "l2persist.off"), best = 0;
	const char *best_name = NULL;

	for (int k = 2; k < NSET; k++) {
		char name[64];
		snprintf(name, sizeof(name), "l2persist.%s", settings[k].label);
		double v = ok_value(r, name);
		if (v > best) {
			best = v;
			best_name = settings[k].label;
		}
	}
	if (off <= 0 || best <= 0)
		return;
	struct gm_derived *x = gm_result_derive(r, "l2persist", "l2persist.speedup");
	if (!x)
		return;
	snprintf(x->level, sizeof(x->level), "L2");
	snprintf(x->quantity, sizeof(x->quantity), "persisting speed-up");
	x->unit = GM_UNIT_RATIO;
	x->value = best / off;
	snprintf(x->how, sizeof(x->how), "GB/s of l2persist.%s (best hitRatio) / l2persist.off: hot set + stream",
		 best_name);
}

const struct gm_family gm_family_l2persist = {
	"l2persist", "access-policy window + persisting L2 carve-out for a hot set beside a stream, hitRatio sweep",
	l2persist_enumerate, gm_l2persist_ops, l2persist_derive,
};
