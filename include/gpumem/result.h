/*
 * result.h - the one result model. The runner fills it; text, JSON and CSV
 * writers (src/io/) render it; the JSON reader fills it back (round trip).
 * Schema: docs/SCHEMA.md. Bump GM_SCHEMA_VERSION on any incompatible change.
 */
#ifndef GPUMEM_RESULT_H
#define GPUMEM_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"
#include "gpumem/gpu.h"
#include "gpumem/bench.h"
#include "gpumem/counters.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_SCHEMA_VERSION 2
/* What a table or comparison of a `run --sanitize` document says first. */
#define GM_SANITIZE_NOTE "note: a run --sanitize document (one launch a case under a sanitizer): its times are not measurements"
#define GM_MAX_NOTES 8
#define GM_MAX_DERIVED 96
#define GM_SCHEMA_NAME "gpumem-run"

struct gm_stats {
	int n;
	double median, min, max, mean, stddev;
	double cov_pct;          /* 100 * stddev / mean */
};

enum gm_case_status {
	GM_CASE_OK = 0,
	GM_CASE_FAILED = 1,      /* validation failed: no number */
	GM_CASE_SKIPPED = 2,     /* unsupported here */
	GM_CASE_ERROR = 3,       /* a CUDA or allocation error */
};

/* Prediction of the model for one declared pattern. */
struct gm_pattern_prediction {
	char what[32];
	char space[8];           /* "global" | "shared" */
	char op[8];              /* "load" | "store" */
	int elem_bytes;
	char index[128];
	double per_request;      /* sectors per request (global) or wavefronts (shared) */
	double ideal;            /* ideal sectors per request / ideal wavefronts */
	double efficiency_pct;   /* requested / transferred (global); ideal / actual (shared) */
};

/* A named value with its unit and spread (extras of SELF cases, notes). */
struct gm_value {
	char name[24];
	enum gm_unit unit;
	double median, min, max;
};

/* Where a case's wall time went, seconds (docs/SCHEMA.md `wall_parts_s`). */
struct gm_wall_parts {
	double prepare;   /* allocation, random inputs */
	double check;     /* the validation launch and its checks (device and CPU) */
	double warmup;    /* untimed launches, the calibration launch, the warm-up chunks */
	double samples;   /* the timed samples, to their last result */
	double retries;   /* CoV retries (cov_limit_bp): every attempt after the first */
	double finish;    /* annotate, counters (run --counters), release */
};

struct gm_case_result {
	char name[64];
	char family[24];
	char label[48];
	int version;
	struct gm_param params[GM_MAX_PARAMS];
	char param_keys[GM_MAX_PARAMS][24];   /* owned copies of keys (JSON read) */
	int nparams;
	enum gm_case_kind kind;
	enum gm_unit unit;                    /* unit of value */
	enum gm_timing timing;
	enum gm_case_status status;
	char message[256];                    /* why failed/skipped; empty if ok */
	struct gm_traffic traffic;
	int nsamples;
	double *samples_ms;                   /* per launch, milliseconds; owned */
	struct gm_stats ms;                   /* over samples_ms */
	/*
	 * The headline in the case's unit: median, and min/max in that unit
	 * (for a higher-is-better unit min comes from the slowest sample).
	 * Equal to gbs_* for bandwidth cases, ns_per_access for SMEM cases.
	 */
	struct gm_value value;
	struct gm_value extras[GM_MAX_EXTRAS]; /* SELF cases: per-sample extras, as stats */
	int nextras;
	struct gm_value notes[GM_MAX_NOTES];   /* run-time facts (spill bytes, link width) */
	int nnotes;
	double gbs_median, gbs_min, gbs_max;  /* useful bytes / time, GB/s (DRAM) */
	double gbs_hw_median;                 /* hardware bytes / time */
	double pct_peak;                      /* gbs_median / peak */
	double ns_per_access;                 /* SMEM: median ns per warp access */
	double slowdown;                      /* SMEM: vs conflict-free case of its group, 0 if none */
	int verified;
	double wall_s;                        /* the case's own wall time: prepare, check, samples, counters, release */
	struct gm_wall_parts wall_parts;      /* wall_s by phase (runner.c); all 0 = not recorded */
	int npred;
	struct gm_pattern_prediction pred[GM_MAX_PATTERNS];
	double pred_efficiency_pct;           /* over all patterns: bytes requested / transferred */
	double pred_gbs;                      /* DRAM: peak * bytes_useful / bytes_hw (model's bound) */
	double pred_slowdown;                 /* SMEM: predicted wavefronts / ideal wavefronts */
	/* the launch model (docs/MODEL.md "The launch model"); launch_gbs 0 = not predicted */
	double launch_gbs;                    /* predicted useful GB/s */
	double launch_ms;                     /* predicted ms per launch */
	double launch_dram_read, launch_dram_write; /* predicted DRAM bytes per launch */
	double launch_l2_sectors;             /* predicted L2 sector operations per launch */
	double launch_l1_load_sectors, launch_l1_store_sectors; /* predicted global sectors at L1 */
	double launch_l2_load_sectors;        /* predicted load sectors L1 sends to L2 */
	char launch_limited_by[8];            /* "DRAM", "L2", "L1" */
	double launch_low_gbs, launch_high_gbs; /* its interval (docs/MODEL.md 7.6) */
	unsigned launch_rules, launch_weak;   /* the rules that fired, and the weak ones (1 << GM_RF_*) */
	struct gm_counters counters;          /* run --counters: one profiled launch; state NONE otherwise */
};

/*
 * A result computed from several cases of a family (a detected cache size, a
 * level's plateau bandwidth, a latency step). level + quantity place it in
 * the measured spec sheet; reference is the device attribute or theoretical
 * figure it is compared with (0 = none).
 */
struct gm_derived {
	char name[64];           /* "hierarchy.l2_capacity" */
	char family[24];
	char level[16];          /* "L1", "L2", "L2 far", "HBM", "smem", "TLB", ... ("" = none) */
	char quantity[24];       /* "capacity", "read bandwidth", "latency", ... */
	enum gm_unit unit;
	double value;
	double reference;        /* 0 = no reference */
	char reference_what[48]; /* what reference is: "device attribute l2_bytes" */
	char how[160];           /* how it was derived, from which cases */
};

/* Device state a run may change and must leave as it found it. */
struct gm_device_state {
	int valid;
	int64_t persisting_l2_limit;   /* cudaLimitPersistingL2CacheSize */
};

struct gm_run_result {
	int schema_version;                   /* of a document read back; 0 = this run */
	char tool_version[32];
	char command[512];                    /* the command line */
	char started_utc[32];                 /* ISO 8601 */
	double wall_s;
	int interrupted;
	int sanitize;                         /* run --sanitize: one launch a case under a sanitizer, times no measurement */
	int have_device;
	struct gm_device_info dev;
	char byte_convention[160];
	uint32_t seed;
	size_t array_bytes;
	int reps, warmup;
	int ncases, cap;
	struct gm_case_result *cases;         /* owned */
	int nderived;
	struct gm_derived derived[GM_MAX_DERIVED];
	struct gm_device_state state_before, state_after;
	char launch_profile[400];             /* the profile the launch model predicted with: "DEVICE (origin)";
						 "" when none */
};

/*
 * The version every document records: "0.1.0+<commit>" of the source tree the binary was built from, with
 * ".modified" when tracked files differed from that commit; "0.1.0" alone outside a git checkout.
 */
const char *gm_tool_version(void);

void gm_result_init(struct gm_run_result *r);
/* Append a zeroed case result; NULL on out of memory. */
struct gm_case_result *gm_result_add(struct gm_run_result *r);
void gm_result_release(struct gm_run_result *r);
/* Append a derived result; NULL when the table is full. */
struct gm_derived *gm_result_derive(struct gm_run_result *r, const char *family, const char *name);
/* Add a run-time fact to a case result (value without spread); ignored when full. */
void gm_result_note(struct gm_case_result *cr, const char *name, enum gm_unit unit, double value);
/* The finished case of that name, or NULL. */
const struct gm_case_result *gm_result_find(const struct gm_run_result *r, const char *name);

/*
 * ---- between processes (src/core/stability.c) ----
 * Whether a case's figure can move from one process to the next by more than its spread within a run, by
 * the mechanism that moves it (docs/METHODOLOGY.md "Between processes"): "host" (host-timed: the OS and
 * the driver's host paths), "link" (bytes cross the host link, shared with the host and other tenants),
 * "power" (tensor-core GEMMs at the board's power limit), "placement" (footprints near the L2's capacity,
 * page translation: which physical pages the process got). NULL when none applies; *why (if given) gets a
 * one-line reason. l2_bytes: the device's L2 (0 when unknown: the footprint rule is skipped).
 */
const char *gm_between_processes(const struct gm_case_result *c, int64_t l2_bytes, const char **why);

/* ---- statistics (src/core/stats.c) ---- */
gm_status gm_stats_compute(const double *x, int n, struct gm_stats *s);
/* The median of v[0..n) (0 when n <= 0); v is sorted in place. */
double gm_median_inplace(double *v, int n);

#ifdef __cplusplus
}
#endif
#endif
