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
