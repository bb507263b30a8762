/*
 * cases.c - the transfer family's case table: host <-> device transfers: pageable, pinned,
 * write-combined, registered and mapped (zero-copy) host memory; H2D, D2H and
 * both at once; copy engine (cudaMemcpyAsync) vs a copy kernel over mapped
 * memory; sizes from 4 KiB (latency, us per copy) to 1 GiB. Kernels and ops:
 * src/families/transfer/transfer.cu. derive() publishes the best pinned H2D and D2H
 * against the PCIe link's theoretical rate (level "PCIe").
 *
 * Byte convention: one direction's bytes for H2D and D2H; both directions'
 * bytes for bidirectional cases: the sum of the two directions' rates, each
 * over the copies it ended while the other still ran (nvbandwidth's
 * bidirectional tests report one direction while the other runs, so ours is
 * their H2D figure plus their D2H figure: src/families/transfer/README.md).
 *
 * Stability: a large case moves `copies` copies per sample (0.5-4 GiB) and
 * declares a CoV limit (param cov_limit_bp: 1 % pinned, 2 % the other kinds);
 * the runner re-measures above it and marks what stays above "unstable"
 * (notes attempts, unstable); derive() carries that into the spec-sheet line.
 */
#include <stdio.h>
#include <string.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

#define MiB (1ll << 20)
#define GiB (1ll << 30)

static const struct {
	int mem, dir, engine;
	long long bytes;
	int copies, cov_bp;          /* copies per launch (per sample); CoV limit in 1/100 % (0 = none) */
	int quick, full;
	const char *label, *desc;
} variants[] = {
	{ XF_PINNED, XF_H2D, XF_CE, 256 * MiB, 16, 100, 1, 0, "pinned_h2d", "cudaMemcpyAsync H2D, 16 x 256 MiB a sample, pinned (cudaMallocHost)" },
	{ XF_PINNED, XF_D2H, XF_CE, 256 * MiB, 16, 100, 0, 0, "pinned_d2h", "cudaMemcpyAsync D2H, 16 x 256 MiB a sample, pinned (cudaMallocHost)" },
	{ XF_PINNED, XF_BIDIR, XF_CE, 256 * MiB, 8, 100, 0, 0, "pinned_bidir", "H2D and D2H at once on two streams, 8 x 256 MiB each way, pinned; rates while both run, summed" },
	{ XF_PAGEABLE, XF_H2D, XF_CE, 64 * MiB, 8, 200, 0, 0, "pageable_h2d", "cudaMemcpy H2D, 8 x 64 MiB a sample, pageable (malloc), host-timed" },
	{ XF_PAGEABLE, XF_D2H, XF_CE, 64 * MiB, 8, 200, 0, 0, "pageable_d2h", "cudaMemcpy D2H, 8 x 64 MiB a sample, pageable (malloc), host-timed" },
	{ XF_WC, XF_H2D, XF_CE, 64 * MiB, 8, 200, 0, 0, "wc_h2d", "cudaMemcpyAsync H2D, 8 x 64 MiB a sample, write-combined pinned" },
	{ XF_REGISTERED, XF_H2D, XF_CE, 64 * MiB, 8, 200, 0, 0, "registered_h2d", "cudaMemcpyAsync H2D, 8 x 64 MiB a sample, malloc + cudaHostRegister" },
	{ XF_REGISTERED, XF_D2H, XF_CE, 64 * MiB, 8, 200, 0, 1, "registered_d2h", "cudaMemcpyAsync D2H, 8 x 64 MiB a sample, malloc + cudaHostRegister" },
	{ XF_MAPPED, XF_H2D, XF_KERNEL, 64 * MiB, 8, 200, 0, 0, "mapped_kernel_h2d", "copy kernel reads mapped host memory (zero-copy), 8 x 64 MiB a sample" },
	{ XF_MAPPED, XF_D2H, XF_KERNEL, 64 * MiB, 8, 200, 0, 0, "mapped_kernel_d2h", "copy kernel writes mapped host memory (zero-copy), 8 x 64 MiB a sample" },
	{ XF_MAPPED, XF_BIDIR, XF_KERNEL, 64 * MiB, 8, 200, 0, 1, "mapped_kernel_bidir", "copy kernels both ways over mapped memory, 8 x 64 MiB each way; rates while both run, summed" },
	{ XF_PINNED, XF_H2D, XF_CE, 4096, 1, 0, 0, 0, "lat_pinned_h2d_4k", "small-transfer latency: 4 KiB H2D, pinned, us per copy" },
	{ XF_PINNED, XF_D2H, XF_CE, 4096, 1, 0, 0, 0, "lat_pinned_d2h_4k", "small-transfer latency: 4 KiB D2H, pinned, us per copy" },
	{ XF_PAGEABLE, XF_H2D, XF_CE, 4096, 1, 0, 0, 1, "lat_pageable_h2d_4k", "small-transfer latency: 4 KiB H2D, pageable, us per copy" },
	{ XF_MAPPED, XF_H2D, XF_KERNEL, 4096, 1, 0, 0, 0, "lat_mapped_h2d_4k", "small-transfer latency: 4 KiB read by a kernel over mapped memory" },
};

/* The pinned size sweep (full only), each direction. */
static const long long sweep[] = { 4096, 65536, MiB, 16 * MiB, 256 * MiB, 1024 * MiB };
static const char *const sweep_label[] = { "4k", "64k", "1m", "16m", "256m", "1g" };
#define NSWEEP ((int)(sizeof(sweep) / sizeof(sweep[0])))

static void add_params(struct gm_case *c, int mem, int dir, int engine, long long bytes, int copies, int cov_bp)
{
	gm_case_param_add(c, "mem", mem);
	gm_case_param_add(c, "dir", dir);
	gm_case_param_add(c, "engine", engine);
	gm_case_param_add(c, "bytes", bytes);
	gm_case_param_add(c, "copies", copies);
	if (cov_bp > 0)
		gm_case_param_add(c, "cov_limit_bp", cov_bp);
}

/* Latency cases (<= 64 KiB) report us per copy; larger ones GB/s. */
static enum gm_unit unit_for(long long bytes)
{
	return bytes <= 65536 ? GM_UNIT_US : GM_UNIT_GBS;
}

static int transfer_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;
	int k = 0;

	for (int i = 0; i < n; i++, k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		int mem = variants[i].mem;

		gm_case_begin(c, &gm_family_transfer, -1, GM_KIND_MEASURE, variants[i].quick, variants[i].desc,
			      "%s", variants[i].label);
		if (variants[i].dir == XF_BIDIR) {
			/* self-timed: each direction's rate while the other runs (transfer.cu) */
			gm_case_measure(c, GM_UNIT_GBS, GM_TIME_SELF);
			gm_case_extra_add(c, "h2d", GM_UNIT_GBS);
			gm_case_extra_add(c, "d2h", GM_UNIT_GBS);
		} else {
			gm_case_measure(c, unit_for(variants[i].bytes),
					mem == XF_PAGEABLE ? GM_TIME_HOST : GM_TIME_EVENTS);
		}
		c->full = variants[i].full;
		add_params(c, mem, variants[i].dir, variants[i].engine, variants[i].bytes, variants[i].copies,
			   variants[i].cov_bp);
	}
	for (int d = 0; d < 2; d++) {
		for (int j = 0; j < NSWEEP; j++, k++) {
			struct gm_case *c = gm_case_slot(out, max, k, &scratch);
			long long b = sweep[j];

			gm_case_begin(c, &gm_family_transfer, -1, GM_KIND_MEASURE, 0,
				      d ? "pinned D2H size sweep (cudaMemcpyAsync)" : "pinned H2D size sweep (cudaMemcpyAsync)",
				      "sweep_pinned_%s_%s", d ? "d2h" : "h2d", sweep_label[j]);
			gm_case_measure(c, unit_for(b), GM_TIME_EVENTS);
			c->full = 1;
			/* the large copies: 4 GiB a sample and the pinned CoV limit; the runner calibrates the rest */
			add_params(c, XF_PINNED, d ? XF_D2H : XF_H2D, XF_CE, b, b >= 256 * MiB ? (int)(4 * GiB / b) : 1,
				   b >= 256 * MiB ? 100 : 0);
		}
	}
	return k;
}

static double note_value(const struct gm_case_result *cr, const char *name)
{
	for (int i = 0; i < cr->nnotes; i++)
		if (!strcmp(cr->notes[i].name, name))
			return cr->notes[i].median;
	return 0;
}

/* Best OK GB/s case of a direction among pinned copy-engine cases. */
static const struct gm_case_result *best_pinned(const struct gm_run_result *r, const char *dir)
{
	const struct gm_case_result *best = NULL;

	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *cr = &r->cases[i];
		if (strcmp(cr->family, "transfer") || cr->status != GM_CASE_OK || cr->unit != GM_UNIT_GBS)
			continue;
		if (strncmp(cr->label, "pinned_", 7) && strncmp(cr->label, "sweep_pinned_", 13))
			continue;
		if (!strstr(cr->label, dir))
			continue;
		if (!best || cr->value.median > best->value.median)
			best = cr;
	}
	return best;
}

static int64_t param_value(const struct gm_case_result *cr, const char *key)
{
	for (int i = 0; i < cr->nparams; i++)
		if (!strcmp(cr->param_keys[i], key))
			return cr->params[i].value;
	return 0;
}

/*
 * The stability note of a derived line: "CoV 0.31 %" when the case kept to its
 * limit, else "unstable: CoV 3.10 % > 1 % after 3 attempts, samples 48.0-55.1
 * GB/s" (text.c prints what follows "unstable:" on the spec sheet).
 */
static void stability_note(const struct gm_case_result *cr, char *buf, size_t n)
{
	double limit = (double)param_value(cr, "cov_limit_bp") / 100.0;

	if (note_value(cr, "unstable") > 0)
		snprintf(buf, n, "unstable: CoV %.2f %% > %g %% after %.0f attempts, samples %.1f-%.1f GB/s",
			 cr->ms.cov_pct, limit, note_value(cr, "attempts"), cr->value.min, cr->value.max);
	else
		snprintf(buf, n, "CoV %.2f %%", cr->ms.cov_pct);
}

static void transfer_derive(struct gm_run_result *r)
{
	static const char *dirs[] = { "h2d", "d2h", "bidir" };
	static const char *what[] = { "H2D bandwidth", "D2H bandwidth", "bidir bandwidth" };

	for (int d = 0; d < 3; d++) {
		const struct gm_case_result *cr = best_pinned(r, dirs[d]);
		char name[64];
		if (!cr)
			continue;
		snprintf(name, sizeof(name), "transfer.best_pinned_%s", dirs[d]);
		struct gm_derived *x = gm_result_derive(r, "transfer", name);
		if (!x)
			return;
		snprintf(x->level, sizeof(x->level), "PCIe");
		snprintf(x->quantity, sizeof(x->quantity), "%s", what[d]);
		x->unit = GM_UNIT_GBS;
		x->value = cr->value.median;
		double link = note_value(cr, "pcie_link_gbs");
		if (link > 0) {
			x->reference = d == 2 ? 2 * link : link;
			snprintf(x->reference_what, sizeof(x->reference_what), "PCIe Gen%.0f x%.0f, 128b/130b%s",
				 note_value(cr, "pcie_gen"), note_value(cr, "pcie_width"),
				 d == 2 ? ", both ways" : "");
		}
		char note[80];
		stability_note(cr, note, sizeof(note));
		snprintf(x->how, sizeof(x->how), "best pinned: %.32s (%s); %s", cr->name,
			 d == 2 ? "H2D + D2H while both run" : "one direction", note);
	}
}

const struct gm_family gm_family_transfer = {
	"transfer", "host <-> device copies: pageable, pinned, write-combined, registered, mapped; 4 KiB to 1 GiB",
	transfer_enumerate, gm_transfer_ops, transfer_derive,
};
