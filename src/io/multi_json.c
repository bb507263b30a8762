/*
 * multi_json.c - the multi-device run document (include/gpumem/fleet.h,
 * docs/SCHEMA.md "Multi-device documents"): one block per device or rank,
 * each with its placement, its telemetry and its own complete run document.
 */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/fleet.h"
#include "gpumem/io.h"
#include "io/json_file.h"
#include "io/json_keys.h"

#define K_DEVICES "devices"
#define K_MULTI "multi_device"

void gm_multi_init(struct gm_multi_run *m)
{
	memset(m, 0, sizeof(*m));
}

gm_status gm_multi_resize(struct gm_multi_run *m, int n)
{
	struct gm_placement *pl;
	struct gm_run_result *runs;

	if (n <= m->n)
		return GM_OK;
	pl = realloc(m->pl, (size_t)n * sizeof(*pl));
	if (pl)
		m->pl = pl;
	runs = pl ? realloc(m->runs, (size_t)n * sizeof(*runs)) : NULL;
	if (!runs)
		return gm_fail(GM_ERR_NOMEM, "out of memory for %d devices", n);
	m->runs = runs;
	for (int i = m->n; i < n; i++) {
		memset(&pl[i], 0, sizeof(pl[i]));
		pl[i].rank = pl[i].device = pl[i].numa_node = -1;
		pl[i].pcie_gen = pl[i].pcie_width = pl[i].pcie_gen_max = pl[i].pcie_width_max = -1;
		pl[i].tel.ecc_corrected = pl[i].tel.ecc_uncorrected = -1;
		gm_result_init(&runs[i]);
	}
	m->n = n;
	return GM_OK;
}

gm_status gm_multi_append(struct gm_multi_run *into, struct gm_multi_run *from)
{
	int base = into->n;
	gm_status s = gm_multi_resize(into, into->n + from->n);

	if (s)
		return s;
	for (int i = 0; i < from->n; i++) {
		into->pl[base + i] = from->pl[i];
		gm_result_release(&into->runs[base + i]);
		into->runs[base + i] = from->runs[i];
		gm_result_init(&from->runs[i]);
	}
	if (!into->mode[0] || (from->n && strcmp(into->mode, from->mode)))
		snprintf(into->mode, sizeof(into->mode), "%s", base ? "several" : from->mode);
	return GM_OK;
}

void gm_multi_release(struct gm_multi_run *m)
{
	for (int i = 0; i < m->n; i++)
		gm_result_release(&m->runs[i]);
	free(m->pl);
	free(m->runs);
	memset(m, 0, sizeof(*m));
}

static json_t *telemetry_json(const struct gm_telemetry *t)
{
	if (!t->samples)
		return json_null();
	return json_pack("{si sf sf sf sf sf sf sf sf sI si sI sI}", "samples", t->samples, "sm_mhz_min",
			 t->sm_mhz_min, "sm_mhz_median", t->sm_mhz_median, "sm_mhz_max", t->sm_mhz_max,
			 "mem_mhz_min", t->mem_mhz_min, "mem_mhz_max", t->mem_mhz_max, "temp_c_min",
			 t->temp_c_min, "temp_c_max", t->temp_c_max, "power_w_max", t->power_w_max,
			 "throttle_reasons", (json_int_t)t->throttle_reasons, "max_processes",
			 t->max_processes, "ecc_corrected", (json_int_t)t->ecc_corrected,
			 "ecc_uncorrected", (json_int_t)t->ecc_uncorrected);
}

/* A run document as a jansson object, through the one writer (json_write.c). */
static json_t *run_json(const struct gm_run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o = NULL;

	if (!f)
		return NULL;
	if (gm_json_write(f, r) == GM_OK && fclose(f) == 0)
		o = json_loads(buf, 0, NULL);
	else
		fclose(f);
	free(buf);
	return o;
}

static json_t *block_json(const struct gm_placement *p, const struct gm_run_result *r)
{
	json_t *run = run_json(r);
	json_t *o;

	if (!run)
		return NULL;
	o = json_pack("{si ss si ss ss ss si si si si si ss ss si so so}", "rank", p->rank, "host",
		      p->host, "device", p->device, "name", p->name, "uuid", p->uuid, "pci_bus_id",
		      p->pci_bus_id, "numa_node", p->numa_node, "pcie_gen", p->pcie_gen, "pcie_width",
		      p->pcie_width, "pcie_gen_max", p->pcie_gen_max, "pcie_width_max", p->pcie_width_max,
		      "status", p->status, "message", p->message, "exit_code", p->exit_code, "telemetry",
		      telemetry_json(&p->tel), "run", run);
	return o;
}

gm_status gm_multi_write(FILE *f, const struct gm_multi_run *m)
{
	json_t *devs = json_array(), *doc;
	int rc;

	for (int i = 0; i < m->n; i++) {
		json_t *b = block_json(&m->pl[i], &m->runs[i]);
		if (!b) {
			json_decref(devs);
			return gm_fail(GM_ERR_NOMEM, "cannot build the block of device %d", i);
		}
		json_array_append_new(devs, b);
	}
	doc = json_pack("{ss si ss ss ss sf s{ss si} s[] so}", K_SCHEMA, GM_SCHEMA_NAME, K_SCHEMA_VERSION,
			GM_SCHEMA_VERSION, K_TOOL_VERSION, m->tool_version, K_COMMAND, m->command, K_STARTED,
			m->started_utc, K_WALL, m->wall_s, K_MULTI, "mode", m->mode, "ndevices", m->n,
			K_CASES, K_DEVICES, devs);
	if (!doc)
		return gm_fail(GM_ERR_NOMEM, "cannot build the JSON document");
	rc = json_dumpf(doc, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(doc);
	if (rc || fputc('\n', f) == EOF)
		return gm_fail(GM_ERR_IO, "cannot write JSON");
	return GM_OK;
}

static void str_of(char *dst, size_t n, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	snprintf(dst, n, "%s", s ? s : "");
}

static double num_of(json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* the same into an integer field: NaN reads as dflt, a value past the type's range as its nearest end
 * (a C conversion out of range is undefined; tests/unit/test_harden.c) */
static double clamped_of(json_t *o, const char *key, double dflt, double lo, double hi)
{
	double v = num_of(o, key, dflt);

	return v != v ? dflt : v < lo ? lo : v > hi ? hi : v;
}

static int int_of(json_t *o, const char *key, int dflt)
{
	return (int)clamped_of(o, key, dflt, INT_MIN, INT_MAX);
}

static void read_telemetry(json_t *o, struct gm_telemetry *t)
{
	if (!json_is_object(o))
		return;
	t->samples = int_of(o, "samples", 0);
	t->sm_mhz_min = num_of(o, "sm_mhz_min", 0);
	t->sm_mhz_median = num_of(o, "sm_mhz_median", 0);
	t->sm_mhz_max = num_of(o, "sm_mhz_max", 0);
	t->mem_mhz_min = num_of(o, "mem_mhz_min", 0);
	t->mem_mhz_max = num_of(o, "mem_mhz_max", 0);
	t->temp_c_min = num_of(o, "temp_c_min", 0);
	t->temp_c_max = num_of(o, "temp_c_max", 0);
	t->power_w_max = num_of(o, "power_w_max", 0);
	t->throttle_reasons = (uint64_t)clamped_of(o, "throttle_reasons", 0, 0, 1.8e19);
	t->max_processes = int_of(o, "max_processes", 0);
	t->ecc_corrected = (int64_t)clamped_of(o, "ecc_corrected", -1, -1, 9.2e18);
	t->ecc_uncorrected = (int64_t)clamped_of(o, "ecc_uncorrected", -1, -1, 9.2e18);
}

static gm_status read_block(json_t *o, struct gm_placement *p, struct gm_run_result *r)
{
	json_t *run = json_object_get(o, "run");
	char *text;
	gm_status s;

	if (!json_is_object(o) || !json_is_object(run))
		return gm_fail(GM_ERR_PARSE, "a device block is not an object with a \"run\"");
	p->rank = int_of(o, "rank", -1);
	str_of(p->host, sizeof(p->host), o, "host");
	p->device = int_of(o, "device", -1);
	str_of(p->name, sizeof(p->name), o, "name");
	str_of(p->uuid, sizeof(p->uuid), o, "uuid");
	str_of(p->pci_bus_id, sizeof(p->pci_bus_id), o, "pci_bus_id");
	p->numa_node = int_of(o, "numa_node", -1);
	p->pcie_gen = int_of(o, "pcie_gen", -1);
	p->pcie_width = int_of(o, "pcie_width", -1);
	p->pcie_gen_max = int_of(o, "pcie_gen_max", -1);
	p->pcie_width_max = int_of(o, "pcie_width_max", -1);
	str_of(p->status, sizeof(p->status), o, "status");
	str_of(p->message, sizeof(p->message), o, "message");
	p->exit_code = int_of(o, "exit_code", 0);
	read_telemetry(json_object_get(o, "telemetry"), &p->tel);
	text = json_dumps(run, JSON_COMPACT);
	if (!text)
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	gm_result_release(r);
	s = gm_json_read_text(text, r);
	free(text);
	return s;
}

/* A plain run document (parsed: doc) as a one-device fleet. */
static gm_status read_single(json_t *doc, const char *path, struct gm_multi_run *m)
{
	gm_status s = gm_multi_resize(m, 1);

	if (s)
		return s;
	gm_result_release(&m->runs[0]);
	s = gm_json_read_parsed(doc, path, &m->runs[0]);
	if (s)
		return s;
	snprintf(m->mode, sizeof(m->mode), "single");
	snprintf(m->tool_version, sizeof(m->tool_version), "%s", m->runs[0].tool_version);
	snprintf(m->command, sizeof(m->command), "%s", m->runs[0].command);
	snprintf(m->started_utc, sizeof(m->started_utc), "%s", m->runs[0].started_utc);
	m->wall_s = m->runs[0].wall_s;
	m->pl[0].device = m->runs[0].dev.index;
	snprintf(m->pl[0].name, sizeof(m->pl[0].name), "%s", m->runs[0].dev.name);
	snprintf(m->pl[0].status, sizeof(m->pl[0].status), "ok");
	if (m->runs[0].have_device) {
		const struct gm_device_info *d = &m->runs[0].dev;
		snprintf(m->pl[0].pci_bus_id, sizeof(m->pl[0].pci_bus_id), "%08X:%02X:%02X.0", d->pci_domain,
			 d->pci_bus, d->pci_device);
		m->pl[0].pcie_gen = d->pcie_gen;
		m->pl[0].pcie_width = d->pcie_width;
	}
	return GM_OK;
}

gm_status gm_multi_read(const char *path, struct gm_multi_run *m)
{
	json_error_t err;
	json_t *doc, *devs, *b;
	gm_status s = GM_OK;
	size_t i;

	gm_multi_init(m);
	doc = gm_json_load_path(path, &err);
	if (!doc)
		return err.line < 0 ? gm_fail(GM_ERR_PARSE, "cannot read '%s': %s", path, err.text) :
		       gm_fail(GM_ERR_PARSE, "cannot read '%s': %s (line %d)", path, err.text, err.line);
	devs = json_object_get(doc, K_DEVICES);
	if (!json_is_array(devs)) {
		s = read_single(doc, path, m);
		json_decref(doc);
		if (s)
			gm_multi_release(m); /* a failed read leaves no devices, as below (fuzz/regress/fleet) */
		return s;
	}
	str_of(m->mode, sizeof(m->mode), json_object_get(doc, K_MULTI), "mode");
	str_of(m->tool_version, sizeof(m->tool_version), doc, K_TOOL_VERSION);
	str_of(m->command, sizeof(m->command), doc, K_COMMAND);
	str_of(m->started_utc, sizeof(m->started_utc), doc, K_STARTED);
	m->wall_s = num_of(doc, K_WALL, 0);
	s = gm_multi_resize(m, (int)json_array_size(devs));
	json_array_foreach(devs, i, b) {
		if (!s)
			s = read_block(b, &m->pl[i], &m->runs[i]);
		if (s) {
			char msg[512];
			snprintf(msg, sizeof(msg), "%s", gm_last_error());
			s = gm_fail(s, "'%s': device block %zu: %s", path, i, msg);
			break;
		}
	}
	json_decref(doc);
	if (s)
		gm_multi_release(m);
	return s;
}

int gm_multi_is(const char *path)
{
	json_t *doc = gm_json_load_path(path, NULL);
	int yes = doc && json_is_array(json_object_get(doc, K_DEVICES));

	json_decref(doc);
	return yes;
}

gm_status gm_multi_block_dump(const struct gm_placement *p, const struct gm_run_result *r, char **text)
{
	json_t *b = block_json(p, r);

	*text = b ? json_dumps(b, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(b);
	return *text ? GM_OK : gm_fail(GM_ERR_NOMEM, "cannot serialise a device block");
}

gm_status gm_multi_block_load(const char *text, struct gm_placement *p, struct gm_run_result *r)
{
	json_error_t err;
	json_t *b = json_loads(text, 0, &err);
	gm_status s;

	if (!b)
		return gm_fail(GM_ERR_PARSE, "cannot parse a device block: %s", err.text);
	s = read_block(b, p, r);
	json_decref(b);
	return s;
}
