/*
 * inject.h - the internals of libgpumem_trace.so, the library `gpumem trace` injects into a program
 * (CUDA_INJECTION64_PATH). Not installed; nothing outside src/trace/inject/ includes it.
 *
 * The collector (src/trace/collect.c) talks to the library only through the environment:
 *   GPUMEM_TRACE_MODE      "trace" (patch and count) or "time" (CUPTI kernel times, no patches)
 *   GPUMEM_TRACE_OUT       the partial document to (re)write, atomically
 *   GPUMEM_TRACE_KERNEL    POSIX extended regex on the mangled or demangled name (absent: all)
 *   GPUMEM_TRACE_SKIP / GPUMEM_TRACE_COUNT / GPUMEM_TRACE_SAMPLES   launch window and samples
 *   GPUMEM_TRACE_ROOT_PID  the process to trace; any other (a child) only leaves a marker file
 *   GPUMEM_TRACE_PATCH     "launch" (patch a module at its first selected launch, the default) or
 *                          "load" (patch every module as it loads)
 *   GPUMEM_TRACE_UNPATCH   "0" keeps modules patched after the last selected launch
 *   GPUMEM_TRACE_STOP      "1": _exit(0) once the window is traced (trace pass) or, in the time pass, once
 *                          launch GPUMEM_TRACE_LAST_INDEX has a record
 *   GPUMEM_TRACE_DEVMODE   "1": the callbacks return at once (measures the patching's own cost)
 *   GPUMEM_TRACE_DEBUG     "1": each callback and each wait is written to stderr (finding a hang)
 */
#ifndef GPUMEM_TRACE_INJECT_H
#define GPUMEM_TRACE_INJECT_H

#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

struct gmt_opts {
	const char *out;
	const char *regex_text;
	int have_regex;
	long skip, count;
	int samples;
	int patch_at_launch;
	int unpatch;
	int stop;           /* GPUMEM_TRACE_STOP=1: end the program once the window is traced / timed */
	long last_index;    /* GPUMEM_TRACE_LAST_INDEX (time pass): the last launch ordinal to time, -1 unknown */
	unsigned devmode;   /* GPUMEM_TRACE_DEVMODE: 1 = callbacks return at once (cost floor) */
	long count_warps;   /* GPUMEM_TRACE_COUNT_WARPS: a larger launch is counted on 1 block in 2^s; 0 = all */
	int debug;          /* GPUMEM_TRACE_DEBUG=1: the callbacks' steps on stderr */
};

extern struct gmt_opts gmt_opt;

/* GPUMEM_TRACE_DEBUG: one line on stderr per step, with the pid (both passes) */
#define gmt_dbg(...) do { if (gmt_opt.debug) { fprintf(stderr, "gpumem-trace[%ld]: ", (long)getpid()); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); fflush(stderr); } } while (0)

/* select.c: the launch window, shared by both modes. Returns 1 when launch `name` is selected. */
int gmt_select_init(const char *regex);
int gmt_name_matches(const char *mangled);
const char *gmt_demangle(const char *mangled, char *buf, size_t n);

/* json.c: a tiny JSON writer over a growing buffer */
struct gmt_buf {
	char *p;
	size_t len, cap;
	int oom;
};
void gmt_buf_printf(struct gmt_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
void gmt_buf_str(struct gmt_buf *b, const char *s);   /* a JSON string, quoted and escaped, or null */
void gmt_buf_free(struct gmt_buf *b);
/* write text to path atomically (path.tmp + rename); 0 on success */
int gmt_write_atomic(const char *path, const char *text, size_t len);

/* notes (both modes): one line each, kept until the document is written */
void gmt_note(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
void gmt_notes_json(struct gmt_buf *b);

/* device.c: the "device" object of the device the program used first */
void gmt_device_json(struct gmt_buf *b, int cudev);

/* trace.c / time.c: start the mode; 0 on success */
int gmt_trace_start(void);
int gmt_time_start(void);

/* hostmem.c: pinned host allocations made and freed (the sanitizer's resource callbacks); 1 when addr lies in one */
void gmt_hostmem_alloc(uint64_t addr, uint64_t size);
void gmt_hostmem_free(uint64_t addr);
int gmt_hostmem_has(uint64_t addr);

/* lines.c: file and line of a pc offset from the cubin (CUPTI); 0 when found */
int gmt_line_of(const void *cubin, size_t size, const char *func, uint64_t pc, char *file, size_t n,
                unsigned *line);

#endif
