/*
 * telemetry.c - NVML by dlopen (as gpu_cuda.c does for the PCIe link) and
 * sysfs: placement and run-time telemetry of a GPU named by its PCI bus id.
 * Every NVML call is optional: a missing symbol or a failed call leaves the
 * field unknown (-1 or empty).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpumem/telemetry.h"
#include "gpumem/check.h"

typedef void *nvml_dev;
static struct {
	void *lib;
	int (*init)(void);
	int (*shut)(void);
	int (*by_bus)(const char *, nvml_dev *);
	int (*uuid)(nvml_dev, char *, unsigned);
	int (*name)(nvml_dev, char *, unsigned);
	int (*lgen)(nvml_dev, unsigned *), (*lwid)(nvml_dev, unsigned *);
	int (*lgen_max)(nvml_dev, unsigned *), (*lwid_max)(nvml_dev, unsigned *);
	int (*clock)(nvml_dev, int, unsigned *);
	int (*temp)(nvml_dev, int, unsigned *);
	int (*power)(nvml_dev, unsigned *);
	int (*throttle)(nvml_dev, unsigned long long *);
	int (*procs)(nvml_dev, unsigned *, void *);
	int (*ecc)(nvml_dev, int, int, unsigned long long *);
	/* gpumem check's error counters (gm_tel_counters, the XID watch) */
	int (*remap)(nvml_dev, unsigned *, unsigned *, unsigned *, unsigned *);
	int (*retired)(nvml_dev, int, unsigned *, unsigned long long *);
	int (*retired_pending)(nvml_dev, int *);
	int (*replay)(nvml_dev, unsigned *);
	int (*nvl_state)(nvml_dev, unsigned, int *);
	int (*nvl_err)(nvml_dev, unsigned, int, unsigned long long *);
	int (*ev_create)(void **);
	int (*ev_register)(nvml_dev, unsigned long long, void *);
	int (*ev_wait)(void *, void *, unsigned);
	int (*ev_free)(void *);
} nv;

#define NVML_CLOCK_SM 1
#define NVML_CLOCK_MEM 2
#define NVML_TEMPERATURE_GPU 0
#define NVML_ERROR_INSUFFICIENT_SIZE 7

#define SYM(field, name) (*(void **)&nv.field = dlsym(nv.lib, name))

gm_status gm_tel_open(void)
{
	if (nv.lib)
		return GM_OK;
	nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!nv.lib)
		return gm_fail(GM_ERR_NOT_FOUND, "NVML not found (libnvidia-ml.so.1): no telemetry");
	SYM(init, "nvmlInit_v2");
	SYM(shut, "nvmlShutdown");
	SYM(by_bus, "nvmlDeviceGetHandleByPciBusId_v2");
	if (!nv.init || !nv.shut || !nv.by_bus || nv.init() != 0) {
		dlclose(nv.lib);
		memset(&nv, 0, sizeof(nv));
		return gm_fail(GM_ERR_NOT_FOUND, "NVML did not initialise: no telemetry");
	}
	SYM(uuid, "nvmlDeviceGetUUID");
	SYM(name, "nvmlDeviceGetName");
	SYM(lgen, "nvmlDeviceGetCurrPcieLinkGeneration");
	SYM(lwid, "nvmlDeviceGetCurrPcieLinkWidth");
	SYM(lgen_max, "nvmlDeviceGetMaxPcieLinkGeneration");
	SYM(lwid_max, "nvmlDeviceGetMaxPcieLinkWidth");
	SYM(clock, "nvmlDeviceGetClockInfo");
	SYM(temp, "nvmlDeviceGetTemperature");
	SYM(power, "nvmlDeviceGetPowerUsage");
	SYM(throttle, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!nv.throttle)
		SYM(throttle, "nvmlDeviceGetCurrentClocksThrottleReasons");
	SYM(procs, "nvmlDeviceGetComputeRunningProcesses_v3");
	SYM(ecc, "nvmlDeviceGetTotalEccErrors");
	SYM(remap, "nvmlDeviceGetRemappedRows");
	SYM(retired, "nvmlDeviceGetRetiredPages");
	SYM(retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
	SYM(replay, "nvmlDeviceGetPcieReplayCounter");
	SYM(nvl_state, "nvmlDeviceGetNvLinkState");
	SYM(nvl_err, "nvmlDeviceGetNvLinkErrorCounter");
	SYM(ev_create, "nvmlEventSetCreate");
	SYM(ev_register, "nvmlDeviceRegisterEvents");
	SYM(ev_wait, "nvmlEventSetWait_v2");
	SYM(ev_free, "nvmlEventSetFree");
	return GM_OK;
}

void gm_tel_close(void)
{
	if (!nv.lib)
		return;
	nv.shut();
	dlclose(nv.lib);
	memset(&nv, 0, sizeof(nv));
}

static nvml_dev handle(const char *bus_id)
{
	nvml_dev h = NULL;

	if (!nv.lib || !bus_id[0] || nv.by_bus(bus_id, &h) != 0)
		return NULL;
	return h;
}

/* sysfs wants "0000:19:00.0" in lower case. */
static int numa_node(const char *bus_id)
{
	unsigned dom, bus, dev, fn;
	char path[96];
	int node = -1;
	FILE *f;

	if (sscanf(bus_id, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return -1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.%x/numa_node", dom & 0xffff, bus, dev, fn);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &node) != 1)
		node = -1;
	fclose(f);
	return node;
}

static int uval(int (*fn)(nvml_dev, unsigned *), nvml_dev h)
{
	unsigned v;
	return fn && h && fn(h, &v) == 0 ? (int)v : -1;
}

void gm_tel_place(struct gm_placement *p)
{
	nvml_dev h = handle(p->pci_bus_id);

	p->numa_node = numa_node(p->pci_bus_id);
	p->pcie_gen = uval(nv.lgen, h);
	p->pcie_width = uval(nv.lwid, h);
	p->pcie_gen_max = uval(nv.lgen_max, h);
	p->pcie_width_max = uval(nv.lwid_max, h);
	if (h && nv.uuid && nv.uuid(h, p->uuid, sizeof(p->uuid)) != 0)
		p->uuid[0] = '\0';
	if (h && nv.name && !p->name[0] && nv.name(h, p->name, sizeof(p->name)) != 0)
		p->name[0] = '\0';
}

void gm_tel_acc_init(struct gm_tel_acc *a)
{
	memset(a, 0, sizeof(*a));
	a->t.ecc_corrected = a->t.ecc_uncorrected = -1;
}

static void minmax(double v, double *lo, double *hi, int first)
{
	if (first || v < *lo)
		*lo = v;
	if (first || v > *hi)
		*hi = v;
}

void gm_tel_sample(const char *bus_id, struct gm_tel_acc *a)
{
	nvml_dev h = handle(bus_id);
	unsigned sm = 0, mem = 0, temp = 0, mw = 0, np = 0;
	unsigned long long why = 0;
	int first = a->t.samples == 0;
	int rc;

	if (!h || !nv.clock || nv.clock(h, NVML_CLOCK_SM, &sm) != 0)
		return;
	minmax(sm, &a->t.sm_mhz_min, &a->t.sm_mhz_max, first);
	if (a->n < (int)(sizeof(a->sm) / sizeof(a->sm[0])))
		a->sm[a->n++] = sm;
	if (nv.clock(h, NVML_CLOCK_MEM, &mem) == 0)
		minmax(mem, &a->t.mem_mhz_min, &a->t.mem_mhz_max, first);
	if (nv.temp && nv.temp(h, NVML_TEMPERATURE_GPU, &temp) == 0)
		minmax(temp, &a->t.temp_c_min, &a->t.temp_c_max, first);
	if (nv.power && nv.power(h, &mw) == 0 && mw / 1000.0 > a->t.power_w_max)
		a->t.power_w_max = mw / 1000.0;
	if (nv.throttle && nv.throttle(h, &why) == 0)
		a->t.throttle_reasons |= why;
	if (nv.procs) {
		rc = nv.procs(h, &np, NULL);
		if ((rc == 0 || rc == NVML_ERROR_INSUFFICIENT_SIZE) && (int)np > a->t.max_processes)
			a->t.max_processes = (int)np;
	}
	a->t.samples++;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

void gm_tel_finish(const char *bus_id, struct gm_tel_acc *a, struct gm_telemetry *out)
{
	nvml_dev h = handle(bus_id);
	unsigned long long c;

	if (a->n) {
		qsort(a->sm, (size_t)a->n, sizeof(double), cmp_double);
		a->t.sm_mhz_median = a->n % 2 ? a->sm[a->n / 2] : 0.5 * (a->sm[a->n / 2 - 1] + a->sm[a->n / 2]);
	}
	/* volatile counters (since the driver loaded): 0 = corrected, 1 = uncorrected */
	if (h && nv.ecc && nv.ecc(h, 0, 0, &c) == 0)
		a->t.ecc_corrected = (int64_t)c;
	if (h && nv.ecc && nv.ecc(h, 1, 0, &c) == 0)
		a->t.ecc_uncorrected = (int64_t)c;
	*out = a->t;
}

/* ---- gpumem check's error counters (include/gpumem/check.h; judged in src/analysis/check_counters.c) ---- */

#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_TIMEOUT 10
#define NVML_NVLINK_MAX_LINKS 18
#define NVML_EVENT_XID 0x8ull   /* nvmlEventTypeXidCriticalError */

/* A counter's state from an NVML return code. */
static void got(struct gm_counter_read *r, int rc, int64_t v)
{
	r->nvml_rc = rc;
	r->state = rc == 0 ? GM_CNT_OK : rc == NVML_ERROR_NOT_SUPPORTED ? GM_CNT_UNSUPPORTED : GM_CNT_ERROR;
	r->value = rc == 0 ? v : 0;
}

static void ecc_counters(nvml_dev h, struct gm_counter_read *out)
{
	static const struct { int id, type, counter; } e[] = {
		{ GM_CNT_ECC_VOL_UNCORR, 1, 0 }, { GM_CNT_ECC_VOL_CORR, 0, 0 },
		{ GM_CNT_ECC_AGG_UNCORR, 1, 1 }, { GM_CNT_ECC_AGG_CORR, 0, 1 },
	};
	unsigned long long c = 0;

	for (int i = 0; nv.ecc && i < 4; i++)
		got(&out[e[i].id], nv.ecc(h, e[i].type, e[i].counter, &c), (int64_t)c);
}

static void memory_counters(nvml_dev h, struct gm_counter_read *out)
{
	unsigned corr = 0, unc = 0, pending = 0, failed = 0, n;
	int rc, pend = 0;

	if (nv.remap) {
		rc = nv.remap(h, &corr, &unc, &pending, &failed);
		got(&out[GM_CNT_REMAP_PENDING], rc, pending);
		got(&out[GM_CNT_REMAP_FAILED], rc, failed);
		got(&out[GM_CNT_REMAP_UNCORR_ROWS], rc, unc);
	}
	for (int cause = 0; nv.retired && cause < 2; cause++) {
		n = 0;
		rc = nv.retired(h, cause, &n, NULL);
		got(&out[cause ? GM_CNT_RETIRED_DBE : GM_CNT_RETIRED_SBE], rc == NVML_ERROR_INSUFFICIENT_SIZE ? 0 : rc, n);
	}
	if (nv.retired_pending)
		got(&out[GM_CNT_RETIRED_PENDING], nv.retired_pending(h, &pend), pend);
}

/* NVLink errors summed over the active links; UNSUPPORTED when no link answers. */
static void nvlink_counters(nvml_dev h, struct gm_counter_read *out)
{
	static const struct { int id, c1, c2; } e[] = {
		{ GM_CNT_NVLINK_REPLAY, 0, -1 }, { GM_CNT_NVLINK_RECOVERY, 1, -1 }, { GM_CNT_NVLINK_CRC, 2, 3 },
	};
	int active = 0, rc_state = NVML_ERROR_NOT_SUPPORTED;

	if (!nv.nvl_state || !nv.nvl_err)
		return;
	for (int k = 0; k < 3; k++)
		got(&out[e[k].id], NVML_ERROR_NOT_SUPPORTED, 0);
	for (unsigned l = 0; l < NVML_NVLINK_MAX_LINKS; l++) {
		int on = 0, rc = nv.nvl_state(h, l, &on);
		if (rc)
			rc_state = rc_state == NVML_ERROR_NOT_SUPPORTED ? rc : rc_state;
		if (rc || !on)
			continue;
		for (int k = 0; k < 3; k++) {
			unsigned long long a = 0, b = 0;
			int rc1 = nv.nvl_err(h, l, e[k].c1, &a), rc2 = e[k].c2 >= 0 ? nv.nvl_err(h, l, e[k].c2, &b) : 0;
			struct gm_counter_read *r = &out[e[k].id];
			if (!active)
				got(r, rc1 ? rc1 : rc2, 0);
			if (!rc1 && !rc2 && r->state == GM_CNT_OK)
				r->value += (int64_t)(a + b);
		}
		active++;
	}
	for (int k = 0; !active && k < 3; k++) {   /* links answered, none active: UNSUPPORTED with rc -1 */
		got(&out[e[k].id], rc_state == 0 ? NVML_ERROR_NOT_SUPPORTED : rc_state, 0);
		out[e[k].id].nvml_rc = rc_state == 0 ? -1 : rc_state;
	}
}

void gm_tel_counters(const char *bus_id, struct gm_counter_read out[GM_CNT_COUNT])
{
	nvml_dev h = handle(bus_id);
	unsigned v = 0;

	memset(out, 0, GM_CNT_COUNT * sizeof(out[0]));
	if (!h)
		return;
	ecc_counters(h, out);
	memory_counters(h, out);
	if (nv.replay)
		got(&out[GM_CNT_PCIE_REPLAY], nv.replay(h, &v), v);
	if (nv.lgen) {
		got(&out[GM_CNT_PCIE_GEN], nv.lgen(h, &v), v);
		out[GM_CNT_PCIE_GEN].detail = uval(nv.lgen_max, h);
	}
	if (nv.lwid) {
		got(&out[GM_CNT_PCIE_WIDTH], nv.lwid(h, &v), v);
		out[GM_CNT_PCIE_WIDTH].detail = uval(nv.lwid_max, h);
	}
	nvlink_counters(h, out);
	if (nv.throttle) {
		unsigned long long why = 0;
		got(&out[GM_CNT_THROTTLE], nv.throttle(h, &why), (int64_t)why);
	}
}

/* nvmlEventData_t */
struct nvml_event {
	nvml_dev device;
	unsigned long long type, data;
	unsigned gi, ci;
};

void *gm_tel_xid_open(const char *bus_id, struct gm_counter_read *r)
{
	nvml_dev h = handle(bus_id);
	void *set = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!h || !nv.ev_create || !nv.ev_register || !nv.ev_wait || !nv.ev_free)
		return NULL;
	rc = nv.ev_create(&set);
	if (!rc)
		rc = nv.ev_register(h, NVML_EVENT_XID, set);
	got(r, rc, 0);
	if (rc && set)
		nv.ev_free(set);
	return rc ? NULL : set;
}

void gm_tel_xid_poll(void *set, struct gm_counter_read *r)
{
	struct nvml_event e;

	while (set && nv.ev_wait(set, &e, 0) == 0)
		if (e.type & NVML_EVENT_XID) {
			r->value++;
			r->detail = (int64_t)e.data;
		}
}

void gm_tel_xid_close(void *set)
{
	if (set && nv.ev_free)
		nv.ev_free(set);
}

int gm_tel_now(const char *bus_id, struct gm_burn_sample *s, int *pcie_gen, int *pcie_width)
{
	nvml_dev h = handle(bus_id);
	unsigned sm = 0, mem = 0, temp = 0, mw = 0;
	unsigned long long why = 0;

	if (!h || !nv.clock || nv.clock(h, NVML_CLOCK_SM, &sm) != 0)
		return 0;
	s->sm_mhz = sm;
	s->mem_mhz = nv.clock(h, NVML_CLOCK_MEM, &mem) == 0 ? mem : 0;
	s->temp_c = nv.temp && nv.temp(h, NVML_TEMPERATURE_GPU, &temp) == 0 ? temp : 0;
	s->power_w = nv.power && nv.power(h, &mw) == 0 ? mw / 1000.0 : 0;
	s->reasons = nv.throttle && nv.throttle(h, &why) == 0 ? why : 0;
	*pcie_gen = uval(nv.lgen, h);
	*pcie_width = uval(nv.lwid, h);
	return 1;
}
