/*
 * profile.h - device profiles as JSON files (src/io/profile.c), the profiles
 * built into the binary (data/profiles/<device>.json, embedded at
 * build time), and the profile derived from a run (src/bench/calibrate.c).
 */
#ifndef GPUMEM_PROFILE_H
#define GPUMEM_PROFILE_H

#include <stdio.h>
#include "gpumem/launch.h"
#include "gpumem/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Read a profile from a file. GM_ERR_IO when it cannot be read,
 * GM_ERR_PARSE when it is not a profile document; why names the file and the
 * field at fault.
 */
gm_status gm_profile_read(const char *path, struct gm_profile *p, char *why, size_t n);
/* The same from text in memory; origin names it in messages. */
gm_status gm_profile_parse(const char *text, const char *origin, struct gm_profile *p, char *why, size_t n);
/* Write it as JSON: the fields in p->unmeasured are left out (and listed under "unmeasured"). */
gm_status gm_profile_write(FILE *f, const struct gm_profile *p);

/*
 * Fill what p's run did not measure from the built-in profile of the same device name, where the model takes it
 * from there (read_quarter_gbs: the built-in's share of the way from the half to the sparse time, on p's own half
 * and sparse rates). The fields stay named in p->unmeasured; nothing is filled from another GPU. The readers do
 * it; calibrate's CLI for a run that lacked the case.
 */
void gm_profile_fill_from_builtin(struct gm_profile *p);

/* Profiles built into the binary. */
int gm_profile_builtin_count(void);
gm_status gm_profile_builtin(int i, struct gm_profile *p);
/*
 * The built-in profile for a device name: the same name, else the one whose
 * name shares the longest prefix (a warning case: *exact = 0). GM_ERR_NOT_FOUND
 * when the binary holds none.
 */
gm_status gm_profile_nearest(const char *device, struct gm_profile *p, int *exact);

/* ---- this unit's profile: the user's cache (src/io/profile_cache.c) ---- */

/*
 * The file of a unit's profile in the user's cache: $XDG_CACHE_HOME (absolute; else $HOME/.cache)
 * /gpumem/profiles/<uuid>.json. GM_ERR_NOT_FOUND when uuid is empty or not a plain name, or no folder is known.
 */
gm_status gm_profile_cache_path(const char *uuid, char *path, size_t n);
/*
 * Store p (p->uuid names the unit) in the cache, atomically (a reader sees the old file or the new one),
 * creating the folders. path receives the file; GM_ERR_IO with why when it cannot be written.
 */
gm_status gm_profile_cache_store(const struct gm_profile *p, char *path, size_t n, char *why, size_t wn);

/* Which profile gm_profile_for_device chose, and why. */
struct gm_profile_choice {
	int cached;       /* 1: this unit's profile, from the cache (p->origin names its UUID, date and file) */
	int exact;        /* 1: measured on this device name (always for a cached one) */
	char note[1200];  /* a cached file that was there and was ignored, and why; "" when none */
};
/*
 * The profile to predict for a device: this unit's cached profile (by uuid) when it is there, reads, is of the
 * current schema version, names the same UUID and passes gm_profile_check; else the built-in profile of the
 * device name (gm_profile_nearest). A cached file that was ignored is named in c->note; the call still
 * succeeds with the built-in one. GM_ERR_NOT_FOUND only when the binary holds no built-in profile and none is
 * cached. uuid may be NULL or "" (no cache). For `run`, `explain`, `predict` and `trace`.
 */
gm_status gm_profile_for_device(const char *device, const char *uuid, struct gm_profile *p,
				struct gm_profile_choice *c);
/* The fields p->unmeasured names, each with the case that would measure it and what the model does instead. */
void gm_profile_describe_unmeasured(const struct gm_profile *p, char *buf, size_t n);

/* ---- a GPU the model never ran on: datasheet figures (src/io/datasheet.c, src/model/profile_scale.c) ---- */

/* The figures of a GPU's datasheet (data/datasheets/NAME.json, schema "gpumem-datasheet"). */
struct gm_datasheet {
	char device[96];
	double hbm_bandwidth_gbs, hbm_clock_mhz, bus_width_bits, l2_bytes, sm_count, sm_clock_mhz, pcie_gen;
};
/* Read one: GM_ERR_IO when it cannot be opened, GM_ERR_PARSE with the missing or bad field named in why. */
gm_status gm_datasheet_read(const char *path, struct gm_datasheet *d, char *why, size_t n);
/*
 * The profile of target_ds's GPU from base, measured on base_ds's: each rate scaled by the ratio of the
 * datasheet figure that bounds it (HBM bandwidth for DRAM; SMs x clock for L1, L2 and block rates; L2 size for
 * the L2 knee); what no datasheet figure bounds is kept. docs/MODEL.md 7.7.
 */
void gm_profile_from_datasheet(const struct gm_profile *base, const struct gm_datasheet *base_ds,
			       const struct gm_datasheet *target_ds, struct gm_profile *out);

struct gm_case_walks; /* the walks of a run's cases (gm_case_walks_new, below) */

/*
 * The profile from a run that holds the calibration cases (gm_calibrate_selectors);
 * GM_ERR_NOT_FOUND with the missing case in why.
 */
gm_status gm_profile_from_run(const struct gm_run_result *r, struct gm_profile *p, char *why, size_t n);
/* The same, and the walks of the run's cases it made for the profile's shape in *walks (NULL when none), for the
   caller to predict the run with the profile (gm_launch_predict_run_walked) and to free (gm_case_walks_free),
   whatever it returns. */
gm_status gm_profile_from_run_walks(const struct gm_run_result *r, struct gm_profile *p, char *why, size_t n,
				    struct gm_case_walks **walks);
/* The cases `gpumem calibrate` runs (NULL-terminated). */
extern const char *const gm_calibrate_selectors[];

/* ---- the launch model over a run's cases (src/bench/launch_case.c) ---- */

/*
 * Predict one case of a run with the launch model: its declared patterns (from
 * the registry, by name), one thread-level execution per element moved
 * (bytes_useful / the bytes of its global patterns per thread), a square grid
 * when an index names blockIdx.y. Fills cr->launch_*; GM_ERR_NOT_FOUND when the
 * case is not a bandwidth case with global patterns.
 */
gm_status gm_launch_predict_case(struct gm_case_result *cr, const struct gm_profile *p);
/* The same launch's whole prediction, the case's result untouched (calibrate reads its times). */
gm_status gm_launch_case_out(const struct gm_case_result *cr, const struct gm_profile *p, struct gm_launch_out *out);
/* Every case of a run; returns how many were predicted. */
int gm_launch_predict_run(struct gm_run_result *r, const struct gm_profile *p);
/*
 * The walks of a run's cases (gm_launch_walk_new) for p's shape, made once on every core; the launch model's
 * result through them is the same, bit for bit, for every profile of that shape (calibrate's derivation predicts
 * the same cases again and again as it finds its rates). Through cw, a case without a walk that fits takes the
 * path without one. The run must outlive cw; NULL when out of memory.
 */
struct gm_case_walks *gm_case_walks_new(const struct gm_run_result *r, const struct gm_profile *p);
void gm_case_walks_free(struct gm_case_walks *cw);
gm_status gm_launch_case_out_walked(const struct gm_case_walks *cw, const struct gm_case_result *cr,
				    const struct gm_profile *p, struct gm_launch_out *out);
int gm_launch_predict_run_walked(struct gm_run_result *r, const struct gm_profile *p, const struct gm_case_walks *cw);

/* How well the launch model did over a run's predicted, measured cases. */
struct gm_launch_score {
	int n;              /* cases with a prediction and a measurement */
	int within10;       /* |measured / predicted - 1| <= 10% */
	double median_err_pct; /* median |measured / predicted - 1|, % */
	int calibration;    /* of n, cases the profile is measured by (gm_calibrate_selectors) */
	int calibration_within10;
	double other_median_err_pct, other_mean_err_pct; /* over the n - calibration others */
};
/* 1 when a case is one the profile is measured by (its prediction reproduces it by construction). */
int gm_is_calibration_case(const char *name);
/* family NULL = all families. */
void gm_launch_score_of(const struct gm_run_result *r, const char *family, struct gm_launch_score *s);

#ifdef __cplusplus
}
#endif
#endif
