/*
 * affinity.h - keep a host thread and the memory it allocates next to a GPU:
 * the thread's CPU set narrowed to the GPU's local CPUs (sysfs local_cpulist,
 * else NVML's nvmlDeviceGetCpuAffinity loaded with dlopen at run time) and its
 * memory policy preferring the GPU's NUMA node (set_mempolicy), both undone by
 * gm_affinity_restore. libnuma is not used. Pure C; Linux only (elsewhere
 * gm_affinity_pin changes nothing and says so).
 */
#ifndef GPUMEM_GPU_AFFINITY_H
#define GPUMEM_GPU_AFFINITY_H

#include <stddef.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_AFF_MAX_CPUS 1024
#define GM_AFF_WORDS (GM_AFF_MAX_CPUS / (8 * (int)sizeof(unsigned long)))

enum { GM_AFF_NONE = 0, GM_AFF_SYSFS = 1, GM_AFF_NVML = 2 };

/* What gm_affinity_pin found and changed, and what restore puts back. */
struct gm_affinity {
	int source;                          /* GM_AFF_*: where the local CPU set came from */
	int local_cpus;                      /* CPUs in the GPU's local set (0 = unknown) */
	int used_cpus;                       /* CPUs the thread runs on after pinning */
	int allowed_cpus;                    /* CPUs the thread was allowed before */
	int node;                            /* GPU's NUMA node; -1 = the platform does not say */
	int nodes_online;                    /* NUMA nodes online (0 = unknown) */
	int cpus_changed, policy_changed;    /* what restore must undo */
	unsigned long old_cpus[GM_AFF_WORDS];
	int old_mode;
	unsigned long old_nodes[GM_AFF_WORDS];
};

/*
 * Parse a Linux CPU or node list ("0-7,16-23", "3", "" , trailing newline) into
 * a bit mask of max bits (mask has max / bits-per-long words, cleared first).
 * Returns the number of bits set, or -1 on a malformed list or an id >= max.
 */
int gm_cpulist_parse(const char *s, unsigned long *mask, int max);
/* Bits set in a mask of `words` words. */
int gm_mask_count(const unsigned long *mask, int words);

/*
 * Narrow the calling thread to the local CPUs of the GPU at PCI domain:bus:device
 * (intersected with the CPUs it may use; an empty intersection changes nothing)
 * and prefer its NUMA node for new pages when the host has more than one node.
 * Never fails: what could not be done stays as it was, and *a says what was done.
 */
void gm_affinity_pin(int domain, int bus, int device, struct gm_affinity *a);
/* Undo exactly what gm_affinity_pin changed (safe to call twice). */
void gm_affinity_restore(struct gm_affinity *a);

#ifdef __cplusplus
}
#endif
#endif
