/*
 * cases.c - the hierarchy family's case table: read and write bandwidth against working-set size:
 * per-SM footprints through L1 (each block re-reads its own buffer with
 * ld.global.ca), whole-GPU footprints through L2 into HBM (ld.global.cg) in
 * two regimes: l2_* an ordered sweep where each line is read by one SM per
 * pass, l2sh_* every SM reading the whole (shared) footprint; and writes.
 * derive() finds the plateaus and knees (src/analysis/curve.c) and publishes L1
 * capacity, L2 capacity, the near/far L2 step and each level's bandwidth
 * (both L2 regimes). Kernels: src/families/hierarchy/hierarchy.cu.
 */
#include <stdio.h>
#include <string.h>
#include "gpumem/curve.h"
#include "families/family.h"
#include "families/common/hier_shapes.h"
#include "families/kernels.h"

#define KB 1024LL
#define MB (1024LL * 1024)

/* l1: multiples of 32 KiB, so that v3's 4-load step divides a pass (its flat loop): at 208 and 240 KiB the
 * pass-by-pass loop read 16-23 % slower on the H100 (results/nvidia-h100-80gb-hbm3/hierarchy/gpu-5f1ae42) */
static const long long l1_kb[] = { 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384, 512 };
static const long long l2_kb[] = { 512, 1024, 1536, 2048, 4096, 8192, 12288, 16384, 20480, 24576, 28672,
				   32768, 36864, 40960, 45056, 49152, 53248, 57344, 65536, 81920, 131072,
				   262144 };
static const long long l2sh_kb[] = { 512, 1536, 4096, 8192, 16384, 20480, 24576, 32768, 40960, 49152, 65536 };
static const long long l1ver_kb[] = { 128, 192 };
/* l1 launches 16 x longer (about 31 ms, as gpu-benches' gpu-cache times one): what of the 2 ms launch is not the
 * L1's (launch gaps, the ramp, the first pass from L2, the tail); --full or by name */
static const long long l1long_kb[] = { 128 };
#define L1_LONG_GB (16 * HIER_L1_LAUNCH_GB)
static const long long l2stag_kb[] = { 1536, 16384 };
static const long long wr_kb[] = { 1024, 4096, 16384, 24576, 32768, 49152, 65536, 262144 };

#define COUNT(a) ((int)(sizeof(a) / sizeof(a[0])))

static void size_label(char *buf, size_t n, long long kb)
{
	if (kb < 4096)
		snprintf(buf, n, "%04lldk", kb);
	else
		snprintf(buf, n, "%03lldm", kb / 1024);
}

/* ver: the l1 kernel version (hier_shapes.h); the l1_* series uses HIER_L1_VER, l1v<k>_* the others;
 * for l2sh, ver 1 = the staggered cases (l2stag_*). launch_gb (l1 only): GB a launch when not 0 (cases
 * l1v<k>x16_*, full-only). */
static int add_series_gb(struct gm_case *out, int max, int k, int mode, int ver, const long long *kb, int n,
			 int launch_gb)
{
	static const char *const prefix[] = { "l1", "l2", "wr", "l2sh" };
	static const char *const what[] = {
		"read, per-SM footprint (each block its own buffer), ld.global.ca",
		"read, whole-GPU footprint, ordered sweep: each line read by ONE SM per pass, ld.global.cg, 16 B loads",
		"write, whole-GPU footprint, ordered sweep, 16 B stores",
		"read, whole-GPU footprint read whole by every SM (data shared by all SMs), ld.global.cg, 16 B loads",
	};
	static const char *const what_stagger =
		"read, whole-GPU footprint read whole by every SM, each SM starting elsewhere in it (shared data, "
		"no two SMs on a line at once), ld.global.cg, 16 B loads";
	static const char *const l1what[] = {
		"", "read, per-SM footprint, v1: ld.global.ca 16 B, index wrapped per load",
		"read, per-SM footprint, v2: ld.global.ca 16 B, whole passes, 4 loads a step at immediate offsets",
		"read, per-SM footprint, v3: ld.global.ca 8 B, whole passes, 4 loads a step at immediate offsets",
		"read, per-SM footprint, v4: ld.global.ca 4 B, whole passes, 4 loads a step at immediate offsets",
		"read, per-SM footprint, v5: ld.global.nc 16 B, whole passes, 4 loads a step at immediate offsets",
		"read, per-SM footprint, v6: ld.global.ca 8 B, whole passes, 8 loads a step at immediate offsets",
		"read, per-SM footprint, v7: ld.global.nc 4 B, whole passes, 8 loads a step at immediate offsets",
		"read, per-SM footprint, v8: ld.global.ca 16 B, whole passes, 8 loads a step at immediate offsets",
		"read, per-SM footprint, v9: ld.global.ca 8 B, whole passes, 8 loads a step, 32-bit offset wrap",
	};
	static const char *const l1long_what[] = {
		"read, per-SM footprint, v6 (ld.global.ca 8 B, 8 a step) in launches 16 x longer (~31 ms, 1024 GB)",
		"read, per-SM footprint, v9 (ld.global.ca 8 B, 8 a step, 32-bit wrap) in launches 16 x longer (~31 ms)",
	};
	struct gm_case scratch;
	const int stagger = mode == HIER_L2_SHARED && ver == 1;

	for (int i = 0; i < n; i++, k++) {
		struct gm_case *c = gm_case_slot(out, max, k, &scratch);
		char sz[24], pre[16];
		int quick = (mode == HIER_L1_READ && ver == HIER_L1_VER && kb[i] == 64) ||
			    (mode == HIER_L2_READ && kb[i] == 1536) || (mode == HIER_L2_READ && kb[i] == 262144) ||
			    (mode == HIER_WRITE && kb[i] == 4096) || (mode == HIER_L2_SHARED && !stagger && kb[i] == 16384);
		size_label(sz, sizeof(sz), kb[i]);
		if (mode == HIER_L1_READ && launch_gb)
			snprintf(pre, sizeof(pre), "l1v%dx%d", ver, launch_gb / HIER_L1_LAUNCH_GB);
		else if (mode == HIER_L1_READ && ver != HIER_L1_VER)
			snprintf(pre, sizeof(pre), "l1v%d", ver);
		else
			snprintf(pre, sizeof(pre), "%s", stagger ? "l2stag" : prefix[mode]);
		gm_case_begin(c, &gm_family_hierarchy, mode == HIER_L1_READ ? ver : -1, GM_KIND_MEASURE, quick,
			      mode == HIER_L1_READ ? (launch_gb ? (ver == 9 ? l1long_what[1] : l1long_what[0]) : l1what[ver])
			      : stagger ? what_stagger : what[mode], "%s_%s", pre, sz);
		gm_case_measure(c, GM_UNIT_GBS, GM_TIME_EVENTS);
		gm_case_param_add(c, "mode", mode);
		gm_case_param_add(c, "footprint", kb[i] * KB);
		if (mode == HIER_L1_READ)
			gm_case_param_add(c, "ver", ver);
		if (stagger)
			gm_case_param_add(c, "stagger", 1);
		if (launch_gb)
			gm_case_param_add(c, "launch_gb", launch_gb);
		/* v9 (fewer instructions a load than v6) and v9 in long launches are in the default suite since
		   2026-11-26 (the spec-sheet line: 99.6 % of the limit in 2 ms launches, 99.9 % in ~31 ms ones on an
		   H100 and an H200); v6's long launches: --full or by name */
		c->full = mode == HIER_L1_READ && launch_gb && ver != 9;
	}
	return k;
}

static int add_series(struct gm_case *out, int max, int k, int mode, int ver, const long long *kb, int n)
{
	return add_series_gb(out, max, k, mode, ver, kb, n, 0);
}

static int hierarchy_enumerate(struct gm_case *out, int max)
{
	int k = add_series(out, max, 0, HIER_L1_READ, HIER_L1_VER, l1_kb, COUNT(l1_kb));
	for (int v = 1; v <= HIER_L1_VERS; v++)
		if (v != HIER_L1_VER)
			k = add_series(out, max, k, HIER_L1_READ, v, l1ver_kb, COUNT(l1ver_kb));
	k = add_series_gb(out, max, k, HIER_L1_READ, 6, l1long_kb, COUNT(l1long_kb), L1_LONG_GB);
	k = add_series_gb(out, max, k, HIER_L1_READ, 9, l1long_kb, COUNT(l1long_kb), L1_LONG_GB);
	k = add_series(out, max, k, HIER_L2_READ, 0, l2_kb, COUNT(l2_kb));
	k = add_series(out, max, k, HIER_L2_SHARED, 0, l2sh_kb, COUNT(l2sh_kb));
	k = add_series(out, max, k, HIER_L2_SHARED, 1, l2stag_kb, COUNT(l2stag_kb));
	return add_series(out, max, k, HIER_WRITE, 0, wr_kb, COUNT(wr_kb));
}

/* The median of y[0..n) (n <= 64). */
static double median(const double *y, int n)
{
	double t[64];
	for (int i = 0; i < n; i++)
		t[i] = y[i];
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
			double v = t[j];
			t[j] = t[j - 1];
			t[j - 1] = v;
		}
	return n ? (n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2) : 0;
}

/*
 * The finished cases of one mode, in footprint order: x = footprint, y = GB/s;
 * l1: of kernel version ver only, in launches of the default length (not the
 * l1v<k>x16_* cases); l2sh: without the staggered cases. mhz[i]: the SM clock
 * case i noted (0 when none).
 */
static int series_gb(const struct gm_run_result *r, int mode, int ver_want, int want_long, double *x, double *y,
		     double *mhz)
{
	int n = 0;

	for (int i = 0; i < r->ncases && n < 64; i++) {
		const struct gm_case_result *c = &r->cases[i];
		int64_t m = -1, fp = 0, ver = HIER_L1_VER, stagger = 0, launch_gb = 0;
		if (strcmp(c->family, "hierarchy") || c->status != GM_CASE_OK || c->value.median <= 0)
			continue;
		for (int p = 0; p < c->nparams; p++) {
			if (!strcmp(c->param_keys[p], "mode"))
				m = c->params[p].value;
			if (!strcmp(c->param_keys[p], "footprint"))
				fp = c->params[p].value;
			if (!strcmp(c->param_keys[p], "ver"))
				ver = c->params[p].value;
			if (!strcmp(c->param_keys[p], "stagger"))
				stagger = c->params[p].value;
			if (!strcmp(c->param_keys[p], "launch_gb"))
				launch_gb = c->params[p].value;
		}
		if (m != mode || (mode == HIER_L1_READ && ver != ver_want) || stagger || (launch_gb != 0) != want_long)
			continue;
		x[n] = (double)fp;
		y[n] = c->value.median;
		mhz[n] = 0;
		for (int k = 0; k < c->nnotes; k++)
			if (!strcmp(c->notes[k].name, "sm_clock_mhz"))
				mhz[n] = c->notes[k].median;
		n++;
	}
	return n;
}

static int series(const struct gm_run_result *r, int mode, int ver_want, double *x, double *y, double *mhz)
{
	return series_gb(r, mode, ver_want, 0, x, y, mhz);
}

/*
 * L1: the l1_* series (version HIER_L1_VER) gives the plateau and the
 * capacity knee; the read bandwidth is the best plateau median of any kernel
 * version over its footprints on that plateau (up to the knee), against
 * 128 B/clk/SM at the median of the clocks those same cases measured (the
 * clock moves by up to 0.4 % from case to case, and the GB/s with it: a
 * median of GB/s against one case's clock would mix two clocks). The long
 * launches (l1v<k>x16_*: ~31 ms, gpu-cache's launch length) count like the
 * other versions: a 2 ms launch carries ~0.3 % of start and drain that the
 * L1 does not (2026-11-26: v9 99.60-99.65 %, v9x16 99.92 % on an H100 and
 * an H200), and the line says which launches it took.
 */
#define L1_FRAC 0.97 /* a point below this fraction of the L1 plateau is past its capacity */

/* The median of the nonzero clocks mhz[0..n), 0 when none. */
static double median_clock(const double *mhz, int n)
{
	double t[64];
	int k = 0;
	for (int i = 0; i < n && k < 64; i++)
		if (mhz[i] > 0)
			t[k++] = mhz[i];
	return median(t, k);
}

static void derive_l1(struct gm_run_result *r)
{
	double x[64], y[64], mhz[64], p0, cut, best, best_mhz;
	struct gm_knee kn[GM_MAX_KNEES];
	int n = series(r, HIER_L1_READ, HIER_L1_VER, x, y, mhz), nk, best_ver = HIER_L1_VER, best_n, best_long = 0;
	char how[200];

	if (n < 3)
		return;
	/* L1's hits end gradually past its capacity (v3 on an H100: -5 % one step past it, -20 % two steps,
	 * -70 % at twice it), so the plateau ends at the first point 3 % below it: a half-way knee over the
	 * whole fall would put the capacity past the 256 KiB the SM has */
	nk = gm_curve_knees(x, y, n, L1_FRAC, kn, GM_MAX_KNEES, &p0);
	cut = nk ? kn[0].x_last : x[n - 1];
	best = p0;
	best_n = nk ? kn[0].n_above : n;
	best_mhz = median_clock(mhz, best_n);
	for (int lv = 1; lv <= 2 * HIER_L1_VERS; lv++) {
		double vx[64], vy[64], vm[64], med;
		int v = (lv - 1) % HIER_L1_VERS + 1, lg = lv > HIER_L1_VERS;
		int k = 0, vn = v == HIER_L1_VER && !lg ? 0 : series_gb(r, HIER_L1_READ, v, lg, vx, vy, vm);
		for (int i = 0; i < vn; i++)
			if (vx[i] <= cut) {
				vy[k] = vy[i];
				vm[k++] = vm[i];
			}
		if (k && (med = median(vy, k)) > best) {
			best = med;
			best_ver = v;
			best_long = lg;
			best_mhz = median_clock(vm, k);
			best_n = k;
		}
	}
	if (best_mhz <= 0)
		best_mhz = gm_run_clock_mhz(r, NULL);
	snprintf(how, sizeof(how), "kernel v%d (hier_shapes.h)%s, median of %d per-SM footprints up to %.0f KiB; limit 128 B/clk/SM x %d SMs x %.0f MHz (their clock)",
		 best_ver, best_long ? " in ~31 ms launches" : "", best_n, cut / 1024, r->dev.sm_count, best_mhz);
	gm_derive_add(r, "hierarchy", "hierarchy.l1_read_bw", "L1", "read bandwidth", GM_UNIT_GBS, best,
		      best_mhz > 0 ? 128.0 * r->dev.sm_count * best_mhz * 1e6 / 1e9 : 0,
		      "128 B/clk/SM at the measured clock", how);
	if (!nk)
		return;
	snprintf(how, sizeof(how), "knee of per-SM read bandwidth (v%d): %.0f GB/s -> %.0f GB/s between %.0f and %.0f KiB (frac %.2f)",
		 HIER_L1_VER, kn[0].above, kn[0].below, kn[0].x_last / 1024, kn[0].x_first / 1024, L1_FRAC);
	gm_derive_add(r, "hierarchy", "hierarchy.l1_capacity", "L1", "capacity per SM", GM_UNIT_BYTES, kn[0].x,
		      r->dev.cc_major == 9 ? 256.0 * 1024 : 0,
		      r->dev.cc_major == 9 ? "unified L1+smem per SM, max-L1 carve-out" : "", how);
}

static void derive_l2(struct gm_run_result *r)
{
	double x[64], y[64], mhz[64], p0;
	struct gm_knee kn[GM_MAX_KNEES];
	int n = series(r, HIER_L2_READ, 0, x, y, mhz), nk;
	char how[160];

	if (n < 3)
		return;
	nk = gm_curve_knees(x, y, n, 0.8, kn, GM_MAX_KNEES, &p0);
	snprintf(how, sizeof(how), "l2_*: median plateau of %d footprints %.1f-%.1f MiB, each line read by ONE SM a pass "
		 "(what a kernel streaming its data once sees)", nk ? kn[0].n_above : n, x[0] / (1024 * 1024),
		 x[(nk ? kn[0].n_above : n) - 1] / (1024 * 1024));
	gm_derive_add(r, "hierarchy", "hierarchy.l2_read_bw", "L2", "read bw, 1 SM a line", GM_UNIT_GBS, p0, 0, "",
		      how);
	if (!nk)
		return;
	for (int k = 0; k < nk; k++) {
		const int last = k == nk - 1;
		const char *level = last ? "L2" : "L2 near";
		char name[64];
		snprintf(name, sizeof(name), last ? "hierarchy.l2_capacity" : "hierarchy.l2_step%d_capacity", k + 1);
		snprintf(how, sizeof(how), "knee %d of %d: %.0f -> %.0f GB/s between %.1f and %.1f MiB (frac 0.8)",
			 k + 1, nk, kn[k].above, kn[k].below, kn[k].x_last / (1024 * 1024), kn[k].x_first / (1024 * 1024));
		gm_derive_add(r, "hierarchy", name, level, "capacity", GM_UNIT_BYTES, kn[k].x,
			      last ? (double)r->dev.l2_bytes : 0.5 * (double)r->dev.l2_bytes,
			      last ? "device attribute l2_bytes" : "half the device attribute l2_bytes", how);
		if (!last) {
			snprintf(how, sizeof(how), "plateau after knee %d (footprints from %.1f MiB)", k + 1,
				 kn[k].x_first / (1024 * 1024));
			gm_derive_add(r, "hierarchy", "hierarchy.l2_far_read_bw", "L2 far", "read bandwidth",
				      GM_UNIT_GBS, kn[k].below, 0, "", how);
		}
	}
	snprintf(how, sizeof(how), "plateau past the last knee (%d footprints, up to %.0f MiB)", kn[nk - 1].n_below,
		 x[n - 1] / (1024 * 1024));
	gm_derive_add(r, "hierarchy", "hierarchy.hbm_read_bw", "HBM", "read bandwidth", GM_UNIT_GBS,
		      kn[nk - 1].below, r->dev.peak_gbs, "theoretical peak (clock x bus width)", how);
}

/*
 * l2sh: every SM reads the whole footprint (data shared by all SMs). The
 * plateau before the first knee, and the best point (the footprint where a
 * peer that reads shared data is compared).
 */
static void derive_l2_shared(struct gm_run_result *r)
{
	double x[64], y[64], mhz[64], p0;
	struct gm_knee kn[GM_MAX_KNEES];
	int n = series(r, HIER_L2_SHARED, 0, x, y, mhz), nk, m;
	char how[160];

	if (n < 3)
		return;
	nk = gm_curve_knees(x, y, n, 0.8, kn, GM_MAX_KNEES, &p0);
	m = nk ? kn[0].n_above : n;
	snprintf(how, sizeof(how), "l2sh_*: median plateau of %d footprints %.1f-%.1f MiB, every SM reads all of it "
		 "(data shared by all SMs, as gpu-benches' L2 tests)", m, x[0] / (1024 * 1024), x[m - 1] / (1024 * 1024));
	gm_derive_add(r, "hierarchy", "hierarchy.l2_shared_read_bw", "L2", "read bw, all SMs a line", GM_UNIT_GBS, p0,
		      0, "", how);
	if (nk) {
		snprintf(how, sizeof(how), "l2sh_* knee: %.0f -> %.0f GB/s between %.1f and %.1f MiB (frac 0.8)",
			 kn[0].above, kn[0].below, kn[0].x_last / (1024 * 1024), kn[0].x_first / (1024 * 1024));
		gm_derive_add(r, "hierarchy", "hierarchy.l2_shared_capacity", "L2", "capacity, shared data",
			      GM_UNIT_BYTES, kn[0].x, (double)r->dev.l2_bytes, "device attribute l2_bytes", how);
	}
}

static void derive_write(struct gm_run_result *r)
{
	double x[64], y[64], mhz[64], p0;
	struct gm_knee kn[GM_MAX_KNEES];
	int n = series(r, HIER_WRITE, 0, x, y, mhz), nk;
	char how[160];

	if (n < 3)
		return;
	nk = gm_curve_knees(x, y, n, 0.8, kn, GM_MAX_KNEES, &p0);
	snprintf(how, sizeof(how), "median plateau of %d whole-GPU write footprints from %.1f MiB",
		 nk ? kn[0].n_above : n, x[0] / (1024 * 1024));
	gm_derive_add(r, "hierarchy", "hierarchy.l2_write_bw", "L2", "write bandwidth", GM_UNIT_GBS, p0, 0, "", how);
	if (!nk)
		return;
	snprintf(how, sizeof(how), "write plateau past the last knee (%.0f MiB and up)", kn[nk - 1].x_first / (1024 * 1024));
	gm_derive_add(r, "hierarchy", "hierarchy.hbm_write_bw", "HBM", "write bandwidth", GM_UNIT_GBS,
		      kn[nk - 1].below, r->dev.peak_gbs, "theoretical peak (clock x bus width)", how);
}

static void hierarchy_derive(struct gm_run_result *r)
{
	derive_l1(r);
	derive_l2(r);
	derive_l2_shared(r);
	derive_write(r);
}

const struct gm_family gm_family_hierarchy = {
	"hierarchy", "read/write bandwidth against working-set size: L1 per SM, L2, HBM; knees -> capacities",
	hierarchy_enumerate, gm_hierarchy_ops, hierarchy_derive,
};
