/*
 * suggest_io.h - rendering of `explain --suggest` (src/io/suggest_out.c): the
 * ranked table with the reasons of the rewrites that do not apply and the
 * closing sentence, the "suggest" JSON object, the rewrites' sources.
 */
#ifndef GPUMEM_IO_SUGGEST_IO_H
#define GPUMEM_IO_SUGGEST_IO_H

#include <stdio.h>
#include "gpumem/suggest.h"

/* The table; m may be NULL (no --run). Ends with the one-sentence verdict. */
void gm_suggest_text(FILE *f, const struct gm_suggest *s, const struct gm_suggest_meas *m);
/* The closing sentence alone (no newline). */
void gm_suggest_sentence(const struct gm_suggest *s, const struct gm_suggest_meas *m, char *buf, size_t n);
/* A new jansson object (json_t *); NULL on out of memory. */
void *gm_suggest_json(const struct gm_suggest *s, const struct gm_suggest_meas *m);
/* One rewrite's generated source under a heading line. */
void gm_suggest_source_write(FILE *f, const struct gm_rewrite *r, const char *source);

#endif
