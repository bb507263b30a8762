/*
 * probe.h - the model-vs-counters probe patterns built into gpumem
 * (`gpumem selftest --counters`). tests/gpu/patterns.tsv is turned into one
 * small kernel per pattern at build time (tests/gpu/probe_gen.c); each does
 * its warp access once, in one warp of one block, and nothing else that
 * the compared counters see. Implemented in src/gpu/probe_launch.c; without
 * CUDA gm_probe_count() is 0.
 */
#ifndef GPUMEM_PROBE_H
#define GPUMEM_PROBE_H

#include <stddef.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gm_probe_desc {
	int id;
	const char *name;        /* "probe_007" */
	int space;               /* 0 global, 1 shared */
	int op;                  /* 0 load, 1 store */
	int elem_bytes;
	int block[3];
	int warp;
	long long base;
	const char *active, *index, *note;
};

/* One launch of pattern i with smem dynamic shared bytes, on the buffers of gm_probe_buffers. */
struct gm_probe_launch {
	int i;
	size_t smem;
};

int gm_probe_count(void);
void gm_probe_get(int i, struct gm_probe_desc *d);
/* Allocate (zeroed) the global buffer of gbytes and the sink; once before launches. */
gm_status gm_probe_buffers(size_t gbytes);
void gm_probe_buffers_free(void);
/* Launch (a struct gm_probe_launch *) and wait; the signature of a counters launch. */
gm_status gm_probe_launch_fn(void *launch);

#ifdef __cplusplus
}
#endif
#endif
