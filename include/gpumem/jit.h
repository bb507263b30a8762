/*
 * jit.h - `explain --run`: a kernel generated around an index expression,
 * compiled with NVRTC at run time (loaded with dlopen: the binary starts
 * without it), validated and timed by the runner like any case.
 *
 * Semantics (docs/MODEL.md, "explain --run"): a 1D grid of n threads in
 * blocks of block[0] x block[1] x block[2]; gid = blockIdx.x * threads per
 * block + tid. op load: out[gid] = in[EXPR]; op store: out[EXPR] = in[gid].
 * `in` and `out` hold elements of elem_bytes, sized to cover every index the
 * expression reaches (found on the GPU before the timed kernel runs).
 */
#ifndef GPUMEM_JIT_H
#define GPUMEM_JIT_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/bench.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gm_hint { GM_HINT_NONE = 0, GM_HINT_CG, GM_HINT_CS, GM_HINT_LU, GM_HINT_NC };

struct gm_jit_spec {
	const char *expr;        /* the user's expression (for messages) */
	const char *expr_c;      /* gm_expr_to_c of it */
	enum gm_op op;
	int elem_bytes;          /* 1, 2, 4, 8, 16 */
	int block[3];
	int64_t n;               /* threads */
	enum gm_hint hint;
	/*
	 * GM_SPACE_SHARED (op load only): each block first copies its tile of S
	 * elements, in[blockIdx.x * S .. + S), into shared memory (coalesced),
	 * then out[gid] = tile[EXPR]: the warp access the model predicts for
	 * --space shared. S = the largest EXPR + 1 (at most 48 KiB per block).
	 */
	enum gm_space space;
	double bytes_hw;         /* the model's sector bytes per launch (sampled), 0 = unknown */
	/*
	 * A rewrite of `explain --suggest` (include/gpumem/suggest.h): its own
	 * gm_x_run (NULL = the original's), launched as run_threads threads in
	 * blocks of run_block; validated against the original's semantics above.
	 */
	const char *run_src;
	int run_block[3];
	int64_t run_threads;
	int64_t in_pad_bytes, out_pad_bytes; /* in / out start this far past an aligned allocation */
	int layout;              /* load: the timed kernel reads lay[g] = in[EXPR(g)], converted in prepare (timed);
				    store: it writes out compact (out[g]: what the original stores at EXPR(g)),
				    checked as such; the scatter back to EXPR's layout is timed in prepare */
	int smem_padded;         /* --space shared: room for (tile + tile/W + W) elements, W = 128 B / element */
};

/* What the generated kernel did, for the report. */
struct gm_jit_info {
	int64_t index_lo, index_hi;  /* range of EXPR over all threads */
	int64_t in_elems, out_elems;
	double compile_ms;
	char arch[16];               /* "sm_90" */
	gm_status status;            /* why prepare failed (GM_OK if it did not) */
	int64_t bad_gid;             /* first thread with a negative index, -1 if none */
	int64_t tile_elems;          /* --space shared: S, the elements of each block's tile */
	double layout_ms;            /* spec.layout: the conversion (lay[g] = in[EXPR(g)]; store: lay[EXPR(g)] = in[g]),
					events: the median of 5 launches after a first one */
	double layout_first_ms;      /* that first launch (cold: after the fill) */
};

/* Ops for the runner; NULL in a build without CUDA. */
const struct gm_family_ops *gm_jit_ops(void);
/* The CUDA source generated for spec (what --source prints); needs no GPU. */
gm_status gm_jit_source(const struct gm_jit_spec *spec, char *buf, size_t n);
/* The spec the next prepare uses (copied), and where it reports. */
void gm_jit_set(const struct gm_jit_spec *spec, struct gm_jit_info *info);

#ifdef __cplusplus
}
#endif
#endif
