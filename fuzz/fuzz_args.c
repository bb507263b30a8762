/*
 * fuzz_args.c - libFuzzer target for the option parsers of the subcommands,
 * parse only: no command runs. The input is an argv: byte 0 picks the
 * command, the rest is split at NUL or newline bytes into at most 64 words.
 *   - `run`: gm_run_args_parse (every option's value checked, combinations);
 *   - every command of the option table (src/cli/options.h, when this tree has
 *     it): gm_opts_parse over its table with a callback that only records;
 *   - every word through the value parsers the options share
 *     (gm_parse_size, gm_parse_int).
 * Invariants (abort = a crash for libFuzzer): the caller's argv is never
 * changed; a refusal has a message; what was accepted is in range; parsing
 * twice gives the same answer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "gpumem/units.h"
#include "fuzz_util.h"
#if __has_include("cli/options.h")
#include "cli/options.h"
#define HAVE_OPTIONS 1
#endif

#define MAXW 64

static void check_run(int argc, char **argv)
{
	struct gm_run_args a, b;
	char err[512] = "", err2[512] = "";
	gm_status s = gm_run_args_parse(argc, argv, &a, err, sizeof(err));
	gm_status s2 = gm_run_args_parse(argc, argv, &b, err2, sizeof(err2));

	fz_check(s == s2);
	if (s != GM_OK) {
		fz_check(err[0] != '\0' && !strcmp(err, err2));
		return;
	}
	fz_check(a.nselectors >= 0 && a.nselectors < argc);
	fz_check(a.nselectors == b.nselectors && a.size == b.size && a.reps == b.reps);
	fz_check(a.reps >= 0 && a.device >= 0 && a.timeout_s >= 0);
	/* --help wins: the combinations are checked only for a run that would start */
	fz_check(a.help || (!(a.quick && a.full) && !(a.barrier && !a.mpi)));
	for (int i = 0; i < a.nselectors; i++)
		fz_check(a.selectors[i] != NULL && !strcmp(a.selectors[i], b.selectors[i]));
	gm_run_args_free(&a);
	gm_run_args_free(&b);
}

#ifdef HAVE_OPTIONS
struct seen {
	int n;
};

static int record(void *ctx, const struct gm_opt *o, const char *value)
{
	struct seen *s = ctx;

	fz_check(o != NULL && o->key > 0);
	fz_check((o->arg != NULL) == (value != NULL));
	if (value)
		(void)strlen(value);
	s->n++;
	return 0;
}

static void check_table(const struct gm_cmd_doc *d, int argc, char **argv)
{
	struct gm_opts_state st;
	struct seen s = { 0 };
	int rc;

	memset(&st, 0, sizeof(st));
	rc = gm_opts_parse(d, argc, argv, record, &s, &st);
	fz_check(rc == 0 || rc == GM_OPTS_HELP || rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING ||
		 rc == GM_OPTS_NOMEM);
	fz_check(st.noperands >= 0 && st.noperands < argc);
	for (int i = 0; i < st.noperands; i++)
		fz_check(st.operands[i] != NULL);
	if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING) {
		fz_check(st.bad != NULL);
		fz_check(gm_opts_error(d, rc, &st) == GM_EXIT_USAGE);
	}
	gm_opts_release(&st);
}
#endif

static void check_values(const char *w)
{
	uint64_t b;
	long v;

	if (gm_parse_size(w, &b) == GM_OK)
		fz_check(b >= 1 && b <= (uint64_t)1e18);
	if (gm_parse_int(w, -1000, 1000, &v) == GM_OK)
		fz_check(v >= -1000 && v <= 1000);
	if (gm_parse_int(w, 0, 1023, &v) == GM_OK)
		fz_check(v >= 0 && v <= 1023);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the parsers' refusals and --help go to stderr/stdout: keep the fuzzer's output readable */
	if (!getenv("FUZZ_ARGS_VERBOSE")) {
		fz_check(freopen("/dev/null", "w", stdout) != NULL);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[MAXW + 2], *copy[MAXW + 2];
	char *buf;
	int argc = 1, which;

	if (size < 1 || size > 4096)
		return 0;
	which = data[0];
	buf = fz_text(data + 1, size - 1);
	/* split at NUL and newline (empty words too): words[1..] point into buf */
	{
		size_t n = size - 1, start = 0;

		for (size_t i = 0; i <= n && argc <= MAXW; i++) {
			if (i == n || buf[i] == '\0' || buf[i] == '\n') {
				buf[i] = '\0';
				words[argc++] = buf + start;
				start = i + 1;
			}
		}
	}
	words[argc] = NULL;
	for (int i = 1; i < argc; i++) {
		copy[i] = strdup(words[i]);
		fz_check(copy[i] != NULL);
		check_values(words[i]);
	}
#ifdef HAVE_OPTIONS
	{
		int k = which % (gm_ncommands + 1);

		if (k == gm_ncommands) {
			words[0] = "run";
			check_run(argc, words);
		} else {
			words[0] = (char *)gm_commands[k].doc->name;
			check_table(gm_commands[k].doc, argc, words);
		}
	}
#else
	(void)which;
	words[0] = "run";
	check_run(argc, words);
#endif
	for (int i = 1; i < argc; i++) {
		fz_check(!strcmp(copy[i], words[i])); /* the caller's argv is never changed */
		free(copy[i]);
	}
	free(buf);
	return 0;
}
