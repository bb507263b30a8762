/*
 * trace.h - `gpumem trace`'s analysis (issue 38; docs/TRACE.md): the trace
 * document read into structs (src/analysis/trace_read.c), each memory
 * instruction's sampled lane addresses fitted to an index expression of the
 * thread and block ids with a class and a check against the warp model
 * (trace_fit.c), each launch as a kernel: time, DRAM bytes, the roof, the
 * bottlenecks and the launch model's time from all its patterns
 * (trace_kernel.c), and the fixes `explain --suggest` knows, applied to the
 * fitted patterns with the whole kernel's predicted speedup (trace_fix.c).
 * Pure C: no CUDA, no I/O beyond reading the document, nothing printed.
 * The document's format is docs/TRACE.md, "The trace document"; the report's
 * JSON (src/io/trace_json.c) is docs/SCHEMA.md, "gpumem-trace-report/1".
 */
#ifndef GPUMEM_TRACE_H
#define GPUMEM_TRACE_H

#include <stdint.h>
#include "gpumem/launch.h"
#include "gpumem/model.h"
#include "gpumem/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_TRACE_DOC_SCHEMA "gpumem-trace/1"
#define GM_TRACE_REPORT_SCHEMA "gpumem-trace-report/1"

/* ---- the trace document ------------------------------------------------ */

enum gm_trace_space { GM_TS_GLOBAL = 0, GM_TS_SHARED, GM_TS_LOCAL };
enum gm_trace_op { GM_TO_LOAD = 0, GM_TO_STORE, GM_TO_ATOMIC, GM_TO_REDUCTION };

/* One sampled warp-level execution. */
struct gm_trace_sample {
	int block[3];                 /* blockIdx */
	int warp;                     /* warp within its block (linear tid / 32) */
	uint32_t mask;                /* active lanes */
	uint32_t have;                /* lanes whose address the document gives (active, not null) */
	int iter;                     /* executions of this pc by this warp before this one */
	int64_t addr[GM_WARP_SIZE];
};

/*
 * The values of a global load or store over its sampled lanes (the document's "values", docs/TRACE.md, "Values"):
 * counts of lanes, never the values. have 0: the document gives none (an older document, shared or local memory,
 * an atomic, or --samples 0). A count the document does not give is -1.
 */
struct gm_trace_values {
	int have;
	double lanes;                 /* lane values summarised */
	double zero;                  /* lanes whose value is all zero bytes */
	double silent;                /* stores: lanes writing the value already in memory; -1 for a load */
	double float_exact;           /* 8-byte accesses: lanes whose double is exactly a float; -1 otherwise */
	int ints;                     /* 1: min, max, int_bits given (sizes 1-8, the value as a signed integer) */
	int64_t min, max;
	int int_bits;                 /* bits an integer needs for every value (a sign bit where min < 0) */
	int nsmall;                   /* distinct values when every value lies in 0-63 ("small"), else -1 */
	double own_x, own_y;          /* lanes whose value is the thread's own global x (or linear) / y index; -1 */
	double own_elem;              /* lanes whose value is their element's own index (address / size) less one
					 constant of the instruction (idx[j] == j + c); -1 */
};

/* Unknown counts are -1. */
struct gm_trace_instr {
	int64_t pc;                   /* SASS offset in the function, bytes */
	char *sass;                   /* opcode text or NULL */
	char *file;                   /* NULL without line information; the user's call site where the line is in a
	                                 toolkit header inlined there (gm_trace_read) */
	int line;                     /* 0 = unknown */
	char *file_inner;             /* the header's own file:line where file:line is its call site, else NULL, 0 */
	int line_inner;
	enum gm_trace_space space;
	enum gm_trace_op op;
	int size;                     /* bytes per thread access */
	double executions, thread_accesses, sectors, requests, wavefronts, ideal_sectors;
	double ideal_wavefronts;      /* shared: what the same access would need without conflicts (-1) */
	int host;                     /* 1: its sampled addresses lie in mapped (zero-copy) host memory (the document's
					 "memory": "host"); 0: device memory or not recorded */
	struct gm_trace_sample *samples;
	int nsamples;
	struct gm_trace_values values;
};

/* The device's per-SM resources a launch's occupancy is made of (the document's device attributes; 0 where it
   does not give them: trace_occupancy.c takes the compute capability's from the CUDA programming guide's table). */
struct gm_trace_sm {
	int cc;                       /* compute capability x 10 (90 = 9.0); 0 = unknown */
	int64_t smem;                 /* shared memory an SM, bytes (the system's reserve of each block included) */
	int64_t smem_reserved;        /* the system's shared memory each block reserves (1 KiB from cc 8.0) */
	int regs, blocks, threads;    /* registers, resident blocks and resident threads an SM at most */
};

struct gm_trace_launch {
	int64_t index;                /* ordinal among all launches of the program */
	char *kernel, *name;          /* mangled; demangled (or the mangled name) */
	int64_t grid[3];
	int block[3];
	int64_t shared_dynamic, shared_static; /* bytes a block; shared_dynamic -1 = the document does not give it */
	int registers;                /* a thread; 0 = unknown */
	struct gm_trace_sm sm;        /* the device's (gm_trace.dev.sm), copied */
	double time_ms;               /* uninstrumented device time; -1 = unknown */
	char *time_source;            /* NULL = unknown */
	double dram_read_bytes, dram_write_bytes; /* measured; -1 = unknown */
	int lineinfo;                 /* 1, 0, -1 = unknown */
	/* "constant_lane_loads": the SASS's LDC whose index is a per-lane register (a __constant__ table indexed by
	   lane-varying values; nvdisasm), how many, the first's pc and file:line (NULL, 0 without lines) */
	int const_lane;
	int64_t const_lane_pc;
	char *const_lane_file;
	int const_lane_line;
	int64_t local_bytes;          /* the stack frame a thread (the document's local_bytes); -1 = unknown */
	/* "local_instructions" the trace did not record (its "traced" false): the SASS's STL / LDL of ptxas' register
	   spills, which the sanitizer does not report; nspill -1 = the document does not list the SASS's */
	struct gm_trace_spill {
		int64_t pc;
		int store;            /* STL 1, LDL 0 */
		int bytes;            /* a thread's at one execution (the opcode's width: .64 8, .128 16, .U8 1 ...) */
		char *file;           /* NULL, line 0 without lines */
		int line;
	} *spill;
	int nspill;
	struct gm_trace_instr *ins;
	int nins;
};

struct gm_trace {
	char *tool_version, *commit;
	char **argv;
	int argc;
	int exit_status, signal, timed_out, passes;
	double wall_s;
	struct {
		int index, sm_count;
		char *name, *uuid, *cc;
		int64_t l2_bytes, clock_khz;
		int driver, runtime;
		struct gm_trace_sm sm;
	} dev;
	struct {
		char *kernel_regex;
		int64_t launch_skip, launch_count;
		int sample_warps;
		double timeout_s;
	} opts;
	char **notes;
	int nnotes;
	struct gm_trace_launch *launches;
	int nlaunches;
};

/*
 * Read a trace document (plain or gzip-compressed JSON). GM_ERR_IO when the
 * file cannot be read, GM_ERR_PARSE when it is not JSON, not of schema
 * "gpumem-trace/1" or a field has the wrong type; gm_last_error() says which
 * in one line naming the file. t is initialised here; release it with
 * gm_trace_free also on failure.
 */
gm_status gm_trace_read(const char *path, struct gm_trace *t);
/* The same from a parsed jansson document (json_t *); origin names it in messages. */
gm_status gm_trace_read_json(const void *doc, const char *origin, struct gm_trace *t);
void gm_trace_free(struct gm_trace *t);

/* The report's words for spaces, operations and classes (src/io/trace_names.c). */
const char *gm_trace_space_name(enum gm_trace_space s);
const char *gm_trace_op_name(enum gm_trace_op o);
/* Where an instruction is, for a report: "file:line" (the file's base name cut to `width` characters), or
   "pc 0x..." without a line. */
void gm_trace_where(const struct gm_trace_instr *in, int width, char *buf, size_t n);

/* ---- the fit: lane addresses as an index expression --------------------- */

/*
 * The variables a fitted map uses: tx..bz as in the expression language, iter = the loop count (how many
 * times the warp ran this pc before), gid = the linear thread id of the launch,
 * (bx + gx * (by + gy * bz)) * threads per block + linear tid (the 1D model's gid).
 */
enum gm_trace_var { GM_TV_TX = 0, GM_TV_TY, GM_TV_TZ, GM_TV_BX, GM_TV_BY, GM_TV_BZ, GM_TV_ITER, GM_TV_GID, GM_TV_N };

#define GM_TRACE_MODES 24
#define GM_TRACE_ITER_TAB 32
#define GM_TRACE_MAX_INSNS 512     /* memory instructions of one kernel listed and fixed */

/* A mode: stride * ((var / div) % size); size 0 = no modulo (the mode runs over the whole range). */
struct gm_trace_mode {
	int var;
	int64_t div, size, stride;
};

/*
 * element index = offset + sum of the modes; byte address = base + index * elem_bytes.
 * base is 256 B aligned, chosen so that no thread of the launch has a negative index.
 */
struct gm_trace_map {
	int known;
	int64_t base;
	int elem_bytes;
	int64_t offset;
	struct gm_trace_mode mode[GM_TRACE_MODES];
	int nmodes;
	int64_t iter_step;            /* elements per loop iteration (the iter modes), 0 = none; with a table:
					 its mean step (the launch model's repeat) */
	int niter_tab;                /* > 0: the loop moves the index by iter_tab[iter] (a tree reduction's
					 halving stride), not by iter * iter_step; past the table by iter_step */
	int64_t iter_tab[GM_TRACE_ITER_TAB];
	unsigned open;                /* bit v: the samples never varied id v (value open_v0[v]) */
	int64_t open_v0[GM_TV_N];
	unsigned assumed;             /* bit v: of those, v's stride is the prior's (trace_prior.c), not measured */
};

enum gm_trace_class {
	GM_TC_COALESCED = 0,   /* consecutive lanes, consecutive elements, aligned */
	GM_TC_MISALIGNED,      /* consecutive, but the warp's start is off its 32 B sectors */
	GM_TC_STRIDED,         /* lanes k elements apart (k = cls_k), no other axis walks the rows */
	GM_TC_COLUMN,          /* lanes a row apart while a slower axis walks along the row */
	GM_TC_TRANSPOSED,      /* a 2D block whose x axis walks columns and y axis rows */
	GM_TC_BROADCAST,       /* every lane the same element */
	GM_TC_GATHER,          /* no map of the ids fits: the addresses come from the data */
	GM_TC_BANKS,           /* shared: k-way bank conflicts (k = cls_k) */
	GM_TC_SHARED_OK,       /* shared: conflict-free */
	GM_TC_IRREGULAR,       /* a map fits, none of the above (several strides within the warp) */
	GM_TC_UNSAMPLED,       /* no sampled lane: counts only (--samples 0, or the collector's pool ran out) */
	GM_TC_ROWSTARTS,       /* no map fits; lanes rise by rows of their own lengths (row starts read, CSR) */
	GM_TC_COMPUTED,        /* no map fits; lanes rise by 0 or 1 step (a scaled coordinate rounded) */
	GM_TC_LOCAL_INDEXED,   /* local: lanes at different offsets of their stacks (an array indexed at run time) */
	GM_TC_RECORDS,         /* strided pieces whose siblings read or write every byte of each record (trace_class_records.c) */
	GM_TC_COUNT
};

/* The class's name ("coalesced", "strided", ...; src/io/trace_names.c). */
const char *gm_trace_class_name(enum gm_trace_class c);

/* One instruction's fit, class and check. Unknown figures are -1. */
struct gm_trace_fit {
	struct gm_trace_map map;
	char expr[512];               /* the index (elements) in tx ty tz bx by bz, iteration 0; "" if unknown */
	char expr1d[640];             /* the same for a 1D launch model (by, bz through bx), `explain`'s form;
					 a gather: its stand-in for the launch model (approx = 1), see below */
	int approx;                   /* map.known = 0 and expr1d models the gather: lanes k elements apart
					 (k from the measured sectors per request) inside the footprint the samples span */
	char why[200];                /* map.known = 0: why no map fits */
	int lanes_sorted;             /* stage E: the map is of each warp's lowest address with its lanes in order;
					 the kernel's lanes read the same consecutive elements in another order */
	int edge;                     /* stage G: the map is of the interior blocks' lanes; this many sampled warps
					 at the grid's edge (a clamped stencil's border) read elsewhere */
	int lanes;                    /* lane addresses fitted */
	int iters;                    /* loop iterations a warp runs (executions / warps), >= 1 */
	enum gm_trace_class cls;
	int64_t cls_k;                /* strided: k elements; column: the row in elements; banks: k-way */
	char cls_text[160];           /* the class in words, e.g. "strided by 32 (lanes 128 B apart)" */
	double meas_per_req;          /* measured sectors (global/local) or wavefronts (shared) per request */
	double ideal_per_req;         /* measured ideal sectors per request, or the model's ideal wavefronts */
	double sample_per_req;        /* the sampled addresses counted by the warp model's rules */
	double model_per_req;         /* the warp model on the fitted expression, the sampled warps and masks */
	double check_diff_pct;        /* 100 * (model / measured - 1) */
	int check_ok;                 /* 1: |diff| <= GM_TRACE_CHECK_PCT; 0: it differs; -1: not checked */
};
#define GM_TRACE_CHECK_PCT 1.0

/*
 * Fit one instruction of launch l: the map, the expressions, the class, the
 * check. Never fails: a gather sets map.known = 0 with why.
 */
void gm_trace_fit_instr(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f);

/* The map as expression text (iter included when with_iter), e.g. "bx*256 + tx + iter*32"; -1 if n is short. */
int gm_trace_map_expr(const struct gm_trace_map *m, const int block[3], const int64_t grid[3], int one_d,
		      int with_iter, char *out, size_t n);
/* What iteration `iter` adds to the index (elements): iter * iter_step, or the table's entry. */
int64_t gm_trace_map_iter(const struct gm_trace_map *m, int64_t iter);
/* The map's element index for one thread (vars indexed by enum gm_trace_var). */
int64_t gm_trace_map_eval(const struct gm_trace_map *m, const int64_t v[GM_TV_N]);

/* ---- the kernel and its fixes ------------------------------------------- */

struct gm_trace_fix {
	int have;                     /* a fix was looked for: this instruction leads its group */
	int same_as;                  /* not 0: instruction same_as - 1 leads the group (the same change) */
	int ninstr;                   /* instructions the change covers */
	double share;                 /* their share of the kernel's memory time (the model's) */
	char rewrite[32];             /* suggest's best applicable rewrite, "" when none */
	char change[200];             /* what it changes (suggest's row) */
	double pattern_speedup;       /* the rewrite's predicted speedup of the pattern in isolation */
	double kernel_speedup;        /* the whole kernel: the launch model with the group's patterns replaced,
					 the saving off the measured time (Amdahl without a prediction) */
	int worth;                    /* kernel_speedup >= GM_TRACE_WORTH */
	int wide;                     /* rule wide_fix: the elements a thread (lane) of the fixed kernel would take as
					 one access (0: none) */
	double wide_speedup;          /* the whole kernel's speedup with them (not in kernel_speedup) */
	char words[400];              /* the change at the user's line, in words */
	char sketch[600];             /* a short CUDA sketch */
};
#define GM_TRACE_WORTH 1.05
/* a kernel whose model memory time is under this part of its measured time spends it outside the memory
   instructions (the verdict's primary; wide_loads then amortises the threads' own instructions) */
#define GM_TRACE_OUTSIDE 0.6

struct gm_trace_insn {
	const struct gm_trace_instr *in;
	struct gm_trace_fit fit;
	double bytes;                 /* global/local: sectors * 32; shared: wavefronts * 128 */
	double excess_bytes;          /* over the ideal */
	double share;                 /* of the kernel's global + local sector bytes (shared: of its wavefronts) */
	double time_share;            /* share of the kernel's memory time: 1 - the model's time without its group
					 (trace_fix's one change) / with it, split by bytes, x min(1, predicted /
					 measured); its traffic share x that where the model was not asked */
	struct gm_trace_fix fix;
	int sector_hit;               /* rule H (trace_fold.c): a load of a walk whose every sampled lane reads a sector
					 other walks of its warps read; left out of the model's patterns */
	int computed;                 /* rule CS (trace_computed.c): a gather whose addresses are arithmetic on the
					 thread's index (1: nothing before it returns data; 2: beside such a one;
					 3: its lanes' elements a polynomial of the index) */
};

/* The share of the measured time the busiest memory level needs at its roof above which a kernel counts as
   memory-bound (Nsight Compute's Speed Of Light reading: a unit at 60 % of its peak or more is the bottleneck;
   under 60 % everywhere, latency). */
#define GM_TRACE_MEMORY_BOUND 0.6

/* ---- the waste values show (src/analysis/trace_values.c; docs/TRACE.md, "Values") ---- */

enum gm_trace_value_rule {
	GM_TVR_NARROW_INT = 0,         /* integers far narrower than their type (int64 holding 0-255): a narrower type */
	GM_TVR_FLOAT_EXACT,            /* float64 data whose every value is exactly a float32: float */
	GM_TVR_SILENT_STORE,           /* stores writing the value already in memory: store only where it changes */
	GM_TVR_ZERO_LOAD,              /* loads of data that is all zeros: drop the load */
	GM_TVR_CONST_LOAD,             /* loads of data that is one value: pass it as an argument */
	GM_TVR_OWN_INDEX,              /* loads whose value is the thread's own index (idx[i] == i): use the index */
	GM_TVR_RULES
};
/* lanes a finding needs: fewer sampled values and the rule says only that the sample is too small */
#define GM_TRACE_VALUE_MIN_LANES 256
#define GM_TRACE_VALUE_MAX 16

struct gm_trace_value_finding {
	enum gm_trace_value_rule rule;
	int ins;                      /* the instruction (k->ins) */
	int refused;                  /* 1: the values point at the waste but the sample is too small, or the fix does
					 not pay (words say which); no speedup */
	int new_size;                 /* narrow_int / float_exact: bytes an element after the fix; else 0 */
	double fraction;              /* silent_store: the sampled lanes writing the old value; else 1 */
	double bytes;                 /* the sector bytes the fix no longer moves (the launch's, from its counts) */
	int priced;                   /* 1: kernel_speedup is the launch model's; 0: not priced (no prediction) */
	double kernel_speedup;        /* the whole kernel, the launch model with the change (1: not priced) */
	int worth;                    /* kernel_speedup >= GM_TRACE_WORTH */
	char words[500];              /* what the values show and the fix, in words */
	char sketch[400];             /* a short CUDA sketch */
};

struct gm_trace_kernel {
	const struct gm_trace_launch *l;
	struct gm_trace_insn *ins;
	int nins;
	int64_t threads;
	double time_ms;               /* measured, -1 = unknown */
	double dram_bytes;            /* measured if known, else predicted; -1 = neither */
	int dram_measured;
	double gbs;                   /* dram_bytes / time; -1 */
	double roof_gbs;              /* the profile's dense DRAM read bandwidth */
	double roof_pct;
	/* memory-bound (docs/TRACE.md, "Memory-bound"): the time each level needs for the kernel's traffic at the
	   profile's measured roofs; bound_share = the largest over the measured time; memory_bound = 1 when it is
	   GM_TRACE_MEMORY_BOUND or more, 0 under it, -1 without a measured time */
	double bound_dram_ms, bound_l2_ms, bound_l1_ms;
	double bound_share;           /* -1 = unknown */
	const char *bound_level;      /* "DRAM" | "L2" | "L1" | NULL */
	int memory_bound;
	int pred_ok;
	char pred_why[200];           /* pred_ok = 0: why; else what the prediction leaves out, or "" */
	struct gm_launch_out pred;    /* the launch model over every fitted pattern */
	double pred_err_pct;          /* 100 * (predicted / measured - 1), when both */
	double pred_lo_ms, pred_hi_ms; /* the launch model's interval (docs/MODEL.md 7.6) as times; -1 = none */
	const char *limited_by;       /* the prediction's slowest level, or "unknown" */
	int atomic_at;                /* rule X limits the prediction: the atomic of its address (k->ins), else -1 */
	char primary[300], secondary[300];
	int order[GM_TRACE_MAX_INSNS]; /* instructions by traffic, largest first (at most GM_TRACE_MAX_INSNS:
					  the rest are not listed, the report says how many) */
	int norder;
	double mem_ms;                /* the launch model without rule R2's round trips (trace_kernel.c): what
					 the instructions' time shares and the fixes are weighed against; -1 */
	int trips;                    /* rule R2: the round trips a thread waits for, in k->pred */
	double steps_ms;              /* rule B: the barrier steps of a shared-memory loop, added to k->pred */
	double turns_ms;              /* rule A: the turns of atomics' lanes on one address a warp, added to k->pred */
	double nf_model_ms;           /* rule NF: the prediction before a named pattern's floor raised it, ms; 0 = none */
	const char *nf_limited_by;    /* rule NF: the level that limited it before (the verdict's latency candidate) */
	int turns_at;                 /* rule A: the atomic with the most turns (k->ins), else -1 */
	double cas_ms;                /* rule SA: a shared atomic's compare-and-swap loop on one word, ms; 0: none */
	double cas_rest_ms;           /* rule SA: the kernel's time with that loop left out */
	int cas_at;                   /* rule SA: the loop's atomic (k->ins), else -1 */
	double gcas_ms;               /* rule GC: a global compare-and-swap retry loop's rounds queued at the L2 slices,
					 added to k->pred, ms; 0: none */
	int gcas_at;                  /* rule GC: the loop's CAS (k->ins), else -1 */
	double smem_scale;            /* rule V: the measured shared wavefronts over the launch model's, in every
					 prediction of the kernel (fixes too); 0 = none */
	int warp_private;             /* rule P: each warp's shared addresses its own (no block barrier) */
	double local_span;            /* rule LA: the bytes a thread's local stack spans (its sampled offsets), 0: none */
	struct gm_trace_occ {         /* rule OC (trace_occupancy.c): the resident blocks an SM */
		int blocks;           /* the launch gets: min of the four below; 0 = unknown */
		int of;               /* its threads and the SM's block slots alone would allow */
		int by_smem, by_regs; /* each resource's limit; 0 = not known */
		int64_t smem_block;   /* shared bytes a block takes: static + dynamic + the system's, rounded up */
		int64_t reserve;      /* of it, the system's */
		int64_t smem_used;    /* bytes the sampled shared accesses span (0: none sampled) */
		int dynamic_known;    /* the document gives the dynamic size */
		const char *limit;    /* "shared memory" | "registers" | NULL: the threads and slots */
		int need_blocks;      /* the blocks an SM with only smem_used reserved */
		double free_ms;       /* the launch model at need_blocks (0: not asked) */
	} occ;
	int occ_cap;                  /* the blocks an SM tk_predict gives the launch model (0: threads and slots) */
	struct gm_trace_value_finding *vf; /* the waste its values show (trace_values.c), owned; NULL when none */
	int nvf;
	void *run;                    /* --run's result for the top fix (a jansson object, owned; NULL = none):
					 the "suggest" object of explain --suggest --run --json */
};

/* ---- the run: waste between launches (src/analysis/trace_run.c; docs/TRACE.md, "The run") ---- */

enum gm_trace_run_rule {
	GM_TR_CLEAR_ACC = 0,          /* a launch that only stores (a fill), then the next launch reads every element
					 it stored and stores it back (out += ...): store directly, drop the fill */
	GM_TR_COPY_BACK,              /* a launch that loads exactly what the launch before stored and stores exactly
					 what that launch loaded (the new state copied back): swap the pointers */
	GM_TR_RELOAD,                 /* a launch's output loaded back element for element by the next launch and
					 read by no later one (a temporary): fuse the two, drop the store and the load */
	GM_TR_DROPPED,                /* the next launch loads one of every m of a launch's outputs and no later one
					 reads the rest: compute only the kept outputs, in one launch */
	GM_TR_SAME_INPUT,             /* two launches loading the same input for different outputs: one pass */
	GM_TR_ACC_CHAIN,              /* consecutive launches each loading and storing back one buffer element for
					 element (an accumulator through BLAS-1 calls): one kernel, the value in a register */
	GM_TR_CLONE,                  /* a launch loading two buffers whose sampled values are equal element for
					 element (a copy of the input): read the original, drop the copy */
	GM_TR_DOMAIN,                 /* a launch storing back, unchanged, most of what it loads in place, its work on a
					 part of its threads: launch over the part that changes */
	GM_TR_STEP_LOOP,              /* one kernel launched again and again on one buffer in place, element for
					 element, changing it (a time loop on the host): one launch looping over the steps */
	GM_TR_LOG_PASSES,             /* one kernel launched again and again, each pass reading the one before's output
					 at each element and at a distance that doubles (a scan by passes): one pass */
	GM_TR_LAYOUT_COPY,            /* a launch writing a transposed copy that the next launch reads once and no later
					 one reads: read the original with the indices swapped, drop the copy */
	GM_TR_REDUCE_PASSES,          /* one kernel launched again and again, each pass storing 1/2 to 1/16 of what it
					 loads, the next loading it (a reduction a tree level a launch): one pass */
	GM_TR_BATCH_LAUNCHES          /* one kernel launched again and again on independent slices, each launch under
					 one wave of the GPU (a host loop over small frames): one launch over the batch */
};
#define GM_TR_NRULES 13
/* the rule's name in the report ("clear_acc", "copy_back", "reload", "dropped_stores", "same_input", "acc_chain",
   "clone", "domain", "step_loop", "log_passes", "layout_copy", "reduce_passes", "batch_launches") */
static inline const char *gm_trace_run_rule_name(enum gm_trace_run_rule r)
{
	static const char *const names[GM_TR_NRULES] = { "clear_acc", "copy_back", "reload", "dropped_stores",
							   "same_input", "acc_chain", "clone", "domain",
							   "step_loop", "log_passes", "layout_copy", "reduce_passes",
							   "batch_launches" };

	return (unsigned)r < GM_TR_NRULES ? names[r] : "?";
}
#define GM_TRACE_RUN_MAX 16

/* One run-level finding: two consecutive launches (nothing launched between them) and the buffers they share. */
struct gm_trace_run_finding {
	enum gm_trace_run_rule rule;
	int first, second;            /* the report's kernels (r->k): the fill and the accumulation; the step and the
					 copy; acc_chain, step_loop, log_passes, reduce_passes, batch_launches: the
					 chain's first and last; clone,
					 domain: the launch, twice; layout_copy: the copy and its reader */
	int ins_first, ins_second;    /* the instructions named: the fill's store and the accumulation's load; the
					 step's store and the copy's load; the output's store and the next launch's
					 load of it (reload, dropped_stores); both launches' first load of the input
					 (same_input); the first launch's store and the last's load of the accumulator
					 (acc_chain); the original's load and the clone's (clone); the in-place store
					 and the load only the working threads run (domain); the first launch's load
					 of the state or the input and the last one's store (step_loop, log_passes,
					 reduce_passes);
					 the copy's store and the reader's load of it (layout_copy) */
	int64_t lo, hi;               /* the buffer the rule is about: its first byte, hi - lo the bytes its threads
					 touch (the filled one; the one the copy reads; the output stored; the input) */
	int64_t lo2, hi2;             /* the copy's destination (copy_back), the same way; 0, 0 otherwise */
	int keep;                     /* dropped_stores: the next launch reads 1 output of every keep; 0 otherwise */
	double bytes;                 /* the sector bytes the fix no longer moves (the traced sectors x 32) */
	double saved_ms;              /* of the measured times: the launch dropped, plus the accumulation's load
					 (the launch model without it, the saving off the measured time) */
	double run_speedup;           /* the traced run's launches, measured times summed, over them less saved_ms */
	char words[1400];             /* what the launches do and the fix, in words */
	char sketch[400];             /* a short CUDA sketch */
};

struct gm_trace_across {
	int n;
	struct gm_trace_run_finding f[GM_TRACE_RUN_MAX];
	double run_ms;                /* the traced launches' measured times summed; -1 when one is not measured */
	double saved_ms;              /* every finding's saving */
	double speedup;               /* run_ms / (run_ms - saved_ms); 1 without a finding */
};

struct gm_trace_report {
	const struct gm_trace *t;
	const struct gm_profile *prof;
	struct gm_trace_kernel *k;
	int nk;
	int top;                      /* fixes looked for per kernel */
	struct gm_trace_across across; /* the run-level findings (after every kernel's analysis) */
};

/*
 * Analyse every launch of t with profile prof (top: instructions per kernel
 * that get a fix, 0 = 3). r keeps pointers into t and prof: keep them alive.
 * GM_ERR_NOMEM, or GM_OK (a kernel the model cannot predict says why).
 */
gm_status gm_trace_analyse(const struct gm_trace *t, const struct gm_profile *prof, int top,
			   struct gm_trace_report *r);
void gm_trace_report_free(struct gm_trace_report *r);

/* The kernel's analysis without the fixes (trace_kernel.c; called by gm_trace_analyse); k->ins is
   allocated here (free(k->ins)). GM_ERR_NOMEM or GM_OK. */
gm_status gm_trace_kernel_analyse(const struct gm_trace_launch *l, const struct gm_profile *prof,
				  struct gm_trace_kernel *k);
/* The fixes of the top groups of k's instructions (trace_fix.c), into their leaders' fix. */
void gm_trace_fixes(struct gm_trace_kernel *k, const struct gm_profile *prof, int top);
/* The waste k's sampled values show (trace_values.c), into k->vf (allocated; gm_trace_report_free frees it).
   GM_ERR_NOMEM or GM_OK. */
gm_status gm_trace_values(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* The rule's name ("narrow_int", ...; src/io/trace_names.c) */
const char *gm_trace_value_rule_name(enum gm_trace_value_rule r);

#ifdef __cplusplus
}
#endif
#endif
