/*
 * trace_time_start.c - rule S2, the launch's start and drain in a kernel's measured time (docs/TRACE.md, "The
 * kernel's prediction"). The trace's times are CUPTI's device durations, from the grid's start to its end; the
 * launch model's levels are rates measured on long streams (calibrate), which leave out what every launch pays
 * once besides its traffic. The least launch traced on the device (the profile's launch_floor_us: a grid start,
 * one round trip with nothing else in flight, the drain) is that cost with one unloaded round trip in it:
 *   - a launch limited by a level (DRAM, L2, L1, blocks) streams at the level's rate only after its first bytes
 *     return, so it pays the whole floor besides its bytes (the start, the first trip, the drain);
 *   - a launch limited by its round trips (rule T2's waves) counts its first trip among its waves already, so it
 *     pays the floor less one unloaded round trip (the profile's dram_latency_ns, the pointer chase).
 * The two are added to their parts and joined again at the knee (rule T3), so a launch between the two limits
 * pays between the two. Only where the model's own start-up (rule S, launch_us: launches timed back to back) is
 * absent, as on the built-in H200 profile; a profile with launch_us keeps rule S's. No new constant:
 * launch_floor_us, dram_latency_ns, knee.
 */
#include <math.h>
#include "analysis/trace_internal.h"

double tk_start_drain(const struct gm_profile *prof, struct gm_launch_out *o)
{
	if (!prof || !(prof->launch_floor_us > 0) || o->t_start_ms > 0 || !(o->time_ms > 0))
		return 0;
	double floor = prof->launch_floor_us * 1e-3, trip = fmax(0, prof->dram_latency_ns) * 1e-6;
	double was = gm_launch_join(o->t_waves_ms, o->t_bandwidth_ms, prof->knee);
	double bw = o->t_bandwidth_ms > 0 ? o->t_bandwidth_ms + floor : 0;
	double waves = o->t_waves_ms > 0 ? o->t_waves_ms + fmax(0, floor - trip) : 0;
	double now = gm_launch_join(waves, bw, prof->knee);

	if (!(now > was))
		return 0;
	o->t_start_ms = now - was;
	double t0 = o->time_ms;
	o->time_ms += o->t_start_ms;
	o->gbs_low *= t0 / o->time_ms;
	o->gbs_high *= t0 / o->time_ms;
	o->gbs = o->useful_bytes / (o->time_ms * 1e-3) / 1e9;
	return o->t_start_ms;
}
