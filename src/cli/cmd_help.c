/*
 * cmd_help.c - the command table, `gpumem --help`, and `gpumem help`: one
 * command's help, the manual page gpumem(1) (--man, roff) and the bash
 * completion (--completion), all drawn from the commands' option tables.
 * The build runs `gpumem help --man` and `--completion` and installs what
 * they print, so the manual and the completion never disagree with --help.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/options.h"

/* `gpumem check` and `gpumem baseline` (issue 37; cmd_check.c, cmd_baseline.c) */
extern const struct gm_cmd_doc gm_doc_check, gm_doc_baseline;
int cmd_check(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
/* `gpumem trace` (issue 38; cmd_trace.c) */
extern const struct gm_cmd_doc gm_doc_trace;
int cmd_trace(int argc, char **argv);

const struct gm_command gm_commands[] = {
	{ &gm_doc_info, cmd_info },
	{ &gm_doc_list, cmd_list },
	{ &gm_doc_run, cmd_run },
	{ &gm_doc_report, cmd_report },
	{ &gm_doc_compare, cmd_compare },
	{ &gm_doc_fleet, cmd_fleet },
	{ &gm_doc_check, cmd_check },
	{ &gm_doc_baseline, cmd_baseline },
	{ &gm_doc_calibrate, cmd_calibrate },
	{ &gm_doc_predict, cmd_predict },
	{ &gm_doc_explain, cmd_explain },
	{ &gm_doc_trace, cmd_trace },
	{ &gm_doc_selftest, cmd_selftest },
	{ &gm_doc_help, cmd_help },
};
const int gm_ncommands = (int)(sizeof(gm_commands) / sizeof(gm_commands[0]));

static const struct { int code; const char *brief, *meaning; } exit_codes[] = {
	{ GM_EXIT_OK, "ok", "ok" },
	{ GM_EXIT_CASE_FAILED, "a case failed",
	  "a case failed validation or hit an error; compare: a regression; fleet: an outlier" },
	{ GM_EXIT_USAGE, "usage", "usage: a bad option, an unknown benchmark, bad input" },
	{ GM_EXIT_NO_DEVICE, "no GPU/driver", "no CUDA device, or the driver is missing or too old" },
	{ GM_EXIT_TOO_LARGE, "too large", "out of device memory: --size exceeds the free memory, or an allocation failed" },
	{ GM_EXIT_IO, "I/O error", "an output file could not be written (checked before any work)" },
	{ GM_EXIT_CUDA, "CUDA error", "the device failed during the run" },
	{ GM_EXIT_INTERRUPTED, "interrupted", "interrupted (Ctrl-C): the finished cases were written" },
};
#define NEXIT (sizeof(exit_codes) / sizeof(exit_codes[0]))

static const char what_text[] =
	"gpumem measures, predicts and explains how a GPU's memory system treats an access pattern:\n"
	"coalescing, strides, misalignment, shared-memory bank conflicts, the cache hierarchy, transfers\n"
	"and more, each kernel validated against a CPU reference before it is timed. The analytic model\n"
	"(explain, predict) needs no GPU.";

enum { H_MAN = 256, H_COMPLETION };

static const struct gm_opt help_opts[] = {
	{ "COMMAND", GM_OPT_OPERAND, 0, NULL, "that command's help (as 'gpumem COMMAND --help')", "@command" },
	{ "man", H_MAN, 0, NULL, "print the manual page gpumem(1) in roff: man -l <(gpumem help --man)", NULL },
	{ "completion", H_COMPLETION, 0, NULL, "print the bash completion script: source <(gpumem help --completion)", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_help = {
	"help", "a command's help, the manual page (--man) or the bash completion (--completion)",
	"[COMMAND | --man | --completion]", NULL, help_opts, NULL,
};

void gm_main_usage(FILE *f)
{
	fprintf(f, "usage: gpumem [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (int i = 0; i < gm_ncommands; i++)
		fprintf(f, "  %-9s %s\n", gm_commands[i].doc->name, gm_commands[i].doc->summary);
	fprintf(f, "\n'gpumem <command> --help' describes a command.\nexit codes:");
	for (size_t i = 0; i < NEXIT; i++)
		fprintf(f, "%s %d %s", i == 0 ? "" : i == 5 ? ",\n           " : ",", exit_codes[i].code,
			exit_codes[i].brief);
	fputc('\n', f);
}

/* ---- the manual page (roff) ---------------------------------------------- */

/* text in roff: backslashes and hyphens escaped, a line never starting with a control character. */
static void roff_text(FILE *f, const char *t, size_t len)
{
	int bol = 1;

	for (size_t i = 0; i < len; i++) {
		char c = t[i];

		if (bol && (c == '.' || c == '\''))
			fputs("\\&", f);
		if (c == '\\')
			fputs("\\e", f);
		else if (c == '-')
			fputs("\\-", f);
		else
			fputc(c, f);
		bol = c == '\n';
	}
}

static void roff_str(FILE *f, const char *t)
{
	roff_text(f, t, strlen(t));
}

/* Paragraphs: a blank line is .PP; lines indented by spaces are kept as written (.nf). */
static void roff_paragraphs(FILE *f, const char *t)
{
	int nofill = 0;

	while (*t) {
		size_t len = strcspn(t, "\n");
		int pre = t[0] == ' ';

		if (len == 0) {
			fputs(nofill ? ".fi\n.PP\n" : ".PP\n", f);
			nofill = 0;
		} else {
			if (pre != nofill)
				fputs(pre ? ".nf\n" : ".fi\n", f);
			nofill = pre;
			roff_text(f, t, len);
			fputc('\n', f);
		}
		t += len + (t[len] == '\n');
	}
	if (nofill)
		fputs(".fi\n", f);
}

static void roff_option(FILE *f, const struct gm_opt *o)
{
	if (o->key == GM_OPT_HEADING) {
		fputs(".PP\n\\fI", f);
		roff_str(f, o->help);
		fputs("\\fR\n", f);
		return;
	}
	fputs(".TP\n", f);
	if (o->key == GM_OPT_OPERAND) {
		fputs("\\fI", f);
		roff_str(f, o->name);
		fputs("\\fR\n", f);
	} else {
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", f);
		roff_str(f, o->name);
		fputs("\\fR", f);
		if (o->arg) {
			fputs(" \\fI", f);
			roff_str(f, o->arg);
			fputs("\\fR", f);
		}
		fputc('\n', f);
	}
	roff_str(f, o->help);
	fputc('\n', f);
}

static void roff_command(FILE *f, const struct gm_cmd_doc *d)
{
	char syn[512];

	fprintf(f, ".SS \"gpumem %s\"\n.B gpumem %s\n", d->name, d->name);
	snprintf(syn, sizeof(syn), "%s", d->synopsis);
	for (char *p = syn; *p; p++)
		if (*p == '\n')
			*p = ' ';
	roff_str(f, syn);
	fputs("\n.PP\n", f);
	roff_str(f, d->summary);
	fputs(".\n", f);
	if (d->description) {
		fputs(".PP\n", f);
		roff_paragraphs(f, d->description);
	}
	for (const struct gm_opt *o = d->opts; o && (o->name || o->help); o++)
		roff_option(f, o);
	if (d->after) {
		fputs(".PP\n", f);
		roff_paragraphs(f, d->after);
	}
}

void gm_man_write(FILE *f)
{
	fprintf(f, ".\\\" gpumem(1), generated by 'gpumem help --man' from the commands' option tables\n"
		   ".TH GPUMEM 1 \"\" \"gpumem %s\" \"User Commands\"\n.nh\n.ad l\n.SH NAME\n"
		   "gpumem \\- measure, predict and explain how a GPU's memory system treats an access pattern\n"
		   ".SH SYNOPSIS\n.B gpumem\n[\\fB\\-\\-version\\fR] [\\fB\\-\\-help\\fR] \\fIcommand\\fR "
		   "[\\fIargs\\fR]\n.SH DESCRIPTION\n", GPUMEM_VERSION);
	roff_paragraphs(f, what_text);
	fputs("\n.PP\nEach command has its own options, listed under COMMANDS; "
	      "\\fBgpumem\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR prints the same text.\n.SH COMMANDS\n", f);
	for (int i = 0; i < gm_ncommands; i++) {
		fprintf(f, ".TP\n.B %s\n", gm_commands[i].doc->name);
		roff_str(f, gm_commands[i].doc->summary);
		fputc('\n', f);
	}
	for (int i = 0; i < gm_ncommands; i++)
		roff_command(f, gm_commands[i].doc);
	fputs(".SH \"EXIT STATUS\"\n", f);
	for (size_t i = 0; i < NEXIT; i++) {
		fprintf(f, ".TP\n.B %d\n", exit_codes[i].code);
		roff_str(f, exit_codes[i].meaning);
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nwhen set, no colour in the output (also none when it is not a "
	      "terminal)\n.TP\n.B CUDA_VISIBLE_DEVICES\nthe GPUs the CUDA runtime shows (\\fB\\-\\-device\\fR "
	      "counts among them)\n"
	      ".SH NOTES\nThe binary links the CUDA runtime statically; it needs the NVIDIA driver's "
	      "libcuda.so.1 to run cases, libcupti.so.13 for \\fB\\-\\-counters\\fR and NVRTC for "
	      "\\fBexplain \\-\\-run\\fR (all loaded at run time). \\fBlist\\fR, \\fBexplain\\fR, "
	      "\\fBreport\\fR, \\fBcompare\\fR, \\fBpredict\\fR and \\fBfleet\\fR need no GPU.\n"
	      ".SH \"SEE ALSO\"\nREADME.md and the documents in /usr/share/doc/gpumem/: METHODOLOGY.md (timing, units, "
	      "bytes counted), MODEL.md (the model's rules and evidence), SCHEMA.md (the run document), "
	      "families/*.md (one page per benchmark family).\n", f);
}

/* ---- the bash completion ------------------------------------------------- */

static void words_of(FILE *f, const struct gm_cmd_doc *d, int with_value)
{
	int first = 1;

	for (const struct gm_opt *o = d->opts; o->name || o->help; o++)
		if (o->key > 0 && !!o->arg == with_value) {
			fprintf(f, "%s--%s", first ? "" : " ", o->name);
			first = 0;
		}
}

/* The case of one command: values of its options, then its options and operands. */
static void completion_command(FILE *f, const struct gm_cmd_doc *d)
{
	const char *operand = NULL;

	fprintf(f, "\t%s)\n\t\tcase $prev in\n", d->name);
	for (const struct gm_opt *o = d->opts; o->name || o->help; o++) {
		if (o->key == GM_OPT_OPERAND)
			operand = o->complete;
		if (o->key <= 0 || !o->arg)
			continue;
		fprintf(f, "\t\t--%s%s%c)", o->name, o->short_name ? "|-" : "", o->short_name ? o->short_name : ' ');
		if (!o->complete)
			fputs(" return ;;\n", f);
		else if (!strcmp(o->complete, "@file"))
			fputs(" _gpumem_files; return ;;\n", f);
		else
			fprintf(f, " COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n", o->complete);
	}
	fputs("\t\tesac\n\t\topts=\"", f);
	words_of(f, d, 1);
	fputc(' ', f);
	words_of(f, d, 0);
	fprintf(f, "\"\n\t\toperand=%s ;;\n", operand ? operand + (operand[0] == '@') : "none");
}

void gm_completion_write(FILE *f)
{
	fputs("# bash completion for gpumem, generated by 'gpumem help --completion' from the commands'\n"
	      "# option tables: the commands, their options, the values some options take, and the\n"
	      "# families and cases of 'gpumem list'.\n\n"
	      "_gpumem_files() {\n\tcompopt -o filenames 2>/dev/null\n"
	      "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n}\n\n"
	      "_gpumem_cases() {\n\tlocal bin=${COMP_WORDS[0]}\n"
	      "\tcommand -v \"$bin\" >/dev/null 2>&1 || bin=gpumem\n"
	      "\t\"$bin\" list 2>/dev/null | awk '/^# / { print $2; next } { print $1 }'\n}\n\n"
	      "_gpumem() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal cmd= opts= operand=none i\n\tCOMPREPLY=()\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n\tdone\n"
	      "\tif [ -z \"$cmd\" ]; then\n\t\tCOMPREPLY=($(compgen -W \"", f);
	for (int i = 0; i < gm_ncommands; i++)
		fprintf(f, "%s ", gm_commands[i].doc->name);
	fputs("--help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $cmd in\n", f);
	for (int i = 0; i < gm_ncommands; i++)
		completion_command(f, gm_commands[i].doc);
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [[ $cur == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n\tcase $operand in\n"
	      "\tcase) COMPREPLY=($(compgen -W \"$(_gpumem_cases)\" -- \"$cur\")) ;;\n"
	      "\tfile) _gpumem_files ;;\n\tcommand) COMPREPLY=($(compgen -W \"", f);
	for (int i = 0; i < gm_ncommands; i++)
		fprintf(f, "%s%s", i ? " " : "", gm_commands[i].doc->name);
	fputs("\" -- \"$cur\")) ;;\n\tesac\n}\n\ncomplete -F _gpumem gpumem\n", f);
}

/* ---- gpumem help ----------------------------------------------------------- */

static int help_option(void *ctx, const struct gm_opt *o, const char *v)
{
	(void)v;
	*(int *)ctx = o->key;
	return 0;
}

int cmd_help(int argc, char **argv)
{
	struct gm_opts_state st;
	int what = 0, rc = gm_opts_parse(&gm_doc_help, argc, argv, help_option, &what, &st);
	const char *name = !rc && st.noperands == 1 ? st.operands[0] : NULL;

	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_help);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_help, rc, &st);
	else if (st.noperands > 1 || (st.noperands && what))
		rc = gm_error(GM_EXIT_USAGE, "help takes one command or one option (see 'gpumem help --help')");
	else if (what == H_MAN)
		gm_man_write(stdout);
	else if (what == H_COMPLETION)
		gm_completion_write(stdout);
	else if (!name)
		gm_main_usage(stdout);
	else {
		int i = 0;

		while (i < gm_ncommands && strcmp(gm_commands[i].doc->name, name))
			i++;
		if (i == gm_ncommands)
			rc = gm_error(GM_EXIT_USAGE, "unknown command '%s' (see 'gpumem --help')", name);
		else
			gm_cmd_help(stdout, gm_commands[i].doc);
	}
	gm_opts_release(&st);
	return rc == GM_OPTS_HELP ? GM_EXIT_OK : rc;
}
