/*
 * fleet.h - runs over several GPUs (every GPU of a node, or one GPU per MPI
 * rank) and the fleet view over them. Pure C.
 *
 * A multi-device run document is a run document (docs/SCHEMA.md) whose
 * top-level "cases" is empty and whose "devices" array holds one block per
 * device (or rank): where the device sits (index, UUID, PCI bus id, NUMA
 * node, host, rank), what NVML saw while it ran (clocks, temperature, power,
 * throttle reasons, ECC, other processes) and that device's own complete run
 * document under "run". gm_json_read() of such a document reads device 0's
 * run; gm_multi_read() reads them all.
 */
#ifndef GPUMEM_FLEET_H
#define GPUMEM_FLEET_H

#include <stdio.h>
#include <stdint.h>
#include "gpumem/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_FLEET_DEFAULT_K 3.0

/* What NVML saw on one device while its run went on (min/median/max over samples). */
struct gm_telemetry {
	int samples;                     /* 0 = nothing seen (no NVML) */
	double sm_mhz_min, sm_mhz_median, sm_mhz_max;
	double mem_mhz_min, mem_mhz_max;
	double temp_c_min, temp_c_max;
	double power_w_max;
	uint64_t throttle_reasons;       /* OR of nvmlDeviceGetCurrentClocksThrottleReasons */
	int max_processes;               /* most compute processes seen on it at once */
	int64_t ecc_corrected, ecc_uncorrected; /* volatile counts at the end; -1 = unknown */
};

/* Where one device of a multi-device run sits, and how its run ended. */
struct gm_placement {
	int rank;                        /* MPI rank; -1 without MPI */
	char host[64];
	int device;                      /* CUDA index on its host; -1 = none */
	char name[256];                  /* model ("NVIDIA H100 80GB HBM3"); "" = no GPU */
	char uuid[48];                   /* "GPU-..."; "" when unknown */
	char pci_bus_id[24];             /* "00000000:19:00.0" */
	int numa_node;                   /* -1 when unknown */
	int pcie_gen, pcie_width;        /* current link; -1 when unknown */
	int pcie_gen_max, pcie_width_max;
	char status[16];                 /* "ok" | "failed" | "no-gpu" | "timeout" | "crashed" | "missing" | "error" */
	char message[256];
	int exit_code;
	struct gm_telemetry tel;
};

struct gm_multi_run {
	char mode[16];                   /* "sequential" | "concurrent" | "mpi" | "mpi-barrier" */
	char tool_version[32];
	char command[512];
	char started_utc[32];
	double wall_s;
	int n;
	struct gm_placement *pl;         /* n, owned */
	struct gm_run_result *runs;      /* n, owned; a run without cases when the device had none */
};

void gm_multi_init(struct gm_multi_run *m);
/* Grow to n devices (new entries zeroed, runs initialised). */
gm_status gm_multi_resize(struct gm_multi_run *m, int n);
/* Move every device block of from to the end of into (from keeps empty runs). */
gm_status gm_multi_append(struct gm_multi_run *into, struct gm_multi_run *from);
void gm_multi_release(struct gm_multi_run *m);

/* Write / read a multi-device document. gm_multi_read also accepts a
 * single-device document (one device, rank -1). */
gm_status gm_multi_write(FILE *f, const struct gm_multi_run *m);
gm_status gm_multi_read(const char *path, struct gm_multi_run *m);
/*
 * Read paths[0..n-1] on up to `threads` threads and hand each document's devices to take(arg, m) in the
 * paths' order (take may move m's contents out; m is released after). Stops at the first document that
 * cannot be read (its message) or the first take that fails. src/io/multi_read_many.c.
 */
gm_status gm_multi_read_each(const char *const *paths, int n, int threads,
			     gm_status (*take)(void *arg, struct gm_multi_run *m), void *arg);
/* One device block as a JSON text (for an MPI gather) and back. *text is malloc'd. */
gm_status gm_multi_block_dump(const struct gm_placement *p, const struct gm_run_result *r, char **text);
gm_status gm_multi_block_load(const char *text, struct gm_placement *p, struct gm_run_result *r);
/* 1 when the file is a multi-device document (has "devices"). */
int gm_multi_is(const char *path);

/* ---- the fleet view (src/analysis/fleet.c; its writers src/io/fleet_out.c) ---- */

struct gm_fleet_outlier {
	int device;                      /* index into gm_multi_run */
	double value, median, spread;
	double spreads_below;            /* how many spreads worse than the median */
	double pct;                      /* value vs median, % (negative = worse) */
	int jitter;                      /* flagged for erratic samples, not its median: */
	double cov_pct, fleet_cov_pct;   /* its samples' CoV and the fleet's median CoV of the case */
	char cause[192];                 /* likely cause from the data, "" = none seen */
};

struct gm_fleet_case {
	char name[64];
	char model[256];
	enum gm_unit unit;
	int n;                           /* devices with a number */
	double median, spread, min, max;
	int noutliers;
	struct gm_fleet_outlier *out;    /* noutliers, owned */
	/* against the model's baseline (gm_fleet.baselines; docs/CHECK.md): the median of the whole model worse
	   than the baseline's median by more than k tolerances (a node of equally slow GPUs) */
	int below_baseline;
	double baseline_median, baseline_tolerances;
};

/* One case of one device as the fleet view needs it (a run's case holds 3 KB: 4096 runs of 63 cases, 0.8 GB). */
struct gm_fleet_item {
	char name[64];
	char family[24];
	enum gm_unit unit;
	int ok;                          /* it has a number: status ok, finite median */
	double value;                    /* the headline's median */
	double cov_pct;                  /* its samples' CoV */
	double noise;                    /* its own run-to-run noise in the unit (robust spread of its samples) */
};

/* One device's items: items[first .. first + n - 1]. */
struct gm_fleet_dev {
	int first, n;
	int p2p;                         /* it measured a peer-to-peer case (its process opened a peer GPU) */
};

struct gm_fleet {
	double k;
	int nmodels;
	char models[16][256];
	int ncases;
	struct gm_fleet_case *cases;     /* owned, grouped by model */
	int noutliers;                   /* over all cases */
	int ndevs, nitems, cap_devs, cap_items;
	struct gm_fleet_dev *devs;       /* owned: one per device of the run, in order */
	struct gm_fleet_item *items;     /* owned */
	/* optional, set before gm_fleet_finish: baselines of models (gpumem/baseline.h), not owned */
	const struct gm_baseline *baselines;
	int nbaselines;
	int nbelow;                      /* cases whose model median is below its baseline */
};

/*
 * Per model and case: the distribution over devices and the devices more
 * than k spreads worse than the median. Spread: 1.4826 * median absolute
 * deviation over the devices (3 or more), never less than the devices' own
 * run-to-run spread nor 1 % of the median (docs/METHODOLOGY.md, "Fleet").
 */
gm_status gm_fleet_compute(const struct gm_multi_run *m, double k, struct gm_fleet *fl);
/*
 * The same in two steps, for runs read one at a time (gpumem fleet over thousands of documents): from an
 * all-zero fl, gm_fleet_add_run() keeps what the view needs of each device's run in order (the run's cases
 * may be released after it), then gm_fleet_finish() over m, whose m->n devices match the runs added.
 */
gm_status gm_fleet_add_run(struct gm_fleet *fl, const struct gm_run_result *r);
gm_status gm_fleet_finish(const struct gm_multi_run *m, double k, struct gm_fleet *fl);
void gm_fleet_release(struct gm_fleet *fl);
/* The text view: devices, per-case distribution, outliers with causes. */
void gm_fleet_write(FILE *f, const struct gm_multi_run *m, const struct gm_fleet *fl);
/* The same as an HTML section (for gpumem report). */
void gm_fleet_html(FILE *f, const struct gm_multi_run *m, const struct gm_fleet *fl);

#ifdef __cplusplus
}
#endif
#endif
