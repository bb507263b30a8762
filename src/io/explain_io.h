/*
 * explain_io.h - rendering of `gpumem explain`: one warp's prediction (the
 * lane table and the counts), the launch model's section (explain --n) and
 * the run beside it (explain --run), as text (src/io/explain_text.c) or as
 * one JSON document (src/io/explain_json.c; the launch object is in
 * docs/SCHEMA.md), the rows GM_DOC_EXPLAIN of writer.h. Pure C: the writers
 * take the FILE the CLI hands them.
 */
#ifndef GPUMEM_IO_EXPLAIN_IO_H
#define GPUMEM_IO_EXPLAIN_IO_H

#include <stdio.h>
#include "gpumem/jit.h"
#include "gpumem/launch.h"
#include "gpumem/model.h"
#include "gpumem/profile.h"
#include "gpumem/result.h"

/* One warp's explanation: the access, its type name (NULL with --bytes) and the model's prediction. */
struct gm_explain_view {
	const struct gm_access *a;
	const char *type;
	const struct gm_prediction *p;
};

/* explain --n: the launch model's input (pats[0] is the EXPR side), profile, output and its own time. */
struct gm_explain_launch_view {
	const struct gm_launch_in *in;
	const struct gm_profile *prof;
	const struct gm_launch_out *out;
	double model_ms;
};

/* explain --run: the run and its one case, the kernel built, the model's sample of the EXPR side,
 * and the launch model's prediction when --n gave one (predicted_gbs 0 = none). */
struct gm_explain_run_view {
	const struct gm_run_result *r;
	const struct gm_case_result *cr;
	const struct gm_jit_info *info;
	const struct gm_launch_sample *ls;
	const struct gm_jit_spec *spec;
	double predicted_gbs;
	double predicted_dram[2]; /* bytes read, written */
};

static inline const char *gm_explain_space_name(enum gm_space s)
{
	return s == GM_SPACE_SHARED ? "shared" : "global";
}

static inline const char *gm_explain_op_name(enum gm_op op)
{
	return op == GM_OP_STORE ? "store" : "load";
}

/*
 * The explain document: the sections a command has (NULL: not there). Text can be written a section at a
 * time, as each is ready (the run comes last and takes seconds); JSON needs the warp and is written whole.
 */
struct gm_explain_doc {
	const struct gm_explain_view *warp;          /* the setup line, the lane table, the counts, the verdict */
	const struct gm_explain_launch_view *launch; /* explain --n: the "launch:" section, the "launch" object */
	const struct gm_explain_run_view *run;       /* explain --run: "run on ...", the "run" object */
};

/* The document's sections as text (writer.h: GM_DOC_EXPLAIN "text"). */
gm_status gm_explain_text(FILE *f, const struct gm_explain_doc *d);
/* The explain document as JSON (GM_DOC_EXPLAIN "json"; its launch object in docs/SCHEMA.md). */
gm_status gm_explain_json(FILE *f, const struct gm_explain_doc *d);

#endif
