/*
 * json_file.c - a JSON document from a file, plain or compressed with gzip
 * (zlib reads both), so that run documents can be kept as RUN.json.gz and
 * read by predict, calibrate --from, report, compare and fleet as they are.
 * A file compressed with xz (committed trace documents) is named as such.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include "io/json_file.h"

/* 1 when the file starts with xz's magic bytes */
static int is_xz(const char *path)
{
	static const unsigned char magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
	unsigned char b[6];
	FILE *f = fopen(path, "rb");
	int xz = f && fread(b, 1, 6, f) == 6 && !memcmp(b, magic, 6);

	if (f)
		fclose(f);
	return xz;
}

/* jansson's reader callback over an open (maybe compressed) stream */
static size_t gz_chunk(void *buf, size_t size, void *data)
{
	int n = gzread((gzFile)data, buf, size > (1u << 30) ? (1u << 30) : (unsigned)size);

	return n < 0 ? (size_t)-1 : (size_t)n;
}

json_t *gm_json_load_path(const char *path, json_error_t *err)
{
	json_error_t dummy;
	struct stat st;
	gzFile gz;
	json_t *doc;

	if (!err)
		err = &dummy;
	errno = 0;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* gzread would fail as if the file were empty */
		memset(err, 0, sizeof(*err));
		err->line = -1;
		snprintf(err->text, sizeof(err->text), "%s", strerror(EISDIR));
		return NULL;
	}
	gz = gzopen(path, "rb");
	if (!gz) {
		memset(err, 0, sizeof(*err));
		err->line = -1;
		snprintf(err->text, sizeof(err->text), "%s", errno ? strerror(errno) : "out of memory");
		return NULL;
	}
	doc = json_load_callback(gz_chunk, gz, 0, err);
	gzclose(gz);
	if (!doc && is_xz(path)) {
		memset(err, 0, sizeof(*err));
		err->line = -1;
		snprintf(err->text, sizeof(err->text), "compressed with xz, which gpumem does not read: `xz -dk` it first");
	}
	return doc;
}
