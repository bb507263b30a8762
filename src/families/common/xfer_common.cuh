/*
 * xfer_common.cuh - what the host-transfer families (transfer, overlap,
 * managed, p2p) share: host buffers of every kind with their release, the CPU
 * fill and check of the gm_hash words, the PCIe link and NUMA facts of sysfs,
 * and the grid-stride word copy used over mapped and peer memory.
 */
#ifndef GPUMEM_KERNELS_XFER_COMMON_CUH
#define GPUMEM_KERNELS_XFER_COMMON_CUH

#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "families/common/common.cuh"
#include "families/common/host_ref.h"
#include "families/common/xfer_shapes.h"
#include "gpumem/result.h"

/* A host buffer and how it was obtained (so release undoes exactly that). */
struct xf_host {
	void *p;
	void *dev;          /* device pointer of mapped memory, else NULL */
	size_t bytes;
	int kind;           /* XF_* actually obtained */
	int fell_back;      /* pinned allocation failed: pageable instead */
};

static inline gm_status xf_host_alloc(struct xf_host *h, size_t bytes, int kind)
{
	cudaError_t e = cudaSuccess;

	memset(h, 0, sizeof(*h));
	h->bytes = bytes;
	h->kind = kind;
	switch (kind) {
	case XF_PINNED: e = cudaMallocHost(&h->p, bytes); break;
	case XF_WC: e = cudaHostAlloc(&h->p, bytes, cudaHostAllocWriteCombined); break;
	case XF_MAPPED: e = cudaHostAlloc(&h->p, bytes, cudaHostAllocMapped); break;
	default: break;
	}
	if (kind == XF_MAPPED && e == cudaSuccess)
		e = cudaHostGetDevicePointer(&h->dev, h->p, 0);
	if (e != cudaSuccess) {
		(void)cudaGetLastError();
		if (h->p)
			cudaFreeHost(h->p);
		h->p = NULL;
		if (kind == XF_MAPPED)
			return gm_fail(GM_ERR_TOO_LARGE, "mapped host allocation of %zu bytes failed: %s", bytes,
				       cudaGetErrorString(e));
		h->fell_back = 1;       /* reported as note pinned_fallback = 1 */
		h->kind = XF_PAGEABLE;
	}
	if (h->kind == XF_PAGEABLE || h->kind == XF_REGISTERED) {
		h->p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
		if (!h->p)
			return gm_fail(GM_ERR_TOO_LARGE, "host allocation of %zu bytes failed", bytes);
	}
	if (h->kind == XF_REGISTERED) {
		e = cudaHostRegister(h->p, bytes, cudaHostRegisterDefault);
		if (e != cudaSuccess) {
			(void)cudaGetLastError();
			h->fell_back = 1;
			h->kind = XF_PAGEABLE;
		}
	}
	return GM_OK;
}

static inline void xf_host_free(struct xf_host *h)
{
	if (!h->p)
		return;
	if (h->kind == XF_REGISTERED)
		cudaHostUnregister(h->p);
	if ((h->kind == XF_PAGEABLE || h->kind == XF_REGISTERED) && gm_gpu_scrub_on())
		memset(h->p, 0, h->bytes); /* run --scrub: registered (pinned while it was) and pageable alike */
	if (h->kind == XF_PAGEABLE || h->kind == XF_REGISTERED)
		free(h->p);
	else
		gm_gpu_free_host(h->p, h->bytes);
	h->p = NULL;
}

/* On every core (host_ref.h): a pinned buffer is placed already; a pageable one is first touched by threads that
   inherit the caller's CPU set and memory policy (the GPU's node, gm_affinity_pin) */
static inline void xf_fill_host(uint32_t *p, size_t nwords, uint32_t seed)
{
	gm_host_fill(p, nwords, seed);
}

/* Every word of a host buffer against gm_hash(seed, w), on every core. */
static inline gm_status xf_check_host(const uint32_t *p, size_t nwords, uint32_t seed, const char *what,
				      char *why, size_t n)
{
	size_t w = gm_host_first_bad(p, nwords, seed);

	if (w == nwords)
		return GM_OK;
	snprintf(why, n, "%s: host word %zu is 0x%08x, expected 0x%08x", what, w, p[w], gm_hash(seed, w));
	return gm_fail(GM_ERR_VALIDATION, "%s", why);
}

static inline double xf_sysfs_num(const struct gm_device_info *d, const char *file)
{
	char path[256], buf[64];
	FILE *f;
	double v = -1;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%04x:%02x:%02x.0/%s", d->pci_domain, d->pci_bus,
		 d->pci_device, file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = atof(buf);
	fclose(f);
	return v;
}

/* NUMA node of the page holding p (move_pages query); -1 = unknown. */
static inline int xf_numa_node_of(const void *p)
{
	void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
	int status = -1;
	long rc = syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0);
	return rc == 0 ? status : -1;
}

/* PCIe generation from the link speed in GT/s. */
static inline int xf_pcie_gen(double gts)
{
	static const double speed[] = { 2.5, 5, 8, 16, 32, 64 };
	for (int g = 0; g < 6; g++)
		if (gts > speed[g] - 0.5 && gts < speed[g] + 0.5)
			return g + 1;
	return -1;
}

/*
 * PCIe link facts of the GPU (sysfs max link, else NVML's current link) and the NUMA nodes of the
 * GPU and of a host buffer (move_pages on its first page; -1 = unknown). with_cur_gen = 0 leaves
 * out pcie_cur_gen and gpu_numa_node (a case result holds GM_MAX_NOTES notes).
 * pcie_link_gbs: GT/s x lanes x encoding / 8, one direction, GB/s (1e9):
 * 128b/130b from Gen3 on, 8b/10b before (TLP/DLLP overhead not removed).
 */
static inline void xf_note_link_ex(struct gm_case_result *cr, const struct gm_device_info *d, const void *buf,
				   int with_cur_gen)
{
	static const double gts_of_gen[] = { 0, 2.5, 5, 8, 16, 32, 64 };
	double gts = xf_sysfs_num(d, "max_link_speed");
	double width = xf_sysfs_num(d, "max_link_width");
	double cur = xf_sysfs_num(d, "current_link_speed");

	if ((gts <= 0 || width <= 0) && d->pcie_gen > 0 && d->pcie_gen <= 6 && d->pcie_width > 0) {
		gts = gts_of_gen[d->pcie_gen];   /* NVML's current link when sysfs has none */
		width = d->pcie_width;
	}
	int gen = xf_pcie_gen(gts);
	if (gts > 0 && width > 0) {
		gm_result_note(cr, "pcie_gen", GM_UNIT_RATIO, gen);
		gm_result_note(cr, "pcie_width", GM_UNIT_RATIO, width);
		gm_result_note(cr, "pcie_link_gbs", GM_UNIT_GBS,
			       gts * width * (gen >= 3 ? 128.0 / 130.0 : 0.8) / 8.0);
	}
	if (cur > 0 && with_cur_gen)
		gm_result_note(cr, "pcie_cur_gen", GM_UNIT_RATIO, xf_pcie_gen(cur));
	if (with_cur_gen)
		gm_result_note(cr, "gpu_numa_node", GM_UNIT_RATIO, xf_sysfs_num(d, "numa_node"));
	if (buf)
		gm_result_note(cr, "buffer_numa_node", GM_UNIT_RATIO, xf_numa_node_of(buf));
}

static inline void xf_note_link(struct gm_case_result *cr, const struct gm_device_info *d, const void *buf)
{
	xf_note_link_ex(cr, d, buf, 1);
}

/* Grid-stride copy of 16-byte words: over mapped host memory or a peer's memory. */
__global__ void xf_copy_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out, size_t n);

static inline gm_status xf_copy_launch(const void *in, void *out, size_t bytes, const struct gm_device_info *d,
				       cudaStream_t s)
{
	size_t n = bytes / 16;
	unsigned grid = gm_resident_blocks(d, 256);
	unsigned need = gm_blocks_for(n, 256);
	xf_copy_kernel<<<need < grid ? need : grid, 256, 0, s>>>((const uint4 *)in, (uint4 *)out, n);
	GM_CU_LAUNCH();
	return GM_OK;
}

#endif
