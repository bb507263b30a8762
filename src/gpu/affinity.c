/*
 * affinity.c - the calling thread's CPUs and memory policy next to a GPU
 * (affinity.h). Sources, in order: /sys/bus/pci/devices/<bus id>/local_cpulist
 * and numa_node; NVML's nvmlDeviceGetCpuAffinity by dlopen("libnvidia-ml.so.1")
 * when sysfs has no list (the binary starts where NVML is absent). Memory:
 * set_mempolicy(MPOL_PREFERRED, GPU node) only when more than one node is
 * online (with one node there is nothing to choose).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/affinity.h"

#ifdef __linux__
#include <sched.h>
#include <unistd.h>
#include <sys/syscall.h>
#endif

#define BITS_PER_WORD (8 * (int)sizeof(unsigned long))
#define MPOL_DEFAULT_ 0
#define MPOL_PREFERRED_ 1

static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	return ok ? 0 : -1;
}

static int parse_uint(const char **p, long *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -1;
	*v = strtol(*p, &end, 10);
	*p = end;
	return 0;
}

int gm_cpulist_parse(const char *s, unsigned long *mask, int max)
{
	int words = (max + BITS_PER_WORD - 1) / BITS_PER_WORD;
	int count = 0;

	if (!s || !mask || max <= 0)
		return -1;
	memset(mask, 0, (size_t)words * sizeof(unsigned long));
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != '\n') {
		long lo, hi;
		if (parse_uint(&s, &lo))
			return -1;
		hi = lo;
		if (*s == '-') {
			s++;
			if (parse_uint(&s, &hi) || hi < lo)
				return -1;
		}
		if (hi >= max)
			return -1;
		for (long c = lo; c <= hi; c++) {
			unsigned long bit = 1UL << (c % BITS_PER_WORD);
			if (!(mask[c / BITS_PER_WORD] & bit))
				count++;
			mask[c / BITS_PER_WORD] |= bit;
		}
		if (*s == ',') {
			s++;
			if (!*s || *s == '\n')
				return -1;
		} else if (*s && *s != '\n') {
			return -1;
		}
	}
	return count;
}

int gm_mask_count(const unsigned long *mask, int words)
{
	int n = 0;

	for (int w = 0; w < words; w++)
		for (unsigned long x = mask[w]; x; x &= x - 1)
			n++;
	return n;
}

#ifdef __linux__
/* NVML's ideal CPU set of the GPU, into mask; -1 when NVML is absent or says nothing. */
static int nvml_cpus(int domain, int bus, int device, unsigned long *mask)
{
	typedef int (*init_fn)(void);
	typedef int (*by_bus_fn)(const char *, void **);
	typedef int (*aff_fn)(void *, unsigned, unsigned long *);
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	char id[32];
	void *h = NULL;
	int n = -1;

	if (!lib)
		return -1;
	init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
	by_bus_fn by_bus = (by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	aff_fn aff = (aff_fn)dlsym(lib, "nvmlDeviceGetCpuAffinity");
	int (*shut)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
	if (init && by_bus && aff && shut && init() == 0) {
		snprintf(id, sizeof(id), "%08x:%02x:%02x.0", (unsigned)domain, (unsigned)bus, (unsigned)device);
		memset(mask, 0, GM_AFF_WORDS * sizeof(unsigned long));
		if (by_bus(id, &h) == 0 && aff(h, GM_AFF_WORDS, mask) == 0)
			n = gm_mask_count(mask, GM_AFF_WORDS);
		shut();
	}
	dlclose(lib);
	return n > 0 ? n : -1;
}

void gm_affinity_pin(int domain, int bus, int device, struct gm_affinity *a)
{
	char path[160], buf[4096];
	unsigned long local[GM_AFF_WORDS], use[GM_AFF_WORDS], nodes[GM_AFF_WORDS];
	cpu_set_t cur;
	int n = -1;

	memset(a, 0, sizeof(*a));
	a->node = -1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.0/", (unsigned)domain, (unsigned)bus,
		 (unsigned)device);
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "local_cpulist");
	if (!read_line(path, buf, sizeof(buf)) && (n = gm_cpulist_parse(buf, local, GM_AFF_MAX_CPUS)) > 0)
		a->source = GM_AFF_SYSFS;
	else if ((n = nvml_cpus(domain, bus, device, local)) > 0)
		a->source = GM_AFF_NVML;
	a->local_cpus = n > 0 ? n : 0;
	snprintf(strrchr(path, '/') + 1, sizeof(path) - (size_t)(strrchr(path, '/') + 1 - path), "numa_node");
	if (!read_line(path, buf, sizeof(buf)))
		a->node = atoi(buf);
	if (!read_line("/sys/devices/system/node/online", buf, sizeof(buf)))
		a->nodes_online = gm_cpulist_parse(buf, nodes, GM_AFF_MAX_CPUS) > 0 ?
				  gm_mask_count(nodes, GM_AFF_WORDS) : 0;

	CPU_ZERO(&cur);
	if (sched_getaffinity(0, sizeof(cur), &cur) == 0) {
		memset(a->old_cpus, 0, sizeof(a->old_cpus));
		for (int c = 0; c < GM_AFF_MAX_CPUS && c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &cur))
				a->old_cpus[c / BITS_PER_WORD] |= 1UL << (c % BITS_PER_WORD);
		a->allowed_cpus = gm_mask_count(a->old_cpus, GM_AFF_WORDS);
		a->used_cpus = a->allowed_cpus;
		if (a->local_cpus > 0) {
			for (int w = 0; w < GM_AFF_WORDS; w++)
				use[w] = local[w] & a->old_cpus[w];
			int k = gm_mask_count(use, GM_AFF_WORDS);
			if (k > 0 && k < a->allowed_cpus) {
				cpu_set_t set;
				CPU_ZERO(&set);
				for (int c = 0; c < GM_AFF_MAX_CPUS && c < CPU_SETSIZE; c++)
					if (use[c / BITS_PER_WORD] & (1UL << (c % BITS_PER_WORD)))
						CPU_SET(c, &set);
				if (sched_setaffinity(0, sizeof(set), &set) == 0) {
					a->cpus_changed = 1;
					a->used_cpus = k;
				}
			}
		}
	}

	/* prefer the GPU's node for pages allocated from now on (only where there is a choice) */
	if (a->node >= 0 && a->node < GM_AFF_MAX_CPUS && a->nodes_online > 1 &&
	    syscall(SYS_get_mempolicy, &a->old_mode, a->old_nodes, (unsigned long)GM_AFF_MAX_CPUS, NULL, 0UL) == 0) {
		memset(nodes, 0, sizeof(nodes));
		nodes[a->node / BITS_PER_WORD] = 1UL << (a->node % BITS_PER_WORD);
		if (syscall(SYS_set_mempolicy, MPOL_PREFERRED_, nodes, (unsigned long)GM_AFF_MAX_CPUS) == 0)
			a->policy_changed = 1;
	}
}

void gm_affinity_restore(struct gm_affinity *a)
{
	if (a->policy_changed) {
		if (a->old_mode == MPOL_DEFAULT_)
			syscall(SYS_set_mempolicy, MPOL_DEFAULT_, NULL, 0UL);
		else
			syscall(SYS_set_mempolicy, a->old_mode, a->old_nodes, (unsigned long)GM_AFF_MAX_CPUS);
		a->policy_changed = 0;
	}
	if (a->cpus_changed) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int c = 0; c < GM_AFF_MAX_CPUS && c < CPU_SETSIZE; c++)
			if (a->old_cpus[c / BITS_PER_WORD] & (1UL << (c % BITS_PER_WORD)))
				CPU_SET(c, &set);
		sched_setaffinity(0, sizeof(set), &set);
		a->cpus_changed = 0;
	}
}
#else
void gm_affinity_pin(int domain, int bus, int device, struct gm_affinity *a)
{
	(void)domain, (void)bus, (void)device;
	memset(a, 0, sizeof(*a));
	a->node = -1;
}

void gm_affinity_restore(struct gm_affinity *a)
{
	(void)a;
}
#endif
