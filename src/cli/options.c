/*
 * options.c - the parser built from a command's option table
 * (getopt_long), and the --help text drawn from the same table.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"

#define HELP_COLUMN 26 /* the help text starts here; longer option names put it on the next line */

static int is_option(const struct gm_opt *o)
{
	return o->key > 0;
}

static int table_end(const struct gm_opt *o)
{
	return !o->name && !o->help;
}

const char *gm_opt_flag(const struct gm_opt *o, char *buf, size_t n)
{
	snprintf(buf, n, "--%s", o->name);
	return buf;
}

static const struct gm_opt *find_key(const struct gm_cmd_doc *d, int key)
{
	for (const struct gm_opt *o = d->opts; !table_end(o); o++)
		if (is_option(o) && o->key == key)
			return o;
	return NULL;
}

/* getopt_long's tables: long options and the short letters (":" first: a missing value is ':'). */
static int build_tables(const struct gm_cmd_doc *d, struct option **lo, char **so)
{
	size_t n = 0, k = 0, s = 0;

	for (const struct gm_opt *o = d->opts; !table_end(o); o++)
		n += is_option(o);
	*lo = calloc(n + 1, sizeof(**lo));
	*so = calloc(3 * n + 2, 1);
	if (!*lo || !*so)
		return -1;
	(*so)[s++] = ':';
	for (const struct gm_opt *o = d->opts; !table_end(o); o++) {
		if (!is_option(o))
			continue;
		(*lo)[k].name = o->name;
		(*lo)[k].has_arg = o->arg ? required_argument : no_argument;
		(*lo)[k].val = o->key;
		k++;
		if (o->short_name) {
			(*so)[s++] = o->short_name;
			if (o->arg)
				(*so)[s++] = ':';
		}
	}
	return 0;
}

/* An unknown option or a missing value: what the user typed, into st. Rows with a short letter
 * have it as their key, the others keys >= 256, so optopt below 256 with no row is a short letter. */
static int parse_error(const struct gm_cmd_doc *d, int c, struct gm_opts_state *st)
{
	if (c == ':') {
		st->bad_opt = find_key(d, optopt);
		st->bad = st->copy[optind - 1];
		return GM_OPTS_MISSING;
	}
	if (optopt > 0 && optopt < 256 && !find_key(d, optopt)) { /* "-x", maybe inside "-xyz" */
		snprintf(st->shortbuf, sizeof(st->shortbuf), "-%c", optopt);
		st->bad = st->shortbuf;
	} else
		st->bad = st->copy[optind - 1];
	return GM_OPTS_UNKNOWN;
}

int gm_opts_parse(const struct gm_cmd_doc *d, int argc, char **argv, gm_opt_fn fn, void *ctx,
		  struct gm_opts_state *st)
{
	struct option *lo = NULL;
	char *so = NULL;
	int c, rc = 0;

	memset(st, 0, sizeof(*st));
	st->copy = calloc((size_t)argc + 1, sizeof(*st->copy));
	if (!st->copy || build_tables(d, &lo, &so)) {
		free(lo);
		free(so);
		return GM_OPTS_NOMEM;
	}
	memcpy(st->copy, argv, (size_t)argc * sizeof(*argv));
	optind = 0; /* glibc: start afresh (a command may parse after another one did) */
	opterr = 0;
	while (!rc && (c = getopt_long(argc, st->copy, so, lo, NULL)) != -1) {
		const struct gm_opt *o = c == '?' || c == ':' ? NULL : find_key(d, c);

		if (o && o->key == 'h')
			rc = GM_OPTS_HELP;
		else
			rc = o ? fn(ctx, o, o->arg ? optarg : NULL) : parse_error(d, c, st);
	}
	if (!rc) {
		st->operands = st->copy + optind;
		st->noperands = argc - optind;
	}
	free(lo);
	free(so);
	return rc;
}

void gm_opts_release(struct gm_opts_state *st)
{
	free(st->copy);
	memset(st, 0, sizeof(*st));
}

int gm_opts_error(const struct gm_cmd_doc *d, int rc, const struct gm_opts_state *st)
{
	char flag[64];

	if (rc == GM_OPTS_NOMEM)
		return gm_error(GM_EXIT_USAGE, "out of memory");
	if (rc == GM_OPTS_MISSING && st->bad_opt)
		return gm_error(GM_EXIT_USAGE, "option '%s' needs a value (see 'gpumem %s --help')",
				gm_opt_flag(st->bad_opt, flag, sizeof(flag)), d->name);
	return gm_error(GM_EXIT_USAGE, "unknown option '%s' (see 'gpumem %s --help')", st->bad, d->name);
}

/* ---- --help ------------------------------------------------------------ */

/* "-o, --output FILE" or "SELECTOR": the left column of a row. */
static int row_label(const struct gm_opt *o, char *buf, size_t n)
{
	if (o->key == GM_OPT_OPERAND)
		return snprintf(buf, n, "%s", o->name);
	if (o->short_name)
		return snprintf(buf, n, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
				o->arg ? o->arg : "");
	return snprintf(buf, n, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

/* Each line of text, the first after `first` columns already written, the rest indented to col. */
static void put_lines(FILE *f, const char *text, int first, int col)
{
	int at = first;

	while (*text) {
		size_t len = strcspn(text, "\n");

		fprintf(f, "%*s%.*s\n", at < col ? col - at : 1, "", (int)len, text);
		text += len + (text[len] == '\n');
		at = 0;
	}
}

static void help_rows(FILE *f, const struct gm_opt *opts)
{
	for (const struct gm_opt *o = opts; !table_end(o); o++) {
		char label[96];
		int w;

		if (o->key == GM_OPT_HEADING) {
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		w = 2 + row_label(o, label, sizeof(label));
		fprintf(f, "  %s", label);
		if (w >= HELP_COLUMN - 1) {
			fputc('\n', f);
			w = 0;
		}
		put_lines(f, o->help, w, HELP_COLUMN);
	}
}

void gm_cmd_help(FILE *f, const struct gm_cmd_doc *d)
{
	const char *s = d->synopsis;
	int indent = (int)strlen("usage: gpumem  ") + (int)strlen(d->name);

	fprintf(f, "usage: gpumem %s", d->name);
	while (*s) {
		size_t len = strcspn(s, "\n");

		fprintf(f, "%s%.*s\n", s == d->synopsis ? " " : "", (int)len, s);
		s += len;
		if (*s == '\n' && *++s)
			fprintf(f, "%*s", indent, "");
	}
	if (!*d->synopsis)
		fputc('\n', f);
	if (d->description)
		fprintf(f, "\n%s\n", d->description);
	if (d->opts && !table_end(d->opts)) {
		if (d->opts->key != GM_OPT_HEADING)
			fputc('\n', f);
		help_rows(f, d->opts);
	}
	if (d->after)
		fprintf(f, "\n%s", d->after);
}

/* ---- option values ------------------------------------------------------ */

/* Decimal or 0x hex, optionally signed, the whole string. */
int gm_opt_i64(const char *s, int64_t *out)
{
	const char *digits = s + (*s == '-' || *s == '+');
	int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10;
	char *end;
	long long v;

	if (*digits == '\0' || *digits == ' ')
		return -1;
	errno = 0;
	v = strtoll(s, &end, base);
	if (errno || *end != '\0' || end == s)
		return -1;
	*out = v;
	return 0;
}

int gm_opt_int(const char *s, int *out)
{
	int64_t v;

	if (gm_opt_i64(s, &v) < 0 || v < -2147483647 || v > 2147483647)
		return -1;
	*out = (int)v;
	return 0;
}

/* "X[,Y[,Z]]"; missing components are 1 (blockDim) or 0 (blockIdx). */
int gm_opt_dims(const char *s, int out[3], int missing)
{
	int n;

	out[0] = out[1] = out[2] = missing;
	for (n = 0; n < 3; n++) {
		size_t len = strcspn(s, ",");
		char num[24];

		if (len == 0 || len >= sizeof(num))
			return -1;
		memcpy(num, s, len);
		num[len] = '\0';
		if (gm_opt_int(num, &out[n]) < 0)
			return -1;
		s += len;
		if (*s == '\0')
			return 0;
		s++; /* the comma */
	}
	return -1; /* a fourth component */
}
