/*
 * options.h - one option table per command, and everything drawn from it:
 * the parser (getopt_long built from the table), `--help`, the manual page
 * (`gpumem help --man`, roff) and the bash completion (`gpumem help
 * --completion`). The manual and the completion are generated at build time
 * by the built binary, so the three never disagree with the parser.
 */
#ifndef GPUMEM_CLI_OPTIONS_H
#define GPUMEM_CLI_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

/* key of a table row that is not an option */
enum { GM_OPT_HEADING = -1, GM_OPT_OPERAND = -2 };

/*
 * One row: an option (key > 0), a heading that starts a group of options
 * (key GM_OPT_HEADING, text in help), or a positional operand (key
 * GM_OPT_OPERAND, name is its metavariable). A row with no name and no help
 * ends the table.
 */
struct gm_opt {
	const char *name;     /* long name without "--"; the operand's name */
	int key;              /* what the parser hands back: the short letter or an id >= 256 */
	char short_name;      /* -x as well, or 0 */
	const char *arg;      /* the value's name (FILE, N); NULL: a flag */
	const char *help;     /* lines separated by '\n' */
	const char *complete; /* the value's completion: "@file", "@case" (families and cases), or words */
};

struct gm_cmd_doc {
	const char *name;
	const char *summary;     /* one line: the command list and the manual's list */
	const char *synopsis;    /* after "gpumem NAME "; '\n' starts a continuation line */
	const char *description; /* paragraphs separated by a blank line; may be NULL */
	const struct gm_opt *opts;
	const char *after;       /* examples, exit status (shown as written); may be NULL */
};

/* The command table: every command's page and function, in the order `gpumem --help` lists them. */
struct gm_command {
	const struct gm_cmd_doc *doc;
	int (*fn)(int argc, char **argv);
};
extern const struct gm_command gm_commands[];
extern const int gm_ncommands;

/* `gpumem help [COMMAND | --man | --completion]` (cmd_help.c). */
int cmd_help(int argc, char **argv);

extern const struct gm_cmd_doc gm_doc_info, gm_doc_list, gm_doc_run, gm_doc_report, gm_doc_compare,
	gm_doc_fleet, gm_doc_calibrate, gm_doc_predict, gm_doc_explain, gm_doc_selftest, gm_doc_help;

/* The outcome of gm_opts_parse beyond the options' values. */
struct gm_opts_state {
	char **operands;          /* the positional arguments, in order (pointers into argv) */
	int noperands;
	const char *bad;          /* an unknown option, or the option missing its value, as typed */
	const struct gm_opt *bad_opt; /* the row of the option missing its value */
	char **copy;              /* getopt permutes this copy, never the caller's argv */
	char shortbuf[4];
};

/* GM_OPTS_HELP: -h/--help (the row with key 'h') was met; the parse stops there, as --help wins. */
enum { GM_OPTS_OK = 0, GM_OPTS_UNKNOWN = -1, GM_OPTS_MISSING = -2, GM_OPTS_NOMEM = -3, GM_OPTS_HELP = -4 };

/* Called for each option in order with its row and value (NULL for a flag); non-zero stops the parse. */
typedef int (*gm_opt_fn)(void *ctx, const struct gm_opt *o, const char *value);

/*
 * Parse argv (argv[0] is the command's name) against d->opts: fn for each
 * option, operands collected in st. Returns 0, GM_OPTS_HELP, GM_OPTS_UNKNOWN or
 * GM_OPTS_MISSING (st->bad names it), GM_OPTS_NOMEM, or fn's first non-zero
 * return (an exit code). Release st with gm_opts_release in every case.
 */
int gm_opts_parse(const struct gm_cmd_doc *d, int argc, char **argv, gm_opt_fn fn, void *ctx,
		  struct gm_opts_state *st);
void gm_opts_release(struct gm_opts_state *st);

/* "--name" of a row, into buf. */
const char *gm_opt_flag(const struct gm_opt *o, char *buf, size_t n);

/* The usual one-line refusal: "unknown option 'X'" / "option '--x' needs a value", with a pointer to --help. */
int gm_opts_error(const struct gm_cmd_doc *d, int rc, const struct gm_opts_state *st);

/* The command's --help text. */
void gm_cmd_help(FILE *f, const struct gm_cmd_doc *d);
/* `gpumem --help`: every command with its summary. */
void gm_main_usage(FILE *f);
/* The manual page gpumem(1), roff. */
void gm_man_write(FILE *f);
/* The bash completion script (complete -F _gpumem gpumem). */
void gm_completion_write(FILE *f);

/* Option values, the whole string or -1 (nothing is written then). Decimal or 0x hex, optionally signed. */
int gm_opt_i64(const char *s, int64_t *out);
/* The same within int. */
int gm_opt_int(const char *s, int *out);
/* "X[,Y[,Z]]" into out; missing components are `missing` (1 for blockDim, 0 for blockIdx). */
int gm_opt_dims(const char *s, int out[3], int missing);

#endif
