/*
 * trace_dev.h - the device buffers of one traced launch, shared by the patch callbacks (patches.cu) and
 * the host side of the injection library (inject.c). Plain C types only: both compilers read it.
 *
 * One traced launch owns one struct gmt_launch in device memory (its pointer is the callbacks' userdata).
 * Per memory instruction (pc) the callbacks find a slot in an open-addressed table and add the warp's
 * figures to one of GMT_STRIPES copies of its counters (stripe = SM id % GMT_STRIPES), so that the
 * atomics of a large launch spread over many addresses; the host sums the stripes.
 */
#ifndef GPUMEM_TRACE_DEV_H
#define GPUMEM_TRACE_DEV_H

#include <stdint.h>

#define GMT_STRIPES 16
#define GMT_SLOTS 4096            /* distinct memory instructions per launch (power of two) */
#define GMT_SAMPLE_POOL 32768     /* warp address samples per launch, all instructions together */

/* Kept lean for a coalesced warp (two atomics): lanes and the ideal are stored as what is missing or in excess. */
enum gmt_counter {
	GMT_EXEC = 0,     /* warp-level executions */
	GMT_MISSING,      /* 32 x executions - thread-level accesses (inactive lanes) */
	GMT_UNITS,        /* global/local: distinct 32 B sectors per execution, summed; shared: wavefronts
	                     per execution (docs/MODEL.md's shared rule), summed */
	GMT_EXCESS,       /* units - ideal (global/local: ceil(distinct bytes / 32); shared: passes) */
	GMT_NCOUNTERS
};

enum gmt_space { GMT_GLOBAL = 1, GMT_SHARED = 2, GMT_LOCAL = 3 };

/* One memory instruction: the key and its description are written once by the lane that claims it. */
struct gmt_slot {
	unsigned long long pc;        /* the callback's pc; 0 = free */
	unsigned int space;           /* enum gmt_space */
	unsigned int size;            /* bytes per thread access */
	unsigned int flags;           /* Sanitizer_DeviceMemoryFlags of the first execution seen */
	unsigned int sample_base;     /* first record in the sample pool + 1; 0 = not yet written, ~0u = pool full */
	unsigned long long counters[GMT_STRIPES][GMT_NCOUNTERS];
};

/* One warp-level execution's addresses. */
struct gmt_sample {
	unsigned int valid;           /* 1 once written */
	unsigned int block_x, block_y, block_z;
	unsigned int warp;            /* linear tid / 32 within the block */
	unsigned int mask;            /* active lanes */
	unsigned int iter;            /* executions of this pc by this warp before this one */
	unsigned int pad;
	unsigned long long addr[32];
};

/*
 * The values of one global memory instruction, summarised over its sampled warp executions (the same ones
 * as its addresses: GMT sample_warps x sample_iters at most) by the sampled warp itself: fixed memory per
 * instruction, whatever the launch. A lane's value is what a store writes (the callback's pData) or what a
 * load reads (read at the address before the load runs); atomics have none. Integer figures read the value
 * as a signed integer of the access size (sizes 1-8); kmax / nkmin hold the signed max and min mapped to
 * unsigned order (key = v ^ 2^63; nkmin = ~min key), so that a zeroed buffer starts them empty.
 * 88 bytes an instruction.
 */
struct gmt_vsum {
	unsigned long long lanes;     /* lane values summarised */
	unsigned long long zero;      /* lanes whose value is all zero bytes */
	unsigned long long fexact;    /* 8-byte lanes whose double is exactly a float (NaN included) */
	unsigned long long silent;    /* stores whose new value equals the value in memory before */
	unsigned long long self_x;    /* lanes whose value is the thread's global x (or linear) index */
	unsigned long long self_y;    /* lanes whose value is the thread's global y index (gridDim.y > 1 only) */
	unsigned long long kmax;      /* max key (sizes 1-8) */
	unsigned long long nkmin;     /* ~min key */
	unsigned long long small;     /* bit v: value v (0 <= v < 64) seen */
	unsigned long long idx_ref;   /* 1 + (address / size - value) of the first sampled warp's leader (0: none yet) */
	unsigned long long own_elem;  /* lanes whose address / size - value is idx_ref - 1: the value is the element's own
	                                 index plus the instruction's constant (an identity array idx[j] == j) */
};

/* What the host sets before the launch and the callbacks' totals. */
struct gmt_launch_hdr {
	unsigned long long total_warps;   /* warps in the grid */
	unsigned long long total_blocks;  /* blocks in the grid */
	double s_over_b;                  /* sample_warps / sample_blocks */
	unsigned int warps_per_block;
	unsigned int sample_warps;        /* warps sampled (spread over the grid), at most GMT_MAX_SAMPLE_WARPS */
	unsigned int sample_iters;        /* executions kept per sampled warp and pc (1 or 2) */
	unsigned int samples_per_pc;      /* sample_warps * sample_iters */
	/* written by the callbacks */
	unsigned int slots_used;          /* slots claimed */
	unsigned int pool_used;           /* sample records claimed (may pass GMT_SAMPLE_POOL: then none) */
	unsigned int dropped;             /* executions not counted because the table was full */
	unsigned int mode;                /* GMT_MODE_*: set by the host (GPUMEM_TRACE_DEVMODE, for measuring cost) */
	unsigned int count_mask;          /* counting by blocks (count_mask = 2^s - 1, 0 = every block): block b is
	                                     counted when (b & count_mask) == ((b >> s) & count_mask), one block in
	                                     each run of 2^s, its place turning with the run; the sampled warps lie
	                                     in counted blocks; the host scales the counts */
	unsigned int count_shift;         /* s */
	unsigned long long sample_blocks; /* the blocks the samples spread over: counted ones (all when not by blocks) */
};

#define GMT_MODE_FULL 0                /* everything */
#define GMT_MODE_RETURN 1              /* the callbacks return at once: the patching's own cost */
#define GMT_MODE_COUNTS 2              /* counts without samples: what sampling costs */
#define GMT_MODE_NOVALUES 3            /* counts and address samples, no value summaries: what values cost */

struct gmt_launch {
	struct gmt_launch_hdr h;
	struct gmt_slot slots[GMT_SLOTS];
	struct gmt_vsum vsum[GMT_SLOTS];  /* per slot (same index) */
	/* per slot and sampled warp: executions seen so far (for "iter") */
	unsigned int warp_iter[GMT_SLOTS * 64];
	struct gmt_sample pool[GMT_SAMPLE_POOL];
};

#define GMT_MAX_SAMPLE_WARPS 64   /* warp_iter's width: sampled warps per slot at most */

#endif
