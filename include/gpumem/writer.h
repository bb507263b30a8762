/*
 * writer.h - one interface for a run's output formats (src/io/writer.c): the text report, JSON, CSV and the
 * HTML page, each a row of one table selected by name, as nvbandwidth's output writers are. Commands pick a
 * writer and a destination; none calls a format's function by its own name. Adding a format is one row.
 */
#ifndef GPUMEM_WRITER_H
#define GPUMEM_WRITER_H

#include <stdio.h>
#include "gpumem/io.h"
#include "gpumem/result.h"

struct gm_run_writer {
	const char *name;   /* "text", "json", "csv", "html" */
	const char *what;   /* one line for help texts */
	/* Write run r to f; GM_OK or the status of the first failure (gm_last_error names it). */
	gm_status (*write)(FILE *f, const struct gm_run_result *r);
};

/* The writers, terminated by a row whose name is NULL. */
extern const struct gm_run_writer gm_run_writers[];

/* The writer called name, or NULL. */
const struct gm_run_writer *gm_run_writer_find(const char *name);

/*
 * A file that receives one format of a run, whole or not at all (gm_outfile). Open it before the run, so
 * an unwritable path fails first; commit writes and renames it into place; abort leaves the old file.
 */
struct gm_run_output {
	const struct gm_run_writer *writer;
	struct gm_outfile file;
	int open;
};

/* GM_ERR_INVALID_ARG for an unknown format, GM_ERR_IO when path cannot be written. */
gm_status gm_run_output_open(struct gm_run_output *o, const char *format, const char *path);
/* Write r and put the file in place; the output is closed either way. A no-op when o is not open. */
gm_status gm_run_output_commit(struct gm_run_output *o, const struct gm_run_result *r);
/* Close without writing: the file at path is left as it was. A no-op when o is not open. */
void gm_run_output_abort(struct gm_run_output *o);

#endif
