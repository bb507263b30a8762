/*
 * multi_read_many.c - many run documents read on a few threads and handed
 * on in their order (gpumem fleet over thousands of GPUs' documents: the
 * JSON parse is three quarters of its time, scripts/bench/scale.sh).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include "gpumem/fleet.h"
#include "gpumem/parallel.h"

/* Documents in flight per thread: a batch holds a few MB (a 63-case run is ~0.2 MB read). */
#define PER_THREAD 8

struct slot {
	struct gm_multi_run m;
	gm_status s;
	char err[512];                   /* the worker's message (gm_last_error is per thread) */
};

struct batch {
	const char *const *paths;
	struct slot *slots;
};

static void read_item(void *arg, void *state, int k)
{
	struct batch *b = arg;
	struct slot *sl = &b->slots[k];

	(void)state;
	sl->s = gm_multi_read(b->paths[k], &sl->m);
	if (sl->s)
		snprintf(sl->err, sizeof(sl->err), "%s", gm_last_error());
}

gm_status gm_multi_read_each(const char *const *paths, int n, int threads,
			     gm_status (*take)(void *arg, struct gm_multi_run *m), void *arg)
{
	int per = threads < 1 ? 1 : threads > GM_PARALLEL_MAX_THREADS ? GM_PARALLEL_MAX_THREADS : threads;
	int cap = per * PER_THREAD;
	struct slot *slots = calloc((size_t)cap, sizeof(*slots));
	gm_status s = GM_OK;

	if (!slots)
		return gm_fail(GM_ERR_NOMEM, "out of memory");
	json_object_seed(0);  /* jansson's one global, set before any thread builds an object */
	for (int at = 0; at < n && !s; at += cap) {
		int nb = n - at < cap ? n - at : cap, i;
		struct batch b = { paths + at, slots };

		gm_parallel_for(nb, per, NULL, NULL, read_item, &b);
		for (i = 0; i < nb && !s; i++) {
			if (slots[i].s)
				s = gm_fail(slots[i].s, "%s", slots[i].err);
			else
				s = take(arg, &slots[i].m);
			gm_multi_release(&slots[i].m);
		}
		for (; i < nb; i++)
			gm_multi_release(&slots[i].m);
	}
	free(slots);
	return s;
}
