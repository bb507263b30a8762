/* json_write.c - the run document (schema docs/SCHEMA.md) through jansson. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "io/counters_io.h"
#include "gpumem/io.h"
#include "io/json_keys.h"
#include "gpumem/launch.h"

const char *gm_case_status_name(enum gm_case_status s)
{
	switch (s) {
	case GM_CASE_OK: return "ok";
	case GM_CASE_FAILED: return "failed";
	case GM_CASE_SKIPPED: return "skipped";
	case GM_CASE_ERROR: return "error";
	}
	return "error";
}

const char *gm_case_kind_name(enum gm_case_kind k)
{
	return k == GM_KIND_SMEM ? "smem" : k == GM_KIND_MEASURE ? "measure" : "dram";
}

const char *gm_timing_name(enum gm_timing t)
{
	return t == GM_TIME_HOST ? "host" : t == GM_TIME_SELF ? "self" : "events";
}

static json_t *value_json(const struct gm_value *v, int with_name)
{
	json_t *o = json_pack("{ss sf sf sf}", K_V_UNIT, gm_unit_name(v->unit), K_S_MEDIAN, v->median,
			      K_S_MIN, v->min, K_S_MAX, v->max);
	if (with_name)
		json_object_set_new(o, K_V_NAME, json_string(v->name));
	return o;
}

static json_t *values_json(const struct gm_value *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++)
		json_array_append_new(a, value_json(&v[i], 1));
	return a;
}

static json_t *derived_json(const struct gm_derived *d)
{
	return json_pack("{ss ss ss ss ss sf sf ss ss}", K_DV_NAME, d->name, K_DV_FAMILY, d->family,
			 K_DV_LEVEL, d->level, K_DV_QUANTITY, d->quantity, K_DV_UNIT,
			 gm_unit_name(d->unit), K_DV_VALUE, d->value, K_DV_REF, d->reference,
			 K_DV_REF_WHAT, d->reference_what, K_DV_HOW, d->how);
}

static json_t *state_json(const struct gm_device_state *st)
{
	if (!st->valid)
		return json_null();
	return json_pack("{sI}", K_STATE_PL2, (json_int_t)st->persisting_l2_limit);
}

static json_t *device_json(const struct gm_device_info *d)
{
	char cc[16], pci[32];
	json_t *o;

	snprintf(cc, sizeof(cc), "%d.%d", d->cc_major, d->cc_minor);
	snprintf(pci, sizeof(pci), "%04x:%02x:%02x.0", d->pci_domain, d->pci_bus, d->pci_device);
	o = json_pack("{si ss ss si si si si sI sI sI sI sI sI sb si si ss si si si sf}",
			 K_D_INDEX, d->index, K_D_NAME, d->name, K_D_CC, cc, K_D_SMS, d->sm_count,
			 K_D_SMCLK, d->sm_clock_khz, K_D_MEMCLK, d->mem_clock_khz, K_D_BUS,
			 d->bus_width_bits, K_D_L2, (json_int_t)d->l2_bytes, K_D_PL2,
			 (json_int_t)d->persisting_l2_max_bytes, K_D_SMEM_SM, (json_int_t)d->smem_per_sm,
			 K_D_SMEM_BLK, (json_int_t)d->smem_per_block_optin, K_D_TOTAL,
			 (json_int_t)d->total_mem, K_D_FREE, (json_int_t)d->free_mem, K_D_ECC, d->ecc,
			 K_D_DRIVER, d->driver_version, K_D_RUNTIME, d->runtime_version, K_D_PCI, pci,
			 K_D_PCIE_GEN, d->pcie_gen, K_D_PCIE_WIDTH, d->pcie_width, K_D_THREADS_SM,
			 d->max_threads_per_sm, K_D_PEAK, d->peak_gbs);
	if (o && d->uuid[0]) /* the GPU's UUID, known on a GPU: tells two units of one model apart */
		json_object_set_new(o, K_D_UUID, json_string(d->uuid));
	return o;
}


static json_t *stats_json(const struct gm_stats *s)
{
	return json_pack("{si sf sf sf sf sf sf}", K_S_N, s->n, K_S_MEDIAN, s->median, K_S_MIN, s->min,
			 K_S_MAX, s->max, K_S_MEAN, s->mean, K_S_STDDEV, s->stddev, K_S_COV, s->cov_pct);
}

static json_t *pred_json(const struct gm_case_result *c)
{
	json_t *a = json_array();

	for (int i = 0; i < c->npred; i++) {
		const struct gm_pattern_prediction *p = &c->pred[i];
		json_array_append_new(a, json_pack("{ss ss ss si ss sf sf sf}", K_P_WHAT, p->what,
						   K_P_SPACE, p->space, K_P_OP, p->op, K_P_ELEM,
						   p->elem_bytes, K_P_INDEX, p->index, K_P_PER_REQ,
						   p->per_request, K_P_IDEAL, p->ideal, K_P_EFF,
						   p->efficiency_pct));
	}
	return a;
}

static json_t *case_json(const struct gm_case_result *c, int64_t l2_bytes)
{
	json_t *params = json_object(), *samples = json_array();
	json_t *gbs = json_pack("{sf sf sf}", K_S_MEDIAN, c->gbs_median, K_S_MIN, c->gbs_min, K_S_MAX,
				c->gbs_max);

	for (int i = 0; i < c->nparams; i++)
		json_object_set_new(params, c->param_keys[i], json_integer(c->params[i].value));
	for (int i = 0; i < c->nsamples; i++)
		json_array_append_new(samples, json_real(c->samples_ms[i]));
	json_t *o = json_pack("{ss ss ss si ss so ss ss sb sf sf sf sI so so so sf sf sf sf so sf}",
			 K_C_NAME, c->name, K_C_FAMILY, c->family, K_C_LABEL, c->label, K_C_VERSION,
			 c->version, K_C_KIND, gm_case_kind_name(c->kind), K_C_PARAMS,
			 params, K_C_STATUS, gm_case_status_name(c->status), K_C_MESSAGE, c->message,
			 K_C_VERIFIED, c->verified, K_C_BYTES_USEFUL, c->traffic.bytes_useful,
			 K_C_BYTES_HW, c->traffic.bytes_hw, K_C_ACCESSES, c->traffic.accesses,
			 K_C_WORKING_SET, (json_int_t)c->traffic.working_set, K_C_SAMPLES, samples,
			 K_C_STATS, stats_json(&c->ms), K_C_GBS, gbs, K_C_GBS_HW, c->gbs_hw_median,
			 K_C_PCT_PEAK, c->pct_peak, K_C_NS_ACCESS, c->ns_per_access, K_C_SLOWDOWN,
			 c->slowdown, K_C_PRED, pred_json(c), K_C_PRED_EFF, c->pred_efficiency_pct);

	json_object_set_new(o, K_C_PRED_GBS, json_real(c->pred_gbs));
	if (c->launch_gbs > 0) /* the launch model (docs/SCHEMA.md "launch") */
		json_object_set_new(o, K_C_LAUNCH, json_pack("{sf sf sf sf sf ss sf}", K_L_GBS, c->launch_gbs,
			K_L_MS, c->launch_ms, K_L_DRAM_R, c->launch_dram_read, K_L_DRAM_W, c->launch_dram_write,
			K_L_L2, c->launch_l2_sectors, K_L_LIMIT, c->launch_limited_by, K_L_RATIO,
			c->gbs_median > 0 ? c->gbs_median / c->launch_gbs : 0.0));
	if (c->launch_gbs > 0) {
		json_t *l = json_object_get(o, K_C_LAUNCH);

		json_object_set_new(l, K_L_L1_LD, json_real(c->launch_l1_load_sectors));
		json_object_set_new(l, K_L_L1_ST, json_real(c->launch_l1_store_sectors));
		json_object_set_new(l, K_L_L2_LD, json_real(c->launch_l2_load_sectors));
		if (c->launch_high_gbs > 0) { /* the interval (docs/MODEL.md 7.6) */
			json_t *rules = json_array(), *weak = json_array();

			for (int k = 0; k < gm_launch_nbands(); k++) {
				if (c->launch_rules & (1u << k))
					json_array_append_new(rules, json_string(gm_launch_band(k)->name));
				if (c->launch_weak & (1u << k))
					json_array_append_new(weak, json_string(gm_launch_band(k)->name));
			}
			json_object_set_new(l, "low_gbs", json_real(c->launch_low_gbs));
			json_object_set_new(l, "high_gbs", json_real(c->launch_high_gbs));
			json_object_set_new(l, "rules", rules);
			json_object_set_new(l, "weak_rules", weak);
		}
	}
	if (c->wall_s > 0) /* the case's own wall time (what the suite's time is spent on) */
		json_object_set_new(o, K_C_WALL, json_real(c->wall_s));
	const struct gm_wall_parts *p = &c->wall_parts;
	if (p->prepare + p->check + p->warmup + p->samples + p->retries + p->finish > 0) /* by phase (docs/SCHEMA.md) */
		json_object_set_new(o, K_C_WALL_PARTS,
				    json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", K_WP_PREPARE, p->prepare, K_WP_CHECK,
					      p->check, K_WP_WARMUP, p->warmup, K_WP_SAMPLES, p->samples, K_WP_RETRIES,
					      p->retries, K_WP_FINISH, p->finish));
	if (c->traffic.ops > 0) /* flops of TFLOP/s cases: intensity = ops / bytes_useful */
		json_object_set_new(o, K_C_OPS, json_real(c->traffic.ops));
	json_object_set_new(o, K_C_PRED_SLOW, json_real(c->pred_slowdown));
	json_object_set_new(o, K_C_UNIT, json_string(gm_unit_name(c->unit)));
	json_object_set_new(o, K_C_BETTER, json_string(gm_unit_higher_is_better(c->unit) ? "higher" : "lower"));
	json_object_set_new(o, K_C_TIMING, json_string(gm_timing_name(c->timing)));
	json_object_set_new(o, K_C_VALUE, value_json(&c->value, 0));
	json_object_set_new(o, K_C_EXTRAS, values_json(c->extras, c->nextras));
	json_object_set_new(o, K_C_NOTES, values_json(c->notes, c->nnotes));
	if (c->counters.state != GM_COUNTERS_NONE)
		json_object_set_new(o, "counters", (json_t *)gm_counters_json(&c->counters));
	const char *why, *cls = gm_between_processes(c, l2_bytes, &why);
	if (cls) /* docs/METHODOLOGY.md "Between processes"; recomputed by readers, never read back */
		json_object_set_new(o, K_C_BETWEEN, json_pack("{ss ss}", "class", cls, "why", why));
	return o;
}

gm_status gm_json_write(FILE *f, const struct gm_run_result *r)
{
	json_t *cases = json_array(), *derived = json_array(), *doc;
	int rc;

	for (int i = 0; i < r->ncases; i++)
		json_array_append_new(cases, case_json(&r->cases[i], r->have_device ? r->dev.l2_bytes : 0));
	for (int i = 0; i < r->nderived; i++)
		json_array_append_new(derived, derived_json(&r->derived[i]));
	doc = json_pack("{ss si ss ss ss sf sb ss sI sI si si so* so}", K_SCHEMA, GM_SCHEMA_NAME,
			K_SCHEMA_VERSION, GM_SCHEMA_VERSION, K_TOOL_VERSION, r->tool_version, K_COMMAND,
			r->command, K_STARTED, r->started_utc, K_WALL, r->wall_s, K_INTERRUPTED,
			r->interrupted, K_CONVENTION, r->byte_convention, K_SEED, (json_int_t)r->seed,
			K_ARRAY_BYTES, (json_int_t)r->array_bytes, K_REPS, r->reps, K_WARMUP, r->warmup,
			K_DEVICE, r->have_device ? device_json(&r->dev) : NULL, K_CASES, cases);
	if (!doc) {
		json_decref(derived);
		return gm_fail(GM_ERR_NOMEM, "cannot build the JSON document");
	}
	json_object_set_new(doc, K_DERIVED, derived);
	if (r->sanitize)
		json_object_set_new(doc, K_SANITIZE, json_true());
	if (*r->launch_profile)
		json_object_set_new(doc, K_LAUNCH_PROFILE, json_string(r->launch_profile));
	json_object_set_new(doc, K_STATE, json_pack("{so so}", K_STATE_BEFORE, state_json(&r->state_before),
						    K_STATE_AFTER, state_json(&r->state_after)));
	errno = 0;
	rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF)
		return gm_fail(GM_ERR_IO, "cannot write JSON: %s", errno ? strerror(errno) : "write error");
	return GM_OK;
}
