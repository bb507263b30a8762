/*
 * collect.c - gm_trace_collect(): check the program and the injection library, run the trace pass and the
 * time pass, and finish the document (the contract: include/gpumem/trace_collect.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace/trace_internal.h"

extern char **environ;

void gm_trace_opts_init(struct gm_trace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->launch_count = 1;
	o->sample_warps = 64;
	o->device = -1;
	o->time_pass = 1;
	o->count_warps = 1L << 20;
}

const char *gm_trace_outcome_name(enum gm_trace_outcome oc)
{
	static const char *const names[] = {"ok", "no program", "no library", "not permitted", "timed out",
	                                    "no kernels", "program failed"};
	return (unsigned)oc < sizeof(names) / sizeof(names[0]) ? names[oc] : "unknown";
}

static gm_status check_opts(const struct gm_trace_opts *o, const char *const *argv, const char *out_path)
{
	if (!o || !out_path || !*out_path)
		return gm_fail(GM_ERR_INVALID_ARG, "no output path");
	if (!argv || !argv[0] || !argv[0][0])
		return gm_fail(GM_ERR_INVALID_ARG, "no program given (gpumem trace [options] -- PROGRAM [ARGS])");
	if (o->launch_skip < 0)
		return gm_fail(GM_ERR_INVALID_ARG, "--launch-skip: '%ld' out of range [0, ...]", o->launch_skip);
	if (o->launch_count < 1)
		return gm_fail(GM_ERR_INVALID_ARG, "--launch-count: '%ld' out of range [1, ...]", o->launch_count);
	if (o->sample_warps < 0 || o->sample_warps > 4096)
		return gm_fail(GM_ERR_INVALID_ARG, "--sample-warps: '%d' out of range [0, 4096]", o->sample_warps);
	if (o->timeout_s < 0)
		return gm_fail(GM_ERR_INVALID_ARG, "--timeout: '%g' out of range [0, ...]", o->timeout_s);
	return GM_OK;
}

/* Remove the parts folder and what the passes left in it. */
static void remove_parts(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4600];

	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static gm_status one_pass(const struct gm_trace_opts *o, const char *path, const char *const *argv,
                          const char *lib, const char *mode, const char *part, struct gmt_pass *p, long last)
{
	struct gmt_env e = {0};
	char **envp, num[32];
	gm_status s = gmt_env_for_pass(&e, o, lib, mode, part);

	if (s != GM_OK)
		return s;
	snprintf(num, sizeof(num), "%ld", last);
	envp = last < 0 || gmt_env_add(&e, "GPUMEM_TRACE_LAST_INDEX", num) == 0 ? gmt_env_merge(&e, environ) : NULL;
	if (envp)
		s = gmt_run_pass(path, argv, envp, o->timeout_s, p);
	else
		s = gm_fail(GM_ERR_NOMEM, "out of memory");
	free(envp);
	gmt_env_free(&e);
	return s;
}

static gm_status find_and_check_lib(const struct gm_trace_opts *o, struct gm_trace_run *run)
{
	char why[512];
	gm_status s = GM_OK;

	if (o->lib_path)
		snprintf(run->lib, sizeof(run->lib), "%s", o->lib_path);
	else
		s = gm_trace_find_lib(NULL, run->lib, sizeof(run->lib));
	if (s == GM_OK && access(run->lib, R_OK) != 0)
		s = gm_fail(GM_ERR_NO_DEVICE, "trace library not found '%s'", run->lib);
	if (s == GM_OK && gmt_lib_loads(run->lib, why, sizeof(why)) != 0)
		s = gm_fail(GM_ERR_NO_DEVICE, "trace library cannot load: %s%s", why[0] ? why : run->lib,
		            strstr(why, "sanitizer") ? " (install the CUDA toolkit's compute-sanitizer or pip "
		            "nvidia-cuda-sanitizer-api)" : strstr(why, "libcuda") ? " (no CUDA driver)" : "");
	if (s != GM_OK)
		run->outcome = GM_TRACE_NO_LIBRARY;
	return s;
}

static void copy_message(struct gm_trace_run *run)
{
	snprintf(run->message, sizeof(run->message), "%s", gm_last_error());
}

/* The trace pass ended; say how, as the run's outcome (the document may still be written). */
static void pass_outcome(struct gm_trace_run *run, const struct gmt_pass *p, double timeout_s)
{
	run->exit_status = p->exit_status;
	run->signal = p->signal;
	run->timed_out = p->timed_out;
	run->wall_s = p->wall_s;
	if (p->timed_out) {
		run->outcome = GM_TRACE_TIMED_OUT;
		snprintf(run->message, sizeof(run->message), "the program ran past --timeout %g s and was killed "
		         "(what was traced before is kept)", timeout_s);
	} else if (p->signal) {
		run->outcome = GM_TRACE_PROGRAM_FAILED;
		snprintf(run->message, sizeof(run->message), "the program died of signal %d (%s); what was traced "
		         "before is kept", p->signal, strsignal(p->signal));
	} else if (p->exit_status) {
		run->outcome = GM_TRACE_PROGRAM_FAILED;
		snprintf(run->message, sizeof(run->message), "the program exited with status %d", p->exit_status);
	}
}

static gm_status traced(const struct gm_trace_opts *o, const char *path, const char *const *argv,
                        const char *out_path, const char *dir, struct gm_trace_run *run)
{
	char trace_part[4300], time_part[4300];
	struct gmt_pass p;
	struct gmt_finish f = {o, argv, trace_part, NULL, dir, run};
	long last = -1;
	int failed, interrupted;
	gm_status s;

	snprintf(trace_part, sizeof(trace_part), "%s/trace.json", dir);
	snprintf(time_part, sizeof(time_part), "%s/time.json", dir);
	s = one_pass(o, path, argv, run->lib, "trace", trace_part, &p, -1);
	if (s != GM_OK) {
		run->outcome = GM_TRACE_NO_PROGRAM;
		return s;
	}
	if (!p.interrupted && gmt_part_needs_load_patch(trace_part)) {
		/* the window's first launch is on a stream the program created: trace again, patched at load
		   (the first pass's owner marker goes, or the new process would take itself for a child) */
		char owner[4400];
		snprintf(owner, sizeof(owner), "%s.owner", trace_part);
		unlink(owner);
		s = one_pass(o, path, argv, run->lib, "trace+load", trace_part, &p, -1);
		if (s != GM_OK) {
			run->outcome = GM_TRACE_NO_PROGRAM;
			return s;
		}
	}
	run->passes = 1;
	pass_outcome(run, &p, o->timeout_s);
	interrupted = p.interrupted;
	if (!interrupted && o->time_pass && access(trace_part, R_OK) == 0 && gmt_part_launches(trace_part, &last) > 0) {
		struct gmt_pass t;
		if (one_pass(o, path, argv, run->lib, "time", time_part, &t, last) == GM_OK) {
			/* interrupted too: the times flushed so far are kept */
			run->passes = 2;
			run->time_pass_wall_s = t.wall_s;
			run->time_pass_exit_status = t.exit_status;
			f.time_part = time_part;
			interrupted = t.interrupted;
		}
	}
	s = gmt_finish_write(&f, out_path, run);
	if (interrupted)   /* what was collected is written all the same (exit 130's rule) */
		return gm_fail(GM_ERR_INTERRUPTED, "interrupted: the program was stopped%s",
		               s == GM_OK ? "; what was traced before is written" : "");
	failed = run->outcome != GM_TRACE_OK && run->message[0];
	if (s == GM_ERR_NOT_FOUND && run->outcome == GM_TRACE_OK)
		run->outcome = GM_TRACE_NO_KERNELS;
	if (s == GM_ERR_DRIVER)
		run->outcome = GM_TRACE_NOT_PERMITTED;
	if (s != GM_OK && failed && s != GM_ERR_IO && s != GM_ERR_DRIVER) {
		/* the program's failure says more than "no kernels" */
		char first[512];
		snprintf(first, sizeof(first), "%s", gm_last_error());
		s = gm_fail(s, "%s (%s)", first, run->message);
	}
	return s;
}

gm_status gm_trace_collect(const struct gm_trace_opts *o_in, const char *const *argv, const char *out_path,
                           struct gm_trace_run *run)
{
	char path[4096], dir[4200];
	struct gm_trace_opts oo, *o = o_in ? &oo : NULL;
	const char *stop = getenv("GPUMEM_TRACE_STOP");
	gm_status s;

	if (o_in) {
		oo = *o_in;
		if (stop && strcmp(stop, "1") == 0)
			oo.stop_after = 1;
	}
	memset(run, 0, sizeof(*run));
	run->exit_status = -1;
	run->time_pass_exit_status = -1;
	s = check_opts(o, argv, out_path);
	if (s == GM_OK && (s = gmt_resolve_program(argv[0], path, sizeof(path))) != GM_OK)
		run->outcome = GM_TRACE_NO_PROGRAM;
	if (s == GM_OK)
		s = find_and_check_lib(o, run);
	if (s != GM_OK) {
		copy_message(run);
		return s;
	}
	snprintf(dir, sizeof(dir), "%s.parts.XXXXXX", out_path);
	if (!mkdtemp(dir)) {
		s = gm_fail(GM_ERR_IO, "cannot write '%s': %s", out_path, strerror(errno));
		copy_message(run);
		return s;
	}
	s = traced(o, path, argv, out_path, dir, run);
	if (s != GM_OK)
		copy_message(run);
	/* GPUMEM_TRACE_KEEP=1 keeps the parts (the passes' own documents, the cubins) for debugging */
	if (!getenv("GPUMEM_TRACE_KEEP") || strcmp(getenv("GPUMEM_TRACE_KEEP"), "1") != 0)
		remove_parts(dir);
	return s;
}
