/* trace_launch.h - one traced launch: its description at begin, its counters read back at end. */
#ifndef GPUMEM_TRACE_LAUNCH_H
#define GPUMEM_TRACE_LAUNCH_H

#include <stddef.h>
#include <sanitizer.h>
#include "inject.h"
#include "trace_dev.h"

struct gmt_module {
	CUmodule module;
	int id;
	int patched;
	unsigned char *cubin;    /* a copy, NULL when not kept */
	size_t cubin_size;
	int cubin_written;       /* 1 once saved beside the document for nvdisasm */
};

struct gmt_current {
	int active;
	long ordinal;
	CUfunction function;
	uint64_t grid_id;
	Sanitizer_StreamHandle hstream;
	char kernel[1024];
	unsigned grid[3], block[3];
	int stream, registers, shared_static, local_bytes;
	uint64_t func_pc, func_size;
	double t_begin_ms, traced_ms;  /* host clock: launch begin to the end of the instrumented run */
	struct gmt_module *mod;
	struct gmt_launch *dev;
	struct gmt_launch_hdr hdr;
	double count_scale;            /* blocks / blocks counted (1: every block counted) */
};

struct gmt_module *gmt_module_of(CUmodule m);

void gmt_current_begin(struct gmt_current *c, const Sanitizer_LaunchData *ld, long ordinal,
                       struct gmt_module *m, struct gmt_launch *dev, int stream);
/* read the device buffer back (the launch has ended) and serialise the launch into b; 0 on success */
int gmt_current_collect(struct gmt_current *c, Sanitizer_StreamHandle hs, struct gmt_buf *b);

/* values.c: the instruction's "values" object and a comma (nothing where it has none: q NULL, no lane, not a
   global load or store) */
void gmt_values_json(struct gmt_buf *b, const struct gmt_slot *s, const struct gmt_vsum *q);

#endif
