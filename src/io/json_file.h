/* json_file.h - JSON documents from files, plain or gzip-compressed (src/io/json_file.c). */
#ifndef GPUMEM_IO_JSON_FILE_H
#define GPUMEM_IO_JSON_FILE_H

#include <jansson.h>

/* The document in path (gzip-compressed when it starts with gzip's magic bytes); NULL with err filled. */
json_t *gm_json_load_path(const char *path, json_error_t *err);

#endif
