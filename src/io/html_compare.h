/*
 * html_compare.h - `gpumem compare A.json B.json -o diff.html`: the report
 * page of both runs (every chart overlays them, the spec sheets side by side)
 * with the comparison first: each case's change, coloured by its verdict
 * (beyond the threshold and the noise, or not). Written by src/io/html.c.
 */
#ifndef GPUMEM_IO_HTML_COMPARE_H
#define GPUMEM_IO_HTML_COMPARE_H

#include <stdio.h>
#include "gpumem/compare.h"
#include "gpumem/result.h"

gm_status gm_html_write_compare(FILE *f, const struct gm_run_result runs[2], const char *const labels[2],
				const struct gm_comparison *c);

#endif
