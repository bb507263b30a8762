/*
 * cases.c - the roofline family's case table: the roofline family: the FMA ceilings of the vector units
 * (FP32, FP64, FP16 and BF16 pairs) and an arithmetic-intensity sweep that
 * walks one streaming kernel from memory-bound to compute-bound. Kernels:
 * src/families/roofline/roofline.cu. derive() publishes the ceilings against the
 * theoretical rate, the stream bandwidth, the ridge point and how close each
 * sweep point comes to the roof. See src/families/roofline/README.md.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"
#include "families/family.h"
#include "gpumem/result.h"
#include "families/kernels.h"
#include "families/roofline/roofline_shapes.h"

static const char *const type_label[ROOF_NTYPES] = { "fp32", "fp64", "fp16x2", "bf16x2" };
static const char *const type_level[ROOF_NTYPES] = { "FP32", "FP64", "FP16", "BF16" };

/* FMAs per element of the intensity sweep: intensity = 2k flops / 8 bytes. */
static const int sweep_k[] = { 1, 4, 16, 32, 64, 256 };
#define NSWEEP ((int)(sizeof(sweep_k) / sizeof(sweep_k[0])))

static int roofline_enumerate(struct gm_case *out, int max)
{
	struct gm_case scratch;
	int n = 0;

	for (int t = 0; t < ROOF_NTYPES; t++) {
		struct gm_case *c = gm_case_slot(out, max, n++, &scratch);
		gm_case_begin(c, &gm_family_roofline, t, GM_KIND_MEASURE, t == ROOF_FP32,
			      "FMA ceiling of the vector units, 16 independent chains per thread",
			      "fma_%s", type_label[t]);
		gm_case_measure(c, GM_UNIT_TFLOPS, GM_TIME_EVENTS);
		gm_case_param_add(c, "type", t);
		gm_case_param_add(c, "chains", ROOF_CHAINS);
	}
	for (int i = 0; i < NSWEEP; i++) {
		struct gm_case *c = gm_case_slot(out, max, n++, &scratch);
		gm_case_begin(c, &gm_family_roofline, i, GM_KIND_MEASURE, sweep_k[i] == 1 || sweep_k[i] == 64,
			      "intensity sweep: stream in -> k dependent FMAs per float -> out", "ai_k%d",
			      sweep_k[i]);
		gm_case_measure(c, GM_UNIT_TFLOPS, GM_TIME_EVENTS);
		gm_case_param_add(c, "type", ROOF_FP32);
		gm_case_param_add(c, "fma_per_elem", sweep_k[i]);
		gm_case_pattern_add(c, "load in", GM_SPACE_GLOBAL, GM_OP_LOAD, 16, ROOF_BLOCK, 1, 0,
				    "bx*bdx + tid");
		gm_case_pattern_add(c, "store out", GM_SPACE_GLOBAL, GM_OP_STORE, 16, ROOF_BLOCK, 1, 0,
				    "bx*bdx + tid");
	}
	return n;
}

/*
 * FMA results per SM per clock of each type (a pair's FMA gives two results),
 * by compute capability, and where the row comes from. cc 9.0 is the CUDA C++
 * Programming Guide's arithmetic-instruction throughput table (128 FP32, 64
 * FP64, 256 16-bit; the H100 whitepaper's 133.8 TFLOP/s FP16 and BF16 for
 * the SXM5 agree). On sm_90 the 256 16-bit results are two pipes: HFMA2 on
 * the FMA pipe gives half, HFMA2.MMA on the MMA pipe the other half, so a
 * kernel whose SASS holds plain HFMA2 alone reaches 50 %
 * (src/families/roofline/README.md). The others are the whitepapers' non-tensor
 * peaks (A100: FP16 78, BF16 39 TFLOP/s; GA10x and AD10x: FP16 at the FP32 rate).
 */
static int fma_per_sm(int major, int minor, int type, const char **src)
{
	static const struct {
		int major, minor, fma[ROOF_NTYPES];
		const char *src;
	} table[] = {
		{ 7, 0, { 64, 32, 128, 0 }, "whitepaper" },    /* V100 */
		{ 8, 0, { 64, 32, 256, 128 }, "whitepaper" },  /* A100 */
		{ 8, 6, { 128, 2, 128, 128 }, "whitepaper" },  /* GA10x */
		{ 8, 9, { 128, 2, 128, 128 }, "whitepaper" },  /* AD10x */
		{ 9, 0, { 128, 64, 256, 256 }, "CUDA guide" }, /* H100, H200 */
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].major == major && table[i].minor == minor) {
			*src = table[i].src;
			return table[i].fma[type];
		}
	return 0;
}

/* The FMA ceiling of a type in TFLOP/s: SMs x FMA results per SM per clock x 2 flops x clock. */
double gm_roofline_fma_peak(const struct gm_device_info *d, int type, char *what, size_t n)
{
	const char *src = "";
	int fma = type >= 0 && type < ROOF_NTYPES ? fma_per_sm(d->cc_major, d->cc_minor, type, &src) : 0;

	if (what && n)
		what[0] = 0;
	if (fma <= 0 || d->sm_count <= 0 || d->sm_clock_khz <= 0)
		return 0;
	if (what && n)
		snprintf(what, n, "%s: SMs x %d FMA/clk x 2 x max clock", src, fma);
	return (double)d->sm_count * fma * 2 * d->sm_clock_khz * 1e3 * 1e-12;
}

static double case_value(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *cr = gm_result_find(r, name);

	return cr && cr->status == GM_CASE_OK ? cr->value.median : 0;
}

/*
 * A ceiling at the clock the run measured (the cases' sm_clock_mhz notes, as L1's limit is), the attribute's
 * (max clock) limit beside in how: runs go above the attribute's clock (1995 MHz on an H200 with 1980 as the
 * attribute), and FP64 at 100.5 % of a limit is a label that overstates. No measured clock: the attribute's.
 */
static void ceiling_at_run_clock(const struct gm_run_result *r, int t, struct gm_derived *x)
{
	const struct gm_device_info *d = &r->dev;
	double attr = gm_roofline_fma_peak(d, t, x->reference_what, sizeof(x->reference_what));
	double mhz = gm_run_clock_mhz(r, "roofline");
	size_t len = strlen(x->how);
	char *at = strstr(x->reference_what, "max clock");

	x->reference = attr;
	if (!(attr > 0) || !(mhz > 0) || d->sm_clock_khz <= 0)
		return;
	x->reference = attr * mhz * 1e3 / (double)d->sm_clock_khz;
	if (at)
		snprintf(at, sizeof(x->reference_what) - (size_t)(at - x->reference_what), "run clock");
	snprintf(x->how + len, sizeof(x->how) - len, "; limit at %.0f MHz (run); at the max clock attribute "
		 "(%.0f MHz): %.2f TFLOP/s", mhz, d->sm_clock_khz / 1e3, attr);
}

static void derive_ceilings(struct gm_run_result *r, double *fp32)
{
	for (int t = 0; t < ROOF_NTYPES; t++) {
		char name[64];
		snprintf(name, sizeof(name), "roofline.fma_%s", type_label[t]);
		double v = case_value(r, name);
		if (v <= 0)
			continue;
		if (t == ROOF_FP32)
			*fp32 = v;
		struct gm_derived *x = gm_result_derive(r, "roofline", name);
		if (!x)
			return;
		snprintf(x->level, sizeof(x->level), "%s", type_level[t]);
		snprintf(x->quantity, sizeof(x->quantity), "FMA throughput");
		x->unit = GM_UNIT_TFLOPS;
		x->value = v;
		snprintf(x->how, sizeof(x->how), "case %s: %d independent chains per thread, resident grid",
			 name, ROOF_CHAINS);
		if (r->have_device)
			ceiling_at_run_clock(r, t, x);
	}
}

/*
 * The sweep: ai_k1 gives the stream bandwidth (bytes = flops / intensity),
 * the FP32 ceiling and that bandwidth the ridge point, and every point its
 * share of the roof min(peak, intensity x bandwidth).
 */
static void derive_sweep(struct gm_run_result *r, double fp32)
{
	double k1 = case_value(r, "roofline.ai_k1"), bw = k1 * 1e3 / 0.25; /* GB/s */
	struct gm_derived *x;

	if (k1 <= 0)
		return;
	x = gm_result_derive(r, "roofline", "roofline.stream_bandwidth");
	if (!x)
		return;
	snprintf(x->level, sizeof(x->level), "HBM");
	snprintf(x->quantity, sizeof(x->quantity), "stream bandwidth");
	x->unit = GM_UNIT_GBS;
	x->value = bw;
	x->reference = r->have_device ? r->dev.peak_gbs : 0;
	if (x->reference > 0)
		snprintf(x->reference_what, sizeof(x->reference_what), "DRAM peak (clock x bus width)");
	snprintf(x->how, sizeof(x->how), "case roofline.ai_k1: 8 B per float moved, 0.25 flop/B");
	if (fp32 <= 0)
		return;
	x = gm_result_derive(r, "roofline", "roofline.ridge_fp32");
	if (!x)
		return;
	x->unit = GM_UNIT_FLOP_BYTE;
	x->value = fp32 * 1e3 / bw;
	snprintf(x->how, sizeof(x->how), "FP32 ceiling / stream bandwidth: intensity where the roof bends");
	for (int i = 0; i < NSWEEP; i++) {
		char name[40], dname[64];
		snprintf(name, sizeof(name), "roofline.ai_k%d", sweep_k[i]);
		double v = case_value(r, name), ai = 2.0 * sweep_k[i] / 8.0;
		double roof = ai * bw * 1e-3 < fp32 ? ai * bw * 1e-3 : fp32;
		if (v <= 0)
			continue;
		snprintf(dname, sizeof(dname), "%s_of_roof", name);
		x = gm_result_derive(r, "roofline", dname);
		if (!x)
			return;
		x->unit = GM_UNIT_PCT;
		x->value = 100.0 * v / roof;
		snprintf(x->how, sizeof(x->how), "%.4g flop/B: measured / min(FP32 ceiling, intensity x stream bw)",
			 ai);
	}
}

static void roofline_derive(struct gm_run_result *r)
{
	double fp32 = 0;

	derive_ceilings(r, &fp32);
	derive_sweep(r, fp32);
}

const struct gm_family gm_family_roofline = {
	"roofline", "FMA ceilings (FP32/FP64/FP16/BF16) and an arithmetic-intensity sweep across the ridge",
	roofline_enumerate, gm_roofline_ops, roofline_derive,
};
