/*
 * launch.h - the launch-level model (pure C, no CUDA, no I/O) and the device
 * profile it reads.
 *
 * The warp model (model.h) says what one warp-level instruction costs. The
 * launch model evaluates the access patterns of a whole launch (every warp,
 * or warps sampled in windows of consecutive blocks when the grid is large)
 * and predicts, per launch: L1 requests and sectors, L2 sector operations,
 * DRAM bytes read and written, the time each level needs, the predicted time
 * (the slowest level) and which level that is. The rules and the hardware
 * evidence behind each are in docs/MODEL.md, section "The launch model".
 *
 * A device profile holds the measured constants: achievable DRAM read, write
 * and copy bandwidth, the read bandwidth of sparse 64 B pieces, L1 and L2
 * bandwidth and capacity, the DRAM access granularity. `gpumem calibrate`
 * measures it; one profile serves every prediction on that device.
 */
#ifndef GPUMEM_LAUNCH_H
#define GPUMEM_LAUNCH_H

#include <stdint.h>
#include "gpumem/status.h"
#include "gpumem/model.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_PROFILE_SCHEMA "gpumem-profile"
/* 2: the unit (uuid), the date (measured_utc) and the fields calibrate could not measure (unmeasured);
   files of version 1 are still read, but the profile cache takes only the current version */
#define GM_PROFILE_VERSION 2
/* Rule P: the page a translation covers, and the rate a profile without pages_gps gets (measured on an H100,
   GPU-267134d7: the column walk of copy.pages_b4 run as explain --run, pg_r256_4m128 of
   launch/unseen2/gpu-4136874/: 523.9 GB/s, 4.091 ms for bandwidth once latency is joined, 2^28 lanes) */
#define GM_PAGE_BYTES (2 * 1024 * 1024)
#define GM_PAGES_GPS_DEFAULT 65.6
/* Rule P4: the distances between a request's lone pages at which calibrate measures a translation (the rows'
   pitch of copy.pages_2m_b4, copy.pages_b4 and copy.pages_16m_b4: 2, 4 and 16 MiB + 128 B) */
#define GM_PAGES_DIST_2M (2.0 * 1024 * 1024 + 128)
#define GM_PAGES_DIST_4M (4.0 * 1024 * 1024 + 128)
#define GM_PAGES_DIST_16M (16.0 * 1024 * 1024 + 128)
/* Rule P5: the distance between a request's lone lanes a power of two apart at which their cost is gone (probe-46:
   8 MiB 91 % where 2 MiB measures 70 %, and 16 MiB 100 % in probe-45) */
#define GM_PAGES_ALIGN_END (8.0 * 1024 * 1024)
/* Rule P6: the distance between a request's lone lanes at which calibrate measures lanes spread over their pages'
   offsets (the rows' pitch of copy.pages_spread_b4, COPY_PAGES_PITCH_SPREAD x 4 B), and the largest gap between
   a request's lone lanes' offsets in their 2 MiB pages (round the page) below which they are spread: half a page
   (branch m73: walks at 1.5-10.24 MiB pitches with no such gap ran 1.10x P4's rate, median of 27) */
#define GM_PAGES_DIST_SPREAD 4026528.0
#define GM_PAGES_SPREAD_GAP (GM_PAGE_BYTES / 2)
/* Rule L4's two ends: the spacing of a store request's lines at which calibrate measures a line a lane writes
   alone, near (copy.scatter_b4's lanes, 128 B apart: l2_merge_lines_gps) and far (copy.colstore_b4 / _b16's rows,
   512 KiB + 128 B apart: l2_far_lines_gps, l2_far_lines16_gps); and the lane widths of the two far cases */
#define GM_L4_NEAR_SPACING 128.0
#define GM_L4_FAR_SPACING 524416.0
/* Rule L4's spaced near rate (s75): copy.scatter_far_b4's lines, 1 KiB + 128 B apart (l2_merge_far_lines_gps), and
   the band of a store request's line spacings whose partly written lines take it: from the geometric mean of the two
   near cases' spacings, sqrt(128 x 1152) = 384 B (3 lines), to as far above the case's spacing, 1152^2 / 384 =
   3456 B (probe-66's float walks: 12.6-13.5 ps a line at 1-4 KiB, back at 14.7 from 8 KiB) */
#define GM_L4_SPACED_SPACING 1152.0
#define GM_L4_SPACED_MIN 384.0
#define GM_L4_SPACED_MAX (GM_L4_SPACED_SPACING * GM_L4_SPACED_SPACING / GM_L4_SPACED_MIN)
#define GM_L4_FAR_NARROW 4.0
#define GM_L4_FAR_WIDE 16.0
/* Rule L4's rows: the lines a walk writes partly between two pieces of one line (the rows it comes back to) at which
   a line a lane writes alone costs its near cost (a warp's request: the next request writes the same lines) and its
   whole rows weight (probe-68: column walks at 64 KiB + 128 B slow in log2 of their rows from 32 to 512, then flat);
   since m70 times the span's weight (GM_L4_SPAN_NEAR) */
#define GM_L4_ROWS_NEAR 32.0
#define GM_L4_ROWS_FAR 512.0
/* Rule L4's span (m70): the far weight of a walk's lines grows in log2 of the bytes its open lines span (rows x
   pitch) from the L2's size / GM_L4_SPAN_NEAR (nothing) to the L2's size (whole); probe-66/68/69 */
#define GM_L4_SPAN_NEAR 128.0
/* Rule L4's resident span (t84): a column request whose lines come back after one request takes its sector share of
   the far weight in log2 of the bytes the resident warps' stores span, from the L2's size / GM_L4_RES_LO (nothing)
   to the L2's size x GM_L4_RES_HI (whole): probe-t84's 32-row float4 walks (H200, 46 MB of L2) cost 20.0 / 21.0 / 21.9
   / 21.8 / 24.5 / 24.1 ps a line over 16 / 32 / 48 / 64 / 128 / 512 MiB of rows, probe-69's 18.6 at 8 MiB, the near
   17.3 and the share's 24.3: 0.2 of the share a doubling from about 4 MiB to 128 MiB */
#define GM_L4_RES_LO 8.0
#define GM_L4_RES_HI 4.0
/* Rule T11: a load request over this many lines has its L1 wavefronts served at l1_lines_gps (copy.lines_l1_b4,
   32 lines a request); up to it, at l1_gbs (measured with 16 B lanes: 4 lines a request) */
/* Rule D3: spacings 1 (dense) .. 4 (sparse) in quarters (bins 0-12), then 4 .. 8 (a piece alone in 512 B; rule
   D3b) in quarters of a doubling (bins 13-16): the load pieces; bins 17-33 the same for the fills (rule D10) */
#define GM_READ_SPACING_BINS 34
#define GM_READ_SPACING_NEAR 12 /* the bin of spacing 4: 256 B groups end, 2 KiB groups begin */
#define GM_L1_MANY_LINES 4

/* The device constants the launch model reads (JSON: docs/SCHEMA.md, "Device profile"). */
struct gm_profile {
	char device[96];          /* device name the profile was measured on */
	char source[200];         /* how it was made: command, run file */
	char origin[400];         /* where it was read from (file path, "built-in PATH", "this unit's, UUID, ...") */
	int schema_version;       /* of the file it was read from (GM_PROFILE_VERSION when made here) */
	char uuid[48];            /* the unit it was measured on, "GPU-..." as nvidia-smi -L; "" unknown */
	char measured_utc[32];    /* when the run it comes from started, "2026-11-29T06:31:02Z"; "" unknown */
	char unmeasured[512];     /* optional fields the profile's run did not measure, comma-separated (every OPT
				     row's name fits); the model uses what docs/MODEL.md 7.3 names for each
				     (pages_gps: GM_PAGES_GPS_DEFAULT, an H100's; read_quarter_gbs: the built-in
				     profile's of the same GPU; the others: their rule off). "" = every field measured */
	/* the numbers, one member a row of the table (name, unit, range, the case that measures it) */
#define GM_PF_T_I int
#define GM_PF_T_D double
#define GM_PROFILE_FIELD(name, T, unit, lo, hi, need, source, meaning) GM_PF_T_##T name;
#include "gpumem/profile_fields.def"
#undef GM_PROFILE_FIELD
};

/* What the launch model needs of a profile (the REQ rows' ranges): GM_ERR_INVALID_ARG with the field in why. */
gm_status gm_profile_check(const struct gm_profile *p, char *why, size_t n);

/* The table of profile fields (include/gpumem/profile_fields.def), for the reader, the writer, calibrate and
   the docs. */
enum gm_profile_need { GM_PF_REQ, GM_PF_OPT, GM_PF_ATTR, GM_PF_INFO };
struct gm_profile_field {
	const char *name;         /* member and JSON key */
	size_t off;               /* offsetof(struct gm_profile, name) */
	int is_int;
	const char *unit;
	double lo, hi;            /* valid range (gm_profile_check: REQ rows) */
	enum gm_profile_need need;
	const char *source;       /* the calibration case or derived result that measures it */
	const char *meaning;
};
extern const struct gm_profile_field gm_profile_fields[];
extern const int gm_profile_nfields;
/* A field's value as a double (ints converted). */
double gm_profile_get(const struct gm_profile *p, const struct gm_profile_field *f);
/* 1 when name is in p->unmeasured. */
int gm_profile_unmeasured(const struct gm_profile *p, const char *name);
/* Name a field in p->unmeasured (once). */
void gm_profile_note_unmeasured(struct gm_profile *p, const char *name);

/*
 * A thread that repeats a pattern (an unrolled loop, ILP): iteration u adds
 * u * step_bytes to every lane's address. The iterations of a warp are
 * evaluated together, so a 64 B piece two of them share is read once.
 */
struct gm_repeat {
	int iters;                    /* <= 1: once */
	int64_t step_bytes;
	int iters2;                   /* an inner loop in a second direction: <= 1: none */
	int64_t step2_bytes;
};

/* Accesses one thread makes of a repeated pattern (NULL = once). */
static inline int64_t gm_repeat_count(const struct gm_repeat *r)
{
	return r ? (int64_t)(r->iters > 1 ? r->iters : 1) * (r->iters2 > 1 ? r->iters2 : 1) : 1;
}

/* One launch to predict. */
struct gm_launch_in {
	const struct gm_access *pats; /* global and shared patterns; index of warp 0 of block 0 */
	int npats;
	const struct gm_repeat *repeat; /* per pattern, or NULL: every pattern once per thread */
	int block[3];                 /* blockDim (all patterns share it) */
	int64_t grid_x;               /* blocks along x; 0 = all blocks in x (1D grid) */
	int64_t n_threads;            /* thread-level executions of each pattern (>= 1) */
	double useful_bytes;          /* bytes the algorithm moves (for GB/s); 0 = sum of pattern bytes */
	int windows;                  /* sampled windows (0 = 8) */
	int window_warps;             /* warps per window (0 = 256) */
	int one_element_per_thread;   /* every thread runs the patterns once and ends (explain --n) */
	int threads;                  /* evaluate the windows on this many threads (0 or 1: the caller's;
					 gm_parallel_for's limit); the result does not depend on it */
	int round_trips;              /* each thread runs the patterns once and ends, waiting for its loads
					 this many times (rule T2); 0 = one_element_per_thread ? 1 : not known */
	int barrier_phases;           /* phases before the loads that end at a barrier and read no memory (a block's
					 range: a warp reduction, shared atomics; rule T9); 0 = none */
	int back_to_back;             /* the launch is timed repeated back to back on the same arrays, as explain
					 --run times its kernel: the previous launch's lines in L2 (rule D11), the
					 least time a launch so timed takes (rule S3); 0 = a launch on its own */
	int index_instructions;       /* instructions each thread issues before its first load beyond those of
					 calibrate's copy kernels (which wave_ns, wave_l2_ns and warp_tail are measured
					 with): a block's warps issue them before its last load leaves (rule T15);
					 0 = as calibrate's */
	int blocks_per_sm_cap;        /* resident blocks an SM at most by the launch's shared memory and registers
					 (the caller's: trace's rule OC); 0 = threads and the 32 slots only */
};

struct gm_launch_out {
	int64_t warps;                /* warps of the launch */
	int64_t sampled_warps;        /* warps evaluated */
	int sampled;                  /* 1 when sampled_warps < warps */
	double requests;              /* global L1 requests */
	double l1_sectors;            /* global sectors at L1 (loads + stores) */
	double l1_lines;              /* global 128 B lines at L1 (per request, summed): L2's lookups (L3) */
	double l1_wavefronts;         /* L1 data wavefronts of the global requests (rule T1 by banks): L1 time */
	double l1_many_wavefronts;    /* of them, those of load requests over GM_L1_MANY_LINES lines (rule T11) */
	double l1_spread_wavefronts;  /* load wavefronts beyond a dense request's (rule T13) */
	double l2_lines;              /* line requests at L2: the lines of the requests L1 does not serve (rule L3) */
	double l1_load_sectors;       /* of which loads */
	double l2_load_sectors;       /* load sectors sent to L2 */
	double l2_store_sectors;      /* store sector operations at L2 (partial ones count twice) */
	double l2_sectors;            /* sum of the two above */
	double partial_store_sectors; /* store sectors written partly by a warp */
	double l2_store_bytes;        /* bytes L2 writes for the stores: whole sectors (L4) */
	double l2_partial_lines[5];   /* store lines written partly, by how many of their sectors another block of
					 the window wrote last (0-4; rule L4) */
	double l2_part_lines;         /* of them, those with such sectors (x >= 1) */
	double l2_merged_lines;       /* the others (x = 0) */
	double l2_spaced_lines_x[5];  /* of l2_partial_lines[x], those of requests whose lines lie GM_L4_SPACED_MIN or
					 more apart (rule L4's spaced near rate) */
	double l2_far_lines_x[5];     /* of l2_partial_lines[x] (x >= 1), those a lane writes alone, each weighted by
					 how far apart its request's lines lie (0 at 128 B, 1 at 512 KiB + 128 B; L4) */
	double l2_far_wide_lines_x[5]; /* the same, each also weighted by its lane's width (0 at 4 B, 1 at 16 B) */
	double l2_far_lines, l2_far_wide_lines; /* the two summed over x */
	double smem_wavefronts;
	double dram_read_bytes;
	double dram_write_bytes;
	double dram_fill_bytes;       /* of dram_read_bytes: pieces read to complete partly written sectors */
	double dram_sparse_write_pieces; /* 64 B pieces written with no fill and no neighbour (rule D12): each weighted
					 by its window's spacing and its pattern's over the launch (0 dense, 1 from 256 B) */
	double dram_sparse_write_bytes; /* of dram_write_bytes, their bytes, so weighted */
	double dram_sparse_write_far; /* of dram_sparse_write_pieces, lone pieces x their share of 512 B's spacing
					 (0 at 256 B, 1 from 512 B, log2 between): each costs read 512 B's over 256 B's more */
	double l2_reuse_bytes;        /* load pieces earlier warps left in L2 (rules D6, D7): not in dram_read_bytes */
	double l2_reuse_wait_bytes;   /* of those, a pattern's that also reads from DRAM in the window (rule T7) */
	double l2_footprint_bytes;    /* DRAM bytes rule D7 removed: footprints that stay in L2 (reads and writes) */
	double read_density;          /* 64 B pieces read / pieces of their 256 B groups */
	double read_spacing[GM_READ_SPACING_BINS]; /* the pieces read by the spacing of their pattern in its window,
					 1 / its density, 1 + k / 4 at bin k <= 12, 4 x 2^((k - 12) / 4) past it,
					 shared linearly with the neighbour (rule D3); the fills from bin 17 on */
	double t_dram_ms, t_l2_ms, t_l1_ms;
	int l2_by_lines;              /* t_l2_ms is L2's line lookups (rule L3), not its sectors */
	double t_waves_ms;            /* threads that end: waves of resident threads x round trips x wave_ns,
					 and what their barriers hold back (t_barrier_ms) */
	double t_barrier_ms;          /* of it, the shared wavefronts or stores a barrier holds back until the
					 block's last load is back, a wave after the other (rule T6); 0: none */
	double t_spread_ms;           /* of it, the wait of blocks' spread load wavefronts at L1 (rule T13); 0: none */
	double blocks;                /* blocks of a launch whose threads end (rules T2, T4); 0 otherwise */
	double block_tail;            /* the round trip of its blocks over that of 256-thread blocks (rule T5) */
	double block_lines;           /* distinct 128 B lines a block's loads read in a round trip (rule T5); 0: none */
	double t_blocks_ms;           /* those blocks at the rate the SMs start them (rule T4); 0 without blocks_gps */
	double page_lanes;            /* load lanes that miss L1 alone in their 2 MiB page of the request (rule P) */
	double page_distance;         /* the mean distance between a request's lone lanes, in bytes (geometric mean
					 over those lanes; rule P4); 0: none */
	double page_aligned;          /* of those lanes, the share in requests whose lines share their low address
					 bits (rule P5) */
	double page_spread;           /* of those lanes, the share in load requests whose lone lanes spread over
					 their pages' offsets, no gap of GM_PAGES_SPREAD_GAP (rule P6) */
	double t_pages_ms;            /* their translations at pages_gps (rule P); 0 without it */
	double t_bandwidth_ms;        /* the slowest level's time, max(DRAM, L2, L1, pages, blocks) */
	double t_start_ms;            /* the launch's fixed start-up, in time_ms (rule S); 0 without launch_us */
	double t_floor_ms;            /* the pace of launches timed back to back (rule S3, the profile's floor_us),
					 joined in time_ms; else 0 */
	double l2_kept_bytes;         /* DRAM bytes the previous launch's lines in L2 spared it (rule D11) */
	double waves;
	double time_ms;
	double useful_bytes;
	double gbs;                   /* useful bytes / time, GB = 1e9 */
	const char *limited_by;       /* "DRAM", "L2", "L1", "pages", "blocks", "latency" */
	/* the interval (docs/MODEL.md 7.6): the measured GB/s is expected in [gbs_low, gbs_high] */
	unsigned rules_fired;         /* bit k: band k (gm_launch_band) set or moved the time */
	unsigned weak;                /* of them, those whose record is wide or thin: explain --run measures */
	double gbs_low, gbs_high;
};

/* The rules an interval is made of (src/model/launch_interval.c), each with its measured error; bit k of
   rules_fired and weak is band k, 0 <= k < gm_launch_nbands(). */
struct gm_rule_band {
	const char *name;             /* "DRAM", "L2 lines", ... */
	const char *rules;            /* MODEL.md 7.2's ids: "L3" */
	double lo, hi;                /* measured / predicted: 5th and 95th percentile on committed evidence */
	int n;                        /* measurements it rests on */
};
int gm_launch_nbands(void);
/* The band of rule k (0 <= k < gm_launch_nbands()), NULL otherwise. */
const struct gm_rule_band *gm_launch_band(int k);
/* The rules a predicted launch fired (bit k: band k). */
unsigned gm_launch_rules_fired(const struct gm_launch_out *o);
/* "DRAM (D1 D2 D4), L2 reuse (D6 D7 D8 D9 T7)": the rules of these bits, with MODEL.md's ids. */
void gm_launch_rules_names(unsigned bits, char *buf, size_t n);
/* Fill o's interval from its rules (gm_launch_predict does). */
void gm_launch_interval(struct gm_launch_out *o);

/*
 * Predict a launch. GM_ERR_INVALID_ARG (bad shape, profile) or the first
 * evaluation error of a pattern (err set, err->text = that index).
 */
/* Resident blocks an SM (rules T2, L4): the profile's threads an SM over the block's, at most 32 slots (sm_50 and
   later) and in->blocks_per_sm_cap, at least 1. */
int64_t gm_launch_blocks_per_sm(const struct gm_launch_in *in, const struct gm_profile *prof);

gm_status gm_launch_predict(const struct gm_launch_in *in, const struct gm_profile *prof,
			    struct gm_launch_out *out, struct gm_expr_error *err);

/*
 * gm_launch_predict in two steps, for one launch predicted with many profiles of one shape (calibrate's
 * derivation): the walk (the patterns parsed, the windows walked and scaled to the launch) reads only the
 * profile's shape (sm_count, threads_per_sm, dram_atom_bytes, l2_bytes); the launch rules and the time phase
 * read its rates. gm_launch_predict_walked with a profile of that shape gives what gm_launch_predict gives, bit
 * for bit; with another shape GM_ERR_INVALID_ARG. The walk copies the patterns and repeats, not their strings
 * (index, active): they must outlive it. A walk is read only: threads may predict from one at once.
 */
struct gm_launch_walked;
gm_status gm_launch_walk_new(const struct gm_launch_in *in, const struct gm_profile *prof,
			     struct gm_launch_walked **w, struct gm_expr_error *err);
int gm_launch_walked_fits(const struct gm_launch_walked *w, const struct gm_profile *p);
gm_status gm_launch_predict_walked(const struct gm_launch_walked *w, const struct gm_profile *prof,
				   struct gm_launch_out *out, struct gm_expr_error *err);
void gm_launch_walked_free(struct gm_launch_walked *w);

/* Rule T5: the round trip of a wave of blocks of this many threads over that of blocks of 256 (one line a warp). */
double gm_launch_block_tail(double warp_tail, int64_t threads_per_block);
/* Rule T5: the round trip of a wave of blocks whose loads read this many lines (>= 1) over that of 8 lines. */
double gm_launch_block_tail_lines(double warp_tail, double lines);
/* Its inverse: the warp_tail that gives blocks of this many threads the factor g (> 1); 0 when none does. */
double gm_launch_warp_tail_for(double g, int64_t threads_per_block);

/*
 * Rule T3: the time of a launch whose threads need t_latency to wait for
 * their loads and whose slowest level needs t_bandwidth: the knee-norm of
 * the two, (t_l^knee + t_b^knee)^(1/knee); knee <= 0: the larger.
 */
double gm_launch_join(double t_latency, double t_bandwidth, double knee);
/* rule T1s: the rate of shared memory's wavefronts, GB/s: 128 B a cycle an SM, or l1_gbs where that is larger */
double gm_launch_smem_gbs(const struct gm_profile *pr);

#ifdef __cplusplus
}
#endif
#endif
