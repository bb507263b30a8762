/*
 * profile.c - device profiles as JSON (schema docs/SCHEMA.md, "Device
 * profile") and the profiles built into the binary.
 *
 * The built-in profiles are data/profiles/<device>.json of the
 * source tree, embedded at build time (CMakeLists.txt writes
 * gm_embed_profiles.c with the table gm_embed_profiles[]), so `explain --n`
 * and `run` find a profile without any file beside the binary.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"

struct embedded_profile {
	const char *path;
	const unsigned char *text;
};
extern const struct embedded_profile gm_embed_profiles[];
extern const int gm_embed_profiles_count;

/* Every number of a profile: JSON key, offset, and whether it is an int. */
static const struct {
	const char *key;
	size_t off;
	int is_int;
	int required;
} fields[] = {
	{ "sm_count", offsetof(struct gm_profile, sm_count), 1, 1 },
	{ "sm_clock_mhz", offsetof(struct gm_profile, sm_clock_mhz), 0, 1 },
	{ "l1_bytes", offsetof(struct gm_profile, l1_bytes), 0, 1 },
	{ "l2_bytes", offsetof(struct gm_profile, l2_bytes), 0, 1 },
	{ "dram_atom_bytes", offsetof(struct gm_profile, dram_atom_bytes), 1, 1 },
	{ "read_gbs", offsetof(struct gm_profile, read_gbs), 0, 1 },
	{ "write_gbs", offsetof(struct gm_profile, write_gbs), 0, 1 },
	{ "copy_gbs", offsetof(struct gm_profile, copy_gbs), 0, 1 },
	{ "read_half_gbs", offsetof(struct gm_profile, read_half_gbs), 0, 1 },
	{ "read_sparse_gbs", offsetof(struct gm_profile, read_sparse_gbs), 0, 1 },
	{ "l2_read_gbs", offsetof(struct gm_profile, l2_read_gbs), 0, 1 },
	{ "l2_write_gbs", offsetof(struct gm_profile, l2_write_gbs), 0, 1 },
	{ "l1_gbs", offsetof(struct gm_profile, l1_gbs), 0, 1 },
	{ "threads_per_sm", offsetof(struct gm_profile, threads_per_sm), 1, 0 },
	{ "pages_gps", offsetof(struct gm_profile, pages_gps), 0, 0 },
	{ "blocks_gps", offsetof(struct gm_profile, blocks_gps), 0, 0 },
	{ "wave_ns", offsetof(struct gm_profile, wave_ns), 0, 0 },
	{ "wave_l2_ns", offsetof(struct gm_profile, wave_l2_ns), 0, 0 },
	{ "warp_tail", offsetof(struct gm_profile, warp_tail), 0, 0 },
	{ "l2_lines_gps", offsetof(struct gm_profile, l2_lines_gps), 0, 0 },
	{ "l2_merge_lines_gps", offsetof(struct gm_profile, l2_merge_lines_gps), 0, 0 },
	{ "l2_part_sectors_gps", offsetof(struct gm_profile, l2_part_sectors_gps), 0, 0 },
	{ "knee", offsetof(struct gm_profile, knee), 0, 0 },
	{ "launch_us", offsetof(struct gm_profile, launch_us), 0, 0 },
	{ "dram_latency_ns", offsetof(struct gm_profile, dram_latency_ns), 0, 0 },
	{ "l2_latency_ns", offsetof(struct gm_profile, l2_latency_ns), 0, 0 },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static gm_status bad(char *why, size_t n, const char *origin, const char *what)
{
	snprintf(why, n, "%s: %s", origin, what);
	return GM_ERR_PARSE;
}

static gm_status read_number(json_t *v, size_t k, struct gm_profile *p, const char *origin,
			     char *why, size_t n)
{
	char what[96];
	double x;

	if (!json_is_number(v)) {
		snprintf(what, sizeof(what), "field '%s' is %s", fields[k].key, v ? "not a number" : "missing");
		return bad(why, n, origin, what);
	}
	x = json_number_value(v);
	/* no quantity of a profile is below 1e-6 in its unit: a denormal bandwidth (fuzz/regress/profile)
	 * made the launch model's times infinite and its prediction NaN */
	if (!(x >= 1e-6) || x > 1e15) {
		snprintf(what, sizeof(what), "field '%s' must be positive, from 1e-6 to 1e15 (got %g)", fields[k].key, x);
		return bad(why, n, origin, what);
	}
	if (fields[k].is_int && x > 1e9) { /* an int field: past INT_MAX the conversion is undefined */
		snprintf(what, sizeof(what), "field '%s' must be at most 1e9 (got %g)", fields[k].key, x);
		return bad(why, n, origin, what);
	}
	if (fields[k].is_int)
		*(int *)((char *)p + fields[k].off) = (int)x;
	else
		*(double *)((char *)p + fields[k].off) = x;
	return GM_OK;
}

static gm_status from_json(json_t *root, const char *origin, struct gm_profile *p, char *why, size_t n)
{
	json_t *schema = json_object_get(root, "schema");
	json_t *dev = json_object_get(root, "device");
	json_t *src = json_object_get(root, "source");
	json_t *ver = json_object_get(root, "schema_version");

	if (!json_is_object(root))
		return bad(why, n, origin, "not a JSON object");
	if (!json_is_string(schema) || strcmp(json_string_value(schema), GM_PROFILE_SCHEMA) != 0)
		return bad(why, n, origin, "field 'schema' is not \"" GM_PROFILE_SCHEMA "\"");
	if (!json_is_string(dev) || !*json_string_value(dev))
		return bad(why, n, origin, "field 'device' is missing");
	if (json_is_integer(ver) && json_integer_value(ver) > GM_PROFILE_VERSION) {
		char what[96];

		snprintf(what, sizeof(what), "field 'schema_version' is %lld; this gpumem reads version %d",
			 (long long)json_integer_value(ver), GM_PROFILE_VERSION);
		return bad(why, n, origin, what);
	}
	memset(p, 0, sizeof(*p));
	snprintf(p->device, sizeof(p->device), "%s", json_string_value(dev));
	snprintf(p->source, sizeof(p->source), "%s", json_is_string(src) ? json_string_value(src) : "");
	snprintf(p->origin, sizeof(p->origin), "%s", origin);
	for (size_t k = 0; k < NFIELDS; k++) {
		json_t *v = json_object_get(root, fields[k].key);
		gm_status s;

		if (!v && !fields[k].required)
			continue;
		if ((s = read_number(v, k, p, origin, why, n)) != GM_OK)
			return s;
	}
	if (p->dram_atom_bytes != 32 && p->dram_atom_bytes != 64 && p->dram_atom_bytes != 128)
		return bad(why, n, origin, "field 'dram_atom_bytes' must be 32, 64 or 128");
	if (!(p->pages_gps > 0)) /* rule P's rate, from a profile measured before calibrate measured it */
		p->pages_gps = GM_PAGES_GPS_DEFAULT;
	return GM_OK;
}

gm_status gm_profile_parse(const char *text, const char *origin, struct gm_profile *p, char *why, size_t n)
{
	json_error_t e;
	json_t *root = json_loads(text, 0, &e);
	gm_status s;

	if (!root) {
		snprintf(why, n, "%s: not JSON (line %d: %s)", origin, e.line, e.text);
		return GM_ERR_PARSE;
	}
	s = from_json(root, origin, p, why, n);
	json_decref(root);
	return s;
}

gm_status gm_profile_read(const char *path, struct gm_profile *p, char *why, size_t n)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e);
	FILE *f;
	gm_status s;

	if (!root) {
		f = fopen(path, "r");
		if (!f) {
			snprintf(why, n, "cannot open profile '%s'", path);
			return GM_ERR_IO;
		}
		fclose(f);
		snprintf(why, n, "%s: not JSON (line %d: %s)", path, e.line, e.text);
		return GM_ERR_PARSE;
	}
	s = from_json(root, path, p, why, n);
	json_decref(root);
	return s;
}

gm_status gm_profile_write(FILE *f, const struct gm_profile *p)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:s}", "schema", GM_PROFILE_SCHEMA, "schema_version",
			      GM_PROFILE_VERSION, "device", p->device, "source", p->source);
	int rc;

	if (!o)
		return GM_ERR_NOMEM;
	for (size_t k = 0; k < NFIELDS; k++) {
		const char *q = (const char *)p + fields[k].off;

		if (fields[k].is_int && (fields[k].required || *(const int *)q > 0))
			json_object_set_new(o, fields[k].key, json_integer(*(const int *)q));
		else if (fields[k].is_int)
			continue;
		else if (fields[k].required || *(const double *)q > 0)
			json_object_set_new(o, fields[k].key, json_real(*(const double *)q));
	}
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(7));
	json_decref(o);
	if (rc < 0 || fputc('\n', f) == EOF)
		return GM_ERR_IO;
	return GM_OK;
}

int gm_profile_builtin_count(void)
{
	return gm_embed_profiles_count;
}

gm_status gm_profile_builtin(int i, struct gm_profile *p)
{
	char why[256], origin[300];

	if (i < 0 || i >= gm_embed_profiles_count)
		return GM_ERR_NOT_FOUND;
	snprintf(origin, sizeof(origin), "built-in %s", gm_embed_profiles[i].path);
	return gm_profile_parse((const char *)gm_embed_profiles[i].text, origin, p, why, sizeof(why));
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t k = 0;

	while (a[k] && a[k] == b[k])
		k++;
	return k;
}

gm_status gm_profile_nearest(const char *device, struct gm_profile *p, int *exact)
{
	struct gm_profile q;
	size_t best = 0;
	int found = 0;

	*exact = 0;
	for (int i = 0; i < gm_embed_profiles_count; i++) {
		size_t c;

		if (gm_profile_builtin(i, &q) != GM_OK)
			continue;
		c = device ? common_prefix(device, q.device) : 0;
		if (device && !strcmp(device, q.device)) {
			*p = q;
			*exact = 1;
			return GM_OK;
		}
		if (!found || c > best) {
			*p = q;
			best = c;
			found = 1;
		}
	}
	return found ? GM_OK : GM_ERR_NOT_FOUND;
}
