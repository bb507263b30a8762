/*
 * trace_collect.h - run an unmodified CUDA program and collect its memory instructions (issue 38).
 *
 * gm_trace_collect() runs PROGRAM under gpumem's injection library (libgpumem_trace.so, loaded by the
 * CUDA driver through CUDA_INJECTION64_PATH; built on the Compute Sanitizer API) and leaves one
 * "gpumem-trace/1" document at out_path (the contract: docs/TRACE.md, "The trace document").
 *
 * Two passes of the program, each a child process in its own process group:
 *   1. the trace pass: the selected launches are patched; per memory instruction the device counts
 *      executions, sectors, wavefronts and keeps up to sample_warps full-warp address samples;
 *   2. the time pass: the program again without patches; the selected launches' device times come
 *      from CUPTI's activity records, matched to the trace pass by launch ordinal and kernel name.
 * The injection library rewrites its partial document after each traced launch, so what was
 * collected survives a crash, a non-zero exit or a timeout; gm_trace_collect then completes it
 * ("program", "tool", "options", "notes", times) and renames it onto out_path (atomic: a reader never
 * sees a half-written file).
 *
 * Pure C (POSIX): no CUDA header, no exit(), nothing printed. Messages go to gm_last_error().
 */
#ifndef GPUMEM_TRACE_COLLECT_H
#define GPUMEM_TRACE_COLLECT_H

#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_TRACE_SCHEMA "gpumem-trace/1"
#define GM_TRACE_LIB_NAME "libgpumem_trace.so"

/* What the caller asks for. Fill with gm_trace_opts_init(), then change fields. */
struct gm_trace_opts {
	const char *kernel_regex; /* POSIX extended regex matched against the mangled AND the demangled
	                             name (either matching selects); NULL = every kernel */
	long launch_skip;         /* matching launches skipped before the first traced one (ncu -s); >= 0 */
	long launch_count;        /* matching launches traced after the skip (ncu -c); default 1; >= 1 */
	int sample_warps;         /* full-warp address samples kept per instruction and launch; default 64,
	                             0..4096 (0 = counts only). At most 128 are kept: 64 warps spread over the
	                             grid x their first 2 executions of the instruction (sample_warps / 2 warps
	                             from 8 up; below 8, that many warps, 1 execution each) */
	double timeout_s;         /* wall limit of EACH pass; 0 = none. On expiry the program's process
	                             group gets SIGTERM, then SIGKILL 2 s later */
	int device;               /* CUDA device ordinal the program's device 0 is mapped to
	                             (CUDA_VISIBLE_DEVICES); -1 = leave the environment as it is (default) */
	int time_pass;            /* 1 = run the uninstrumented time pass (default); 0 = one pass, times null */
	const char *lib_path;     /* the injection library; NULL = search (gm_trace_find_lib) */
	int stop_after;           /* 1 = end the program (in each pass) as soon as the selected launches are
	                             traced and timed: bounded time for programs that run for minutes. Its exit
	                             status is then unknown ("exit_status": null, run->exit_status -1). The
	                             environment's GPUMEM_TRACE_STOP=1 sets it too. Default 0. */
	long count_warps;         /* a launch of more warps is counted on 1 block in 2^s, the least s that
	                             counts at most this many warps, and its counts scaled by the blocks
	                             (sampled warps still write their addresses); default 2^20, 0 = count
	                             every warp (exact counts at any size) */
};

/* Why a collection ended as it did (run->outcome). More than one can hold; the first that
 * applies, in this order, is reported. */
enum gm_trace_outcome {
	GM_TRACE_OK = 0,           /* the program exited 0 and at least one launch was traced */
	GM_TRACE_NO_PROGRAM,       /* PROGRAM missing or not executable */
	GM_TRACE_NO_LIBRARY,       /* libgpumem_trace.so not found, or its Sanitizer API library missing */
	GM_TRACE_NOT_PERMITTED,    /* the driver refused the instrumentation (RmProfilingAdminOnly=1) */
	GM_TRACE_TIMED_OUT,        /* the trace pass ran past timeout_s and was killed */
	GM_TRACE_NO_KERNELS,       /* the program launched no kernel (or none matched the selection) */
	GM_TRACE_PROGRAM_FAILED,   /* the program exited non-zero or died of a signal */
};

/* What happened (filled by gm_trace_collect, also on failure). */
struct gm_trace_run {
	enum gm_trace_outcome outcome;
	int exit_status;           /* the trace pass's exit status (0..255), -1 when killed by a signal */
	int signal;                /* the signal that ended the trace pass, 0 if none */
	int timed_out;             /* 1 when the trace pass was killed by the timeout */
	double wall_s;             /* wall time of the trace pass (instrumented), seconds */
	double time_pass_wall_s;   /* wall time of the time pass, seconds; 0 when not run */
	int time_pass_exit_status; /* as exit_status, for the time pass; -1 when killed or not run */
	int passes;                /* passes run: 1 or 2 */
	long launches_seen;        /* kernel launches the program made (all of them, trace pass) */
	long launches_traced;      /* launches in the document */
	char lib[4096];            /* the injection library used ("" when not found) */
	char message[512];         /* one line, lowercase, no "error: " prefix: what went wrong or a
	                              warning worth printing (program failed, timed out); "" when OK */
};

/* Defaults: NULL regex, skip 0, count 1, 64 sample warps, no timeout, device -1, time pass on, run to the end. */
void gm_trace_opts_init(struct gm_trace_opts *o);

/*
 * Find the injection library into buf (size n). Order: env GPUMEM_TRACE_LIB (used as given, must
 * exist), then <dir of exe_path>/libgpumem_trace.so, then <dir of exe_path>/../lib/gpumem/
 * libgpumem_trace.so. exe_path NULL = /proc/self/exe. GM_ERR_NO_DEVICE with a message naming what to
 * build or install when none exists.
 */
gm_status gm_trace_find_lib(const char *exe_path, char *buf, unsigned long n);

/*
 * Run argv[0] (searched in PATH when it has no '/') with its arguments argv[1..] (NULL-terminated)
 * and write the trace document to out_path. run is always filled.
 *
 * Returns:
 *   GM_OK               the document is at out_path with >= 1 launch. The program may still have
 *                       failed or timed out after the traced launches: check run->outcome and print
 *                       run->message as a warning (the CLI's exit code is its choice).
 *   GM_ERR_INVALID_ARG  bad options, or PROGRAM missing / not executable (outcome NO_PROGRAM)
 *   GM_ERR_NO_DEVICE    the injection library is missing (outcome NO_LIBRARY)
 *   GM_ERR_DRIVER       the driver did not permit profiling (outcome NOT_PERMITTED; the message names
 *                       NVreg_RestrictProfilingToAdminUsers / ERR_NVGPUCTRPERM)
 *   GM_ERR_NOT_FOUND    no launch was traced: the program launched no kernel, or none matched
 *                       (outcome NO_KERNELS, or PROGRAM_FAILED / TIMED_OUT when that came first);
 *                       no document is written
 *   GM_ERR_INTERRUPTED  SIGINT or SIGTERM reached the caller during a pass (forwarded to the program's
 *                       group): the document is still written when a launch had been traced, with the
 *                       times the time pass had flushed
 *   GM_ERR_IO           out_path could not be written
 *   GM_ERR_NOMEM        host allocation failed
 */
gm_status gm_trace_collect(const struct gm_trace_opts *o, const char *const *argv, const char *out_path,
                           struct gm_trace_run *run);

/* A short name of an outcome ("ok", "no program", ...), never NULL. */
const char *gm_trace_outcome_name(enum gm_trace_outcome oc);

#ifdef __cplusplus
}
#endif
#endif
