/*
 * profile_cache.c - this unit's profile by default: `calibrate` stores the
 * profile it measured in the user's cache, keyed by the GPU's UUID
 * ($XDG_CACHE_HOME, else ~/.cache, /gpumem/profiles/<GPU-UUID>.json), and
 * gm_profile_for_device takes it when it is there and sound, else the SKU's
 * built-in profile (docs/MODEL.md 7.3, "Which profile is used").
 *
 * A cached file of another unit, of another schema version or that does not
 * read is named in the choice's note and left alone: the built-in profile is
 * used.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpumem/io.h"
#include "gpumem/profile.h"

#define CACHE_SUB "gpumem/profiles"

/* A UUID as a file name: letters, digits and '-' only (nvidia-smi's "GPU-xxxxxxxx-..."). */
static int uuid_ok(const char *uuid)
{
	if (!uuid || !*uuid || strlen(uuid) > 64)
		return 0;
	for (const char *c = uuid; *c; c++)
		if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '-'))
			return 0;
	return 1;
}

static int cache_root(char *dir, size_t n)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int w;

	if (xdg && *xdg == '/') /* XDG: a relative value is ignored */
		w = snprintf(dir, n, "%s/%s", xdg, CACHE_SUB);
	else if (home && *home)
		w = snprintf(dir, n, "%s/.cache/%s", home, CACHE_SUB);
	else
		return -1;
	return w > 0 && (size_t)w < n ? 0 : -1;
}

gm_status gm_profile_cache_path(const char *uuid, char *path, size_t n)
{
	char dir[900];
	int w;

	if (!uuid_ok(uuid) || cache_root(dir, sizeof(dir)))
		return GM_ERR_NOT_FOUND;
	w = snprintf(path, n, "%s/%s.json", dir, uuid);
	return w > 0 && (size_t)w < n ? GM_OK : GM_ERR_NOT_FOUND;
}

/* mkdir -p of every folder above path */
static int make_parents(const char *path, char *why, size_t wn)
{
	char d[1024];

	snprintf(d, sizeof(d), "%s", path);
	for (char *s = d + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(d, 0755) != 0 && errno != EEXIST) {
			snprintf(why, wn, "cannot create '%s': %s", d, strerror(errno));
			return -1;
		}
		*s = '/';
	}
	return 0;
}

gm_status gm_profile_cache_store(const struct gm_profile *p, char *path, size_t n, char *why, size_t wn)
{
	struct gm_outfile o;

	if (gm_profile_cache_path(p->uuid, path, n) != GM_OK) {
		snprintf(why, wn, "no cache folder for the profile of '%s' (no GPU UUID, or neither XDG_CACHE_HOME nor "
			 "HOME set)", p->device);
		return GM_ERR_IO;
	}
	if (make_parents(path, why, wn))
		return GM_ERR_IO;
	if (gm_outfile_open(&o, path)) {
		snprintf(why, wn, "%s", gm_last_error());
		gm_clear_error();
		return GM_ERR_IO;
	}
	if (gm_profile_write(o.f, p) || gm_outfile_commit(&o)) {
		gm_outfile_abort(&o);
		snprintf(why, wn, "cannot write '%s'", path);
		gm_clear_error();
		return GM_ERR_IO;
	}
	return GM_OK;
}

/* The cached profile of this unit, when its file is there and sound; a note when it is there and is not. */
static int cached(const char *uuid, struct gm_profile *p, struct gm_profile_choice *c)
{
	char path[1024], why[512];
	struct gm_profile q;
	FILE *f;

	if (gm_profile_cache_path(uuid, path, sizeof(path)) != GM_OK || !(f = fopen(path, "r")))
		return 0;
	fclose(f);
	if (gm_profile_read(path, &q, why, sizeof(why)) != GM_OK)
		snprintf(c->note, sizeof(c->note), "cached profile '%.500s' ignored: %.600s", path, why);
	else if (q.schema_version != GM_PROFILE_VERSION)
		snprintf(c->note, sizeof(c->note), "cached profile '%.500s' ignored: schema version %d, this gpumem writes %d "
			 "(run 'gpumem calibrate' again)", path, q.schema_version, GM_PROFILE_VERSION);
	else if (strcmp(q.uuid, uuid))
		snprintf(c->note, sizeof(c->note), "cached profile '%.500s' ignored: it was measured on %.60s, not on %.60s", path,
			 *q.uuid ? q.uuid : "an unnamed unit", uuid);
	else if (gm_profile_check(&q, why, sizeof(why)) != GM_OK)
		snprintf(c->note, sizeof(c->note), "cached profile '%.500s' ignored: %.600s", path, why);
	else {
		snprintf(q.origin, sizeof(q.origin), "this unit's, %.48s, calibrated %.32s: %.280s", q.uuid,
			 *q.measured_utc ? q.measured_utc : "(date unknown)", path);
		*p = q;
		return 1;
	}
	return 0;
}

gm_status gm_profile_for_device(const char *device, const char *uuid, struct gm_profile *p,
				struct gm_profile_choice *c)
{
	memset(c, 0, sizeof(*c));
	if (uuid && *uuid && cached(uuid, p, c)) {
		c->cached = c->exact = 1;
		return GM_OK;
	}
	return gm_profile_nearest(device, p, &c->exact);
}

void gm_profile_describe_unmeasured(const struct gm_profile *p, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int k = 0; k < gm_profile_nfields && len + 1 < n; k++) {
		const struct gm_profile_field *f = &gm_profile_fields[k];

		if (!gm_profile_unmeasured(p, f->name))
			continue;
		const char *then = !strcmp(f->name, "pages_gps")	   ? "rule P takes 65.6, an H100's"
				   : !strcmp(f->name, "pages_2m_al_gps") ? "rule P5 off"
				   : !strcmp(f->name, "pages_spread_gps") ? "rule P6 off"
				   : !strncmp(f->name, "pages_", 6) ? "rule P4 takes pages_gps"
				   : !strcmp(f->name, "launch_floor_us") ? "trace rule F takes launch_us"
				   : !strcmp(f->name, "floor_us")	   ? "rules D11 and S3 off"
				   : !strncmp(f->name, "l2_far_lines", 12) ? "rule L4 at its near rates"
				   : !strcmp(f->name, "l2_merge_far_lines_gps") ? "rule L4 at l2_merge_lines_gps"
				   : !strcmp(f->name, "write_sparse_gbs") ? "rule D12 off: writes at write_gbs"
				   : !strcmp(f->name, "read_quarter_gbs")
					   ? (p->read_quarter_gbs > 0 ? "rule D3 at 256 B takes the built-in profile's of "
									"this GPU, as its share from the half to the sparse time"
								      : "rule D3 sparse from 256 B")
					   : "its rule off";
		int w = snprintf(buf + len, n - len, "%s%s (%s; %s)", len ? ", " : "", f->name, f->source, then);

		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
}
