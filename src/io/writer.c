/*
 * writer.c - the table of a run's output formats and the files that receive them (include/gpumem/writer.h).
 */
#include <string.h>
#include "gpumem/writer.h"

/* The text report: the command, the device, the table of cases, what was derived, the spec sheet. */
static gm_status write_text(FILE *f, const struct gm_run_result *r)
{
	fprintf(f, "%s\n%s, %s\n", r->command, r->have_device ? r->dev.name : "no device", r->started_utc);
	gm_table_write(f, r);
	gm_derived_write(f, r);
	gm_spec_write(f, r);
	return ferror(f) ? gm_fail(GM_ERR_IO, "cannot write the text report") : GM_OK;
}

const struct gm_run_writer gm_run_writers[] = {
	{ "text", "the table of cases, what was derived and the spec sheet", write_text },
	{ "json", "the run document (docs/SCHEMA.md)", gm_json_write },
	{ "csv", "one row a case", gm_csv_write },
	{ NULL, NULL, NULL },
};

const struct gm_run_writer *gm_run_writer_find(const char *name)
{
	for (const struct gm_run_writer *w = gm_run_writers; name && w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

gm_status gm_run_output_open(struct gm_run_output *o, const char *format, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->writer = gm_run_writer_find(format);
	if (!o->writer)
		return gm_fail(GM_ERR_INVALID_ARG, "no writer for the format '%s'", format ? format : "");
	if (gm_outfile_open(&o->file, path))
		return GM_ERR_IO;
	o->open = 1;
	return GM_OK;
}

gm_status gm_run_output_commit(struct gm_run_output *o, const struct gm_run_result *r)
{
	gm_status s;

	if (!o->open)
		return GM_OK;
	o->open = 0;
	s = o->writer->write(o->file.f, r);
	if (s) {
		gm_outfile_abort(&o->file);
		return s;
	}
	return gm_outfile_commit(&o->file);
}

void gm_run_output_abort(struct gm_run_output *o)
{
	if (o->open)
		gm_outfile_abort(&o->file);
	o->open = 0;
}
