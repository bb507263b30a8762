/*
 * explain_suggest.h - `explain --suggest` for cmd_explain.c (src/cli/explain_suggest.c).
 */
#ifndef GPUMEM_CLI_EXPLAIN_SUGGEST_H
#define GPUMEM_CLI_EXPLAIN_SUGGEST_H

struct gm_access;
struct explain_run_opts;
/* acc->n_threads is the launch; run: measure every row (ro->source: print the sources instead). */
int explain_suggest(const struct gm_access *acc, const struct explain_run_opts *ro, int run, const char *profile,
		    int json);

#endif
