/*
 * trace_why.c - the two ways a rule moves the trace's kernel prediction (trace_kernel.c and the rules it calls):
 * its time set to another (a floor raises it, an added time lengthens it; the interval's GB/s and the achieved
 * GB/s follow), and a note of the rule appended to the prediction's why ("; " between notes).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "analysis/trace_internal.h"

void tk_set_time(struct gm_trace_kernel *k, double t)
{
	double t0 = k->pred.time_ms;

	k->pred.time_ms = t;
	k->pred.gbs_low *= t0 / t;
	k->pred.gbs_high *= t0 / t;
	k->pred.gbs = k->pred.useful_bytes / (t * 1e-3) / 1e9;
}

void tk_why(struct gm_trace_kernel *k, const char *fmt, ...)
{
	size_t len = strlen(k->pred_why);
	va_list ap;

	if (len) {
		snprintf(k->pred_why + len, sizeof(k->pred_why) - len, "; ");
		len = strlen(k->pred_why);
	}
	if (len + 1 >= sizeof(k->pred_why))
		return;
	va_start(ap, fmt);
	vsnprintf(k->pred_why + len, sizeof(k->pred_why) - len, fmt, ap);
	va_end(ap);
}
