/*
 * warmup.c - when the warm-up is done (include/gpumem/bench.h, docs/METHODOLOGY.md step 4): chunks of about
 * GM_WARMUP_CHUNK_MS of launches until two consecutive chunks agree within GM_WARMUP_AGREE_PCT, at most
 * GM_WARMUP_MAX_MS of work. The clocks of an idle GPU ramp up over the first ~10 ms of work (up to 17 % slower on
 * an H100); a chunk within 1 % of the one before says the ramp is over, and most cases settle after three chunks
 * instead of a fixed 50 ms. The runner (runner.c) queues and times the chunks; this file only decides.
 */
#include <math.h>
#include "gpumem/bench.h"

#define WARMUP_MAX_LAUNCHES (20 * 4096)

void gm_warmup_begin(struct gm_warmup *w, double one_ms)
{
	double k = one_ms > 0 ? floor(GM_WARMUP_CHUNK_MS / one_ms + 0.5) : 1;

	if (k < 1)
		k = 1;
	if (k > WARMUP_MAX_LAUNCHES)
		k = WARMUP_MAX_LAUNCHES;
	*w = (struct gm_warmup){ 0 };
	w->launches = (int)k;
	w->chunk_ms = one_ms > 0 ? k * one_ms : 0;
}

int gm_warmup_more(const struct gm_warmup *w)
{
	if (w->settled || w->queued >= GM_WARMUP_MAX_CHUNKS)
		return 0;
	/* a launch of unknown length: one chunk, as the old fixed warm-up ran one launch */
	if (!(w->chunk_ms > 0))
		return w->queued < 1;
	return w->queued * w->chunk_ms < GM_WARMUP_MAX_MS;
}

void gm_warmup_timed(struct gm_warmup *w, double ms)
{
	w->prev_ms = w->last_ms;
	w->last_ms = ms;
	w->timed++;
	if (w->timed >= 2 && w->prev_ms > 0 && fabs(ms - w->prev_ms) <= GM_WARMUP_AGREE_PCT / 100.0 * w->prev_ms)
		w->settled = 1;
}
