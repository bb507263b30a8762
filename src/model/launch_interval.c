/*
 * launch_interval.c - the interval of a launch prediction (docs/MODEL.md 7.6):
 * which rules fired for this launch, and from each rule's measured error on
 * committed evidence a range (low, high) the measured GB/s is expected in.
 *
 * A rule fires when it sets the launch's time (the limiting level: dense or
 * sparse DRAM, L2 by sectors or by line lookups, L1, pages, blocks, latency)
 * or moves it (L2 reuse, fills, partly written lines, barriers, many lines a
 * request, a launch of a few microseconds). Each has a band [lo, hi] of
 * measured / predicted, the lowest and highest over the committed
 * measurements where it fired (the development sets only: the suites, the
 * unseen2 / unseen3 sets, dev-36a to dev-36ae and a few probes with their
 * calls' profiles; scripts/launch_interval_make.sh writes the tables below).
 * A launch whose rules fired in a combination measured on at least 16
 * kernels (a kernel measured in several calls counts once) takes that
 * combination's band: from 48 kernels its 5th to 90th percentile, from 24 the
 * whole range of its measurements, from 16 that range widened by a quarter of
 * itself each side; each end then moved out toward the combination's rules'
 * widest 5th / 95th percentile by 4 / (kernels + 4) of the way. Any other
 * launch takes the widest band of its rules. Chosen by leave-one-set-out
 * coverage over the development sets (docs/MODEL.md 7.6). A band wider
 * than 20 %, or a rule that rests on fewer than 8 measurements, makes the
 * prediction weak: the output says so and offers explain --run.
 */
#include <stdio.h>
#include <string.h>
#include "model/model_internal.h"

/* The rules an interval is made of: bit k of gm_launch_out.rules_fired is bands[k]. */
enum {
	GM_RF_DRAM, GM_RF_SPARSE, GM_RF_L2, GM_RF_LINES, GM_RF_L1, GM_RF_PAGES, GM_RF_BLOCKS, GM_RF_LATENCY,
	GM_RF_REUSE, GM_RF_FILL, GM_RF_PARTIAL, GM_RF_BARRIER, GM_RF_WALK, GM_RF_SMALL, GM_RF_COUNT
};

/* measured / predicted, lowest and highest, over n committed measurements (development sets) */
static const struct gm_rule_band bands[GM_RF_COUNT] = {
	/* BANDS: scripts/launch_interval_bands.py */
	[GM_RF_DRAM] = { "DRAM", "D1 D2 D4", 0.690, 1.193, 1297 },
	[GM_RF_SPARSE] = { "DRAM sparse", "D3", 0.589, 1.417, 1002 },
	[GM_RF_L2] = { "L2", "L2 L4", 0.567, 1.705, 28 },
	[GM_RF_LINES] = { "L2 lines", "L3", 0.511, 1.530, 355 },
	[GM_RF_L1] = { "L1", "L1 T1", 0.441, 1.095, 66 },
	[GM_RF_PAGES] = { "pages", "P", 0.511, 1.501, 913 },
	[GM_RF_BLOCKS] = { "blocks", "T4", 0.780, 1.175, 975 },
	[GM_RF_LATENCY] = { "latency", "T2 T3 T5", 0.372, 1.656, 2188 },
	[GM_RF_REUSE] = { "L2 reuse", "D6 D7 D8 D9 T7", 0.372, 1.501, 951 },
	[GM_RF_FILL] = { "fills", "D5 D10", 0.800, 1.143, 88 },
	[GM_RF_PARTIAL] = { "partial lines", "L4", 0.511, 1.705, 838 },
	[GM_RF_BARRIER] = { "barrier", "T6", 0.609, 1.098, 119 },
	[GM_RF_WALK] = { "many lines", "L1 L3", 0.441, 1.705, 2569 },
	[GM_RF_SMALL] = { "small launch", "S", 0.768, 1.050, 26 },
	/* END BANDS */
};

/* The same over the launches whose rules fired in exactly this combination, where at least 16 kernels were
   measured (n: the measurements; the band as the top comment says): narrower than the widest of their rules'
   bands, which a combination not listed here takes. */
static const struct {
	unsigned bits;
	double lo, hi;
	int n;
} sigs[] = {
	/* SIGNATURES: scripts/launch_interval_bands.py */
	{ 0x80, 0.926, 1.031, 530 }, /* latency */
	{ 0x1002, 0.931, 1.030, 491 }, /* DRAM sparse + many lines */
	{ 0x1001, 0.919, 1.030, 455 }, /* DRAM + many lines */
	{ 0x1, 0.905, 1.030, 343 }, /* DRAM */
	{ 0xc0, 0.935, 1.049, 326 }, /* blocks + latency */
	{ 0x40, 0.970, 1.030, 242 }, /* blocks */
	{ 0x401, 0.909, 1.030, 182 }, /* DRAM + partial lines */
	{ 0x1022, 0.931, 1.218, 150 }, /* DRAM sparse + pages + many lines */
	{ 0x1428, 0.557, 1.101, 128 }, /* L2 lines + pages + partial lines + many lines */
	{ 0x11a0, 0.833, 1.114, 126 }, /* pages + latency + L2 reuse + many lines */
	{ 0x180, 0.691, 1.153, 113 }, /* latency + L2 reuse */
	{ 0x81, 0.937, 1.030, 110 }, /* DRAM + latency */
	{ 0x1081, 0.920, 1.030, 99 }, /* DRAM + latency + many lines */
	{ 0x140, 0.970, 1.030, 81 }, /* blocks + L2 reuse */
	{ 0x1408, 0.581, 1.299, 78 }, /* L2 lines + partial lines + many lines */
	{ 0x1c0, 0.940, 1.087, 73 }, /* blocks + latency + L2 reuse */
	{ 0x10a0, 0.758, 1.158, 59 }, /* pages + latency + many lines */
	{ 0x1080, 0.834, 1.115, 59 }, /* latency + many lines */
	{ 0x1040, 0.958, 1.030, 59 }, /* blocks + many lines */
	{ 0x1188, 0.655, 1.047, 58 }, /* L2 lines + latency + L2 reuse + many lines */
	{ 0x1120, 0.730, 1.436, 49 }, /* pages + L2 reuse + many lines */
	{ 0x82, 0.923, 1.234, 44 }, /* DRAM sparse + latency */
	{ 0x1602, 0.792, 1.078, 44 }, /* DRAM sparse + fills + partial lines + many lines */
	{ 0x1140, 0.967, 1.030, 43 }, /* blocks + L2 reuse + many lines */
	{ 0x11a8, 0.722, 1.205, 41 }, /* L2 lines + pages + latency + L2 reuse + many lines */
	{ 0x1082, 0.726, 1.105, 38 }, /* DRAM sparse + latency + many lines */
	{ 0x1180, 0.825, 1.302, 37 }, /* latency + L2 reuse + many lines */
	{ 0x15a0, 0.847, 1.157, 35 }, /* pages + latency + L2 reuse + partial lines + many lines */
	{ 0x480, 0.876, 1.162, 31 }, /* latency + partial lines */
	{ 0x1402, 0.884, 1.096, 31 }, /* DRAM sparse + partial lines + many lines */
	{ 0x11e0, 0.867, 1.207, 31 }, /* pages + blocks + latency + L2 reuse + many lines */
	{ 0x11c0, 0.906, 1.097, 30 }, /* blocks + latency + L2 reuse + many lines */
	{ 0x1420, 0.758, 1.256, 28 }, /* pages + partial lines + many lines */
	{ 0x1160, 0.816, 1.057, 25 }, /* pages + blocks + L2 reuse + many lines */
	{ 0x1520, 0.805, 1.637, 23 }, /* pages + L2 reuse + partial lines + many lines */
	{ 0x10a2, 0.770, 1.546, 22 }, /* DRAM sparse + pages + latency + many lines */
	{ 0x1401, 0.615, 1.083, 21 }, /* DRAM + partial lines + many lines */
	/* END SIGNATURES */
};

#define WEAK_WIDTH 0.20
#define WEAK_N 8
#define SIG_MIN 16 /* the table holds combinations of 16 kernels or more, so 16 measurements or more */

int gm_launch_nbands(void)
{
	return GM_RF_COUNT;
}

const struct gm_rule_band *gm_launch_band(int rule)
{
	return rule >= 0 && rule < GM_RF_COUNT ? &bands[rule] : NULL;
}

/* The level that sets the time. */
static int limiting(const struct gm_launch_out *o)
{
	if (!strcmp(o->limited_by, "DRAM"))
		return o->read_density < 0.99 && o->dram_read_bytes > 0 ? GM_RF_SPARSE : GM_RF_DRAM;
	if (!strcmp(o->limited_by, "L2"))
		return o->l2_by_lines ? GM_RF_LINES : GM_RF_L2;
	if (!strcmp(o->limited_by, "L1"))
		return GM_RF_L1;
	if (!strcmp(o->limited_by, "pages"))
		return GM_RF_PAGES;
	if (!strcmp(o->limited_by, "blocks"))
		return GM_RF_BLOCKS;
	return GM_RF_LATENCY;
}

unsigned gm_launch_rules_fired(const struct gm_launch_out *o)
{
	unsigned f = 1u << limiting(o);
	double dram = o->dram_read_bytes + o->dram_write_bytes;

	if (o->t_waves_ms > 0.5 * o->t_bandwidth_ms) /* near the knee: latency moves the time (T3) */
		f |= 1u << GM_RF_LATENCY;
	if (o->l2_reuse_bytes > 0.05 * (o->dram_read_bytes + o->l2_reuse_bytes))
		f |= 1u << GM_RF_REUSE;
	if (o->dram_fill_bytes > 0.05 * (dram > 0 ? dram : 1))
		f |= 1u << GM_RF_FILL;
	if (o->l2_part_lines + o->l2_merged_lines > 0)
		f |= 1u << GM_RF_PARTIAL;
	if (o->t_barrier_ms > 0)
		f |= 1u << GM_RF_BARRIER;
	if (o->requests > 0 && o->l1_lines / o->requests >= 4) /* column walks, gathers: 4+ lines a request */
		f |= 1u << GM_RF_WALK;
	if (o->page_lanes > 0)
		f |= 1u << GM_RF_PAGES;
	if (o->time_ms < 0.02) /* a few microseconds: start-up and the host's pace (rule S) */
		f |= 1u << GM_RF_SMALL;
	return f;
}

void gm_launch_interval(struct gm_launch_out *o)
{
	double lo = 1.0, hi = 1.0;
	unsigned f = gm_launch_rules_fired(o);
	int sig = -1;

	o->rules_fired = f;
	o->weak = 0;
	for (int k = 0; k < (int)(sizeof(sigs) / sizeof(sigs[0])); k++)
		if (sigs[k].bits == f && sigs[k].n >= SIG_MIN)
			sig = k;
	for (int k = 0; k < GM_RF_COUNT; k++) {
		if (!(f & (1u << k)))
			continue;
		if (bands[k].lo < lo)
			lo = bands[k].lo;
		if (bands[k].hi > hi)
			hi = bands[k].hi;
		if (bands[k].n < WEAK_N || (sig < 0 && bands[k].hi - bands[k].lo > WEAK_WIDTH))
			o->weak |= 1u << k;
	}
	if (sig >= 0) { /* the combination's own record */
		lo = sigs[sig].lo;
		hi = sigs[sig].hi;
		if (hi - lo > WEAK_WIDTH)
			o->weak |= f;
	}
	o->gbs_low = o->gbs * lo;
	o->gbs_high = o->gbs * hi;
}

void gm_launch_rules_names(unsigned bits, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int k = 0; k < GM_RF_COUNT && len + 1 < n; k++) {
		int w;

		if (!(bits & (1u << k)))
			continue;
		w = snprintf(buf + len, n - len, "%s%s (%s)", len ? ", " : "", bands[k].name, bands[k].rules);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
}
