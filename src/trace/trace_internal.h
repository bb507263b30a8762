/*
 * trace_internal.h - the collector's parts (src/trace/), shared by collect.c and the unit tests
 * (tests/unit/test_trace_collect.c). Pure C; nothing here includes a CUDA header.
 */
#ifndef GPUMEM_TRACE_INTERNAL_H
#define GPUMEM_TRACE_INTERNAL_H

#include <stddef.h>
#include "gpumem/trace_collect.h"

/* ---- spawn.c: one pass of the program ---- */

/* The environment of a pass: extra "NAME=value" entries (overriding the caller's). */
#define GMT_ENV_MAX 16
struct gmt_env {
	char *set[GMT_ENV_MAX];
	int n;
};
/* Add NAME=value (copied); -1 when full or out of memory. */
int gmt_env_add(struct gmt_env *e, const char *name, const char *value);
void gmt_env_free(struct gmt_env *e);
/* environ with e's entries replacing those of the same name; NULL-terminated, free with free() (the
 * strings are borrowed from environ and e). NULL when out of memory. */
char **gmt_env_merge(const struct gmt_env *e, char *const *environ_in);
/* The pass's variables for the injection library (mode "trace" or "time"). */
gm_status gmt_env_for_pass(struct gmt_env *e, const struct gm_trace_opts *o, const char *lib, const char *mode,
                           const char *part_path);

/* Resolve argv0 like execvp (a name without '/' is searched in PATH). GM_ERR_INVALID_ARG with the message
 * "program not found 'X'" or "program not executable 'X'". */
gm_status gmt_resolve_program(const char *argv0, char *path, size_t n);

struct gmt_pass {
	int exit_status;   /* 0..255, -1 when killed by a signal */
	int signal;        /* the signal that ended it, 0 if none */
	int timed_out;     /* 1 when the timeout killed it */
	int interrupted;   /* 1 when SIGINT/SIGTERM reached gpumem during the pass (forwarded to the program) */
	int exec_errno;    /* errno of a failed exec, 0 when it ran */
	double wall_s;
};
/* Run path with argv in its own process group with environment envp; wait up to timeout_s (0: no limit),
 * then SIGTERM the group, SIGKILL 2 s later. */
gm_status gmt_run_pass(const char *path, const char *const *argv, char *const *envp, double timeout_s,
                       struct gmt_pass *p);

/* ---- findlib.c ---- */
/* Fork a child that dlopens the library (its dependencies resolved as in the program); 0 when it loads,
 * else -1 with the loader's message in why. */
int gmt_lib_loads(const char *lib, char *why, size_t n);
/* 1 when /proc/driver/nvidia/params says RmProfilingAdminOnly: 1 and this user is not root. */
int gmt_profiling_restricted(void);

/* ---- sass.c: SASS opcodes and lines from nvdisasm ---- */
#define GMT_INLINE_MAX 4   /* call sites kept of an inlined line */
struct gmt_sass_row {
	unsigned long long pc;
	char op[32];
	char file[512];
	unsigned line;
	/* where file:line was inlined (nvdisasm -gi), the innermost call site first; nat of them */
	char at_file[GMT_INLINE_MAX][512];
	unsigned at_line[GMT_INLINE_MAX];
	int nat;
	int lane_const;   /* an LDC whose constant-bank index is a per-lane register (c[0xN][Rk]): a __constant__
			     table indexed by lane-varying values; a uniform register (URk) or an immediate is not */
	int local;        /* STL 1, LDL 2, else 0: a local store or load (a spill, or a per-thread array) */
};
/* Parse nvdisasm -c -gi (or -g) output of one function's section (the text of the whole cubin; rows of
 * function `kernel` only, or of the only function when kernel is NULL). A location of -gi is a run of
 * "//## File" lines, each naming where the one before it was inlined ("inlined at"); the row's file:line is
 * the innermost, its at_file/at_line the call sites out to the kernel's own line. Returns the rows
 * (malloc'ed; *n of them) or NULL. */
struct gmt_sass_row *gmt_sass_parse(const char *text, const char *kernel, size_t *n);
/* nvdisasm's path (GPUMEM_NVDISASM, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH) or NULL. */
const char *gmt_nvdisasm_path(char *buf, size_t n);
/* Run nvdisasm -c -gi on a cubin (-g where this nvdisasm has no -gi); malloc'ed text or NULL. */
char *gmt_nvdisasm_run(const char *nvdisasm, const char *cubin);

/* ---- finish.c: the final document ---- */
struct gmt_finish {
	const struct gm_trace_opts *opts;
	const char *const *argv;
	const char *trace_part;    /* the trace pass's document */
	const char *time_part;     /* the time pass's, or NULL */
	const char *parts_dir;     /* where "other process" markers lie */
	const struct gm_trace_run *run;
};
/* Launches in a trace part (-1 when it cannot be read); *last_index gets the largest launch ordinal. */
long gmt_part_launches(const char *path, long *last_index);
/* 1 when the trace pass asks to be run again with every module patched as it loads */
int gmt_part_needs_load_patch(const char *path);
/* Read the parts, merge, write out_path atomically. Fills launches_seen / launches_traced in *run and
 * returns GM_ERR_NOT_FOUND (no document written, the reason in gm_last_error()) when no launch was
 * traced, GM_ERR_DRIVER when the Compute Sanitizer API refused. */
gm_status gmt_finish_write(const struct gmt_finish *f, const char *out_path, struct gm_trace_run *run);

#endif
