/*
 * counters_text.c - the counters table of run --counters and the counter
 * lines of explain --run. The DRAM column puts the counted bytes beside the
 * launch model's predicted bytes where the case has a launch prediction
 * ("L"), flagged "DRAM!" beyond GM_LAUNCH_DRAM_TOL_PCT; only a case without
 * one is checked against the warp model's byte claim ("W", traffic.bytes_hw),
 * flagged beyond GM_COUNTERS_DRAM_TOL_PCT. "SPR!" when counted sectors per
 * request differ from the model's by more than GM_COUNTERS_SPR_TOL_PCT.
 */
#include <math.h>
#include <stdio.h>
#include "io/counters_io.h"

/* the launch model predicts DRAM bytes to within this share on its calibrated cases (docs/MODEL.md 7) */
#define GM_LAUNCH_DRAM_TOL_PCT 5.0

/* The launch model's predicted DRAM bytes per launch; 0 when the case has no launch prediction. */
static double launch_bytes(const struct gm_case_result *cr)
{
	return cr->launch_gbs > 0 ? cr->launch_dram_read + cr->launch_dram_write : 0;
}

/* Counted vs the reference the table shows (launch prediction first, else the warp claim); 1 = flag. */
static int dram_flag(const struct gm_case_result *cr)
{
	const struct gm_counters *c = &cr->counters;
	double pred = launch_bytes(cr);

	if (pred > 0)
		return fabs(100.0 * ((c->dram_read_bytes + c->dram_write_bytes) / pred - 1.0)) > GM_LAUNCH_DRAM_TOL_PCT;
	return c->dram_mismatch;
}

static void spr_cell(char *buf, size_t n, double counted, double model)
{
	if (counted <= 0)
		snprintf(buf, n, "-");
	else if (model > 0)
		snprintf(buf, n, "%.2f(%.2g)", counted, model);
	else
		snprintf(buf, n, "%.2f", counted);
}

static void dram_cell(char *buf, size_t n, const struct gm_case_result *cr)
{
	const struct gm_counters *c = &cr->counters;
	double gb = (c->dram_read_bytes + c->dram_write_bytes) / 1e9, pred = launch_bytes(cr);

	if (pred > 0)
		snprintf(buf, n, "%.3f/%.3fL %+.0f%%", gb, pred / 1e9, 100.0 * (gb * 1e9 / pred - 1.0));
	else if (c->claimed_bytes > 0)
		snprintf(buf, n, "%.3f/%.3fW %+.0f%%", gb, c->claimed_bytes / 1e9, c->dram_vs_claim_pct);
	else
		snprintf(buf, n, "%.3f", gb);
}

static void case_row(FILE *f, const struct gm_case_result *cr)
{
	const struct gm_counters *c = &cr->counters;
	char ld[24], st[24], dram[40], flags[16];

	if (c->state != GM_COUNTERS_OK) {
		fprintf(f, "%-34s %s\n", cr->name, c->note[0] ? c->note : "no counters");
		return;
	}
	spr_cell(ld, sizeof(ld), gm_counters_spr(c, 0), c->pred_ld_spr);
	spr_cell(st, sizeof(st), gm_counters_spr(c, 1), c->pred_st_spr);
	dram_cell(dram, sizeof(dram), cr);
	snprintf(flags, sizeof(flags), "%s%s", dram_flag(cr) ? "DRAM! " : "", c->spr_mismatch ? "SPR!" : "");
	fprintf(f, "%-34s %3d %13s %13s %22s %5.1f %6.0f %4.0f %4.0f %4.0f %4.0f %4.0f  %-9s %-9s %s\n", cr->name,
		c->kernels, ld, st, dram, c->l2_hit_pct, c->smem_ld_conflicts + c->smem_st_conflicts, c->occupancy_pct,
		c->bn.pct[GM_LEVEL_DRAM], c->bn.pct[GM_LEVEL_L2], c->bn.pct[GM_LEVEL_L1], c->bn.pct[GM_LEVEL_ISSUE],
		c->bn.primary, c->bn.secondary[0] ? c->bn.secondary : "-", flags);
}

void gm_counters_table_write(FILE *f, const struct gm_run_result *r)
{
	int any = 0;

	for (int i = 0; i < r->ncases && !any; i++)
		any = r->cases[i].counters.state != GM_COUNTERS_NONE;
	if (!any)
		return;
	fprintf(f, "\ncounters (one profiled launch per case after its timing; spr = sectors per request, counted"
		"(model); DRAM GB counted/predicted: L = the launch model's bytes, flagged beyond %.0f %%, W = the warp\n"
		"model's byte claim where no launch prediction exists, flagged beyond %.0f %%; %% = throughput as %% of peak)\n",
		GM_LAUNCH_DRAM_TOL_PCT, GM_COUNTERS_DRAM_TOL_PCT);
	fprintf(f, "%-34s %3s %13s %13s %22s %5s %6s %4s %4s %4s %4s %4s  %-9s %-9s %s\n", "case", "krn", "ld spr",
		"st spr", "DRAM GB", "L2hit", "bankcf", "occ", "DRAM", "L2", "L1", "iss", "primary", "secondary",
		"flags");
	for (int i = 0; i < r->ncases; i++)
		if (r->cases[i].counters.state != GM_COUNTERS_NONE)
			case_row(f, &r->cases[i]);
	fprintf(f, "\nbottleneck advice\n");
	for (int i = 0; i < r->ncases; i++)
		if (r->cases[i].counters.bn.valid)
			fprintf(f, "  %-34s %s%s%s: %s\n", r->cases[i].name, r->cases[i].counters.bn.primary,
				r->cases[i].counters.bn.secondary[0] ? ", then " : "", r->cases[i].counters.bn.secondary,
				r->cases[i].counters.bn.advice);
}

void gm_counters_lines_write(FILE *f, const struct gm_counters *c, double seconds)
{
	double dram = c->dram_read_bytes + c->dram_write_bytes;

	if (c->state != GM_COUNTERS_OK) {
		fprintf(f, "  counters      %s\n", c->note[0] ? c->note : "not collected");
		return;
	}
	fprintf(f, "  counted       %d kernel(s), %d replay passes; %.0f ns in the profiled launch\n", c->kernels,
		c->passes, c->duration_ns);
	fprintf(f, "  global        loads %.0f requests, %.0f sectors (%.2f per request); stores %.0f requests, "
		"%.0f sectors (%.2f per request)\n", c->gld_requests, c->gld_sectors, gm_counters_spr(c, 0),
		c->gst_requests, c->gst_sectors, gm_counters_spr(c, 1));
	if (c->smem_ld_inst + c->smem_st_inst > 0)
		fprintf(f, "  shared        %.0f load + %.0f store wavefronts over %.0f + %.0f instructions "
			"(%.2f per instruction), %.0f bank conflicts\n", c->smem_ld_wavefronts, c->smem_st_wavefronts,
			c->smem_ld_inst, c->smem_st_inst, (c->smem_ld_wavefronts + c->smem_st_wavefronts) /
			(c->smem_ld_inst + c->smem_st_inst), c->smem_ld_conflicts + c->smem_st_conflicts);
	fprintf(f, "  DRAM          %.3f GB read + %.3f GB written", c->dram_read_bytes / 1e9,
		c->dram_write_bytes / 1e9);
	if (seconds > 0)
		fprintf(f, " = %.1f GB/s achieved at the measured time", dram / seconds / 1e9);
	if (c->claimed_bytes > 0)
		fprintf(f, "; model %.3f GB (%+.0f %%%s)", c->claimed_bytes / 1e9, c->dram_vs_claim_pct,
			c->dram_mismatch ? ", beyond tolerance" : "");
	fprintf(f, "\n  L2            %.0f sectors, %.1f %% hit; occupancy %.0f %%, issue slots %.0f %%\n",
		c->l2_sectors, c->l2_hit_pct, c->occupancy_pct, c->issue_pct);
	if (c->bn.valid)
		fprintf(f, "  bottleneck    %s%s%s (DRAM %.0f %%, L2 %.0f %%, L1/shared %.0f %%, issue %.0f %% of peak): "
			"%s\n", c->bn.primary, c->bn.secondary[0] ? ", then " : "", c->bn.secondary,
			c->bn.pct[GM_LEVEL_DRAM], c->bn.pct[GM_LEVEL_L2], c->bn.pct[GM_LEVEL_L1],
			c->bn.pct[GM_LEVEL_ISSUE], c->bn.advice);
}
