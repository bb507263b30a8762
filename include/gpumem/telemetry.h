/*
 * telemetry.h - where a GPU sits and what it does while a run goes on, from
 * NVML (loaded at run time by dlopen; absent NVML = no telemetry, never an
 * error) and sysfs (NUMA node). Keyed by PCI bus id, so a parent process can
 * watch the GPUs its child processes run on without touching CUDA. Pure C.
 */
#ifndef GPUMEM_TELEMETRY_H
#define GPUMEM_TELEMETRY_H

#include <stddef.h>
#include "gpumem/fleet.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load and initialise NVML; GM_ERR_NOT_FOUND (with the reason) when it is not there. */
gm_status gm_tel_open(void);
void gm_tel_close(void);

/* PCI bus id of CUDA device `index` ("0000:19:00.0"); GM_ERR_NO_DEVICE without CUDA. */
gm_status gm_gpu_bus_id(int index, char *buf, size_t n);

/* Fill name, UUID, NUMA node, PCIe link (current, max) of the GPU at bus id p->pci_bus_id. */
void gm_tel_place(struct gm_placement *p);

/* A running min/median/max of one device's samples. */
struct gm_tel_acc {
	int n;
	double sm[2048];             /* SM clock samples for the median (first 2048) */
	struct gm_telemetry t;
};
void gm_tel_acc_init(struct gm_tel_acc *a);
/* One sample of clocks, temperature, power, throttle reasons, processes. */
void gm_tel_sample(const char *bus_id, struct gm_tel_acc *a);
/* Medians, ECC counts at the end; copies into *out. */
void gm_tel_finish(const char *bus_id, struct gm_tel_acc *a, struct gm_telemetry *out);

#ifdef __cplusplus
}
#endif
#endif
