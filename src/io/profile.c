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

/* The numbers of a profile: the table of include/gpumem/profile_fields.def (gm_profile_fields). */
#define fields gm_profile_fields
#define NFIELDS ((size_t)gm_profile_nfields)

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
		snprintf(what, sizeof(what), "field '%s' is %s", fields[k].name, v ? "not a number" : "missing");
		return bad(why, n, origin, what);
	}
	x = json_number_value(v);
	/* no quantity of a profile is below 1e-6 in its unit: a denormal bandwidth (fuzz/regress/profile)
	 * made the launch model's times infinite and its prediction NaN */
	if (!(x >= 1e-6) || x > 1e15) {
		snprintf(what, sizeof(what), "field '%s' must be positive, from 1e-6 to 1e15 (got %g)", fields[k].name, x);
		return bad(why, n, origin, what);
	}
	if (fields[k].is_int && x > 1e9) { /* an int field: past INT_MAX the conversion is undefined */
		snprintf(what, sizeof(what), "field '%s' must be at most 1e9 (got %g)", fields[k].name, x);
		return bad(why, n, origin, what);
	}
	if (fields[k].is_int)
		*(int *)((char *)p + fields[k].off) = (int)x;
	else
		*(double *)((char *)p + fields[k].off) = x;
	return GM_OK;
}

static void copy_string(json_t *root, const char *key, char *dst, size_t n)
{
	json_t *v = json_object_get(root, key);

	snprintf(dst, n, "%s", json_is_string(v) ? json_string_value(v) : "");
}

static gm_status parse_text(const char *text, const char *origin, struct gm_profile *p, char *why, size_t n,
			    int fill);

/*
 * read_quarter_gbs that p's run did not measure (rule D3 at 256 B, m82): the built-in profile of the same device
 * name carries it, taken as its share of the way from its half to its sparse time and put on p's own half and
 * sparse rates: H200 units differ by 10 % in their sparse rate (2520 / 2777 GB/s) and read 256 B at 0.84-0.89 of
 * that way, so the share travels between units and the rate does not. Still named in p->unmeasured. No built-in
 * of that name (or one without the field): left 0, rule D3 sparse from 256 B.
 */
void gm_profile_fill_from_builtin(struct gm_profile *p)
{
	struct gm_profile q;
	char why[256];

	if (p->read_quarter_gbs > 0 || !(p->read_sparse_gbs > 0) || !(p->read_sparse_gbs < p->read_half_gbs))
		return;
	for (int i = 0; i < gm_embed_profiles_count; i++) {
		double th, ts, f;

		if (parse_text((const char *)gm_embed_profiles[i].text, gm_embed_profiles[i].path, &q, why, sizeof(why),
			       0) != GM_OK || strcmp(q.device, p->device) || !(q.read_quarter_gbs > 0) ||
		    !(q.read_sparse_gbs < q.read_half_gbs))
			continue;
		th = 1.0 / q.read_half_gbs;
		ts = 1.0 / q.read_sparse_gbs;
		f = (1.0 / q.read_quarter_gbs - th) / (ts - th);
		th = 1.0 / p->read_half_gbs;
		p->read_quarter_gbs = 1.0 / (th + f * (1.0 / p->read_sparse_gbs - th));
		return;
	}
}

static gm_status from_json(json_t *root, const char *origin, struct gm_profile *p, char *why, size_t n, int fill)
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
	p->schema_version = json_is_integer(ver) ? (int)json_integer_value(ver) : 1;
	copy_string(root, "uuid", p->uuid, sizeof(p->uuid));
	copy_string(root, "measured_utc", p->measured_utc, sizeof(p->measured_utc));
	for (size_t k = 0; k < NFIELDS; k++) {
		json_t *v = json_object_get(root, fields[k].name);
		gm_status s;

		if (!v && fields[k].need == GM_PF_OPT) /* not measured: named, never silent */
			gm_profile_note_unmeasured(p, fields[k].name);
		if (!v && fields[k].need != GM_PF_REQ)
			continue;
		if ((s = read_number(v, k, p, origin, why, n)) != GM_OK)
			return s;
	}
	if (p->dram_atom_bytes != 32 && p->dram_atom_bytes != 64 && p->dram_atom_bytes != 128)
		return bad(why, n, origin, "field 'dram_atom_bytes' must be 32, 64 or 128");
	if (!(p->pages_gps > 0)) /* rule P's rate, not measured: the H100's (named in unmeasured) */
		p->pages_gps = GM_PAGES_GPS_DEFAULT;
	if (fill && !(p->read_quarter_gbs > 0)) /* named in unmeasured: the same GPU's built-in share */
		gm_profile_fill_from_builtin(p);
	return GM_OK;
}

static gm_status parse_text(const char *text, const char *origin, struct gm_profile *p, char *why, size_t n,
			    int fill)
{
	json_error_t e;
	json_t *root = json_loads(text, 0, &e);
	gm_status s;

	if (!root) {
		snprintf(why, n, "%s: not JSON (line %d: %s)", origin, e.line, e.text);
		return GM_ERR_PARSE;
	}
	s = from_json(root, origin, p, why, n, fill);
	json_decref(root);
	return s;
}

gm_status gm_profile_parse(const char *text, const char *origin, struct gm_profile *p, char *why, size_t n)
{
	return parse_text(text, origin, p, why, n, 1);
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
	s = from_json(root, path, p, why, n, 1);
	json_decref(root);
	return s;
}

gm_status gm_profile_write(FILE *f, const struct gm_profile *p)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:s}", "schema", GM_PROFILE_SCHEMA, "schema_version",
			      GM_PROFILE_VERSION, "device", p->device, "source", p->source);
	json_t *un = json_array();
	int rc;

	if (!o || !un) {
		json_decref(o);
		json_decref(un);
		return GM_ERR_NOMEM;
	}
	if (*p->uuid)
		json_object_set_new(o, "uuid", json_string(p->uuid));
	if (*p->measured_utc)
		json_object_set_new(o, "measured_utc", json_string(p->measured_utc));
	for (size_t k = 0; k < NFIELDS; k++) {
		double v = gm_profile_get(p, &fields[k]);

		if (gm_profile_unmeasured(p, fields[k].name)) { /* absent from the file: read back as unmeasured */
			json_array_append_new(un, json_string(fields[k].name));
			continue;
		}
		if (fields[k].need != GM_PF_REQ && !(v > 0))
			continue;
		json_object_set_new(o, fields[k].name, fields[k].is_int ? json_integer((json_int_t)v) : json_real(v));
	}
	if (json_array_size(un))
		json_object_set_new(o, "unmeasured", un); /* for the reader of the file: the reader derives it */
	else
		json_decref(un);
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
	char why[512], origin[300];

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
