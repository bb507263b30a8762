/*
 * datasheet.c - a GPU's datasheet figures as JSON (data/datasheets/NAME.json,
 * schema "gpumem-datasheet"), for predicting a GPU the model never ran on
 * (`gpumem predict --datasheet`, docs/MODEL.md 7.7).
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"

static const struct {
	const char *key;
	size_t off;
} ds_fields[] = {
	{ "hbm_bandwidth_gbs", offsetof(struct gm_datasheet, hbm_bandwidth_gbs) },
	{ "hbm_clock_mhz", offsetof(struct gm_datasheet, hbm_clock_mhz) },
	{ "bus_width_bits", offsetof(struct gm_datasheet, bus_width_bits) },
	{ "l2_bytes", offsetof(struct gm_datasheet, l2_bytes) },
	{ "sm_count", offsetof(struct gm_datasheet, sm_count) },
	{ "sm_clock_mhz", offsetof(struct gm_datasheet, sm_clock_mhz) },
	{ "pcie_gen", offsetof(struct gm_datasheet, pcie_gen) },
};

gm_status gm_datasheet_read(const char *path, struct gm_datasheet *d, char *why, size_t n)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e), *dev, *schema;
	gm_status s = GM_OK;

	memset(d, 0, sizeof(*d));
	if (!root) {
		FILE *f = fopen(path, "r");

		if (!f) {
			snprintf(why, n, "cannot open datasheet '%s'", path);
			return GM_ERR_IO;
		}
		fclose(f);
		snprintf(why, n, "%s: not JSON (line %d: %s)", path, e.line, e.text);
		return GM_ERR_PARSE;
	}
	schema = json_object_get(root, "schema");
	dev = json_object_get(root, "device");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), "gpumem-datasheet")) {
		snprintf(why, n, "%s: field 'schema' is not \"gpumem-datasheet\"", path);
		s = GM_ERR_PARSE;
	} else if (!json_is_string(dev) || !*json_string_value(dev)) {
		snprintf(why, n, "%s: field 'device' is missing", path);
		s = GM_ERR_PARSE;
	}
	for (size_t k = 0; s == GM_OK && k < sizeof(ds_fields) / sizeof(ds_fields[0]); k++) {
		json_t *v = json_object_get(root, ds_fields[k].key);
		double x = json_is_number(v) ? json_number_value(v) : 0;

		if (!(x > 0 && x < 1e15)) {
			snprintf(why, n, "%s: field '%s' is %s", path, ds_fields[k].key,
				 v ? "not a positive number" : "missing");
			s = GM_ERR_PARSE;
		}
		*(double *)((char *)d + ds_fields[k].off) = x;
	}
	if (s == GM_OK)
		snprintf(d->device, sizeof(d->device), "%s", json_string_value(dev));
	json_decref(root);
	return s;
}
