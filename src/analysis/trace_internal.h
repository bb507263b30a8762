/*
 * trace_internal.h - what the files of `gpumem trace`'s analysis share
 * (src/analysis/trace_*.c): the fitted lanes and the fitting stages.
 */
#ifndef GPUMEM_ANALYSIS_TRACE_INTERNAL_H
#define GPUMEM_ANALYSIS_TRACE_INTERNAL_H

#include "gpumem/trace.h"

/* One sampled lane: its variables and its element index from the set's base. */
struct tf_pt {
	int64_t v[GM_TV_N];
	int64_t idx;
};

struct tf_set {
	struct tf_pt *p;
	int n;
	int64_t range[GM_TV_N];      /* each variable's values are 0 .. range - 1 over the launch */
	int64_t base;                /* byte address of index 0 (256 B aligned) */
	int elem;                    /* bytes per element */
	int grid_1d;                 /* gridDim.y = gridDim.z = 1 */
	int shared;                  /* a shared-memory instruction: block ids never move its addresses */
};

/* A least-squares problem: n rows, nf columns x (column-major), the target y, prev[j] = the column whose
   bit feature j continues (-1 if none). */
struct tf_ls {
	int n, nf;
	double *x, *y;
	int *prev;
	double *q, *r, *mean;
	int *dep;           /* 1: the samples do not determine this column */
};

/* Columns and target are filled by the caller after tf_ls_alloc (n rows, nf columns; prev -1 by default). */
int tf_ls_alloc(struct tf_ls *L, int n, int nf);
void tf_ls_free(struct tf_ls *L);
/* Solve and round; 0 with the integer coefficients and constant when they reproduce every row, else -1. */
int tf_ls_run(struct tf_ls *L, int64_t *ci, int64_t *c0);

#define TF_MAX_FEAT 112         /* columns of one least-squares problem */

/* The variables of lane `lane` of sample s of launch l. */
void tf_vars_of(const struct gm_trace_launch *l, const struct gm_trace_sample *s, int lane, int64_t v[GM_TV_N]);

/*
 * The lanes of instruction in (iters: the loop's iterations per warp) into s (allocated; free s->p).
 * -1 with why when the addresses cannot be expressed as elements (spread over more than 2^50 elements,
 * not multiples of the access size) or there is no sample.
 */
int tf_points(const struct gm_trace_launch *l, const struct gm_trace_instr *in, int iters, struct tf_set *s,
	      char *why, size_t n);

/* Fit s to a map of the ids (stages: affine, power-of-two modes, one more radix). 0 or -1 with why. */
int tf_fit(const struct tf_set *s, struct gm_trace_map *m, char *why, size_t n);

/* Move m->base down in 256 B steps until no thread of the launch (ranges) has a negative index. */
void tf_normalise(struct gm_trace_map *m, const int64_t range[GM_TV_N]);

/* After the map changed (or was fitted): the expressions, the counts, the check, the class. */
void tf_finish(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f);
/* trace_class_global.c: map m's element index for thread tid of block 0 (iteration 0). */
int64_t tc_map_at(const struct gm_trace_launch *l, const struct gm_trace_map *m, int64_t tid);
/* trace_class.c: sorts v[0 .. n-1] in place and returns how many distinct values it holds */
int tk_distinct(int64_t *v, int n);
/* trace_class_global.c: the class and its words of a global access whose map fits (f's measured and ideal
   sectors set). */
void tc_class_global(const struct gm_trace_launch *l, const struct gm_trace_instr *in, struct gm_trace_fit *f);
/* trace_class_global.c: 1 with f's class set when a global access no map fits has lanes the ids make (a stride
   lane by lane, row starts read in order, a scaled coordinate rounded); 0: a gather by its lanes. */
int tc_class_unfitted(const struct gm_trace_instr *in, struct gm_trace_fit *f);
/* trace_class_global.c: p when the sampled warps' active lanes are one residue of every p-th lane (a parity
   test on the thread index: one colour of a checkerboard), p = 8, 4 or 2; 0 otherwise. */
int tc_parity_period(const struct gm_trace_instr *in);

/* The launch's alignment mix (trace_mix.c): w[r] = the share of the executions the map covers whose lane 0
   starts at byte r of its 32 B sector; -1 where it does not apply (the samples stand for the launch then). */
int tm_mix(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f,
	   double w[GM_SECTOR_BYTES]);
/* 1 when the mix applies and every warp starts lane 0 on its sector (trace_class.c: sectors above the ideal of such
   a coalesced access are the data's mask, not its alignment). */
int tm_aligned(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f);
/* The byte of its sector where map m puts lane 0 of warp s. */
int tm_lane0_offset(const struct gm_trace_launch *l, const struct gm_trace_map *m, const struct gm_trace_sample *s);
/* 1 when every warp's lanes sit at the same offsets from its lane 0 under m (only shifted from warp to warp). */
int tm_shape_fixed(const struct gm_trace_launch *l, const struct gm_trace_map *m);

/* The open strides of k's fitted maps (ids the samples never varied), from the kernel's other
   instructions and CUDA's tiling idiom, each instruction finished again (trace_prior.c). */
void tf_priors(struct gm_trace_kernel *k);

/* 1 when one change fixes both: the same line (or pc without lines), space, operation, class and stride; rw (the
   fixes): a load and a store of the same fitted index count as one operation (reordering the threads moves
   both), and without lines any pc (an unrolled copy's pieces in a kernel built without -lineinfo). */
int tf_same_change(const struct gm_trace_insn *a, const struct gm_trace_insn *b, int rw);

/* The short name of a variable as the expression language spells it ("tx", "gid", "iter"). */
const char *tf_var_name(int var);

/* A replacement of instruction `ins`'s pattern (a fix): the 1D expression, its loop; expr NULL: left out. */
struct tk_swap {
	int ins;
	const char *expr;
	int iters;
	int64_t step;                /* elements per iteration */
	int64_t threads;             /* the threads of the replaced kernel (0: the kernel's own; trace_fix.c's warp_rows) */
	int vec;                     /* elements an access (0, 1: one; trace_fix_wide.c's widened fix: expr and step count
					vectors of vec elements) */
	int walk;                    /* 1: every instruction of the original's walk moved alike (trace_fix_swap.c's
					exchange of x and y): rule M folds its pieces as the original's */
};

/*
 * The launch model over the kernel's fitted patterns (only >= 0: that instruction alone; TK_WITH_TRIPS: all, with
 * rule R2's round trips of the replaced kernel), with the nsw replacements sw[]. 0 (why: what was left out, or
 * "") or -1 with why.
 */
#define TK_WITH_TRIPS (-2)
int tk_predict(const struct gm_trace_kernel *k, const struct gm_profile *prof, int only, const struct tk_swap *sw,
	       int nsw, struct gm_launch_out *out, char *why, size_t n);
/* the greatest common divisor, >= 0 (trace_fold.c, trace_prior.c, trace_mix.c, trace_time_lines.c) */
static inline int64_t tk_gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b, b = t;
	}
	return a < 0 ? -a : a;
}
/* a global atomic or reduction (rule block_reduce's and the verdict's scattered atomics) */
static inline int tk_is_global_atomic(const struct gm_trace_instr *in)
{
	return in->space == GM_TS_GLOBAL && (in->op == GM_TO_ATOMIC || in->op == GM_TO_REDUCTION);
}
/* trace_fix_rows.c: rule warp_rows at instruction i, the relaunch's swaps (the rows' first, *nrow of them; the
   other accesses after), the rows' lines; each lane taking v consecutive elements of its row as one access (v > 1:
   the widened fix); -1 where it does not apply */
int tf_warp_rows(const struct gm_trace_kernel *k, const struct gm_profile *prof, int i, struct tk_swap *sw, int *nsw,
		 int *nrow, char *lines, size_t ln, int v);
/* trace_fix_rows.c: the shuffle merge of the lanes' partial results that warp_rows's relaunch of a reduction ends
   with (the row's pieces sw[0 .. nrow-1] all loads, the result stored once a thread): the ms it adds, *values the
   4-byte words merged a round; 0 where the row is not a reduction */
double tf_merge_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw, int nrow,
		   int *values);
/* trace_fix_reduce.c: the ms block_reduce's shared window adds (each global float atomic the data addresses, its warp
   executions x the probe's compare-and-swap rounds at its most updated word's lanes, over the SMs), where a kernel
   has two or more of them; 0 otherwise */
double tf_window_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_swap.c: rule swap_xy at instruction lead, a launch relaunched with x and y (or z: *dim, 1 or 2, the
   dimension whose index moves the leader least) exchanged: each global load and store it moves as a swap (at most
   max); 0 where no access consecutive in x before is scattered by it, 1 where one is (a transpose: the exchange
   moves its scatter to the other side), -1 where it does not apply; *reshape 1 where the launch's block is one
   thread wide in x (dim3(1, 256)) and the fix exchanges the block's x and d instead, the index kept */
int tf_swap_xy(const struct gm_trace_kernel *k, int lead, struct tk_swap *sw, int *nsw, int max, int *dim,
	       int *reshape);
/* trace_fix_layout.c: rule row_layout, suggest's layout rewrite of instruction lead stored for every global access
   walking rows of its shape (the same modes of the ids): their ideal accesses added to sw[] (at most max), their
   lines to lines; the new count */
int tf_row_layout(const struct gm_trace_kernel *k, int lead, struct tk_swap *sw, int nsw, int max, char *lines,
		  size_t ln);
/* trace_fix_wide.c: rule wide_fix, the fixed kernel widened where the model finds it limited by blocks or
   latency: its speedup (s0 where widening does not pay by GM_TRACE_WORTH) and *v, its elements an access */
double tf_widen_fix(const struct gm_trace_kernel *k, const struct gm_profile *prof, int lead, int rows,
		    const struct tk_swap *sw, int nsw, int nrow, const char *limited, double s0, double g, double ex,
		    int *v);
/* trace_fix_reduce.c: rule block_reduce, the fix of a kernel's global atomics (its instruction, -1: none) */
int tf_block_reduce(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_local.c: rule registers, a local array indexed at run time kept in registers (its lead instruction,
   the kernel's other local instructions same_as it), -1 where it does not apply or pay */
int tf_local_array(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_local.c: the traced local access on the line with the most local bytes (the largest of that line), the
   place a call's stack frame is named at; -1: none */
int tk_local_lead(const struct gm_trace_kernel *k);
/* tk_local_lead where every traced local access with executions is at a fixed stack offset (classed coalesced: a
   call's frame), else -1: trace_verdict.c's local_frame and trace_fix_local.c's inline_call ask the same */
int tk_local_frame(const struct gm_trace_kernel *k);
/* trace_fix_tile.c, rule tile: global loads of a loop whose addresses several warps of a block re-read through L1
   (the operands of a product): the share of the measured time a shared-memory tile saves (0: none), the words in
   text, the lead load in *ins; tf_tile puts the tiling fix on it (its instruction, else -1) where it pays */
double tk_tile_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *text, size_t n, int *ins);
int tf_tile(struct gm_trace_kernel *k, const struct gm_profile *prof);

/* trace_occupancy.c: rule OC, the resident blocks an SM by threads, slots, registers and shared memory (k->occ,
   k->occ_cap), before the kernel's prediction. */
void tk_occupancy(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_shape.c: a 1D block of more threads than its row's elements: the idle lanes' share (0: none), the words
   in text, the instruction in *ins. */
double tk_idle_lanes(const struct gm_trace_kernel *k, char *text, size_t n, int *ins);
/* trace_fix_flat.c: rule flat_grid, an idle-lanes kernel (tk_idle_lanes) relaunched a thread an element of its rows
   laid end to end: the whole kernel's speedup (0: not priced), *row the row's elements, *lead the idle lanes'
   instruction; tf_flat_grid puts the fix on it (1) where it pays */
double tk_flat_grid(const struct gm_trace_kernel *k, const struct gm_profile *prof, int64_t *row, int *lead);
int tf_flat_grid(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_occ.c: rule OC's fix, the shared memory a block reserves cut to what it uses, on one instruction when
   worth it (the instruction, else -1). */
int tf_occupancy(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_class.c: a global atomic's active lanes over its distinct addresses, the mean of its sampled warps
   (lanes of one address a warp: rule block_reduce's warp runs, the verdict's words), *addrs (optional) the mean
   distinct addresses a sampled warp; 0 for another instruction. A warp the compiler aggregated (an integer add
   to a uniform address) is sampled with one lane, so its runs are 1. */
double tk_warp_runs(const struct gm_trace_instr *in, double *addrs);
/* trace_class.c: a global atomic add (min, max) of a fitted map that every warp of a block of several warps runs:
   the threads of block 0 (iteration 0, the first sample's lanes) over the distinct addresses the map gives them
   (the block's threads on one address: the map leaves out ids of the block, threadIdx.y in a column sum); 0 for
   another instruction */
double tk_block_sharers(const struct gm_trace_launch *l, const struct gm_trace_instr *in, const struct gm_trace_fit *f);
/* trace_class.c: one update's turn at its address (ns): a float atomic's atomic_f32_ns, another's
   atomic_u32_ns (the profile's one-address rates, rule X); 0 where the profile lacks it */
double tk_turn_ns(const struct gm_trace_instr *in, const struct gm_profile *prof);
/* trace_fix_fields.c: rule wide_fields (a record's fields read one at a time -> one vector); its lead
   instruction (the others of its records same_as it), -1 where it does not apply or pay */
int tf_wide_fields(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_fields.c (used by trace_fix.c's rules too): the whole kernel's speedup when the model's memory time goes to t_new (the time outside the
   memory instructions divided by g, rule I's floor by div) */
double tf_kernel_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new, double g,
			 double div);
/* trace_fix_fields.c: a global load or store without a loop whose warps take consecutive elements (coalesced,
   or no map fits but its measured sectors a request are the ideal: rows the data places) */
int tf_consecutive(const struct gm_trace_insn *x);
int tf_rows_take(const struct gm_trace_kernel *k, int v);
double tk_l2_write_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof);
int tk_repeat_stores(const struct gm_trace_kernel *k, int *lead);
/* a float atomicAdd on shared memory, a compare-and-swap loop: an SM runs one round of it (one execution of
   ATOMS.CAST.SPIN) in this many ns (results/nvidia-h200/probe-smem-atomic-cdb1b27; trace_fix_reduce.c) */
#define TK_SMEM_CAS_NS 1.515
int tk_cas_loop(const struct gm_trace_kernel *k, struct tk_swap *sw, int *nsw, int max, double *execs);
void tk_smem_cas(struct gm_trace_kernel *k, const struct gm_profile *prof);
int tf_warp_shuffle(struct gm_trace_kernel *k, const struct gm_profile *prof);
int tf_store_once(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_dup.c, rule DU: a store whose map writes each output from k threads (k of instruction x; va, vb the
   same-stride ids), the kernel's worst (*kk, *one: its map a constant), the verdict's words, the fix */
double tk_dup_k(const struct gm_trace_kernel *k, const struct gm_trace_insn *x, int *va, int *vb);
int tk_dup_store(const struct gm_trace_kernel *k, double *kk, int *one);
int tk_dup_one(const struct gm_trace_kernel *k);
double tk_dup_words(const struct gm_trace_kernel *k, char *buf, size_t n, int *ins);
int tf_dup_stores(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_whole.c (a leaf): instruction at's fix cleared and set to a whole-kernel speedup s over ninstr
   instructions (have, worth, share 1) */
struct gm_trace_fix *tf_whole_fix(struct gm_trace_kernel *k, int at, int ninstr, double s);
/* k2 = *k with its own copy of the instructions (*ins2, *in2; the caller frees both, NULL on failure), so that a
   fix's pricing may change their figures; -1 when out of memory */
int tf_kernel_copy(const struct gm_trace_kernel *k, struct gm_trace_kernel *k2, struct gm_trace_insn **ins2,
		   struct gm_trace_instr **in2);
/* trace_fix_lone.c, rule LT: global loads and stores run by one lane of one warp of each block, LT_MIN times a block
   or more (a loop run by one thread while the block waits). The instructions' count (0: none), *lead the one with the
   most executions, *per_block their executions a block */
int tk_lone_loop(const struct gm_trace_kernel *k, int *lead, double *per_block);
/* rule LT's fix: the loop spread over the block's threads (the lone requests as coalesced ones, a 32nd of them),
   priced by the launch model: the measured time over it (0: not priced) */
double tk_lone_speedup(const struct gm_trace_kernel *k, const struct gm_profile *prof);
/* the verdict's words (score: the share of the measured time the fix removes; 0: not named) and the fix */
double tk_lone_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins);
int tf_lone_loop(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_reread.c, rule RR: global loads that read the same bytes again across the grid's y (z) planes or across
   the K threads of a row; the verdict's words (score: the share of the measured time the fix removes; 0: not named)
   and the fix (load_once, share_row: its lead instruction, -1 where it does not apply or pay) */
double tk_reread_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins);
int tf_reread(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_stage.c, rule ST: a block-independent table staged into shared memory by each of many short blocks;
   the verdict's words (score as rule RR's) and the fix (stage_once: its lead instruction, -1: none) */
double tk_stage_words(const struct gm_trace_kernel *k, const struct gm_profile *prof, char *buf, size_t n, int *ins);
int tf_stage_once(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_blocks.c, rule FB: a launch limited by block starts (rule T4) in small 1D blocks whose indices are gid
   alone, relaunched in blocks of 256: its speedup (0: not priced; *m the blocks merged), and the fix on lead (1) */
double tk_fuller_blocks(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *m);
int tf_fuller_blocks(struct gm_trace_kernel *k, const struct gm_profile *prof, int lead);
/* trace_fix_threads.c, rule more_threads: a launch of too few warps walking a loop at ideal sectors, the loop split
   over v times the threads; the fix on lead (1 where it applies and pays) */
int tf_more_threads(struct gm_trace_kernel *k, const struct gm_profile *prof, int lead);
/* the same, the part ex (0 .. 1) of the time outside going with the sectors the change removes (the verdict's
   split: the model may price a scattered pattern low) */
double tf_kernel_speedup_ex(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new, double g,
			    double div, double ex);
/* the part form of it (trace_fix_fields.c) for a model that over-predicts the kernel, or under-predicts it where the
   change removes its wasted sectors: t_kept the predicted time of the part the change leaves (< 0: unknown), own
   the changed instructions' part (0 .. 1) of the kernel's global excess bytes */
double tf_kernel_speedup_part(const struct gm_trace_kernel *k, const struct gm_profile *prof, double t_new,
			      double t_kept, double g, double div, double ex, double own);
/* trace_fold.c: rule M, instructions walking the same bytes folded (it2[i] > 0: i carries it2[i] readings or pieces
   step2[i] bytes apart; < 0: folded into another), and walks of the same bytes from one start flattened (it1,
   step1: the walk's loop in one direction); tk_swap_of: the replacement of instruction i, NULL if none */
const struct tk_swap *tk_swap_of(const struct tk_swap *sw, int nsw, int i);
void tk_fold(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2);
void tk_fold_readings(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2,
		      int *it1, int64_t *step1);
/* trace_trips.c: one run of rule R2 (loads issued together): its trips, the bytes a thread loads in it, the 128 B
   lines a block reads in it (rule Q) */
struct tk_run {
	int trips, nloads;
	double bytes, lines;
	int hits;                    /* rule R3: iterations served by L1 without a trip (0: none) */
	double hit_lines;            /* the L1 wavefronts a block's loads and the stores after them take in such an
					iteration (rule R3b) */
};
#define TK_MAX_RUNS 256
/* rule R2: the round trips a thread waits for (the replaced kernel's with sw[]), its runs into runs[] */
int tk_round_trips(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_swap *sw, int nsw,
		   struct tk_run *runs, int *nruns);
/* no block id moves x's addresses (every block reads the same elements); rule A: x is served by its SM's L1 */
int tk_alike(const struct gm_trace_kernel *k, const struct gm_trace_insn *x);
int tk_in_l1(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x);
/* rule LA: x is a local access whose thread's stack (k->local_span) the SM's L1 holds for all its threads;
   tk_local_span: that span from the samples */
int tk_local_in_l1(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct gm_trace_insn *x);
double tk_local_span(const struct gm_trace_kernel *k);
/* rule Q: k->pred's trips each by what its run has in flight */
void tk_runs_own_trips(struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_run *runs,
		       int nruns);
/* trace_time_row.c, rule R3: the share of x's iterations in which its warp touches a sector it did not touch
   before (1: every one); x reads, each iteration, sectors that y read in it (the same walk) */
double tk_row_fresh(const struct gm_trace_insn *x);
int tk_row_same_sector(const struct gm_trace_insn *x, const struct gm_trace_insn *y);
/* rule R4: x is a global load whose fitted address does not move with its loop (the same bytes every iteration) */
int tk_row_invariant(const struct gm_trace_insn *x);
/* rule R3b: the L1 wavefronts a request of x takes when its lines are there (mean over its sampled requests) */
double tk_row_wavefronts(const struct gm_trace_insn *x);
/* rule R3: the L1 time of the iterations the runs read from L1, joined with o's round trips */
void tk_row_hits(const struct gm_trace_kernel *k, const struct gm_profile *prof, const struct tk_run *runs,
		 int nruns, struct gm_launch_out *o);
/* trace_time_lines.c: the distinct 128 B lines of a sampled request (mean); rule LG: a written gather's stand-in
   with the sampled lines a request where its sectors lie on lines of their own (in buf; NULL: as it is) */
double tk_lines_per_request(const struct gm_trace_insn *x);
const char *tk_gather_lines(const struct gm_trace_insn *x, char *buf, size_t n);
/* trace_time_smem.c: rule B, the barrier steps of a shared-memory loop (ms added to the prediction; 0: none) */
double tk_steps_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_named.c: the verdict's candidates the SASS, the allocations and the addresses name (docs/TRACE.md, "Named
   patterns"): strong (volatile) loads, a block's sum by one lane, a global staging buffer, a lane-indexed
   __constant__ table, mapped host memory; each scored by the share of the time or traffic it explains, ins the
   instruction it names (-1: an LDC, not a traced instruction). The count written (at most max). */
struct tk_named {
	double score;
	int ins;
	int time;                    /* 1: the score is a share of the measured time the launch model does not see */
	char text[300];
};
int tk_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c, int max);
/* trace_fix_chain.c: rule search_chain, a binary search per thread (a loop of dependent loads from a root the whole
   grid shares): the verdict's named candidate (1 written, else 0), and rule row_index's fix on its load (-1: none) */
int tk_chain_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c);
int tf_search_chain(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_computed.c: rule CS, the gathers whose addresses are arithmetic on the thread's index (no load or atomic
   before them, a fixed step in their loop; or beside such a one): sets each instruction's computed and its class's
   words; how many of the first kind */
int tk_computed_scatters(struct gm_trace_kernel *k);
/* trace_class_records.c: the class whole records, a strided walk's pieces that together read (or, issued back to
   back, write) every byte of each record, no wider access tiling it: sets their class and words; how many */
int tk_whole_records(struct gm_trace_kernel *k);
/* trace_computed.c: 1 when x is computed and scattered, each lane its own sector (CS_OWN of its lanes a request,
   CS_WIDE times the ideal): a hash or a permutation, whose data stored in the threads' order gains the whole
   coalescing factor; a computed gather whose lanes share sectors (a division, a clamp: im2col, a resize) is not */
int tk_computed_scattered(const struct gm_trace_insn *x);
/* trace_fix_computed.c: rule by_index, rule CS's computed gathers stored in the threads' order: the fix on the
   largest (the others same_as it), its index; -1 where none or not worth it */
int tf_by_index(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_chain.c: rule SC, the search chain's kernel time: the kernel without the search (its load coalesced,
   once a warp) plus the chain's dependent latencies; 1 where it set the prediction, else 0 */
int tk_chain_time(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_spill.c: rule spill, ptxas' register spills (a stack frame, no traced local access; the SASS's untraced
   STL / LDL): the verdict's named candidate (1 written, else 0), and its fix on an instruction without one (-1: none) */
int tk_spill_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c);
int tf_spill(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* a distinct address of a warp's LDC on one SM, ns: constant.c08 / 8 of results/nvidia-h200/final-3272f77's suite
   (8.354 ns for 8 distinct addresses a warp-level load, lines that stay in the constant cache; src/families/constant) */
#define TK_CONST_ADDR_NS 1.044
/* a kernel reading mapped host memory, GB/s: transfer.mapped_kernel_h2d of the same suite (50.41 GB/s) */
#define TK_MAPPED_GBS 50.41
/* the ms a launch's lane-indexed LDC take at d distinct addresses a warp (each once a warp); 0 without */
double tk_const_lane_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int d);
/* the bytes (sectors) the kernel's accesses to mapped host memory touch, *lead the largest (-1: none) */
double tk_host_bytes(const struct gm_trace_kernel *k, int *lead);
/* trace_floor.c: rule NF, a named pattern's serial time (mapped host memory across the host link, a lane-indexed
   __constant__ table's addresses one after another) as a floor under the kernel's prediction */
void tk_named_floor(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_fix_named.c: rules host_copy and constant_global, the fix of mapped host memory or of a lane-indexed
   __constant__ table; the instruction it is put on, -1 where neither applies */
int tf_named(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_points.c: the instruction's sampled address range (bytes); 0 without samples */
int tk_range_of(const struct gm_trace_instr *in, int64_t *lo, int64_t *hi);
/* trace_verdict.c: k->memory_bound from the measured figures; k->primary / k->secondary in words */
void tk_memory_bound(struct gm_trace_kernel *k, const struct gm_profile *prof);
void tk_bottlenecks(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* The kernel with each thread taking v consecutive elements as one access (v times fewer threads, blocks of the
   same size; sw[]: replaced patterns, expr NULL left out); 0 with *out, -1 when it cannot be predicted. */
int tk_predict_wide(const struct gm_trace_kernel *k, const struct gm_profile *prof, int v, const struct tk_swap *sw,
		    int nsw, struct gm_launch_out *out);
/* trace_rejoin.c: the time joined again after a rule changed a part (the interval scaled from t0) */
void tk_rejoin(struct gm_launch_out *o, const struct gm_profile *prof, double t0);
/* the slowest level and its name again after a rule changed one (before tk_rejoin) */
void tk_rebound(struct gm_launch_out *o, const struct gm_profile *prof);
/* trace_time_smem.c: rule V, the shared wavefronts as measured (the scale from the kernel's first prediction o,
   0: none; applied to a prediction); rule P, a tile each warp keeps to itself (1), its barrier taken out */
double tk_smem_ratio(const struct gm_trace_kernel *k, const struct gm_launch_out *o);
void tk_smem_as_measured(const struct gm_profile *prof, double s, struct gm_launch_out *o);
int tk_warp_private(const struct gm_trace_kernel *k);
void tk_no_barrier(const struct gm_profile *prof, struct gm_launch_out *o);
/* rule U: a launch of fewer blocks than SMs, its L1 time on as many SMs as it has blocks */
void tk_sms_in_use(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o);
/* rule WS: L2's store time from the stores' measured sectors, each written whole */
void tk_whole_sectors(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o);
/* rule SG: the wavefronts of shared accesses the data addresses, at the L1 level */
void tk_shared_gathers(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o);
/* rule L1S: L1's time at least the measured sectors' and wavefronts' at l1_gbs */
void tk_l1_measured(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o);
/* rule O: a tile's barrier work behind the other resident blocks' round trips */
void tk_barrier_overlap(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct gm_launch_out *o);
/* trace_time_start.c: rule S2, the launch's start and drain (the profile's launch_floor_us) where the model has no
   start-up (rule S's launch_us), added to its parts and joined again; the ms added (0: none) */
double tk_start_drain(const struct gm_profile *prof, struct gm_launch_out *o);

/* Rules I and F (trace_floor.c): the issue time of the launch's instructions, the larger of it and the shortest
   launch, and the prediction raised to that floor. */
/* Rule R2's gap: SASS bytes without a memory instruction that end one loop's stretch (the start of another) */
#define TK_TRIP_GAP 0x400
double tk_issue_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof);
/* Rule X: the time the launch's global atomics take on their most updated address (ms; 0: none shared) */
double tk_atomic_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof);
/* Rule C: a global atomic's passes (a sector's most updated word's lanes) on its hottest TK_SLICE_BYTES region, one
   L2 slice, over the launch (ns): the region's passes over the samples, each atomic_u32_ns (a float pass of lanes on
   one word atomic_f32_ns), times executions / samples; 0 unless every sample, of two blocks or more, has lanes
   there and the instruction runs once a warp at most (executions <= warps, the launch's). */
double tk_slice_ns(const struct gm_trace_instr *in, const struct gm_profile *prof, double warps);
double tk_floor_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double div);
/* Rule A (trace_floor.c): a global atomic's mean waiting turns a sampled warp (over its sectors, the lanes of the
   most updated word but one; 0 where its warps' lanes do not meet on words), and the launch's turns in ms (the
   profile's atomic_turn_ns each; *at the instruction with the most, -1: none; at may be NULL) */
double tk_warp_turns(const struct gm_trace_instr *in);
double tk_turns_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *at);
/* The same without rule X (the atomics reduced in the block first) */
double tk_floor_free_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, double div);
/* Rule G (trace_gfold.c): unfitted accesses whose lanes hit the same sectors, one access of a record. */
int tk_same_sectors(const struct gm_trace_insn *a, const struct gm_trace_insn *b);
int tk_fixed_offset(const struct gm_trace_insn *a, const struct gm_trace_insn *b);
void tk_fold_gathers(const struct gm_trace_kernel *k, const struct tk_swap *sw, int nsw, int *it2, int64_t *step2);
/* Rule H (trace_fold.c): marks the global loads of each walk whose sampled sectors other walks of its warps read. */
void tk_sector_hits(struct gm_trace_kernel *k);
/* The indices of the instructions that ran, in pc order (ix holds GM_TRACE_MAX_INSNS); returns how many. */
int tk_by_pc(const struct gm_trace_kernel *k, int *ix);
/* trace_why.c: the prediction's time set to t (its GB/s follow), and a rule's note appended to its why */
void tk_set_time(struct gm_trace_kernel *k, double t);
void tk_why(struct gm_trace_kernel *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* rule A's turns added to the prediction (before rule GC and the floors) */
void tk_add_turns(struct gm_trace_kernel *k, const struct gm_profile *prof);
void tk_floors(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_atomic_use.c: rule GC, a global compare-and-swap retry loop on words other threads update (instruction i;
   *rounds its executions a warp, *per_word the thread accesses a word, *span the bytes its words span; 0: not one),
   its rounds' time at the L2 slices (ms, *at the loop's CAS, -1: none) and that time added to k->pred; rule U1, a
   global atomic on addresses each hit once (instruction i); their verdict candidates (at most max) and their fixes
   (native_atomic, plain_store: the instruction fixed, -1) */
int tk_gcas_loop(const struct gm_trace_kernel *k, int i, double *rounds, double *per_word, double *span);
double tk_gcas_ms(const struct gm_trace_kernel *k, const struct gm_profile *prof, int *at);
void tk_gcas_add(struct gm_trace_kernel *k, const struct gm_profile *prof);
int tk_one_to_one(const struct gm_trace_kernel *k, int i);
int tk_atomic_named(const struct gm_trace_kernel *k, const struct gm_profile *prof, struct tk_named *c, int max);
int tf_atomic_use(struct gm_trace_kernel *k, const struct gm_profile *prof);
/* trace_run.c: the run-level rules (clear_acc, copy_back) over the report's consecutive launches, into r->run */
void tr_run(struct gm_trace_report *r);
#endif
