/* case_counters.h - one case's counters, taken after its timing (runner.c, explain --run). */
#ifndef GPUMEM_BENCH_CASE_COUNTERS_H
#define GPUMEM_BENCH_CASE_COUNTERS_H

#include "gpumem/bench.h"
#include "gpumem/result.h"

/*
 * After the case's samples: one profiled call of ops->launch (host-timed
 * cases and launches without kernels are n/a), then the checks against the
 * case's claimed bytes and the model, then the bottleneck. A profiler
 * failure is recorded in cr->counters and never changes the case's status.
 */
void gm_case_counters(const struct gm_case *c, const struct gm_family_ops *ops, void *st,
		      struct gm_counters_session *s, const struct gm_device_info *dev, struct gm_case_result *cr);

#endif
