/*
 * counters.h - hardware counters of one case's launch, read with CUPTI's
 * Range Profiler (CUDA 13), and the bottleneck read from them.
 *
 * Collection (src/gpu/counters_cupti.c; a stub without CUDA): libcupti is
 * loaded with dlopen, so the binary starts with the driver alone. A session
 * builds the CUPTI configuration image once per metric set; each collection
 * enables the range profiler, runs ONE call of the case's launch under
 * AutoRange + KernelReplay (CUPTI replays each kernel once per pass and
 * restores the memory it writes), sums the ranges (one per kernel) and
 * disables the profiler again, so timing runs never run with it enabled.
 * docs/METHODOLOGY.md, "Hardware counters".
 *
 * The bottleneck (src/analysis/bottleneck.c) is pure C: each level's
 * throughput as % of its peak, the primary and secondary limiter, and one
 * sentence of advice from the model's verdict.
 */
#ifndef GPUMEM_COUNTERS_H
#define GPUMEM_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tolerance of DRAM bytes counted vs the bytes a case claims to move, percent. */
#define GM_COUNTERS_DRAM_TOL_PCT 10.0
/* Tolerance of sectors per request counted vs the model, percent. */
#define GM_COUNTERS_SPR_TOL_PCT 5.0
/* Below this % of peak on every level, the case is latency-bound. */
#define GM_BOTTLENECK_BUSY_PCT 60.0

enum gm_counters_state {
	GM_COUNTERS_NONE = 0,    /* not asked for */
	GM_COUNTERS_OK = 1,      /* collected */
	GM_COUNTERS_NA = 2,      /* no kernel of ours in the launch (host work, copies): note says why */
	GM_COUNTERS_ERROR = 3,   /* collection failed: note says why */
};

/* Bottleneck levels, in the order of struct gm_bottleneck's pct[]. */
enum gm_level { GM_LEVEL_DRAM = 0, GM_LEVEL_L2 = 1, GM_LEVEL_L1 = 2, GM_LEVEL_ISSUE = 3, GM_NLEVELS = 4 };

struct gm_bottleneck {
	int valid;               /* a bottleneck line exists */
	int counted;             /* 1: read from counters (pct[] valid); 0: from what the case is (no kernel
				    of ours to count: gm_bottleneck_uncounted) */
	double pct[GM_NLEVELS];  /* throughput as % of peak: DRAM, L2, L1/shared, issue slots */
	char primary[16];        /* "DRAM", "L2", "L1/shared", "issue", "latency"; uncounted also "link",
				    "host", "copy engine" */
	char secondary[16];      /* the next level, "" when none is above 10 % */
	char advice[200];        /* one sentence */
};

/* What one launch of a case counted (sums over its kernels). */
struct gm_counters {
	enum gm_counters_state state;
	char note[200];          /* why n/a or error; "" when ok */
	int kernels;             /* ranges (kernels) the launch had */
	int passes;              /* replay passes per kernel */
	double duration_ns;      /* gpu__time_duration, summed over kernels */
	double dram_read_bytes, dram_write_bytes;
	double l2_sectors;       /* lts__t_sectors */
	double l2_hit_pct;       /* lts__t_sector_hit_rate (reads and writes) */
	double gld_requests, gld_sectors, gst_requests, gst_sectors;
	double smem_ld_wavefronts, smem_st_wavefronts;
	double smem_ld_conflicts, smem_st_conflicts;
	double smem_ld_inst, smem_st_inst;
	double occupancy_pct;    /* achieved: sm__warps_active % of peak */
	double issue_pct;        /* issue-slot utilisation: smsp__issue_active % of peak */
	double dram_pct, l2_pct, l1_pct; /* throughput % of peak (elapsed) */
	/* checks against the case's claims (filled by gm_counters_check) */
	double claimed_bytes;    /* traffic.bytes_hw; 0 = no claim to check */
	double dram_vs_claim_pct;/* 100 * (dram bytes / claimed - 1); valid when claimed_bytes > 0 */
	int dram_mismatch;       /* |dram_vs_claim_pct| > GM_COUNTERS_DRAM_TOL_PCT */
	double pred_ld_spr;      /* the model's sectors per request of the global load patterns (mean), 0 = none */
	double pred_st_spr;      /* the same for global stores */
	int spr_mismatch;        /* a counted load or store sectors/request differs from the model by more
				    than GM_COUNTERS_SPR_TOL_PCT */
	struct gm_bottleneck bn;
};

/* Sectors per request of global loads (store = 0) or stores (store = 1); 0 without requests. */
static inline double gm_counters_spr(const struct gm_counters *c, int store)
{
	double req = store ? c->gst_requests : c->gld_requests;

	return req > 0 ? (store ? c->gst_sectors : c->gld_sectors) / req : 0;
}

/* ---- collection (src/gpu/counters_cupti.c, or the stub) ---- */

enum gm_counters_set {
	GM_CSET_CASE = 0,        /* everything above: run --counters, explain --run */
	GM_CSET_PROBE = 1,       /* the 8 access counters only (selftest --counters, 1 block probes) */
};

struct gm_counters_session;

/*
 * Load libcupti, check that profiling is possible on the open device and
 * build the configuration image of set. On failure returns a status and
 * gm_last_error() holds one line that says why (libcupti missing,
 * insufficient privileges, another profiler attached, ...).
 */
gm_status gm_counters_open(enum gm_counters_set set, struct gm_counters_session **out);

/* Replay passes per kernel of the session's metric set. */
int gm_counters_passes(const struct gm_counters_session *s);

/*
 * One profiled call of launch(state), after the case's timing; the
 * counters are summed over its kernels. A launch with no kernel leaves
 * out->state = GM_COUNTERS_NA. A failure of the profiler is recorded in
 * out (GM_COUNTERS_ERROR) and returned; GM_ERR_CUDA means the device failed.
 */
gm_status gm_counters_collect(struct gm_counters_session *s, gm_status (*launch)(void *state), void *state,
			      struct gm_counters *out);

void gm_counters_close(struct gm_counters_session *s);

/* ---- checks and the bottleneck (pure C, src/analysis/bottleneck.c) ---- */

/*
 * Fill claimed_bytes / dram_vs_claim_pct / dram_mismatch and the
 * sectors-per-request check. claimed: the case's sector bytes per launch;
 * check_dram: 0 when its working set fits in L2 (DRAM bytes are then not
 * its traffic); pred_ld/st: the model's sectors per request (0 = none).
 */
void gm_counters_check(struct gm_counters *c, double claimed, int check_dram, double pred_ld, double pred_st);

/*
 * The bottleneck from c's throughputs; model_eff_pct is the model's
 * useful / moved bytes (0 = no model verdict), smem_case says the case's
 * headline is shared memory.
 */
void gm_bottleneck_compute(struct gm_counters *c, double model_eff_pct, int smem_case);

/*
 * The bottleneck of a case no counter sees (c->state not OK: host-timed,
 * copy-engine work, timed inside its kernel), from what the case is: its
 * family, whether it is self-timed (a latency chase) and whether its unit is
 * a time per operation. Sets bn.valid, leaves bn.counted 0 and pct[] zero.
 */
void gm_bottleneck_uncounted(struct gm_counters *c, const char *family, int self_timed, int time_per_op);

#ifdef __cplusplus
}
#endif
#endif
