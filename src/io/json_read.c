/* json_read.c - read a run document back into the result model. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/io.h"
#include "io/counters_io.h"
#include "io/json_file.h"
#include "io/json_keys.h"

static void copy_str(char *dst, size_t n, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	snprintf(dst, n, "%s", s ? s : "");
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/*
 * A JSON number into an integer field: NaN reads as 0 and a value past the
 * type's range as the nearest end of it (a C conversion out of range is
 * undefined behaviour; found by fuzz/fuzz_runfile.c, tests/unit/test_harden.c).
 */
static double clamp_num(double v, double lo, double hi)
{
	return v != v ? 0 : v < lo ? lo : v > hi ? hi : v;
}

static int num_int(json_t *o, const char *key)
{
	return (int)clamp_num(num(o, key), INT_MIN, INT_MAX);
}

static int64_t num_i64(json_t *o, const char *key)
{
	return (int64_t)clamp_num(num(o, key), -9.2e18, 9.2e18);
}

static void read_device(json_t *d, struct gm_device_info *dev)
{
	const char *cc = json_string_value(json_object_get(d, K_D_CC)), *pci;

	copy_str(dev->name, sizeof(dev->name), d, K_D_NAME);
	if (cc)
		sscanf(cc, "%d.%d", &dev->cc_major, &dev->cc_minor);
	dev->index = num_int(d, K_D_INDEX);
	dev->sm_count = num_int(d, K_D_SMS);
	dev->sm_clock_khz = num_int(d, K_D_SMCLK);
	dev->mem_clock_khz = num_int(d, K_D_MEMCLK);
	dev->bus_width_bits = num_int(d, K_D_BUS);
	dev->l2_bytes = num_i64(d, K_D_L2);
	dev->total_mem = num_i64(d, K_D_TOTAL);
	dev->free_mem = num_i64(d, K_D_FREE);
	dev->driver_version = num_int(d, K_D_DRIVER);
	dev->runtime_version = num_int(d, K_D_RUNTIME);
	dev->peak_gbs = num(d, K_D_PEAK);
	dev->persisting_l2_max_bytes = num_i64(d, K_D_PL2);
	dev->smem_per_sm = num_i64(d, K_D_SMEM_SM);
	dev->smem_per_block_optin = num_i64(d, K_D_SMEM_BLK);
	dev->max_threads_per_sm = num_int(d, K_D_THREADS_SM);
	dev->ecc = json_is_true(json_object_get(d, K_D_ECC));
	dev->pcie_gen = num_int(d, K_D_PCIE_GEN);
	dev->pcie_width = num_int(d, K_D_PCIE_WIDTH);
	copy_str(dev->uuid, sizeof(dev->uuid), d, K_D_UUID);
	pci = json_string_value(json_object_get(d, K_D_PCI));
	if (pci)
		sscanf(pci, "%x:%x:%x", (unsigned *)&dev->pci_domain, (unsigned *)&dev->pci_bus,
		       (unsigned *)&dev->pci_device);
}

static enum gm_case_status status_from(const char *s)
{
	if (!s || !strcmp(s, "ok"))
		return GM_CASE_OK;
	if (!strcmp(s, "failed"))
		return GM_CASE_FAILED;
	return !strcmp(s, "skipped") ? GM_CASE_SKIPPED : GM_CASE_ERROR;
}

/* wall_parts_s (runs from the budgeted runner on); absent: all 0 */
static void read_wall_parts(json_t *o, struct gm_wall_parts *p)
{
	p->prepare = num(o, K_WP_PREPARE);
	p->check = num(o, K_WP_CHECK);
	p->warmup = num(o, K_WP_WARMUP);
	p->samples = num(o, K_WP_SAMPLES);
	p->retries = num(o, K_WP_RETRIES);
	p->finish = num(o, K_WP_FINISH);
}

static void read_stats(json_t *s, struct gm_stats *st)
{
	st->n = num_int(s, K_S_N);
	st->median = num(s, K_S_MEDIAN);
	st->min = num(s, K_S_MIN);
	st->max = num(s, K_S_MAX);
	st->mean = num(s, K_S_MEAN);
	st->stddev = num(s, K_S_STDDEV);
	st->cov_pct = num(s, K_S_COV);
}

static void read_params(json_t *p, struct gm_case_result *c)
{
	const char *key;
	json_t *v;

	json_object_foreach(p, key, v) {
		if (c->nparams == GM_MAX_PARAMS)
			break;
		snprintf(c->param_keys[c->nparams], sizeof(c->param_keys[0]), "%s", key);
		c->params[c->nparams].key = c->param_keys[c->nparams];
		c->params[c->nparams].value = json_integer_value(v);
		c->nparams++;
	}
}

static void read_preds(json_t *a, struct gm_case_result *c)
{
	size_t i;
	json_t *p;

	json_array_foreach(a, i, p) {
		struct gm_pattern_prediction *pp;
		if (c->npred == GM_MAX_PATTERNS)
			break;
		pp = &c->pred[c->npred++];
		copy_str(pp->what, sizeof(pp->what), p, K_P_WHAT);
		copy_str(pp->space, sizeof(pp->space), p, K_P_SPACE);
		copy_str(pp->op, sizeof(pp->op), p, K_P_OP);
		copy_str(pp->index, sizeof(pp->index), p, K_P_INDEX);
		pp->elem_bytes = num_int(p, K_P_ELEM);
		pp->per_request = num(p, K_P_PER_REQ);
		pp->ideal = num(p, K_P_IDEAL);
		pp->efficiency_pct = num(p, K_P_EFF);
	}
}

static gm_status read_samples(json_t *a, struct gm_case_result *c)
{
	size_t n = json_array_size(a), i;
	json_t *v;

	if (!n)
		return GM_OK;
	c->samples_ms = calloc(n, sizeof(double));
	if (!c->samples_ms)
		return GM_ERR_NOMEM;
	json_array_foreach(a, i, v)
		c->samples_ms[i] = json_number_value(v);
	c->nsamples = (int)n;
	return GM_OK;
}

static enum gm_unit unit_of(json_t *o, const char *key, enum gm_unit dflt)
{
	enum gm_unit u = dflt;
	const char *name = json_string_value(json_object_get(o, key));

	if (name && gm_unit_parse(name, &u))
		gm_clear_error();
	return u;
}

static void read_value(json_t *o, struct gm_value *v, enum gm_unit dflt)
{
	copy_str(v->name, sizeof(v->name), o, K_V_NAME);
	v->unit = unit_of(o, K_V_UNIT, dflt);
	v->median = num(o, K_S_MEDIAN);
	v->min = num(o, K_S_MIN);
	v->max = num(o, K_S_MAX);
}

static int read_values(json_t *a, struct gm_value *v, int max)
{
	size_t i;
	json_t *x;
	int n = 0;

	json_array_foreach(a, i, x) {
		if (n == max)
			break;
		read_value(x, &v[n++], GM_UNIT_RATIO);
	}
	return n;
}

/* Schema 1 documents carry no unit: DRAM cases are GB/s, SMEM cases ns per access. */
static void read_headline(json_t *o, struct gm_case_result *c)
{
	json_t *v = json_object_get(o, K_C_VALUE);
	const char *timing = json_string_value(json_object_get(o, K_C_TIMING));

	c->timing = timing && !strcmp(timing, "host") ? GM_TIME_HOST
		    : timing && !strcmp(timing, "self") ? GM_TIME_SELF : GM_TIME_EVENTS;
	if (json_is_object(v)) {
		c->unit = unit_of(o, K_C_UNIT, GM_UNIT_GBS);
		read_value(v, &c->value, c->unit);
		c->value.unit = c->unit;
	} else if (c->kind == GM_KIND_SMEM) {
		c->unit = c->value.unit = GM_UNIT_NS_ACCESS;
		c->value.median = c->value.min = c->value.max = c->ns_per_access;
	} else {
		c->unit = c->value.unit = GM_UNIT_GBS;
		c->value.median = c->gbs_median;
		c->value.min = c->gbs_min;
		c->value.max = c->gbs_max;
	}
	snprintf(c->value.name, sizeof(c->value.name), "value");
	c->nextras = read_values(json_object_get(o, K_C_EXTRAS), c->extras, GM_MAX_EXTRAS);
	c->nnotes = read_values(json_object_get(o, K_C_NOTES), c->notes, GM_MAX_NOTES);
}

/*
 * Fields every case must carry: its name and its headline ("gbs" in schema
 * 1, "value" in schema 2; null for a case without a number). A missing
 * family or label is taken from the name ("family.label").
 */
static gm_status check_case(json_t *o, size_t i, int schema)
{
	static const char *const need[] = { K_C_NAME, NULL };

	if (!json_is_object(o))
		return gm_fail(GM_ERR_PARSE, "case %zu is not an object", i);
	for (int k = 0; need[k]; k++)
		if (!json_is_string(json_object_get(o, need[k])))
			return gm_fail(GM_ERR_PARSE, "case %zu: field '%s' missing or not a string", i, need[k]);
	if (schema >= 2 && !json_is_object(json_object_get(o, K_C_VALUE)) &&
	    !json_is_null(json_object_get(o, K_C_VALUE)))
		return gm_fail(GM_ERR_PARSE, "case %zu ('%s'): field '%s' missing", i,
			       json_string_value(json_object_get(o, K_C_NAME)), K_C_VALUE);
	if (schema == 1 && !json_is_object(json_object_get(o, K_C_GBS)))
		return gm_fail(GM_ERR_PARSE, "case %zu ('%s'): field '%s' missing", i,
			       json_string_value(json_object_get(o, K_C_NAME)), K_C_GBS);
	return GM_OK;
}

static gm_status read_case(json_t *o, struct gm_case_result *c)
{
	json_t *gbs = json_object_get(o, K_C_GBS);
	const char *kind = json_string_value(json_object_get(o, K_C_KIND));

	copy_str(c->name, sizeof(c->name), o, K_C_NAME);
	copy_str(c->family, sizeof(c->family), o, K_C_FAMILY);
	copy_str(c->label, sizeof(c->label), o, K_C_LABEL);
	copy_str(c->message, sizeof(c->message), o, K_C_MESSAGE);
	if (!c->family[0] || !c->label[0]) {
		const char *dot = strchr(c->name, '.');
		size_t n = dot ? (size_t)(dot - c->name) : strlen(c->name);
		if (!c->family[0])
			snprintf(c->family, sizeof(c->family), "%.*s", (int)n, c->name);
		if (!c->label[0])
			snprintf(c->label, sizeof(c->label), "%s", dot ? dot + 1 : c->name);
	}
	c->version = num_int(o, K_C_VERSION);
	c->kind = kind && !strcmp(kind, "smem") ? GM_KIND_SMEM
		  : kind && !strcmp(kind, "measure") ? GM_KIND_MEASURE : GM_KIND_DRAM;
	c->status = status_from(json_string_value(json_object_get(o, K_C_STATUS)));
	c->verified = json_is_true(json_object_get(o, K_C_VERIFIED));
	c->traffic.bytes_useful = num(o, K_C_BYTES_USEFUL);
	c->traffic.bytes_hw = num(o, K_C_BYTES_HW);
	c->traffic.accesses = num(o, K_C_ACCESSES);
	c->traffic.working_set = num_i64(o, K_C_WORKING_SET);
	c->traffic.ops = num(o, K_C_OPS);
	c->wall_s = num(o, K_C_WALL);
	read_wall_parts(json_object_get(o, K_C_WALL_PARTS), &c->wall_parts);
	read_params(json_object_get(o, K_C_PARAMS), c);
	read_stats(json_object_get(o, K_C_STATS), &c->ms);
	c->gbs_median = num(gbs, K_S_MEDIAN);
	c->gbs_min = num(gbs, K_S_MIN);
	c->gbs_max = num(gbs, K_S_MAX);
	c->gbs_hw_median = num(o, K_C_GBS_HW);
	c->pct_peak = num(o, K_C_PCT_PEAK);
	c->ns_per_access = num(o, K_C_NS_ACCESS);
	c->slowdown = num(o, K_C_SLOWDOWN);
	c->pred_efficiency_pct = num(o, K_C_PRED_EFF);
	c->pred_gbs = num(o, K_C_PRED_GBS);
	c->pred_slowdown = num(o, K_C_PRED_SLOW);
	if (json_is_object(json_object_get(o, K_C_LAUNCH))) {
		json_t *l = json_object_get(o, K_C_LAUNCH);

		c->launch_gbs = num(l, K_L_GBS);
		c->launch_ms = num(l, K_L_MS);
		c->launch_dram_read = num(l, K_L_DRAM_R);
		c->launch_dram_write = num(l, K_L_DRAM_W);
		c->launch_l2_sectors = num(l, K_L_L2);
		c->launch_l1_load_sectors = num(l, K_L_L1_LD);
		c->launch_l1_store_sectors = num(l, K_L_L1_ST);
		c->launch_l2_load_sectors = num(l, K_L_L2_LD);
		copy_str(c->launch_limited_by, sizeof(c->launch_limited_by), l, K_L_LIMIT);
		c->launch_low_gbs = num(l, "low_gbs"); /* the interval (docs/MODEL.md 7.6); 0 in older documents */
		c->launch_high_gbs = num(l, "high_gbs");
	}
	read_preds(json_object_get(o, K_C_PRED), c);
	if (json_is_object(json_object_get(o, "counters")))   /* run --counters: what the report places by */
		gm_counters_from_json(json_object_get(o, "counters"), &c->counters);
	read_headline(o, c);
	return read_samples(json_object_get(o, K_C_SAMPLES), c);
}

static void read_derived(json_t *a, struct gm_run_result *r)
{
	size_t i;
	json_t *o;

	json_array_foreach(a, i, o) {
		struct gm_derived *d = gm_result_derive(r, "", "");
		if (!d)
			break;
		copy_str(d->name, sizeof(d->name), o, K_DV_NAME);
		copy_str(d->family, sizeof(d->family), o, K_DV_FAMILY);
		copy_str(d->level, sizeof(d->level), o, K_DV_LEVEL);
		copy_str(d->quantity, sizeof(d->quantity), o, K_DV_QUANTITY);
		copy_str(d->reference_what, sizeof(d->reference_what), o, K_DV_REF_WHAT);
		copy_str(d->how, sizeof(d->how), o, K_DV_HOW);
		d->unit = unit_of(o, K_DV_UNIT, GM_UNIT_RATIO);
		d->value = num(o, K_DV_VALUE);
		d->reference = num(o, K_DV_REF);
	}
}

static void read_state(json_t *o, struct gm_device_state *st)
{
	if (!json_is_object(o))
		return;
	st->valid = 1;
	st->persisting_l2_limit = num_i64(o, K_STATE_PL2);
}

static gm_status read_doc(json_t *doc, struct gm_run_result *r)
{
	json_t *dev = json_object_get(doc, K_DEVICE), *cases = json_object_get(doc, K_CASES), *c;
	const char *schema = json_string_value(json_object_get(doc, K_SCHEMA));
	size_t i;

	if (!schema || strcmp(schema, GM_SCHEMA_NAME) || !json_is_array(cases))
		return gm_fail(GM_ERR_PARSE, "not a gpumem run document (field '%s' is not \"%s\" or '%s' is not an array)",
			      K_SCHEMA, GM_SCHEMA_NAME, K_CASES);
	if (!json_is_integer(json_object_get(doc, K_SCHEMA_VERSION)))
		return gm_fail(GM_ERR_PARSE, "field '%s' missing or not an integer", K_SCHEMA_VERSION);
	if (num(doc, K_SCHEMA_VERSION) > GM_SCHEMA_VERSION || num(doc, K_SCHEMA_VERSION) < 1)
		return gm_fail(GM_ERR_PARSE, "unknown schema version %.0f (this gpumem reads 1 to %d)",
			       num(doc, K_SCHEMA_VERSION), GM_SCHEMA_VERSION);
	r->schema_version = num_int(doc, K_SCHEMA_VERSION);
	copy_str(r->tool_version, sizeof(r->tool_version), doc, K_TOOL_VERSION);
	copy_str(r->command, sizeof(r->command), doc, K_COMMAND);
	copy_str(r->launch_profile, sizeof(r->launch_profile), doc, K_LAUNCH_PROFILE);
	copy_str(r->started_utc, sizeof(r->started_utc), doc, K_STARTED);
	copy_str(r->byte_convention, sizeof(r->byte_convention), doc, K_CONVENTION);
	r->wall_s = num(doc, K_WALL);
	r->interrupted = json_is_true(json_object_get(doc, K_INTERRUPTED));
	r->sanitize = json_is_true(json_object_get(doc, K_SANITIZE));
	r->seed = (uint32_t)clamp_num(num(doc, K_SEED), 0, 4294967295.0);
	r->array_bytes = (size_t)clamp_num(num(doc, K_ARRAY_BYTES), 0, 9.2e18);
	r->reps = num_int(doc, K_REPS);
	r->warmup = num_int(doc, K_WARMUP);
	r->have_device = json_is_object(dev);
	if (r->have_device)
		read_device(dev, &r->dev);
	json_array_foreach(cases, i, c) {
		struct gm_case_result *cr;
		gm_status s = check_case(c, i, num_int(doc, K_SCHEMA_VERSION));
		if (s)
			return s;
		cr = gm_result_add(r);
		s = cr ? read_case(c, cr) : gm_fail(GM_ERR_NOMEM, "out of memory at case %zu", i);
		if (s)
			return s;
	}
	read_derived(json_object_get(doc, K_DERIVED), r);
	read_state(json_object_get(json_object_get(doc, K_STATE), K_STATE_BEFORE), &r->state_before);
	read_state(json_object_get(json_object_get(doc, K_STATE), K_STATE_AFTER), &r->state_after);
	return GM_OK;
}

gm_status gm_json_read_parsed(json_t *doc, const char *origin, struct gm_run_result *r)
{
	gm_status s;

	gm_result_init(r);
	/* a multi-device document (include/gpumem/fleet.h): device 0's run */
	if (json_is_array(json_object_get(doc, "devices")) &&
	    json_object_get(json_array_get(json_object_get(doc, "devices"), 0), "run"))
		s = read_doc(json_object_get(json_array_get(json_object_get(doc, "devices"), 0), "run"), r);
	else
		s = read_doc(doc, r);
	if (s) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", gm_last_error());
		gm_result_release(r);
		return gm_fail(s, "'%s': %s", origin, msg);
	}
	return s;
}

gm_status gm_json_read(const char *path, struct gm_run_result *r)
{
	json_error_t err;
	json_t *doc = gm_json_load_path(path, &err);
	gm_status s;

	gm_result_init(r);
	if (!doc)
		return err.line < 0 ? gm_fail(GM_ERR_PARSE, "cannot read '%s': %s", path, err.text) :
		       gm_fail(GM_ERR_PARSE, "cannot read '%s': %s (line %d)", path, err.text, err.line);
	s = gm_json_read_parsed(doc, path, r);
	json_decref(doc);
	return s;
}

/* The run document in a string (a device block of a multi-device document). */
gm_status gm_json_read_text(const char *text, struct gm_run_result *r)
{
	json_error_t err;
	json_t *doc = json_loads(text, 0, &err);
	gm_status s;

	gm_result_init(r);
	if (!doc)
		return gm_fail(GM_ERR_PARSE, "cannot parse a run document: %s (line %d)", err.text, err.line);
	s = read_doc(doc, r);
	json_decref(doc);
	if (s) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", gm_last_error());
		gm_result_release(r);
		return gm_fail(s, "%s", msg);
	}
	return s;
}
