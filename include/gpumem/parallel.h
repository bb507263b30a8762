/*
 * parallel.h - independent items on a few threads (src/core/parallel.c):
 * the launch model's windows, a run's case predictions.
 */
#ifndef GPUMEM_PARALLEL_H
#define GPUMEM_PARALLEL_H

#ifdef __cplusplus
extern "C" {
#endif

#define GM_PARALLEL_MAX_THREADS 16

/*
 * item(arg, state, k) for every k in [0, n), on up to `threads` threads (the
 * caller's among them; at most GM_PARALLEL_MAX_THREADS, never more than n).
 * Each thread's state comes from make(arg) and goes to drop(state) (both may
 * be NULL; item gets state NULL when make failed and says so in its result).
 * Threads that cannot be started leave their items to the others. Items write
 * their results to places of their own: the order they run in is not fixed.
 */
void gm_parallel_for(int n, int threads, void *(*make)(void *arg), void (*drop)(void *state),
		     void (*item)(void *arg, void *state, int k), void *arg);

/* The machine's online cores, at least 1. */
int gm_cores(void);

#ifdef __cplusplus
}
#endif
#endif
