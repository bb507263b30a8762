/* counters_json.c - the "counters" object of a case result (docs/SCHEMA.md, "counters"). */
#include <jansson.h>
#include <string.h>
#include "io/counters_io.h"

static const char *state_name(enum gm_counters_state s)
{
	switch (s) {
	case GM_COUNTERS_OK: return "ok";
	case GM_COUNTERS_NA: return "n/a";
	case GM_COUNTERS_ERROR: return "error";
	default: return "none";
	}
}

static json_t *bottleneck_json(const struct gm_bottleneck *b)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "basis", b->counted ? "counters" : "case", "primary", b->primary,
			      "secondary", b->secondary, "advice", b->advice);

	if (o && b->counted)
		json_object_set_new(o, "pct_of_peak", json_pack("{s:f, s:f, s:f, s:f}", "dram", b->pct[GM_LEVEL_DRAM],
								"l2", b->pct[GM_LEVEL_L2], "l1_shared",
								b->pct[GM_LEVEL_L1], "issue", b->pct[GM_LEVEL_ISSUE]));
	return o;
}

void *gm_counters_json(const struct gm_counters *c)
{
	json_t *o = json_pack("{s:s, s:s}", "state", state_name(c->state), "note", c->note);

	if (!o || c->state != GM_COUNTERS_OK) {
		if (o && c->bn.valid)
			json_object_set_new(o, "bottleneck", bottleneck_json(&c->bn));
		return o;
	}
	json_object_set_new(o, "kernels", json_integer(c->kernels));
	json_object_set_new(o, "passes", json_integer(c->passes));
	json_object_set_new(o, "duration_ns", json_real(c->duration_ns));
	json_object_set_new(o, "dram", json_pack("{s:f, s:f}", "read_bytes", c->dram_read_bytes, "write_bytes",
						 c->dram_write_bytes));
	json_object_set_new(o, "l2", json_pack("{s:f, s:f}", "sectors", c->l2_sectors, "hit_pct", c->l2_hit_pct));
	json_object_set_new(o, "global", json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "load_requests", c->gld_requests,
						   "load_sectors", c->gld_sectors, "store_requests", c->gst_requests,
						   "store_sectors", c->gst_sectors, "load_sectors_per_request",
						   gm_counters_spr(c, 0), "store_sectors_per_request",
						   gm_counters_spr(c, 1)));
	json_object_set_new(o, "shared", json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "load_wavefronts",
						   c->smem_ld_wavefronts, "store_wavefronts", c->smem_st_wavefronts,
						   "load_bank_conflicts", c->smem_ld_conflicts, "store_bank_conflicts",
						   c->smem_st_conflicts, "load_instructions", c->smem_ld_inst,
						   "store_instructions", c->smem_st_inst));
	json_object_set_new(o, "achieved_occupancy_pct", json_real(c->occupancy_pct));
	json_object_set_new(o, "issue_slot_pct", json_real(c->issue_pct));
	json_object_set_new(o, "check", json_pack("{s:f, s:f, s:b, s:f, s:f, s:f, s:b}", "claimed_bytes",
						  c->claimed_bytes, "dram_vs_claim_pct", c->dram_vs_claim_pct,
						  "dram_mismatch", c->dram_mismatch, "dram_tolerance_pct",
						  GM_COUNTERS_DRAM_TOL_PCT, "model_load_sectors_per_request",
						  c->pred_ld_spr, "model_store_sectors_per_request", c->pred_st_spr,
						  "spr_mismatch", c->spr_mismatch));
	if (c->bn.valid)
		json_object_set_new(o, "bottleneck", bottleneck_json(&c->bn));
	return o;
}

static double sub(json_t *o, const char *obj, const char *key)
{
	json_t *v = json_object_get(obj ? json_object_get(o, obj) : o, key);

	return json_is_number(v) ? json_number_value(v) : 0;
}

void gm_counters_from_json(const void *json, struct gm_counters *c)
{
	json_t *o = (json_t *)json;
	const char *st = json_string_value(json_object_get(o, "state"));

	memset(c, 0, sizeof(*c));
	c->state = !st ? GM_COUNTERS_NONE : !strcmp(st, "ok") ? GM_COUNTERS_OK : !strcmp(st, "n/a") ? GM_COUNTERS_NA
		   : !strcmp(st, "error") ? GM_COUNTERS_ERROR : GM_COUNTERS_NONE;
	if (json_is_string(json_object_get(o, "note")))
		snprintf(c->note, sizeof(c->note), "%s", json_string_value(json_object_get(o, "note")));
	if (c->state != GM_COUNTERS_OK)
		return;
	c->kernels = (int)sub(o, NULL, "kernels");
	c->passes = (int)sub(o, NULL, "passes");
	c->duration_ns = sub(o, NULL, "duration_ns");
	c->dram_read_bytes = sub(o, "dram", "read_bytes");
	c->dram_write_bytes = sub(o, "dram", "write_bytes");
	c->l2_sectors = sub(o, "l2", "sectors");
	c->l2_hit_pct = sub(o, "l2", "hit_pct");
	c->gld_requests = sub(o, "global", "load_requests");
	c->gld_sectors = sub(o, "global", "load_sectors");
	c->gst_requests = sub(o, "global", "store_requests");
	c->gst_sectors = sub(o, "global", "store_sectors");
	c->smem_ld_wavefronts = sub(o, "shared", "load_wavefronts");
	c->smem_st_wavefronts = sub(o, "shared", "store_wavefronts");
	c->smem_ld_conflicts = sub(o, "shared", "load_bank_conflicts");
	c->smem_st_conflicts = sub(o, "shared", "store_bank_conflicts");
	c->smem_ld_inst = sub(o, "shared", "load_instructions");
	c->smem_st_inst = sub(o, "shared", "store_instructions");
	c->occupancy_pct = sub(o, NULL, "achieved_occupancy_pct");
	c->issue_pct = sub(o, NULL, "issue_slot_pct");
	c->claimed_bytes = sub(o, "check", "claimed_bytes");
	c->dram_vs_claim_pct = sub(o, "check", "dram_vs_claim_pct");
	c->pred_ld_spr = sub(o, "check", "model_load_sectors_per_request");
	c->pred_st_spr = sub(o, "check", "model_store_sectors_per_request");
}
