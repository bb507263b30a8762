/*
 * json_file.c - a JSON document from a file, plain or compressed with gzip
 * (the two magic bytes decide), so that run documents can be kept as
 * RUN.json.gz and read by predict, calibrate --from, report, compare and fleet
 * as they are.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "io/json_file.h"

static int is_gzip(const char *path)
{
	unsigned char m[2] = { 0, 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(m, 1, 2, f) : 0;

	if (f)
		fclose(f);
	return n == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* jansson's reader callback over an open gzip stream */
static size_t gz_chunk(void *buf, size_t size, void *data)
{
	int n = gzread((gzFile)data, buf, size > (1u << 30) ? (1u << 30) : (unsigned)size);

	return n < 0 ? (size_t)-1 : (size_t)n;
}

json_t *gm_json_load_path(const char *path, json_error_t *err)
{
	json_error_t dummy;
	gzFile gz;
	json_t *doc;

	if (!err)
		err = &dummy;
	if (!is_gzip(path))
		return json_load_file(path, 0, err);
	gz = gzopen(path, "rb");
	if (!gz) {
		memset(err, 0, sizeof(*err));
		snprintf(err->text, sizeof(err->text), "cannot open the gzip file");
		return NULL;
	}
	doc = json_load_callback(gz_chunk, gz, 0, err);
	gzclose(gz);
	return doc;
}
