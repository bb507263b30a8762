/*
 * finish.c - the final trace document: the trace pass's launches, the time pass's times matched by
 * launch ordinal and kernel name, SASS opcodes and inlined lines' call sites from nvdisasm, and what gpumem knows about the run
 * ("tool", "program", "options", "notes"). Written atomically (src/io/outfile.c).
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "gpumem/io.h"
#include "trace/trace_internal.h"

static void note(json_t *notes, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static void note(json_t *notes, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_array_append_new(notes, json_string(line));
}

static json_t *program_json(const struct gmt_finish *f, int stopped)
{
	const struct gm_trace_run *r = f->run;
	json_t *argv = json_array();

	for (int i = 0; f->argv[i]; i++)
		json_array_append_new(argv, json_string(f->argv[i]));
	return json_pack("{s:o, s:o, s:i, s:b, s:b, s:f, s:i, s:f, s:i}", "argv", argv, "exit_status",
	                 stopped ? json_null() : json_integer(r->exit_status), "signal", r->signal, "timed_out",
	                 r->timed_out, "stopped_after_window", stopped, "wall_s", r->wall_s, "passes", r->passes,
	                 "time_pass_wall_s", r->time_pass_wall_s, "time_pass_exit_status", r->time_pass_exit_status);
}

static json_t *options_json(const struct gm_trace_opts *o)
{
	return json_pack("{s:o, s:I, s:I, s:i, s:I, s:b, s:f, s:i}", "kernel_regex",
	                 o->kernel_regex ? json_string(o->kernel_regex) : json_null(), "launch_skip",
	                 (json_int_t)o->launch_skip, "launch_count", (json_int_t)o->launch_count, "sample_warps",
	                 o->sample_warps, "count_warps", (json_int_t)o->count_warps, "stop_after", o->stop_after,
	                 "timeout_s", o->timeout_s, "device", o->device);
}

/* Times of the time pass, by ordinal and name. */
static void add_times(json_t *launches, const char *time_part, json_t *notes)
{
	json_t *doc = time_part ? json_load_file(time_part, 0, NULL) : NULL, *times, *t, *l;
	size_t i, j, matched = 0;

	times = doc ? json_object_get(doc, "times") : NULL;
	if (doc && json_is_string(json_object_get(doc, "error")))
		note(notes, "time pass: %s", json_string_value(json_object_get(doc, "error")));
	json_array_foreach(launches, i, l) {
		json_int_t idx = json_integer_value(json_object_get(l, "index"));
		const char *k = json_string_value(json_object_get(l, "kernel"));
		json_array_foreach(times, j, t) {
			const char *tk = json_string_value(json_object_get(t, "kernel"));
			if (json_integer_value(json_object_get(t, "index")) != idx)
				continue;
			if (!k || !tk || strcmp(k, tk) != 0) {
				note(notes, "launch %lld: the time pass's launch %lld was '%s', not '%s': the program's launches "
				     "differ between runs (not deterministic), no time", (long long)idx, (long long)idx,
				     tk ? tk : "?", k ? k : "?");
				break;
			}
			json_object_set(l, "time_ms", json_object_get(t, "time_ms"));
			/* the launch's dynamic shared memory and the unpatched function's registers: CUPTI's record */
			if (json_is_integer(json_object_get(t, "shared_dynamic")))
				json_object_set(l, "shared_dynamic", json_object_get(t, "shared_dynamic"));
			if (json_integer_value(json_object_get(t, "registers")) > 0)
				json_object_set(l, "registers", json_object_get(t, "registers"));
			json_object_set_new(l, "time_source", json_string("cupti-activity"));
			matched++;
			break;
		}
	}
	if (time_part && matched < json_array_size(launches) && !doc)
		note(notes, "the time pass left no times (it crashed or CUPTI was unavailable): time_ms null");
	json_decref(doc);
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "";
}

/* "inlined_at": the call sites of an instruction's line when nvdisasm's innermost line is the document's (CUPTI
   and nvdisasm read the same line table; a file named apart, its directory aside) */
static void set_inlined_at(json_t *ins, const struct gmt_sass_row *r)
{
	const char *file = json_string_value(json_object_get(ins, "file"));
	json_t *at;

	if (!r->nat || !file || json_integer_value(json_object_get(ins, "line")) != (json_int_t)r->line ||
	    strcmp(base_name(file), base_name(r->file)) != 0)
		return;
	at = json_array();
	for (int k = 0; k < r->nat; k++)
		json_array_append_new(at, json_pack("{s:s, s:i}", "file", r->at_file[k], "line", (int)r->at_line[k]));
	json_object_set_new(ins, "inlined_at", at);
}

static void set_sass(json_t *ins, const struct gmt_sass_row *rows, size_t n)
{
	json_int_t pc = json_integer_value(json_object_get(ins, "pc"));

	for (size_t i = 0; i < n; i++) {
		if ((json_int_t)rows[i].pc != pc)
			continue;
		json_object_set_new(ins, "sass", json_string(rows[i].op));
		if (strncmp(rows[i].op, "RED", 3) == 0)
			json_object_set_new(ins, "op", json_string("reduction"));
		if (json_is_null(json_object_get(ins, "file")) && rows[i].file[0] && rows[i].line) {
			json_object_set_new(ins, "file", json_string(rows[i].file));
			json_object_set_new(ins, "line", json_integer(rows[i].line));
		}
		set_inlined_at(ins, &rows[i]);
		return;
	}
}

/* "constant_lane_loads": the kernel's LDC with a per-lane register index (pc, opcode, file:line or null), where
   nvdisasm read its cubin: a __constant__ table indexed by lane-varying values, which the sanitizer does not trace */
static void add_const_lane(json_t *l, const struct gmt_sass_row *rows, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (!rows[i].lane_const)
			continue;
		json_t *r = json_pack("{s:I, s:s}", "pc", (json_int_t)rows[i].pc, "sass", rows[i].op);
		json_object_set_new(r, "file", rows[i].file[0] ? json_string(rows[i].file) : json_null());
		json_object_set_new(r, "line", rows[i].file[0] && rows[i].line ? json_integer(rows[i].line) : json_null());
		json_array_append_new(a, r);
	}
	if (a)
		json_object_set_new(l, "constant_lane_loads", a);
}

/* "local_instructions": the kernel's STL / LDL (pc, opcode, file:line or null, traced: whether the trace recorded
   the pc), where nvdisasm read its cubin: ptxas' register spills, which the sanitizer does not report, among them */
static void add_local(json_t *l, const struct gmt_sass_row *rows, size_t n)
{
	json_t *a = json_array(), *ins = json_object_get(l, "instructions"), *x;
	size_t j;

	for (size_t i = 0; a && i < n; i++) {
		int traced = 0;
		if (!rows[i].local)
			continue;
		json_array_foreach(ins, j, x)
			traced |= json_integer_value(json_object_get(x, "pc")) == (json_int_t)rows[i].pc;
		json_t *r = json_pack("{s:I, s:s, s:b}", "pc", (json_int_t)rows[i].pc, "sass", rows[i].op, "traced", traced);
		json_object_set_new(r, "file", rows[i].file[0] ? json_string(rows[i].file) : json_null());
		json_object_set_new(r, "line", rows[i].file[0] && rows[i].line ? json_integer(rows[i].line) : json_null());
		json_array_append_new(a, r);
	}
	if (a)
		json_object_set_new(l, "local_instructions", a);
}

/* SASS and missing lines of one launch from its cubin. */
static void add_sass(json_t *l, const char *nvdisasm, json_t *notes)
{
	const char *cubin = json_string_value(json_object_get(l, "cubin"));
	const char *kernel = json_string_value(json_object_get(l, "kernel"));
	json_t *ins, *x;
	size_t n = 0, i, lines = 0;
	struct gmt_sass_row *rows = NULL;
	char *text;

	if (cubin && nvdisasm && kernel && (text = gmt_nvdisasm_run(nvdisasm, cubin))) {
		rows = gmt_sass_parse(text, kernel, &n);
		free(text);
		if (rows)
			add_const_lane(l, rows, n), add_local(l, rows, n);
	} else if (cubin && nvdisasm) {
		note(notes, "nvdisasm could not read the cubin of '%s': SASS opcodes null", kernel ? kernel : "?");
	}
	ins = json_object_get(l, "instructions");
	json_array_foreach(ins, i, x) {
		if (rows)
			set_sass(x, rows, n);
		lines += json_is_integer(json_object_get(x, "line"));
	}
	free(rows);
	json_object_set_new(l, "lineinfo", json_boolean(lines > 0));
	if (!lines && json_array_size(ins))
		note(notes, "'%s' has no line information: build it with nvcc -lineinfo to get file:line",
		     kernel ? kernel : "?");
	json_object_del(l, "cubin");   /* a temporary file, gone with the parts */
}

/* Processes other than the traced one that used CUDA (markers left by the library). */
static void note_others(const char *dir, json_t *notes)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[4200], exe[1024] = "";
		const char *pid = strstr(e->d_name, ".other.");
		FILE *f;

		if (!pid || strncmp(e->d_name, "trace.json", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if ((f = fopen(path, "r"))) {
			size_t k = fread(exe, 1, sizeof(exe) - 1, f);
			exe[k] = 0;
			fclose(f);
		}
		if (n++ < 8)
			note(notes, "process %s (%s) also used CUDA and was not traced: child processes are not followed",
			     pid + 7, exe[0] ? exe : "?");
	}
	if (n > 8)
		note(notes, "%d more processes used CUDA and were not traced", n - 8);
	if (d)
		closedir(d);
}

static void run_notes(const struct gmt_finish *f, json_t *part, json_t *notes)
{
	const struct gm_trace_run *r = f->run;
	json_int_t graphs = json_integer_value(json_object_get(part, "graph_kernel_launches"));

	if (r->passes == 2)
		note(notes, "2 passes: the trace pass patched the selected launches; time_ms comes from a second run "
		     "of the program without patches (CUPTI activity records), matched by launch ordinal and name");
	if (graphs)
		note(notes, "%lld kernel launches were CUDA graph nodes: counted in the ordinals, never traced",
		     (long long)graphs);
	if (json_is_true(json_object_get(part, "stopped")))
		note(notes, "the program was stopped once its selected launches were traced and timed (stop after the "
		     "window): its exit status is not known");
	else if (!json_is_true(json_object_get(part, "complete")))
		note(notes, "the program ended without the library's exit handler (crash, signal or timeout): the "
		     "launches traced before are kept");
	if (r->timed_out)
		note(notes, "the trace pass ran past the timeout (%.0f s) and was killed", f->opts->timeout_s);
	else if (r->signal)
		note(notes, "the program died of signal %d", r->signal);
	else if (r->exit_status)
		note(notes, "the program exited with status %d", r->exit_status);
}

/* A note of the library saying that the Compute Sanitizer API refused, or NULL. */
static const char *sanitizer_refusal(json_t *part)
{
	json_t *n;
	size_t i;

	json_array_foreach(json_object_get(part, "notes"), i, n)
		if (json_is_string(n) && strncmp(json_string_value(n), "sanitizer:", 10) == 0)
			return json_string_value(n);
	return NULL;
}

int gmt_part_needs_load_patch(const char *path)
{
	json_t *part = json_load_file(path, 0, NULL);
	int yes = part && json_is_true(json_object_get(part, "needs_patch_at_load"));

	json_decref(part);
	return yes;
}

long gmt_part_launches(const char *path, long *last_index)
{
	json_t *part = json_load_file(path, 0, NULL), *l;
	long n = part ? (long)json_array_size(json_object_get(part, "launches")) : -1;
	size_t i;

	*last_index = -1;
	json_array_foreach(json_object_get(part, "launches"), i, l) {
		long x = (long)json_integer_value(json_object_get(l, "index"));
		if (x > *last_index)
			*last_index = x;
	}
	json_decref(part);
	return n;
}

/* Why nothing was traced, in one line. */
static gm_status no_kernels(json_t *part, const struct gm_trace_opts *o)
{
	const char *refused = sanitizer_refusal(part);
	json_int_t seen = json_integer_value(json_object_get(part, "launches_seen"));
	json_int_t matched = json_integer_value(json_object_get(part, "launches_matched"));

	if (refused && gmt_profiling_restricted())
		return gm_fail(GM_ERR_DRIVER, "profiling not permitted: the driver restricts it to administrators "
		               "(RmProfilingAdminOnly=1, ERR_NVGPUCTRPERM); run as root or load nvidia with "
		               "NVreg_RestrictProfilingToAdminUsers=0 (%s)", refused);
	if (refused && strstr(refused, "SANITIZER_ERROR_NOT_INITIALIZED"))   /* its documented answer to an old driver */
		return gm_fail(GM_ERR_DRIVER, "the CUDA driver is too old for this Compute Sanitizer API: update the "
		               "driver, or use the nvidia-cuda-sanitizer-api of the driver's CUDA version (%s)", refused);
	if (refused)
		return gm_fail(GM_ERR_DRIVER, "the Compute Sanitizer API refused to instrument the program (%s)", refused);
	if (seen == 0)
		return gm_fail(GM_ERR_NOT_FOUND, "the program launched no kernel");
	if (matched == 0)
		return gm_fail(GM_ERR_NOT_FOUND, "none of the program's %lld launches matched --kernel '%s'",
		               (long long)seen, o->kernel_regex ? o->kernel_regex : "");
	if (matched <= o->launch_skip)
		return gm_fail(GM_ERR_NOT_FOUND, "%lld launches matched, all skipped by --launch-skip %ld",
		               (long long)matched, o->launch_skip);
	return gm_fail(GM_ERR_NOT_FOUND, "%lld launches matched but none could be traced (%s)",
	               (long long)matched, "see the notes of a run with GPUMEM_TRACE_KEEP=1");
}

static gm_status write_out(json_t *root, const char *out_path)
{
	struct gm_outfile o;
	gm_status s = gm_outfile_open(&o, out_path);

	if (s != GM_OK)
		return s;
	if (json_dumpf(root, o.f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', o.f) == EOF) {
		gm_outfile_abort(&o);
		return gm_fail(GM_ERR_IO, "cannot write '%s'", out_path);
	}
	return gm_outfile_commit(&o);
}

gm_status gmt_finish_write(const struct gmt_finish *f, const char *out_path, struct gm_trace_run *run)
{
	json_t *part = json_load_file(f->trace_part, 0, NULL), *launches, *notes, *root, *l, *device;
	int stopped;
	char nvd[4096];
	const char *nvdisasm = gmt_nvdisasm_path(nvd, sizeof(nvd));
	size_t i;
	gm_status s;

	if (!part)
		return gm_fail(GM_ERR_NOT_FOUND, "the program never initialised CUDA");
	launches = json_object_get(part, "launches");
	run->launches_seen = (long)json_integer_value(json_object_get(part, "launches_seen"));
	run->launches_traced = (long)json_array_size(launches);
	notes = json_copy(json_object_get(part, "notes"));
	if (!json_is_array(notes))
		notes = json_array();
	if (!json_array_size(launches)) {
		s = no_kernels(part, f->opts);
		json_decref(notes), json_decref(part);
		return s;
	}
	run_notes(f, part, notes);
	note_others(f->parts_dir, notes);
	if (!nvdisasm)
		note(notes, "nvdisasm not found (CUDA toolkit; or set GPUMEM_NVDISASM): SASS opcodes null");
	add_times(launches, f->time_part, notes);
	json_array_foreach(launches, i, l)
		add_sass(l, nvdisasm, notes);
	device = json_object_get(part, "device");
	stopped = json_is_true(json_object_get(part, "stopped"));
	if (stopped)
		run->exit_status = -1;
	root = json_pack("{s:s, s:{s:s, s:s, s:n}, s:o, s:O, s:o, s:o, s:O}", "schema", GM_TRACE_SCHEMA, "tool",
	                 "name", "gpumem", "version", GPUMEM_VERSION, "commit", "program", program_json(f, stopped),
	                 "device",
	                 device ? device : json_null(), "options", options_json(f->opts), "notes", notes,
	                 "launches", launches);
	s = root ? write_out(root, out_path) : gm_fail(GM_ERR_NOMEM, "out of memory");
	json_decref(root);
	json_decref(part);
	return s;
}
