/*
 * calibrate.c - the device profile from a run (gpumem calibrate, and
 * calibrate --from RUN.json).
 *
 * Each constant comes from one measured case or one derived result of the
 * run; none is fitted to the cases the model predicts (docs/MODEL.md,
 * "Device profile"):
 *   read_gbs         copy.read_b16_tile4      dense 16 B loads, no stores
 *   write_gbs        copy.write_b16_tile4     dense 16 B stores, no loads
 *   copy_gbs         copy.v8_b4_tile4         dense copy (read + write counted)
 *   read_half_gbs    stride.b16_s008          one 64 B piece read per 128 B
 *   read_sparse_gbs  stride.b16_s032          one 64 B piece read per 512 B
 *   l1_gbs, l1_bytes, l2_read_gbs, l2_write_gbs, l2_bytes
 *                    the hierarchy family's derived plateaus and knees
 *   *_latency_ns     the latency family (information only)
 * The two stride rates are rates of the 64 B pieces DRAM reads: the case's
 * time less its stores at write_gbs and the turnaround the copy rate implies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "gpumem/profile.h"

const char *const gm_calibrate_selectors[] = {
	"copy.read_b16_tile4", "copy.write_b16_tile4", "copy.v8_b4_tile4", "stride.b16_s008",
	"stride.b16_s032", "copy.v0_b4", "hierarchy", "latency.l2_004m", "latency.hbm_128m", NULL,
};

static const struct gm_case_result *need_case(const struct gm_run_result *r, const char *name, char *why,
					      size_t n)
{
	const struct gm_case_result *c = gm_result_find(r, name);

	if (!c || c->status != GM_CASE_OK || !(c->value.median > 0)) {
		snprintf(why, n, "the run has no measured case '%s'", name);
		return NULL;
	}
	return c;
}

static double derived(const struct gm_run_result *r, const char *name)
{
	for (int k = 0; k < r->nderived; k++)
		if (!strcmp(r->derived[k].name, name))
			return r->derived[k].value;
	return 0;
}

/*
 * A strided gather of 16 B elements, stride_bytes apart (>= 64): n elements
 * read as n pieces of 64 B, written densely. The read rate of those pieces.
 */
static double piece_rate(const struct gm_case_result *c, double stride_bytes, const struct gm_profile *p)
{
	double n = c->traffic.bytes_useful / 32.0; /* 16 B read + 16 B written each */
	double rd = n * 64.0, wr = n * 16.0;
	double t = c->traffic.bytes_useful / c->value.median / 1e9; /* s */
	double k = (2.0 / p->copy_gbs) / (1.0 / p->read_gbs + 1.0 / p->write_gbs) - 1.0;
	double turn = 1.0 + (k > 0 ? k : 0) * 2.0 * wr / (rd + wr);
	double tr = t / turn - wr / (p->write_gbs * 1e9);

	(void)stride_bytes;
	return tr > 0 ? rd / tr / 1e9 : 0;
}

/*
 * copy.v0_b4: every thread loads one 4 B element, stores it and ends. Its time
 * over the waves of resident threads is the loaded round trip (optional: a
 * run without the case gives a profile without it).
 */
static void one_per_thread(const struct gm_run_result *r, struct gm_profile *p)
{
	const struct gm_case_result *c = gm_result_find(r, "copy.v0_b4");
	double n, waves;

	p->threads_per_sm = r->dev.max_threads_per_sm;
	if (!c || c->status != GM_CASE_OK || !(c->ms.median > 0) || p->threads_per_sm <= 0 || p->sm_count <= 0)
		return;
	n = c->traffic.bytes_useful / 8.0; /* 4 B read + 4 B written per thread */
	waves = ceil(n / ((double)p->threads_per_sm * p->sm_count));
	p->wave_ns = c->ms.median * 1e6 / waves;
}

static gm_status need_derived(const struct gm_run_result *r, const char *name, double *out, char *why,
			      size_t n)
{
	*out = derived(r, name);
	if (*out > 0)
		return GM_OK;
	snprintf(why, n, "the run has no derived result '%s' (run the whole hierarchy family)", name);
	return GM_ERR_NOT_FOUND;
}

gm_status gm_profile_from_run(const struct gm_run_result *r, struct gm_profile *p, char *why, size_t n)
{
	const struct gm_case_result *rd, *wr, *cp, *half, *sparse;
	gm_status s;

	memset(p, 0, sizeof(*p));
	if (!(rd = need_case(r, "copy.read_b16_tile4", why, n)) ||
	    !(wr = need_case(r, "copy.write_b16_tile4", why, n)) ||
	    !(cp = need_case(r, "copy.v8_b4_tile4", why, n)) ||
	    !(half = need_case(r, "stride.b16_s008", why, n)) ||
	    !(sparse = need_case(r, "stride.b16_s032", why, n)))
		return GM_ERR_NOT_FOUND;
	snprintf(p->device, sizeof(p->device), "%.*s", (int)sizeof(p->device) - 1, r->dev.name);
	p->sm_count = r->dev.sm_count;
	p->sm_clock_mhz = r->dev.sm_clock_khz / 1000.0;
	p->dram_atom_bytes = 64;
	p->read_gbs = rd->value.median;
	p->write_gbs = wr->value.median;
	p->copy_gbs = cp->value.median;
	p->read_half_gbs = piece_rate(half, 128, p);
	p->read_sparse_gbs = piece_rate(sparse, 512, p);
	if ((s = need_derived(r, "hierarchy.l1_read_bw", &p->l1_gbs, why, n)) ||
	    (s = need_derived(r, "hierarchy.l2_read_bw", &p->l2_read_gbs, why, n)) ||
	    (s = need_derived(r, "hierarchy.l2_write_bw", &p->l2_write_gbs, why, n)))
		return s;
	p->l1_bytes = derived(r, "hierarchy.l1_capacity");
	p->l2_bytes = derived(r, "hierarchy.l2_capacity");
	if (!(p->l2_bytes > 0))
		p->l2_bytes = (double)r->dev.l2_bytes;
	if (!(p->l1_bytes > 0))
		p->l1_bytes = 256.0 * 1024;
	one_per_thread(r, p);
	p->dram_latency_ns = derived(r, "latency.hbm_128m_ns");
	p->l2_latency_ns = derived(r, "latency.l2_004m_ns");
	if (!(p->read_half_gbs > 0) || !(p->read_sparse_gbs > 0)) {
		snprintf(why, n, "the stride cases give no positive 64 B piece rate");
		return GM_ERR_NOT_FOUND;
	}
	return GM_OK;
}
