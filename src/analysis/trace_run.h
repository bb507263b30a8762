/*
 * trace_run.h - what the run-level rules of `gpumem trace` share (src/analysis/trace_run*.c; docs/TRACE.md, "The
 * run"): the accesses they compare, the buffers by byte range, the words' pieces, a finding priced. The helpers are
 * in trace_run_util.c (a leaf); trace_run.c calls the rules of trace_run_fuse.c and trace_run_input.c.
 */
#ifndef GPUMEM_ANALYSIS_TRACE_RUN_H
#define GPUMEM_ANALYSIS_TRACE_RUN_H

#include "analysis/trace_internal.h"

/* a fitted global load or store (op), one element a thread (no loop, no gather's stand-in, no clamped edge) */
int tr_plain(const struct gm_trace_insn *x, enum gm_trace_op op);
/* tr_plain, but also in a loop of any iterations (a thread's elements one a step: rule reload compares the steps) */
int tr_walk(const struct gm_trace_insn *x, enum gm_trace_op op);
/* x and y (of launches of one grid and block) touch the same elements: first byte, map, size and threads alike */
int tr_same_elems(const struct gm_trace_insn *x, const struct gm_trace_insn *y);
/* a and b have one grid and one block */
int tr_same_shape(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b);
/* b, of a's kernel, repeats a: each of its global accesses but ld and st (-1: none) has one of a touching the same
   elements (the same inputs again: a benchmark's repeats, a step iterated on its own output) */
int tr_repeats(const struct gm_trace_kernel *a, const struct gm_trace_kernel *b, int ld, int st);
/* no traced launch after the report's kernel ib loads [lo, hi) before one stores over it again */
int tr_dead_after(const struct gm_trace_report *r, int ib, int64_t lo, int64_t hi);
/* the byte the fitted map gives thread 0 */
int64_t tr_first_byte(const struct gm_trace_insn *x);
/* a global load (store) of any kind, with samples: its sampled byte range [*lo, *hi) (the last element's end) */
int tr_range(const struct gm_trace_insn *x, enum gm_trace_op op, int64_t *lo, int64_t *hi);
/* the bytes two ranges share */
int64_t tr_overlap(int64_t alo, int64_t ahi, int64_t blo, int64_t bhi);
/* 1 when a global access of k with op has sampled bytes in [lo, hi) (except instruction skip, -1: none) */
int tr_touches(const struct gm_trace_kernel *k, enum gm_trace_op op, int64_t lo, int64_t hi, int skip);
/* the instruction's place ("file:line", width 40) and the launch's name */
void tr_where(const struct gm_trace_insn *x, char *buf, size_t n);
const char *tr_name(const struct gm_trace_kernel *k);
/* the ms launch k saves without the instructions drop[0 .. n-1] (the launch model without them, the saving off the
   measured time, as the kernels' fixes are priced: tf_kernel_speedup); 0 where not priced */
double tr_saving_without(const struct gm_trace_kernel *k, const struct gm_profile *prof, const int *drop, int n);

/* the ms of one launch doing a's work and b's (the same grid and block) without a's instructions da[] and b's db[]:
   the launch model over the rest of both (rule R2's round trips the larger of the two), times the two launches'
   measured time over the model's for them alone (the model's error on them carried over); 0 where not priced */
double tr_merged_ms(const struct gm_trace_kernel *a, const int *da, int na, const struct gm_trace_kernel *b,
		    const int *db, int nb, const struct gm_profile *prof);

/* tr_merged_ms for n launches ks[0 .. n-1] (the same grid and block), each without its instructions drop[j][0 ..
   nd[j]-1] (drop NULL: none): rule R2's trips the largest (each launch's without its dropped instructions: a store
   dropped no longer splits the loads around it), rule OC's cap the smallest; 0 where not priced */
double tr_merged_n(const struct gm_trace_kernel *const *ks, const int *const *drop, const int *nd, int n,
		   const struct gm_profile *prof);

/* trace_run_fuse.c: rules reload and dropped_stores on consecutive launches a and b (the report's kernels ia,
   ia + 1): the finding filled and priced (saved_ms, words), 0; -1 where neither applies */
int tr_reload(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
/* trace_run_input.c: rule same_input on the report's kernels ia and ia + 1, the same way */
int tr_same_input(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
/* trace_run_prog.c: rule acc_chain from the report's kernel ia on (the chain's last kernel, or -1: not one); rules
   clone and domain on kernel ik alone (0, or -1 where it does not apply); each fills f (saved_ms, words) */
int tr_acc_chain(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
int tr_clone(const struct gm_trace_report *r, int ik, struct gm_trace_run_finding *f);
int tr_domain(const struct gm_trace_report *r, int ik, struct gm_trace_run_finding *f);
/* trace_run_loop.c: rules step_loop and log_passes from the report's kernel ia on (the chain's last kernel, or -1:
   not one), each filling f (saved_ms, words) */
int tr_step_loop(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
int tr_log_passes(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
/* trace_run_tree.c: rule reduce_passes from the report's kernel ia on (the chain's last kernel, or -1) */
int tr_reduce_passes(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
/* trace_run_batch.c: rule batch_launches from the report's kernel ia on (the chain's last kernel, or -1) */
int tr_batch_launches(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);
/* trace_run_layout.c: rule layout_copy on the report's kernels ia and ia + 1 (0, or -1 where it does not apply) */
int tr_layout_copy(const struct gm_trace_report *r, int ia, struct gm_trace_run_finding *f);

#endif
