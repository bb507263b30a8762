/*
 * cmd_trace.c - `gpumem trace [options] -- PROGRAM [ARGS...]`: run an
 * unmodified CUDA program under the collector (src/trace/, T1's
 * gm_trace_collect), or read a saved trace document (--from), analyse it
 * (src/analysis/trace_*.c) and write the report (src/io/trace_text.c,
 * trace_json.c). --run times the top fitted patterns and their rewrites as
 * `explain --suggest --run` does (explain_suggest.c). docs/TRACE.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "cli/cli.h"
#include "cli/explain_suggest.h"
#include "cli/options.h"
#include "gpumem/io.h"
#include "gpumem/profile.h"
#include "gpumem/trace.h"
#include "gpumem/trace_collect.h"
#include "io/trace_io.h"

enum {
	T_KERNEL = 'k', T_SKIP = 's', T_COUNT = 'c', T_SAMPLES = 257, T_TIMEOUT, T_JSON, T_KEEP, T_FROM, T_RUN,
	T_PROFILE, T_TOP, T_DEVICE, T_HTML, T_STOP, T_COUNT_WARPS,
};

static const struct gm_opt trace_table[] = {
	{ "PROGRAM", GM_OPT_OPERAND, 0, NULL, "the program to run, after --, with its arguments", "@file" },
	{ "kernel", T_KERNEL, 'k', "REGEX", "trace only launches whose kernel name (mangled or demangled)\n"
	  "matches this POSIX extended regex (ncu's -k)", NULL },
	{ "launch-skip", T_SKIP, 's', "N", "matching launches to skip before the first traced (default 0)", NULL },
	{ "launch-count", T_COUNT, 'c', "N", "matching launches to trace (default 1)", NULL },
	{ "samples", T_SAMPLES, 0, "N", "warps whose lane addresses are sampled per instruction and launch\n"
	  "(default 64, 0-4096; 0 = counts only, no patterns)", NULL },
	{ "timeout", T_TIMEOUT, 0, "S", "stop the program after S seconds in each pass (default: none);\n"
	  "what was collected is kept", NULL },
	{ "stop-after", T_STOP, 0, NULL, "end the program (in each pass) once its selected launches are traced\n"
	  "and timed: bounded time for programs that run for minutes (its exit\n"
	  "status is then unknown)", NULL },
	{ "count-warps", T_COUNT_WARPS, 0, "N", "count a launch of more warps on 1 block in 2^s (the least s that\n"
	  "counts at most N warps) and scale its counts (default 1048576;\n"
	  "0 = every warp, exact)", NULL },
	{ "device", T_DEVICE, 0, "N", "the GPU the program's device 0 is (CUDA_VISIBLE_DEVICES; default: as set)",
	  NULL },
	{ "json", T_JSON, 0, "FILE", "also write the report as JSON (schema gpumem-trace-report/1)", "@file" },
	{ "html", T_HTML, 0, "FILE", "also write the report as an HTML page (instructions with bars, the kernel\n"
	  "against the DRAM roof)", "@file" },
	{ "keep-trace", T_KEEP, 0, "FILE", "keep the trace document (gpumem-trace/1) in FILE", "@file" },
	{ "from", T_FROM, 0, "TRACE", "analyse a saved trace document instead of running a program\n"
	  "(no GPU needed)", "@file" },
	{ "profile", T_PROFILE, 0, "FILE", "device profile for the launch model (default: the built-in one\n"
	  "of the traced device)", "@file" },
	{ "top", T_TOP, 0, "N", "instructions per kernel that get a fix (default 3)", NULL },
	{ "run", T_RUN, 0, NULL, "time each kernel's top fitted pattern and its rewrites in isolation,\n"
	  "as 'explain --suggest --run' does (needs a GPU)", NULL },
	{ "help", 'h', 'h', NULL, "show this help", NULL },
	{ 0 },
};

const struct gm_cmd_doc gm_doc_trace = {
	"trace", "run a CUDA program and explain its kernels' memory, instruction by instruction, with fixes",
	"[options] -- PROGRAM [ARGS...]\n| [options] --from TRACE.json",
	"Run an unmodified CUDA program (any program that reaches the CUDA driver: CUDA C++, CuPy, PyTorch,\n"
	"Numba) and report each traced launch: its time, DRAM bytes and bandwidth against the device's\n"
	"roof, the primary and secondary bottleneck, and every global, shared and local memory\n"
	"instruction with its file:line (programs built with -lineinfo), executions, sectors per request\n"
	"(measured, ideal, and the warp model's for the fitted pattern), its share of the traffic, its\n"
	"address pattern as an index expression of thread and block ids with a class (coalesced, strided,\n"
	"misaligned, broadcast, column walk, transposed, gather by data, bank conflicts), the launch\n"
	"model's time for the whole kernel, and for the top instructions the rewrite explain --suggest\n"
	"finds with the predicted speedup of the whole kernel and a CUDA sketch. docs/TRACE.md.",
	trace_table,
	"examples:\n"
	"  gpumem trace -- ./layernorm_forward 1\n"
	"  gpumem trace --kernel 'softmax' -s 2 -c 1 --json softmax.json -- python3 train.py\n"
	"  gpumem trace --from tests/fixtures/trace/synthetic/aos.json\n"
	"exit status: 0 ok; 1 the program failed or was stopped (the report of what was collected is\n"
	"written), or no kernel was traced; 2 usage or a bad trace document; 3 no GPU, no collector\n"
	"library or profiling not permitted; 5 an output file not writable.\n",
};

struct trace_args {
	struct gm_trace_opts o;
	const char *json, *html, *keep, *from, *profile;
	int run, top;
	int bad;                   /* an option's value was refused (its message printed) */
};

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int trace_option(void *ctx, const struct gm_opt *o, const char *v)
{
	struct trace_args *a = ctx;
	long n = 0;
	char *end;

	switch (o->key) {
	case T_KERNEL: a->o.kernel_regex = v; return 0;
	case T_SKIP: if (parse_long(v, 0, 1L << 40, &n)) break; a->o.launch_skip = n; return 0;
	case T_COUNT: if (parse_long(v, 1, 1L << 40, &n)) break; a->o.launch_count = n; return 0;
	case T_SAMPLES: if (parse_long(v, 0, 4096, &n)) break; a->o.sample_warps = (int)n; return 0;
	case T_STOP: a->o.stop_after = 1; return 0;
	case T_COUNT_WARPS: if (parse_long(v, 0, 1L << 40, &n)) break; a->o.count_warps = n; return 0;
	case T_DEVICE: if (parse_long(v, 0, 1024, &n)) break; a->o.device = (int)n; return 0;
	case T_TOP: if (parse_long(v, 1, 64, &n)) break; a->top = (int)n; return 0;
	case T_TIMEOUT:
		errno = 0;
		a->o.timeout_s = strtod(v, &end);
		if (errno || end == v || *end || !(a->o.timeout_s > 0) || a->o.timeout_s > 1e7)
			break;
		return 0;
	case T_JSON: a->json = v; return 0;
	case T_HTML: a->html = v; return 0;
	case T_KEEP: a->keep = v; return 0;
	case T_FROM: a->from = v; return 0;
	case T_PROFILE: a->profile = v; return 0;
	case T_RUN: a->run = 1; return 0;
	}
	return gm_error(GM_EXIT_USAGE, "bad value for --%s: '%s'; see 'gpumem trace --help'", o->name, v);
}

/* Options before "--", the program after it. */
static int parse(int argc, char **argv, struct trace_args *a, char ***prog)
{
	struct gm_opts_state st;
	int dd = 1, rc;

	while (dd < argc && strcmp(argv[dd], "--"))
		dd++;
	*prog = dd < argc - 1 ? argv + dd + 1 : NULL;
	rc = gm_opts_parse(&gm_doc_trace, dd, argv, trace_option, a, &st);
	if (rc == GM_OPTS_HELP)
		gm_cmd_help(stdout, &gm_doc_trace);
	else if (rc == GM_OPTS_UNKNOWN || rc == GM_OPTS_MISSING)
		rc = gm_error(GM_EXIT_USAGE, "%s '%s'; see 'gpumem trace --help'",
			      rc == GM_OPTS_MISSING ? "option needs a value:" : "unknown option", st.bad);
	else if (rc < 0)
		rc = gm_opts_error(&gm_doc_trace, rc, &st);
	else if (st.noperands)
		rc = gm_error(GM_EXIT_USAGE, "the program must follow '--': gpumem trace [options] -- %s ...",
			      st.operands[0]);
	else if (!a->from && !*prog)
		rc = gm_error(GM_EXIT_USAGE, "no program to trace: gpumem trace [options] -- PROGRAM [ARGS...] "
			      "(or --from TRACE.json)");
	else if (a->from && *prog)
		rc = gm_error(GM_EXIT_USAGE, "--from reads a saved trace; it takes no program ('%s')", (*prog)[0]);
	gm_opts_release(&st);
	return rc == GM_OPTS_HELP ? -1 : rc;
}

/* Run the program under the collector into path. 0, or the exit code (its message printed). */
static int collect(const struct trace_args *a, char **prog, const char *path, int *prog_failed)
{
	struct gm_trace_run run;
	gm_status st = gm_trace_collect(&a->o, (const char *const *)prog, path, &run);

	if (st == GM_OK) {
		*prog_failed = run.outcome != GM_TRACE_OK;
		if (run.message[0])
			fprintf(stderr, "warning: %s\n", run.message);
		return 0;
	}
	const char *msg = run.message[0] ? run.message : gm_last_error();
	switch (st) {
	case GM_ERR_INVALID_ARG: return gm_error(GM_EXIT_USAGE, "%s", msg);
	case GM_ERR_NO_DEVICE:
	case GM_ERR_DRIVER: return gm_error(GM_EXIT_NO_DEVICE, "%s", msg);
	case GM_ERR_NOT_FOUND: return gm_error(GM_EXIT_CASE_FAILED, "no kernel was traced: %s", msg);
	case GM_ERR_IO: return gm_error(GM_EXIT_IO, "%s", msg);
	default: return gm_error(gm_exit_code(st), "%s", msg);
	}
}

/*
 * explain --suggest --run --json on acc with its JSON captured (stdout sent to a temporary file meanwhile):
 * the "suggest" object into *out (NULL when it could not be read), the exit code returned.
 */
static int suggest_captured(const struct gm_access *acc, const struct explain_run_opts *ro, const char *profile,
			    json_t **out)
{
	FILE *tf = tmpfile();
	int saved, rc;
	json_error_t err;

	*out = NULL;
	fflush(stdout);
	if (!tf || (saved = dup(STDOUT_FILENO)) < 0 || dup2(fileno(tf), STDOUT_FILENO) < 0) {
		if (tf)
			fclose(tf);
		return explain_suggest(acc, ro, 1, profile, 0);   /* no capture: the text as before */
	}
	rc = explain_suggest(acc, ro, 1, profile, 1);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tf);
	json_t *doc = json_loadf(tf, 0, &err);
	fclose(tf);
	json_t *s = doc ? json_object_get(doc, "suggest") : NULL;
	if (s)
		*out = json_incref(s);
	json_decref(doc);
	return rc;
}

/* The captured result in words: the sentence and each timed rewrite. */
static void print_run(const json_t *s)
{
	size_t i;
	json_t *row;

	printf("%s\n", json_string_value(json_object_get(s, "sentence")) ? json_string_value(json_object_get(s, "sentence"))
									     : "(no sentence)");
	json_array_foreach(json_object_get(s, "rows"), i, row) {
		json_t *run = json_object_get(row, "run");
		if (!run || !json_is_number(json_object_get(run, "ms_per_launch")))
			continue;
		printf("  %-16s measured %8.4f ms  %7.1f GB/s  speedup %5.2fx (predicted %5.2fx)\n",
		       json_string_value(json_object_get(row, "name")),
		       json_number_value(json_object_get(run, "ms_per_launch")),
		       json_number_value(json_object_get(run, "gbs")), json_number_value(json_object_get(run, "speedup")),
		       json_number_value(json_object_get(row, "predicted_speedup")));
	}
}

/* --run: the top fitted pattern of each kernel through explain --suggest --run; with --json its result is
   kept in the kernel (k->run) for the report. */
static int run_fixes(struct gm_trace_report *r, const char *profile, int keep)
{
	int rc = 0;

	for (int i = 0; i < r->nk; i++) {
		struct gm_trace_kernel *k = &r->k[i];
		for (int j = 0; j < k->norder; j++) {
			const struct gm_trace_insn *x = &k->ins[k->order[j]];
			struct explain_run_opts ro;
			struct gm_access acc;
			if (!x->fix.worth)
				continue;
			memset(&ro, 0, sizeof(ro));
			memset(&acc, 0, sizeof(acc));
			acc.space = x->in->space == GM_TS_SHARED ? GM_SPACE_SHARED : GM_SPACE_GLOBAL;
			acc.op = x->in->op == GM_TO_LOAD ? GM_OP_LOAD : GM_OP_STORE;
			acc.elem_bytes = x->in->size;
			memcpy(acc.block, k->l->block, sizeof(acc.block));
			acc.index = x->fit.expr1d;
			acc.n_threads = k->threads;
			printf("\n== --run, launch %lld, line %d: explain --suggest --run --n %lld '%s'\n",
			       (long long)k->l->index, x->in->line, (long long)k->threads, x->fit.expr1d);
			fflush(stdout);
			json_t *got = NULL;
			int e = keep ? suggest_captured(&acc, &ro, profile, &got) : explain_suggest(&acc, &ro, 1, profile, 0);
			if (got) {
				print_run(got);
				k->run = got;
			}
			rc = rc ? rc : e;
			break;
		}
	}
	return rc;
}

static int analyse(const struct trace_args *a, const char *path, struct gm_outfile *jo, struct gm_outfile *ho)
{
	struct gm_trace t;
	struct gm_trace_report rep;
	struct gm_profile p;
	int rc;
	gm_status st = gm_trace_read(path, &t);

	if (st) {
		gm_trace_free(&t);
		return gm_error(st == GM_ERR_IO ? GM_EXIT_USAGE : gm_exit_code(st), "%s", gm_last_error());
	}
	if (!t.nlaunches) {
		gm_trace_free(&t);
		return gm_error(GM_EXIT_CASE_FAILED, "no kernel was traced in '%s'", path);
	}
	if ((rc = gm_cli_profile(a->profile, t.dev.name, &p, 0)) != 0) {
		gm_trace_free(&t);
		return rc;
	}
	st = gm_trace_analyse(&t, &p, a->top, &rep);
	if (!st) {
		gm_write(stdout, GM_DOC_TRACE, "text", &rep);
		if (a->run)   /* before the JSON, which carries its results */
			rc = run_fixes(&rep, a->profile, jo->f != NULL);
		if (jo->f && gm_write(jo->f, GM_DOC_TRACE, "json", &rep) != GM_OK)
			rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
		if (!rc && ho->f && gm_write(ho->f, GM_DOC_TRACE, "html", &rep) != GM_OK)
			rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
		for (int i = 0; i < rep.nk; i++)
			json_decref((json_t *)rep.k[i].run);
	} else
		rc = gm_error(gm_exit_code(st), "%s", gm_last_error());
	gm_trace_report_free(&rep);
	gm_trace_free(&t);
	return rc;
}

/* A path for the trace document when --keep-trace is not given. */
static int temp_path(char *buf, size_t n)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(buf, n, "%s/gpumem-trace-XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(buf)) < 0)
		return gm_error(GM_EXIT_IO, "cannot create a temporary trace file '%s': %s", buf, strerror(errno));
	close(fd);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a;
	struct gm_outfile jo, ho;
	char **prog = NULL, tmp[4096] = "";
	const char *path;
	int rc, failed = 0;

	memset(&a, 0, sizeof(a));
	memset(&jo, 0, sizeof(jo));
	memset(&ho, 0, sizeof(ho));
	gm_trace_opts_init(&a.o);
	if ((rc = parse(argc, argv, &a, &prog)) != 0)
		return rc < 0 ? GM_EXIT_OK : rc;
	if (a.json && gm_outfile_open(&jo, a.json) != GM_OK)   /* writable before the program runs */
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (a.html && gm_outfile_open(&ho, a.html) != GM_OK) {
		gm_outfile_abort(&jo);
		return gm_error(GM_EXIT_IO, "%s", gm_last_error());
	}
	path = a.from ? a.from : a.keep;
	if (!path && (rc = temp_path(tmp, sizeof(tmp))) != 0) {
		gm_outfile_abort(&jo);
		gm_outfile_abort(&ho);
		return rc;
	}
	path = path ? path : tmp;
	if (!a.from)
		rc = collect(&a, prog, path, &failed);
	if (!rc)
		rc = analyse(&a, path, &jo, &ho);
	if (tmp[0])
		unlink(tmp);
	if (jo.f && (rc ? (gm_outfile_abort(&jo), 0) : gm_outfile_commit(&jo) != GM_OK))
		rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (ho.f && (rc ? (gm_outfile_abort(&ho), 0) : gm_outfile_commit(&ho) != GM_OK))
		rc = gm_error(GM_EXIT_IO, "%s", gm_last_error());
	if (!rc && failed)
		rc = gm_error(GM_EXIT_CASE_FAILED, "the program did not finish normally; the report shows what "
			      "was collected");
	return rc;
}
