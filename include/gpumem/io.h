/*
 * io.h - renderers and files at the edge: JSON (schema docs/SCHEMA.md), CSV,
 * the human table, and atomic output files. Pure C; never prints on its own:
 * every writer takes the FILE the CLI hands it.
 */
#ifndef GPUMEM_IO_H
#define GPUMEM_IO_H

#include <stdio.h>
#include "gpumem/result.h"

/*
 * An output file written atomically: data goes to a temporary file in the
 * target's directory, renamed over the target only on commit. Opening it
 * first proves the path is writable before any benchmark runs. A path that
 * exists and is no regular file (a device such as /dev/stdout or /dev/full,
 * a FIFO) is written in place: a rename would replace the node itself.
 */
struct gm_outfile {
	char path[4096];
	char tmp[4096 + 16];
	FILE *f;
	int direct;   /* written in place (not a regular file): no temporary, no rename */
};

gm_status gm_outfile_open(struct gm_outfile *o, const char *path);
gm_status gm_outfile_commit(struct gm_outfile *o);
void gm_outfile_abort(struct gm_outfile *o);

gm_status gm_json_write(FILE *f, const struct gm_run_result *r);
/* Read a document written by gm_json_write (round trip); r is initialised here. */
gm_status gm_json_read(const char *path, struct gm_run_result *r);

/* The same from a string holding one run document. */
gm_status gm_json_read_text(const char *text, struct gm_run_result *r);

gm_status gm_csv_write(FILE *f, const struct gm_run_result *r);

/* The human table: one row per case. */
void gm_table_write(FILE *f, const struct gm_run_result *r);

/* Device block as text lines ("name: value"). */
void gm_device_write(FILE *f, const struct gm_device_info *d);

const char *gm_case_status_name(enum gm_case_status s);
const char *gm_case_kind_name(enum gm_case_kind k);   /* "dram" | "smem" | "measure" */
const char *gm_timing_name(enum gm_timing t);         /* "events" | "host" | "self" */

/* A case's headline with its unit, e.g. "2890.1 GB/s", "32.4 cycles". */
void gm_value_format(double v, enum gm_unit u, char *buf, size_t n);

/*
 * The measured spec sheet: the derived results that name a level, one line
 * per level and quantity, with the reference figure and the % reached.
 * Writes nothing when the run has none; returns the number of lines.
 */
int gm_spec_write(FILE *f, const struct gm_run_result *r);

/* Derived results as a table (name, value, unit, reference, how). */
void gm_derived_write(FILE *f, const struct gm_run_result *r);

/*
 * The HTML report: one self-contained page (Chart.js embedded, no request
 * leaves the file) with the spec sheet, the charts of every family present
 * and a sortable table of every case. labels[i] names runs[i] in legends;
 * with several runs every chart overlays them. io renders, never concludes:
 * the findings (gm_findings, src/analysis/findings.c) and the comparison
 * (gm_compare_runs) come from the caller.
 */
struct gm_finding;
struct gm_comparison;
struct gm_report_doc {
	const struct gm_run_result *runs;
	const char *const *labels;
	int nruns;
	const struct gm_finding *findings;         /* the first run's, shown after the title */
	int nfindings;
	const struct gm_comparison *cmp;           /* compare -o: the comparison first; NULL: none */
	void (*section)(FILE *f, const void *ctx); /* a static section before the charts (the fleet view); NULL: none */
	const void *ctx;
};
gm_status gm_html_write(FILE *f, const struct gm_report_doc *d);
/* s written into HTML text or an attribute value: <, >, & and " escaped (NULL writes nothing). */
void gm_html_escape(FILE *f, const char *s);

#endif
