/*
 * bench.h - benchmark cases, the family table and the runner.
 *
 * A family (copy, stride, hierarchy, latency, ...) is two files:
 * src/families/<name>/cases.c (pure C) defines its struct gm_family: the cases,
 * their parameters and declared access patterns, so `gpumem list` and the
 * model work without CUDA; src/families/<name>/<name>.cu holds its numbered kernel
 * versions and the ops (prepare, launch one timed iteration, verify,
 * release), reached through gm_<name>_ops() (src/families/kernels.h).
 *
 * The runner (src/bench/runner.c) owns the whole timing policy: prepare ->
 * verify (poisoned output, random input, every element checked) -> warm-up ->
 * samples -> statistics. See docs/METHODOLOGY.md.
 */
#ifndef GPUMEM_BENCH_H
#define GPUMEM_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"
#include "gpumem/model.h"
#include "gpumem/gpu.h"
#include "gpumem/units.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_MAX_PARAMS 6
#define GM_MAX_PATTERNS 4
#define GM_MAX_EXTRAS 4

struct gm_param {
	const char *key;   /* static string: "elem_bytes", "stride", ... */
	int64_t value;
};

/* One warp-level access a case performs, declared for the model. */
struct gm_pattern {
	const char *what;        /* static: "load in", "store out", "smem load" */
	enum gm_space space;
	enum gm_op op;
	int elem_bytes;
	int block[3];            /* blockDim the kernel uses (x,y,z) */
	int warp;                /* warp inside the block (usually 0) */
	int64_t base;            /* byte offset from aligned start (offset family) */
	char index[128];         /* index expression of warp 0 of block 0 */
	int iters;               /* the thread repeats it (unrolled loop): 0 or 1 = once */
	int64_t iter_step;       /* elements added to the index per iteration */
	int iters2;              /* an inner loop in a second direction (0 or 1 = none) */
	int64_t iter_step2;
};

/*
 * What the access model can say about a case. DRAM and SMEM cases get the
 * model's bound or slowdown beside the measurement; MEASURE cases (cache
 * levels, latencies, transfers, API costs) are measured only.
 */
enum gm_case_kind {
	GM_KIND_DRAM = 0,     /* bandwidth through DRAM: bytes / time, GB/s */
	GM_KIND_SMEM = 1,     /* shared memory: time per warp access, ns */
	GM_KIND_MEASURE = 2,  /* any other quantity, in the case's own unit */
};

/*
 * Which clock a case's samples come from; the runner owns the policy for all
 * three (docs/METHODOLOGY.md).
 *  EVENTS: CUDA events on the harness stream around back-to-back launches
 *          (device work). A sample is ms per launch.
 *  HOST:   a monotonic host clock around launches that return only when
 *          their work is complete (pageable copies, cudaMalloc, page
 *          faults). A sample is ms per launch.
 *  SELF:   the case measures itself (clock64 in a pointer chase) and hands
 *          each sample to the runner in the case's unit, plus its extras.
 */
enum gm_timing {
	GM_TIME_EVENTS = 0,
	GM_TIME_HOST = 1,
	GM_TIME_SELF = 2,
};

/* A secondary value a case reports beside its headline (latency in ns next to cycles). */
struct gm_extra {
	const char *name;        /* static: "ns", "sm_clock_mhz" */
	enum gm_unit unit;
};

struct gm_family;
struct gm_run_result;

struct gm_case {
	char name[64];           /* unique: "<family>.<label>" */
	const struct gm_family *family;
	int version;             /* numbered from naive (0) to best; -1 = reference */
	char label[48];          /* variant, e.g. "v2_vec16" */
	char desc[120];          /* one line for `gpumem list` */
	struct gm_param params[GM_MAX_PARAMS];
	int nparams;
	struct gm_pattern patterns[GM_MAX_PATTERNS];
	int npatterns;
	enum gm_case_kind kind;
	enum gm_unit unit;       /* headline unit (GB/s for DRAM, ns/access for SMEM) */
	enum gm_timing timing;
	/*
	 * For EVENTS/HOST cases whose unit is a time per operation (us, ns):
	 * the runner divides ms per launch by gm_traffic.ops. For SELF cases:
	 * extras[i] is values[i + 1] of each sample.
	 */
	struct gm_extra extras[GM_MAX_EXTRAS];
	int nextras;
	int quick;               /* member of the --quick suite */
	int full;                /* only with --full (long sweeps) or when named exactly */
	int64_t grid_x;          /* blocks along x of the launch the patterns describe (0: derived, launch_case.c) */
	int64_t grid_y;          /* with grid_x, the launch's blocks along y: the grid the model walks is then the
				    kernel's, not the useful bytes over the bytes the patterns declare a thread
				    (0: derived that way, for patterns that move exactly the useful bytes) */
	int round_trips;         /* each thread runs its patterns once, waits for its loads this many times
				    and ends (launch model rule T2); 0: not declared (a loop, or not known) */
};

struct gm_run_cfg {
	size_t array_bytes;      /* per-array working set (--size); runner resolves 0 */
	int quick;
	uint32_t seed;           /* random input seed of this run */
	const struct gm_device_info *dev;
	/*
	 * run --sanitize (under compute-sanitizer): a family may shrink work that
	 * only repeats the same code (iterations of a timing loop, GEMM sizes past
	 * a few tiles), keeping every code path and ragged edge (docs/METHODOLOGY.md).
	 */
	int sanitize;
};

/* What one launch of a prepared case moves. GB = 1e9; reads + writes counted. */
struct gm_traffic {
	double bytes_useful;     /* bytes the algorithm must read + write */
	double bytes_hw;         /* bytes at 32 B sector granularity (>= useful) */
	double accesses;         /* SMEM cases: warp-level shared accesses per launch */
	double ops;              /* operations per launch for time-per-op units (0 = 1) */
	int64_t working_set;     /* device bytes allocated by the case */
};

struct gm_case_result;

struct gm_family_ops {
	/* Allocate, fill random inputs (seed), describe traffic. */
	gm_status (*prepare)(const struct gm_case *c, const struct gm_run_cfg *cfg,
			     void **state, struct gm_traffic *t);
	/* Enqueue one timed iteration on gm_gpu_stream(); no sync, no host work. */
	gm_status (*launch)(void *state);
	/* Poison outputs, launch once, check every element; why = first mismatches. */
	gm_status (*verify)(void *state, char *why, size_t n);
	/*
	 * Undo everything prepare did, including device state it changed
	 * (persisting-L2 limit, carve-out, peer access, pinned host memory).
	 * Called on success, on failure and after an interrupt.
	 */
	void (*release)(void *state);
	/*
	 * Optional, before prepare: GM_ERR_UNSUPPORTED with a reason in why
	 * when this device cannot run the case (the case is skipped, not failed).
	 */
	gm_status (*supported)(const struct gm_case *c, const struct gm_run_cfg *cfg, char *why, size_t n);
	/*
	 * GM_TIME_SELF cases: one sample. values[0] is the headline in the
	 * case's unit, values[1..nextras] its extras.
	 */
	gm_status (*sample)(void *state, double *values);
	/* Optional, after sampling: add run-time facts (gm_result_note) to the result. */
	void (*annotate)(void *state, struct gm_case_result *cr);
};

struct gm_family {
	const char *name;
	const char *desc;
	/* Write up to max cases (max==0: just count); returns the total. */
	int (*enumerate)(struct gm_case *out, int max);
	/* The kernels of this family (src/families/<name>/<name>.cu); NULL without CUDA. */
	const struct gm_family_ops *(*ops)(void);
	/*
	 * Optional, pure C: results computed from this family's finished cases
	 * (a knee, a capacity, a plateau), appended with gm_result_derive().
	 */
	void (*derive)(struct gm_run_result *r);
};

/* ---- registry (src/bench/registry.c) ---- */

/* All families, NULL-terminated. */
extern const struct gm_family *const gm_families[];

/* All cases of all families, in registry order; owned by the registry. */
const struct gm_case *gm_registry_cases(int *n);

/* Which suite: --quick, the default, or --full (adds the long sweeps). */
enum gm_tier { GM_TIER_DEFAULT = 0, GM_TIER_QUICK = 1, GM_TIER_FULL = 2 };

/*
 * Select cases by selectors: a family name ("stride"), an exact case name,
 * or a prefix ("copy.v2", "stride.b04"). An empty list selects the suite of
 * the tier (quick: cases marked quick; default: all but the full-only ones;
 * full: all). With quick, a selector keeps only its quick cases when it has
 * any; below full, a selector skips full-only cases unless it names one
 * exactly. sel[i] is set to 1 for each chosen case. On a selector matching
 * nothing returns GM_ERR_NOT_FOUND and *bad = index of that selector.
 */
gm_status gm_registry_select(const char *const *sels, int nsels, enum gm_tier tier,
			     unsigned char *sel, int *bad);

/*
 * Derive r's results again from its cases with this build's rules (each
 * family's derive(), in the order its cases first appear): a saved run's
 * spec sheet as today's code computes it. Replaces r's derived results.
 */
void gm_rederive(struct gm_run_result *r);

/* Up to max case/family names closest to word (edit distance), for hints. */
int gm_registry_suggest(const char *word, const char **out, int max);

/* Value of a case parameter, or dflt. */
int64_t gm_case_param(const struct gm_case *c, const char *key, int64_t dflt);


/* ---- runner (src/bench/runner.c) ---- */

struct gm_run_result;
struct gm_counters_session;

struct gm_runner_opts {
	int reps;                 /* timed samples per case */
	int warmup;               /* untimed launches before sampling */
	double min_sample_ms;     /* a sample repeats launches until it lasts this long */
	size_t array_bytes;       /* per-array working set; 0 = size from the device */
	int quick;
	uint32_t seed;
	volatile int *stop;       /* set asynchronously (SIGINT): finish the current case, stop */
	/* called before each case (progress on a terminal); may be NULL */
	void (*progress)(void *ctx, int i, int n, const struct gm_case *c);
	void *ctx;
	/* run --counters: after a case's samples, one profiled launch (include/gpumem/counters.h); NULL = off */
	struct gm_counters_session *counters;
	/* run --sanitize: validation, then one launch per sample: no calibration, warm-up or CoV retries */
	int sanitize;
	/* > 0 (run's and calibrate's default, GM_SAMPLES_BUDGET_MS): a timed case takes no more samples than last
	   this long together, and never fewer than GM_BUDGET_MIN_REPS nor more than reps (runner.c,
	   docs/METHODOLOGY.md); 0 = reps always (run --reps N) */
	double samples_budget_ms;
};
#define GM_BUDGET_MIN_REPS 10
#define GM_SAMPLES_BUDGET_MS 150.0
/* The samples a timed case takes when a sample is `launches` launches of one_ms each (runner.c's policy). */
int gm_runner_reps(const struct gm_runner_opts *o, int launches, double one_ms);

/*
 * The warm-up (runner.c, docs/METHODOLOGY.md step 4): untimed chunks of about GM_WARMUP_CHUNK_MS of launches,
 * each timed, until two consecutive chunks agree within GM_WARMUP_AGREE_PCT or GM_WARMUP_MAX_MS of work was
 * queued. Pure bookkeeping: the runner queues, times and reports; these decide.
 */
#define GM_WARMUP_CHUNK_MS 4.0
#define GM_WARMUP_AGREE_PCT 1.0
#define GM_WARMUP_MAX_MS 50.0
#define GM_WARMUP_MAX_CHUNKS 64
struct gm_warmup {
	int launches;       /* launches per chunk */
	double chunk_ms;    /* a chunk's expected time, from the calibration launch */
	int queued;         /* chunks queued (or run) */
	int timed;          /* chunks whose time is known */
	double prev_ms, last_ms; /* the last two chunks' times */
	int settled;        /* two consecutive chunks agreed */
};
/* Start a warm-up for launches of one_ms each (0 or less: unknown, one launch a chunk). */
void gm_warmup_begin(struct gm_warmup *w, double one_ms);
/* 1 when another chunk is to be queued: not settled, under GM_WARMUP_MAX_MS queued, under the chunk limit. */
int gm_warmup_more(const struct gm_warmup *w);
/* A chunk's measured time (in queue order): settled when within GM_WARMUP_AGREE_PCT of the one before. */
void gm_warmup_timed(struct gm_warmup *w, double ms);

/* Default per-array working set for a device: 4 GiB on large GPUs, bounded by free memory. */
size_t gm_default_array_bytes(const struct gm_device_info *dev, int quick);

/*
 * Run the selected cases on the open device, appending one result per case
 * to r. A case's own failure (validation, too large, unsupported) is
 * recorded in its result and the run goes on; only an interrupt or a
 * failure of the device itself stops it (GM_ERR_INTERRUPTED / GM_ERR_CUDA).
 */
gm_status gm_run_cases(const struct gm_case *const *cases, int n, const struct gm_runner_opts *o,
		       const struct gm_device_info *dev, struct gm_run_result *r);

/* Fill the model's predictions of a case's declared patterns into its result. */
void gm_predict_case(const struct gm_case *c, struct gm_case_result *cr);

#ifdef __cplusplus
}
#endif
#endif
