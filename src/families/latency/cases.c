/*
 * cases.c - the latency family's case table: dependent pointer chases, one thread pinned to one SM,
 * timed in-kernel with clock64 and %globaltimer (self-timed: cycles per
 * load, ns per load and the SM clock of the run): L1 hit, L2 (all lines,
 * and the lines the probe found near or far from the chasing SM), HBM
 * (cold lines, L2 flushed before each sample), and the TLB regimes (2, 32
 * and 512 MiB strides, one access per page, across footprints up to most of
 * the device memory; the largest behind --full). derive() publishes each
 * level's latency, and a TLB reach and miss latency only where the chase
 * steps up by 10 % or more (else "no miss regime up to" the largest footprint). Kernels: src/families/latency/latency.cu.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"
#include "families/family.h"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

#define KB 1024LL
#define MB (1024LL * 1024)
#define GB (1024LL * MB)

struct lat_def {
	const char *label;
	long long footprint, stride;
	int hint, select, cold, quick, full;
	const char *desc;
};

static const struct lat_def defs[] = {
	{ "l1_016k", 16 * KB, 128, LAT_HINT_CA, LAT_ALL, 0, 1, 0, "chase 16 KiB in 128 B slots, ld.ca: L1 hit" },
	{ "l2_004m", 4 * MB, 128, LAT_HINT_CG, LAT_ALL, 0, 1, 0, "chase 4 MiB of lines, ld.cg: L2 hit, near and far mixed" },
	{ "l2_near", 4 * MB, 128, LAT_HINT_CG, LAT_NEAR, 0, 0, 0, "links rewritten, each line once: lines of 4 MiB whose home is the near L2 half" },
	{ "l2_far", 4 * MB, 128, LAT_HINT_CG, LAT_FAR, 0, 0, 0, "links rewritten, each line once: lines of 4 MiB whose home is the far L2 half" },
	{ "hbm_128m", 128 * MB, 512, LAT_HINT_CG, LAT_ALL, 1, 1, 0, "cold chase over 128 MiB (L2 flushed before each sample): HBM" },
	{ "hbm_001g", 1 * GB, 4096, LAT_HINT_CG, LAT_ALL, 1, 0, 0, "cold chase over 1 GiB in 4 KiB slots: HBM and TLB misses" },
	{ "tlb_0008m", 8 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 8 MiB (4 pages): L2 hit, TLB hit" },
	{ "tlb_0032m", 32 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 32 MiB" },
	{ "tlb_0064m", 64 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 64 MiB" },
	{ "tlb_0128m", 128 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 128 MiB" },
	{ "tlb_0256m", 256 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 256 MiB" },
	{ "tlb_0512m", 512 * MB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 512 MiB" },
	{ "tlb_1024m", 1 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 1 GiB" },
	{ "tlb_2048m", 2 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 2 GiB" },
	{ "tlb_4096m", 4 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 4 GiB" },
	{ "tlb_8192m", 8 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "2 MiB stride over 8 GiB" },
	{ "tlb_16384m", 16 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "2 MiB stride over 16 GiB" },
	{ "tlb_32768m", 32 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "2 MiB stride over 32 GiB" },
	{ "tlb_65536m", 64 * GB, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "2 MiB stride over 64 GiB" },
	{ "tlb_most", 0, 2 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "2 MiB stride over 90 % of the free device memory" },
	{ "tlb32m_1024m", 1 * GB, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "32 MiB stride over 1 GiB (one access per 32 MiB)" },
	{ "tlb32m_8192m", 8 * GB, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 0, "32 MiB stride over 8 GiB" },
	{ "tlb32m_16384m", 16 * GB, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "32 MiB stride over 16 GiB" },
	{ "tlb32m_32768m", 32 * GB, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "32 MiB stride over 32 GiB" },
	{ "tlb32m_65536m", 64 * GB, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "32 MiB stride over 64 GiB" },
	{ "tlb32m_most", 0, 32 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "32 MiB stride over 90 % of the free device memory" },
	{ "tlb512m_4096m", 4 * GB, 512 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "512 MiB stride over 4 GiB (one access per 512 MiB)" },
	{ "tlb512m_16384m", 16 * GB, 512 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "512 MiB stride over 16 GiB" },
	{ "tlb512m_65536m", 64 * GB, 512 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "512 MiB stride over 64 GiB" },
	{ "tlb512m_most", 0, 512 * MB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "512 MiB stride over 90 % of the free device memory" },
	{ "tlb64k_0016m", 16 * MB, 64 * KB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "64 KiB stride over 16 MiB (page-size check)" },
	{ "tlb64k_0128m", 128 * MB, 64 * KB, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "64 KiB stride over 128 MiB (page-size check)" },
	{ "cg_0001m", 1 * MB, 128, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "chase 1 MiB of lines, ld.cg" },
	{ "cg_0032m", 32 * MB, 128, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "chase 32 MiB of lines, ld.cg" },
	{ "cg_0064m", 64 * MB, 128, LAT_HINT_CG, LAT_ALL, 0, 0, 1, "chase 64 MiB of lines, ld.cg (warm)" },
	{ "ca_0256k", 256 * KB, 128, LAT_HINT_CA, LAT_ALL, 0, 0, 1, "chase 256 KiB of lines, ld.ca: past L1" },
};

static int latency_enumerate(struct gm_case *out, int max)
{
	const int n = (int)(sizeof(defs) / sizeof(defs[0]));
	struct gm_case scratch;

	for (int i = 0; i < n; i++) {
		struct gm_case *c = gm_case_slot(out, max, i, &scratch);
		gm_case_begin(c, &gm_family_latency, -1, GM_KIND_MEASURE, defs[i].quick, defs[i].desc, "%s",
			      defs[i].label);
		gm_case_measure(c, GM_UNIT_CYCLES, GM_TIME_SELF);
		gm_case_extra_add(c, "ns", GM_UNIT_NS);
		gm_case_extra_add(c, "sm_clock_mhz", GM_UNIT_RATIO);
		gm_case_param_add(c, "footprint", defs[i].footprint);
		gm_case_param_add(c, "stride", defs[i].stride);
		gm_case_param_add(c, "hint", defs[i].hint);
		gm_case_param_add(c, "select", defs[i].select);
		gm_case_param_add(c, "cold", defs[i].cold);
		c->full = defs[i].full;
	}
	return n;
}

static const struct gm_case_result *find_ok(const struct gm_run_result *r, const char *name)
{
	const struct gm_case_result *c = gm_result_find(r, name);
	return c && c->status == GM_CASE_OK ? c : NULL;
}

static double extra(const struct gm_case_result *c, const char *name)
{
	for (int i = 0; i < c->nextras; i++)
		if (!strcmp(c->extras[i].name, name))
			return c->extras[i].median;
	return 0;
}

static void level_latency(struct gm_run_result *r, const char *cname, const char *level, const char *what)
{
	const struct gm_case_result *c = find_ok(r, cname);
	char name[64], how[160];

	if (!c)
		return;
	snprintf(how, sizeof(how), "%s: %s (median of %d samples)", cname, what, c->nsamples);
	snprintf(name, sizeof(name), "%s_cycles", cname);
	gm_derive_add(r, "latency", name, level, "latency", GM_UNIT_CYCLES, c->value.median, 0, "", how);
	snprintf(name, sizeof(name), "%s_ns", cname);
	gm_derive_add(r, "latency", name, level, "latency", GM_UNIT_NS, extra(c, "ns"), 0, "", how);
}

static int64_t param(const struct gm_case_result *c, const char *key)
{
	for (int p = 0; p < c->nparams; p++)
		if (!strcmp(c->param_keys[p], key))
			return c->params[p].value;
	return 0;
}

/* The footprint a case chased: the note (tlb_most sizes itself), else the parameter. */
static double footprint_of(const struct gm_case_result *c)
{
	for (int i = 0; i < c->nnotes; i++)
		if (!strcmp(c->notes[i].name, "footprint_bytes") && c->notes[i].median > 0)
			return c->notes[i].median;
	return (double)param(c, "footprint");
}

/*
 * TLB: for each stride of one access per page or more (2, 32, 512 MiB), the
 * steps of the chase's latency over the footprint. A reach and a miss latency
 * are published only for a step of at least LAT_TLB_STEP (latency up by 10 %
 * or more: a new regime, not drift); with none, the spec sheet says so, up to
 * the largest footprint chased.
 */
#define LAT_TLB_STEP 0.10
static void derive_tlb(struct gm_run_result *r)
{
	static const long long strides[] = { 2 * MB, 32 * MB, 512 * MB };
	double most = 0, x[40], y[40], p0;
	struct gm_knee kn[GM_MAX_KNEES];
	char name[64], how[160];
	int found = 0, tried = 0;

	for (int si = 0; si < 3; si++) {
		int n = 0, nk;
		for (int i = 0; i < r->ncases && n < 40; i++) {
			const struct gm_case_result *c = &r->cases[i];
			if (strcmp(c->family, "latency") || strncmp(c->label, "tlb", 3) || c->status != GM_CASE_OK ||
			    param(c, "stride") != strides[si] || c->value.median <= 0)
				continue;
			x[n] = footprint_of(c);
			y[n++] = c->value.median;
		}
		if (n < 2)
			continue;
		tried++;
		gm_curve_sort(x, y, n);
		most = x[n - 1] > most ? x[n - 1] : most;
		for (int i = 0; i < n; i++)
			y[i] = 1.0 / y[i];
		nk = gm_curve_knees(x, y, n, 1.0 / (1.0 + LAT_TLB_STEP), kn, GM_MAX_KNEES, &p0);
		if (si == 0) {
			snprintf(how, sizeof(how), "2 MiB stride, %d footprints from %.0f MiB (data in L2)",
				 nk ? kn[0].n_above : n, x[0] / MB);
			gm_derive_add(r, "latency", "latency.tlb_hit_cycles", "TLB", "hit (L2 data)", GM_UNIT_CYCLES, 1 / p0,
				      0, "", how);
		}
		for (int k = 0; k < nk; k++, found++) {
			snprintf(how, sizeof(how),
				 "%lld MiB stride, step %d of %d (>= %.0f %%): %.0f -> %.0f cycles between %.0f and %.0f MiB",
				 strides[si] / MB, k + 1, nk, 100 * LAT_TLB_STEP, 1 / kn[k].above, 1 / kn[k].below,
				 kn[k].x_last / MB, kn[k].x_first / MB);
			snprintf(name, sizeof(name), "latency.tlb_s%lldm_%d_reach", strides[si] / MB, k + 1);
			gm_derive_add(r, "latency", name, "TLB", "reach", GM_UNIT_BYTES, kn[k].x, 0, "", how);
			snprintf(name, sizeof(name), "latency.tlb_s%lldm_%d_miss_cycles", strides[si] / MB, k + 1);
			gm_derive_add(r, "latency", name, "TLB", "latency past the reach", GM_UNIT_CYCLES, 1 / kn[k].below, 0,
				      "", how);
		}
	}
	if (tried && !found) {
		snprintf(how, sizeof(how), "no latency step of >= %.0f %% over %d stride series (2/32/512 MiB), up to %.1f GiB",
			 100 * LAT_TLB_STEP, tried, most / GB);
		gm_derive_add(r, "latency", "latency.tlb_no_regime_up_to", "TLB", "no miss regime up to", GM_UNIT_BYTES,
			      most, 0, "", how);
	}
}

/* The probe's near share (a note on l2_near or l2_far) between 25 % and 75 %: two halves. */
static int split_found(const struct gm_run_result *r)
{
	static const char *const names[] = { "latency.l2_near", "latency.l2_far" };

	for (int k = 0; k < 2; k++) {
		const struct gm_case_result *c = gm_result_find(r, names[k]);
		for (int i = 0; c && i < c->nnotes; i++)
			if (!strcmp(c->notes[i].name, "near_share_pct"))
				return c->notes[i].median >= 25 && c->notes[i].median <= 75;
	}
	return 0;
}

static void latency_derive(struct gm_run_result *r)
{
	double mhz = gm_run_clock_mhz(r, "latency");

	level_latency(r, "latency.l1_016k", "L1", "16 KiB chase, ld.ca");
	level_latency(r, "latency.l2_004m", "L2", "4 MiB chase, ld.cg, near and far lines mixed");
	/* near/far only when the probe split the lines into two real halves (H100: it did not) */
	if (split_found(r)) {
		level_latency(r, "latency.l2_near", "L2 near", "links rewritten, no warm pass: lines whose home is the near L2 half");
		level_latency(r, "latency.l2_far", "L2 far", "links rewritten, no warm pass: lines whose home is the far L2 half");
	}
	level_latency(r, "latency.hbm_128m", "HBM", "cold 128 MiB chase, 512 B slots, L2 flushed");
	derive_tlb(r);
	if (mhz > 0)
		gm_derive_add(r, "latency", "latency.sm_clock_mhz", "SM", "clock (MHz)", GM_UNIT_RATIO, mhz,
			      r->dev.sm_clock_khz / 1e3, "device attribute (max SM clock)",
			      "clock64 cycles / %globaltimer ns over each chase, median over latency cases");
}

const struct gm_family gm_family_latency = {
	"latency", "dependent pointer chase, one thread: L1, L2 near/far, HBM, TLB; cycles and ns",
	latency_enumerate, gm_latency_ops, latency_derive,
};
