/* json_file.h - JSON documents from files, plain or gzip-compressed (src/io/json_file.c). */
#ifndef GPUMEM_IO_JSON_FILE_H
#define GPUMEM_IO_JSON_FILE_H

#include <jansson.h>
#include "gpumem/status.h"

/* The document in path (gzip-compressed when it starts with gzip's magic bytes); NULL with err filled. */
json_t *gm_json_load_path(const char *path, json_error_t *err);

struct gm_run_result;
/* gm_json_read() of a document already parsed (doc; origin names it in messages): the file is read once. */
gm_status gm_json_read_parsed(json_t *doc, const char *origin, struct gm_run_result *r);

#endif
