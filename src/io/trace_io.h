/*
 * trace_io.h - `gpumem trace`'s report (include/gpumem/trace.h) as text
 * (src/io/trace_text.c), as the "gpumem-trace-report/1" JSON document
 * (src/io/trace_json.c; docs/SCHEMA.md) and as a section of the HTML report
 * (src/io/html.c). Pure C: the writers take the FILE the CLI hands them.
 */
#ifndef GPUMEM_IO_TRACE_IO_H
#define GPUMEM_IO_TRACE_IO_H

#include <stdio.h>
#include "gpumem/status.h"
#include "gpumem/trace.h"

/* The report as text: per kernel its figures and bottlenecks, the instructions, the fixes. */
void gm_trace_text(FILE *f, const struct gm_trace_report *r);
/* The report as one JSON document (pretty-printed, a newline at the end); GM_ERR_IO / GM_ERR_NOMEM. */
gm_status gm_trace_json(FILE *f, const struct gm_trace_report *r);

/* The report as an HTML page (the report's style, a static section: no run, no script needed). */
gm_status gm_trace_html(FILE *f, const struct gm_trace_report *r);

#endif
