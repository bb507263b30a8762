/*
 * writer.h - one interface for every command's output (src/io/writer.c), as nvbandwidth's output writers are:
 * a table of writers, one row per (document kind, format). A command builds its document, asks for the
 * writer of its kind in the format the user chose and hands it a FILE; none calls a format's function by its
 * own name. Adding a format, or a command's document, is one row (and the function the row names).
 *
 * Writers render and never conclude: what a document says (a comparison, the findings, a check's verdicts,
 * the fleet's outliers) is computed before, by src/analysis/, and travels in the document.
 */
#ifndef GPUMEM_WRITER_H
#define GPUMEM_WRITER_H

#include <stdio.h>
#include "gpumem/io.h"
#include "gpumem/result.h"

/* What a writer renders: each kind names the struct its writers take as doc. */
enum gm_doc_kind {
	GM_DOC_RUN,      /* struct gm_run_result: text, json (docs/SCHEMA.md), csv */
	GM_DOC_REPORT,   /* struct gm_report_doc (io.h): html, the report page of one or several runs */
	GM_DOC_COMPARE,  /* struct gm_compare_doc (below): text, json, html */
	GM_DOC_EXPLAIN,  /* struct gm_explain_doc (src/io/explain_io.h): text, json */
	GM_DOC_CHECK,    /* struct gm_check_doc (gpumem/check.h): text, json, prom, html */
	GM_DOC_BASELINE, /* struct gm_baseline (gpumem/baseline.h): json */
	GM_DOC_FLEET,    /* struct gm_fleet_doc (below): text (the fleet view), json (the runs of every device:
			    gpumem-multi), html (the report page opening with the fleet view) */
	GM_DOC_TRACE,    /* struct gm_trace_report (gpumem/trace.h): text, json, html */
	GM_DOC_SUGGEST,  /* struct gm_suggest_doc (below): text, json (`explain --suggest`) */
};

struct gm_writer {
	enum gm_doc_kind kind;
	const char *format;  /* "text", "json", "csv", "html", "prom" */
	const char *what;    /* one line for help texts */
	/* Write doc (of the struct kind names) to f; GM_OK or the status of the first failure (gm_last_error). */
	gm_status (*write)(FILE *f, const void *doc);
};

/* The writers, terminated by a row whose format is NULL. */
extern const struct gm_writer gm_writers[];

/* The writer of kind in format, or NULL. */
const struct gm_writer *gm_writer_find(enum gm_doc_kind kind, const char *format);

/* Write doc with the writer of (kind, format): its status, or GM_ERR_INVALID_ARG when there is none. */
gm_status gm_write(FILE *f, enum gm_doc_kind kind, const char *format, const void *doc);

/* compare: two runs and their comparison (gm_compare_runs, src/analysis/compare.c). */
struct gm_finding;
struct gm_comparison;
struct gm_compare_doc {
	const struct gm_comparison *c;
	const struct gm_run_result *a, *b;
	const char *name_a, *name_b;       /* json: the documents' paths; html: the runs' labels */
	int color;                         /* text: verdicts coloured (a terminal) */
	const struct gm_finding *findings; /* html: A's findings (gm_findings) */
	int nfindings;
};

/* fleet: the runs of several devices and the fleet view over them (gm_fleet_compute, src/analysis/fleet.c). */
struct gm_multi_run;
struct gm_fleet;
struct gm_fleet_doc {
	const struct gm_multi_run *m;
	const struct gm_fleet *fl;         /* text, html */
	const char *const *labels;         /* html: the names in legends of the devices the page overlays, */
	int nlabels;                       /*       the first nlabels of m */
	const struct gm_finding *findings; /* html: the first device's findings (gm_findings) */
	int nfindings;
};

/* explain --suggest: the rewrites (gm_suggest, src/model/suggest.c) and, with --run, what each measured. */
struct gm_suggest;
struct gm_suggest_meas;
struct gm_suggest_doc {
	const struct gm_suggest *s;
	const struct gm_suggest_meas *m;   /* NULL without --run */
};

/*
 * A file that receives one document in one format, whole or not at all (gm_outfile). Open it before the
 * work, so an unwritable path fails first; commit writes and renames it into place; abort leaves the old file.
 */
struct gm_output {
	const struct gm_writer *writer;
	struct gm_outfile file;
	int open;
};

/* GM_ERR_INVALID_ARG for a kind without that format, GM_ERR_IO when path cannot be written. */
gm_status gm_output_open(struct gm_output *o, enum gm_doc_kind kind, const char *format, const char *path);
/* Write doc and put the file in place; the output is closed either way. A no-op when o is not open. */
gm_status gm_output_commit(struct gm_output *o, const void *doc);
/* Close without writing: the file at path is left as it was. A no-op when o is not open. */
void gm_output_abort(struct gm_output *o);

#endif
