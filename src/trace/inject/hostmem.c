/* hostmem.c - the pinned host allocations the program holds (the sanitizer's host-memory callbacks, under the
 * library's lock): a kernel's address inside one reads or writes mapped (zero-copy) host memory, every access
 * across the host link. The document marks such an instruction "memory": "host" (docs/SCHEMA.md). */
#include "inject.h"

#define GMT_HOST_MAX 1024   /* allocations remembered; later ones are not marked */

static struct {
	uint64_t lo, hi;
} host[GMT_HOST_MAX];
static int nhost;

void gmt_hostmem_alloc(uint64_t addr, uint64_t size)
{
	if (nhost < GMT_HOST_MAX && size > 0)
		host[nhost].lo = addr, host[nhost++].hi = addr + size;
}

void gmt_hostmem_free(uint64_t addr)
{
	for (int i = 0; i < nhost; i++)
		if (host[i].lo == addr) {
			host[i] = host[--nhost];
			return;
		}
}

int gmt_hostmem_has(uint64_t addr)
{
	for (int i = 0; i < nhost; i++)
		if (addr >= host[i].lo && addr < host[i].hi)
			return 1;
	return 0;
}
