/*
 * cli.h - the subcommands and the process exit codes. Only this layer
 * prints human text and decides exit codes (README.md and docs/ERRORS.md list them).
 */
#ifndef GPUMEM_CLI_H
#define GPUMEM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "gpumem/status.h"
#include "gpumem/writer.h"

enum gm_exit {
	GM_EXIT_OK = 0,
	GM_EXIT_CASE_FAILED = 1,   /* some case failed validation or hit an error */
	GM_EXIT_USAGE = 2,         /* bad option, unknown benchmark, bad input */
	GM_EXIT_NO_DEVICE = 3,     /* no CUDA device, driver missing or too old */
	GM_EXIT_TOO_LARGE = 4,     /* --size exceeds free device memory */
	GM_EXIT_IO = 5,            /* an output file could not be written */
	GM_EXIT_CUDA = 6,          /* the device failed during the run */
	GM_EXIT_INTERRUPTED = 130, /* Ctrl-C: finished cases were written */
};

int cmd_info(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
/* `report` of a multi-device document (report_multi.c). */
int report_multi(const char *path, const char *html, int csv);
/* `compare` when a run holds several devices (compare_multi.c). */
int compare_multi(const char *pa, const char *pb, double threshold);
int cmd_calibrate(int argc, char **argv);
int cmd_predict(int argc, char **argv);

/* The launch model's profile for a device: --profile FILE, else the nearest built-in (launch_common.c). */
struct gm_profile;
struct gm_run_result;
int gm_cli_profile(const char *path, const char *device, struct gm_profile *p, int quiet);
/*
 * The same for a unit: without --profile, this unit's cached profile (by uuid; `calibrate` stores it) when it
 * is there and sound, else the built-in one; a cached file ignored, and the fields the profile did not measure,
 * are named on stderr unless quiet. *cached (may be NULL): 1 when the cached profile is used.
 */
/* `run` with the built-in profile: one line on what a calibrate buys (committed evidence) and how long it takes. */
void gm_cli_calibrate_hint(FILE *f, const struct gm_profile *p);
/* 1 while calibrate runs its cases through cmd_run: no hint then. */
extern int gm_cli_quiet_hint;
int gm_cli_profile_dev(const char *path, const char *device, const char *uuid, struct gm_profile *p, int quiet,
		       int *cached);
/* "model within 10%: k of N cases, median error x%" (nothing when no case was predicted). */
void gm_cli_score_line(FILE *f, const struct gm_run_result *r);
void gm_cli_score_families(FILE *f, const struct gm_run_result *r);
/* Under compute-sanitizer or an Nsight tool (their injection variables): one line saying the timings are not measurements. */
const char *gm_cli_tool(void);
void gm_cli_tool_note(FILE *f);

/* Exit code for a library status. */
int gm_exit_code(gm_status s);

/* "error: <msg>" on stderr; the message from gm_last_error() or gm_strerror(). */
int gm_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* 1 when f is a terminal and NO_COLOR is unset (and TERM is not "dumb"). */
int gm_use_color(FILE *f);

/* One warning when a profiler or sanitizer is loaded into this process (times under it are not the GPU's); 1 then. */
int gm_warn_if_tool_attached(void);

/* Options of `gpumem run`, parsed without side effects (tested in test_cli). */
struct gm_run_args {
	const char *json_path, *csv_path;
	int reps;             /* 0 = default */
	uint64_t size;        /* per-array bytes; 0 = from the device */
	int device;
	int quick;
	int full;             /* --full: the long sweeps too */
	const char *profile;  /* --profile FILE for the launch model; NULL = built-in */
	int counters;         /* --counters: one profiled launch per case after its timing */
	int sanitize;         /* --sanitize: validation + one launch per case, small sizes (compute-sanitizer) */
	int scrub;            /* --scrub: every device and pinned buffer zeroed before its free */
	int help;
	int all_devices;      /* --all-devices: every GPU, one after another */
	int concurrent;       /* --concurrent: every GPU at once */
	int mpi;              /* --mpi: one GPU per MPI rank (src/cli/multi/) */
	int barrier;          /* --barrier (with --mpi): every case starts on all ranks at once */
	double timeout_s;     /* --timeout: a device's run is stopped after this (0 = none) */
	const char **selectors;
	int nselectors;
};

/* Parse argv (argv[0] == "run"). On error returns GM_ERR_INVALID_ARG with a message in err. */
gm_status gm_run_args_parse(int argc, char **argv, struct gm_run_args *a, char *err, size_t n);
void gm_run_args_free(struct gm_run_args *a);

/* `explain --run` (src/cli/explain_run.c). */
struct explain_run_opts {
	int64_t n;            /* threads; 0 = 1 GiB per array */
	int hint;             /* enum gm_hint */
	int reps;             /* 0 = 20 */
	int device;
	int source;           /* print the generated CUDA source and stop */
	double predicted_gbs; /* the launch model's prediction (explain --n), 0 = none */
	double predicted_dram[2]; /* its DRAM bytes read and written */
	const char *limited_by;
	int no_counters;      /* --no-counters: skip the profiled launch */
	int layout_free;      /* --layout-free: --suggest counts no layout conversion */
};
struct gm_access;
struct gm_explain_doc;
/* Without doc, the run's text section is written; with doc (--json), the document whole with its run added,
 * written here where the run's data lives (a failed run writes none). */
int explain_run(const struct gm_access *acc, const struct explain_run_opts *ro, struct gm_explain_doc *doc);
/* `explain --n`: the launch model's text section, or with doc (--json) its view put in doc->launch (kept until
 * the next call); the prediction into ro. device: the GPU's name when --run will use one (its profile), else
 * NULL (the first built-in). */
int explain_launch(const struct gm_access *acc, int64_t n, const char *profile, const char *device, const char *uuid,
		   struct gm_explain_doc *doc, struct explain_run_opts *ro);
/* The explain document as JSON on stdout; 0, or the exit code with its one line on stderr. */
int explain_write_json(const struct gm_explain_doc *doc);
/* Check --profile (or that a built-in one exists) before anything is printed. */
int explain_launch_profile(const char *profile);

#endif
