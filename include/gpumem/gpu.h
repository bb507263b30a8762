/*
 * gpu.h - the device layer as seen from pure C: device query, memory,
 * stream, event timer. Implemented by src/gpu/gpu_cuda.c (cudart) or by
 * src/gpu/gpu_stub.c in builds without CUDA, where every call returns
 * GM_ERR_NO_DEVICE. No CUDA type appears here.
 */
#ifndef GPUMEM_GPU_H
#define GPUMEM_GPU_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gm_device_info {
	int index;
	char name[256];
	int cc_major, cc_minor;
	int sm_count;
	int sm_clock_khz;        /* peak SM clock */
	int mem_clock_khz;       /* peak memory clock */
	int bus_width_bits;
	int64_t l2_bytes;
	int64_t persisting_l2_max_bytes;
	int64_t smem_per_sm;
	int64_t smem_per_block_optin;
	int64_t total_mem, free_mem;
	int ecc;
	int driver_version, runtime_version; /* 13000 = 13.0 */
	int pci_domain, pci_bus, pci_device;
	int pcie_gen, pcie_width;            /* -1 when unknown (no NVML) */
	int max_threads_per_sm;
	double peak_gbs;                     /* 2 * mem_clock * bus_width / 8, GB/s (1e9) */
	char uuid[48];                       /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L; "" unknown */
};

/* Number of visible CUDA devices; GM_ERR_NO_DEVICE / GM_ERR_DRIVER if none. */
gm_status gm_gpu_count(int *n);

/* Make device `index` current and fill *info. */
gm_status gm_gpu_open(int index, struct gm_device_info *info);

/* Free and total device memory now. */
gm_status gm_gpu_mem_info(int64_t *free_bytes, int64_t *total_bytes);

/* Peak DRAM bandwidth in GB/s from clock (kHz) and bus width (bits). */
double gm_peak_gbs(int mem_clock_khz, int bus_width_bits);

/*
 * Device allocation that refuses, before calling cudaMalloc, a request that
 * would not fit into free memory (GM_ERR_TOO_LARGE with the free amount in
 * gm_last_error()).
 */
gm_status gm_gpu_alloc(void **p, size_t bytes);
/*
 * Free device memory from cudaMalloc (NULL is a no-op). With scrubbing on
 * (run --scrub) the whole allocation is zeroed first and the zeroing is
 * waited for, so nothing of it is left for the next allocation to read.
 */
void gm_gpu_free(void *p);
/*
 * gm_gpu_free for memory the harness stream does not reach: a buffer of the
 * device made current with cudaSetDevice (a peer's), managed memory. With
 * scrubbing on, zeroed by a synchronous cudaMemset on the current device first.
 */
void gm_gpu_free_here(void *p);
/* Free pinned host memory from cudaMallocHost/cudaHostAlloc of bytes; zeroed first with scrubbing on. */
void gm_gpu_free_host(void *p, size_t bytes);
/* cudaFreeAsync of bytes at p on stream (a cudaStream_t); with scrubbing on, a memset of them on it first. */
gm_status gm_gpu_free_async(void *p, size_t bytes, void *stream);

/*
 * Scrubbing on free (run --scrub), off by default: gm_gpu_free and
 * gm_gpu_free_host zero what they free. Set before the run, read anywhere.
 */
void gm_gpu_set_scrub(int on);
int gm_gpu_scrub_on(void);
/* Zero the whole device allocation p points into and wait for it (what a scrubbed free does first). */
gm_status gm_gpu_zero_alloc(void *p);
gm_status gm_gpu_sync(void);

/* The harness stream (a cudaStream_t) that every timed launch uses. */
void *gm_gpu_stream(void);

/*
 * A chain of CUDA events on the harness stream. Recording marks 0..n-1
 * between launches and reading them after one synchronisation times n-1
 * back-to-back samples: the GPU never idles between samples (an idle gap
 * made the following sample up to 15 % slower on an H100).
 */
struct gm_timer;
gm_status gm_timer_create(struct gm_timer **t, int marks);
gm_status gm_timer_mark(struct gm_timer *t, int i);
/* Waits for mark j; milliseconds between marks i and j. */
gm_status gm_timer_between_ms(struct gm_timer *t, int i, int j, double *ms);
void gm_timer_destroy(struct gm_timer *t);

/*
 * Device state that cases may change and must restore (struct
 * gm_device_state, result.h): read now, so a run can record it before and
 * after and show that nothing was left changed.
 */
struct gm_device_state;
gm_status gm_gpu_state_read(struct gm_device_state *st);

/*
 * An NVTX range named after a case around its timed region, so that runs under
 * Nsight Systems or Nsight Compute (--nvtx --nvtx-include "copy.v5_b16_ilp4/")
 * can be filtered by case. NVTX v3 is header-only: without a tool attached
 * these cost a branch and load nothing.
 */
void gm_gpu_range_push(const char *name);
void gm_gpu_range_pop(void);

/* Release everything the device layer holds (stream, primary context use). */
void gm_gpu_close(void);

/*
 * Forget the CUDA runtime's last error. The runner calls it after each case's
 * release: an error the case ignored (a release has no status to return) must
 * not fail the next case's first launch check (found by the fault walk).
 */
void gm_gpu_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
