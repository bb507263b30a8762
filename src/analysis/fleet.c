/*
 * fleet.c - the fleet view: per model and case, the distribution of the
 * headline over devices and the devices more than k spreads worse than the
 * median, with the likely cause when the device block says it
 * (docs/METHODOLOGY.md "Fleet view"); against a SKU's baseline too. Its text and HTML writers are
 * src/io/fleet_out.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/fleet.h"
#include "gpumem/baseline.h"
#include "gpumem/io.h"
#include "gpumem/result.h"
#include "gpumem/units.h"

#define MIN_SPREAD_FRAC 0.01   /* a spread is never below 1 % of the median */
/*
 * Erratic samples: a device whose samples of a case vary by JITTER_MIN_PCT (CoV) or more, and
 * JITTER_K times the fleet's (lower) median CoV of the case, is flagged even when its median holds: another
 * process time-slicing the GPU leaves the median of back-to-back launches alone and scatters the rest
 * (an H100 under a second process's copy loop: CoV 73-89 % against 0.05 %, medians within 0.2 %).
 */
#define JITTER_MIN_PCT 5.0
#define JITTER_K 10.0
#define MAD_TO_SIGMA 1.4826


static int model_index(struct gm_fleet *fl, const char *name)
{
	for (int i = 0; i < fl->nmodels; i++)
		if (!strcmp(fl->models[i], name))
			return i;
	if (fl->nmodels == 16)
		return -1;
	snprintf(fl->models[fl->nmodels], sizeof(fl->models[0]), "%s", name);
	return fl->nmodels++;
}

static const char *model_of(const struct gm_multi_run *m, int d)
{
	if (m->runs[d].have_device && m->runs[d].dev.name[0])
		return m->runs[d].dev.name;
	return m->pl[d].name;
}

/* The case of that name on device d, when it has a number; hint: where it sits when the devices ran alike. */
static const struct gm_fleet_item *ok_case(const struct gm_fleet *fl, int d, const char *name, int hint)
{
	const struct gm_fleet_dev *v = &fl->devs[d];
	const struct gm_fleet_item *it = fl->items + v->first;

	if (hint >= 0 && hint < v->n && !strcmp(it[hint].name, name))
		return it[hint].ok ? &it[hint] : NULL;
	for (int i = 0; i < v->n; i++)
		if (!strcmp(it[i].name, name))
			return it[i].ok ? &it[i] : NULL;
	return NULL;
}

static void add_cause(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void add_cause(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len && len + 2 < n) {
		memcpy(buf + len, "; ", 3);
		len += 2;
	}
	if (len + 1 >= n)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* Median over the model's devices of one placement/telemetry figure (<0 = unknown, skipped). */
static double group_median(const struct gm_multi_run *m, const char *model, double (*get)(const struct gm_placement *))
{
	double v[256];
	int n = 0;

	for (int d = 0; d < m->n && n < 256; d++)
		if (!strcmp(model_of(m, d), model) && get(&m->pl[d]) >= 0)
			v[n++] = get(&m->pl[d]);
	return n ? gm_median_inplace(v, n) : -1;
}

static double get_width(const struct gm_placement *p) { return p->pcie_width; }
static double get_gen(const struct gm_placement *p) { return p->pcie_gen; }
static double get_sm(const struct gm_placement *p) { return p->tel.samples ? p->tel.sm_mhz_median : -1; }
static double get_temp(const struct gm_placement *p) { return p->tel.samples ? p->tel.temp_c_max : -1; }

/* 1 when fewer than half of the model's GPUs with a known NUMA node sit on node. */
static int numa_minority(const struct gm_multi_run *m, const char *model, int node)
{
	int same = 0, known = 0;

	for (int d = 0; d < m->n; d++)
		if (!strcmp(model_of(m, d), model) && m->pl[d].numa_node >= 0) {
			known++;
			same += m->pl[d].numa_node == node;
		}
	return 2 * same < known;
}

/*
 * The processes gpumem itself put on device d's GPU: its own, and when the
 * blocks ran at the same time (concurrent, MPI) those of the other blocks on
 * its host that ran on the same GPU (ranks sharing one) or measured
 * peer-to-peer cases (they open the peer GPU too).
 */
static int own_processes(const struct gm_multi_run *m, const struct gm_fleet *fl, int d)
{
	int own = 1;

	if (!strcmp(m->mode, "sequential"))
		return 1;
	for (int e = 0; e < m->n; e++) {
		int same_gpu = m->pl[d].pci_bus_id[0] && !strcmp(m->pl[e].pci_bus_id, m->pl[d].pci_bus_id);

		if (e != d && !strcmp(m->pl[e].host, m->pl[d].host) && (same_gpu || fl->devs[e].p2p))
			own++;
	}
	return own;
}

/* What the device block says about why device d is slow on a case of family fam. */
static void likely_cause(const struct gm_multi_run *m, const struct gm_fleet *fl, int d, const char *model,
			 const char *fam, char *buf, size_t n)
{
	const struct gm_placement *p = &m->pl[d];
	int host_link = !strcmp(fam, "transfer") || !strcmp(fam, "managed") || !strcmp(fam, "overlap");
	double w = group_median(m, model, get_width), g = group_median(m, model, get_gen);
	double sm = group_median(m, model, get_sm), t = group_median(m, model, get_temp);
	int own = p->tel.samples ? own_processes(m, fl, d) : 1;

	buf[0] = '\0';
	if (p->tel.samples && p->tel.max_processes > own)
		add_cause(buf, n, "%d processes were on this GPU during the run, %d of them gpumem's (another load)",
			  p->tel.max_processes, own);
	if (p->pcie_width > 0 && ((w > 0 && p->pcie_width < w) || (p->pcie_width_max > 0 && p->pcie_width < p->pcie_width_max)))
		add_cause(buf, n, "PCIe link x%d (fleet median x%.0f)", p->pcie_width, w > 0 ? w : p->pcie_width_max);
	if (p->pcie_gen > 0 && ((g > 0 && p->pcie_gen < g) || (p->pcie_gen_max > 0 && p->pcie_gen < p->pcie_gen_max)))
		add_cause(buf, n, "PCIe Gen%d (fleet median Gen%.0f)", p->pcie_gen, g > 0 ? g : p->pcie_gen_max);
	if (sm > 0 && p->tel.samples && p->tel.sm_mhz_median < 0.95 * sm)
		add_cause(buf, n, "SM clock %.0f MHz (fleet median %.0f MHz)", p->tel.sm_mhz_median, sm);
	if (t > 0 && p->tel.samples && (p->tel.temp_c_max > t + 10 || p->tel.temp_c_max >= 85))
		add_cause(buf, n, "temperature up to %.0f C (fleet median %.0f C)", p->tel.temp_c_max, t);
	if (p->tel.samples && (p->tel.throttle_reasons & ~(uint64_t)0x1))  /* bit 0 = GPU idle */
		add_cause(buf, n, "clocks throttled (NVML reasons 0x%llx)",
			  (unsigned long long)p->tel.throttle_reasons);
	if (p->tel.ecc_uncorrected > 0 || p->tel.ecc_corrected > 0)
		add_cause(buf, n, "ECC errors: %lld corrected, %lld uncorrected",
			  (long long)p->tel.ecc_corrected, (long long)p->tel.ecc_uncorrected);
	if (host_link && p->numa_node >= 0 && numa_minority(m, model, p->numa_node))
		add_cause(buf, n, "NUMA node %d, where few of its model sit, on a host-link case", p->numa_node);
}

/*
 * A device's own run-to-run noise in the case's unit: the robust spread of
 * its samples (1.4826 * MAD / median of the per-launch times) times its
 * headline. Not the sample range: one slow first sample would make every
 * GPU look alike.
 */
static double sample_noise(const struct gm_case_result *c)
{
	double *t, med, mad;
	int n = c->nsamples;

	if (n < 3 || !c->samples_ms)
		return 0;
	t = malloc((size_t)n * sizeof(*t));
	if (!t)
		return 0;
	memcpy(t, c->samples_ms, (size_t)n * sizeof(*t));
	med = gm_median_inplace(t, n);
	for (int i = 0; i < n; i++)
		t[i] = fabs(t[i] - med);
	mad = gm_median_inplace(t, n);
	free(t);
	return med > 0 ? MAD_TO_SIGMA * mad / med * fabs(c->value.median) : 0;
}

/* Distribution of one case (the hint-th of some devices) over the devices of one model. */
static gm_status fleet_case(const struct gm_multi_run *m, const struct gm_fleet *fl, const char *model,
			    const char *name, int hint, double k, struct gm_fleet_case *fc)
{
	double *v = calloc((size_t)m->n * 4 + 1, sizeof(double)), *dev = v + m->n, *own = dev + m->n;
	double *cov = own + m->n, fleet_cov;
	const struct gm_fleet_item *c0 = NULL;
	int n = 0, hib;

	if (!v)
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	memset(fc, 0, sizeof(*fc));
	for (int d = 0; d < m->n; d++) {
		const struct gm_fleet_item *c = strcmp(model_of(m, d), model) ? NULL : ok_case(fl, d, name, hint);
		if (!c)
			continue;
		c0 = c0 ? c0 : c;
		own[n] = c->noise;
		cov[n] = c->cov_pct;
		v[n++] = c->value;
	}
	snprintf(fc->name, sizeof(fc->name), "%s", name);
	snprintf(fc->model, sizeof(fc->model), "%s", model);
	fc->n = n;
	if (!n) {
		free(v);
		return GM_OK;
	}
	fc->unit = c0->unit;
	hib = gm_unit_higher_is_better(c0->unit);
	memcpy(dev, v, (size_t)n * sizeof(double));
	fc->median = gm_median_inplace(dev, n);
	fc->min = dev[0];
	fc->max = dev[n - 1];
	for (int i = 0; i < n; i++)
		dev[i] = fabs(v[i] - fc->median);
	fc->spread = n >= 3 ? MAD_TO_SIGMA * gm_median_inplace(dev, n) : 0;
	fc->spread = fmax(fc->spread, gm_median_inplace(own, n));
	fc->spread = fmax(fc->spread, MIN_SPREAD_FRAC * fabs(fc->median));
	/* the lower median: with two devices, the steadier one sets the norm */
	gm_median_inplace(cov, n); /* sorts cov */
	fleet_cov = cov[(n - 1) / 2];
	free(v);
	fc->out = calloc((size_t)m->n, sizeof(*fc->out));
	if (!fc->out)
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	for (int d = 0; d < m->n; d++) {
		const struct gm_fleet_item *c = strcmp(model_of(m, d), model) ? NULL : ok_case(fl, d, name, hint);
		double worse;
		if (!c || fc->spread <= 0)
			continue;
		worse = hib ? fc->median - c->value : c->value - fc->median;
		int slow = worse > k * fc->spread;
		int jitter = c->cov_pct >= JITTER_MIN_PCT && c->cov_pct >= JITTER_K * fleet_cov;
		if (!slow && !jitter)
			continue;
		struct gm_fleet_outlier *o = &fc->out[fc->noutliers++];
		o->device = d;
		o->jitter = !slow;
		o->cov_pct = c->cov_pct;
		o->fleet_cov_pct = fleet_cov;
		o->value = c->value;
		o->median = fc->median;
		o->spread = fc->spread;
		o->spreads_below = worse / fc->spread;
		o->pct = fc->median ? -100.0 * worse / fabs(fc->median) : 0;
		likely_cause(m, fl, d, model, c->family, o->cause, sizeof(o->cause));
	}
	return GM_OK;
}

/*
 * The model's median against its baseline (docs/CHECK.md "fleet"): more than k tolerances worse, a
 * tolerance being sqrt(spread^2 + noise^2) of the baseline and never below 1 % of its median. Peers alone
 * cannot see a node whose GPUs are all equally slow; the baseline can.
 */
static void against_baseline(const struct gm_fleet *fl, double k, struct gm_fleet_case *fc)
{
	const struct gm_baseline_line *bl = NULL;
	double tol, worse;

	for (int i = 0; i < fl->nbaselines && !bl; i++)   /* gm_baseline_find's loop: src/io comes before src/analysis */
		for (int j = 0; !strcmp(fl->baselines[i].sku, fc->model) && j < fl->baselines[i].nlines && !bl; j++)
			if (!strcmp(fl->baselines[i].lines[j].name, fc->name))
				bl = &fl->baselines[i].lines[j];
	if (!bl || bl->unit != fc->unit || !fc->n)
		return;
	tol = fmax(sqrt(bl->spread * bl->spread + bl->noise * bl->noise), MIN_SPREAD_FRAC * fabs(bl->median));
	worse = gm_unit_higher_is_better(fc->unit) ? bl->median - fc->median : fc->median - bl->median;
	fc->baseline_median = bl->median;
	fc->baseline_tolerances = worse / tol;
	fc->below_baseline = worse > k * tol;
}

static int seen_before(const struct gm_fleet *fl, int upto, const char *model, const char *name)
{
	for (int i = 0; i < upto; i++)
		if (!strcmp(fl->cases[i].model, model) && !strcmp(fl->cases[i].name, name))
			return 1;
	return 0;
}

/* 1 when device d's cases are device e's, by name and in order (it adds no case to the view). */
static int same_cases(const struct gm_fleet *fl, int d, int e)
{
	const struct gm_fleet_dev *a = &fl->devs[d], *b = &fl->devs[e];

	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (strcmp(fl->items[a->first + i].name, fl->items[b->first + i].name))
			return 0;
	return 1;
}

static gm_status add_run(struct gm_fleet *fl, const struct gm_run_result *r)
{
	struct gm_fleet_dev *v;

	if (fl->ndevs == fl->cap_devs) {
		int cap = fl->cap_devs ? 2 * fl->cap_devs : 16;
		v = realloc(fl->devs, (size_t)cap * sizeof(*v));
		if (!v)
			return gm_fail(GM_ERR_NOMEM, "out of memory");
		fl->devs = v;
		fl->cap_devs = cap;
	}
	if (fl->nitems + r->ncases > fl->cap_items) {
		int cap = fl->cap_items ? fl->cap_items : 64;
		while (cap < fl->nitems + r->ncases)
			cap *= 2;
		struct gm_fleet_item *it = realloc(fl->items, (size_t)cap * sizeof(*it));
		if (!it)
			return gm_fail(GM_ERR_NOMEM, "out of memory");
		fl->items = it;
		fl->cap_items = cap;
	}
	v = &fl->devs[fl->ndevs++];
	v->first = fl->nitems;
	v->n = r->ncases;
	v->p2p = 0;
	for (int i = 0; i < r->ncases; i++) {
		const struct gm_case_result *c = &r->cases[i];
		struct gm_fleet_item *it = &fl->items[fl->nitems++];
		snprintf(it->name, sizeof(it->name), "%s", c->name);
		snprintf(it->family, sizeof(it->family), "%s", c->family);
		it->unit = c->unit;
		it->ok = c->status == GM_CASE_OK && isfinite(c->value.median);
		it->value = c->value.median;
		it->cov_pct = c->ms.cov_pct;
		it->noise = it->ok ? sample_noise(c) : 0;
		v->p2p |= !strcmp(c->family, "p2p") && c->status == GM_CASE_OK;
	}
	return GM_OK;
}

static gm_status finish(const struct gm_multi_run *m, double k, struct gm_fleet *fl)
{
	fl->k = k;
	if (fl->ndevs != m->n)
		return gm_fail(GM_ERR_INVALID_ARG, "the fleet holds %d runs for %d devices", fl->ndevs, m->n);
	for (int d = 0; d < m->n; d++)
		if (model_of(m, d)[0] && model_index(fl, model_of(m, d)) < 0)
			return gm_fail(GM_ERR_INVALID_ARG, "more than 16 GPU models in one run document");
	fl->cases = calloc((size_t)fl->nitems + 1, sizeof(*fl->cases));
	if (!fl->cases)
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	for (int g = 0; g < fl->nmodels; g++) {
		int prev = -1;
		for (int d = 0; d < m->n; d++) {
			if (strcmp(model_of(m, d), fl->models[g]))
				continue;
			if (prev >= 0 && same_cases(fl, d, prev))
				continue;
			prev = d;
			for (int i = 0; i < fl->devs[d].n; i++) {
				const char *name = fl->items[fl->devs[d].first + i].name;
				if (seen_before(fl, fl->ncases, fl->models[g], name))
					continue;
				gm_status s = fleet_case(m, fl, fl->models[g], name, i, k, &fl->cases[fl->ncases]);
				fl->noutliers += fl->cases[fl->ncases].noutliers;
				against_baseline(fl, k, &fl->cases[fl->ncases]);
				fl->nbelow += fl->cases[fl->ncases].below_baseline;
				fl->ncases++;
				if (s)
					return s;
			}
		}
	}
	return GM_OK;
}

/* On failure these three leave fl released. */
gm_status gm_fleet_add_run(struct gm_fleet *fl, const struct gm_run_result *r)
{
	gm_status s = add_run(fl, r);

	if (s)
		gm_fleet_release(fl);
	return s;
}

gm_status gm_fleet_finish(const struct gm_multi_run *m, double k, struct gm_fleet *fl)
{
	gm_status s = finish(m, k, fl);

	if (s)
		gm_fleet_release(fl);
	return s;
}

gm_status gm_fleet_compute(const struct gm_multi_run *m, double k, struct gm_fleet *fl)
{
	gm_status s = GM_OK;

	memset(fl, 0, sizeof(*fl));
	for (int d = 0; d < m->n && !s; d++)
		s = gm_fleet_add_run(fl, &m->runs[d]);
	return s ? s : gm_fleet_finish(m, k, fl);
}

void gm_fleet_release(struct gm_fleet *fl)
{
	for (int i = 0; i < fl->ncases; i++)
		free(fl->cases[i].out);
	free(fl->cases);
	free(fl->devs);
	free(fl->items);
	memset(fl, 0, sizeof(*fl));
}
