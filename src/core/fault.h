/*
 * fault.h - fault injection for the test build (-DGPUMEM_FAULT=ON, issue 22
 * item 4; docs/HARDENING.md). Off by default: the normal binary has none of it.
 *
 * The calls of a class are counted per process; GPUMEM_FAULT picks one to fail:
 *   GPUMEM_FAULT=count        count only (the report at exit gives calls and sites per class)
 *   GPUMEM_FAULT=CLASS:N      the N-th call of CLASS fails (1-based)
 *   GPUMEM_FAULT=CLASS:@K     the first call from the K-th distinct call site of CLASS fails
 *   GPUMEM_FAULT=CLASS:case@R in every case of the run, the first call from the case's R-th distinct site
 *   GPUMEM_FAULT=CLASS:case#N in every case of the run, the case's N-th call of CLASS
 * A call site is the caller's return address and the two frames above it (so
 * gm_gpu_alloc called from two places is two sites). With GPUMEM_FAULT set the
 * report at exit gives, per class, calls/sites of the process and of each case.
 * Every wrapper reaches the real call through the linker (--wrap=NAME for the
 * statically linked CUDA runtime, fsync and rename; a wrapped dlsym for the
 * NVRTC, cuBLAS, CUPTI and NVML entry points), so no call site is edited.
 * Lines on stderr start with "gpumem-fault:".
 */
#ifndef GPUMEM_CORE_FAULT_H
#define GPUMEM_CORE_FAULT_H

#ifdef __cplusplus
extern "C" {
#endif

enum gm_fault_class {
	GM_FC_ALLOC, GM_FC_PINNED, GM_FC_LAUNCH, GM_FC_COPY, GM_FC_EVENT, GM_FC_STREAM, GM_FC_PEER,
	GM_FC_COMPILE, GM_FC_BLAS, GM_FC_CUPTI, GM_FC_NVML, GM_FC_WRITE, GM_FC_RENAME, GM_FC_COUNT
};

/* Count a call of cls from site (a return address); 1 when this call must fail. */
int gm_fault_hit(int cls, const char *call, const void *site);

/* A case starts (the runner's gm_predict_case, wrapped): the per-case counts restart. */
void gm_fault_case(const char *name);

/* The name of the case running now ("-" before the first, "+" after the last); never NULL, never freed. */
const char *gm_fault_case_now(void);

/* 1 when GPUMEM_FAULT is set (the wrappers then keep their ledger and report at exit). */
int gm_fault_on(void);

#ifdef __cplusplus
}
#endif
#endif
