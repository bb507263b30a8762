/*
 * test_trace_collect.c - the collector of `gpumem trace` without a GPU: finding the injection library,
 * the environment of a pass, resolving the program, exit status / signal / timeout of a pass, the whole
 * gm_trace_collect() with a stand-in library (tests/trace/fake_inject.c, GMT_FAKE_LIB) that writes a
 * prepared part document, atomic output, "no kernels", and nvdisasm's output parsed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "gpumem/trace_collect.h"
#include "trace/trace_internal.h"

static char tmp[256];

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmp, name);
}

static void write_file(const char *name, const char *text, int exec)
{
	char p[512];
	FILE *f;

	path_in(p, sizeof(p), name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(p, exec ? 0755 : 0644);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/gmt_collect.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	unsetenv("GPUMEM_TRACE_LIB");
	unsetenv("GMT_FAKE_PART");
	unsetenv("GMT_FAKE_TIME");
	unsetenv("GMT_FAKE_DONE");
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_defaults(void **state)
{
	struct gm_trace_opts o;

	(void)state;
	gm_trace_opts_init(&o);
	assert_null(o.kernel_regex);
	assert_int_equal(o.launch_skip, 0);
	assert_int_equal(o.launch_count, 1);
	assert_int_equal(o.sample_warps, 64);
	assert_int_equal(o.device, -1);
	assert_int_equal(o.time_pass, 1);
	assert_string_equal(gm_trace_outcome_name(GM_TRACE_NO_KERNELS), "no kernels");
	assert_string_equal(gm_trace_outcome_name((enum gm_trace_outcome)99), "unknown");
}

static void test_find_lib(void **state)
{
	char exe[512], buf[4096], dir[512];

	(void)state;
	/* beside the binary */
	write_file("gpumem", "", 1);
	write_file(GM_TRACE_LIB_NAME, "", 0);
	path_in(exe, sizeof(exe), "gpumem");
	assert_int_equal(gm_trace_find_lib(exe, buf, sizeof(buf)), GM_OK);
	assert_non_null(strstr(buf, tmp));
	/* installed: <prefix>/bin/gpumem, <prefix>/lib/gpumem/libgpumem_trace.so */
	path_in(dir, sizeof(dir), "bin");
	mkdir(dir, 0755);
	path_in(dir, sizeof(dir), "lib");
	mkdir(dir, 0755);
	path_in(dir, sizeof(dir), "lib/gpumem");
	mkdir(dir, 0755);
	write_file("lib/gpumem/" GM_TRACE_LIB_NAME, "", 0);
	path_in(exe, sizeof(exe), "bin/gpumem");
	assert_int_equal(gm_trace_find_lib(exe, buf, sizeof(buf)), GM_OK);
	assert_non_null(strstr(buf, "/bin/../lib/gpumem/" GM_TRACE_LIB_NAME));
	/* none: the message says what to build */
	path_in(exe, sizeof(exe), "lib/gpumem/x/gpumem");
	assert_int_equal(gm_trace_find_lib(exe, buf, sizeof(buf)), GM_ERR_NO_DEVICE);
	assert_non_null(strstr(gm_last_error(), "deps.sh"));
	assert_string_equal(buf, "");
	/* the environment wins, and must name a file */
	setenv("GPUMEM_TRACE_LIB", "/nonexistent/lib.so", 1);
	assert_int_equal(gm_trace_find_lib(exe, buf, sizeof(buf)), GM_ERR_NO_DEVICE);
	assert_non_null(strstr(gm_last_error(), "GPUMEM_TRACE_LIB"));
	path_in(dir, sizeof(dir), GM_TRACE_LIB_NAME);
	setenv("GPUMEM_TRACE_LIB", dir, 1);
	assert_int_equal(gm_trace_find_lib(exe, buf, sizeof(buf)), GM_OK);
	assert_string_equal(buf, dir);
	unsetenv("GPUMEM_TRACE_LIB");
}

static const char *find_env(char **env, const char *name)
{
	size_t n = strlen(name);

	for (; *env; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

static void test_env(void **state)
{
	struct gm_trace_opts o;
	struct gmt_env e = {0};
	char *base[] = {"PATH=/usr/bin", "CUDA_INJECTION64_PATH=/other/tool.so", "HOME=/h", NULL};
	char **env;

	(void)state;
	unsetenv("GPUMEM_TRACE_LOAD");
	gm_trace_opts_init(&o);
	o.kernel_regex = "layernorm.*";
	o.launch_skip = 2;
	o.launch_count = 3;
	o.sample_warps = 16;
	o.device = 1;
	o.stop_after = 1;
	assert_int_equal(gmt_env_for_pass(&e, &o, "/lib/x.so", "trace", "/o/trace.json"), GM_OK);
	env = gmt_env_merge(&e, base);
	assert_non_null(env);
	assert_string_equal(find_env(env, "CUDA_INJECTION64_PATH"), "/lib/x.so");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_MODE"), "trace");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_OUT"), "/o/trace.json");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_KERNEL"), "layernorm.*");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_SKIP"), "2");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_COUNT"), "3");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_SAMPLES"), "16");
	assert_string_equal(find_env(env, "CUDA_VISIBLE_DEVICES"), "1");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_STOP"), "1");
	assert_string_equal(find_env(env, "PATH"), "/usr/bin");
	assert_string_equal(find_env(env, "HOME"), "/h");
	{   /* the overridden entry appears once */
		int n = 0;
		for (char **p = env; *p; p++)
			n += strncmp(*p, "CUDA_INJECTION64_PATH=", 22) == 0;
		assert_int_equal(n, 1);
	}
	free(env);
	gmt_env_free(&e);
	/* no regex, no device: those variables are absent; preload mode puts the library in LD_PRELOAD */
	gm_trace_opts_init(&o);
	setenv("GPUMEM_TRACE_LOAD", "preload", 1);
	assert_int_equal(gmt_env_for_pass(&e, &o, "/lib/x.so", "time", "/o/time.json"), GM_OK);
	env = gmt_env_merge(&e, base);
	assert_null(find_env(env, "GPUMEM_TRACE_KERNEL"));
	assert_null(find_env(env, "CUDA_VISIBLE_DEVICES"));
	assert_null(find_env(env, "GPUMEM_TRACE_STOP"));
	assert_string_equal(find_env(env, "LD_PRELOAD"), "/lib/x.so");
	assert_string_equal(find_env(env, "GPUMEM_TRACE_MODE"), "time");
	free(env);
	gmt_env_free(&e);
	unsetenv("GPUMEM_TRACE_LOAD");
}

static void test_resolve(void **state)
{
	char buf[4096], p[512];

	(void)state;
	assert_int_equal(gmt_resolve_program("/nonexistent/prog", buf, sizeof(buf)), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(gm_last_error(), "program not found '/nonexistent/prog'"));
	write_file("plain.txt", "x", 0);
	path_in(p, sizeof(p), "plain.txt");
	assert_int_equal(gmt_resolve_program(p, buf, sizeof(buf)), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(gm_last_error(), "program not executable"));
	assert_int_equal(gmt_resolve_program(tmp, buf, sizeof(buf)), GM_ERR_INVALID_ARG);   /* a directory */
	assert_int_equal(gmt_resolve_program("sh", buf, sizeof(buf)), GM_OK);
	assert_non_null(strstr(buf, "/sh"));
	assert_int_equal(gmt_resolve_program("gmt-no-such-program-x", buf, sizeof(buf)), GM_ERR_INVALID_ARG);
	assert_int_equal(gmt_resolve_program("", buf, sizeof(buf)), GM_ERR_INVALID_ARG);
}

extern char **environ;

static void run_script(const char *body, double timeout, struct gmt_pass *p)
{
	char path[512];
	const char *argv[2];

	write_file("s.sh", body, 1);
	path_in(path, sizeof(path), "s.sh");
	argv[0] = path;
	argv[1] = NULL;
	assert_int_equal(gmt_run_pass(path, argv, environ, timeout, p), GM_OK);
}

static void test_pass_status(void **state)
{
	struct gmt_pass p;
	const char *argv[] = {"/bin/false", NULL};

	(void)state;
	assert_int_equal(gmt_run_pass("/bin/false", argv, environ, 0, &p), GM_OK);
	assert_int_equal(p.exit_status, 1);
	assert_int_equal(p.signal, 0);
	run_script("#!/bin/sh\nexit 3\n", 0, &p);
	assert_int_equal(p.exit_status, 3);
	run_script("#!/bin/sh\nkill -SEGV $$\n", 0, &p);
	assert_int_equal(p.signal, 11);
	assert_int_equal(p.exit_status, -1);
	assert_int_equal(p.timed_out, 0);
}

static void test_pass_timeout(void **state)
{
	struct gmt_pass p;

	(void)state;
	/* the script's child is in its group too: both go */
	run_script("#!/bin/sh\nsleep 30 &\nsleep 30\n", 0.3, &p);
	assert_int_equal(p.timed_out, 1);
	assert_int_not_equal(p.signal, 0);
	assert_true(p.wall_s < 10.0);
}

static void test_pass_exec_fails(void **state)
{
	struct gmt_pass p;
	char path[512];
	const char *argv[2];

	(void)state;
	write_file("badinterp.sh", "#!/nonexistent/interp\n", 1);
	path_in(path, sizeof(path), "badinterp.sh");
	argv[0] = path;
	argv[1] = NULL;
	assert_int_equal(gmt_run_pass(path, argv, environ, 0, &p), GM_ERR_INVALID_ARG);
	assert_int_not_equal(p.exec_errno, 0);
}

/* ---- gm_trace_collect with the stand-in library ---- */

static const char *PART_ONE =
	"{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"trace\", \"complete\": true, \"launches_seen\": 3, "
	"\"launches_matched\": 3, \"graph_kernel_launches\": 0, \"device\": {\"index\": 0, \"name\": \"Fake\"}, "
	"\"notes\": [], \"launches\": [{\"index\": 1, \"kernel\": \"_Z4copyPf\", \"name\": \"copy(float*)\", "
	"\"time_ms\": null, \"time_source\": null, \"cubin\": null, \"instructions\": [{\"pc\": 16, \"sass\": null, "
	"\"file\": \"a.cu\", \"line\": 7, \"space\": \"global\", \"op\": \"load\", \"size\": 4, \"executions\": 2, "
	"\"thread_accesses\": 64, \"sectors\": 8, \"requests\": 2, \"wavefronts\": null, \"ideal_sectors\": 8, "
	"\"samples\": []}]}]}\n";
static const char *PART_NONE =
	"{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"trace\", \"complete\": true, \"launches_seen\": 0, "
	"\"launches_matched\": 0, \"notes\": [\"the program launched no kernel\"], \"launches\": []}\n";
static const char *PART_UNMATCHED =
	"{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"trace\", \"complete\": true, \"launches_seen\": 5, "
	"\"launches_matched\": 0, \"notes\": [], \"launches\": []}\n";
static const char *TIME_ONE =
	"{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"time\", \"complete\": true, \"launches_seen\": 3, "
	"\"times\": [{\"index\": 1, \"kernel\": \"_Z4copyPf\", \"time_ms\": 0.25}]}\n";

static int fake_lib_ready(void)
{
	const char *lib = getenv("GMT_FAKE_LIB");

	if (!lib || access(lib, R_OK) != 0) {
		print_message("GMT_FAKE_LIB not set: the collect tests are skipped\n");
		return 0;
	}
	setenv("GPUMEM_TRACE_LIB", lib, 1);
	setenv("GPUMEM_TRACE_LOAD", "preload", 1);
	return 1;
}

static gm_status collect_script(const char *body, const char *part, const char *time, double timeout,
                                struct gm_trace_run *run, char *out, size_t n)
{
	struct gm_trace_opts o;
	char script[512], pp[512], tp[512];
	const char *argv[3];
	gm_status s;

	write_file("prog.sh", body, 1);
	path_in(script, sizeof(script), "prog.sh");
	if (part) {
		write_file("part.json", part, 0);
		path_in(pp, sizeof(pp), "part.json");
		setenv("GMT_FAKE_PART", pp, 1);
	} else {
		unsetenv("GMT_FAKE_PART");
	}
	if (time) {
		write_file("time.json", time, 0);
		path_in(tp, sizeof(tp), "time.json");
		setenv("GMT_FAKE_TIME", tp, 1);
	} else {
		unsetenv("GMT_FAKE_TIME");
	}
	gm_trace_opts_init(&o);
	o.timeout_s = timeout;
	argv[0] = script;
	argv[1] = "arg1";
	argv[2] = NULL;
	path_in(out, n, "out.json");
	s = gm_trace_collect(&o, argv, out, run);
	return s;
}

/* Nothing but out.json (and the inputs) is left in the folder: no parts, no temp files. */
static void assert_no_leftovers(void)
{
	DIR *d = opendir(tmp);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		assert_null(strstr(e->d_name, ".parts."));
	closedir(d);
}

static void test_collect_ok(void **state)
{
	struct gm_trace_run run;
	char out[512];
	json_t *doc, *l;

	(void)state;
	if (!fake_lib_ready())
		return;
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", PART_ONE, TIME_ONE, 0, &run, out, sizeof(out)), GM_OK);
	assert_int_equal(run.outcome, GM_TRACE_OK);
	assert_int_equal(run.passes, 2);
	assert_int_equal(run.exit_status, 0);
	assert_int_equal(run.launches_traced, 1);
	assert_int_equal(run.launches_seen, 3);
	doc = json_load_file(out, 0, NULL);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), GM_TRACE_SCHEMA);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "program"), "passes")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(doc, "program"), "argv"), 1)),
	                    "arg1");
	l = json_array_get(json_object_get(doc, "launches"), 0);
	assert_true(json_real_value(json_object_get(l, "time_ms")) == 0.25);
	assert_string_equal(json_string_value(json_object_get(l, "time_source")), "cupti-activity");
	assert_true(json_is_true(json_object_get(l, "lineinfo")));
	assert_null(json_object_get(l, "cubin"));
	json_decref(doc);
	assert_no_leftovers();
}

/* The first trace pass asks to be patched at load (its launch was on a created stream): the collector runs the
   trace pass again with GPUMEM_TRACE_PATCH=load, and that pass's launch is the one written. */
static void test_collect_patch_at_load(void **state)
{
	struct gm_trace_run run;
	char out[512], fp[512];

	(void)state;
	if (!fake_lib_ready())
		return;
	write_file("first.json", "{\"schema\": \"gpumem-trace-part/1\", \"mode\": \"trace\", \"complete\": true, "
	           "\"launches_seen\": 1, \"launches_matched\": 1, \"needs_patch_at_load\": true, \"notes\": [], "
	           "\"launches\": []}\n", 0);
	path_in(fp, sizeof(fp), "first.json");
	setenv("GMT_FAKE_FIRST", fp, 1);
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", PART_ONE, TIME_ONE, 0, &run, out, sizeof(out)), GM_OK);
	unsetenv("GMT_FAKE_FIRST");
	assert_int_equal(run.outcome, GM_TRACE_OK);
	assert_int_equal(run.passes, 2);
	assert_int_equal(run.launches_traced, 1);
	assert_no_leftovers();
}

/* The time pass's launch at the traced ordinal is another kernel: no time, and a note says why. */
static void test_collect_time_mismatch(void **state)
{
	struct gm_trace_run run;
	char out[512], *time = strdup(TIME_ONE), *p;
	json_t *doc, *l, *n;
	size_t i;
	int said = 0;

	(void)state;
	if (!fake_lib_ready())
		return;
	p = strstr(time, "_Z4copyPf");
	memcpy(p, "_Z4fillPf", 9);
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", PART_ONE, time, 0, &run, out, sizeof(out)), GM_OK);
	free(time);
	doc = json_load_file(out, 0, NULL);
	assert_non_null(doc);
	l = json_array_get(json_object_get(doc, "launches"), 0);
	assert_true(json_is_null(json_object_get(l, "time_ms")));
	json_array_foreach(json_object_get(doc, "notes"), i, n)
		said |= strstr(json_string_value(n), "not deterministic") != NULL;
	assert_true(said);
	json_decref(doc);
}

static void test_collect_program_failed(void **state)
{
	struct gm_trace_run run;
	char out[512];
	json_t *doc;

	(void)state;
	if (!fake_lib_ready())
		return;
	/* exits 3 after its launches: the trace is kept, the status reported */
	assert_int_equal(collect_script("#!/bin/sh\nexit 3\n", PART_ONE, NULL, 0, &run, out, sizeof(out)), GM_OK);
	assert_int_equal(run.outcome, GM_TRACE_PROGRAM_FAILED);
	assert_int_equal(run.exit_status, 3);
	assert_non_null(strstr(run.message, "status 3"));
	doc = json_load_file(out, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "program"), "exit_status")), 3);
	json_decref(doc);
	/* killed by a signal */
	assert_int_equal(collect_script("#!/bin/sh\nkill -SEGV $$\n", PART_ONE, NULL, 0, &run, out, sizeof(out)), GM_OK);
	assert_int_equal(run.outcome, GM_TRACE_PROGRAM_FAILED);
	assert_int_equal(run.signal, 11);
}

/* A program the library ended after its window: exit status unknown, said so. */
static void test_collect_stopped(void **state)
{
	struct gm_trace_run run;
	char out[512], *part = strdup(PART_ONE), *p;
	json_t *doc;

	(void)state;
	if (!fake_lib_ready())
		return;
	p = strstr(part, "\"complete\": true");
	memcpy(p, "\"stopped\":  true", 16);   /* same length: "complete" becomes "stopped" */
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", part, TIME_ONE, 0, &run, out, sizeof(out)), GM_OK);
	free(part);
	assert_int_equal(run.exit_status, -1);
	doc = json_load_file(out, 0, NULL);
	assert_non_null(doc);
	assert_true(json_is_null(json_object_get(json_object_get(doc, "program"), "exit_status")));
	assert_true(json_is_true(json_object_get(json_object_get(doc, "program"), "stopped_after_window")));
	json_decref(doc);
}

/* SIGTERM reaching the caller during a pass: forwarded, and what was traced is written (exit 130's rule). */
static void test_collect_interrupted(void **state)
{
	struct gm_trace_run run;
	char out[512];
	pid_t killer;

	(void)state;
	if (!fake_lib_ready())
		return;
	killer = fork();
	if (killer == 0) {
		struct timespec t = {0, 500000000L};
		nanosleep(&t, NULL);
		kill(getppid(), SIGTERM);
		_exit(0);
	}
	assert_int_equal(collect_script("#!/bin/sh\nsleep 30\n", PART_ONE, NULL, 0, &run, out, sizeof(out)),
	                 GM_ERR_INTERRUPTED);
	waitpid(killer, NULL, 0);
	assert_true(run.wall_s < 10.0);
	assert_int_equal(access(out, R_OK), 0);
	assert_non_null(strstr(gm_last_error(), "written"));
	assert_no_leftovers();
}

static void test_collect_timeout(void **state)
{
	struct gm_trace_run run;
	char out[512];

	(void)state;
	if (!fake_lib_ready())
		return;
	assert_int_equal(collect_script("#!/bin/sh\nsleep 30\n", PART_ONE, NULL, 0.3, &run, out, sizeof(out)), GM_OK);
	assert_int_equal(run.outcome, GM_TRACE_TIMED_OUT);
	assert_int_equal(run.timed_out, 1);
	assert_non_null(strstr(run.message, "--timeout"));
	assert_int_equal(access(out, R_OK), 0);
	assert_no_leftovers();
}

static void test_collect_no_kernels(void **state)
{
	struct gm_trace_run run;
	char out[512];

	(void)state;
	if (!fake_lib_ready())
		return;
	/* an existing output stays as it was when nothing is collected */
	write_file("out.json", "previous\n", 0);
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", NULL, NULL, 0, &run, out, sizeof(out)), GM_ERR_NOT_FOUND);
	assert_int_equal(run.outcome, GM_TRACE_NO_KERNELS);
	assert_non_null(strstr(gm_last_error(), "never initialised CUDA"));
	assert_null(strstr(gm_last_error(), "no kernels"));   /* the CLI says that part */
	assert_null(strstr(gm_last_error(), "()"));           /* no empty reason appended */
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", PART_NONE, NULL, 0, &run, out, sizeof(out)),
	                 GM_ERR_NOT_FOUND);
	assert_non_null(strstr(run.message, "launched no kernel"));
	assert_int_equal(collect_script("#!/bin/sh\nexit 0\n", PART_UNMATCHED, NULL, 0, &run, out, sizeof(out)),
	                 GM_ERR_NOT_FOUND);
	assert_non_null(strstr(run.message, "matched"));
	/* no kernels and a failing program: both said */
	assert_int_equal(collect_script("#!/bin/sh\nexit 4\n", NULL, NULL, 0, &run, out, sizeof(out)), GM_ERR_NOT_FOUND);
	assert_int_equal(run.outcome, GM_TRACE_PROGRAM_FAILED);
	assert_non_null(strstr(run.message, "status 4"));
	{
		FILE *f = fopen(out, "r");
		char line[64] = "";
		assert_non_null(f);
		assert_non_null(fgets(line, sizeof(line), f));
		fclose(f);
		assert_string_equal(line, "previous\n");
	}
	assert_no_leftovers();
}

static void test_collect_bad_input(void **state)
{
	struct gm_trace_run run;
	struct gm_trace_opts o;
	const char *argv[] = {"/nonexistent/prog", NULL}, *none[] = {NULL};
	char out[512];

	(void)state;
	gm_trace_opts_init(&o);
	path_in(out, sizeof(out), "never.json");
	assert_int_equal(gm_trace_collect(&o, argv, out, &run), GM_ERR_INVALID_ARG);
	assert_int_equal(run.outcome, GM_TRACE_NO_PROGRAM);
	assert_non_null(strstr(run.message, "program not found"));
	assert_int_equal(gm_trace_collect(&o, none, out, &run), GM_ERR_INVALID_ARG);
	o.launch_count = 0;
	argv[0] = "/bin/true";
	assert_int_equal(gm_trace_collect(&o, argv, out, &run), GM_ERR_INVALID_ARG);
	assert_non_null(strstr(run.message, "--launch-count"));
	gm_trace_opts_init(&o);
	o.lib_path = "/nonexistent/libgpumem_trace.so";
	assert_int_equal(gm_trace_collect(&o, argv, out, &run), GM_ERR_NO_DEVICE);
	assert_int_equal(run.outcome, GM_TRACE_NO_LIBRARY);
	assert_int_not_equal(access(out, F_OK), 0);
}

static void test_sass_parse(void **state)
{
	const char *text =
		"\t.section\t.text._Z1fPf,\"ax\",@progbits\n"
		"_Z1fPf:\n"
		"\t//## File \"/src/a.cu\", line 5\n"
		"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
		"\t//## File \"/src/a.cu\", line 7 inlined at \"/src/b.cu\", line 9\n"
		"        /*0070*/              @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;\n"
		"        /*0080*/                   RED.E.ADD.STRONG.GPU desc[UR4][R2.64], R5 ;\n"
		"\t.section\t.text._Z1gPf,\"ax\",@progbits\n"
		"        /*0000*/                   STS [R0], R1 ;\n";
	struct gmt_sass_row *r;
	size_t n;

	(void)state;
	r = gmt_sass_parse(text, "_Z1fPf", &n);
	assert_non_null(r);
	assert_int_equal(n, 3);
	assert_int_equal(r[1].pc, 0x70);
	assert_string_equal(r[1].op, "LDG.E.128");
	assert_string_equal(r[1].file, "/src/a.cu");
	assert_int_equal(r[1].line, 7);
	assert_string_equal(r[2].op, "RED.E.ADD.STRONG.GPU");
	free(r);
	r = gmt_sass_parse(text, "_Z1gPf", &n);
	assert_int_equal(n, 1);
	assert_string_equal(r[0].op, "STS");
	assert_int_equal(r[0].line, 0);
	free(r);
}

/* nvdisasm -gi: a location is a run of lines, the innermost first, each "inlined at" the next; the row takes the
   innermost and its call sites out to the kernel's line, and keeps them until the next run */
static void test_sass_parse_inline(void **state)
{
	const char *text =
		"\t.section\t.text._Z1fPiPKf,\"ax\",@progbits\n"
		"\t//## File \"/src/k.cu\", line 4\n"
		"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
		"\t//## File \"/usr/local/cuda/include/device_atomic_functions.hpp\", line 152 inlined at "
		"\"/src/util.cuh\", line 20\n"
		"\t//## File \"/src/util.cuh\", line 20 inlined at \"/src/k.cu\", line 34\n"
		"\t//## File \"/src/k.cu\", line 34\n"
		"        /*0170*/                   REDG.E.MAX.S32.STRONG.GPU desc[UR4][R2.64], R5 ;\n"
		"        /*0180*/                   EXIT ;\n"
		"\t//## File \"/src/k.cu\", line 35\n"
		"        /*0190*/                   BRA 0x190;\n";
	struct gmt_sass_row *r;
	size_t n;

	(void)state;
	r = gmt_sass_parse(text, "_Z1fPiPKf", &n);
	assert_non_null(r);
	assert_int_equal(n, 4);
	assert_int_equal(r[0].nat, 0);
	assert_int_equal(r[0].line, 4);
	assert_string_equal(r[1].op, "REDG.E.MAX.S32.STRONG.GPU");
	assert_string_equal(r[1].file, "/usr/local/cuda/include/device_atomic_functions.hpp");
	assert_int_equal(r[1].line, 152);
	assert_int_equal(r[1].nat, 2);
	assert_string_equal(r[1].at_file[0], "/src/util.cuh");
	assert_int_equal(r[1].at_line[0], 20);
	assert_string_equal(r[1].at_file[1], "/src/k.cu");
	assert_int_equal(r[1].at_line[1], 34);
	assert_int_equal(r[2].nat, 2);   /* the same location until the next run */
	assert_int_equal(r[3].line, 35);
	assert_int_equal(r[3].nat, 0);
	free(r);
}

/* an LDC indexed by a per-lane register is flagged (a __constant__ table indexed by lane: "constant_lane_loads");
   a uniform register, an immediate offset and ULDC are not */
static void test_sass_lane_const(void **state)
{
	const char *text =
		"\t.section\t.text._Z1kPf,\"ax\",@progbits\n"
		"\t//## File \"/src/c.cu\", line 12\n"
		"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
		"        /*0010*/                   ULDC.64 UR4, c[0x0][0x208] ;\n"
		"        /*0020*/                   LDC R5, c[0x3][UR6] ;\n"
		"\t//## File \"/src/c.cu\", line 33\n"
		"        /*0030*/              @P0 LDC R7, c[0x3][R2+0x100] ;\n"
		"        /*0040*/                   LDC.U16 R8, c[0x3][R3] ;\n"
		"        /*0050*/                   LDG.E R9, desc[UR4][R2.64] ;\n";
	struct gmt_sass_row *r;
	size_t n;

	(void)state;
	r = gmt_sass_parse(text, "_Z1kPf", &n);
	assert_non_null(r);
	assert_int_equal(n, 6);
	assert_int_equal(r[0].lane_const + r[1].lane_const + r[2].lane_const + r[5].lane_const, 0);
	assert_int_equal(r[3].lane_const, 1);
	assert_int_equal(r[3].line, 33);
	assert_int_equal(r[4].lane_const, 1);
	free(r);
}

/* STL and LDL are flagged (the document's "local_instructions": ptxas' spills among them), nothing else */
static void test_sass_local(void **state)
{
	const char *text =
		"\t.section\t.text._Z1sPf,\"ax\",@progbits\n"
		"\t//## File \"/src/s.cu\", line 40\n"
		"        /*0000*/                   STL [R1+0x10], R4 ;\n"
		"        /*0010*/                   STL.64 [R1+0x18], R6 ;\n"
		"        /*0020*/              @P0 LDL.LU.128 R8, [R1+0x20] ;\n"
		"        /*0030*/                   LDG.E R9, desc[UR4][R2.64] ;\n"
		"        /*0040*/                   STS [R3], R9 ;\n";
	struct gmt_sass_row *r;
	size_t n;

	(void)state;
	r = gmt_sass_parse(text, "_Z1sPf", &n);
	assert_non_null(r);
	assert_int_equal(n, 5);
	assert_int_equal(r[0].local, 1);
	assert_int_equal(r[1].local, 1);
	assert_int_equal(r[2].local, 2);
	assert_string_equal(r[2].op, "LDL.LU.128");
	assert_int_equal(r[2].line, 40);
	assert_int_equal(r[3].local + r[4].local, 0);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test_setup_teardown(test_find_lib, setup, teardown),
		cmocka_unit_test(test_env),
		cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pass_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pass_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pass_exec_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_time_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_program_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_interrupted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_patch_at_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_no_kernels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_collect_bad_input, setup, teardown),
		cmocka_unit_test(test_sass_parse),
		cmocka_unit_test(test_sass_parse_inline),
		cmocka_unit_test(test_sass_lane_const),
		cmocka_unit_test(test_sass_local),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
