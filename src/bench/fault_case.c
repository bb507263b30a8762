/*
 * fault_case.c - the fault-injection build's case boundaries (src/core/fault.h):
 * the runner predicts each case as it begins it, so gm_predict_case is wrapped
 * (--wrap=gm_predict_case) to restart the per-case counts, and gm_table_write
 * (the run is over: the teardown counts as case "+"). Nothing otherwise.
 */
#ifdef GPUMEM_FAULT
#include "core/fault.h"
#include "gpumem/bench.h"

#include "gpumem/io.h"

void __real_gm_predict_case(const struct gm_case *c, struct gm_case_result *cr);
void __wrap_gm_predict_case(const struct gm_case *c, struct gm_case_result *cr);

void __wrap_gm_predict_case(const struct gm_case *c, struct gm_case_result *cr)
{
	gm_fault_case(c->name);
	__real_gm_predict_case(c, cr);
}

/* run and the multi-device runs print the table when the cases are done: what follows is the teardown ("+") */
void __real_gm_table_write(FILE *f, const struct gm_run_result *r);
void __wrap_gm_table_write(FILE *f, const struct gm_run_result *r);

void __wrap_gm_table_write(FILE *f, const struct gm_run_result *r)
{
	gm_fault_case("+");
	__real_gm_table_write(f, r);
}
#else
typedef int gm_fault_case_off; /* not a fault-injection build */
#endif
