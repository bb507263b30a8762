/*
 * baseline.h - what a healthy unit of one GPU model (SKU) measures: per case,
 * the median and the spread over several good units, and their own
 * run-to-run noise, naming the units (GPU UUID) and the commits the runs came
 * from. `gpumem baseline make` builds one from run documents
 * (src/analysis/baseline.c); `gpumem check` and `gpumem fleet` judge a GPU
 * against it (docs/CHECK.md). The file is JSON, schema "gpumem-baseline"
 * (docs/SCHEMA.md), read and written by src/io/check_baseline.c. Pure C.
 */
#ifndef GPUMEM_BASELINE_H
#define GPUMEM_BASELINE_H

#include <stdio.h>
#include "gpumem/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_BASELINE_SCHEMA "gpumem-baseline"
#define GM_BASELINE_VERSION 1
#define GM_BASELINE_MAX_UNITS 64
#define GM_BASELINE_MAX_RUNS 64
#define GM_BASELINE_MAX_LINES 64

/* One run a baseline came from, and the unit (GPU) that measured it. */
struct gm_baseline_run {
	char uuid[48];           /* "GPU-..."; "" when the document does not say (then it counts as its own unit) */
	char commit[48];         /* from the source path's "<name>-<hex>" folder (results/<gpu>/s25-0d0fd8e/); "" = unknown */
	char source[256];        /* the path it was read from */
	char started_utc[32];
};

/* One case: the distribution of its headline over the units. */
struct gm_baseline_line {
	char name[64];           /* the suite case ("copy.read_b16_tile4") */
	enum gm_unit unit;
	int n;                   /* units with a number */
	double median;           /* median over the units (each unit: the median of its runs) */
	double spread;           /* 1.4826 x MAD over the units (3+), |a-b|/sqrt(2) for two, 0 for one */
	double noise;            /* median over the units of their own run-to-run noise, in the unit */
	double cov_pct;          /* median over the units of their samples' CoV */
	double min, max;         /* over the units */
};

struct gm_baseline {
	int schema_version;      /* of a file read; GM_BASELINE_VERSION when made */
	char sku[256];           /* the device name the runs report ("NVIDIA H200") */
	char made_utc[32];
	char tool_version[32];
	int nunits;              /* distinct units (UUIDs; a run without one counts alone) */
	int nruns;
	struct gm_baseline_run runs[GM_BASELINE_MAX_RUNS];
	int nlines;
	struct gm_baseline_line lines[GM_BASELINE_MAX_LINES];
};

/*
 * Build a baseline over runs[0..n-1] (sources[i] names runs[i]) for the
 * cases named in cases[0..ncases-1]. Every run must be of one device name
 * (else GM_ERR_INVALID_ARG naming both) and hold every named case validated
 * or skipped (a run where one failed is refused: a baseline is made of good
 * units). Runs of one UUID are one unit: its value of a case is the median of
 * its runs. A case no run measured is left out. b is filled from zero.
 */
gm_status gm_baseline_make(const struct gm_run_result *runs, const char *const *sources, int n,
			   const char *const *cases, int ncases, struct gm_baseline *b);

/* A case's own run-to-run noise in its unit: 1.4826 x MAD / median of its per-launch times, times its
 * headline (0 with fewer than 3 samples). The robust spread the fleet view uses too. */
double gm_case_noise(const struct gm_case_result *c);

/* The line of that case, or NULL. */
const struct gm_baseline_line *gm_baseline_find(const struct gm_baseline *b, const char *name);

/* "0d0fd8e" from "results/nvidia-h200/s25-0d0fd8e/launch/x.json" (the last "<word>-<7+ hex>" folder); "" if none. */
void gm_baseline_commit_of(const char *path, char *buf, size_t n);

/* ---- the file (src/io/check_baseline.c) ---- */

/* Write b as a JSON document. */
gm_status gm_baseline_write(FILE *f, const struct gm_baseline *b);
/*
 * Read a baseline file. GM_ERR_PARSE with a one-line reason for a file that
 * is not JSON, not schema "gpumem-baseline", of a newer version, or with a
 * line that has no finite median.
 */
gm_status gm_baseline_read(const char *path, struct gm_baseline *b);

#ifdef __cplusplus
}
#endif
#endif
