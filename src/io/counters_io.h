/*
 * counters_io.h - rendering of run --counters: the "counters" JSON object of
 * a case (docs/SCHEMA.md) and the counters table (src/io/counters_text.c).
 */
#ifndef GPUMEM_IO_COUNTERS_IO_H
#define GPUMEM_IO_COUNTERS_IO_H

#include <stdio.h>
#include "gpumem/counters.h"
#include "gpumem/result.h"

/* A new jansson object (json_t *) for c; NULL on out of memory. */
void *gm_counters_json(const struct gm_counters *c);

/*
 * Read back what a saved "counters" object (json_t *) counted: state, kernels,
 * duration, DRAM bytes, L2 sectors and hit rate, global and shared-memory
 * traffic, occupancy (the fields the report and findings use). Missing fields
 * stay 0; an object not "ok" leaves only the state.
 */
void gm_counters_from_json(const void *json, struct gm_counters *c);

/* The counters table of every case that has counters: sectors/request, DRAM bytes vs claim, bottleneck. */
void gm_counters_table_write(FILE *f, const struct gm_run_result *r);

/* One case's counters as indented lines (explain --run). */
void gm_counters_lines_write(FILE *f, const struct gm_counters *c, double seconds);

#endif
