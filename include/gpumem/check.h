/*
 * check.h - `gpumem check`: is this GPU as good as its kind? (docs/CHECK.md)
 *
 * A fixed list of lines, each one suite case (HBM read/write/copy, L2, L1,
 * PCIe both ways, NVLink, FP32/FP16 FMA, a GEMM, a tensor GEMM, allocation,
 * the memory test), judged against a baseline of the SKU (gpumem/baseline.h)
 * as pass, warn or fail with its margin; NVML error counters read before and
 * after (XID, ECC, row remapping, retired pages, PCIe replays and link,
 * NVLink CRC/replay, throttle reasons) that fail a GPU by themselves; and for
 * every failure a code, a severity (drain, reset, inspect) and the next step.
 * The judging is pure C (src/analysis/check*.c); the writers are in
 * src/io/check_*.c; the counters are read by src/gpu/telemetry.c.
 */
#ifndef GPUMEM_CHECK_H
#define GPUMEM_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include "gpumem/baseline.h"
#include "gpumem/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_CHECK_SCHEMA "gpumem-check"
#define GM_CHECK_VERSION 1

/* The process exit codes of `gpumem check` beyond 0 ok, 2 usage, 5 output, 130 interrupted (docs/CHECK.md). */
enum { GM_CHECK_EXIT_WARN = 8, GM_CHECK_EXIT_FAIL = 9, GM_CHECK_EXIT_UNKNOWN = 10 };

/* Ordered by gravity: the GPU's verdict is the worst of its lines and counters. */
enum gm_check_verdict {
	GM_V_PASS = 0,
	GM_V_SKIP = 1,           /* not measured here (no peer, no cuBLAS, not in --quick): never fails */
	GM_V_NOJUDGE = 2,        /* measured, but no baseline line to judge it by */
	GM_V_WARN = 3,
	GM_V_FAIL = 4,
};
/* The names of verdicts, counters and severities and the exit code are the document's (src/io/check_doc.c). */
const char *gm_check_verdict_name(enum gm_check_verdict v);   /* "pass" | "skip" | "not-judged" | "warn" | "fail" */

/* ---- the lines (src/analysis/check_lines.c) ---- */

struct gm_check_line_def {
	const char *id;          /* "hbm_read" */
	const char *case_name;   /* the suite case that measures it */
	const char *what;        /* one line for the text and the docs */
	int quick;               /* in --quick */
	int judged;              /* 1: against the baseline; 0: its validation only (the memory test) */
};
/* The lines in order; *n = their count. */
const struct gm_check_line_def *gm_check_lines(int *n);
/* The cases of the lines of a mode (quick or not), for the runner; returns the count. */
int gm_check_case_names(int quick, const char **out, int max);
/* The cases of the lines judged against a baseline (what `baseline make` keeps); returns the count. */
int gm_check_judged_names(const char **out, int max);

/* ---- the NVML counters (read by src/gpu/telemetry.c, judged by src/analysis/check_counters.c) ---- */

enum gm_counter_state {
	GM_CNT_ABSENT = 0,       /* NVML not loaded, or this driver has no such call */
	GM_CNT_OK = 1,
	GM_CNT_UNSUPPORTED = 2,  /* NVML said NOT_SUPPORTED for this GPU */
	GM_CNT_ERROR = 3,        /* the call failed otherwise (nvml_rc says how) */
};

enum gm_counter_id {
	GM_CNT_XID,              /* XID events seen during the run (event set); value = count, detail = last XID */
	GM_CNT_ECC_VOL_UNCORR, GM_CNT_ECC_VOL_CORR, GM_CNT_ECC_AGG_UNCORR, GM_CNT_ECC_AGG_CORR,
	GM_CNT_REMAP_PENDING, GM_CNT_REMAP_FAILED, GM_CNT_REMAP_UNCORR_ROWS,
	GM_CNT_RETIRED_SBE, GM_CNT_RETIRED_DBE, GM_CNT_RETIRED_PENDING,
	GM_CNT_PCIE_REPLAY,
	GM_CNT_PCIE_GEN, GM_CNT_PCIE_WIDTH,     /* the best seen during the run; detail = the maximum */
	GM_CNT_NVLINK_CRC, GM_CNT_NVLINK_REPLAY, GM_CNT_NVLINK_RECOVERY, /* summed over active links */
	GM_CNT_THROTTLE,         /* OR of the clock-event reasons seen during the run */
	GM_CNT_COUNT
};
const char *gm_counter_name(enum gm_counter_id id);   /* "ecc_volatile_uncorrected", ... */

struct gm_counter_read {
	enum gm_counter_state state;
	int64_t value;
	int64_t detail;          /* PCIe gen/width: the maximum; XID: the last XID number */
	int nvml_rc;             /* the NVML return code when state is ERROR or UNSUPPORTED */
};

/* Every counter, before and after the run (state ABSENT everywhere = not read). */
struct gm_check_counters {
	int have;                /* 1 when read (on a GPU, or from a document that carries them) */
	struct gm_counter_read before[GM_CNT_COUNT], after[GM_CNT_COUNT];
};

/* ---- failure codes ---- */

enum gm_severity { GM_SEV_NONE = 0, GM_SEV_INSPECT, GM_SEV_RESET, GM_SEV_DRAIN };
const char *gm_severity_name(enum gm_severity s);      /* "none" | "inspect" | "reset" | "drain" */

struct gm_check_code {
	const char *code;        /* "GM-C101": stable, in JSON, Prometheus and docs/CHECK.md */
	const char *name;        /* "hbm_slow" style */
	enum gm_severity severity;
	const char *next_step;   /* what an operator does next, in words */
};
/* The table of codes (src/analysis/check_codes.c); *n = its count. NULL for an unknown code. */
const struct gm_check_code *gm_check_codes(int *n);
const struct gm_check_code *gm_check_code_find(const char *code);

/* ---- the verdict of one GPU ---- */

struct gm_check_line {
	const struct gm_check_line_def *def;
	char case_name[64];
	enum gm_unit unit;
	int measured;            /* the case ran and has a number */
	double value, cov_pct, noise; /* its headline, its samples' CoV, its robust noise in the unit */
	int have_baseline;
	double base_median, base_spread, base_cov_pct;
	double tolerance;        /* in the unit: sqrt(spread^2 + noise^2), at least 1 % of the baseline median */
	double margin_pct;       /* (value - baseline) / baseline, %, positive = better */
	double tolerances_worse; /* how many tolerances worse than the baseline median (negative = better) */
	enum gm_check_verdict verdict;
	const struct gm_check_code *code; /* NULL on pass */
	char message[192];
};

struct gm_check_counter_verdict {
	enum gm_counter_id id;
	enum gm_check_verdict verdict;
	const struct gm_check_code *code;
	char message[160];
};

struct gm_check_failure {
	const struct gm_check_code *code;
	char subject[48];        /* the line or counter id */
	char message[192];
	enum gm_check_verdict verdict; /* WARN or FAIL */
};

#define GM_CHECK_MAX_LINES 24
#define GM_CHECK_MAX_FAILURES 48

struct gm_check_gpu {
	int index;
	char name[256], uuid[48], pci_bus_id[24];
	char baseline_path[512];           /* "" = none found */
	char baseline_note[256];           /* why there is none ("no baseline for NVIDIA A100: run `gpumem baseline make`") */
	int baseline_units;
	int nlines;
	struct gm_check_line lines[GM_CHECK_MAX_LINES];
	struct gm_check_counters counters;
	struct gm_check_counter_verdict cverdicts[GM_CNT_COUNT];
	int nfailures;
	struct gm_check_failure failures[GM_CHECK_MAX_FAILURES];
	enum gm_check_verdict verdict;           /* the worst of lines and counters; NOJUDGE when no baseline and nothing failed */
	double wall_s;
};

/* Thresholds, in tolerances worse than the baseline median (docs/CHECK.md "How a line is judged"). */
#define GM_CHECK_WARN_TOL 3.0
#define GM_CHECK_FAIL_TOL 6.0
#define GM_CHECK_MIN_TOL_FRAC 0.01
/* Erratic samples (as the fleet view): CoV of 5 % or more and 10x the baseline's CoV is a fail. */
#define GM_CHECK_ERRATIC_PCT 5.0
#define GM_CHECK_ERRATIC_K 10.0

/*
 * Judge run r (one GPU's cases) against baseline b (NULL = none; note says
 * why) with counters c (NULL = not read): fills g's lines, counter verdicts,
 * failures and verdict. quick: the lines outside --quick are SKIP when absent.
 */
gm_status gm_check_judge(const struct gm_run_result *r, const struct gm_baseline *b, const char *note,
			 const struct gm_check_counters *c, struct gm_check_gpu *g);

/* The counters' verdicts into g->cverdicts and g->failures (c NULL or c->have 0: every counter SKIP, "not read"). */
void gm_check_judge_counters(const struct gm_check_counters *c, struct gm_check_gpu *g);

/* The process exit code for a set of GPU verdicts: 0, 8 warn, 9 fail, 10 could not judge. */
int gm_check_exit_code(const struct gm_check_gpu *g, int n);

/* ---- burn (--burn DURATION): telemetry every 100 ms and its verdict (src/analysis/check_burn.c; the series of
 * samples, gm_burn_add and gm_burn_release: src/io/check_doc.c) ---- */

struct gm_burn_sample {
	double t_s;              /* since the burn began */
	double sm_mhz, mem_mhz, power_w, temp_c;
	uint64_t reasons;        /* clock-event reasons at that moment */
	int phase;               /* 0 gemm, 1 memtest */
};

struct gm_burn {
	double duration_s, ran_s;
	int interrupted;
	int rounds, gemm_rounds, memtest_rounds;
	int validation_errors;   /* a GEMM check or a memory-test pass that failed */
	char first_error[192];
	int n, cap;
	struct gm_burn_sample *s;  /* owned */
	/* the verdict */
	double sm_mhz_max, sm_mhz_median, sm_mhz_min, temp_c_max, power_w_max;
	double clock_drop_pct;   /* (max - median under load) / max, % */
	uint64_t reasons_seen;
	enum gm_check_verdict verdict;
	char message[192];
};
/* Parse "10s", "2m", "90", "1h" into seconds in (0, 86400]; GM_ERR_INVALID_ARG otherwise. */
gm_status gm_burn_parse_duration(const char *text, double *seconds);
gm_status gm_burn_add(struct gm_burn *b, const struct gm_burn_sample *s);
/* Clock drops, thermal/hardware throttling and validation errors into b's verdict, and into g's failures. */
void gm_burn_judge(struct gm_burn *b, struct gm_check_gpu *g);
void gm_burn_release(struct gm_burn *b);

/* ---- NVML reads (src/gpu/telemetry.c; NVML opened by gm_tel_open, bus id from gm_gpu_bus_id) ---- */

/* Every counter of the GPU at bus_id now (state ABSENT for all when NVML or the GPU is not there). */
void gm_tel_counters(const char *bus_id, struct gm_counter_read out[GM_CNT_COUNT]);
/* XID events: an NVML event set on the GPU (NULL when it cannot be had: r says why), polled without waiting
 * (each XID adds 1 to r->value, r->detail = its number), then freed. */
void *gm_tel_xid_open(const char *bus_id, struct gm_counter_read *r);
void gm_tel_xid_poll(void *set, struct gm_counter_read *r);
void gm_tel_xid_close(void *set);
/* One telemetry sample now (t_s and phase left to the caller) and the PCIe link now; 0 when NVML gives none. */
int gm_tel_now(const char *bus_id, struct gm_burn_sample *s, int *pcie_gen, int *pcie_width);

/* ---- writers (src/io/check_text.c, check_json.c, check_prom.c, check_html.c; commands reach them through the
 * rows GM_DOC_CHECK of gpumem/writer.h) ---- */

struct gm_finding;
struct gm_check_doc {
	char tool_version[32];
	char command[512];
	char started_utc[32];
	char mode[16];           /* "quick" | "default" | "full" | "from" */
	char from[512];          /* --from: the run document judged */
	double wall_s;
	int ngpus;
	struct gm_check_gpu *gpus;
	struct gm_burn *burns;   /* ngpus, or NULL without --burn */
	const struct gm_run_result *runs; /* ngpus (embedded in the JSON as "run"), or NULL */
	const struct gm_finding *findings; /* html: the first run's findings (gm_findings), from the command */
	int nfindings;
};
void gm_check_text(FILE *f, const struct gm_check_doc *d);
gm_status gm_check_json(FILE *f, const struct gm_check_doc *d);
/* The Prometheus text exposition format (node_exporter's textfile collector). */
gm_status gm_check_prometheus(FILE *f, const struct gm_check_doc *d);
/*
 * The run a document holds, and its counters when it carries them: a run
 * document (schema "gpumem-run", plain or gzip; counters from an optional
 * top-level "check_counters" object), or a `gpumem check --json` document
 * (its first GPU's "run" and "counters"). c may be NULL; c->have = 0 when the
 * document has no counters. On failure GM_ERR_PARSE (or the reader's status)
 * with the one-line reason of gm_json_read.
 */
gm_status gm_check_read_run(const char *path, struct gm_run_result *r, struct gm_check_counters *c);

/*
 * The burn a `gpumem check --burn --json` document holds (its first GPU's
 * "burn": summary and telemetry), for `check --from` to judge again and draw.
 * *found = 0 (and GM_OK) when the document has none; GM_ERR_PARSE when its
 * telemetry columns are not arrays of one length. Release b with gm_burn_release.
 */
gm_status gm_check_read_burn(const char *path, struct gm_burn *b, int *found);

/*
 * `--html FILE`: the report page (src/io/html.c) with a check section: per GPU
 * its verdict, the lines against the baseline (a bar for each margin), the
 * counters, the failures with code, severity and next step, and the burn's
 * telemetry charted over time (SM and memory clocks, power, temperature, the
 * phase and any clock-event reason); below it the report of the run judged.
 */
gm_status gm_check_html(FILE *f, const struct gm_check_doc *d);

#ifdef __cplusplus
}
#endif
#endif
