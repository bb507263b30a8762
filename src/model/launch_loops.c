/*
 * launch_loops.c - rule R, a pattern's loops as the launch model evaluates
 * them (at most ITER_CAP iterations, scaled to all), and the global bytes a
 * thread moves. Used by the walk (launch_walk.c) and the DRAM rules D7 and D9
 * (launch_dram.c); calls no other file of the model.
 */
#include <stdint.h>
#include "model/model_internal.h"

/* ---- rule R: loops ------------------------------------------------------------------------------- */

/* A pattern's loops (rule R) as evaluated: at most ITER_CAP iterations, the first ones; *f scales them to all. */
struct gm_repeat gm_launch_loops(const struct gm_launch_in *in, int pi, double *f)
{
	struct gm_repeat rp = in->repeat ? in->repeat[pi] : (struct gm_repeat){ 1, 0, 1, 0 };
	int64_t all;

	rp.iters = rp.iters > 1 ? rp.iters : 1;
	rp.iters2 = rp.iters2 > 1 ? rp.iters2 : 1;
	all = (int64_t)rp.iters * rp.iters2;
	if (rp.iters2 > ITER_CAP)
		rp.iters2 = ITER_CAP;
	if ((int64_t)rp.iters * rp.iters2 > ITER_CAP)
		rp.iters = ITER_CAP / rp.iters2 > 1 ? ITER_CAP / rp.iters2 : 1;
	*f = (double)all / ((double)rp.iters * rp.iters2);
	return rp;
}

/* Global bytes one thread of the launch moves: every global pattern's accesses, loops counted. */
double gm_launch_bytes_per_thread(const struct gm_launch_in *in)
{
	double b = 0;

	for (int k = 0; k < in->npats; k++)
		if (in->pats[k].space == GM_SPACE_GLOBAL)
			b += (double)in->pats[k].elem_bytes * (double)gm_repeat_count(in->repeat ? &in->repeat[k] : NULL);
	return b;
}
