/*
 * model.h - the exact access-pattern model (pure C, no CUDA, no I/O).
 *
 * Given the index expression of one warp-level memory instruction, the model
 * computes every active lane's byte address and from those the quantities the
 * hardware counters report:
 *   global memory: requests, 32-byte sectors, 128-byte lines, bytes requested
 *                  vs transferred (l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_*);
 *   shared memory: wavefronts, the ideal wavefronts for the access width, bank
 *                  conflicts (= wavefronts above ideal, Nsight Compute's sense)
 *                  and the worst k-way bank (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*,
 *                  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*).
 * The rules and the measurements behind each are in docs/MODEL.md.
 */
#ifndef GPUMEM_MODEL_H
#define GPUMEM_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_WARP_SIZE 32
#define GM_SECTOR_BYTES 32
#define GM_LINE_BYTES 128
#define GM_SMEM_BANKS 32
#define GM_SMEM_BANK_BYTES 4

/* ---- index expressions ------------------------------------------------ */

struct gm_expr; /* a parsed expression; opaque */

/* Where and why parsing or evaluation failed. */
struct gm_expr_error {
	size_t pos;     /* byte offset into the text of the fault (parse errors) */
	int lane;       /* lane where evaluation failed, -1 if not lane-specific */
	char msg[160];  /* lowercase, problem first: "unknown variable 'foo' ..." */
	const char *text; /* gm_model_predict: the expression at fault (a->index
			     or a->active), NULL when the fault is not in one */
};

#define GM_EXPR_MAX_LEN 4096  /* longest expression text accepted, bytes */
#define GM_EXPR_MAX_DEPTH 200 /* deepest nesting of sub-expressions */

/*
 * The variables an expression may name. Every value is a 64-bit signed
 * integer. Names accepted: lane warp tid, threadIdx.x/y/z (tx ty tz),
 * blockIdx.x/y/z (bx by bz), blockDim.x/y/z (bdx bdy bdz), gid (the global
 * linear thread id of a 1D grid: bx * threads per block + tid) and n (the
 * threads of the launch).
 */
struct gm_thread_vars {
	int64_t lane, warp, tid;
	int64_t tx, ty, tz;
	int64_t bx, by, bz;
	int64_t bdx, bdy, bdz;
	int64_t gid, n;
};

/* Parse C-like integer expression text. On error *out is NULL and err is set. */
gm_status gm_expr_parse(const char *text, struct gm_expr **out,
			struct gm_expr_error *err);
void gm_expr_free(struct gm_expr *e);

/*
 * Evaluate with 64-bit arithmetic. Division/modulo by zero, shifts out of
 * [0,63] and signed overflow are GM_ERR_EVAL with err->msg set (err->lane is
 * copied from vars->lane).
 */
gm_status gm_expr_eval(const struct gm_expr *e, const struct gm_thread_vars *v,
		       int64_t *out, struct gm_expr_error *err);

/*
 * The expression as CUDA C source over 64-bit signed variables named as in
 * the expression language (threadIdx.x and tx both become tx_, ...), for
 * kernels generated around it (`explain --run`). The text is parsed first, so
 * only the language's tokens reach the output. GM_ERR_PARSE with err set, or
 * GM_ERR_INVALID_ARG when out is too small.
 */
gm_status gm_expr_to_c(const char *text, char *out, size_t n, struct gm_expr_error *err);
/* The declarations of those variables for a kernel of a 1D grid, `n` given as `n_arg`. */
const char *gm_expr_c_prelude(void);

/* ---- one warp's access ------------------------------------------------ */

enum gm_space { GM_SPACE_GLOBAL = 0, GM_SPACE_SHARED = 1 };
enum gm_op { GM_OP_LOAD = 0, GM_OP_STORE = 1 };

struct gm_access {
	enum gm_space space;
	enum gm_op op;
	int elem_bytes;       /* 1, 2, 4, 8 or 16 */
	int block[3];         /* blockDim; product <= 1024 */
	int block_idx[3];     /* blockIdx */
	int warp;             /* warp index inside the block */
	int64_t base;         /* byte offset of element 0 from a 256 B aligned start */
	const char *index;    /* index expression (elements) */
	const char *active;   /* lanes where this is non-zero are active; NULL = all */
	int64_t n_threads;    /* value of `n` (threads of the launch); 0 = one block */
};

/* The variables of thread gid of a 1D launch of n threads in blocks of a->block (by = bz = 0). */
void gm_thread_vars_1d(const struct gm_access *a, int64_t n, int64_t gid, struct gm_thread_vars *v);

struct gm_lane {
	int active;
	int64_t index;        /* value of the index expression */
	int64_t addr;         /* base + index * elem_bytes */
	int64_t unit;         /* sector (global) or bank (shared) of addr */
	int exists;           /* 0 past the end of a partial last warp */
	int64_t sector;       /* addr / 32 */
	int64_t line;         /* addr / 128 */
	int64_t word;         /* addr / 4: the first 32-bit word touched */
	int bank;             /* word % 32 */
};

struct gm_global_counts {
	int64_t requests;          /* 1 per instruction with >= 1 active lane */
	int64_t sectors;           /* distinct 32 B sectors touched */
	int64_t lines;             /* distinct 128 B lines touched */
	int64_t bytes_requested;   /* active lanes * elem_bytes */
	int64_t bytes_transferred; /* sectors * 32 */
	double efficiency_pct;     /* 100 * requested / transferred, at most 100 */
	int64_t min_sectors;       /* ceil(distinct bytes touched / 32): the
				      fewest sectors any layout of them needs */
};

struct gm_shared_counts {
	int64_t wavefronts;        /* passes through the 32 banks */
	int64_t ideal_wavefronts;  /* least possible for this width and lane count */
	int64_t bank_conflicts;    /* wavefronts - ideal_wavefronts */
	int max_ways;              /* k of "k-way": most distinct words one bank holds in one phase */
	int broadcast;             /* 1 if some word serves more than one lane */
};

struct gm_prediction {
	struct gm_lane lanes[GM_WARP_SIZE];
	int nactive;
	struct gm_global_counts global;   /* valid when space == GLOBAL */
	struct gm_shared_counts shared;   /* valid when space == SHARED */
	char verdict[256];                /* one line: what is wrong and the fix */
	int nlanes;                       /* lanes that exist (< 32 in a partial warp) */
	int stride_known;                 /* active lanes are evenly spaced */
	int64_t stride_bytes;             /* address step from lane to lane, if known */
};

/*
 * Predict what one warp-level instruction costs. Validates the access
 * (element size, block <= 1024 threads, warp inside the block, addresses
 * non-negative and aligned to elem_bytes): on a bad access returns
 * GM_ERR_INVALID_ARG / GM_ERR_PARSE / GM_ERR_EVAL with err filled.
 */
gm_status gm_model_predict(const struct gm_access *a, struct gm_prediction *p,
			   struct gm_expr_error *err);

/* The model over a 1D launch of n threads, sampled (src/model/launch.c). */
struct gm_launch_sample {
	int64_t warps;              /* warps of the launch */
	int sampled;                /* warps predicted, spread evenly over the grid */
	double requests_per_warp;   /* global: mean requests of a sampled warp */
	double sectors_per_warp;    /* global: mean 32 B sectors of a sampled warp */
};
/*
 * a describes warp 0 of block 0 (block, element, index, base); blockIdx.x and
 * the warp vary over up to `samples` warps; threads with gid >= n are
 * inactive. GM_ERR_EVAL / GM_ERR_INVALID_ARG as gm_model_predict for the first
 * sampled warp that fails.
 */
gm_status gm_launch_sample(const struct gm_access *a, int64_t n, int samples, struct gm_launch_sample *out,
			   struct gm_expr_error *err);

/*
 * The counting rules alone, for lanes whose addresses are already known
 * (lanes[i].active and .addr are read, addr in [0, INT64_MAX - 16]; elem_bytes
 * 1, 2, 4, 8 or 16, anything else gives all-zero counts). gm_model_predict uses
 * these; a probe that records real addresses can use them too.
 */
void gm_global_counts_of(const struct gm_lane lanes[GM_WARP_SIZE],
			 int elem_bytes, struct gm_global_counts *c);
void gm_shared_counts_of(const struct gm_lane lanes[GM_WARP_SIZE],
			 int elem_bytes, enum gm_op op, struct gm_shared_counts *c);

/*
 * Shared memory: how many consecutive lanes form one phase (one pass of the
 * bank arbiter) for this access width and direction: loads 32 lanes up to
 * 8 B, 16 for 16 B; stores 32 up to 4 B, 16 for 8 B, 8 for 16 B. Measured
 * with hardware counters (docs/MODEL.md); the one place the rule lives.
 */
int gm_smem_lanes_per_phase(int elem_bytes, enum gm_op op);

/* Map a C/CUDA type name ("float4", "double", "half", ...) to its size; 0 if unknown. */
int gm_type_bytes(const char *name);

#ifdef __cplusplus
}
#endif
#endif
