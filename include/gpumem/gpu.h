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
void gm_gpu_free(void *p);
gm_status gm_gpu_sync(void);

/* The harness stream (a cudaStream_t) that every timed launch uses. */
void *gm_gpu_stream(void);

/* Event pair timer on the harness stream. */
struct gm_timer;
gm_status gm_timer_create(struct gm_timer **t);
gm_status gm_timer_start(struct gm_timer *t);
gm_status gm_timer_stop(struct gm_timer *t);
/* Waits for the stop event; milliseconds between start and stop. */
gm_status gm_timer_elapsed_ms(struct gm_timer *t, double *ms);
void gm_timer_destroy(struct gm_timer *t);

/* Release everything the device layer holds (stream, primary context use). */
void gm_gpu_close(void);

#ifdef __cplusplus
}
#endif
#endif
