/*
 * cases.c - the overlap family's case table: the chunked pipeline H2D copy -> kernel -> D2H copy over
 * 128 MiB of pinned memory in 32 chunks, on 1, 2, 3 and 4 streams, beside each
 * stage alone. Every case reports the data set's bytes / time (GB/s), so the
 * ratios are time ratios. derive(): overlap efficiency against the ideal (the
 * slowest stage alone) and the speed-up against the serial sum of the stages.
 * Kernels and ops: src/families/overlap/overlap.cu.
 */
#include <stdio.h>
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/common/xfer_shapes.h"

static const struct {
	int mode, streams, quick;
	const char *label, *desc;
} variants[] = {
	{ OV_STAGE_H2D, 1, 0, "stage_h2d", "stage alone: 32 chunk copies H2D, pinned, one stream" },
	{ OV_STAGE_KERNEL, 1, 0, "stage_kernel", "stage alone: the kernel (1024 LCG steps per word) on 32 chunks" },
	{ OV_STAGE_D2H, 1, 0, "stage_d2h", "stage alone: 32 chunk copies D2H, pinned, one stream" },
	{ OV_PIPE, 1, 0, "streams1", "pipeline H2D -> kernel -> D2H, 32 chunks on 1 stream (serial)" },
	{ OV_PIPE, 2, 0, "streams2", "pipeline H2D -> kernel -> D2H, 32 chunks on 2 streams" },
	{ OV_PIPE, 3, 1, "streams3", "pipeline H2D -> kernel -> D2H, 32 chunks on 3 streams" },
	{ OV_PIPE, 4, 0, "streams4", "pipeline H2D -> kernel -> D2H, 32 chunks on 4 streams" },
};

static int overlap_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(variants) / sizeof(variants[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);

		gm_case_begin(c, &gm_family_overlap, variants[i].mode == OV_PIPE ? variants[i].streams - 1 : -1,
			      GM_KIND_MEASURE, variants[i].quick, variants[i].desc, "%s", variants[i].label);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "mode", variants[i].mode);
		gm_case_param_add(c, "streams", variants[i].streams);
		gm_case_param_add(c, "chunks", OV_CHUNKS);
		gm_case_param_add(c, "bytes", OV_BYTES);
	}
	return n;
}

static double rate(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

static void derive_vs_bidir(struct gm_run_result *r);

static void overlap_derive(struct gm_run_result *r)
{
	double h = rate(r, "overlap.stage_h2d"), k = rate(r, "overlap.stage_kernel");
	double d = rate(r, "overlap.stage_d2h");

	if (h <= 0 || k <= 0 || d <= 0)
		return;
	double slowest = h < k ? (h < d ? h : d) : (k < d ? k : d);   /* lowest rate = longest stage */
	double serial = 1.0 / (1.0 / h + 1.0 / k + 1.0 / d);
	for (int s = 1; s <= 4; s++) {
		char cname[64], dname[64];
		snprintf(cname, sizeof(cname), "overlap.streams%d", s);
		double p = rate(r, cname);
		if (p <= 0)
			continue;
		snprintf(dname, sizeof(dname), "overlap.efficiency_streams%d", s);
		struct gm_derived *x = gm_result_derive(r, "overlap", dname);
		if (!x)
			return;
		snprintf(x->quantity, sizeof(x->quantity), "overlap efficiency");
		x->unit = GM_UNIT_PCT;
		x->value = 100.0 * p / slowest;
		x->reference = 100.0;
		snprintf(x->reference_what, sizeof(x->reference_what), "ideal: the slowest stage alone");
		snprintf(x->how, sizeof(x->how),
			 "time of the slowest stage alone / time of %s; vs the serial sum of the stages: %.2fx",
			 cname, p / serial);
		snprintf(dname, sizeof(dname), "overlap.speedup_streams%d", s);
		x = gm_result_derive(r, "overlap", dname);
		if (!x)
			return;
		snprintf(x->quantity, sizeof(x->quantity), "speed-up vs serial");
		x->unit = GM_UNIT_RATIO;
		x->value = p / serial;
		x->reference = serial > 0 ? slowest / serial : 0;
		snprintf(x->reference_what, sizeof(x->reference_what), "perfect overlap (serial sum / slowest)");
		snprintf(x->how, sizeof(x->how), "sum of the three stages alone / time of %s", cname);
	}
	derive_vs_bidir(r);
}

/*
 * H2D and D2H at once share the link (transfer.pinned_bidir): against that
 * limit, per direction, the best pipeline's efficiency.
 */
static void derive_vs_bidir(struct gm_run_result *r)
{
	double bidir = rate(r, "transfer.pinned_bidir"), best = 0;
	int best_s = 0;

	for (int s = 2; s <= 4; s++) {
		char cname[64];
		snprintf(cname, sizeof(cname), "overlap.streams%d", s);
		if (rate(r, cname) > best) {
			best = rate(r, cname);
			best_s = s;
		}
	}
	if (bidir <= 0 || best <= 0)
		return;
	struct gm_derived *x = gm_result_derive(r, "overlap", "overlap.efficiency_vs_bidir");
	if (!x)
		return;
	snprintf(x->quantity, sizeof(x->quantity), "overlap efficiency");
	x->unit = GM_UNIT_PCT;
	x->value = 100.0 * best / (bidir / 2);
	x->reference = 100.0;
	snprintf(x->reference_what, sizeof(x->reference_what), "H2D + D2H at once, per direction");
	snprintf(x->how, sizeof(x->how), "overlap.streams%d / (transfer.pinned_bidir / 2): the copies of a "
		 "pipeline run both ways at once", best_s);
}

const struct gm_family gm_family_overlap = {
	"overlap", "chunked pipeline H2D -> kernel -> D2H on 1..4 streams vs each stage alone",
	overlap_enumerate, gm_overlap_ops, overlap_derive,
};
